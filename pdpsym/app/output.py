"""JSON output of the commands: one object on stdout.

Exact values are printed as ``{"exact": ..., "decimal": ..., "enclosure": [lo, hi]}``.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

from pdpsym.core.certify import Exact, certify
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str


def value_json(value: Exact, digits: int = 30) -> dict[str, Any]:
    """An exact value in the agreed JSON form, certified to ``digits`` digits."""
    return certify(value, digits).as_json()


def rational_str(q: Fraction | int) -> str:
    return fraction_str(Fraction(q))


def dumps(obj: Any, compact: bool = False) -> str:
    if compact:  # json's C encoder: large outputs (every WHG node) in a fraction of the time
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    return json.dumps(obj, indent=2, ensure_ascii=False)


def print_json(obj: Any, compact: bool = False) -> None:
    """Print one JSON object to stdout, and nothing else."""
    sys.stdout.write(dumps(obj, compact) + "\n")


def write_atomic(path: str | Path, data: str | bytes, field_name: str = "--out") -> None:
    """Write ``data`` (text as UTF-8) to ``path`` via a temporary file in the same directory and a rename.

    A failure or an interruption at any point leaves ``path`` as it was (absent or
    the previous content) and no temporary file behind.
    """
    target = Path(path)
    parent = target.parent if str(target.parent) else Path(".")
    try:
        if target.is_dir():
            raise InputError(field_name, f"is a directory: {target}")
        if not parent.is_dir():
            raise InputError(field_name, f"no such directory: {parent}")
    except OSError as err:  # a name the OS refuses (too long, ...)
        raise InputError(field_name, f"unusable path: {err.strerror}") from None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent)
    except OSError as err:
        raise InputError(field_name, f"cannot write in {parent}: {err.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            fh.flush()
            os.fsync(fh.fileno())
        # mkstemp makes the file 0600; give it the mode a plain open() would have
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException as err:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(err, OSError):
            raise InputError(field_name, f"cannot write {target}: {err.strerror}") from None
        raise

"""JSON output of the commands: one object on stdout.

Exact values are printed as ``{"exact": ..., "decimal": ..., "enclosure": [lo, hi]}``.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from pdpsym.app.writes import write_output
from pdpsym.core.certify import Exact, certify
from pdpsym.core.numbers import fraction_str


def value_json(value: Exact, digits: int = 30) -> dict[str, Any]:
    """An exact value in the agreed JSON form, certified to ``digits`` digits."""
    return certify(value, digits).as_json()


def rational_str(q: Fraction | int) -> str:
    return fraction_str(Fraction(q))


def safe_json(text: str) -> str:
    """JSON text with every non-printable character (a bidirectional override, a line
    separator, a lone surrogate) written as a ``\\uXXXX`` escape: the same JSON value,
    and nothing that reorders or splits the terminal's line. Outside strings, JSON text
    has only spaces and newlines, which are kept."""
    if text.isprintable() or all(c.isprintable() or c == "\n" for c in text):
        return text

    def esc(c: str) -> str:
        if c == "\n" or c.isprintable():
            return c
        cp = ord(c)
        if cp > 0xFFFF:  # a surrogate pair, as JSON spells it
            cp -= 0x10000
            return f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04x}"
        return f"\\u{cp:04x}"

    return "".join(esc(c) for c in text)


def dumps(obj: Any, compact: bool = False) -> str:
    if compact:  # json's C encoder: large outputs (every WHG node) in a fraction of the time
        return safe_json(json.dumps(obj, separators=(",", ":"), ensure_ascii=False))
    return safe_json(json.dumps(obj, indent=2, ensure_ascii=False))


def print_json(obj: Any, compact: bool = False) -> None:
    """Print one JSON object to stdout, and nothing else."""
    sys.stdout.write(dumps(obj, compact) + "\n")


def write_atomic(path: str | Path, data: str | bytes, field_name: str = "--out") -> None:
    """Write ``data`` (text as UTF-8) through ``path``: see :func:`pdpsym.app.writes.write_output`
    (symlinks followed, devices and pipes written directly, regular files replaced
    atomically, nothing left behind on an error)."""
    write_output(path, data, field_name)

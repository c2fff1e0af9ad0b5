"""What the commands print: one JSON object on stdout, numbers as people read them, and
files written atomically.

In JSON, exact values are ``{"exact": ..., "decimal": ..., "enclosure": [lo, hi]}``; in
text, a number too long to read (``--lam 1e9999``) prints in scientific form
(:func:`number_text`) while ``--json`` keeps its exact form.
"""

from __future__ import annotations

import contextlib
import decimal
import json
import os
import re
import sys
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str

if TYPE_CHECKING:
    from pdpsym.core.certify import Exact


def value_json(value: Exact, digits: int = 30) -> dict[str, Any]:
    """An exact value in the agreed JSON form, certified to ``digits`` digits."""
    # imported here: certify loads sympy and flint, which `pdpsym --help` must not wait for
    from pdpsym.core.certify import certify

    return certify(value, digits).as_json()


# the longest exact text printed as is; longer numbers print in scientific form
LONGEST = 24
_DIGIT_RUN = re.compile(r"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def scientific(value: Fraction | int | str, digits: int = 6) -> str:
    """``value`` in scientific form, ``1e9999`` or ``-2.5e-40``, rounded to ``digits`` digits.

    ``value`` is a rational, or its exact text (``"p/q"`` or a decimal, of any length).
    The mantissa is the exact value rounded to nearest (decimal arithmetic, no float);
    a ``~`` in front says the rounding changed it, so ``1e9999`` means exactly 10^9999.

    >>> scientific(Fraction(10) ** 9999), scientific(Fraction(-1, 3 * 10**40))
    ('1e9999', '~-3.33333e-41')
    """
    with decimal.localcontext() as ctx:
        ctx.prec = digits
        ctx.Emax, ctx.Emin = decimal.MAX_EMAX, decimal.MIN_EMIN
        ctx.traps[decimal.Inexact] = False
        if isinstance(value, str):  # Decimal reads any length (int() stops at 4300 digits)
            num, _, den = value.partition("/")
            a, b = decimal.Decimal(num), decimal.Decimal(den or "1")
        else:
            q = Fraction(value)
            a, b = decimal.Decimal(q.numerator), decimal.Decimal(q.denominator)
        ctx.clear_flags()
        d = a / b
        inexact = bool(ctx.flags[decimal.Inexact])
    if d == 0:
        return "0"
    sign, ds, exp = d.as_tuple()
    assert isinstance(exp, int)  # a finite quotient
    text = "".join(map(str, ds)).rstrip("0")
    power = exp + len(ds) - 1
    mantissa = text[0] + ("." + text[1:] if len(text) > 1 else "")
    return f"{'~' if inexact else ''}{'-' if sign else ''}{mantissa}e{power}"


_RATIONAL = re.compile(r"-?\d+(?:\.\d+)?(?:/\d+)?")
# a number inside an expression: digits, a fraction part, an exponent
_NUMBER = re.compile(r"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def number_text(value: Fraction | int | str, digits: int = 6) -> str:
    """A number for text output: its exact form when short, else :func:`scientific`.

    ``value`` is a rational or the exact text of one (``"1/3"``, ``"0.25"``); in any
    other text (an expression such as ``log(1 + 10**...)``) each number longer than
    :data:`LONGEST` characters is replaced by its scientific form. ``--json`` keeps the
    exact forms; only text output calls this.

    >>> number_text(Fraction(1, 3)), number_text("1/10000000000000000000000000000000")
    ('1/3', '1e-31')
    """
    if not isinstance(value, str):
        text = fraction_str(Fraction(value))
        return text if len(text) <= LONGEST else scientific(value, digits)
    if len(value) <= LONGEST:
        return value
    if _RATIONAL.fullmatch(value):
        return scientific(value, digits)
    return _NUMBER.sub(
        lambda m: m.group() if len(m.group()) <= LONGEST else scientific(m.group(), digits),
        value,
    )


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

"""What the commands print: one JSON object on stdout, numbers as people read them, and
files written atomically.

In JSON, exact values are ``{"exact": ..., "decimal": ..., "enclosure": [lo, hi]}``; in
text, a number too long to read (``--lam 1e9999``) prints in scientific form
(:func:`number_text`) while ``--json`` keeps its exact form.
"""

from __future__ import annotations

import decimal
import json
import re
import sys
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdpsym.app.writes import write_output
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


def short_enclosure(lo: str, hi: str, digits: int = 8) -> str:
    """``[lo, hi]`` for a text line: each end rounded outward to ``digits`` significant
    digits (``lo`` down, ``hi`` up, in decimal arithmetic), so the interval printed still
    holds the value; ``--json`` keeps the ends in full.

    >>> short_enclosure("3.85082223236767956041124476510365", "3.85082223236767956041124476510366")
    '[3.8508222, 3.8508223]'
    >>> short_enclosure("-0.25", "0.5")
    '[-0.25, 0.5]'
    """
    ends = []
    for text, rounding in ((lo, decimal.ROUND_FLOOR), (hi, decimal.ROUND_CEILING)):
        try:
            with decimal.localcontext() as ctx:
                ctx.prec, ctx.rounding = digits, rounding
                ctx.Emax, ctx.Emin = decimal.MAX_EMAX, decimal.MIN_EMIN
                d = +decimal.Decimal(text)
            ends.append(str(d).replace("E", "e") if d.is_finite() else text)
        except decimal.InvalidOperation:  # not a decimal (an end written another way)
            ends.append(text)
    return f"[{ends[0]}, {ends[1]}]"


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


def baseline_line(b: Mapping[str, Any], at: str) -> str:
    """One text line for a baseline's JSON: its scale and the leakage ``at`` it (worst
    target), or why it does not apply."""
    if b.get("applicable") is False:
        return f"{b['name']}: not applicable ({b['reason']})"
    return (
        f"{b['name']}: scale {b['scale']['decimal']}, leakage {at} "
        f"{b['leakage']['decimal']} (worst target {b['worst_target']})"
    )


def print_json(obj: Any, compact: bool = False) -> None:
    """Print one JSON object to stdout, and nothing else."""
    sys.stdout.write(dumps(obj, compact) + "\n")


def write_atomic(path: str | Path, data: str | bytes, field_name: str = "--out") -> None:
    """Write ``data`` (text as UTF-8) through ``path``: see :func:`pdpsym.app.writes.write_output`
    (symlinks followed, devices and pipes written directly, regular files replaced
    atomically, nothing left behind on an error)."""
    write_output(path, data, field_name)

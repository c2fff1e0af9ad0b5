"""Exact numbers from user text, by a strict grammar.

User text is never evaluated: a number is an optional sign followed by an integer, a
fraction ``p/q`` or a decimal (optionally with an exponent). ``"3/10"``, ``"0.3"``,
``"-2"`` and ``"1e-3"`` are accepted and become :class:`fractions.Fraction` exactly;
anything else (``"1/0"``, ``"nan"``, ``"2**3"``, ``"__import__('os')"``) is an
:class:`~pdpsym.core.errors.InputError` naming the field.
"""

from __future__ import annotations

import functools
import math
import re
from fractions import Fraction
from typing import TYPE_CHECKING

from pdpsym.core.errors import InputError

if TYPE_CHECKING:
    import sympy

_FRACTION = re.compile(r"[+-]?[0-9]+/[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]{1,4})?")

Number = Fraction | int

#: the most digits a number may have (mantissa and denominator together); a longer one
#: is refused by name rather than built (10^4 digits are already beyond any model)
MAX_DIGITS = 10_000


def int_of_digits(digits: str) -> int:
    """``int(digits)`` for a string of decimal digits of any length, whatever Python's
    int-string conversion limit (4300 digits by default).

    Strings of at most 4000 digits go to ``int`` directly; longer ones are converted in
    chunks of 4000 digits (``value * 10^len(chunk) + chunk``), each chunk below the limit.

    Args:
        digits: a non-empty string of ASCII decimal digits, unsigned. It is not checked
            here (the callers' regular expressions guarantee it); the length callers allow
            is at most :data:`MAX_DIGITS`.

    Returns:
        The non-negative integer the digits denote, exactly.

    References:
        Knuth, TAOCP vol. 2, Section 4.4 (radix conversion).

    Examples:
        >>> int_of_digits("0042")
        42
        >>> int_of_digits("1" + "0" * 5000) == 10**5000  # beyond the 4300-digit limit
        True
    """
    if len(digits) <= 4000:
        return int(digits)
    value = 0
    for k in range(0, len(digits), 4000):
        chunk = digits[k : k + 4000]
        value = value * 10 ** len(chunk) + int(chunk)
    return value


def parse_rational(text: object, field: str) -> Fraction:
    """Parse user text as an exact rational by the strict grammar of this module.

    Accepted: an ``int`` (made a Fraction), a :class:`~fractions.Fraction` (returned as
    it is), or a string, stripped of surrounding whitespace, that is a fraction
    ``[+-]p/q``, an integer or a decimal with an optional exponent of at most four digits
    (``"3/10"``, ``"-2"``, ``"0.3"``, ``"1e-3"``). Nothing is evaluated. Short strings (32
    characters or fewer) are parsed through a cache, since table cells repeat.

    Args:
        text: the value to parse: an int, a Fraction or a string. Bools, floats and any
            other type are refused.
        field: the name of the parameter or file location the value came from; it is the
            ``field`` of the :class:`~pdpsym.core.errors.InputError` raised.

    Returns:
        The value as an exact :class:`~fractions.Fraction`.

    Raises:
        InputError: naming ``field``, when ``text`` is a bool or not an int, Fraction or
            string, has more than :data:`MAX_DIGITS` digits, has a zero denominator, or
            is not in the grammar (``"nan"``, ``"2**3"``, ``"1/2/3"``).

    References:
        Python docs, :mod:`fractions`; the decimal-to-rational conversion of Knuth,
        TAOCP vol. 2, Section 4.4.

    Examples:
        >>> parse_rational("3/10", "lam"), parse_rational(" 1e-3 ", "lam")
        (Fraction(3, 10), Fraction(1, 1000))
    """
    if isinstance(text, bool):
        raise InputError(field, f"expected a number, got {text!r}")
    if isinstance(text, int):
        return Fraction(text)
    if isinstance(text, Fraction):
        return text
    if not isinstance(text, str):
        raise InputError(field, f'expected a number as a string such as "3/10", got {text!r}')
    s = text.strip()
    if sum(ch.isdigit() for ch in s) > MAX_DIGITS:
        raise InputError(field, f"a number of more than {MAX_DIGITS} digits is not accepted")
    # table cells repeat ("0", "1", "3/100"): short ones are parsed once each
    q = _cached_rational(s) if len(s) <= 32 else _rational(s)
    if q is not None:
        return q
    if _FRACTION.fullmatch(s):
        raise InputError(field, f"zero denominator in {_short(text)}")
    raise InputError(field, f"not a number: {_short(text)} (use forms like 3/10, 0.3 or -2)")


def _rational(s: str) -> Fraction | None:
    """A well-formed number, or None (the caller says what is wrong)."""
    if _FRACTION.fullmatch(s):
        num, den = s.split("/")
        d = int_of_digits(den)
        if d == 0:
            return None
        sign = -1 if num.startswith("-") else 1
        return Fraction(sign * int_of_digits(num.lstrip("+-")), d)
    if _DECIMAL.fullmatch(s):
        return _decimal(s)
    return None


_cached_rational = functools.lru_cache(maxsize=1 << 14)(_rational)


def _decimal(s: str) -> Fraction:
    """An exact Fraction of a decimal matched by ``_DECIMAL`` (``[+-]d.d[e[+-]k]``)."""
    sign = -1 if s.startswith("-") else 1
    body = s.lstrip("+-")
    mantissa, _, exponent = body.lower().partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac) or "0"
    shift = (int(exponent) if exponent else 0) - len(frac)
    value = Fraction(sign * int_of_digits(digits))
    return value * 10**shift if shift >= 0 else value / 10**-shift


def _short(text: str) -> str:
    """``repr`` of user text, cut to 60 characters so that an error stays one short line."""
    r = repr(text)
    return r if len(r) <= 60 else r[:57] + "..."


def parse_positive(text: object, field: str) -> Fraction:
    """Parse a rational that must be strictly positive (a scale such as lambda).

    Args:
        text: the value, in any form :func:`parse_rational` accepts.
        field: the name reported by the :class:`~pdpsym.core.errors.InputError`.

    Returns:
        The value as an exact :class:`~fractions.Fraction`, ``> 0``.

    Raises:
        InputError: naming ``field``, when ``text`` does not parse or is ``<= 0``.

    References:
        Python docs, :mod:`fractions`.
    """
    value = parse_rational(text, field)
    if value <= 0:
        raise InputError(field, f"must be > 0, got {fraction_str(value)}")
    return value


def parse_int(text: object, field: str, lo: int | None = None, hi: int | None = None) -> int:
    """An integer in the strict number grammar, optionally within ``[lo, hi]``.

    Any form :func:`parse_rational` accepts whose value is an integer is accepted:
    ``"12"``, ``"1e3"`` (1000), ``"4/2"`` (2).

    Args:
        text: the value, in any form :func:`parse_rational` accepts.
        field: the name reported by the :class:`~pdpsym.core.errors.InputError`.
        lo: the smallest accepted value (inclusive), or None for no lower bound.
        hi: the largest accepted value (inclusive), or None for no upper bound.

    Returns:
        The value as a Python ``int``.

    Raises:
        InputError: naming ``field``, when ``text`` does not parse, is not an integer, or
            lies outside ``[lo, hi]``.

    References:
        Python docs, :mod:`fractions`.

    Examples:
        >>> parse_int("1e3", "n"), parse_int("4/2", "n", lo=0, hi=10)
        (1000, 2)
    """
    q = parse_rational(text, field)
    if q.denominator != 1:
        raise InputError(field, f"must be an integer, got {text!r}")
    v = int(q)
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        bounds = (
            f"between {lo} and {hi}"
            if lo is not None and hi is not None
            else (f">= {lo}" if lo is not None else f"<= {hi}")
        )
        raise InputError(field, f"must be {bounds}, got {v}")
    return v


def int_str(n: int) -> str:
    """``str(n)`` for an int of any size, whatever Python's int-string conversion limit.

    Ints of at most 13,000 bits (under 4000 digits) use ``str``; larger ones are split by
    ``divmod(n, 10^3000)`` recursively and the lower part zero-padded.

    Args:
        n: any integer (negative ones get a leading ``-``).

    Returns:
        The exact decimal text of ``n``.

    References:
        Knuth, TAOCP vol. 2, Section 4.4 (radix conversion).

    Examples:
        >>> int_str(-12)
        '-12'
        >>> int_str(10**5000) == "1" + "0" * 5000
        True
    """
    if n.bit_length() <= 13_000:  # below 4000 digits
        return str(n)
    if n < 0:
        return "-" + int_str(-n)
    high, low = divmod(n, 10**3000)
    return int_str(high) + str(low).zfill(3000)


def fraction_str(q: Fraction) -> str:
    """The exact text form of a rational: ``"3/10"``, ``"-2"``.

    Args:
        q: the rational (in lowest terms, as a Fraction always is).

    Returns:
        ``"p/q"``, or ``"p"`` when the denominator is 1; the sign is on the numerator.
        :func:`parse_rational` reads it back to ``q``.

    References:
        Python docs, :mod:`fractions`.

    Examples:
        >>> from fractions import Fraction
        >>> fraction_str(Fraction(-3, 10)), fraction_str(Fraction(4, 2))
        ('-3/10', '2')
    """
    if q.denominator == 1:
        return int_str(q.numerator)
    return f"{int_str(q.numerator)}/{int_str(q.denominator)}"


def to_sympy(q: Fraction | int) -> sympy.Rational:
    """A rational as a sympy ``Rational``, exactly (sympy is imported on first use).

    Args:
        q: a Fraction or an int.

    Returns:
        The equal ``sympy.Rational``.

    References:
        SymPy docs, ``sympy.core.numbers.Rational``.
    """
    import sympy  # lazily: parsing numbers must not load sympy

    q = Fraction(q)
    return sympy.Rational(q.numerator, q.denominator)


def from_sympy(r: sympy.Expr) -> Fraction:
    """A sympy ``Rational`` (or ``Integer``) back to a Fraction, exactly.

    Args:
        r: a sympy expression that is a Rational.

    Returns:
        The equal :class:`~fractions.Fraction`.

    Raises:
        TypeError: when ``r`` is not a Rational (a programming error, not bad user input).

    References:
        SymPy docs, ``sympy.core.numbers.Rational``; Python docs, :mod:`fractions`.
    """
    if not r.is_Rational:
        raise TypeError(f"not a rational: {r}")
    return Fraction(int(r.p), int(r.q))  # type: ignore[attr-defined]


def short_between(mid: Fraction, lo: Fraction, hi: Fraction) -> Fraction:
    """A short rational strictly inside ``(lo, hi)`` near ``mid`` (keeps numbers small).

    Args:
        mid: the point wanted (inside ``(lo, hi)``).
        lo: the open interval's lower end.
        hi: its upper end (``> lo``).

    Returns:
        The first ``round(mid d) / d`` for ``d = 1, 2, 4, ...`` strictly inside ``(lo, hi)``
        and within a quarter of the width of ``mid`` (below a width of ``2^-200``, ``d``
        starts 64 doublings short of ``2 / width``).

    References:
        Li et al. (2019), Eq. 2: the bisection for the smallest scale meeting eps
        (:mod:`pdpsym.audit.calibration`) keeps its midpoints short with it.
    """
    width = hi - lo
    den = 1
    if width < Fraction(1, 2**200):
        # a far scale (an eps of thousands of digits): from 1, the walk would take as
        # many steps as the width has bits; start 64 short of the d that surely works
        den = 2 ** max(0, (2 * width.denominator // width.numerator).bit_length() - 64)
    while True:
        q = Fraction(round(mid * den), den)
        if lo < q < hi and abs(q - mid) <= width / 4:
            return q
        den *= 2


def float_below(q: Fraction) -> float:
    """The largest float at or below ``q`` (directed rounding of an exact rational).

    Args:
        q: the rational.

    Returns:
        ``float(q)`` when it is at or below ``q``, else the float just below it.

    References:
        IEEE 754-2019, Section 4.3 (rounding-direction attributes).
    """
    f = float(q)
    return math.nextafter(f, -math.inf) if Fraction(f) > q else f


def float_above(q: Fraction) -> float:
    """The smallest float at or above ``q``.

    Args:
        q: the rational.

    Returns:
        :func:`float_below` of ``-q``, negated (negation is exact in binary floating
        point).

    References:
        IEEE 754-2019, Section 5.5.1 (negate is exact).
    """
    return -float_below(-q)

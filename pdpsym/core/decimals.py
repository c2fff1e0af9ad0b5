"""Certified decimal text: exact rationals and float or ball enclosures to the digits
that are certain.

Two routes, one rule. :func:`fixed_digits` rounds both ends of an exact enclosure
half-even to the same significant digits; the digits are certain when the two roundings
agree (then the rounded string is the correctly rounded value). :func:`certified_decimals`
applies the same rule to float enclosures in bulk (the batch engines' fast path), with
directed decimal conversion of the float ends. Everything here is integer and rational
arithmetic (no precision is raised), so this module needs no flint.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

# --- decimal formatting -------------------------------------------------------------


def _floor_log10(x: Fraction) -> int:
    """floor(log10(x)) for x > 0, exactly (integer comparisons only)."""
    n, d = x.numerator, x.denominator
    e = math.floor(math.log10(n) - math.log10(d))
    # the float guess can be off by one near powers of ten: correct it exactly
    while (d * 10**e > n) if e >= 0 else (d > n * 10 ** (-e)):
        e -= 1
    while (d * 10 ** (e + 1) <= n) if e + 1 >= 0 else (d <= n * 10 ** (-e - 1)):
        e += 1
    return e


def _round_half_even(x: Fraction) -> int:
    return _round_ratio(x.numerator, x.denominator, "nearest")


def _round_ratio(num: int, den: int, mode: str) -> int:
    """``num / den`` (``den > 0``) rounded to an integer: half-even, down or up."""
    n, rem = divmod(num, den)
    if mode == "down":
        return n
    if mode == "up":
        return n + (1 if rem else 0)
    if 2 * rem > den or (2 * rem == den and n % 2 == 1):
        n += 1
    return n


def round_significant(x: Fraction, digits: int, mode: str = "nearest") -> tuple[int, int]:
    """Round an exact rational to ``digits`` significant decimal digits, exactly.

    Args:
        x: the rational.
        digits: the number of significant digits, ``>= 1``.
        mode: ``"nearest"`` (ties to even), ``"down"`` (toward -inf); any other value
            rounds up (toward +inf).

    Returns:
        ``(mantissa, exponent)`` with ``10^(digits-1) <= |mantissa| < 10^digits`` and
        ``mantissa * 10^exponent`` the rounded value; ``(0, 0)`` for ``x = 0``.

    References:
        Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., SIAM 2002, Section
        2.1 (rounding, round to even); IEEE 754-2008, Section 4.3 (rounding directions);
        Knuth, TAOCP vol. 2, Sec. 4.4 (radix conversion, in integer arithmetic only).

    Examples:
        >>> round_significant(Fraction(2, 3), 3), round_significant(Fraction(2, 3), 3, "down")
        ((667, -3), (666, -3))
        >>> round_significant(Fraction(-9999, 1000), 3)  # the carry: -10.0
        (-100, -1)
    """
    if x == 0:
        return 0, 0
    e = _floor_log10(abs(x)) - digits + 1
    num, den = x.numerator, x.denominator
    if e >= 0:
        den *= 10**e
    else:
        num *= 10 ** (-e)
    m = _round_ratio(num, den, mode)
    if abs(m) >= 10**digits:  # rounding carried into a new digit
        m = _round_ratio(m, 10, mode)
        e += 1
    return m, e


def format_decimal(mantissa: int, exponent: int) -> str:
    """Readable decimal text for ``mantissa * 10^exponent``, every digit of the mantissa kept.

    With ``n = len(str(|mantissa|)) + exponent`` (the place of the decimal point counted
    from the first digit): positional notation when ``-6 < n <= 21`` (at most five zeros
    between the point and the first digit, at most 21 digits before the point),
    scientific (``1.5e+21``, ``1e-7``) otherwise.

    Args:
        mantissa: the significant digits, as a signed integer.
        exponent: the power of ten.

    Returns:
        The text, ``"0"`` for a zero mantissa.

    References:
        ECMAScript Language Specification, Number::toString (the same switch between
        positional and scientific notation).

    Examples:
        >>> format_decimal(12345, -2), format_decimal(15, 20), format_decimal(1, -7)
        ('123.45', '1.5e+21', '1e-7')
    """
    if mantissa == 0:
        return "0"
    sign = "-" if mantissa < 0 else ""
    digits = str(abs(mantissa))
    point = len(digits) + exponent  # position of the decimal point from the left
    if -6 < point <= 21:
        if exponent >= 0:
            return sign + digits + "0" * exponent
        if point > 0:
            return sign + digits[:point] + "." + digits[point:]
        return sign + "0." + "0" * (-point) + digits
    lead, rest = digits[0], digits[1:]
    return f"{sign}{lead}{'.' + rest if rest else ''}e{point - 1:+d}"


def decimal_string(x: Fraction, digits: int, mode: str = "nearest") -> str:
    """``x`` rounded to ``digits`` significant digits, as decimal text.

    Args:
        x: the rational.
        digits: the number of significant digits, ``>= 1``.
        mode: ``"nearest"`` (ties to even), ``"down"`` or ``"up"``
            (see :func:`round_significant`).

    Returns:
        The text of :func:`format_decimal` for the rounded value.

    References:
        Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., Section 2.1.
    """
    return format_decimal(*round_significant(x, digits, mode))


def fixed_digits(lo: Fraction, hi: Fraction, digits: int) -> tuple[str, tuple[str, str]] | None:
    """The decimal both ends of ``[lo, hi]`` round to, with an outward-rounded enclosure.

    The rule of :func:`certify`: when neither end is 0 or of the other sign and both ends
    round (ties to even) to the same ``digits`` significant digits, every number in the
    interval rounds to them (rounding is monotone), so all those digits are certain.

    Args:
        lo: the lower end, a rational.
        hi: the upper end, ``>= lo``.
        digits: the number of significant digits, ``>= 1``.

    Returns:
        ``(decimal, (lo_text, hi_text))``, the ends rounded outward to ``digits + 3``
        digits, or None when the interval holds 0 or the ends round differently.

    References:
        Moore, Kearfott, Cloud, Introduction to Interval Analysis, SIAM 2009, Ch. 2 (outward
        rounding); Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., Section
        2.1.

    Examples:
        >>> fixed_digits(Fraction(1414, 1000), Fraction(14143, 10000), 3)
        ('1.41', ('1.41400', '1.41430'))
    """
    if not (lo > 0 or hi < 0):
        return None
    a = round_significant(lo, digits)
    if a != round_significant(hi, digits):
        return None
    return format_decimal(*a), (
        decimal_string(lo, digits + 3, "down"),
        decimal_string(hi, digits + 3, "up"),
    )


def enclosure_decimal(lo: Fraction, hi: Fraction, max_digits: int) -> tuple[str, int]:
    """The most significant digits that an enclosure ``lo <= x <= hi`` certifies.

    Tries ``max_digits``, ``max_digits - 1``, ... digits and keeps the first count at which
    both ends round (ties to even) to the same digits; since rounding is monotone, that is
    the correct rounding of ``x``.

    Args:
        lo: the lower end, a rational.
        hi: the upper end, a rational ``>= lo``.
        max_digits: the most digits wanted, ``>= 1``.

    Returns:
        ``(text, d)``: the correct rounding of ``x`` to ``d`` digits, ``d <= max_digits``;
        ``(decimal_string(lo, max_digits), max_digits)`` when ``lo == hi`` (zero
        included); ``("", 0)`` when not even one digit is certain, for instance when
        ``lo < hi`` and ``lo <= 0 <= hi``.

    Raises:
        ValueError: when ``lo > hi``.

    References:
        Moore, Kearfott, Cloud, Introduction to Interval Analysis, SIAM 2009, Ch. 2; Higham,
        Accuracy and Stability of Numerical Algorithms, 2nd ed., Section 2.1.

    Examples:
        >>> enclosure_decimal(Fraction(314, 100), Fraction(3142, 1000), 6)
        ('3.14', 3)
    """
    if lo > hi:
        raise ValueError("empty enclosure")
    if lo == hi:
        return decimal_string(lo, max_digits), max_digits
    if lo <= 0 <= hi:
        return "", 0
    for d in range(max_digits, 0, -1):
        a = round_significant(lo, d)
        if a == round_significant(hi, d):
            return format_decimal(*a), d
    return "", 0


# --- certified decimals from float enclosures (the batch engines' fast path) ----------


def _sci_text(text: str) -> str:
    """:func:`format_decimal` of the nonzero number written ``text`` in Python's ``.Ne``
    form, by slicing the string (no integer round trip)."""
    head, _, exp = text.partition("e")
    sign = ""
    if head[0] == "-":
        sign, head = "-", head[1:]
    return _place(sign, head[0] + head[2:], int(exp) + 1)


def _place(sign: str, digits: str, point: int) -> str:
    """:func:`format_decimal`'s text of ``0.digits * 10^point`` (``digits`` without
    leading zeros): positional when ``-6 < point <= 21``, else scientific."""
    if -6 < point <= 21:
        n = len(digits)
        if point >= n:
            return sign + digits + "0" * (point - n)
        if point > 0:
            return sign + digits[:point] + "." + digits[point:]
        return sign + "0." + "0" * (-point) + digits
    return f"{sign}{digits[0]}{'.' + digits[1:] if len(digits) > 1 else ''}e{point - 1:+d}"


def _directed(x: float, digits: int, up: bool, text: str | None = None) -> str:
    """``x`` rounded to ``digits`` significant digits toward +inf (``up``) or -inf
    (``text``: ``format(x, f".{digits - 1}e")`` when the caller has it)."""
    if text is None:
        text = format(x, f".{digits - 1}e")
    f = float(text)  # correctly rounded, so monotone: f > x implies text > x, f < x text < x
    if f != x:
        outward = f > x if up else f < x
    else:  # the float cannot tell: compare the decimal with the float's exact value
        exact, near = Decimal(x), Decimal(text)
        outward = (near >= exact) if up else (near <= exact)
    if outward:
        return _sci_text(text)
    # one unit in the last digit outward: away from 0 for the end on 0's far side
    head, _, exp = text.partition("e")
    sign = "-" if head[0] == "-" else ""
    stepped = str(int(head.lstrip("-").replace(".", "")) + (1 if up != bool(sign) else -1))
    if len(stepped) != digits or stepped == "0":  # crossed a power of ten: exactly
        return decimal_string(Fraction(x), digits, "up" if up else "down")
    return _place(sign, stepped, int(exp) + 1)


def certified_decimals(
    lo: Sequence[float], hi: Sequence[float], digits: int
) -> list[dict[str, Any] | None]:
    """:func:`certified_decimal` of every enclosure ``[lo[k], hi[k]]``, in one loop.

    Args:
        lo: the lower ends (floats, exact as dyadic rationals).
        hi: the upper ends, as many.
        digits: significant digits wanted.

    Returns:
        For each enclosure the decimal and its outward-rounded enclosure, or None.

    References:
        Li et al. 2019, Sec. V (the WHG values the batch certifies); Python docs,
        ``format`` (correctly rounded float formatting).
    """
    spec, spec3, d3 = f".{digits - 1}e", f".{digits + 2}e", digits + 3
    out: list[dict[str, Any] | None] = []
    isfinite = math.isfinite
    for a_f, b_f in zip(lo, hi, strict=True):
        if not (a_f > 0 or b_f < 0) or not (isfinite(a_f) and isfinite(b_f)):
            out.append(None)
            continue
        a = format(a_f, spec)
        if a != format(b_f, spec):
            out.append(None)
            continue
        # each end rounded to nearest first; when that is already outward (the float
        # of the text tells, being correctly rounded) it is the directed rounding
        t_lo, t_hi = format(a_f, spec3), format(b_f, spec3)
        e_lo = _sci_text(t_lo) if float(t_lo) < a_f else _directed(a_f, d3, False, t_lo)
        e_hi = _sci_text(t_hi) if float(t_hi) > b_f else _directed(b_f, d3, True, t_hi)
        out.append({"decimal": _sci_text(a), "enclosure": [e_lo, e_hi]})
    return out


def certified_decimal(lo: float, hi: float, digits: int) -> dict[str, Any] | None:
    """``{"decimal", "enclosure"}`` as :meth:`Certified.as_json` gives them (without the
    closed form), or None when the float enclosure ``[lo, hi]`` does not fix ``digits``
    significant digits (or holds 0, or is not finite).

    The rule of :func:`fixed_digits` (both ends round half-even to the same ``digits``
    digits; the enclosure rounded outward to ``digits + 3``), computed from
    Python's correctly rounded float formatting (``format(x, ".Ne")`` rounds the float's
    exact binary value half-even), with one exact :class:`~decimal.Decimal` comparison per
    directed end: many times faster than :class:`~fractions.Fraction` for the thousands
    of nodes of a batch, and equal to it (tested against :func:`fixed_digits`).

    Args:
        lo: the lower end (a float, exact as a dyadic rational).
        hi: the upper end.
        digits: significant digits wanted.

    Returns:
        The decimal and its outward-rounded enclosure, or None.

    References:
        Li et al. 2019, Sec. V (the WHG values the batch certifies).
    """
    return certified_decimals([lo], [hi], digits)[0]

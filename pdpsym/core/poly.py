"""Integer generating polynomials of count laws.

A structured model (a Markov chain, independent records) gives the law of a count
``S = sum_t c_t(x_t)`` (non-negative integer contributions) as a generating polynomial
``J(z) = sum_c n_c z^c`` with **integer** coefficients ``n_c``: every probability is
scaled by a common denominator, so the dynamic programme is exact integer arithmetic
(python-flint ``fmpz_poly``). The conditional law is ``n_c / J(1)``. The Laplace
mixtures over these polynomials, and the sup of their log-ratio, are
:mod:`pdpsym.loss.count_mixtures`.

The models see the polynomials as opaque values supporting ``+``, ``*`` (by a polynomial
or an int) and ``==``; the ball helpers at the end (scaled integers, endpoints, the
bits a number of digits needs) serve the engines above core.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from flint import arb, ctx, fmpq, fmpz_poly

from pdpsym.core.balls import Ball, arb_from_fraction, ball_endpoints

#: an opaque exact integer polynomial (python-flint ``fmpz_poly``)
IntPoly = Any
#: an opaque real ball (python-flint ``arb``)


def zero() -> IntPoly:
    """The zero polynomial.

    Returns:
        The zero integer polynomial (degree ``-1``).

    References:
        FLINT docs, ``fmpz_poly``; python-flint docs, ``fmpz_poly``.
    """
    return fmpz_poly([])


def monomial(coefficient: int | IntPoly, degree: int) -> IntPoly:
    """``coefficient * z^degree``, for an integer coefficient or an integer polynomial
    (whose coefficients move up ``degree`` places: no multiplication by the monomial).

    Args:
        coefficient: the integer coefficient, or an integer polynomial.
        degree: the exponent, ``>= 0``.

    Returns:
        The integer polynomial.

    Raises:
        ValueError: when ``degree < 0``.

    References:
        FLINT docs, ``fmpz_poly`` and ``fmpz_poly_shift_left``; python-flint docs,
        ``fmpz_poly``.

    Examples:
        >>> coefficients(monomial(from_coefficients([1, 2]), 2))
        [0, 0, 1, 2]
    """
    if degree < 0:
        raise ValueError("negative degree")
    if isinstance(coefficient, fmpz_poly):
        return coefficient.left_shift(degree) if degree else coefficient
    return fmpz_poly([0] * degree + [int(coefficient)])


def linear_combination(terms: Sequence[tuple[IntPoly | None, int]]) -> IntPoly:
    """``sum_j c_j p_j`` over ``(p_j, c_j)``, skipping absent polynomials (``None``) and
    zero coefficients, and not multiplying by 1 (big-integer polynomials: every copy
    counts).

    Args:
        terms: pairs of an integer polynomial (or ``None``) and an integer coefficient.

    Returns:
        The integer polynomial (zero when every term is skipped).

    References:
        FLINT docs, ``fmpz_poly_scalar_addmul_fmpz``; python-flint docs, ``fmpz_poly``.

    Examples:
        >>> p = from_coefficients([1, 2])
        >>> coefficients(linear_combination([(p, 3), (None, 5), (p, 0), (monomial(1, 1), 1)]))
        [3, 7]
    """
    acc = None
    for p, c in terms:
        if p is None or c == 0:
            continue
        term = p if c == 1 else p * c
        acc = term if acc is None else acc + term
    return zero() if acc is None else acc


def forward_step(
    vector: Sequence[IntPoly],
    matrix: Sequence[Sequence[int]],
    exponents: Sequence[int],
    allowed: Sequence[bool],
) -> list[IntPoly]:
    """One step of a chain's forward recursion on count polynomials: ``F'(j) = z^{e_j}
    sum_i F(i) A[i][j]`` for each state ``j`` the record may take, zero for the others.

    Args:
        vector: ``F(i)`` per state (integer polynomials).
        matrix: the integer transition weights ``A[i][j]``.
        exponents: each state's exponent ``e_j`` (its contribution to the count).
        allowed: per state, whether the record may take it (a known record: one).

    Returns:
        The next vector ``F'``.

    References:
        Rabiner, "A tutorial on hidden Markov models" (1989), Sec. III-A (the forward
        recursion); FLINT docs, ``fmpz_poly``.

    Examples:
        >>> f = forward_step([monomial(1, 0), monomial(2, 0)], [[1, 1], [0, 3]], [0, 1], [True, True])
        >>> [coefficients(p) for p in f]
        [[1], [0, 7]]
    """
    k = len(vector)
    return [
        monomial(linear_combination([(vector[i], matrix[i][j]) for i in range(k)]), exponents[j])
        if allowed[j]
        else zero()
        for j in range(k)
    ]


def from_coefficients(coefficients: Sequence[int]) -> IntPoly:
    """``sum_c coefficients[c] z^c``.

    Args:
        coefficients: the integer coefficients, constant term first.

    Returns:
        The integer polynomial (trailing zeros dropped).

    References:
        FLINT docs, ``fmpz_poly``; python-flint docs, ``fmpz_poly``.

    Examples:
        >>> coefficients(from_coefficients([1, 2, 1, 0]))
        [1, 2, 1]
    """
    return fmpz_poly([int(c) for c in coefficients])


def coefficients(p: IntPoly) -> list[int]:
    """The coefficients as Python ints, constant term first.

    Args:
        p: an integer polynomial.

    Returns:
        The list up to the degree (``[]`` for zero).

    References:
        FLINT docs, ``fmpz_poly``; python-flint docs, ``fmpz_poly``.
    """
    return [int(c) for c in p.coeffs()]


def coefficients_at(p: IntPoly, degrees: Sequence[int]) -> list[int]:
    """The coefficients of the given degrees as Python ints (0 beyond the degree).

    Args:
        p: an integer polynomial.
        degrees: non-negative degrees.

    Returns:
        One int per degree.

    References:
        FLINT docs, ``fmpz_poly``; python-flint docs, ``fmpz_poly``.

    Examples:
        >>> coefficients_at(from_coefficients([1, 2, 0, 4]), [3, 0, 7])
        [4, 1, 0]
    """
    top = p.degree()
    return [int(p[d]) if d <= top else 0 for d in degrees]


def total(p: IntPoly) -> int:
    """``p(1)``, the sum of the coefficients (the normalizer of a count law).

    Args:
        p: an integer polynomial.

    Returns:
        The exact integer ``p(1)``.

    References:
        FLINT docs, ``fmpz_poly``; python-flint docs, ``fmpz_poly``; Feller, An Introduction
        to Probability Theory and Its Applications, vol. 1, Ch. XI (generating functions:
        ``J(1)`` is the total mass).
    """
    return int(p(1))


def is_zero(p: IntPoly) -> bool:
    """Whether ``p`` is the zero polynomial.

    Args:
        p: an integer polynomial.

    Returns:
        True exactly when every coefficient is 0.

    References:
        FLINT docs, ``fmpz_poly``; python-flint docs, ``fmpz_poly``.
    """
    return bool(p.degree() < 0)


def degree(p: IntPoly) -> int:
    """The degree.

    Args:
        p: an integer polynomial.

    Returns:
        The degree, ``-1`` for the zero polynomial.

    References:
        FLINT docs, ``fmpz_poly``; python-flint docs, ``fmpz_poly``.
    """
    return int(p.degree())


def power(p: IntPoly, k: int) -> IntPoly:
    """``p^k`` exactly.

    Args:
        p: an integer polynomial.
        k: the exponent, an integer ``>= 0`` (flint refuses a negative one unless ``p``
            is a unit).

    Returns:
        The exact integer polynomial ``p^k``.

    References:
        Knuth, TAOCP vol. 2, Section 4.6 (polynomial arithmetic); FLINT docs, ``fmpz_poly``;
        python-flint docs, ``fmpz_poly``.
    """
    return p**k


def exact_divide(p: IntPoly, q: IntPoly) -> IntPoly:
    """``p / q`` where ``q`` divides ``p`` exactly (checked).

    Args:
        p: the dividend, an integer polynomial.
        q: the divisor, a non-zero integer polynomial.

    Returns:
        The exact quotient.

    Raises:
        ArithmeticError: when the division leaves a remainder.
        ZeroDivisionError: when ``q`` is zero.

    References:
        FLINT docs, ``fmpz_poly``; python-flint docs, ``fmpz_poly``; Knuth, TAOCP vol. 2,
        Section 4.6.1 (division of polynomials).

    Examples:
        >>> coefficients(exact_divide(from_coefficients([1, 2, 1]), from_coefficients([1, 1])))
        [1, 1]
    """
    quo, rem = divmod(p, q)
    if rem.degree() >= 0:
        raise ArithmeticError("not an exact division")
    return quo


def product(polys: Sequence[IntPoly]) -> IntPoly:
    """The product of the polynomials by a balanced tree of multiplications.

    Pairs are multiplied level by level, so the factors of each multiplication have similar
    degrees, which suits flint's fast multiplication.

    Args:
        polys: the integer polynomials.

    Returns:
        The exact product (``1`` for no polynomials).

    References:
        Knuth, TAOCP vol. 2, Section 4.6 (polynomial arithmetic); FLINT docs, ``fmpz_poly``;
        python-flint docs, ``fmpz_poly`` (``fmpz_poly_mul``).
    """
    items = list(polys)
    if not items:
        return fmpz_poly([1])
    while len(items) > 1:
        items = [
            items[k] * items[k + 1] if k + 1 < len(items) else items[k]
            for k in range(0, len(items), 2)
        ]
    return items[0]


# --- certified Laplace mixtures ---------------------------------------------------------


def relative_floor(f: IntPoly, bits: int) -> tuple[IntPoly, int]:
    """A coefficient-wise relative rounding down of ``f`` by a power of two.

    ``(g, s)`` with ``g = floor(f / 2^s)`` coefficient-wise, ``s`` as large as keeps every
    nonzero coefficient of ``f`` at least ``2^(s + bits)``: then
    ``2^s g_d <= f_d < 2^s g_d / (1 - 2^-bits)`` for every ``d``, so products of such
    factors stay relatively accurate, and cheap.

    Args:
        f: an integer polynomial.
        bits: the relative accuracy kept, in bits.

    Returns:
        ``(g, s)``; ``(f, 0)`` when ``f`` is zero, has a negative coefficient, or has
        nothing to drop (its largest coefficient has at most ``bits + 1`` bits).

    References:
        Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., SIAM 2002, Section
        3.1 (products of relative errors ``(1 + delta)``).

    Examples:
        >>> g, s = relative_floor(from_coefficients([1000, 3000]), 4)
        >>> coefficients(g), s
        ([31, 93], 5)
    """
    if f.degree() < 0 or int(f.height_bits()) <= bits + 1:
        return f, 0  # nothing to drop (the smallest coefficient is no larger)
    smallest = min(filter(None, f.coeffs()))  # C-level filter and min (no Python loop)
    if smallest < 0:
        return f, 0
    shift = max(0, int(smallest.bit_length()) - 1 - bits)
    return (f // (1 << shift) if shift else f), shift


def scaled_int(value: int, shift: int, prec: int) -> Ball:
    """A ball containing ``value * 2^-shift``.

    Args:
        value: an integer.
        shift: the power of two to divide by (negative multiplies).
        prec: working precision in bits (set for the computation, then restored).

    Returns:
        An arb ball containing ``value * 2^-shift``.

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic",
        IEEE Trans. Computers 66(8), 2017.
    """
    with ctx.workprec(prec):
        return arb(int(value)) * arb(2) ** (-shift)


def height_bits(p: IntPoly) -> int:
    """The bit length of the largest coefficient in absolute value.

    Args:
        p: an integer polynomial.

    Returns:
        The number of bits (0 for the zero polynomial).

    References:
        FLINT docs, ``fmpz_poly``; python-flint docs, ``fmpz_poly``
        (``fmpz_poly_max_bits``).
    """
    return 0 if p.degree() < 0 else int(p.height_bits())


def ball_of(value: Fraction, prec: int) -> Ball:
    """A ball containing a rational at ``prec`` bits.

    Args:
        value: an exact rational.
        prec: working precision in bits (set for the conversion, then restored).

    Returns:
        An arb ball containing ``value`` (exact when it is a dyadic rational that fits).

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic",
        IEEE Trans. Computers 66(8), 2017.
    """
    with ctx.workprec(prec):
        return arb_from_fraction(value)


def log_ratio_ball(num: Fraction, den: Fraction, prec: int) -> Ball:
    """``ln(num/den)`` as a ball.

    Args:
        num: a rational ``> 0``.
        den: a rational ``> 0``.
        prec: working precision in bits (set for the computation, then restored).

    Returns:
        An arb ball containing ``ln(num/den)`` (NaN when ``num/den <= 0``).

    Raises:
        ZeroDivisionError: when ``den`` is 0.

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic",
        IEEE Trans. Computers 66(8), 2017.
    """
    with ctx.workprec(prec):
        return arb(fmpq(num.numerator * den.denominator, num.denominator * den.numerator)).log()


def endpoints(ball: Ball) -> tuple[Fraction, Fraction]:
    """The exact rational ends of a finite ball.

    Args:
        ball: an arb ball.

    Returns:
        ``(lo, hi)`` as Fractions (:func:`~pdpsym.core.balls.ball_endpoints`).

    Raises:
        ArithmeticError: when the ball is not finite.

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic",
        IEEE Trans. Computers 66(8), 2017, Section 2.
    """
    return ball_endpoints(ball)


def bits_needed(digits: int) -> int:
    """A first working precision for ``digits`` certain digits.

    ``digits log2(10)`` bits plus 40 guard bits, at least 64. It usually suffices; callers
    still check that the digits are certain and raise the precision when they are not.

    Args:
        digits: the number of significant decimal digits wanted.

    Returns:
        The precision in bits.

    References:
        Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., SIAM 2002, Section
        2.1 (decimal digits and binary precision).
    """
    return max(64, int(digits * math.log2(10)) + 40)


__all__ = [
    "linear_combination",
    "IntPoly",
    "ball_of",
    "height_bits",
    "scaled_int",
    "bits_needed",
    "coefficients",
    "coefficients_at",
    "degree",
    "endpoints",
    "exact_divide",
    "forward_step",
    "from_coefficients",
    "is_zero",
    "log_ratio_ball",
    "monomial",
    "power",
    "product",
    "relative_floor",
    "relative_floor",
    "total",
    "zero",
]

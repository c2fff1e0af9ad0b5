"""Integer generating polynomials of count laws, and certified Laplace mixtures over them.

A structured model (a Markov chain, independent records) gives the law of a count
``S = sum_t c_t(x_t)`` (non-negative integer contributions) as a generating polynomial
``J(z) = sum_c n_c z^c`` with **integer** coefficients ``n_c``: every probability is
scaled by a common denominator, so the dynamic programme is exact integer arithmetic
(python-flint ``fmpz_poly``). The conditional law is ``n_c / J(1)``.

The privacy engines need, for a Laplace mechanism of rate ``rho = 1/b`` (in count units),
the mixture values at the support points ``j = 0..N``::

    M(j) = sum_c n_c e^{-rho |j - c|}

(the breakpoint lemma: the sup of a log-ratio of two such mixtures is attained at one of
them). :func:`mixture_values` encloses all ``N + 1`` values by two first-order ball
recurrences; every term is non-negative, so the enclosures keep their relative accuracy,
and a ball too wide for a decision is recomputed at a higher precision by the caller.

This module is the only place outside :mod:`pdpsym.core.certify` and
:mod:`pdpsym.core.expoly` that touches flint types; the models see the polynomials as
opaque values supporting ``+``, ``*`` (by a polynomial or an int) and ``==``.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from flint import arb, arb_poly, ctx, fmpq, fmpz_poly

from pdpsym.core.certify import arb_from_fraction, ball_endpoints

#: an opaque exact integer polynomial (python-flint ``fmpz_poly``)
IntPoly = Any
#: an opaque real ball (python-flint ``arb``)
Ball = Any


def zero() -> IntPoly:
    """The zero polynomial.

    Returns:
        The zero integer polynomial (degree ``-1``).

    References:
        FLINT docs, ``fmpz_poly``; python-flint docs, ``fmpz_poly``.
    """
    return fmpz_poly([])


def monomial(coefficient: int, degree: int) -> IntPoly:
    """``coefficient * z^degree``.

    Args:
        coefficient: the integer coefficient.
        degree: the exponent, ``>= 0``.

    Returns:
        The integer polynomial.

    Raises:
        ValueError: when ``degree < 0``.

    References:
        FLINT docs, ``fmpz_poly``; python-flint docs, ``fmpz_poly``.
    """
    if degree < 0:
        raise ValueError("negative degree")
    return fmpz_poly([0] * degree + [int(coefficient)])


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


def mixture_values(
    j: IntPoly,
    n: int,
    rate: Fraction,
    prec: int,
    shift: int = 0,
    widen: tuple[int, int] = (0, 0),
) -> list[Ball]:
    """Enclosures of the Laplace mixture values ``M(c) = sum_d J[d] e^{-rate |c - d|}``.

    For ``c = 0..n``, by the two first-order recurrences ``L(c) = q L(c-1) + J[c]`` and
    ``R(c) = q (R(c+1) + J[c+1])`` (``q = e^-rate``, ``M = L + R``): O(n) ball operations
    on non-negative terms, so every value keeps its relative accuracy.

    Args:
        j: the law's integer numerator polynomial, of degree at most ``n`` (higher
            coefficients are ignored).
        n: the largest support point.
        rate: ``1/b`` for a Laplace scale ``b`` in count units, a rational ``> 0``.
        prec: working precision in bits (set for the computation, then restored).
        shift: the values are those of ``2^-shift J`` (an exact scaling that keeps them
            in the float range for the candidate screen).
        widen: ``(k, bits)``: ``j`` is a product of ``k`` factors each rounded down by
            :func:`relative_floor` with ``bits``; every coefficient of the true ``J`` is
            then in ``[1, (1 - 2^-bits)^-k]`` times the one of ``j``, and so are the
            values (all terms are non-negative). ``k = 0`` for no widening.

    Returns:
        A list of ``n + 1`` arb balls, the ``c``-th containing ``2^-shift M(c)`` for the
        true ``J``.

    References:
        Li et al. (2019), Section III, Eq. 2 (the output density given ``(x_i, x_K)`` is
        such a mixture, up to the factor ``1/(2 lambda)``); Knuth, TAOCP vol. 2, Section
        4.6.4 (Horner's rule, which each recurrence is); Johansson, "Arb: efficient
        arbitrary-precision midpoint-radius interval arithmetic", IEEE Trans. Computers
        66(8), 2017.

    Examples:
        With ``J = 1 + z`` and rate 1, ``M(0) = M(1) = 1 + e^-1 = 1.3678794411714...``:

        >>> from fractions import Fraction
        >>> lo, hi = Fraction("1.36787944117"), Fraction("1.36787944118")
        >>> [lo < endpoints(v)[0] <= endpoints(v)[1] < hi
        ...  for v in mixture_values(from_coefficients([1, 1]), 1, Fraction(1), 64)]
        [True, True]
    """
    with ctx.workprec(prec):
        jb = arb_poly(j)
        if shift:
            jb = jb * arb(2) ** (-shift)
        k, bits = widen
        if k:
            jb = jb * arb(1).union((1 - arb(2) ** (-bits)) ** (-k))
        coeffs = jb.coeffs()
        coeffs += [arb(0)] * (n + 1 - len(coeffs))
        q = (-arb_from_fraction(rate)).exp()
        left = [arb(0)] * (n + 1)
        acc = arb(0)
        for c in range(n + 1):
            acc = acc * q + coeffs[c]
            left[c] = acc
        out = [arb(0)] * (n + 1)
        acc = arb(0)
        out[n] = left[n]
        for c in range(n - 1, -1, -1):
            acc = (acc + coeffs[c + 1]) * q
            out[c] = left[c] + acc
        return out


def _float_log(x: Ball) -> float:
    """ln of a positive ball's midpoint as a float (no overflow: from mantissa and
    exponent); nan when the ball is not positive and finite, or its log is beyond the
    float range (the caller then decides exactly)."""
    try:
        f = float(x)
    except (OverflowError, ValueError):  # pragma: no cover - python-flint returns inf
        f = math.nan
    if 1e-300 < f < 1e300:
        return math.log(f)
    if not (x.is_finite() and x > 0):
        return math.nan
    man, exp = x.mid().man_exp()
    m = int(man)
    shift = max(m.bit_length() - 60, 0)
    try:
        return math.log(m >> shift) + float(int(exp) + shift) * math.log(2)
    except OverflowError:  # the log itself is beyond the float range: floats cannot rank it
        return math.nan


def log_ratio_sups(
    ma: Sequence[Ball], na: int | Ball, mb: Sequence[Ball], nb: int | Ball, prec: int
) -> tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]] | None:
    """Enclosures of ``max_c ln((ma[c]/na) / (mb[c]/nb))`` and of ``max_c`` of its negative
    (the two orders of a secret pair).

    Floats (logs of the balls' midpoints, in numpy) choose the candidates: every one within
    a slack of the float max is enclosed in balls. Every other point is then proven below
    the lower end of their max, on ratios of floats with a bound on every rounding and on
    the balls' radii (no library log in the proof); a point not proven below is enclosed
    too. The result is ``[max lo, max hi]`` over the enclosed points.

    Args:
        ma: balls of the first mixture's values, one per support point.
        na: the first law's normalizer (an int or a ball).
        mb: balls of the second mixture's values, the same length.
        nb: the second law's normalizer.
        prec: working precision in bits (set for the computation, then restored).

    Returns:
        ``((lo, hi), (lo2, hi2))``: exact rational ends enclosing the two maxima, or None
        when a float log is NaN (a ball not positive), a float maximum is not finite, or a
        candidate's ball is not finite.

    References:
        Li et al. (2019), Section III, Eq. 2 (the sup over outputs is attained at a support
        point, the breakpoint lemma); Higham, Accuracy and Stability of Numerical Algorithms
        (2002), Sec. 2.2 (rounding model); Johansson, "Arb: efficient arbitrary-precision
        midpoint-radius interval arithmetic", IEEE Trans. Computers 66(8), 2017.
    """
    with ctx.workprec(prec):
        fa, fb = _floats(ma), _floats(mb)
        logs = (
            _float_logs(ma, fa) - _float_logs(mb, fb) + (_float_log(arb(nb)) - _float_log(arb(na)))
        )
        scale = arb(nb) / arb(na)
        # floats cannot rank a point whose log is beyond their range: then every point's
        # ball is taken and none is dropped by the screen
        screened = not bool(np.isnan(logs).any())
        # relative radius of every ball (arb's accuracy in bits, one bit of margin)
        bits = min(min(map(arb.rel_accuracy_bits, ma)), min(map(arb.rel_accuracy_bits, mb)))
        rel = 2.0 ** (2 - min(int(bits), 1000))
        kappa = 64 * _U + 4 * rel
        normal = (fa > 2.0**-1000) & (fa < 2.0**1000) & (fb > 2.0**-1000) & (fb < 2.0**1000)
        out = []
        for sign in (1, -1):
            keep = np.ones(len(ma), dtype=bool)
            if screened:
                vals = sign * logs
                top = float(vals.max())
                if not math.isfinite(top):
                    return None
                keep = vals >= top - 1e-9 * (1.0 + abs(top))
            best = _max_over(None, np.nonzero(keep)[0].tolist(), ma, mb, scale, sign)
            if best is None:
                return None
            if screened:  # the dropped points: proven below best's lower end, or enclosed
                factor = scale if sign > 0 else 1 / scale
                proven = _below(fa, fb, sign, factor, kappa, ball_endpoints(best)[0]) & normal
                rest = np.nonzero(~keep & ~proven)[0].tolist()
                best = _max_over(best, rest, ma, mb, scale, sign)
                if best is None:
                    return None
            out.append(ball_endpoints(best))
        return out[0], out[1]


_U = 2.0**-53


def _max_over(
    best: Ball | None,
    points: Sequence[int],
    ma: Sequence[Ball],
    mb: Sequence[Ball],
    scale: Ball,
    sign: int,
) -> Ball | None:
    """``best`` widened by the log ratio ball of every point (None: one is not finite)."""
    for c in points:
        best = _max_ball(best, _log_ratio_ball(ma[c], mb[c], scale, sign))
        if best is None:
            return None
    return best


def _log_ratio_ball(a: Ball, b: Ball, scale: Ball, sign: int) -> Ball | None:
    ball = ((a / b) * scale).log()
    if sign < 0:
        ball = -ball
    return ball if ball.is_finite() else None


def _max_ball(best: Ball | None, ball: Ball | None) -> Ball | None:
    """A ball holding ``max(x, y)`` for all ``x, y`` in the two: ``[max lo, max hi]``."""
    if ball is None:
        return None
    return ball if best is None else best.max(ball)


def _below(fa: Any, fb: Any, sign: int, factor: Ball, kappa: float, lower: Fraction) -> Any:
    """Where ``(ma/mb)^sign * factor < e^lower`` is proven from the midpoints' floats:
    ``fl(fl(r * f) * (1 + kappa)) < thr`` with ``f`` an upper float of ``factor``, ``thr``
    a lower float of ``e^lower``, and ``kappa`` covering the conversions, the roundings and
    the balls' radii (all operands positive normal numbers)."""
    with ctx.workprec(64):
        thr_ball = arb_from_fraction(lower).exp()
        if not (thr_ball.is_finite() and factor.is_finite()):
            return np.zeros(len(fa), dtype=bool)
        try:  # a lower end above the float range: the largest float is below it
            thr = float(ball_endpoints(thr_ball)[0])
        except OverflowError:
            thr = sys.float_info.max
        try:
            f_hi = float(ball_endpoints(factor)[1])
        except OverflowError:  # an upper end above the float range proves nothing
            return np.zeros(len(fa), dtype=bool)
    if not (math.isfinite(thr) and thr > 0 and math.isfinite(f_hi) and f_hi > 0):
        return np.zeros(len(fa), dtype=bool)
    thr = math.nextafter(math.nextafter(thr, 0.0), 0.0)
    f_hi = math.nextafter(math.nextafter(f_hi, math.inf), math.inf)
    with np.errstate(all="ignore"):
        r = fa / fb if sign > 0 else fb / fa
        bound = (r * f_hi) * (1.0 + kappa)
    return np.isfinite(bound) & (bound < thr)


def _floats(values: Sequence[Ball]) -> Any:
    """Each ball's midpoint as a float (numpy float64)."""
    return np.fromiter(map(float, values), dtype=float, count=len(values))


def _float_logs(values: Sequence[Ball], f: Any) -> Any:
    """ln of each positive ball's midpoint (numpy float64; nan when not positive), from
    the midpoints' floats ``f``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log(f)
    bad = ~((f > 1e-300) & (f < 1e300))
    for c in np.nonzero(bad)[0].tolist():
        out[c] = _float_log(values[c])
    return out


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
        ``(lo, hi)`` as Fractions (:func:`~pdpsym.core.certify.ball_endpoints`).

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
    "Ball",
    "IntPoly",
    "ball_of",
    "height_bits",
    "scaled_int",
    "bits_needed",
    "coefficients",
    "degree",
    "endpoints",
    "exact_divide",
    "from_coefficients",
    "is_zero",
    "log_ratio_sups",
    "log_ratio_ball",
    "mixture_values",
    "monomial",
    "power",
    "product",
    "relative_floor",
    "relative_floor",
    "total",
    "zero",
]

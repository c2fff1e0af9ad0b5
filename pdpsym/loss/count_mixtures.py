"""Certified Laplace mixtures over integer count polynomials, and the sup of their
log-ratio.

For a count law with integer generating polynomial ``J(z) = sum_c n_c z^c``
(:mod:`pdpsym.core.poly`) and a Laplace mechanism of rate ``rho = 1/b`` in count units,
the privacy engines need the mixture values at the support points ``j = 0..N``::

    M(j) = sum_c n_c e^{-rho |j - c|}

By the breakpoint lemma the sup over outputs of a log-ratio of two such mixtures is
attained at one of the support points. :func:`mixture_values` encloses all ``N + 1``
values by two first-order ball recurrences (every term non-negative, so the enclosures
keep their relative accuracy); :func:`log_ratio_sups` ranks the points in floats with a
proven error and decides the survivors with balls.

**Truncation** (absolute, with the dropped mass carried exactly). A law's numerator
``J = prod_i f_i`` (non-negative integer polynomials) is replaced by ``2^S G`` with ``G = prod_i floor(f_i / 2^{s_i})`` and ``S = sum_i s_i``. Every
coefficient of ``f_i - 2^{s_i} floor(f_i / 2^{s_i})`` is in ``[0, 2^{s_i})``, so
``J >= 2^S G`` coefficient-wise and the dropped part ``J - 2^S G`` is non-negative with
total mass exactly ``Delta = J(1) - 2^S G(1)`` (both integers). A Laplace mixture value
``M(j) = sum_c J[c] q^{|j - c|}`` (kernel at most 1) is then in
``[2^S M_G(j), 2^S M_G(j) + Delta]``. Unlike :func:`pdpsym.core.poly.relative_floor`,
which keeps every coefficient to a relative accuracy, this drops the tiny tail
coefficients of a law whose range is wide (an alternating chain: ``10^-2000`` of the
largest), which cannot matter once ``Delta`` is far below every ``M(j)``; since
``M(j) >= q^N J(1)``, keeping about ``prec + N rate log2(e)`` bits of each factor's
total suffices.

References:
    Li et al., "Impact of Prior Knowledge and Data Correlation on Privacy Leakage",
    Eq. 2 (the leakage of a Laplace mechanism is a sup of such log-ratios).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from pdpsym.core.balls import Ball, BallPoly, arb_from_fraction, ball_endpoints, working_precision
from pdpsym.core.poly import IntPoly


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
        >>> from pdpsym.core.poly import endpoints, from_coefficients
        >>> lo, hi = Fraction("1.36787944117"), Fraction("1.36787944118")
        >>> [lo < endpoints(v)[0] <= endpoints(v)[1] < hi
        ...  for v in mixture_values(from_coefficients([1, 1]), 1, Fraction(1), 64)]
        [True, True]
    """
    with working_precision(prec):
        jb = BallPoly(j)
        if shift:
            jb = jb * Ball(2) ** (-shift)
        k, bits = widen
        if k:
            jb = jb * Ball(1).union((1 - Ball(2) ** (-bits)) ** (-k))
        coeffs = jb.coeffs()
        coeffs += [Ball(0)] * (n + 1 - len(coeffs))
        q = (-arb_from_fraction(rate)).exp()
        left = [Ball(0)] * (n + 1)
        acc = Ball(0)
        for c in range(n + 1):
            acc = acc * q + coeffs[c]
            left[c] = acc
        out = [Ball(0)] * (n + 1)
        acc = Ball(0)
        out[n] = left[n]
        for c in range(n - 1, -1, -1):
            acc = (acc + coeffs[c + 1]) * q
            out[c] = left[c] + acc
        return out


def truncation_shift(total: int, degree: int, n: int, rate: Fraction, prec: int) -> int:
    """The largest ``s`` for which dropping below ``2^s`` in each coefficient of a factor
    (total ``total``, degree ``degree``) loses at most ``2^-(prec + 8) q^n`` of its total
    (``q = e^-rate``), so that the dropped mass of the law stays far below every mixture
    value.

    Args:
        total: the factor's value at 1 (its total mass), ``> 0``.
        degree: its degree.
        n: the largest support point of the law.
        rate: the Laplace rate in count units.
        prec: the working precision of the mixture values, in bits.

    Returns:
        ``s >= 0`` (0: nothing may be dropped).

    References:
        Knuth, TAOCP vol. 2, Section 4.6 (polynomial arithmetic); Li et al. (2019),
        Section 3.2, Eq. 2 (the mixtures).
    """
    if total <= 0:
        return 0
    # n rate log2(e) rounded up (log2(e) < 1.4427), exactly
    range_bits = math.ceil(Fraction(rate) * n * Fraction(14427, 10000)) + 2
    keep = prec + 8 + range_bits + (degree + 1).bit_length() + 2
    return max(0, total.bit_length() - 1 - keep)


def floor_shift(f: IntPoly, shift: int) -> IntPoly:
    """``floor(f / 2^shift)`` coefficient-wise.

    Args:
        f: a non-negative integer polynomial.
        shift: ``>= 0``.

    Returns:
        The truncated polynomial.

    References:
        FLINT docs, ``fmpz_poly``; Knuth, TAOCP vol. 2, Section 4.6.
    """
    return f // (1 << shift) if shift else f


def widen_up(values: Sequence[Ball], delta: int, shift: int, prec: int) -> list[Ball]:
    """Each ball plus ``[0, delta 2^-shift]`` (the dropped mass of the module doc).

    Args:
        values: the balls of the truncated law's mixture values.
        delta: the exact dropped mass (an integer ``>= 0``).
        shift: the scaling of the balls (they hold ``2^-shift`` times the values).
        prec: working precision in bits.

    Returns:
        The widened balls.

    References:
        Johansson, Arb (2017) (ball arithmetic).
    """
    if delta == 0:
        return list(values)
    with working_precision(prec):
        extra = Ball(0).union(Ball(int(delta)) * Ball(2) ** (-shift))
        return [v + extra for v in values]


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
    with working_precision(prec):
        fa, fb = _floats(ma), _floats(mb)
        logs = (
            _float_logs(ma, fa)
            - _float_logs(mb, fb)
            + (_float_log(Ball(nb)) - _float_log(Ball(na)))
        )
        scale = Ball(nb) / Ball(na)
        # floats cannot rank a point whose log is beyond their range: then every point's
        # ball is taken and none is dropped by the screen
        screened = not bool(np.isnan(logs).any())
        # relative radius of every ball (arb's accuracy in bits, one bit of margin)
        bits = min(min(map(Ball.rel_accuracy_bits, ma)), min(map(Ball.rel_accuracy_bits, mb)))
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
    with working_precision(64):
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

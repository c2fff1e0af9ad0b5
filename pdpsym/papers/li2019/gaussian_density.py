"""The output density of a Laplace-noised linear query on a multivariate Gaussian (Li et
al. Section VI), and Eq. 19 evaluated directly against Theorem 6's bound.

Lemma 2 (rebuilt). The output density is the Laplace-Gaussian convolution
``p(r) = e^{s^2/(2 lam^2)} / (2 lam) * h(r - m)`` with
``h(t) = e^{-t/lam} Phi(t/s - s/lam) + e^{t/lam} Phi(-t/s - s/lam)``; ``ln h`` is
``1/lam``-Lipschitz with slopes tending to ``-/+ 1/lam`` as ``t -> +/- inf`` (proof:
proofs/lemma2_gaussian.py). For ``s = 0`` the density is Laplace, ``h(t) = e^{-|t|/lam}``.

:func:`eq19_profile` conditions by Lemma 1 (:mod:`pdpsym.loss.gaussian`) and
checks the certified log-ratio of these densities against Theorem 6's closed form.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.core.balls import Ball, arb_from_fraction, ball_endpoints, to_ball, working_precision
from pdpsym.core.certify import refine
from pdpsym.core.decimals import decimal_string
from pdpsym.core.numbers import from_sympy, to_sympy
from pdpsym.loss.gaussian import GaussianQuery, condition

# --- Lemma 2: the Laplace-Gaussian convolution --------------------------------------------


def std_normal_cdf(x: sympy.Expr) -> sympy.Expr:
    """Phi(x) = erfc(-x / sqrt 2) / 2.

    Args:
        x: a sympy expression.

    Returns:
        The exact sympy expression of the standard normal CDF at ``x``.

    References:
        The standard identity ``Phi(x) = erfc(-x/sqrt 2)/2`` (NIST DLMF, Section 7.2, for
        erfc); Li et al. (2019), Section VI-B, Lemma 2 uses Phi.
    """
    return sympy.erfc(-x / sympy.sqrt(2)) / 2


def h_expr(t: sympy.Expr, s: sympy.Expr, lam: sympy.Expr) -> sympy.Expr:
    """Lemma 2's ``h(t)``; ``s = 0`` gives the Laplace kernel ``e^{-|t|/lam}``.

    ``h(t) = e^(-t/lam) Phi(t/s - s/lam) + e^(t/lam) Phi(-t/s - s/lam)``.

    Args:
        t: the distance ``r - m`` from the conditional mean of ``f``.
        s: the conditional standard deviation of ``f`` (>= 0).
        lam: the Laplace scale, > 0.

    Returns:
        The exact sympy expression of ``h(t)``.

    References:
        Li et al. (2019), Section VI-B, Lemma 2 (rebuilt reading: the printed formula is lost;
        ``h`` is read as the Laplace-Gaussian convolution kernel).
    """
    if s == 0:
        return sympy.exp(-sympy.Abs(t) / lam)
    return sympy.exp(-t / lam) * std_normal_cdf(t / s - s / lam) + sympy.exp(
        t / lam
    ) * std_normal_cdf(-t / s - s / lam)


def convolution_density(r: Any, m: Any, s2: Fraction | sympy.Expr, lam: Any) -> sympy.Expr:
    """The density of ``f + Laplace(lam)`` for ``f ~ N(m, s2)`` (Eq. 19 after Lemma 1).

    ``p(r) = e^(s2 / (2 lam^2)) / (2 lam) h(r - m)``, with ``h`` of :func:`h_expr`.

    Args:
        r: the output (a Fraction, an int or a sympy expression).
        m: the conditional mean of ``f``.
        s2: the conditional variance of ``f`` (>= 0).
        lam: the Laplace scale, > 0.

    Returns:
        The exact sympy expression of the output density at ``r``.

    References:
        Li et al. (2019), Section VI-A, Eq. 19 with Lemma 1, and Section VI-B, Lemma 2
        (rebuilt reading: the printed formula is lost; ``h`` is read as the
        Laplace-Gaussian convolution kernel).
    """
    s2e = sympy.sympify(to_sympy(s2) if isinstance(s2, Fraction | int) else s2)
    lam_e = to_sympy(lam) if isinstance(lam, Fraction | int) else sympy.sympify(lam)
    r_e = to_sympy(r) if isinstance(r, Fraction | int) else sympy.sympify(r)
    m_e = to_sympy(m) if isinstance(m, Fraction | int) else sympy.sympify(m)
    s = sympy.sqrt(s2e)
    return sympy.exp(s2e / (2 * lam_e**2)) / (2 * lam_e) * h_expr(r_e - m_e, s, lam_e)


def log_h_arb(t: Fraction | Ball, s2: Fraction, lam: Fraction, prec: int = 128) -> Ball:
    """A certified ball for ``ln h(t)`` (arb erfc; no underflow, arb exponents are unbounded).

    Args:
        t: the distance ``r - m``, exact or as a ball.
        s2: the conditional variance of ``f`` (>= 0; 0 gives ``-|t|/lam``).
        lam: the Laplace scale, > 0.
        prec: the working precision in bits.

    Returns:
        An arb ball certified to contain ``ln h(t)``.

    References:
        Li et al. (2019), Section VI-B, Lemma 2 (rebuilt reading: the printed formula is lost;
        ``h`` is read as the Laplace-Gaussian convolution kernel); Johansson, Arb (2017),
        for the ball arithmetic.
    """
    with working_precision(prec):
        ta = t if isinstance(t, Ball) else arb_from_fraction(t)
        la = arb_from_fraction(lam)
        if s2 == 0:
            return -abs(ta) / la
        s = arb_from_fraction(s2).sqrt()
        root2 = to_ball(2).sqrt()
        a = ta / s - s / la
        b = -ta / s - s / la
        h = (-ta / la).exp() * (-a / root2).erfc() / 2 + (ta / la).exp() * (-b / root2).erfc() / 2
        return h.log()


def log_ratio_arb(
    r: Fraction, m1: Fraction, m2: Fraction, s2: Fraction, lam: Fraction, prec: int = 128
) -> Ball:
    """``ln p(r | m1) / p(r | m2)`` for two output densities of equal variance (Eq. 19).

    Args:
        r: the output, a rational.
        m1: the conditional mean of ``f`` in the numerator.
        m2: the conditional mean of ``f`` in the denominator.
        s2: the common conditional variance (>= 0).
        lam: the Laplace scale, > 0.
        prec: the working precision in bits.

    Returns:
        An arb ball certified to contain the log-ratio ``ln h(r - m1) - ln h(r - m2)``.

    References:
        Li et al. (2019), Section VI-A, Eq. 19, and Section VI-B, Lemma 2 (rebuilt
        reading: the printed formula is lost; ``h`` is read as the Laplace-Gaussian
        convolution kernel); Johansson, Arb (2017).
    """
    with working_precision(prec):
        return log_h_arb(r - m1, s2, lam, prec) - log_h_arb(r - m2, s2, lam, prec)


# --- Eq. 19 directly: the log-ratio profile against the Theorem 6 bound ---------------------


@dataclass(frozen=True)
class Eq19Profile:
    """Certified log-ratios over a grid of r for the extreme and intermediate target values."""

    bound: Fraction
    never_exceeds: bool  # every ball lies below the bound (or equals it when c = 0)
    approaches_right: bool  # at the right end |ratio| is within tol of the bound
    approaches_left: bool
    max_upper: str  # largest upper end of any ball, rounded up to 20 digits
    points: int
    tol: Fraction


def eq19_profile(
    query: GaussianQuery,
    x_known: Sequence[Fraction] | None = None,
    grid: int = 9,
    tol: Fraction = Fraction(1, 10**6),
    prec: int = 128,
) -> Eq19Profile:
    """Evaluate Eq. 19 directly: conditional mean of ``f`` at ``x_i`` in {l, mid, u} by
    Lemma 1's conditional mean *vector* (not the coefficient formula), densities by arb.

    Checks ``|ln p(r|x_i) - ln p(r|x_i')| < |c|(u-l)/lam`` at every grid point and that the
    bound is approached within ``tol`` at both tails (r far beyond both means).

    Args:
        query: the question (model, target with a range, known tuples, Laplace scale,
            weights), validated.
        x_known: the known tuples' values (None: their means).
        grid: the number of equally spaced outputs ``r`` (>= 2), spanning both tails.
        tol: how close to the bound the tails must come.
        prec: the starting precision of the balls, in bits (raised until each comparison
            with the bound is decided, up to 2^14 bits).

    Returns:
        An :class:`Eq19Profile`: the exact bound, whether no certified ratio exceeds it
        (equality allowed when ``s^2 = 0``), whether both tails come within ``tol``, the
        largest upper end of any ball (20 digits, rounded up) and the numbers of points.

    References:
        Li et al. (2019), Section VI-A, Eq. 19 (the definition evaluated directly) against
        Section VI-B, Theorem 6 (rebuilt reading ``THM6_READING``).
    """
    model, lam, w = query.model, query.lam, query.w
    i, k_idx = query.target_index, list(query.known_indices)
    low, high = query.low, query.high
    cond = condition(model, [i, *k_idx])
    xk = list(x_known) if x_known is not None else [model.mean[k] for k in k_idx]
    wu = sympy.Matrix([[to_sympy(w[k]) for k in cond.unknown]])

    def mean_of_f(xi: Fraction) -> Fraction:
        xa = [xi, *xk]
        total = sum((w[k] * x for k, x in zip([i, *k_idx], xa, strict=True)), Fraction(0))
        if cond.unknown:
            val = (wu * cond.mean(xa))[0, 0]
            total += from_sympy(val)
        return total

    values = [low, (low + high) / 2, high]
    means = [mean_of_f(v) for v in values]
    s2_e = (wu * cond.cov * wu.T)[0, 0] if cond.unknown else sympy.Integer(0)
    s2 = from_sympy(s2_e)
    c_direct = (means[2] - means[0]) / (high - low)
    bound = abs(c_direct) * (high - low) / lam
    # floor(2 sqrt(s2)) + 1, exactly (no float: s2 may be beyond float range)
    s_over = Fraction(0) if s2 == 0 else Fraction(math.isqrt(math.floor(4 * s2)) + 1)
    # far enough that a = t/s - s/lam >= 8 at both tails: the gap to the bound is < 1e-14
    reach = s_over * (4 + s_over / lam) + 1 + max(abs(v) for v in means)
    rs = [-reach + 2 * reach * Fraction(k, grid - 1) for k in range(grid)]
    if s2 == 0:
        # Laplace case: the log-ratio (|r - m_q| - |r - m_p|)/lam is rational, the bound attained
        def exact_lr(r: Fraction, p: int, q: int) -> Fraction:
            return (abs(r - means[q]) - abs(r - means[p])) / lam

        never = all(
            abs(exact_lr(r, p, q)) <= abs(means[p] - means[q]) / lam
            for r in rs
            for p in range(3)
            for q in range(3)
        )
        mx = max(exact_lr(r, p, q) for r in rs for p in range(3) for q in range(3))
        right_gap = bound - abs(exact_lr(rs[-1], 2, 0))
        left_gap = bound - abs(exact_lr(rs[0], 2, 0))
        return Eq19Profile(
            bound,
            never,
            right_gap < tol,
            left_gap < tol,
            decimal_string(mx, 20, "up"),
            grid * 9,
            tol,
        )
    never = True
    max_upper = Fraction(-(10**9))
    cap = prec  # the first doubling of prec that reaches 2^14 bits
    while cap < 1 << 14:
        cap *= 2
    for r in rs:
        for p in range(3):
            for q in range(3):
                if means[p] == means[q]:
                    continue
                pair_bound = abs(means[p] - means[q]) / lam
                # the gap to the bound shrinks like e^{-t^2/(2 s^2)}: raise precision until decided
                m_p, m_q = means[p], means[q]

                def ball_at(
                    work: int, r: Fraction = r, m_p: Fraction = m_p, m_q: Fraction = m_q
                ) -> Ball:
                    return log_ratio_arb(r, m_p, m_q, s2, lam, work)

                def settled(b: Ball, pb: Fraction = pair_bound) -> bool:
                    return _separated(b, pb)

                ball = refine(ball_at, settled, prec, cap)
                lo, hi = ball_endpoints(ball)
                max_upper = max(max_upper, hi)
                never = never and hi < pair_bound
    gaps = []
    for r in (rs[-1], rs[0]):
        lr = log_ratio_arb(r, means[2], means[0], s2, lam, prec)
        with working_precision(prec):
            _, hi = ball_endpoints(arb_from_fraction(bound) - abs(lr))
        gaps.append(hi)
    return Eq19Profile(
        bound,
        never,
        gaps[0] < tol,
        gaps[1] < tol,
        decimal_string(max_upper, 20, "up"),
        grid * 6,
        tol,
    )


def _separated(ball: Ball, bound: Fraction) -> bool:
    """Whether the ball lies entirely below ``bound`` or entirely at or above it."""
    lo, hi = ball_endpoints(ball)
    return hi < bound or lo >= bound


__all__ = [
    "Eq19Profile",
    "convolution_density",
    "eq19_profile",
    "h_expr",
    "log_h_arb",
    "log_ratio_arb",
    "std_normal_cdf",
]

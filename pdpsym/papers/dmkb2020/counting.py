"""Theorem 3, Proposition 7 and Corollary 1 of DMKB20 (Section 4.1): counting-query bounds.

* Theorem 3: with ``lambda < p_i < 1 - lambda``, ``M(D) = sum_i D(i)`` is APKDP for
  ``delta >= P[X/Y >= eps]``, ``X, Y`` independent ``Bin(n-1, 2 lambda)`` (as printed;
  readings in ``XYReading``), and, for ``eps <= 1``, whenever
  ``eps >= max(sqrt(14 ln(1/delta)/(lambda(n-1))), 27/(lambda(n-1)))`` (``closed_form_eps``).
* The decomposition in its proof: ``Bernoulli(p) = `` w.p. ``2 lambda`` a fair bit, else
  ``Bernoulli((p - lambda)/(1 - 2 lambda))`` (``decomposition_mean``).
* The blanket bound the proof actually yields (``blanket_delta``): conditioning on the set of
  ``N ~ Bin(n-1, 2 lambda)`` randomized records, joint convexity of the hockey-stick
  divergence gives ``delta(eps) <= E_N[delta_N(eps)]`` with ``delta_N`` the curve of
  ``Bin(N, 1/2) + 1`` against ``Bin(N, 1/2)``.
* Proposition 7 (GK17 Thm 3): ``eps = sqrt(2 ln(1.25/delta_2)/(n mu_2))`` and
  ``delta = 1.12 mu_3 (1 + e^eps) / (sqrt(n) mu_2^3) + delta_2`` (printed exponent 3; the
  Berry-Esseen form has 3/2: ``Prop7Reading``).

Irrational ``eps`` (square roots of logarithms) are bracketed by certified rationals
``eps_lo <= eps <= eps_hi``; since the exact curve is nonincreasing in ``eps``, a bound
checked at ``eps_lo`` holds at ``eps`` and a failure at ``eps_hi`` is a failure at ``eps``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

import sympy

from pdpsym.core.balls import ball_endpoints
from pdpsym.core.certify import sympy_to_arb
from pdpsym.core.eps import Eps
from pdpsym.loss.counting_loss import CountingLoss
from pdpsym.mechanisms.count_law import CountLaw
from pdpsym.mechanisms.counting import counting_curve
from pdpsym.mechanisms.divergence import Hockey, Mass, exp_lower
from pdpsym.papers.dmkb2020.thresholding import f


def rational_bracket(expr: sympy.Expr, bits: int = 80) -> tuple[Fraction, Fraction]:
    """Certified rationals ``lo <= expr <= hi`` (an arb ball's ends, 2^-bits wide or better).

    Args:
        expr: a real sympy expression (e.g. a square root of a logarithm).
        bits: the target width of the bracket, in bits (the ball is computed with 40
            guard bits more).

    Returns:
        ``(lo, hi)``, exact Fractions certified to enclose ``expr``.

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval
        arithmetic" (2017) -- the ball arithmetic behind the enclosure.
    """
    lo, hi = ball_endpoints(sympy_to_arb(expr, bits + 40))
    return lo, hi


def decomposition_mean(lam: sympy.Expr, p: sympy.Expr) -> sympy.Expr:
    """``P[output = 1]`` of the two-stage process in the proof of Theorem 3.

    With probability ``2 lambda`` a fair bit, else ``Bernoulli((p - lambda)/(1 - 2 lambda))``;
    the result simplifies to ``p``.

    Args:
        lam: the λ of Theorem 3 (a sympy expression or symbol).
        p: the record's probability p_i (a sympy expression or symbol).

    Returns:
        The exact sympy expression of the mean (not simplified).

    References:
        Desfontaines et al., Section 4.1, Theorem 3 (its proof: D(i) as randomized
        response with parameter 2λ).
    """
    return 2 * lam * sympy.Rational(1, 2) + (1 - 2 * lam) * (p - lam) / (1 - 2 * lam)


def closed_form_eps(n: int, lam: Fraction, delta: Fraction) -> sympy.Expr:
    """Theorem 3's closed-form ε: ``max(sqrt(14 ln(1/delta)/(lambda(n-1))), 27/(lambda(n-1)))``.

    Args:
        n: the number of records, ≥ 2.
        lam: the λ of Theorem 3, in (0, 1/2).
        delta: δ, in (0, 1).

    Returns:
        The exact sympy expression of ε (a ``Max`` of a square root and a rational).

    References:
        Desfontaines et al., Section 4.1, Theorem 3 (the closed form for ε ≤ 1).
    """
    lq = sympy.Rational(lam.numerator, lam.denominator)
    dq = sympy.Rational(delta.numerator, delta.denominator)
    return sympy.Max(
        sympy.sqrt(14 * sympy.log(1 / dq) / (lq * (n - 1))), sympy.Rational(27) / (lq * (n - 1))
    )


class XYReading(Enum):
    PRINTED = "X/Y >= eps, X, Y independent Bin(n-1, 2 lambda), x/0 = oo"
    EXP = "X/Y >= e^eps, X, Y independent Bin(n-1, 2 lambda), x/0 = oo"


def xy_probability(n: int, lam: Fraction, eps: Eps, reading: XYReading) -> Fraction | None:
    """``P[X/Y >= t]`` exactly, ``t = eps`` (as printed) or ``e^eps``, ``x/0 = ∞``.

    ``X, Y`` are independent ``Bin(n-1, 2 lambda)``; the sum is done in integers.

    Args:
        n: the number of records, ≥ 1.
        lam: the λ of Theorem 3, in (0, 1/2).
        eps: ε.
        reading: whether the threshold is ε (printed) or ``e^ε``.

    Returns:
        The exact probability as a Fraction, or None if the threshold ``t`` is irrational.

    References:
        Desfontaines et al., Section 4.1, Theorem 3 (the condition δ ≥ P[X/Y ≥ ε]).
    """
    if reading is XYReading.PRINTED:
        t = eps.rational()  # eps itself when it is rational (ln 1 = 0 included)
    else:
        t = eps.exact_exp()
    if t is None:
        return None
    m, q = n - 1, Fraction(2 * lam)
    # f(s, m, q) = N_s / b^m with integers N_s = C(m, s) a^s (b - a)^(m - s), q = a/b: the
    # sum is done in integers (no gcd per term; q = 2 10^-9999 made that 20 s)
    a, b = q.numerator, q.denominator
    N = [math.comb(m, s) * a**s * (b - a) ** (m - s) for s in range(m + 1)]
    prefix = [0]  # prefix[k] = N_1 + ... + N_k
    for s in range(1, m + 1):
        prefix.append(prefix[-1] + N[s])
    total = 0
    for x in range(m + 1):
        # y = 0 always counts (x/0 = oo); y >= 1 counts iff x/y >= t iff y <= x/t (t > 0)
        y_max = m if t <= 0 else min(m, (x * t.denominator) // t.numerator)
        total += N[x] * (N[0] + prefix[y_max])
    return Fraction(total, b ** (2 * m))


def blanket_delta(n: int, lam: Fraction, eps: Eps) -> object:
    """``E_N[delta_N(eps)]``, ``N ~ Bin(n-1, 2 lambda)``, ``delta_N`` for ``Bin(N,1/2)`` shifts.

    Both directions coincide by the symmetry ``W <-> N - W``; an exact value. Slow for large
    ``n``: :func:`pdpsym.papers.dmkb2020.theorem3_bound.blanket_enclosures` encloses the same bound
    fast.

    Args:
        n: the number of records, ≥ 1.
        lam: the λ of Theorem 3, in (0, 1/2).
        eps: ε.

    Returns:
        The exact bound: a Fraction when rational, else the exact hockey-stick object
        (masses ``A - e^ε B``) that :func:`pdpsym.core.certify.certify` encloses.

    References:
        Desfontaines et al., Section 4.1, Theorem 3 (the bound its proof yields).
    """
    total = None
    for N in range(n):
        w = f(N, n - 1, 2 * lam)
        # kept direct on purpose: the proof's blanket bound (the bound side), one direction
        h = counting_curve(CountLaw.homogeneous(N, Fraction(1, 2)), eps)["1,0"]
        scaled = Hockey(
            Mass(tuple((wt * w, law, rs) for wt, law, rs in h.a.parts)),
            Mass(tuple((wt * w, law, rs) for wt, law, rs in h.b.parts)),
            h.eps,
        )
        total = scaled if total is None else total + scaled
    assert total is not None
    return total.value()


class Prop7Reading(Enum):
    PRINTED = "mu_2^3"
    BERRY_ESSEEN = "mu_2^(3/2)"


class Mu3Reading(Enum):
    """Proposition 7's ``mu_3``, "the average absolute third moment" of the records.

    The paper prints ``p(1-p)|1-2p|``: the absolute value of the third *central moment*
    ``E[(X-p)^3]``, which is 0 at ``p = 1/2``. The absolute third central moment of a
    Bernoulli(p), the quantity a Berry-Esseen bound needs, is
    ``E|X-p|^3 = p(1-p)(p^2 + (1-p)^2)``. See dmkb2020.prop7 in docs/readings-and-errata.md.
    """

    PRINTED = "p(1-p)|1-2p|"
    ABSOLUTE = "p(1-p)(p^2+(1-p)^2)"


@dataclass(frozen=True)
class Prop7:
    eps: sympy.Expr
    delta: sympy.Expr
    mu2: Fraction
    mu3: Fraction
    delta2: sympy.Expr | None = None  # the Gaussian-tail part of delta


def _moments(
    ps: list[Fraction], mu3_reading: Mu3Reading = Mu3Reading.PRINTED
) -> tuple[Fraction, Fraction]:
    """``(mu_2, mu_3)``: the mean of ``p(1-p)`` and of the third-moment term (``Mu3Reading``)."""
    n = len(ps)
    # each distinct p once, times its multiplicity (one term for a common p, not n)
    counts = Counter(ps) if any(q is not ps[0] for q in ps) else {ps[0]: n}

    def mean(term: Callable[[int, int], int], power: int) -> Fraction:
        # term(a, b) / b^power is the term at p = a/b: integer sums per denominator, one
        # Fraction per distinct denominator (10^5 distinct p in milliseconds, the same
        # exact value)
        acc: dict[int, int] = {}
        for p, k in counts.items():
            a, b = p.numerator, p.denominator
            acc[b] = acc.get(b, 0) + k * term(a, b)
        return sum((Fraction(v, b**power) for b, v in acc.items()), Fraction(0)) / n

    mu2 = mean(lambda a, b: a * (b - a), 2)
    if mu3_reading is Mu3Reading.PRINTED:
        return mu2, mean(lambda a, b: a * (b - a) * abs(b - 2 * a), 3)
    return mu2, mean(lambda a, b: a * (b - a) * (a * a + (b - a) ** 2), 4)


def _prop7_delta(
    n: int, m2: sympy.Expr, m3: sympy.Expr, eps: sympy.Expr, d2: sympy.Expr, r: Prop7Reading
) -> sympy.Expr:
    power = 3 if r is Prop7Reading.PRINTED else sympy.Rational(3, 2)
    return sympy.Rational(112, 100) * m3 / (sympy.sqrt(n) * m2**power) * (1 + sympy.exp(eps)) + d2


def prop7(
    ps: list[Fraction],
    delta2: Fraction,
    reading: Prop7Reading,
    mu3_reading: Mu3Reading = Mu3Reading.PRINTED,
) -> Prop7 | None:
    """Proposition 7's ``(eps, delta)``; ``None`` if ``delta_2 < 1.25 e^{-n mu_2/2}``.

    ``eps = sqrt(2 ln(1.25/delta_2)/(n mu_2))`` and
    ``delta = 1.12 mu_3 (1 + e^eps) / (sqrt(n) mu_2^k) + delta_2``, k = 3 as printed or 3/2.

    Args:
        ps: the probabilities p_i of the n independent Bernoulli records.
        delta2: δ_2 > 0.
        reading: the exponent of μ_2 (printed 3, or 3/2).
        mu3_reading: the third-moment term μ_3 (printed, or the absolute third central
            moment).

    Returns:
        :class:`Prop7` with exact sympy ε and δ and exact μ_2, μ_3; None when δ_2 is below
        the proposition's range (decided with a certified bracket).

    References:
        Desfontaines et al., Section 4.1, Proposition 7 (Theorem 3 of GK17 as restated).
    """
    n = len(ps)
    mu2, mu3 = _moments(ps, mu3_reading)
    S = sympy.Rational
    d2 = S(delta2.numerator, delta2.denominator)
    m2 = S(mu2.numerator, mu2.denominator)
    m3 = S(mu3.numerator, mu3.denominator)
    cond = d2 - S(5, 4) * sympy.exp(-n * m2 / 2)
    lo, _ = rational_bracket(cond)
    if lo < 0:
        return None
    eps = sympy.sqrt(2 * sympy.log(S(5, 4) / d2) / (n * m2))
    return Prop7(eps, _prop7_delta(n, m2, m3, eps, d2, reading), mu2, mu3, d2)


def prop7_at_eps(
    ps: list[Fraction],
    eps: Fraction,
    reading: Prop7Reading,
    mu3_reading: Mu3Reading = Mu3Reading.PRINTED,
) -> Prop7:
    """Proposition 7's δ at a given ε, with δ_2 solved from its ε formula.

    ``delta_2 = 1.25 e^{-eps^2 n mu_2 / 2}`` (valid for ``eps <= 1``, Fact 1 of GK17).

    Args:
        ps: the probabilities p_i of the n independent Bernoulli records.
        eps: ε, an exact rational.
        reading: the exponent of μ_2 (printed 3, or 3/2).
        mu3_reading: the third-moment term μ_3 (printed, or the absolute third central
            moment).

    Returns:
        :class:`Prop7` with exact sympy ε, δ and δ_2.

    References:
        Desfontaines et al., Section 4.1, Proposition 7.
    """
    n = len(ps)
    mu2, mu3 = _moments(ps, mu3_reading)
    S = sympy.Rational
    E, m2, m3 = (
        S(eps.numerator, eps.denominator),
        S(mu2.numerator, mu2.denominator),
        S(mu3.numerator, mu3.denominator),
    )
    d2 = S(5, 4) * sympy.exp(-(E**2) * n * m2 / 2)
    return Prop7(E, _prop7_delta(n, m2, m3, E, d2, reading), mu2, mu3, d2)


def theorem3_closed_form_delta(n: int, lam: Fraction, eps: Fraction) -> sympy.Expr | None:
    """Theorem 3's ``delta = exp(-eps^2 lam (n-1) / 14)``, or None outside its range.

    The range is ``27 / (lam (n-1)) <= eps <= 1``.

    Args:
        n: the number of records, ≥ 2.
        lam: the λ of Theorem 3, in (0, 1/2).
        eps: ε, an exact rational.

    Returns:
        The exact sympy expression of δ, or None outside the range.

    References:
        Desfontaines et al., Section 4.1, Theorem 3 (the closed form, solved for δ).
    """
    if not (eps <= 1 and eps * lam * (n - 1) >= 27):
        return None
    E, L = (
        sympy.Rational(eps.numerator, eps.denominator),
        sympy.Rational(lam.numerator, lam.denominator),
    )
    return sympy.exp(-(E**2) * L * (n - 1) / 14)


def exact_at_bracket(
    ps: list[Fraction], eps_expr: sympy.Expr
) -> tuple[Fraction, Fraction, object, object]:
    """``(eps_lo, eps_hi, delta(eps_lo), delta(eps_hi))`` of the counting query (worst target).

    ``eps_lo <= eps <= eps_hi`` is a certified rational bracket of ``eps_expr``; since the
    exact δ curve is nonincreasing in ε, ``delta(eps_lo)`` bounds δ(ε) above and
    ``delta(eps_hi)`` below.

    Args:
        ps: the probabilities p_i of the independent Bernoulli records.
        eps_expr: ε as a sympy expression (e.g. a closed form of Theorem 3 or
            Proposition 7).

    Returns:
        The bracket ends (Fractions, clamped at 0) and the exact δ of the counting query at
        each (rational or exact masses).

    References:
        Desfontaines et al., Section 4.1, Theorem 3 and Proposition 7 (the bounds compared
        with the exact δ); Section 3.2, Definition 12.
    """
    lo, hi = rational_bracket(eps_expr)
    lo, hi = max(lo, Fraction(0)), max(hi, Fraction(0))
    d_lo = CountingLoss(ps).delta(Eps.from_exp(exp_lower(lo))).value  # e^eps' <= e^eps_lo
    d_hi = CountingLoss(ps).delta(Eps.of(hi)).value
    return lo, hi, d_lo, d_hi

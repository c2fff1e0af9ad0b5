"""Theorem 3's numerical bound as certified enclosures, with optional two-sided geometric noise.

The proof of Theorem 3 (DMKB20 Section 4.1) writes each unknown record as randomized
response: with probability ``2 lambda`` a fair bit, else a record the attacker may know.
Conditioning on the set of ``N ~ Bin(n-1, 2 lambda)`` randomized other records and using
the joint convexity of the hockey-stick divergence,

    delta(eps) <= E_N[delta_N(eps)],   delta_N(eps) = sum_o max(0, P_N(o) - e^eps Q_N(o)),

with ``Q_N`` the law of ``X_N = Bin(N, 1/2) (+ G)`` and ``P_N`` that of ``X_N + 1``; ``G`` is
optional two-sided geometric noise of Definition 19, ``P[G = k] = (1-p)/(1+p) p^|k|``, added
to the count (Section 5.2, Figure 6). This is :func:`pdpsym.papers.dmkb2020.counting.
blanket_delta` (exact, slow) made fast for ``n = 10^4`` while staying rigorous:

* **Window over N.** Only ``N`` in a window around the mode of ``Bin(n-1, 2 lambda)`` are
  summed. The left-out mass is bounded by geometric series (the ratio ``w_{N+1}/w_N`` is
  decreasing in ``N``) and, since ``delta_N <= 1``, added to the upper end.
* **Truncated noise.** ``G`` is cut to ``[-K, K]``; the cut mass ``tau = 2 p^(K+1)/(1+p)``
  is exact. With ``P', Q'`` the truncated laws (``P' <= P``, ``Q' <= Q``, each missing
  ``tau``), ``H(P', Q') - e^eps tau <= delta_N <= H(P', Q') + tau``.
* **Convolution** of the ``Bin(N, 1/2)`` pmf with the truncated ``G`` is an ``arb_poly``
  product (python-flint): every coefficient is a ball that contains the exact value.
* **The hockey stick without a sum per eps.** ``x = Q'`` is log-concave (a convolution of
  log-concave laws), so ``t(o) = x(o-1) - e^eps x(o)`` is ``<= 0`` then ``> 0`` as ``o``
  grows, and ``D(k) = sum_{o >= k} t(o)`` is unimodal with maximum ``H(P', Q')``. An index
  ``a`` with ``t(a) < 0`` and an index ``b`` with ``t(b) > 0``, both certain from the
  balls, bracket the maximizer: ``H = max_{a < k <= b} D(k)``, a ball maximum of a few
  suffix-sum differences.
* **Pure DP of the noise.** ``x(o-1) <= x(o)/p`` for the untruncated law, so
  ``delta_N(eps) = 0`` exactly once ``e^eps >= 1/p`` (decided with certified balls).

The result is an :class:`Enclosure` ``[lo, hi]`` of ``E_N[delta_N(eps)]`` with rational ends;
:meth:`Enclosure.decimal` prints only the digits that the enclosure certifies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from pdpsym.core.balls import Ball, arb_from_fraction, ball_endpoints
from pdpsym.core.count_law_balls import (
    BALL_ZERO,
    ball_poly,
    binomial_window,
    exp_ball,
    geometric_poly,
    workprec,
)
from pdpsym.core.decimals import decimal_string, enclosure_decimal
from pdpsym.core.errors import Undecided

PREC = 192  # bits of the balls
TOL = Fraction(1, 10**60)  # the left-out N mass and the cut noise mass are each below this


@dataclass(frozen=True)
class Enclosure:
    """``lo <= value <= hi`` with exact rational ends (``lo == hi`` for an exact value)."""

    lo: Fraction
    hi: Fraction

    def decimal(self, digits: int) -> str:
        """The value to at most ``digits`` significant digits, each certain (correctly
        rounded); fewer when the enclosure is wider; ``""`` when not even one is certain."""
        if self.lo == self.hi:
            return decimal_string(self.lo, digits)
        return enclosure_decimal(self.lo, self.hi, digits)[0]

    def upper(self, digits: int = 3) -> str:
        """The upper end rounded up to ``digits`` significant digits: a certified bound."""
        return decimal_string(self.hi, digits, "up")


def _suffix(x: list[Ball]) -> list[Ball]:
    """``S[j] = sum_{i >= j} x[i]`` for ``j = 0..len(x)`` (``S[len(x)] = 0``)."""
    out = [BALL_ZERO] * (len(x) + 1)
    acc = BALL_ZERO
    for j in range(len(x) - 1, -1, -1):
        acc += x[j]
        out[j] = acc
    return out


def _hockey(x: list[Ball], S: list[Ball], e: Ball) -> Ball:
    """A ball containing ``max_k D(k)`` for the log-concave ``x`` (see the module doc)."""
    L = len(x)

    def t(o: int) -> Ball:
        prev = x[o - 1] if o >= 1 else BALL_ZERO
        cur = x[o] if o < L else BALL_ZERO
        return prev - e * cur

    # b: a smallest index with t(b) certainly > 0 (t(L) = x[L-1] > 0 always)
    lo, hi = 0, L
    while lo < hi:
        mid = (lo + hi) // 2
        if t(mid) > 0:
            hi = mid
        else:
            lo = mid + 1
    b = lo
    a = b - 1  # a: below b with t(a) certainly < 0 (t(0) = -e x[0] < 0 always)
    while a > 0 and not t(a) < 0:
        a -= 1
    best = None
    for k in range(a + 1, b + 1):
        d = S[k - 1] - e * S[k]
        best = d if best is None else best.max(d)
    assert best is not None
    return best


def blanket_enclosures(
    n: int,
    lam: Fraction,
    eps_list: Sequence[Fraction],
    noise: Fraction | None = None,
    prec: int = PREC,
    tol: Fraction = TOL,
) -> list[Enclosure]:
    """Certified enclosures of ``E_N[delta_N(eps)]`` for each ``eps`` (see the module doc).

    Theorem 3's numerical bound for ``n`` records and ``lambda``, optionally with two-sided
    geometric noise of parameter ``noise`` added to the count.

    Args:
        n: the number of records, ≥ 1 (the target and ``n - 1`` others).
        lam: the λ of Theorem 3, in (0, 1/2).
        eps_list: the values of ε (exact rationals) at which to bound δ.
        noise: the parameter p in (0, 1) of the two-sided geometric noise (None: no noise).
        prec: the working precision of the balls, in bits.
        tol: the bound on each left-out mass (of N outside the window and of the cut noise).

    Returns:
        One :class:`Enclosure` per ε, in order: rational ends certified to contain the
        exact bound (``[0, 0]`` exactly when ``e^eps >= 1/p``).

    Raises:
        ValueError: ``lam`` is not in (0, 1/2).
        Undecided: ``e^eps`` and ``1/p`` could not be compared at ``prec``.

    References:
        Desfontaines et al., Section 4.1, Theorem 3 (its proof's randomized-response
        decomposition and the numerical bound); Section 5.2, Definition 19 and Figure 6
        (two-sided geometric noise).
    """
    if not 0 < lam < Fraction(1, 2):
        raise ValueError("lambda must be in (0, 1/2)")
    with workprec(prec):
        exps = [exp_ball(e, prec) for e in eps_list]
        zero = [False] * len(eps_list)
        if noise is not None:
            for i, e in enumerate(exps):
                gap = e - arb_from_fraction(1 / noise)
                if gap >= 0:
                    zero[i] = True  # e^eps >= 1/p: the noise alone is eps-DP
                elif not gap < 0:
                    raise Undecided(f"e^eps against 1/p at eps = {eps_list[i]}", prec)
        lo, weights, rest = binomial_window(n - 1, 2 * lam, tol)
        tau, G = Fraction(0), None
        if noise is not None:
            G, _, tau = geometric_poly(noise, tol)
        half = ball_poly([Fraction(1, 2), Fraction(1, 2)])
        B = half**lo
        low = [BALL_ZERO] * len(eps_list)
        high = [BALL_ZERO] * len(eps_list)
        for k, w in enumerate(weights):
            if k:
                B = B * half
            x = (B * G if G is not None else B).coeffs()
            S = _suffix(x)
            for i, e in enumerate(exps):
                if zero[i]:
                    continue
                h = _hockey(x, S, e)
                low[i] += w * (h - e * arb_from_fraction(tau)).max(BALL_ZERO)
                high[i] += w * h
        out = []
        for i in range(len(eps_list)):
            if zero[i]:
                out.append(Enclosure(Fraction(0), Fraction(0)))
                continue
            lo_end = ball_endpoints(low[i])[0]
            hi_end = ball_endpoints(high[i] + arb_from_fraction(tau) + rest)[1]
            out.append(Enclosure(max(lo_end, Fraction(0)), min(hi_end, Fraction(1))))
        return out

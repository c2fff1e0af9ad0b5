"""Desfontaines et al.'s Theorem 3 (the blanket), from its proof (no pdpsym import).

Each other record is randomized response with parameter 2λ, so with N ~ Bin(n-1, 2λ) of
them fair bits, ``δ(ε) <= E_N[δ_N(ε)]``, ``δ_N`` the hockey stick between
Bin(N, 1/2) + 1 and Bin(N, 1/2) (joint convexity of the hockey stick over the mixture in
N); optionally with two-sided geometric noise (Definition 19) added to the count.
Exactly for a rational e^ε, or term by term in mpmath (the callers work at 50 digits).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

from oracles import poisson_binomial as pb
from oracles.hockey_stick import hockey_exact, hockey_shift


def geometric(p: mpmath.mpf, K: int) -> dict[int, mpmath.mpf]:
    """Definition 19, P[G = k] = (1-p)/(1+p) p^|k|, for |k| <= K."""
    return {k: (1 - p) / (1 + p) * p ** abs(k) for k in range(-K, K + 1)}


def blanket(n: int, lam: mpmath.mpf, eps: mpmath.mpf, p: mpmath.mpf | None = None, K: int = 0):
    """E_N[delta_N(eps)], N ~ Bin(n-1, 2 lambda), X_N = Bin(N, 1/2) (+ G cut at K)."""
    total = mpmath.mpf(0)
    g = geometric(p, K) if p is not None else {0: mpmath.mpf(1)}
    for N, w in enumerate(pb.binom_pmf(n - 1, 2 * lam)):
        if w < mpmath.mpf(10) ** -45:
            continue
        x: dict[int, mpmath.mpf] = {}
        for s, b in enumerate(pb.binom_pmf(N, mpmath.mpf(1) / 2)):
            for k, gk in g.items():
                x[s + k] = x.get(s + k, mpmath.mpf(0)) + b * gk
        total += w * hockey_shift(x, eps)
    return total


def blanket_delta(n: int, lam: Fraction, e_eps: Fraction) -> Fraction:
    """Theorem 3's proof bound ``E_N[δ_N(ε)]`` (N ~ Bin(n-1, 2λ)) for a rational e^ε,
    exactly; the larger of the two directions' expectations."""
    up, down = Fraction(0), Fraction(0)
    for N in range(n):
        w = pb.binom(N, n - 1, 2 * lam)
        Q = {s: pb.binom(s, N, Fraction(1, 2)) for s in range(N + 1)}
        P = {s + 1: q for s, q in Q.items()}
        up += w * hockey_exact(P, Q, e_eps)
        down += w * hockey_exact(Q, P, e_eps)
    return max(up, down)

"""Brute-force references for the dmkb2020 figure tests, written from the definitions.

Everything is plain mpmath at 50 digits (the importing modules use the ``fifty_digits``
fixture), summed term by term: no function of pdpsym.
"""

from __future__ import annotations

import mpmath


def binom_pmf(m: int, q: mpmath.mpf) -> list[mpmath.mpf]:
    return [mpmath.binomial(m, s) * q**s * (1 - q) ** (m - s) for s in range(m + 1)]


def geometric(p: mpmath.mpf, K: int) -> dict[int, mpmath.mpf]:
    """Definition 19, P[G = k] = (1-p)/(1+p) p^|k|, for |k| <= K."""
    return {k: (1 - p) / (1 + p) * p ** abs(k) for k in range(-K, K + 1)}


def hockey_shift(x: dict[int, mpmath.mpf], eps: mpmath.mpf) -> mpmath.mpf:
    """sum_o max(0, P(o) - e^eps Q(o)) with Q = law of X, P = law of X + 1."""
    e = mpmath.exp(eps)
    outs = set(x) | {o + 1 for o in x}
    zero = mpmath.mpf(0)
    return sum(max(zero, x.get(o - 1, zero) - e * x.get(o, zero)) for o in outs)


def blanket(n: int, lam: mpmath.mpf, eps: mpmath.mpf, p: mpmath.mpf | None = None, K: int = 0):
    """E_N[delta_N(eps)], N ~ Bin(n-1, 2 lambda), X_N = Bin(N, 1/2) (+ G cut at K)."""
    total = mpmath.mpf(0)
    g = geometric(p, K) if p is not None else {0: mpmath.mpf(1)}
    for N, w in enumerate(binom_pmf(n - 1, 2 * lam)):
        if w < mpmath.mpf(10) ** -45:
            continue
        x: dict[int, mpmath.mpf] = {}
        for s, b in enumerate(binom_pmf(N, mpmath.mpf(1) / 2)):
            for k, gk in g.items():
                x[s + k] = x.get(s + k, mpmath.mpf(0)) + b * gk
        total += w * hockey_shift(x, eps)
    return total


def poisson_binomial(ps: list[mpmath.mpf]) -> list[mpmath.mpf]:
    law = [mpmath.mpf(1)]
    for p in ps:
        law = [
            (law[s] if s < len(law) else 0) * (1 - p) + (law[s - 1] * p if s >= 1 else 0)
            for s in range(len(law) + 1)
        ]
    return law


def counting_delta(ps: list[mpmath.mpf], eps: mpmath.mpf) -> mpmath.mpf:
    """max over targets i and directions of sum_o max(0, P[S+a=o] - e^eps P[S+b=o]),
    S the count of the other records (Definition 12 with no background knowledge)."""
    best = mpmath.mpf(0)
    for i in range(len(ps)):
        law = poisson_binomial(ps[:i] + ps[i + 1 :])
        x = dict(enumerate(law))
        best = max(best, hockey_shift(x, eps))  # target 1 against 0
        mirrored = {-o: v for o, v in x.items()}  # 0 against 1: S against S+1 = (-S)+1 vs -S
        best = max(best, hockey_shift(mirrored, eps))
    return best


def close(text: str, want: mpmath.mpf, digits: int = 12) -> bool:
    got = mpmath.mpf(text)
    return abs(got - want) <= abs(want) * mpmath.mpf(10) ** (-digits)

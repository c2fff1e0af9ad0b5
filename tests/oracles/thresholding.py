"""Desfontaines et al.'s thresholding mechanism over heterogeneous Bernoulli records, PPKDP's
δ (Definitions 13 and 15), by brute force in Fractions (no pdpsym import).

``M_T = ⊥ if k <= T else k`` for the count ``k``; given ``D(i) = a`` and ``b`` ones among
the known records, ``P[⊥] = P[S <= T - b - a]`` and ``P[k] = P[S = k - b - a]``, ``S``
the Poisson-binomial count of the other unknown records.
"""

from __future__ import annotations

from fractions import Fraction as F

from oracles import poisson_binomial as pb


def threshold_brute(ps: list[F], T: int, size: int, c: F) -> F:
    # Definition 15: M_T = ⊥ if k <= T else k. Given D(i) = a and b ones among the known
    # records, P[⊥] = P[S <= T - b - a], P[k] = P[S = k - b - a]; Definition 13 weighs the
    # hockey sticks by P[b] (the known records' own Poisson binomial); max over the
    # distinct targets and both directions.
    n = len(ps)
    w = pb.pmf(ps[:size])
    best = F(0)
    for t in sorted(set(ps[size:])):
        others = list(ps[size:])
        others.remove(t)
        s = pb.pmf(others)

        def at(j: int, s: list[F] = s) -> F:
            return s[j] if 0 <= j < len(s) else F(0)

        def law(a: int, b: int, s: list[F] = s) -> list[F]:
            bot = sum((at(j) for j in range(0, T - b - a + 1)), F(0))
            return [bot] + [at(k - b - a) for k in range(T + 1, n + 1)]

        for a, a2 in ((1, 0), (0, 1)):
            total = F(0)
            for b, wb in enumerate(w):
                P, Q = law(a, b), law(a2, b)
                total += wb * sum((max(F(0), x - c * y) for x, y in zip(P, Q)), F(0))
            best = max(best, total)
    return best

"""Desfontaines et al.'s counting query (Definition 12, no background knowledge): its exact
δ(ε), from the definition (no pdpsym import). The count given D(i) = x is x + S, S the
count of the other records (a Poisson binomial), and δ is the larger hockey stick of the
two directions, maximised over the targets.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

from oracles import poisson_binomial as pb
from oracles.hockey_stick import hockey, hockey_shift


def counting_delta(ps: list[mpmath.mpf], eps: mpmath.mpf) -> mpmath.mpf:
    """max over targets i and directions of sum_o max(0, P[S+a=o] - e^eps P[S+b=o]),
    S the count of the other records, at the working precision."""
    best = mpmath.mpf(0)
    for i in range(len(ps)):
        x = dict(enumerate(pb.pmf(ps[:i] + ps[i + 1 :])))
        best = max(best, hockey_shift(x, eps))  # target 1 against 0
        mirrored = {-o: v for o, v in x.items()}  # 0 against 1: S against S+1 = (-S)+1 vs -S
        best = max(best, hockey_shift(mirrored, eps))
    return best


def counting_delta_homogeneous(n: int, p: Fraction, e_eps: mpmath.mpf) -> mpmath.mpf:
    """Exact δ(ε) of the count of n Ber(p) records, worst target direction: the count given
    D(i) = x is x + Bin(n-1, p)."""
    law = [pb.binom(s, n - 1, p) for s in range(n)]
    P0 = {s: q for s, q in enumerate(law)}
    P1 = {s + 1: q for s, q in enumerate(law)}
    return max(hockey(P0, P1, e_eps), hockey(P1, P0, e_eps))

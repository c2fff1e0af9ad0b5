"""Desfontaines et al.'s Definition 16, from the definition (no pdpsym import): the
k-anonymity mechanism releases, per value t ≠ ⊥, the count of t when it is at least k,
else ⊥; ⊥'s own count is never released. Exact Fractions.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable
from fractions import Fraction

from oracles.partial_knowledge import Mech, deterministic


def k_anonymity(released: list[str], k: int) -> Mech:
    """Definition 16: per released value, its count if at least k, else ⊥."""
    return deterministic(lambda d: tuple(d.count(t) if d.count(t) >= k else "⊥" for t in released))


def value_law(
    n: int, P: dict[Hashable, Fraction], mech: Mech, x: Hashable
) -> dict[Hashable, Fraction]:
    """The law of M(D) given D(0) = x, the other n-1 records i.i.d. P (all i are alike).

    M must depend on D only through its value counts (Definition 16's does): the n-1 others
    are enumerated by their counts, with the multinomial weight, one database per count."""
    vals = list(P)
    out: dict[Hashable, Fraction] = {}
    for cnt in itertools.product(range(n), repeat=len(vals)):
        if sum(cnt) != n - 1:
            continue
        w = Fraction(math.factorial(n - 1), math.prod(math.factorial(c) for c in cnt))
        w *= math.prod((P[v] ** c for v, c in zip(vals, cnt, strict=True)), start=Fraction(1))
        d = (x, *(v for v, c in zip(vals, cnt, strict=True) for _ in range(c)))
        for o, q in mech(d).items():
            out[o] = out.get(o, Fraction(0)) + w * q
    return out

"""dmkb2020.ex8 -- Desfontaines et al. 2020 (DP with partial knowledge), Section 5.1, Example 8.

Claim. Two counting queries that are each private under partial knowledge compose badly:
with ``n`` independent Bernoulli(1/2) votes and no partial knowledge, the count
``M_1 = Σ_j D(j)`` and the count without the target ``M_2 = Σ_{j≠t} D(j)`` each satisfy
``(ln 3, δ)``-APKDP (Definition 12) with a small ``δ``, while the pair ``(M_1, M_2)``
reveals ``D(t) = M_1 - M_2``: its ``δ`` is 1 even at ``ε = ln 10^6``. The dependence term
``Dep`` of Theorem 6 is ``+∞`` with positive probability.

Argument (exact, ``n = 8``, ``t = 0``; Definition 12 with no knowledge: the max over
targets ``i`` and directions ``(a, a')`` of ``Σ_o max(0, P[o | a] - e^ε P[o | a'])``).
1. The count given ``D(i) = a`` is ``a + Bin(n - 1, 1/2)``: ``δ`` is
   ``Σ_k max(0, C(n-1, k-1) - 3 C(n-1, k)) / 2^{n-1}``; by hand, only ``k = 8`` (1) and
   ``k = 7`` (7 - 3 = 4) count: ``5/128``, positive and below 1/10 (recomputed by
   enumerating the ``2^n`` databases).
2. ``M_2`` does not read ``D(0)`` (``δ = 0`` for that target); for the other targets it
   is a count of ``n - 1`` records: by hand ``(1 + (6 - 3))/64 = 1/16``, below 1/10.
3. The pair given ``D(0) = 1`` has ``M_1 - M_2 = 1``, given ``D(0) = 0`` it has
   ``M_1 - M_2 = 0``: disjoint supports, ``δ = 1`` at every ``ε``.
4. ``Dep = ln P[M_2 = o_2 | M_1 = o_1, D(0) = 1] / P[M_2 = o_2 | M_1 = o_1, D(0) = 0]``:
   at ``(o_1, o_2) = (1, 0)`` (probability ``2^{-(n-1)}`` given ``D(0) = 1``) the
   denominator is 0 while the numerator is 1: ``Dep = +∞``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

from spot import run

CLAIM = "dmkb2020.ex8"
N = 8
DBS = list(itertools.product((0, 1), repeat=N))  # each with probability 2^-N


def law(mech: Callable, i: int, a: int) -> dict[object, Fraction]:
    """The law of ``mech(D)`` given ``D(i) = a``."""
    rows = [d for d in DBS if d[i] == a]
    out: dict[object, Fraction] = {}
    for d in rows:
        o = mech(d)
        out[o] = out.get(o, Fraction(0)) + Fraction(1, len(rows))
    return out


def apk_delta(mech: Callable, c: Fraction, targets: range = range(N)) -> Fraction:
    """Definition 12 with no knowledge: max over targets and directions."""
    best = Fraction(0)
    for i, a in itertools.product(targets, (0, 1)):
        P, Q = law(mech, i, a), law(mech, i, 1 - a)
        best = max(
            best, sum((max(Fraction(0), v - c * Q.get(o, 0)) for o, v in P.items()), Fraction(0))
        )
    return best


def main() -> bool:
    """Example 8; True when every step holds."""

    def m1(d: tuple[int, ...]) -> int:
        return sum(d)

    def m2(d: tuple[int, ...]) -> int:
        return sum(d[1:])

    def pair(d: tuple[int, ...]) -> tuple[int, int]:
        return (m1(d), m2(d))

    d1, d2 = apk_delta(m1, Fraction(3)), apk_delta(m2, Fraction(3))
    assert 0 < d1 < Fraction(1, 10) and 0 < d2 < Fraction(1, 10), (d1, d2)
    assert d1 == Fraction(5, 128) and d2 == Fraction(1, 16), "the binomial sums by hand"
    assert apk_delta(pair, Fraction(3)) == 1, "the pair at ln 3"
    assert apk_delta(pair, Fraction(10**6), range(1)) == 1, "the pair at ln 10^6"
    given1, given0 = law(pair, 0, 1), law(pair, 0, 0)
    assert given1[(1, 0)] > 0 and (1, 0) not in given0, "Dep = +oo at (1, 0)"
    assert all(o[0] == o[1] for o in given0) and all(o[0] == o[1] + 1 for o in given1)
    return True


if __name__ == "__main__":
    run(CLAIM, main)

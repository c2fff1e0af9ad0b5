"""dmkb2020.ex3 -- Desfontaines et al. 2020 (DP with partial knowledge), Section 2.2, Example 3.

Claim. The outlier counter (how many records lie farther than ``5σ`` from the mean) is
noiseless-private with ``ε = 0`` (Definition 3) but not causally private for any ``ε``
(Definition 5), when the records are ``μ + noise`` with a hidden ``μ = ±1``.

Argument (the normal noise discretized to ``±σ``, ``σ = 1/10``, ``n = 3``; the values a
record may be changed to are ``T = {±1 ± σ}``).
1. Under ``θ`` all records share ``μ``, so every record is within ``2σ`` of the mean:
   the count is always 0 and its law is the same point mass whatever ``D(i)`` is: the NP
   ratio is 1 (``ε = 0``).
2. Definition 5 compares ``M(D)`` given ``D(i) = a`` with ``M(D_{i→b})`` given
   ``D(i) = a``. Moving one record to the other cluster (``b`` near ``-μ``) puts it at
   distance about ``4/3 > 5σ`` from the new mean: the count is at least 1 with
   probability 1, while ``M(D)`` is 0: disjoint supports, ``ε = ∞``.
Both are computed by enumerating the 16 databases with sympy Rationals.
"""

from __future__ import annotations

import itertools

import sympy as sp
from spot import run

CLAIM = "dmkb2020.ex3"
R = sp.Rational
N, SIGMA = 3, R(1, 10)
VALUES = sorted({mu + e for mu in (-1, 1) for e in (-SIGMA, SIGMA)})


def joint() -> dict[tuple[sp.Rational, ...], sp.Rational]:
    """μ = ±1 (1/2 each), records μ ± σ i.i.d."""
    out: dict[tuple[sp.Rational, ...], sp.Rational] = {}
    for mu, es in itertools.product((-1, 1), itertools.product((-SIGMA, SIGMA), repeat=N)):
        d = tuple(mu + e for e in es)
        out[d] = out.get(d, 0) + R(1, 2) / 2**N
    return out


def outliers(d: tuple[sp.Rational, ...]) -> int:
    """How many records lie more than 5σ from the mean."""
    mean = sum(d) / N
    return sum(1 for x in d if bool(abs(x - mean) > 5 * SIGMA))


def law(rows: dict, change: tuple[int, sp.Rational] | None = None) -> dict[int, sp.Rational]:
    """The count's law over ``rows`` (normalized), with record ``i`` changed to ``b``."""
    total = sum(rows.values())
    out: dict[int, sp.Rational] = {}
    for d, p in rows.items():
        if change is not None:
            i, b = change
            d = d[:i] + (b,) + d[i + 1 :]
        o = outliers(d)
        out[o] = out.get(o, 0) + p / total
    return out


def main() -> bool:
    """Example 3; True when every step holds."""
    th = joint()
    infinite = False
    for i in range(N):
        laws = {a: law({d: p for d, p in th.items() if d[i] == a}) for a in VALUES}
        laws = {a: v for a, v in laws.items() if v}
        assert all(v == {0: 1} for v in laws.values()), "NP ratio 1: always 0 outliers"
        for a in laws:
            rows = {d: p for d, p in th.items() if d[i] == a}
            for b in VALUES:
                if b != a:
                    changed = law(rows, (i, b))
                    if not set(changed) & {0}:
                        infinite = True  # M(D) = 0 surely, M(D_{i->b}) never 0
    assert infinite, "CDP epsilon is infinite"
    return True


if __name__ == "__main__":
    run(CLAIM, main)

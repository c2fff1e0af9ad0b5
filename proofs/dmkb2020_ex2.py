"""dmkb2020.ex2 -- Desfontaines et al. 2020 (DP with partial knowledge), Section 2.2, Example 2.

Claim. When every record is duplicated (records come in equal pairs), the identity
mechanism is ``({θ}, 0)``-distributionally private (Definition 4): the simulator that
copies the record's duplicate from ``D_{-i}`` reproduces the output law exactly, although
the identity is not noiseless-private for any ``ε`` (Definition 3).

Argument (exact instance: two duplicated pairs, each pair's value ~ ``R = (1/3, 2/3)`` on
``{0, 1}``, independent pairs; four records).
1. Definition 4: for each target ``i`` and value ``a``, compare the law of ``M(D)`` given
   ``D(i) = a`` with the law of ``Sim(i, D_{-i})`` with ``D_{-i}`` drawn given
   ``D(i) = a``. Because ``D(i)`` equals its partner, which lies in ``D_{-i}``, the
   simulator rebuilds ``D`` itself: the two laws are equal, the ratio is 1 (``ε = 0``).
2. Definition 3: given ``D(i) = 0`` and ``D(i) = 1`` the identity's outputs differ in
   coordinate ``i``, so the laws have disjoint supports: ``ε = ∞``.
Both are computed by enumerating the joint law with sympy Rationals.
"""

from __future__ import annotations

import itertools

import sympy as sp
from spot import run

CLAIM = "dmkb2020.ex2"
R = sp.Rational
PAIRS, LAW = 2, {0: R(1, 3), 1: R(2, 3)}


def joint() -> dict[tuple[int, ...], sp.Rational]:
    """Each pair's value drawn from R independently, then written twice."""
    out = {}
    for vals in itertools.product(LAW, repeat=PAIRS):
        d = tuple(v for v in vals for _ in range(2))
        out[d] = sp.prod([LAW[v] for v in vals])
    return out


def given(i: int, a: int) -> dict[tuple[int, ...], sp.Rational]:
    """The law of D given D(i) = a."""
    rows = {d: p for d, p in joint().items() if d[i] == a}
    total = sum(rows.values())
    return {d: p / total for d, p in rows.items()}


def simulate(i: int, rest: tuple[int, ...]) -> tuple[int, ...]:
    """Insert the duplicate's value (record i ^ 1, found in D_{-i}) at position i."""
    partner = rest[i] if i % 2 == 0 else rest[i - 1]
    return rest[:i] + (partner,) + rest[i:]


def main() -> bool:
    """Example 2; True when every step holds."""
    n = 2 * PAIRS
    for i, a in itertools.product(range(n), LAW):
        real = given(i, a)  # the identity's output law is the law of D itself
        sim: dict[tuple[int, ...], sp.Rational] = {}
        for d, p in real.items():
            o = simulate(i, d[:i] + d[i + 1 :])
            sim[o] = sim.get(o, 0) + p
        assert sim == real, f"DDP ratio 1 fails at i={i}, a={a}"
    for i in range(n):
        assert not set(given(i, 0)) & set(given(i, 1)), "NP: disjoint supports, eps = oo"
    return True


if __name__ == "__main__":
    run(CLAIM, main)

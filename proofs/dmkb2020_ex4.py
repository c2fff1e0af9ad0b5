"""dmkb2020.ex4 -- Desfontaines et al. 2020 (DP with partial knowledge), Section 2.2, Example 4.

Claim. With duplicated records, the sum might be noiseless-private (Definition 3) but is
never causally private (Definition 5): changing one record by 1 makes the sum's parity
impossible under ``θ``.

Argument.
1. Under ``θ`` every value appears an even number of times, so ``Σ D`` is even with
   probability 1. Changing record ``i`` from ``a`` to ``b = a + 1`` (``b ∈ T``) makes the
   sum odd with probability 1. The laws of ``M(D)`` and ``M(D_{i→b})`` given ``D(i) = a``
   have disjoint supports: Definition 5's ratio is ``∞``.
2. Exhaustive check, exact: 1 or 2 duplicated pairs, every law ``R`` of a pair's value on
   ``{0, 1, 2}`` with denominator 3, ``T = {0, 1, 2, 3}``: for every target ``i`` with some
   value ``a`` there is a ``b ∈ T`` whose changed law misses the support of the unchanged
   one, and the unchanged law is supported on even sums.
3. "Might be NP": for a single-valued ``R`` (one pair, ``R = δ_1``), ``D(i)`` takes one
   value, there is no pair ``a ≠ b`` to compare, and Definition 3 holds vacuously
   (``ε = 0``). (With two or more values, the smallest sum given ``D(i) = a`` is
   ``2a + 2(n - 1) min R``, so the supports differ and NP fails too.)
"""

from __future__ import annotations

import itertools

import sympy as sp
from spot import run

CLAIM = "dmkb2020.ex4"
R = sp.Rational
T = (0, 1, 2, 3)


def all_laws(outputs: int, den: int) -> list[dict[int, sp.Rational]]:
    """Every law on ``0..outputs-1`` with denominator ``den`` (zero entries left out)."""
    laws = []
    for counts in itertools.product(range(den + 1), repeat=outputs):
        if sum(counts) == den:
            laws.append({k: R(c, den) for k, c in enumerate(counts) if c})
    return laws


def joint(pairs: int, law: dict[int, sp.Rational]) -> dict[tuple[int, ...], sp.Rational]:
    """Independent pairs, each value written twice."""
    return {
        tuple(v for v in vals for _ in range(2)): sp.prod([law[v] for v in vals])
        for vals in itertools.product(law, repeat=pairs)
    }


def main() -> bool:
    """Example 4; True when every step holds."""
    laws = all_laws(3, 3)
    assert len(laws) == 10, "compositions of 3 into 3 parts"
    cases = 0
    for pairs, law in itertools.product((1, 2), laws):
        th = joint(pairs, law)
        assert sum(th.values()) == 1
        for i in range(2 * pairs):
            for a in law:
                rows = {d: p for d, p in th.items() if d[i] == a}
                plain = {sum(d) for d in rows}
                assert all(s % 2 == 0 for s in plain), "the sum is even under theta"
                disjoint = [b for b in T if b != a and not plain & {sum(d) - a + b for d in rows}]
                assert disjoint, f"a finite CDP ratio: R={law}, pairs={pairs}"
                cases += 1
    single = joint(1, {1: R(1)})
    assert {d[0] for d in single} == {1}, "single-valued R: no pair to compare, NP (eps = 0)"
    return cases > 0


if __name__ == "__main__":
    run(CLAIM, main)

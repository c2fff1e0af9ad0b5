"""li2019.ex4 -- Li et al. 2019 (prior differential privacy), Section IV-B, Example 4.

Claim (Tables II/III (c) and (d), ``λ = 1``, the sum query). Table (d) is (c) with the
domain of ``x1`` widened from ``{0, 1}`` to ``{0, 5}``; the weakest adversary ``A(1, {})``
leaks more on (d) than on (c). (On both tables ``x2`` determines ``x1``, so ``A(1, {2})``
has no compatible pair.)

Argument: exact re-computation of Eq. 2.
1. (c): ``P(0,0) = P(1,1) = 1/2``. Given ``x1 = 0`` the sum is 0, given ``x1 = 1`` it is 2:
   ``p(r | 1)/p(r | 0) = e^{|r| - |r - 2|}``, whose sup over ``r`` is ``e^2`` (``r >= 2``),
   and the reverse pair gives the same: ``PL = 2``.
2. (d): ``P(0,0) = P(5,1) = 1/2``: sums 0 and 6, ``PL = 6`` by the same computation.
3. ``6 > 2``. The sup is taken over the support points ``{0, 2}`` resp. ``{0, 6}`` (the
   breakpoint lemma, ``li2019_breakpoints.py``); the triangle inequality
   ``|r| - |r - s| <= s`` (``s > 0``) confirms no ``r`` does better (checked symbolically on
   the three pieces of the line).
4. With ``x2`` known, each value of ``x2`` is compatible with one value of ``x1`` only:
   no pair, no leakage value.
"""

from __future__ import annotations

import itertools

import sympy as sp
from spot import run

CLAIM = "li2019.ex4"
R = sp.Rational
TABLES = {"c": {(0, 0): R(1, 2), (1, 1): R(1, 2)}, "d": {(0, 0): R(1, 2), (5, 1): R(1, 2)}}


def weak_leakage(table: dict[tuple[int, int], sp.Rational]) -> sp.Expr:
    """Eq. 2 for ``A(1, {})`` at the support points: an exact value."""
    values = sorted({x1 for x1, _ in table})
    support = sorted({x1 + x2 for x1, x2 in table})

    def density(a: int, r: int) -> sp.Expr:
        mass = sum(v for (x1, _), v in table.items() if x1 == a)
        return sum(v / mass * sp.exp(-abs(r - x1 - x2)) for (x1, x2), v in table.items() if x1 == a)

    logs = [
        sp.simplify(sp.log(density(a, r) / density(b, r)))
        for (a, b), r in itertools.product(itertools.permutations(values, 2), support)
    ]
    return sp.Max(*logs)


def main() -> bool:
    """Example 4; True when every statement holds."""
    c, d = weak_leakage(TABLES["c"]), weak_leakage(TABLES["d"])
    assert c == 2 and d == 6, f"PL values {c}, {d}"
    assert d > c, "(d) leaks more than (c)"
    t, w = sp.symbols("t w", nonnegative=True)
    # no r beats the support points: |r| - |r - s| <= s for s > 0 on the three pieces of the
    # line, r = -t (left of 0), r = t with s = t + w (between), r = s + t (right, attained)
    for r, s in ((-t, w + 1), (t, t + w), (w + 1 + t, w + 1)):
        slack = sp.simplify(s - (sp.Abs(r) - sp.Abs(r - s)))
        assert slack.is_nonnegative, f"triangle inequality at r = {r}"
        if r == w + 1 + t:
            assert slack == 0, "attained right of the support"
    for table in TABLES.values():
        by_x2: dict[int, set[int]] = {}
        for x1, x2 in table:
            by_x2.setdefault(x2, set()).add(x1)
        assert all(len(v) == 1 for v in by_x2.values()), "A(1,{2}) has no compatible pair"
    return True


if __name__ == "__main__":
    run(CLAIM, main)

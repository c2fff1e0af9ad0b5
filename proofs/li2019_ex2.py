"""li2019.ex2 -- Li et al. 2019 (prior differential privacy), Section IV-B, Example 2.

Claim (Tables II/III (a) and (b), ``λ = 1``, the sum query ``f = x1 + x2``).
* (a), positive correlation, ``P(0,0) = P(1,1) = 3/10``, ``P(0,1) = P(1,0) = 1/5``:
  the strong adversary ``A(1, {2})`` leaks exactly 1 and the weak ``A(1, {})`` more.
* (b), negative correlation, ``P(0,0) = P(1,1) = 1/5``, ``P(0,1) = P(1,0) = 3/10``:
  the weak adversary leaks less than the strong one, which leaks exactly 1.
* Treating the two tuples as one (group DP on the pair) gives ``Δ_1 + Δ_2 = 2``.

Argument: exact re-computation of Eq. 2 from the tables.
1. ``p(r | x1, x_K) = Σ_{x_U} θ(x_U | x1, x_K) e^{-|r - f(x)|} / 2`` (Eq. 2 with
   ``λ = 1``); ``PL(A(1, K))`` is the max over ``x_K``, over ordered pairs of values of
   ``x1`` compatible with it, and over ``r`` of ``ln p(r | a)/p(r | b)``.
2. The sup over ``r`` is a max over the support points of the two mixtures (the
   breakpoint lemma, ``li2019_breakpoints.py``); here ``r ∈ {0, 1, 2}``.
3. Every ratio is a rational function of ``e`` with rational coefficients; comparisons are
   decided exactly by ``spot.sign`` (zero iff the polynomial in ``e`` vanishes
   identically, otherwise a 50-digit value clear of 0).
For (a) the weak value works out to ``ln (e (2 + 3e)/(3 + 2e))``, checked symbolically.
"""

from __future__ import annotations

import itertools

import sympy as sp
from spot import run, sign

CLAIM = "li2019.ex2"
R = sp.Rational
TABLES = {
    "a": {(0, 0): R(3, 10), (0, 1): R(1, 5), (1, 0): R(1, 5), (1, 1): R(3, 10)},
    "b": {(0, 0): R(1, 5), (0, 1): R(3, 10), (1, 0): R(3, 10), (1, 1): R(1, 5)},
}


def leakage(table: dict[tuple[int, int], sp.Rational], known: bool) -> sp.Expr:
    """Eq. 2 for ``A(1, {2})`` (``known``) or ``A(1, {})``: an exact ``ln`` of e-polynomials."""
    contexts = sorted({x2 for _, x2 in table}) if known else [None]
    best = None
    for ctx in contexts:
        rows = {k: v for k, v in table.items() if v and (ctx is None or k[1] == ctx)}
        values = sorted({x1 for x1, _ in rows})
        support = sorted({x1 + x2 for x1, x2 in rows})

        def density(a: int, r: int, rows: dict = rows) -> sp.Expr:
            mass = sum(v for (x1, _), v in rows.items() if x1 == a)
            return sum(
                v / mass * sp.exp(-abs(r - x1 - x2)) for (x1, x2), v in rows.items() if x1 == a
            )

        for (a, b), r in itertools.product(itertools.permutations(values, 2), support):
            ratio = density(a, r) / density(b, r)
            if best is None or sign(ratio - best) > 0:
                best = ratio
    assert best is not None, "no compatible pair"
    return sp.log(best)


def main() -> bool:
    """Example 2 on Tables (a) and (b); True when every statement holds."""
    a_weak, a_strong = leakage(TABLES["a"], False), leakage(TABLES["a"], True)
    b_weak, b_strong = leakage(TABLES["b"], False), leakage(TABLES["b"], True)
    e = sp.E
    assert sp.simplify(a_strong - 1) == 0, "(a) PL(A(1,{2})) = 1"
    assert sp.simplify(b_strong - 1) == 0, "(b) PL(A(1,{2})) = 1"
    assert sign(sp.exp(a_weak) - e * (2 + 3 * e) / (3 + 2 * e)) == 0, "(a) weak value"
    assert sign(sp.exp(a_weak) - sp.exp(a_strong)) > 0, "(a) weak > strong"
    assert sign(sp.exp(b_weak) - sp.exp(b_strong)) < 0, "(b) weak < strong"
    # group DP on the pair: Δ_1 + Δ_2, each tuple ranging over {0, 1} with weight 1
    dp_pair = sum(max(k[j] for k in TABLES["a"]) - min(k[j] for k in TABLES["a"]) for j in (0, 1))
    assert dp_pair == 2, "DP on the pair = 2"
    return True


if __name__ == "__main__":
    run(CLAIM, main)

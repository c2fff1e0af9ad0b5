"""dmkb2020.ex6 -- Desfontaines et al. 2020 (DP with partial knowledge), Section 2.3, Example 6.

Claim. The paired referendum (pairs ``(x, x')`` of votes with ``x ~ Bernoulli(p)`` and
``x' = x`` with probability ``p_c``, independent pairs) has two acceptable
normalizations (Definitions 7-8): (A) ``φ_k = (D(2k), D(2k+1))``, one parameter per pair;
(B) ``φ_2k = [D(2k) = D(2k+1)]`` and ``φ_2k+1 = D(2k)``. In each, the parameters are
mutually independent and determine ``D`` (the map is injective).

Argument.
1. (A): the pairs are independent by construction; the pairs spell out ``D``.
2. (B): within a pair, ``P(x = v, [x = x'] = e) = P(x = v) P(x' = x)^e (1 - P(x' = x))^{1-e}``
   since ``x' = x`` with probability ``p_c`` whatever ``x``: the joint law is the product
   of the marginals ``(p or 1-p)`` and ``(p_c or 1-p_c)`` -- checked with ``p, p_c``
   symbolic for all four cells. ``(x, [x = x'])`` determines ``x'``.
3. Exhaustive exact instances (the checker's grid): 1 or 2 pairs, ``p_i ∈ {1/3, 1/2}``,
   ``p_c ∈ {1/4, 2/3}``: in both families the joint law of the parameters equals the
   product of their marginals at every cell, and distinct databases get distinct
   parameter tuples.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import sympy as sp
from spot import run

CLAIM = "dmkb2020.ex6"
R = sp.Rational


def pair_law(p: sp.Expr, pc: sp.Expr) -> dict[tuple[int, int], sp.Expr]:
    """The law of one pair (x, x')."""
    return {
        (x, y): (p if x else 1 - p) * (pc if x == y else 1 - pc) for x in (0, 1) for y in (0, 1)
    }


def independent(dist: dict, fam: list[Callable]) -> bool:
    """Whether the functions ``fam`` of D are mutually independent under ``dist``, exactly."""
    joint: dict = {}
    margs: list[dict] = [{} for _ in fam]
    for d, p in dist.items():
        key = tuple(f(d) for f in fam)
        joint[key] = joint.get(key, 0) + p
        for m, v in zip(margs, key, strict=True):
            m[v] = m.get(v, 0) + p
    return all(
        sp.simplify(joint.get(key, 0) - sp.prod([m[v] for m, v in zip(margs, key, strict=True)]))
        == 0
        for key in itertools.product(*(list(m) for m in margs))
    )


def families(pairs: int) -> tuple[list[Callable], list[Callable]]:
    """Normalization (A) and (B) as functions of D."""
    fa = [lambda d, k=k: (d[2 * k], d[2 * k + 1]) for k in range(pairs)]
    fb = [
        f
        for k in range(pairs)
        for f in (lambda d, k=k: d[2 * k] == d[2 * k + 1], lambda d, k=k: d[2 * k])
    ]
    return fa, fb


def main() -> bool:
    """Example 6; True when every step holds."""
    p, pc = sp.symbols("p p_c", positive=True)
    one = pair_law(p, pc)
    fa, fb = families(1)
    assert independent({d: v for d, v in one.items()}, fb), "step 2: symbolic p, p_c"
    ps_grid = [ps for k in (1, 2) for ps in itertools.product([R(1, 3), R(1, 2)], repeat=k)]
    for ps, pcv in itertools.product(ps_grid, (R(1, 4), R(2, 3))):
        dist: dict = {}
        for cells in itertools.product(*(pair_law(q, pcv).items() for q in ps)):
            dist[tuple(v for xy, _ in cells for v in xy)] = sp.prod([w for _, w in cells])
        assert sum(dist.values()) == 1
        for fam in families(len(ps)):
            assert independent(dist, fam), f"not independent: ps={ps}, pc={pcv}"
            assert len({tuple(f(d) for f in fam) for d in dist}) == len(dist), "not injective"
    return True


if __name__ == "__main__":
    run(CLAIM, main)

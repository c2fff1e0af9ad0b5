"""IBCDP under Laplace noise: the certified enclosure against a grid search written here.

Source: the posteriors of D(1) given the output t of (x1 + x2) + Lap(1), computed from
the table with mpmath on a fine grid of t over the centres' range (outside it the
posteriors are constant); the grid maximum of Σ_a (post_1 - e^ε post_2)_+ is a lower
bound of the sup, so it must lie below the enclosure's upper end, and (the function
being Lipschitz on the grid) within a small distance of it.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath

import pdpsym as ps

ROWS = [[0, 0, "3/10"], [0, 1, "1/5"], [1, 0, "1/5"], [1, 1, "3/10"]]
TABLE = {(0, 0): F(3, 10), (0, 1): F(1, 5), (1, 0): F(1, 5), (1, 1): F(3, 10)}


def _posteriors(t: mpmath.mpf, b: int | None) -> dict[int, mpmath.mpf]:
    """post(a | t) for M(D) (b None) or M(D with x1 -> b), both from the table."""
    u = {0: mpmath.mpf(0), 1: mpmath.mpf(0)}
    for (x1, x2), p in TABLE.items():
        f = (x1 if b is None else b) + x2
        u[x1] += mpmath.mpf(p.numerator) / p.denominator * mpmath.exp(-abs(t - f)) / 2
    z = u[0] + u[1]
    return {a: v / z for a, v in u.items()}


def test_ibcdp_delta_enclosure_contains_the_grid_sup() -> None:
    m = ps.JointDistribution.from_rows(["x1", "x2"], ROWS)
    res = ps.audit.audit(m, ps.mechanisms.laplace(1), "x1", [], ["1/2"], notions=["ibcdp"])
    value = res["ibcdp"].delta_at_epsilon[0][1]
    lo, hi = value.lo, value.hi
    with mpmath.workdps(30):
        e = mpmath.exp(mpmath.mpf(1) / 2)
        best = mpmath.mpf(0)
        for k, b in itertools.product(range(-1000, 3001, 2), (0, 1)):
            t = mpmath.mpf(k) / 1000
            plain, changed = _posteriors(t, None), _posteriors(t, b)
            for p1, p2 in ((plain, changed), (changed, plain)):
                g = sum(max(mpmath.mpf(0), p1[a] - e * p2[a]) for a in (0, 1))
                best = max(best, g)
        assert best <= mpmath.mpf(hi.numerator) / hi.denominator
        assert abs(best - mpmath.mpf(lo.numerator) / lo.denominator) < mpmath.mpf(10) ** -3

"""MQMExact's quilt influence bounded over a box of binary stationary chains
(:mod:`pdpsym.mechanisms.mqm_box`).

Independent source: a brute force written here, Song et al.'s Sec. 5 influence of the
quilt ``{x_{i-a}, x_{i+b}}`` from the matrix powers by repeated multiplication in
Fraction (no reversibility, no closed form), at points drawn inside the box.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.mechanisms.mqm_box import influence_bound, influence_sup
from pdpsym.models.law_class import IntervalChain

F = Fraction


def _brute_R(x0, x1, a, b):
    P = [[1 - x0, x0], [1 - x1, x1]]
    pi = [(1 - x1) / (x0 + 1 - x1), x0 / (x0 + 1 - x1)]

    def power(d):
        out = [[F(1), F(0)], [F(0), F(1)]]
        for _ in range(d):
            out = [[sum(out[i][t] * P[t][j] for t in range(2)) for j in range(2)] for i in range(2)]
        return out

    best = F(0)
    for s, s2 in ((0, 1), (1, 0)):
        r = F(1)
        if a:
            pa = power(a)
            r *= max(pa[w][s] * pi[s2] / (pa[w][s2] * pi[s]) for w in range(2))
        if b:
            pb = power(b)
            r *= max(pb[s][y] / pb[s2][y] for y in range(2))
        best = max(best, r)
    return best


@settings(max_examples=40, deadline=None)
@given(
    lo0=st.integers(1, 8),
    w0=st.integers(0, 3),
    lo1=st.integers(1, 8),
    w1=st.integers(0, 3),
    u=st.fractions(0, 1),
    v=st.fractions(0, 1),
    a=st.one_of(st.none(), st.integers(1, 6)),
    b=st.one_of(st.none(), st.integers(1, 6)),
)
def test_box_bound_is_above_every_member_inside(lo0, w0, lo1, w1, u, v, a, b):
    # source: the brute force above at a point drawn inside the box (lo + u (hi - lo),
    # valid by construction); None (no finite bound on this box) is allowed here, the
    # grid test below needs finite bounds on small boxes
    box = ((F(lo0, 10), F(min(lo0 + w0, 9), 10)), (F(lo1, 10), F(min(lo1 + w1, 9), 10)))
    x0 = box[0][0] + u * (box[0][1] - box[0][0])
    x1 = box[1][0] + v * (box[1][1] - box[1][0])
    ub = influence_bound(box, a, b)
    assert ub is None or ub >= _brute_R(x0, x1, a, b)


def test_point_box_is_the_member():
    # source: the brute force above; a box of width 0 is one chain
    x0, x1 = F(3, 20), F(4, 5)
    assert influence_bound(((x0, x0), (x1, x1)), 3, 5) == _brute_R(x0, x1, 3, 5)


def test_sup_over_the_box_against_a_grid():
    # source: the brute force on a 9 x 9 grid of the box: the enclosure holds every grid
    # value below its upper end, is tight to 10^-6, and its lower end is a member's
    cls = IntervalChain.from_json_object(
        {
            "kind": "interval-markov-chain",
            "length": 20,
            "states": ["0", "1"],
            "initial": "stationary",
            "transition": [
                [["4/5", "9/10"], ["1/10", "1/5"]],
                [["3/20", "3/10"], ["7/10", "17/20"]],
            ],
        }
    )
    res = influence_sup(cls, 4, 3)
    axes = [[lo + (hi - lo) * k / 8 for k in range(9)] for lo, hi in cls.box()]
    grid = [_brute_R(x0, x1, 4, 3) for x0, x1 in itertools.product(*axes)]
    assert res.tight and res.hi is not None
    assert max(grid) <= res.hi <= res.lo * (1 + F(1, 10**6))
    assert res.lo == _brute_R(*res.theta, 4, 3)

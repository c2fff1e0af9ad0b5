"""MQM over a class (Song, Wang, Chaudhuri, SIGMOD 2017, with Pufferfish's Theta).

Independent sources: a one-member class is the single law, whose MQMExact is today's
(``mqm_exact_scale``, itself tested against the paper's closed forms); a quilt's class
influence is recomputed here by brute force (matrix powers in Fraction, the max over
members of the max ratio); the class's MQMApprox inputs (pi_min, eigengap) by hand.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from pdpsym.mechanisms.mqm import eigengap, mqm_exact_scale
from pdpsym.mechanisms.mqm_class import influence_ratio, mqm_exact_class_scale
from pdpsym.models.markov import MarkovChain

F = Fraction


def _chain(T, x0, x1):
    return MarkovChain(["0", "1"], T, "stationary", [[1 - F(x0), F(x0)], [1 - F(x1), F(x1)]])


@pytest.mark.parametrize(
    ("T", "x0", "x1", "eps"),
    [
        (10, "1/10", "9/10", 1),
        (100, "1/10", "9/10", 1),
        (50, "3/10", "3/5", F(1, 2)),
        (40, "9/10", "1/10", 2),
    ],
)
def test_a_one_member_class_is_the_single_law(T, x0, x1, eps):
    m = _chain(T, x0, x1)
    # source: today's single-law MQMExact
    assert mqm_exact_class_scale([m], F(eps)).scale == mqm_exact_scale(m, F(eps)).scale


def _brute_ratio(m, a, b):
    P = [list(r) for r in m.matrices[0]]
    pi = m.initial_law

    def power(e):
        out = [[F(1), F(0)], [F(0), F(1)]]
        for _ in range(e):
            out = [[sum(out[i][t] * P[t][j] for t in range(2)) for j in range(2)] for i in range(2)]
        return out

    pa, pb = power(a), power(b)
    best = F(0)
    for s, s2 in ((0, 1), (1, 0)):
        left = max(pa[w][s] * pi[s2] / (pa[w][s2] * pi[s]) for w in range(2))
        right = max(pb[s][y] / pb[s2][y] for y in range(2))
        best = max(best, left * right)
    return best


def test_the_class_scale_uses_the_max_influence_over_the_members():
    members = [_chain(60, "1/10", "4/5"), _chain(60, "1/5", "9/10"), _chain(60, "3/20", "17/20")]
    b = mqm_exact_class_scale(members, F(1))
    a_, b_, card = b.detail["a"], b.detail["b"], b.detail["card_N"]
    assert a_ and b_
    # source: the brute force above, the max over the members of the quilt's influence
    R = max(_brute_ratio(m, a_, b_) for m in members)
    assert max(influence_ratio(m, a_, b_) for m in members) == R
    assert math.isclose(float(b.scale), card / (1 - math.log(R)), rel_tol=1e-12)
    # the class needs at least every member's own scale
    assert float(b.scale) >= max(float(mqm_exact_scale(m, F(1)).scale) for m in members) - 1e-9


def test_the_class_mqm_approx_inputs_are_at_the_box_corners():
    from pdpsym.audit.calibration import Goal
    from pdpsym.audit.class_calibrate import class_calibrate
    from pdpsym.models.law_class import IntervalChain

    cls = IntervalChain.from_json_object(
        {
            "kind": "interval-markov-chain",
            "length": 20,
            "states": ["0", "1"],
            "initial": "stationary",
            "transition": [
                [["4/5", "9/10"], ["1/10", "1/5"]],
                [["1/10", "3/10"], ["7/10", "9/10"]],
            ],
        }
    )
    cal = class_calibrate(cls, Goal(F(1)))
    approx = next(b for b in cal.baselines if getattr(b, "name", "") == "mqm-approx")
    # source, by hand: pi_1 = x0 / (x0 + 1 - x1) is smallest at x0 = 1/10, x1 = 7/10
    # (1/4), pi_0 = (1 - x1) / (x0 + 1 - x1) smallest at x0 = 1/5, x1 = 9/10 (1/3):
    # pi_min = 1/4; the eigengap (1 - (x1 - x0)^2)/2 is smallest at x0 = 1/10, x1 = 9/10
    assert approx.detail["pi_min"] == "1/4"
    g = eigengap(_chain(20, "1/10", "9/10"))
    assert approx.detail["eigengap"].startswith(str(float(g))[:8])
    assert F(1 - F(8, 10) ** 2, 2) == F(9, 50)

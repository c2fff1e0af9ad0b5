"""Calibration over an interval product (independent records with interval laws): the
smallest Laplace scale meeting ε for every law of the box.

Expected values: Li et al. (2019), Theorem 1, by hand: for independent records Eq. 2's
leakage of Laplace noise of scale λ on the sum is ``Δ_i / λ``, with ``Δ_i`` the spread
of the target's values of positive probability, so a law needs ``λ >= max_i Δ_i / ε``;
the brute force below takes that max over a grid of the box (its ends among them).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from pdpsym.audit.calibration import Goal
from pdpsym.audit.class_calibrate import class_calibrate
from pdpsym.models.law_class import IntervalProduct

F = Fraction

RECORDS = [
    {"values": ["0", "1", "3"], "probs": [["0", "1/2"], ["1/4", "1/2"], ["0", "1/4"]]},
    {"values": ["0", "1"], "probs": [["1/4", "3/4"], ["1/4", "3/4"]]},
    {"values": ["0", "2"], "probs": [["1/2", "1"], ["0", "1/2"]]},
]


def _brute_scale(records, eps):
    """max over a 3-point grid per probability (rows that sum to 1) of max_i Δ_i / ε."""
    best = F(0)
    per_record = []
    for rec in records:
        vals = [F(v) for v in rec["values"]]
        axes = [[F(lo) + (F(hi) - F(lo)) * k / 2 for k in range(3)] for lo, hi in rec["probs"]]
        laws = [ps for ps in itertools.product(*axes) if sum(ps) == 1]
        per_record.append([(vals, ps) for ps in laws])
    for member in itertools.product(*per_record):
        for vals, ps in member:
            sup = [v for v, p in zip(vals, ps, strict=True) if p]
            best = max(best, (max(sup) - min(sup)) / eps)
    return best


@pytest.mark.parametrize(("eps", "mechanism"), [(F(1), "laplace"), (F(1, 2), "geometric")])
def test_class_scale_is_the_max_over_the_grid(eps, mechanism):
    # source: the brute force above (Li et al. Theorem 1 at each grid law): value 3 of
    # x1 has positive probability somewhere in the box, so the class needs 3 / ε; for
    # geometric noise (alpha = e^(-1/λ)) the ratio of two mixtures shifted by Δ is at
    # most alpha^(-Δ), reached in the tails: the same Δ / λ
    cls = IntervalProduct.from_json_object({"kind": "interval-product", "records": RECORDS})
    res = class_calibrate(cls, Goal(eps, mechanism=mechanism), baselines=False)
    want = _brute_scale(RECORDS, eps)
    assert want == 3 / eps
    assert res.lo <= want <= res.hi and res.hi - res.lo <= want / 10**9
    assert res.worst_target == "x1"


def test_point_box_and_a_closed_value():
    # source: the same brute force: with value 3 of x1 and value 2 of x3 impossible
    # (upper ends 0) every law's spread is 1, so the scale is 1 / ε
    recs = [
        {"values": ["0", "1", "3"], "probs": [["1/4", "1/2"], ["1/2", "3/4"], ["0", "0"]]},
        {"values": ["0", "2"], "probs": [["1", "1"], ["0", "0"]]},
        RECORDS[1],
    ]
    cls = IntervalProduct.from_json_object({"kind": "interval-product", "records": recs})
    res = class_calibrate(cls, Goal(F(1)), baselines=False)
    want = _brute_scale(recs, F(1))
    assert want == 1
    assert res.lo <= want <= res.hi

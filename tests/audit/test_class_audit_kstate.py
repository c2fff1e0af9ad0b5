"""``audit`` over a k-state interval chain (:func:`interval_class_audit` with an
``IntervalChainK``): dp and dependent-dp sups from the polytopes' vertices, Eq. 2's ε
(δ = 0) by the k-state search, cdp's Laplace ε (δ = 0) by the kernel bound, the rest
labelled lower bounds.

Independent sources: the single-law ``audit()`` (the single-law path, never the class
path) at members drawn along the rows' polytopes, and hand derivations (vertex counts;
the Laplace kernel's ratio ``e^{|w_i| span / λ}``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.audit import audit
from pdpsym.audit.class_audit import LOWER, SUP, bounds_of
from pdpsym.audit.class_audit_interval import (
    interval_class_audit,
    k_state_laws,
    k_vertex_count,
)
from pdpsym.audit.sum_mechanisms import SumMechanism
from pdpsym.models.interval_chain_k import IntervalChainK

F = Fraction
OBJ = {
    "kind": "interval-markov-chain",
    "length": 3,
    "states": ["0", "1", "2"],
    "initial": "stationary",
    "transition": [
        [["3/5", "13/20"], ["1/5", "1/4"], ["1/8", "1/8"]],
        [["1/5", "1/5"], ["3/5", "3/5"], ["1/5", "1/5"]],
        [["1/8", "1/8"], ["6/25", "6/25"], ["127/200", "127/200"]],
    ],
}
LAP = SumMechanism("laplace", lam=F(2))


def test_vertex_count_by_hand():
    # hand derivation: row 0 is the segment r0 + r1 = 7/8 with r0 in [3/5, 13/20] (two
    # vertices), rows 1 and 2 are points: 2 vertices, plus a member inside: 3 laws
    cls = IntervalChainK.from_json_object(OBJ)
    assert k_vertex_count(cls) == 2
    assert len(k_state_laws(cls)) == 3


_RES = {}


def _class_audit():
    if not _RES:
        cls = IntervalChainK.from_json_object(OBJ)
        _RES["r"] = interval_class_audit(
            cls, LAP, "x2", (), [F(1)], None, ["dp", "dependent-dp", "apkdp", "cdp"]
        )
    return _RES["r"]


@settings(max_examples=6, deadline=None)
@given(t=st.fractions(0, 1))
def test_never_below_a_member_along_the_polytope(t):
    # source: the single-law audit() at the member r0 = 3/5 + t/20 (r1 = 7/8 - r0, a point
    # of row 0's polytope by construction): every figure's upper end is at least its value
    res = _class_audit()
    cls = IntervalChainK.from_json_object(OBJ)
    r0 = F(3, 5) + t / 20
    theta = (r0, F(7, 8) - r0) + tuple(a for a, _ in cls.box()[2:])
    ref = audit(
        cls.member(theta), LAP, "x2", (), [F(1)], None, ["dp", "dependent-dp", "apkdp", "cdp"]
    )
    for row, mine in zip(ref.results, res.notions, strict=True):
        eps = bounds_of(row.epsilon, row.ratio_enclosure)
        assert eps == "inf" or eps[0] <= mine.epsilon.bounds[1]
        d = bounds_of(row.delta_at_epsilon[0][1])
        assert d[0] <= mine.delta_at_epsilon[0][1].bounds[1]


def test_statuses():
    # hand derivation: dp and dependent-dp do not depend on the law beyond the dependence
    # group (every vertex evaluated: sups); apkdp's ε (δ = 0) is Eq. 2 (the k-state
    # search: a sup); cdp's is at most |w_i| (2 - 0) / 2 = 1 at every law (a sup, reached);
    # the δ(ε) of apkdp and cdp under Laplace have no k-state sub-box bound (lower bounds)
    res = _class_audit()
    by = {r.notion: r for r in res.notions}
    assert by["dp"].epsilon.status == SUP and by["dependent-dp"].epsilon.status == SUP
    assert by["apkdp"].epsilon.status == SUP
    assert by["cdp"].epsilon.status == SUP and by["cdp"].epsilon.bounds[0] <= 1
    assert 1 <= by["cdp"].epsilon.bounds[1]
    assert by["apkdp"].delta_at_epsilon[0][1].status == LOWER
    assert by["cdp"].delta_at_epsilon[0][1].status == LOWER


def test_cli_takes_a_three_state_chain(tmp_path):
    # hand derivation: the command no longer refuses a k-state chain; lines stay short
    path = tmp_path / "k.json"
    path.write_text(json.dumps(OBJ))
    mech = tmp_path / "m.json"
    mech.write_text('{"kind": "count"}')
    argv = [sys.executable, "-m", "pdpsym", "audit", str(path), str(mech), "--target", "x2"]
    out = subprocess.run(
        [*argv, "--eps", "1", "--notions", "dp,apkdp", "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    d = json.loads(out)
    assert d["class"]["states"] == 3 and d["laws_evaluated"] == 3
    assert d["notions"]["dp"]["epsilon"]["status"] == "sup"
    assert d["notions"]["apkdp"]["delta_at_epsilon"][0]["delta"]["status"] == "lower-bound"

"""``audit`` over a k-state interval chain (:func:`interval_class_audit` with an
``IntervalChainK``): dp and dependent-dp sups from the polytopes' vertices, Eq. 2's ε
(δ = 0) by the k-state search, cdp's Laplace ε (δ = 0) by the kernel bound, the rest
labelled lower bounds.

Independent sources: the single-law ``audit()`` (the single-law path, never the class
path) at members drawn along the rows' polytopes, and hand derivations (vertex counts;
the Laplace kernel's ratio ``e^{|w_i| span / λ}``).
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.audit import audit
from pdpsym.audit.class_audit import LOWER, SUP, bounds_of
from pdpsym.audit.class_audit_interval import ENCLOSED, interval_class_audit
from pdpsym.mechanisms.sum_kernels import CountSum, LaplaceSum, ThresholdSum
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
LAP = LaplaceSum(lam=F(2))


def test_vertex_count_by_hand():
    # hand derivation: row 0 is the segment r0 + r1 = 7/8 with r0 in [3/5, 13/20] (two
    # vertices), rows 1 and 2 are points: 2 vertices, plus a member inside: 3 laws
    cls = IntervalChainK.from_json_object(OBJ)
    assert cls.vertex_count() == 2
    assert len(cls.audit_laws(3)) == 3


_RES = {}
NOTIONS = ["dp", "dependent-dp", "apkdp", "ppkdp", "cdp", "ibcdp"]
THRESHOLD = ThresholdSum(T=F(1))


def _class_audit(mech):
    key = mech.kind
    if key not in _RES:
        cls = IntervalChainK.from_json_object(OBJ)
        eps = [] if mech.kind == "laplace" else [F(1)]  # (Laplace: no δ(ε) search here)
        _RES[key] = interval_class_audit(cls, mech, "x2", (), eps, None, NOTIONS)
    return _RES[key]


@pytest.mark.parametrize("m", [LAP, THRESHOLD])
@settings(max_examples=3, deadline=None)
@given(t=st.fractions(0, 1))
def test_never_below_a_member_along_the_polytope(m, t):
    # source: the single-law audit() at the member r0 = 3/5 + t/20 (r1 = 7/8 - r0, a point
    # of row 0's polytope by construction): every figure's upper end is at least its value
    res = _class_audit(m)
    cls = IntervalChainK.from_json_object(OBJ)
    r0 = F(3, 5) + t / 20
    theta = (r0, F(7, 8) - r0) + tuple(a for a, _ in cls.box()[2:])
    eps = [] if m.kind == "laplace" else [F(1)]
    ref = audit(cls.member(theta), m, "x2", (), eps, None, NOTIONS)
    for row, mine in zip(ref.results, res.notions, strict=True):
        e = bounds_of(row.epsilon, row.ratio_enclosure)
        assert e == "inf" or mine.epsilon.bounds == "inf" or e[0] <= mine.epsilon.bounds[1]
        for (_, d, *_), (_, fig) in zip(row.delta_at_epsilon, mine.delta_at_epsilon, strict=True):
            assert bounds_of(d)[0] <= fig.bounds[1]


def test_statuses():
    # hand derivation: dp and dependent-dp do not depend on the law beyond the dependence
    # group (every vertex evaluated: sups); apkdp's and ppkdp's ε (δ = 0) is Eq. 2 (the
    # k-state search: a sup); cdp's is at most |w_i| (2 - 0) / 2 = 1 at every law (a sup,
    # reached); ibcdp's under Laplace noise is at most 2 |w_i| 2 / 2 = 2 at every law (an
    # enclosure [max over the laws, 2]). Under
    # the threshold, every hockey-stick figure and ibcdp's are enclosed by the searches
    by = {r.notion: r for r in _class_audit(LAP).notions}
    assert by["dp"].epsilon.status == SUP and by["dependent-dp"].epsilon.status == SUP
    assert by["apkdp"].epsilon.status == SUP and by["ppkdp"].epsilon.status == SUP
    assert by["cdp"].epsilon.status == SUP and by["cdp"].epsilon.bounds[0] <= 1
    assert 1 <= by["cdp"].epsilon.bounds[1]
    assert by["ibcdp"].epsilon.status in (SUP, ENCLOSED) and by["ibcdp"].epsilon.bounds[1] == 2
    res = _class_audit(THRESHOLD)
    assert res.boxes is not None and res.posterior_boxes is not None
    for row in res.notions:
        for _, fig in row.delta_at_epsilon:
            assert fig.status in (SUP, ENCLOSED), row.notion


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
    assert d["notions"]["apkdp"]["delta_at_epsilon"][0]["delta"]["status"] == "sup"
    assert d["figures_search"]["tight"]


def _obj2(initial):
    return {
        "kind": "interval-markov-chain",
        "length": 4,
        "states": ["0", "1", "2"],
        "initial": initial,
        "transition": [
            [["1/2", "3/5"], ["1/5", "3/10"], ["3/20", "1/4"]],
            [["1/5", "1/5"], ["3/5", "3/5"], ["1/5", "1/5"]],
            [["1/8", "1/4"], ["1/4", "1/4"], ["1/2", "5/8"]],
        ],
    }


def _stationary(P):
    """The stationary law of a 3 x 3 stochastic matrix: pi (P - I) = 0, sum pi = 1, by
    Gaussian elimination in Fraction."""
    k = len(P)
    rows = [[P[s][j] - (1 if s == j else 0) for s in range(k)] + [F(0)] for j in range(k - 1)]
    rows.append([F(1)] * k + [F(1)])
    for c in range(k):
        piv = next(r for r in range(c, k) if rows[r][c] != 0)
        rows[c], rows[piv] = rows[piv], rows[c]
        for r in range(k):
            if r != c and rows[r][c] != 0:
                f = rows[r][c] / rows[c][c]
                rows[r] = [x - f * y for x, y in zip(rows[r], rows[c], strict=True)]
    return [rows[c][k] / rows[c][c] for c in range(k)]


@settings(max_examples=15, deadline=None)
@given(
    u=st.fractions(0, 1),
    v=st.fractions(0, 1),
    w=st.fractions(0, 1),
    stationary=st.booleans(),
    known=st.booleans(),
)
def test_box_laws_k_encloses_every_member(u, v, w, stationary, known):
    # source: the chain's joint law by enumerating every sequence of 3 states in Fraction
    # (the stationary law by Gaussian elimination, written here), at a member drawn in the
    # root box's polytopes (valid by construction): every conditional law of the count is
    # inside the enclosure
    from pdpsym.audit.class_box_laws_k import chain_box_laws  # noqa: PLC0415 (only this test)

    cls = IntervalChainK.from_json_object(
        _obj2("stationary" if stationary else ["1/2", "1/4", "1/4"])
    )
    r0 = F(1, 2) + u / 10
    lo1, hi1 = max(F(1, 5), F(3, 4) - r0), min(F(3, 10), F(17, 20) - r0)
    r1 = lo1 + v * (hi1 - lo1)
    q0 = F(1, 8) + w / 8
    P = [[r0, r1, 1 - r0 - r1], [F(1, 5), F(3, 5), F(1, 5)], [q0, F(1, 4), F(3, 4) - q0]]
    init = _stationary(P) if stationary else [F(1, 2), F(1, 4), F(1, 4)]
    k = 3 if known else None
    joint = {}
    for seq in itertools.product(range(3), repeat=4):
        p = init[seq[0]]
        for t in range(1, 4):
            p *= P[seq[t - 1]][seq[t]]
        key = (F(seq[1]), () if k is None else (F(seq[k]),))
        row = joint.setdefault(key, {})
        row[F(sum(seq))] = row.get(F(sum(seq)), F(0)) + p
    laws = chain_box_laws(cls, cls.box(), "x2", ["x4"] if known else [], None)
    for key, row in joint.items():
        tot = sum(row.values())
        lo, hi = laws.laws[key]
        for s, p in row.items():
            assert lo.get(s, F(0)) <= p / tot <= hi[s]
            assert laws.joint[key][s][0][0] <= p <= laws.joint[key][s][0][1]


def test_dependent_dp_is_a_lower_bound_when_vertices_are_cut():
    # hand derivation: each row [1/10, 1/2]^3 with sum 1 is a hexagon (the 6 orders of
    # (1/10, 2/5, 1/2): two ends at a bound, the third between), so the
    # three rows' product has 216 > 64 vertex combinations: not all evaluated, so
    # dependent-dp is labelled a lower bound; dp (law-free) stays a sup
    row = [["1/10", "1/2"]] * 3
    obj = {**OBJ, "length": 2, "transition": [row, row, row]}
    cls = IntervalChainK.from_json_object(obj)
    assert cls.vertex_count() == 216 and len(cls.audit_laws(3)) == 65
    res = interval_class_audit(cls, CountSum(), "x1", (), [F(1)], None, ["dp", "dependent-dp"])
    by = {r.notion: r.delta_at_epsilon[0][1] for r in res.notions}
    assert by["dp"].status == SUP and by["dependent-dp"].status == LOWER

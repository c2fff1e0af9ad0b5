"""The figures' branch and bound over an interval chain (:mod:`pdpsym.audit.class_audit_boxes`).

Independent sources: a brute force written here (the chain's joint law by enumerating
every sequence in Fraction, the conditional laws of the count and the hockey stick and
largest ratio by their definitions, Desfontaines et al. Lemma 1), and the single-law
``audit()`` path (never the class path) on grids of the box.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import binary_interval_chain

from pdpsym.audit import audit
from pdpsym.audit.class_audit import SUP, bounds_of
from pdpsym.audit.class_audit_boxes import box_notion_bounds, notion_bounds
from pdpsym.audit.class_audit_interval import ENCLOSED, interval_class_audit
from pdpsym.audit.class_box_laws import box_laws
from pdpsym.audit.class_figure_search import search_figures
from pdpsym.audit.registry import Pairs
from pdpsym.mechanisms.sum_kernels import CountSum, GeometricSum, ThresholdSum

F = Fraction
E1_LO = F(2718281828, 10**9)  # below e (e = 2.718281828459...)
E1_HI = F(2718281829, 10**9)  # above e


def _brute_apk(T, x0, x1, i, k, e_up):
    """apkdp of the count given x_i and x_k by enumeration: (max ratio, δ at e^ε = e_up
    as a lower end); None for an unbounded ratio."""
    pi1 = x0 / (x0 + 1 - x1)
    P = [[1 - x0, x0], [1 - x1, x1]]
    joint = {}
    for seq in itertools.product((0, 1), repeat=T):
        p = pi1 if seq[0] else 1 - pi1
        for t in range(1, T):
            p *= P[seq[t - 1]][seq[t]]
        key = (seq[i], seq[k])
        joint.setdefault(key, {})
        joint[key][sum(seq)] = joint[key].get(sum(seq), F(0)) + p
    law = {key: {s: p / sum(row.values()) for s, p in row.items()} for key, row in joint.items()}
    ratio, delta = F(0), F(0)
    for a, b in ((0, 1), (1, 0)):
        for v in (0, 1):
            if (a, v) not in law or (b, v) not in law:
                continue
            p, q = law[(a, v)], law[(b, v)]
            for y, x in p.items():
                if x and not q.get(y):
                    ratio = None
                elif ratio is not None and x:
                    ratio = max(ratio, x / q[y])
            delta = max(delta, sum(max(F(0), x - e_up * q.get(y, F(0))) for y, x in p.items()))
    return ratio, delta


@settings(max_examples=25, deadline=None)
@given(
    T=st.integers(2, 5),
    a0=st.integers(1, 7),
    w0=st.integers(0, 2),
    a1=st.integers(1, 7),
    w1=st.integers(0, 2),
    u=st.fractions(0, 1),
    v=st.fractions(0, 1),
)
def test_sub_box_bound_is_above_every_point_inside(T, a0, w0, a1, w1, u, v):
    # source: the brute force above at a point drawn inside the box (valid by
    # construction: lo + u (hi - lo)); the sub-box bound must be at least its value
    box = ((F(a0, 10), F(a0 + w0, 10)), (F(a1, 10), F(a1 + w1, 10)))
    cls = binary_interval_chain(T, *box)
    x0 = box[0][0] + u * (box[0][1] - box[0][0])
    x1 = box[1][0] + v * (box[1][1] - box[1][0])
    i, k = 0, T - 1
    names = cls.variables
    laws = box_laws(cls, box, names[i], [names[k]], None)
    mech = CountSum()
    ratio, delta = _brute_apk(T, x0, x1, i, k, E1_HI)
    plain = notion_bounds(laws, mech, Pairs.GIVEN_KNOWN, [E1_LO], False)
    centre = box_laws(cls, tuple(((a + b) / 2,) * 2 for a, b in box), names[i], [names[k]], None)
    rad = [(b - a) / 2 for a, b in box]
    mv = box_notion_bounds(laws, centre, rad, mech, Pairs.GIVEN_KNOWN, [E1_LO])
    for ub_ratio, (ub_delta,) in (plain, mv):
        assert ub_delta >= delta
        if ub_ratio is not None:
            assert ratio is not None and ub_ratio >= ratio


MECHS = [
    CountSum(),
    ThresholdSum(T=F(1)),
    GeometricSum(alpha=F(1, 3)),
]
KINDS = {"apkdp": Pairs.GIVEN_KNOWN, "ppkdp": Pairs.WEIGHTED_KNOWN, "cdp": Pairs.CHANGED}


@settings(max_examples=25, deadline=None)
@given(
    T=st.integers(2, 4),
    a0=st.integers(1, 7),
    w0=st.integers(0, 2),
    a1=st.integers(1, 7),
    w1=st.integers(0, 2),
    u=st.fractions(0, 1),
    v=st.fractions(0, 1),
    m=st.integers(0, 2),
    notion=st.sampled_from(sorted(KINDS)),
    with_known=st.booleans(),
)
def test_mean_value_bound_is_above_the_single_law(T, a0, w0, a1, w1, u, v, m, notion, with_known):
    # source: the single-law audit() (the single-law path) at a point drawn inside the
    # box (lo + u (hi - lo), valid by construction): the sub-box bound of every figure is
    # at least that law's
    box = ((F(a0, 10), F(a0 + w0, 10)), (F(a1, 10), F(a1 + w1, 10)))
    cls = binary_interval_chain(T, *box)
    theta = tuple(lo + t * (hi - lo) for (lo, hi), t in zip(box, (u, v), strict=True))
    names = cls.variables
    known = [names[-1]] if with_known and T > 2 else []
    mech = MECHS[m]
    laws = box_laws(cls, box, names[0], known, None)
    centre = box_laws(cls, tuple(((a + b) / 2,) * 2 for a, b in box), names[0], known, None)
    rad = [(b - a) / 2 for a, b in box]
    ub_ratio, (ub_delta,) = box_notion_bounds(laws, centre, rad, mech, KINDS[notion], [E1_LO])
    ref = _single(cls, mech, names[0], known, [F(1)], [notion], theta)[notion]
    assert ref[1] == "inf" or ub_delta >= ref[1][0]
    if ub_ratio is not None and ref[0] != "inf":
        assert math.log(ub_ratio) >= float(ref[0][0]) - 1e-12
    elif ub_ratio is not None:
        raise AssertionError("a finite bound below an infinite epsilon")


def test_point_box_equals_the_brute_force():
    # source: the brute force above; a box of width 0 is the exact law, so the bound is
    # the exact ratio and δ computed with the same e bound
    cls = binary_interval_chain(4, (F(1, 5), F(1, 5)), (F(3, 5), F(3, 5)))
    box = tuple((a, a) for a, _ in cls.box())
    laws = box_laws(cls, box, "x1", ["x4"], None)
    got = notion_bounds(laws, CountSum(), Pairs.GIVEN_KNOWN, [E1_HI], True)
    ratio, delta = _brute_apk(4, F(1, 5), F(3, 5), 0, 3, E1_HI)
    assert got[0] == ratio and got[1][0] == delta


def _single(cls, mech, target, known, eps, notions, theta):
    """The single-law audit's figures (the single-law path): notion -> [ε, δ...] bounds."""
    a = audit(cls.member(theta), mech, target, known, eps, None, notions)
    out = {}
    for r in a.results:
        out[r.notion] = [bounds_of(r.epsilon, r.ratio_enclosure)]
        out[r.notion] += [bounds_of(d) for _, d, _ in r.delta_at_epsilon]
    return out


def _check_against_grid(cls, mech, target, known, notions, n):
    res = interval_class_audit(cls, mech, target, known, [F(1)], None, notions, figure_boxes=20)
    axes = [[a + (b - a) * j / (n - 1) for j in range(n)] for a, b in cls.box()]
    grid = [
        _single(cls, mech, target, known, [F(1)], notions, th) for th in itertools.product(*axes)
    ]
    for row in res.notions:
        figs = [row.epsilon] + [f for _, f in row.delta_at_epsilon]
        for j, fig in enumerate(figs):
            refs = [g[row.notion][j] for g in grid]
            if fig.bounds == "inf":
                continue
            assert all(r != "inf" for r in refs), (row.notion, j)
            # never below any single law (enclosures overlap from above)
            assert all(r[0] <= fig.bounds[1] for r in refs), (row.notion, j)
            assert fig.status in (SUP, ENCLOSED), (row.notion, j)
            if fig.status == SUP:  # to the digits: the grid max is within the aim
                top = max(r[0] for r in refs)
                assert fig.bounds[1] - top <= F(1, 100) * max(top, F(1, 1000)) + F(1, 10**6)
    return res


def test_class_audit_is_never_below_a_grid_of_single_laws():
    # source: the single-law audit() at a 4 x 4 grid of the box (the class audit's own
    # grid is 3 x 3): every figure's upper end is at least every grid law's lower end
    cls = binary_interval_chain(4, (F(1, 10), F(2, 10)), (F(6, 10), F(8, 10)))
    _check_against_grid(cls, CountSum(), "x2", ["x3"], ["apkdp", "ppkdp"], 4)


def test_class_audit_threshold_and_geometric_never_below_grid():
    # source: as above, for the threshold and geometric noise (T = 3, a 3 x 3 grid)
    cls = binary_interval_chain(3, (F(2, 10), F(3, 10)), (F(5, 10), F(6, 10)))
    _check_against_grid(cls, ThresholdSum(T=F(1)), "x2", [], ["cdp"], 3)
    _check_against_grid(cls, GeometricSum(alpha=F(1, 2)), "x2", [], ["apkdp"], 3)


def test_point_class_equals_single_law():
    # source: the single-law audit() at the box's one point: the class's figures are
    # the sup to the digits, enclosing it
    cls = binary_interval_chain(5, (F(1, 5), F(1, 5)), (F(7, 10), F(7, 10)))
    mech = CountSum()
    res = interval_class_audit(cls, mech, "x3", ["x1"], [F(1)], None, ["apkdp", "ppkdp"])
    ref = _single(cls, mech, "x3", ["x1"], [F(1)], ["apkdp", "ppkdp"], (F(1, 5), F(7, 10)))
    for row in res.notions:
        for fig, r in zip([row.epsilon] + [f for _, f in row.delta_at_epsilon], ref[row.notion]):
            if fig.bounds == "inf":  # the count's supports differ: infinite at the point too
                assert r == "inf"
                continue
            assert fig.status == SUP
            assert fig.bounds[0] <= r[1] and r[0] <= fig.bounds[1]
            assert fig.bounds[1] - fig.bounds[0] <= F(1, 10**6)


def test_search_closes_on_a_narrow_box():
    # hand derivation: a box of width 10^-4 has bounds within 10^-3 of its centre's
    # value at once; the search must say tight, with lo at most hi
    cls = binary_interval_chain(
        4, (F(2000, 10000), F(2001, 10000)), (F(7000, 10000), F(7001, 10000))
    )
    res = search_figures(cls, CountSum(), "x2", [], [F(1)], ["apkdp"], digits=2)
    assert all(f.tight for f in res.figures) and res.boxes == 1
    # hand derivation: without known records the count given x2 = 0 cannot reach 4,
    # given x2 = 1 it can: the ratio is infinite at every law (lo None, no upper end)
    assert res.figures[0].lo is None and res.figures[0].hi is None
    d = res.figures[1]
    assert d.lo is not None and d.hi is not None and d.lo <= d.hi <= d.lo + F(1, 100) * d.lo


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(
    T=st.integers(3, 6),
    a0=st.integers(1, 6),
    w0=st.integers(1, 3),
    a1=st.integers(3, 8),
    w1=st.integers(1, 3),
    m=st.integers(0, 2),
    known=st.booleans(),
)
def test_random_boxes_against_a_dense_grid(T, a0, w0, a1, w1, m, known):
    # source: the single-law audit() on a 7 x 7 grid of the box (never the class path):
    # the class figure is never below a grid law, and a figure labelled "sup" (to 3
    # digits) is within 10^-3 (relative) of the grid's max, which it contains from above
    cls = binary_interval_chain(
        T, (F(a0, 20), F(a0 + w0, 20)), (F(a1, 10), F(a1 + w1, 20) + F(a1, 20))
    )
    kn = ["x1"] if known else []
    res = interval_class_audit(
        cls, MECHS[m], "x2", kn, [F(1)], None, ["apkdp", "cdp"], figure_boxes=3000
    )
    axes = [[a + (b - a) * j / 6 for j in range(7)] for a, b in cls.box()]
    grid = [
        _single(cls, MECHS[m], "x2", kn, [F(1)], ["apkdp", "cdp"], th)
        for th in itertools.product(*axes)
    ]
    for row in res.notions:
        figs = [row.epsilon] + [f for _, f in row.delta_at_epsilon]
        for j, fig in enumerate(figs):
            refs = [g[row.notion][j] for g in grid]
            if fig.bounds == "inf" or any(r == "inf" for r in refs):
                assert fig.bounds == "inf" or fig.status != SUP, (row.notion, j)
                continue
            assert all(r[0] <= fig.bounds[1] for r in refs), (row.notion, j)
            if fig.status == SUP:
                top = max(r[1] for r in refs)
                assert fig.bounds[0] - top <= F(1, 1000) * max(top, F(1, 1000)) + F(1, 10**6)


def test_eps_at_delta_is_enclosed_above_every_grid_law():
    # source: the single-law audit() on a 3 x 3 grid of the box: the class's ε(δ) is a
    # sup to 3 digits whose upper end is at least every grid law's ε(δ)
    cls = binary_interval_chain(3, (F(2, 10), F(3, 10)), (F(5, 10), F(6, 10)))
    mech = GeometricSum(alpha=F(1, 2))
    res = interval_class_audit(cls, mech, "x2", [], [], F(1, 10), ["apkdp"], figure_boxes=300)
    d, fig = res.notions[0].epsilon_at_delta
    assert d == F(1, 10) and fig.status == SUP
    axes = [[a + (b - a) * j / 2 for j in range(3)] for a, b in cls.box()]
    for th in itertools.product(*axes):
        r = audit(cls.member(th), mech, "x2", [], [], F(1, 10), ["apkdp"]).results[0]
        ref = bounds_of(r.epsilon_at_delta[1])
        assert ref[0] <= fig.bounds[1]
    assert fig.bounds[1] - fig.bounds[0] <= F(2, 1000) * fig.bounds[1]

"""δ(ε) of Laplace noise on the count over a sub-box of an interval chain
(:mod:`pdpsym.audit.class_audit_laplace`).

Independent sources: a brute force written here (the chain's conditional count laws by
enumerating every sequence in Fraction; the hockey stick of the two Laplace mixtures
``∫ max(0, p - e^ε q)`` by the trapezoid rule in float64 on a fine grid), and the single-law ``audit()`` path (never the
class path) on grids of the box.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import binary_interval_chain

from pdpsym.audit import audit
from pdpsym.audit.class_audit import SUP, bounds_of
from pdpsym.audit.class_audit_interval import ENCLOSED, interval_class_audit
from pdpsym.audit.class_audit_laplace import laplace_bounds
from pdpsym.audit.class_box_laws import box_laws
from pdpsym.audit.registry import Pairs
from pdpsym.core.eps import Eps
from pdpsym.mechanisms.sum_kernels import LaplaceSum

F = Fraction
LAM = F(1, 2)  # small: δ(1) well above 0 at most laws (the checks have power)
TOL = 1e-6  # the trapezoid rule's error (step 10^-3, kinks at the sign changes)


def _laws(T, x0, x1, i, k):
    """P[count | x_i = a, x_k = v] by enumerating every sequence (k None: no known)."""
    pi1 = x0 / (x0 + 1 - x1)
    P = [[1 - x0, x0], [1 - x1, x1]]
    joint = {}
    for seq in itertools.product((0, 1), repeat=T):
        p = pi1 if seq[0] else 1 - pi1
        for t in range(1, T):
            p *= P[seq[t - 1]][seq[t]]
        key = (seq[i], None if k is None else seq[k])
        row = joint.setdefault(key, {})
        row[sum(seq)] = row.get(sum(seq), F(0)) + p
    return {key: {s: p / sum(row.values()) for s, p in row.items()} for key, row in joint.items()}


def _hockey(p, q, lam, eps):
    """∫ max(0, p(y) - e^ε q(y)) dy of two Laplace mixtures, by the trapezoid rule on a
    grid of step 10^-3 over the centres widened by 60 λ (the tails beyond: below 10^-12)."""
    lam, E = float(lam), float(np.exp(eps))
    cs = [float(s) for s in p] + [float(s) for s in q]
    y = np.arange(min(cs) - 60 * lam, max(cs) + 60 * lam, 1e-3)
    g = np.zeros_like(y)
    for s, w in p.items():
        g += float(w) * np.exp(-np.abs(y - float(s)) / lam)
    for s, w in q.items():
        g -= E * float(w) * np.exp(-np.abs(y - float(s)) / lam)
    return float(np.trapezoid(np.maximum(g, 0) / (2 * lam), y))


@settings(max_examples=10, deadline=None)
@given(
    T=st.integers(2, 4),
    a0=st.integers(1, 7),
    w0=st.integers(0, 2),
    a1=st.integers(1, 7),
    w1=st.integers(0, 2),
    u=st.fractions(0, 1),
    v=st.fractions(0, 1),
)
def test_sub_box_bound_is_above_every_point_inside(T, a0, w0, a1, w1, u, v):
    # source: the brute force above at a point drawn inside the box (lo + u (hi - lo),
    # valid by construction): the sub-box bound of apkdp's δ(1) (the pairs given the target
    # and the last record) is at least that law's δ by quadrature
    box = ((F(a0, 10), F(a0 + w0, 10)), (F(a1, 10), F(a1 + w1, 10)))
    cls = binary_interval_chain(T, *box)
    x0 = box[0][0] + u * (box[0][1] - box[0][0])
    x1 = box[1][0] + v * (box[1][1] - box[1][0])
    names = cls.variables
    laws = box_laws(cls, box, names[0], [names[-1]], None)
    ctr, rad = _centre(cls, box, names[0], [names[-1]])
    (ub,) = laplace_bounds(laws, LAM, Pairs.GIVEN_KNOWN, [Eps.of(1)], False)
    (mv,) = laplace_bounds(laws, LAM, Pairs.GIVEN_KNOWN, [Eps.of(1)], False, ctr, rad)
    law = _laws(T, x0, x1, 0, T - 1)
    ref = max(
        (_hockey(law[(a, w)], law[(b, w)], LAM, 1) for a, b in ((0, 1), (1, 0)) for w in (0, 1)),
        default=0,
    )
    assert float(ub) >= ref - TOL
    assert float(mv) >= ref - TOL and mv <= ub


def _centre(cls, box, target, known):
    """The exact laws at the box's centre and its half-widths (the mean-value form's)."""
    mid = tuple(((a + b) / 2,) * 2 for a, b in box)
    return box_laws(cls, mid, target, known, None), [(b - a) / 2 for a, b in box]


@settings(max_examples=10, deadline=None)
@given(
    a0=st.integers(1, 7),
    w0=st.integers(0, 2),
    a1=st.integers(1, 7),
    w1=st.integers(0, 2),
    u=st.fractions(0, 1),
    v=st.fractions(0, 1),
    notion=st.sampled_from(["apkdp", "ppkdp", "cdp"]),
)
def test_every_pair_kind_bound_is_above_the_single_law(a0, w0, a1, w1, u, v, notion):
    # source: the single-law audit() (the single-law path) at a point drawn inside the box:
    # the sub-box bound of the notion's δ(1) is at least that law's lower end
    box = ((F(a0, 10), F(a0 + w0, 10)), (F(a1, 10), F(a1 + w1, 10)))
    cls = binary_interval_chain(3, *box)
    theta = tuple(lo + t * (hi - lo) for (lo, hi), t in zip(box, (u, v), strict=True))
    kinds = {"apkdp": Pairs.GIVEN_KNOWN, "ppkdp": Pairs.WEIGHTED_KNOWN, "cdp": Pairs.CHANGED}
    laws = box_laws(cls, box, "x2", ["x3"], None)
    ctr, rad = _centre(cls, box, "x2", ["x3"])
    (ub,) = laplace_bounds(laws, LAM, kinds[notion], [Eps.of(1)], False)
    (mv,) = laplace_bounds(laws, LAM, kinds[notion], [Eps.of(1)], False, ctr, rad)
    ref = _single(cls, "x2", ["x3"], [notion], theta)[notion]
    assert ub >= ref[0] and mv >= ref[0]


def test_point_box_equals_the_quadrature():
    # source: the brute force above; a box of width 0 is the exact law: its bound and its
    # lower end both enclose the law's δ(1) (max over the two pairs given x4 = v)
    cls = binary_interval_chain(4, (F(1, 5), F(1, 5)), (F(3, 5), F(3, 5)))
    box = tuple((a, a) for a, _ in cls.box())
    laws = box_laws(cls, box, "x1", ["x4"], None)
    (hi,) = laplace_bounds(laws, LAM, Pairs.GIVEN_KNOWN, [Eps.of(1)], False)
    (lo,) = laplace_bounds(laws, LAM, Pairs.GIVEN_KNOWN, [Eps.of(1)], True)
    law = _laws(4, F(1, 5), F(3, 5), 0, 3)
    ref = max(_hockey(law[(a, w)], law[(1 - a, w)], LAM, 1) for a in (0, 1) for w in (0, 1))
    assert lo <= hi and hi - lo < F(1, 10**20)
    assert abs(float(lo) - float(ref)) < TOL


def _single(cls, target, known, notions, theta):
    """The single-law audit's δ(1) bounds per notion (the single-law path)."""
    a = audit(cls.member(theta), LaplaceSum(lam=LAM), target, known, [F(1)], None, notions)
    return {r.notion: bounds_of(r.delta_at_epsilon[0][1]) for r in a.results}


def test_mean_value_form_is_second_order():
    # hand derivation: the plain bound's excess over the centre's δ shrinks like the
    # width, the mean-value form's like its square; halving a box of width 1/20 twice
    # must shrink the form's excess at least 6-fold (a first-order bound: about 4-fold)
    cls = binary_interval_chain(4, (F(1, 10), F(3, 10)), (F(6, 10), F(8, 10)))
    excess = []
    for h in (F(1, 40), F(1, 80), F(1, 160)):
        box = ((F(1, 5) - h, F(1, 5) + h), (F(7, 10) - h, F(7, 10) + h))
        laws = box_laws(cls, box, "x1", ["x4"], None)
        ctr, rad = _centre(cls, box, "x1", ["x4"])
        (mv,) = laplace_bounds(laws, LAM, Pairs.GIVEN_KNOWN, [Eps.of(1)], False, ctr, rad)
        (c,) = laplace_bounds(ctr, LAM, Pairs.GIVEN_KNOWN, [Eps.of(1)], True)
        excess.append(mv - c)
    assert excess[0] > 0 and excess[2] * 6 <= excess[0]


def test_mean_value_form_is_above_the_corners_of_small_boxes():
    # source: the brute force above (enumeration and the trapezoid rule) at the 4 corners
    # and the centre of small boxes, where the form is below the plain bound (in use):
    # every law's δ(1) must be below it
    cls = binary_interval_chain(4, (F(1, 10), F(3, 10)), (F(6, 10), F(8, 10)))
    for h in (F(1, 160), F(1, 640)):
        box = ((F(1, 5) - h, F(1, 5) + h), (F(7, 10) - h, F(7, 10) + h))
        laws = box_laws(cls, box, "x1", ["x4"], None)
        ctr, rad = _centre(cls, box, "x1", ["x4"])
        (mv,) = laplace_bounds(laws, LAM, Pairs.GIVEN_KNOWN, [Eps.of(1)], False, ctr, rad)
        (ub,) = laplace_bounds(laws, LAM, Pairs.GIVEN_KNOWN, [Eps.of(1)], False)
        assert mv < ub
        for x0, x1 in [*itertools.product(*box), (F(1, 5), F(7, 10))]:
            law = _laws(4, x0, x1, 0, 3)
            ref = max(_hockey(law[(a, w)], law[(1 - a, w)], LAM, 1) for a in (0, 1) for w in (0, 1))
            assert float(mv) >= ref - 1e-9


def test_class_audit_is_never_below_a_grid_of_single_laws():
    # source: the single-law audit() at a 4 x 4 grid of the box (the class audit's own grid
    # is 3 x 3): every δ(1)'s upper end is at least every grid law's lower end, and the
    # figure is an enclosure or the sup (no more a lower bound)
    cls = binary_interval_chain(3, (F(1, 10), F(2, 10)), (F(6, 10), F(8, 10)))
    mech = LaplaceSum(lam=LAM)
    notions = ["apkdp", "ppkdp", "cdp"]
    res = interval_class_audit(cls, mech, "x2", ["x3"], [F(1)], None, notions, figure_boxes=4)
    axes = [[a + (b - a) * j / 3 for j in range(4)] for a, b in cls.box()]
    grid = [_single(cls, "x2", ["x3"], notions, th) for th in itertools.product(*axes)]
    for row in res.notions:
        fig = row.delta_at_epsilon[0][1]
        assert fig.status in (SUP, ENCLOSED), row.notion
        assert all(g[row.notion][0] <= fig.bounds[1] for g in grid), row.notion
        assert fig.bounds[0] <= max(g[row.notion][1] for g in grid), row.notion


def test_point_class_equals_single_law():
    # source: the single-law audit() at the box's one point: the class's δ(1) is the sup
    # (every sub-box closes at once) and encloses the single law's
    cls = binary_interval_chain(4, (F(1, 5), F(1, 5)), (F(7, 10), F(7, 10)))
    mech = LaplaceSum(lam=LAM)
    res = interval_class_audit(cls, mech, "x3", ["x1"], [F(1)], None, ["apkdp", "cdp"])
    ref = _single(cls, "x3", ["x1"], ["apkdp", "cdp"], (F(1, 5), F(7, 10)))
    for row in res.notions:
        fig = row.delta_at_epsilon[0][1]
        r = ref[row.notion]
        assert fig.status == SUP, row.notion
        assert fig.bounds[0] <= r[1] and r[0] <= fig.bounds[1]
        assert fig.bounds[1] - fig.bounds[0] <= F(1, 10**12)

"""IBCDP over an interval chain (:mod:`pdpsym.audit.class_audit_posteriors`), and cdp's ε
(δ = 0) under Laplace noise over a class (:func:`laplace_kernel_bound`).

Independent sources: a brute force written here (the chain's joint law of the target,
the known record and the count by enumerating every sequence in Fraction; the kernels of
the count, the threshold and geometric noise by their definitions; the posteriors and
their hockey stick and largest ratio by Desfontaines et al.'s Definition 6 and Lemma 1;
for Laplace noise, the output densities in mpmath on a grid of outputs). Never the
single-law engine nor the class path.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import binary_interval_chain

from pdpsym.audit.class_audit import SUP
from pdpsym.audit.class_audit_interval import (
    ENCLOSED,
    interval_class_audit,
    laplace_kernel_bound,
)
from pdpsym.audit.class_audit_posteriors import posterior_bounds
from pdpsym.audit.class_box_laws import box_laws
from pdpsym.mechanisms.sum_kernels import CountSum, GeometricSum, LaplaceSum, ThresholdSum

F = Fraction
E1_LO = F(2718281828, 10**9)  # below e (e = 2.718281828459...)
E1_HI = F(2718281829, 10**9)  # above e
MECHS = [
    CountSum(),
    ThresholdSum(T=F(1)),
    GeometricSum(alpha=F(1, 3)),
]


def _joint(T, x0, x1, i, k):
    """``{(a, v): {s: P[x_i = a, x_k = v, S = s]}}`` by enumeration (v = () without k)."""
    pi1 = x0 / (x0 + 1 - x1)
    P = [[1 - x0, x0], [1 - x1, x1]]
    out = {}
    for seq in itertools.product((0, 1), repeat=T):
        p = pi1 if seq[0] else 1 - pi1
        for t in range(1, T):
            p *= P[seq[t - 1]][seq[t]]
        if p == 0:
            continue
        key = (seq[i], () if k is None else (seq[k],))
        row = out.setdefault(key, {})
        row[sum(seq)] = row.get(sum(seq), F(0)) + p
    return out


def _kernel(m, t, s):
    """The mechanism's output law at ``t`` given the count ``s`` (up to a factor common
    to every ``s``: the geometric one's normalization cancels in the posteriors)."""
    if m == 0:
        return F(1) if t == s else F(0)
    if m == 1:  # threshold T = 1: s itself above 1, "bottom" (None) otherwise
        return F(1) if (t == s if s > 1 else t is None) else F(0)
    return F(1, 3) ** abs(t - s)


def _brute_ibcdp(T, x0, x1, i, k, m, e):
    """IBCDP at one law by Definition 6: (max posterior ratio or None, δ at e^ε = e)."""
    joint = _joint(T, x0, x1, i, k)
    outs = (
        list(range(T + 1))
        if m == 0
        else ([None, *range(2, T + 1)] if m == 1 else list(range(-3, T + 4)))
    )
    ratio, delta = F(0), F(0)
    for v in sorted({v for _, v in joint}):
        vals = [a for a in (0, 1) if (a, v) in joint]
        for b in (0, 1):
            for t in outs:
                u1 = {a: sum(p * _kernel(m, t, s) for s, p in joint[(a, v)].items()) for a in vals}
                u2 = {
                    a: sum(p * _kernel(m, t, s + b - a) for s, p in joint[(a, v)].items())
                    for a in vals
                }
                z1, z2 = sum(u1.values()), sum(u2.values())
                if z1 == 0 or z2 == 0:
                    continue
                p1 = {a: x / z1 for a, x in u1.items()}
                p2 = {a: x / z2 for a, x in u2.items()}
                for p, q in ((p1, p2), (p2, p1)):
                    for a, x in p.items():
                        if x and not q[a]:
                            ratio = None
                        elif ratio is not None and x:
                            ratio = max(ratio, x / q[a])
                    delta = max(delta, sum(max(F(0), p[a] - e * q[a]) for a in p))
    return ratio, min(delta, F(1))


@settings(max_examples=30, deadline=None)
@given(
    T=st.integers(2, 5),
    a0=st.integers(1, 7),
    w0=st.integers(0, 2),
    a1=st.integers(1, 7),
    w1=st.integers(0, 2),
    u=st.fractions(0, 1),
    v=st.fractions(0, 1),
    m=st.integers(0, 2),
    with_known=st.booleans(),
)
def test_sub_box_bound_is_above_every_law_inside(T, a0, w0, a1, w1, u, v, m, with_known):
    # source: the brute force above at a law drawn inside the box (lo + u (hi - lo),
    # valid by construction); the bound (ends and mean-value form) must be at least it
    box = ((F(a0, 10), F(a0 + w0, 10)), (F(a1, 10), F(a1 + w1, 10)))
    cls = binary_interval_chain(T, *box)
    x0 = box[0][0] + u * (box[0][1] - box[0][0])
    x1 = box[1][0] + v * (box[1][1] - box[1][0])
    names = cls.variables
    k = T - 1 if with_known and T > 2 else None
    known = [names[k]] if k is not None else []
    laws = box_laws(cls, box, names[0], known, None)
    centre = box_laws(cls, tuple(((a + b) / 2,) * 2 for a, b in box), names[0], known, None)
    rad = [(b - a) / 2 for a, b in box]
    ub_ratio, (ub_delta,) = posterior_bounds(laws, centre, rad, MECHS[m], [E1_LO], False)
    ratio, delta = _brute_ibcdp(T, x0, x1, 0, k, m, E1_HI)
    assert ub_delta >= delta
    if ub_ratio is not None:
        assert ratio is not None and ub_ratio >= ratio


@pytest.mark.parametrize("m", [0, 1, 2])
def test_point_box_is_the_brute_force(m):
    # source: the brute force above; a box of width 0 is one law, whose exact ratio and
    # δ (at the same e bound) the point evaluation gives
    cls = binary_interval_chain(4, (F(1, 5), F(1, 5)), (F(3, 5), F(3, 5)))
    box = tuple((a, a) for a, _ in cls.box())
    laws = box_laws(cls, box, "x2", ["x4"], None)
    got = posterior_bounds(laws, None, [], MECHS[m], [E1_HI], True)
    assert got == (lambda r: (r[0], [r[1]]))(_brute_ibcdp(4, F(1, 5), F(3, 5), 1, 3, m, E1_HI))


def _grid_check(T, box, m, k, n):
    cls = binary_interval_chain(T, *box)
    names = cls.variables
    known = [names[k]] if k is not None else []
    res = interval_class_audit(
        cls, MECHS[m], names[1], known, [F(1)], None, ["ibcdp"], figure_boxes=400
    )
    row = res.notions[0]
    axes = [[a + (b - a) * j / (n - 1) for j in range(n)] for a, b in box]
    grid = [
        (_brute_ibcdp(T, x0, x1, 1, k, m, E1_HI), _brute_ibcdp(T, x0, x1, 1, k, m, E1_LO))
        for x0, x1 in itertools.product(*axes)
    ]
    fig = row.delta_at_epsilon[0][1]
    assert fig.status in (SUP, ENCLOSED)
    lo, hi = fig.bounds
    # every grid law's δ (a lower end of it: e^ε rounded up) is at most the upper end
    assert all(g[0][1] <= hi for g in grid)
    top = max(g[1][1] for g in grid)  # an upper end of each grid law's δ
    assert top <= hi + F(1, 10**9)  # (the e bounds differ by 10^-9)
    if fig.status == SUP:  # the sup to 3 digits: a narrow enclosure, the grid's max in it
        assert hi - lo <= F(1, 10**3) * max(lo, F(1, 10**3)) + F(1, 10**6)
    eps = row.epsilon
    if eps.bounds != "inf":
        ratios = [g[0][0] for g in grid]
        assert all(r is not None for r in ratios)
        top = max(math.log(r) for r in ratios)
        assert top <= float(eps.bounds[1]) + 1e-12
        if eps.status == SUP:
            assert float(eps.bounds[1] - eps.bounds[0]) <= 2e-3 * max(top, 1e-3) + 1e-6
    return fig


def test_class_figure_against_a_dense_grid():
    # source: the brute force above at a 6 x 6 grid of the box (the class audit's own
    # grid is 3 x 3): every grid law is at most the upper end, and the sup to the digits
    # is within the enclosure of the grid's max
    fig = _grid_check(3, ((F(1, 10), F(1, 5)), (F(7, 10), F(17, 20))), 1, None, 6)
    assert fig.status == SUP


@pytest.mark.slow
@pytest.mark.parametrize("m", [0, 1, 2])
@pytest.mark.parametrize("k", [None, 3])
def test_class_figure_against_a_dense_grid_every_kernel(m, k):
    # source: the brute force above at a 6 x 6 grid of the worked example's box, T = 4
    _grid_check(4, ((F(1, 10), F(1, 5)), (F(7, 10), F(17, 20))), m, k, 6)


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(
    T=st.integers(3, 6),
    a0=st.integers(1, 7),
    w0=st.integers(1, 2),
    a1=st.integers(1, 7),
    w1=st.integers(0, 2),
    m=st.integers(0, 2),
    known=st.booleans(),
)
def test_random_boxes_against_a_dense_grid(T, a0, w0, a1, w1, m, known):
    # source: the brute force above on a 7 x 7 grid of random boxes, chains T <= 6
    box = ((F(a0, 10), F(a0 + w0, 10)), (F(a1, 10), F(a1 + w1, 10)))
    _grid_check(T, box, m, T - 1 if known else None, 7)


def _laplace_ratio(joint, a, v, d, lam):
    """``max_y p(y) / p_d(y)`` on a grid of outputs, in mpmath (p: the count's law given
    ``x_i = a, x_k = v`` under Laplace noise; p_d: the same translated by ``d``)."""
    row = joint[(a, v)]
    with mpmath.workdps(40):
        la = mpmath.mpf(lam.numerator) / lam.denominator

        def dens(y, shift):
            return sum(
                mpmath.mpf(p.numerator) / p.denominator * mpmath.exp(-abs(y - s - shift) / la)
                for s, p in row.items()
            )

        ys = [mpmath.mpf(j) / 4 for j in range(-80, 4 * len(row) + 80)]
        return max(dens(y, 0) / dens(y, d) for y in ys)


@settings(max_examples=10, deadline=None)
@given(
    x0=st.fractions(F(1, 20), F(19, 20)),
    x1=st.fractions(F(1, 20), F(19, 20)),
    lam=st.sampled_from([F(1), F(2), F(1, 2)]),
)
def test_laplace_kernel_bound_bounds_every_law(x0, x1, lam):
    # source: hand derivation (the Laplace kernel's ratio is at most e^{|d|/λ}, the span
    # |w_i| (1 - 0) / λ = 1/λ here) and the densities in mpmath at a law drawn from the
    # unit square: the ratio approaches the bound in the tail and never exceeds it
    cls = binary_interval_chain(3, (F(1, 10), F(2, 10)), (F(7, 10), F(8, 10)))
    span = laplace_kernel_bound(cls, LaplaceSum(lam=lam), "x2", "cdp")
    assert span == 1 / lam
    joint = _joint(3, x0, x1, 1, None)
    for a, b in ((0, 1), (1, 0)):
        r = _laplace_ratio(joint, a, (), b - a, lam)
        with mpmath.workdps(40):
            top = mpmath.exp(mpmath.mpf(span.numerator) / span.denominator)
            assert r <= top * (1 + mpmath.mpf(10) ** -30)
            assert r >= top * (1 - mpmath.mpf(10) ** -6)
    assert laplace_kernel_bound(cls, LaplaceSum(lam=lam), "x2", "apkdp") is None
    assert laplace_kernel_bound(cls, CountSum(), "x2", "cdp") is None


def _brute_rr_apk(T, x0, x1, i, k, keep, e):
    """apkdp of randomized response on every record by enumeration: the law of the
    report vector given x_i = a (and x_k = v), its largest ratio and δ at e^ε = e."""
    pi1 = x0 / (x0 + 1 - x1)
    P = [[1 - x0, x0], [1 - x1, x1]]
    joint = {}
    for seq in itertools.product((0, 1), repeat=T):
        p = pi1 if seq[0] else 1 - pi1
        for t in range(1, T):
            p *= P[seq[t - 1]][seq[t]]
        key = (seq[i], () if k is None else (seq[k],))
        for rep in itertools.product((0, 1), repeat=T):
            q = p
            for x, o in zip(seq, rep, strict=True):
                q *= keep if x == o else 1 - keep
            row = joint.setdefault(key, {})
            row[rep] = row.get(rep, F(0)) + q
    law = {key: {o: q / sum(row.values()) for o, q in row.items()} for key, row in joint.items()}
    ratio, delta = F(0), F(0)
    for a, b in ((0, 1), (1, 0)):
        for v in {v for _, v in law}:
            if (a, v) not in law or (b, v) not in law:
                continue
            p, q = law[(a, v)], law[(b, v)]
            ratio = max(ratio, max(x / q[o] for o, x in p.items()))
            delta = max(delta, sum(max(F(0), x - e * q[o]) for o, x in p.items()))
    return ratio, delta


@settings(max_examples=20, deadline=None)
@given(
    T=st.integers(2, 4),
    a0=st.integers(1, 7),
    w0=st.integers(0, 2),
    a1=st.integers(1, 7),
    w1=st.integers(0, 2),
    u=st.fractions(0, 1),
    v=st.fractions(0, 1),
    keep=st.sampled_from([F(3, 4), F(2, 3), F(9, 10)]),
    with_known=st.booleans(),
)
def test_report_bound_is_above_every_law_inside(T, a0, w0, a1, w1, u, v, keep, with_known):
    # source: the brute force above (every sequence and every report vector in Fraction)
    # at a law drawn inside the box: the sub-box bound of apkdp's ratio and δ is above it
    from pdpsym.audit.class_audit_boxes import box_notion_bounds  # noqa: PLC0415
    from pdpsym.audit.class_box_laws import report_emission  # noqa: PLC0415
    from pdpsym.audit.registry import Pairs  # noqa: PLC0415

    box = ((F(a0, 10), F(a0 + w0, 10)), (F(a1, 10), F(a1 + w1, 10)))
    cls = binary_interval_chain(T, *box)
    x0 = box[0][0] + u * (box[0][1] - box[0][0])
    x1 = box[1][0] + v * (box[1][1] - box[1][0])
    names = cls.variables
    k = T - 1 if with_known and T > 2 else None
    known = [names[k]] if k is not None else []
    emit = report_emission(keep, 2)
    laws = box_laws(cls, box, names[0], known, None, emit)
    mid = tuple(((a + b) / 2,) * 2 for a, b in box)
    centre = box_laws(cls, mid, names[0], known, None, emit)
    rad = [(b - a) / 2 for a, b in box]
    count = CountSum()
    ub_ratio, (ub_delta,) = box_notion_bounds(laws, centre, rad, count, Pairs.GIVEN_KNOWN, [E1_LO])
    ratio, delta = _brute_rr_apk(T, x0, x1, 0, k, keep, E1_HI)
    assert ub_delta >= delta
    assert ub_ratio is not None and ub_ratio >= ratio


@pytest.mark.slow
def test_report_class_audit_against_a_grid_of_single_laws():
    # source: the brute force above at a 5 x 5 grid of the box, T = 3: every grid law's
    # apkdp is at most the class's upper end, and the enclosure is to the digits
    from pdpsym.mechanisms.discrete import RandomizedResponse  # noqa: PLC0415

    box = ((F(1, 10), F(1, 5)), (F(7, 10), F(17, 20)))
    cls = binary_interval_chain(3, *box)
    rr = RandomizedResponse(F(3, 4), ((F(0), F(1)),) * 3)
    res = interval_class_audit(cls, rr, "x2", [], [F(1)], None, ["apkdp"], figure_boxes=400)
    fig = res.notions[0].delta_at_epsilon[0][1]
    axes = [[a + (b - a) * j / 4 for j in range(5)] for a, b in box]
    for x0, x1 in itertools.product(*axes):
        r, d = _brute_rr_apk(3, x0, x1, 1, None, F(3, 4), E1_HI)
        assert d <= fig.bounds[1]
        assert math.log(r) <= float(res.notions[0].epsilon.bounds[1]) + 1e-12
    assert fig.status == SUP


@settings(max_examples=8, deadline=None)
@given(
    x0=st.fractions(F(1, 20), F(19, 20)),
    x1=st.fractions(F(1, 20), F(19, 20)),
    lam=st.sampled_from([F(1), F(2)]),
    eps=st.sampled_from([F(1, 4), F(1, 2)]),
)
def test_ibcdp_laplace_bound_holds_at_every_law(x0, x1, lam, eps):
    # source: hand derivation (the kernel's ratio: post_1 / post_2 <= e^{2 |w_i| / λ},
    # δ(ε) <= 1 - e^{ε - B}) and the posteriors in mpmath at a law drawn from the unit
    # square, on a grid of outputs: never above the bound
    cls = binary_interval_chain(3, (F(1, 10), F(2, 10)), (F(7, 10), F(8, 10)))
    top = laplace_kernel_bound(cls, LaplaceSum(lam=lam), "x2", "ibcdp")
    assert top == 2 / lam
    assert laplace_kernel_bound(cls, CountSum(), "x2", "ibcdp") is None
    joint = _joint(3, x0, x1, 1, None)
    with mpmath.workdps(30):
        la = mpmath.mpf(lam.numerator) / lam.denominator
        worst_r, worst_d = mpmath.mpf(0), mpmath.mpf(0)
        for b in (0, 1):
            for j in range(-40, 60):
                t = mpmath.mpf(j) / 4

                def u(a, shift, t=t):
                    return sum(
                        mpmath.mpf(p.numerator)
                        / p.denominator
                        * mpmath.exp(-abs(t - s - shift) / la)
                        for s, p in joint[(a, ())].items()
                    )

                u1 = {a: u(a, 0) for a in (0, 1)}
                u2 = {a: u(a, b - a) for a in (0, 1)}
                p1 = {a: u1[a] / sum(u1.values()) for a in (0, 1)}
                p2 = {a: u2[a] / sum(u2.values()) for a in (0, 1)}
                for p, q in ((p1, p2), (p2, p1)):
                    worst_r = max(worst_r, max(p[a] / q[a] for a in (0, 1)))
                    e = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator)
                    worst_d = max(worst_d, sum(max(0, p[a] - e * q[a]) for a in (0, 1)))
        B = mpmath.mpf(top.numerator) / top.denominator
        assert worst_r <= mpmath.exp(B) * (1 + mpmath.mpf(10) ** -25)
        bound = max(0, 1 - mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator - B))
        assert worst_d <= bound + mpmath.mpf(10) ** -25


def test_ibcdp_laplace_class_figures_are_enclosures():
    # hand derivation: B = 2 |w_i| (1 - 0) / λ = 1 for λ = 2; ε (δ = 0) is enclosed by
    # [max over the laws evaluated, 1], δ(1/4) by [max, 1 - e^{-3/4}] (upper end rounded up)
    cls = binary_interval_chain(3, (F(1, 10), F(2, 10)), (F(7, 10), F(8, 10)))
    mech = LaplaceSum(lam=F(2))
    res = interval_class_audit(cls, mech, "x2", [], [F(1, 4)], None, ["ibcdp"])
    row = res.notions[0]
    assert row.epsilon.status in (SUP, ENCLOSED) and row.epsilon.bounds[1] == 1
    fig = row.delta_at_epsilon[0][1]
    assert fig.status in (SUP, ENCLOSED)
    assert 0 <= fig.bounds[1] - (1 - math.exp(-0.75)) < 1e-12

"""The audit over an interval product (independent records with interval laws): every
figure of apkdp, np, ppkdp and cdp is the sup over the box, attained at the candidate
members of pdpsym.audit.class_audit_product.

Each expected value comes from the brute force below, written here in Fractions (and
mpmath for ``e^eps``), which imports nothing of pdpsym: the count law of the other
records by convolution, the mechanism's output law by its definition (Desfontaines et
al. Definitions 15 and 19: the count, the thresholded count, two-sided geometric noise
with its tails summed in closed form), and each notion's pairs as Definitions 3, 5, 12
and 13 state them for independent records.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.audit import audit
from pdpsym.audit.class_audit import SUP, bounds_of
from pdpsym.audit.class_audit_interval import ENCLOSED, interval_class_audit
from pdpsym.audit.class_audit_product import (
    candidate_count,
    candidate_laws,
    product_member,
    row_vertices,
)
from pdpsym.mechanisms.discrete import randomized_response
from pdpsym.mechanisms.sum_kernels import CountSum, GeometricSum, LaplaceSum, ThresholdSum
from pdpsym.models.law_class import IntervalProduct

F = Fraction
NOTIONS = ["apkdp", "ppkdp", "cdp"]
EPS = F(1, 2)
TOL = mpmath.mpf(10) ** -30


# --- the brute force (no pdpsym) --------------------------------------------------------


def _conv(ps):
    """The law of the count of independent Bernoulli records of these probabilities."""
    law = [F(1)]
    for p in ps:
        nxt = [F(0)] * (len(law) + 1)
        for c, q in enumerate(law):
            nxt[c] += q * (1 - p)
            nxt[c + 1] += q * p
        law = nxt
    return law


def _output(law, shift, mech):
    """The output law of the mechanism on ``count + shift``: {output: mass}, and for the
    geometric kernel the unnormalised masses on the window with the tail factor."""
    kind, par = mech
    out = {}
    for c, q in law.items() if isinstance(law, dict) else enumerate(law):
        if not q:
            continue
        s = c + shift
        o = s if kind in ("count", "geometric") or s > par else "bottom"
        out[o] = out.get(o, F(0)) + q
    return out


def _geo_pair(p, q, alpha):
    """Two geometric mixtures ``Σ_s w(s) α^|y - s|`` (the common normaliser dropped: both
    sides share it) on the window of centres; the tails are the ends times α^k."""
    lo = min(min(p), min(q))
    hi = max(max(p), max(q))
    ys = range(lo, hi + 1)

    def mix(w):
        return {y: sum(m * alpha ** abs(y - s) for s, m in w.items()) for y in ys}

    return mix(p), mix(q), lo, hi


def _hockey(p, q, mech, e):
    """δ(ε) = Σ_o max(0, P(o) - e^ε Q(o)) in mpmath (exact masses)."""
    if mech[0] != "geometric":
        return sum(
            (max(mpmath.mpf(0), _mp(p.get(o, 0)) - e * _mp(q.get(o, 0))) for o in set(p) | set(q)),
            mpmath.mpf(0),
        )
    alpha = mech[1]
    mp, mq, lo, hi = _geo_pair(p, q, alpha)
    norm = _mp((1 - alpha) / (1 + alpha))
    tail = _mp(alpha / (1 - alpha))
    tot = mpmath.mpf(0)
    for y in mp:
        d = max(mpmath.mpf(0), _mp(mp[y]) - e * _mp(mq[y]))
        tot += d * (1 + (tail if y in (lo, hi) else 0) + (tail if lo == hi else 0))
    return tot * norm


def _ratio(p, q, mech):
    """max over outputs of P/Q (None: infinite), exactly."""
    if mech[0] == "geometric":
        p, q, _, _ = _geo_pair(p, q, mech[1])
    best = F(0)
    for o, x in p.items():
        if x:
            if not q.get(o):
                return None
            best = max(best, x / q[o])
    return best


def _mp(x):
    x = F(x)
    return mpmath.mpf(x.numerator) / x.denominator


def brute(ps, target, known, mech, notion, eps):
    """(ε at δ = 0 as ``e^ε`` (None: infinite), δ(eps)) of one Bernoulli product law
    ``ps``, count query, by Definitions 3, 5, 12, 13 for independent records."""
    e = mpmath.exp(_mp(eps))
    rest = [p for j, p in enumerate(ps) if j != target and j not in known]
    law = _conv(rest)
    sup_i = [a for a in (0, 1) if (ps[target] if a else 1 - ps[target])]
    vs = [
        (v, w)
        for v in itertools.product((0, 1), repeat=len(known))
        if (w := _prod(ps[k] if x else 1 - ps[k] for k, x in zip(known, v, strict=True)))
    ]
    ratios, deltas = [], []
    if notion == "ppkdp":
        for a, b in itertools.permutations(sup_i, 2):
            d = mpmath.mpf(0)
            for v, w in vs:
                p, q = (_output(law, x + sum(v), mech) for x in (a, b))
                d += _mp(w) * _hockey(p, q, mech, e)
                ratios.append(_ratio(p, q, mech))
            deltas.append(d)
    else:
        pairs = (
            itertools.permutations(sup_i, 2)
            if notion == "apkdp"
            else [(a, 1 - a) for a in sup_i] + [(1 - a, a) for a in sup_i]
        )
        for a, b in pairs:
            for v, _ in vs:
                p, q = (_output(law, x + sum(v), mech) for x in (a, b))
                deltas.append(_hockey(p, q, mech, e))
                ratios.append(_ratio(p, q, mech))
    ratio = None if any(r is None for r in ratios) else max(ratios, default=F(1))
    return ratio, max(deltas, default=mpmath.mpf(0))


def _prod(xs):
    out = F(1)
    for x in xs:
        out *= x
    return out


# --- helpers ----------------------------------------------------------------------------


def _cls(boxes):
    return IntervalProduct.from_json_object(
        {"kind": "interval-product", "bernoulli": [[str(a), str(b)] for a, b in boxes]}
    )


def _mech(kind):
    if kind == "count":
        return CountSum(), ("count", None)
    if kind == "threshold":
        return ThresholdSum(T=F(1)), ("threshold", F(1))
    return GeometricSum(alpha=F(1, 2)), ("geometric", F(1, 2))


def _grid(boxes, n):
    axes = [list(dict.fromkeys(a + (b - a) * k / (n - 1) for k in range(n))) for a, b in boxes]
    return list(itertools.product(*axes))


def _check_encloses(fig, ratio, delta, where):
    """The class's figures are at least the brute force's values (within mpmath's
    precision), for ε (a log of the ratio) and δ."""
    eps_fig, delta_fig = fig
    if ratio is None:
        assert eps_fig.bounds == "inf", where
    elif eps_fig.bounds != "inf":
        assert _mp(eps_fig.bounds[1]) >= mpmath.log(_mp(ratio)) - TOL, where
    if delta_fig is not None:
        assert _mp(delta_fig.bounds[1]) >= delta - TOL, where


# --- tests ------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _digits():
    """50 digits for the brute force's e^eps (restored after each test)."""
    with mpmath.workdps(50):
        yield


def test_row_vertices_hand():
    # source: hand derivation: {p: p_j in [lo_j, hi_j], sum 1} for [0,1/2],[1/4,1/2],[0,1/4]
    # has the vertices where two entries sit at an end and the third closes the sum
    row = ((F(0), F(1, 2)), (F(1, 4), F(1, 2)), (F(0), F(1, 4)))
    got = set(row_vertices(row))
    want = {
        (F(1, 2), F(1, 2), F(0)),
        (F(1, 2), F(1, 4), F(1, 4)),
        (F(1, 4), F(1, 2), F(1, 4)),
    }
    assert got == want
    assert set(row_vertices(((F(1, 4), F(3, 4)), (F(1, 4), F(3, 4))))) == {
        (F(1, 4), F(3, 4)),
        (F(3, 4), F(1, 4)),
    }


def test_symmetry_counts():
    # source: hand count: 5 identical Bernoulli intervals, one target and 4 others:
    # the multisets of 4 of the 2 ends are 5 members (plus nothing for the target)
    cls = _cls([(F(1, 10), F(3, 10))] * 5)
    mech = CountSum()
    assert candidate_count(cls, mech, "x1", [], ["apkdp"]) == 5
    assert len(candidate_laws(cls, mech, "x1", [], ["apkdp"])) == 5 + 1  # and the widest


@pytest.mark.parametrize("kind", ["count", "threshold", "geometric"])
def test_class_is_the_max_over_a_dense_grid(kind):
    # source: the brute force above at every law of a 4-point grid per record (the ends
    # among them): the class's δ(1/2) equals the grid's max to mpmath's precision and is
    # below none of them; ε likewise (the Theorem: the sup is at the rows' vertices)
    boxes = [(F(1, 10), F(1, 2)), (F(1, 5), F(3, 5)), (F(0), F(1, 3)), (F(1, 4), F(3, 4))]
    cls = _cls(boxes)
    mech, bmech = _mech(kind)
    res = interval_class_audit(cls, mech, "x1", ["x2"], [EPS], None, NOTIONS)
    for k, notion in enumerate(NOTIONS):
        row = res.notions[k]
        assert row.epsilon.status == SUP and row.delta_at_epsilon[0][1].status == SUP
        fig = (row.epsilon, row.delta_at_epsilon[0][1])
        top_d, top_r = mpmath.mpf(0), F(0)
        for ps in _grid(boxes, 4):
            r, d = brute(ps, 0, [1], bmech, notion, EPS)
            _check_encloses(fig, r, d, (notion, ps))
            top_d = max(top_d, d)
            top_r = None if r is None or top_r is None else max(top_r, r)
        assert _mp(fig[1].bounds[0]) <= top_d + TOL, notion  # attained on the grid
        if top_r is not None and fig[0].bounds != "inf":
            assert _mp(fig[0].bounds[0]) <= mpmath.log(_mp(top_r)) + TOL, notion


def test_point_box_equals_the_single_law():
    # source: the brute force at the one law of a box shrunk to a point
    ps = (F(1, 3), F(1, 5), F(2, 7), F(1, 2))
    cls = _cls([(p, p) for p in ps])
    mech, bmech = _mech("threshold")
    res = interval_class_audit(cls, mech, "x2", ["x4"], [EPS], None, NOTIONS)
    assert len(res.laws) == 1
    for k, notion in enumerate(NOTIONS):
        r, d = brute(ps, 1, [3], bmech, notion, EPS)
        lo, hi = res.notions[k].delta_at_epsilon[0][1].bounds
        assert _mp(lo) - TOL <= d <= _mp(hi) + TOL
        if r is not None:
            elo, ehi = res.notions[k].epsilon.bounds
            assert _mp(elo) - TOL <= mpmath.log(_mp(r)) <= _mp(ehi) + TOL


def _ibcdp_laplace_brute(ps, eps, lam, per=20):
    """IBCDP's δ(eps) of one Bernoulli product law (target x1, nothing known) under
    Laplace noise, the outputs t sampled on a fine grid far into both tails (mpmath): the
    posterior against the prior, both ways (a lower estimate of the sup over t)."""
    e = mpmath.exp(_mp(eps))
    law = _conv(ps[1:])
    p = _mp(ps[0])
    prior = {0: 1 - p, 1: p}
    best = mpmath.mpf(0)
    for k in range(-20 * per, (20 + len(law)) * per):
        t = mpmath.mpf(k) / per
        u = {
            a: sum(_mp(q) * mpmath.exp(-abs(t - c - a) / _mp(lam)) for c, q in enumerate(law))
            for a in (0, 1)
        }
        z = prior[0] * u[0] + prior[1] * u[1]
        post = {a: prior[a] * u[a] / z for a in (0, 1)}
        for x, y in ((post, prior), (prior, post)):
            best = max(best, sum(max(mpmath.mpf(0), x[a] - e * y[a]) for a in (0, 1)))
    return best


def test_ibcdp_under_laplace_over_the_target_interval():
    # source: the brute force below on 11 points of the target's interval (the other
    # record fixed at 1/10, λ = 1/3, ε = 1/20): δ peaks inside (about 0.626 near
    # p = 0.18, against 0.585 and 0.450 at the ends and 0.59 at the widest member)
    eps, lam = F(1, 20), F(1, 3)
    cls = _cls([(F(1, 10), F(1, 2)), (F(1, 10), F(1, 10))])
    res = interval_class_audit(cls, LaplaceSum(lam=lam), "x1", [], [eps], None, ["ibcdp"])
    fig = res.notions[0].delta_at_epsilon[0][1]
    ds = [
        _ibcdp_laplace_brute((F(1, 10) + F(2, 5) * k / 10, F(1, 10)), eps, lam, 2)
        for k in range(11)
    ]
    assert max(ds) > mpmath.mpf("0.62")
    assert _mp(fig.bounds[1]) >= max(ds) - TOL
    assert _mp(fig.bounds[0]) <= max(ds) + mpmath.mpf(10) ** -3


@pytest.mark.slow
def test_ibcdp_under_laplace_over_a_dense_grid():
    _ibcdp_laplace(21, 20)


def _ibcdp_laplace(points, per):
    # source: the brute force above (outputs on a grid reaching 20 scales into the tails,
    # where the evidence ratio is within e^-20 of its sup e^(1/λ)) on a grid of the box:
    # the class's δ(1/2) holds each grid law's and is within 10^-6 of the largest; a
    # box whose target is a point gives the single law's own value (pdpsym.audit)
    lam = F(1)
    mech = LaplaceSum(lam=lam)
    for tbox in ((F(1, 3), F(1, 3)), (F(1, 5), F(2, 3))):
        boxes = [tbox, (F(1, 10), F(1, 2)), (F(0), F(3, 5))]
        cls = _cls(boxes)
        res = interval_class_audit(cls, mech, "x1", [], [EPS], None, ["ibcdp"])
        fig = res.notions[0].delta_at_epsilon[0][1]
        assert fig.status == SUP
        top = mpmath.mpf(0)
        for ps in [(p0[0], *ps[1:]) for ps in _grid(boxes, 2) for p0 in _grid([tbox], points)]:
            d = _ibcdp_laplace_brute(ps, EPS, lam, per)
            assert _mp(fig.bounds[1]) >= d - TOL, ps
            top = max(top, d)
        assert _mp(fig.bounds[0]) <= top + mpmath.mpf(10) ** -3
        if tbox[0] == tbox[1]:
            a = audit(cls.widest_member(), mech, "x1", [], [EPS], None, ["ibcdp"])
            assert bounds_of(a.results[0].delta_at_epsilon[0][1]) == fig.bounds


def test_eps_at_delta_is_the_max_over_the_candidates():
    # source: the Theorem's ε(δ) part: the class's ε(δ) is at least every grid law's
    # single-law ε(δ) (pdpsym.audit at each law of a 3-point grid)
    boxes = [(F(1, 10), F(1, 2)), (F(1, 5), F(3, 5)), (F(1, 4), F(3, 4))]
    cls = _cls(boxes)
    mech = GeometricSum(alpha=F(1, 2))
    delta = F(1, 20)
    res = interval_class_audit(cls, mech, "x1", [], [], delta, ["apkdp"])
    fig = res.notions[0].epsilon_at_delta[1]
    assert fig.status == SUP
    for ps in _grid(boxes, 3):
        member = product_member(cls, tuple((1 - p, p) for p in ps))
        a = audit(member, mech, "x1", [], [], delta, ["apkdp"])
        single = bounds_of(a.results[0].epsilon_at_delta[1])
        if isinstance(single, tuple) and isinstance(fig.bounds, tuple):
            assert fig.bounds[1] >= single[0]


@settings(max_examples=15, deadline=None)
@given(
    data=st.lists(st.tuples(st.integers(0, 10), st.integers(0, 10)), min_size=3, max_size=4),
    kind=st.sampled_from(["count", "threshold", "geometric"]),
    notion=st.sampled_from(NOTIONS),
    u=st.lists(st.integers(0, 8), min_size=4, max_size=4),
)
def test_sup_at_least_every_sampled_law(data, kind, notion, u):
    # source: the brute force at a law sampled inside a random box (each p at the u/8
    # point of its interval): the class's figure, a sup, is never below it
    boxes = [(F(min(a, b), 10), F(max(a, b), 10)) for a, b in data]
    cls = _cls(boxes)
    mech, bmech = _mech(kind)
    res = interval_class_audit(cls, mech, "x1", [], [EPS], None, [notion])
    row = res.notions[0]
    ps = tuple(lo + (hi - lo) * F(x, 8) for (lo, hi), x in zip(boxes, u, strict=False))
    r, d = brute(ps, 0, [], bmech, notion, EPS)
    _check_encloses((row.epsilon, row.delta_at_epsilon[0][1]), r, d, ps)


# --- the command ------------------------------------------------------------------------


def _run(tmp_path, model, *extra):
    from pdpsym.app.cli import main

    path = tmp_path / "m.json"
    path.write_text(json.dumps(model))
    mech = tmp_path / "c.json"
    mech.write_text(json.dumps({"kind": "count"}))
    return main(["audit", str(path), str(mech), "--target", "x1", *extra])


@pytest.mark.parametrize(
    ("bern", "field"),
    [
        ([["1/2", "1/5"], ["0", "1"]], "bernoulli[0]"),  # lo > hi
        ([["0", "1"], ["-1/5", "1/2"]], "bernoulli[1]"),  # below 0
        ([["0", "1"], ["1/5", "6/5"]], "bernoulli[1]"),  # above 1
    ],
)
def test_bad_intervals_exit_2_naming_the_field(tmp_path, capsys, bern, field):
    # source: the rules of a class file: an interval's ends are probabilities, lo <= hi
    code = _run(tmp_path, {"kind": "interval-product", "bernoulli": bern}, "--eps", "1")
    assert code == 2
    err = capsys.readouterr().err
    assert field in err and len(err.strip().splitlines()) == 1


def test_command_prints_sups_and_the_worst_law(tmp_path, capsys):
    # source: test_class_is_the_max_over_a_dense_grid's brute force at the worst member
    # printed: x2 at its lower end 0 is a vertex (the count of x2 alone is deterministic,
    # so the noiseless count reveals x1: δ(1/2) = 1)
    model = {"kind": "interval-product", "bernoulli": [["1/4", "3/4"], ["0", "1/2"]]}
    code = _run(tmp_path, model, "--eps", "1/2", "--notions", "apkdp", "--json")
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    d = out["notions"]["apkdp"]["delta_at_epsilon"][0]["delta"]
    assert d["status"] == "sup" and d["decimal"].startswith("1")
    assert d["worst_law"]["kind"] == "product"
    r, dd = brute((F(1, 2), F(0)), 0, [], ("count", None), "apkdp", F(1, 2))
    assert abs(dd - 1) < TOL


def test_too_many_candidates_refused_naming_max_work(tmp_path, capsys):
    # source: 2^12 members (twelve distinct intervals) cost more than --max-work 1000
    bern = [[f"{k}/40", f"{k + 20}/40"] for k in range(1, 13)]
    code = _run(
        tmp_path,
        {"kind": "interval-product", "bernoulli": bern},
        "--eps",
        "1",
        "--max-work",
        "1000",
    )
    assert code == 2
    assert "--max-work" in capsys.readouterr().err


# --- ibcdp -----------------------------------------------------------------------------


def _ibcdp_brute(ps, target, mech, eps):
    """IBCDP (Definition 6) of one Bernoulli product law, nothing known: for independent
    records the changed database's output is independent of x_i, so the second
    posterior is the prior; compare the posterior given each output with the prior,
    both ways: (the largest ratio (None: infinite), δ(eps))."""
    e = mpmath.exp(_mp(eps))
    rest = [p for j, p in enumerate(ps) if j != target]
    law = _conv(rest)
    prior = {a: (ps[target] if a else 1 - ps[target]) for a in (0, 1)}
    prior = {a: w for a, w in prior.items() if w}
    outs = {a: _output(law, a, mech) for a in prior}
    if mech[0] == "geometric":  # mixed on the centres' window (the tails: the ends')
        lo = min(min(o) for o in outs.values())
        hi = max(max(o) for o in outs.values())
        outs = {
            a: {t: sum(m * mech[1] ** abs(t - c) for c, m in o.items()) for t in range(lo, hi + 1)}
            for a, o in outs.items()
        }
    ratio, delta = F(1), mpmath.mpf(0)
    for t in set().union(*outs.values()):
        u = {a: prior[a] * outs[a].get(t, 0) for a in prior}
        z = sum(u.values())
        if not z:
            continue
        post = {a: x / z for a, x in u.items()}
        for p, q in ((post, prior), (prior, post)):
            d = sum((max(mpmath.mpf(0), _mp(p[a]) - e * _mp(q[a])) for a in prior), mpmath.mpf(0))
            delta = max(delta, d)
            for a in prior:
                if p[a] and not q[a]:
                    ratio = None
                elif p[a] and ratio is not None:
                    ratio = max(ratio, p[a] / q[a])
    return ratio, delta


@pytest.mark.parametrize("kind", ["count", "threshold", "geometric"])
def test_ibcdp_is_the_sup_over_a_grid(kind):
    _ibcdp_grid(kind, 3, 11)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["count", "threshold", "geometric"])
def test_ibcdp_is_the_sup_over_a_dense_grid(kind):
    _ibcdp_grid(kind, 4, 41)


def _ibcdp_grid(kind, n_rest, n_target):
    # source: the brute force above on a grid of the box (n_rest points per record, and
    # n_target for the target's probability, whose sup may be inside it): every figure
    # is the sup, never below a grid law; ε is the grid's max (the target's vertices are
    # candidates), and δ's lower end is the brute force's value at the worst law printed
    # (the target at the maximizer of the closed form, to 10^-9)
    mech, bmech = _mech(kind)
    for tbox in ((F(1, 3), F(1, 3)), (F(1, 5), F(2, 3))):
        boxes = [tbox, (F(1, 10), F(1, 2)), (F(0), F(3, 5)), (F(1, 4), F(3, 4))]
        res = interval_class_audit(_cls(boxes), mech, "x1", [], [EPS], None, ["ibcdp"])
        row = res.notions[0]
        dfig = row.delta_at_epsilon[0][1]
        assert row.epsilon.status == SUP and dfig.status == SUP
        top_r = F(0)
        grid = [(p0, *ps[1:]) for ps in _grid(boxes, n_rest) for p0 in _grid([tbox], n_target)]
        for ps in grid:
            ps = (ps[0][0], *ps[1:])
            r, d = _ibcdp_brute(ps, 0, bmech, EPS)
            _check_encloses((row.epsilon, dfig), r, d, ps)
            top_r = None if r is None or top_r is None else max(top_r, r)
        if top_r is not None and row.epsilon.bounds != "inf":
            assert _mp(row.epsilon.bounds[0]) <= mpmath.log(_mp(top_r)) + TOL
        worst = res.laws[dfig.member]
        _, d = _ibcdp_brute(tuple(law[1] for law in worst), 0, bmech, EPS)
        assert _mp(dfig.bounds[0]) - mpmath.mpf(10) ** -12 <= d <= _mp(dfig.bounds[1]) + TOL


def test_ibcdp_sup_inside_the_target_interval():
    # source: hand derivation: the other record is always 0, the noiseless count shows
    # x1; at the output 1 the posterior is (0, 1) against the prior (1 - p, p): forward
    # 1 - e^ε p, reverse 1 - p; at the output 0, e^ε-scaled the other way: 1 - e^ε (1 - p)
    # and p. Over p in [1/5, 1/2] the largest is 1 - p at p = 1/5: 4/5
    cls = _cls([(F(1, 5), F(1, 2)), (F(0), F(0))])
    res = interval_class_audit(cls, CountSum(), "x1", [], [EPS], None, ["ibcdp"])
    fig = res.notions[0].delta_at_epsilon[0][1]
    want = max(1 - mpmath.exp(_mp(EPS)) * _mp(F(1, 5)), _mp(F(4, 5)))
    assert _mp(fig.bounds[0]) - TOL <= want <= _mp(fig.bounds[1]) + TOL


def test_randomized_response_is_the_local_pair():
    # source: hand derivation (randomized response on independent records releases the
    # target's own report next to reports independent of it): the local pair
    # P = (k, 1 - k), Q = (1 - k, k), ε = ln(k / (1 - k)), δ(ε) = max(0, k - e^ε (1 - k))
    keep = F(3, 4)
    cls = _cls([(F(1, 10), F(1, 2)), (F(0), F(3, 5)), (F(1, 4), F(3, 4))])
    rr = randomized_response(keep, [(F(0), F(1))] * 3)
    res = interval_class_audit(cls, rr, "x1", ["x2"], [EPS], None, NOTIONS)
    assert len(res.laws) == 1  # the widest member only
    want_d = max(mpmath.mpf(0), _mp(keep) - mpmath.exp(_mp(EPS)) * _mp(1 - keep))
    for row in res.notions:
        assert row.epsilon.status == SUP
        lo, hi = row.epsilon.bounds
        assert _mp(lo) - TOL <= mpmath.log(3) <= _mp(hi) + TOL
        lo, hi = row.delta_at_epsilon[0][1].bounds
        assert _mp(lo) - TOL <= want_d <= _mp(hi) + TOL


# --- Laplace noise ---------------------------------------------------------------------


def _laplace_delta(p, q, lam, e):
    """∫ max(0, P(y) - e^ε Q(y)) dy for two Laplace mixtures (masses at integer centres),
    in closed form: between two centres ``g = P - e^ε Q`` is ``A e^(y/λ) + B e^(-y/λ)``,
    with at most one root; each tail is one exponential."""
    lam = _mp(lam)
    cs = sorted(set(p) | set(q))

    def coef(lo_side):  # g = A e^(y/λ) + B e^(-y/λ) on a piece; lo_side: centres <= piece
        a = b = mpmath.mpf(0)
        for c in cs:
            w = (_mp(p.get(c, 0)) - e * _mp(q.get(c, 0))) / (2 * lam)
            if c <= lo_side:
                b += w * mpmath.exp(_mp(c) / lam)  # y >= c: e^(-(y - c)/λ)
            else:
                a += w * mpmath.exp(-_mp(c) / lam)  # y < c: e^((y - c)/λ)
        return a, b

    def prim(a, b, y):
        return lam * a * mpmath.exp(y / lam) - lam * b * mpmath.exp(-y / lam)

    def piece(a, b, lo, hi):
        cuts = [lo, hi]
        if a and b and -b / a > 0:
            root = lam / 2 * mpmath.log(-b / a)
            if lo < root < hi:
                cuts = [lo, root, hi]
        tot = mpmath.mpf(0)
        for u, v in itertools.pairwise(cuts):
            mid = (u + v) / 2 if mpmath.isfinite(u) and mpmath.isfinite(v) else None
            if mid is None:
                mid = v - 1 if mpmath.isfinite(v) else u + 1
            if a * mpmath.exp(mid / lam) + b * mpmath.exp(-mid / lam) > 0:
                lo_v = 0 if not mpmath.isfinite(u) else prim(a, b, u)
                hi_v = 0 if not mpmath.isfinite(v) else prim(a, b, v)
                tot += hi_v - lo_v
        return tot

    bounds = [-mpmath.inf] + [_mp(c) for c in cs] + [mpmath.inf]
    tot = mpmath.mpf(0)
    for k in range(len(bounds) - 1):
        a, b = coef(cs[k - 1] if k else cs[0] - 1)
        tot += piece(a, b, bounds[k], bounds[k + 1])
    return tot


def test_laplace_delta_is_the_max_over_a_dense_grid():
    # source: the closed form above at every law of a 4-point grid per record: apkdp's
    # δ(1/2) under Laplace noise of scale 1 on the count, nothing known
    boxes = [(F(1, 4), F(3, 4)), (F(1, 10), F(1, 2)), (F(0), F(3, 5))]
    lam = F(1)
    res = interval_class_audit(_cls(boxes), LaplaceSum(lam=lam), "x1", [], [EPS], None, ["apkdp"])
    fig = res.notions[0].delta_at_epsilon[0][1]
    assert fig.status == SUP
    e = mpmath.exp(_mp(EPS))
    top = mpmath.mpf(0)
    for ps in _grid(boxes, 4):
        law = _conv(ps[1:])
        p = {c: q for c, q in enumerate(law) if q}
        q = {c + 1: x for c, x in p.items()}
        d = max(_laplace_delta(p, q, lam, e), _laplace_delta(q, p, lam, e))
        assert _mp(fig.bounds[1]) >= d - TOL, ps
        top = max(top, d)
    assert _mp(fig.bounds[0]) <= top + TOL


# --- records of more values, and weights ------------------------------------------------


def _law_of_sum(records):
    """The law of the sum of independent records ``(values, probs)``, by convolution."""
    law = {F(0): F(1)}
    for vals, ps in records:
        nxt = {}
        for s, q in law.items():
            for v, p in zip(vals, ps, strict=True):
                if p:
                    nxt[s + v] = nxt.get(s + v, F(0)) + q * p
        law = nxt
    return law


def _row_points(row, n):
    """The laws of a row on an n-step lattice of its intervals, and its vertices (every
    entry but one at an end, the last closing the sum inside its interval)."""
    axes = [[lo + (hi - lo) * k / n for k in range(n + 1)] for lo, hi in row]
    pts = {ps for ps in itertools.product(*axes) if sum(ps) == 1}
    for free in range(len(row)):
        for ends in itertools.product(*[r for j, r in enumerate(row) if j != free]):
            ps = list(ends)
            ps.insert(free, 1 - sum(ends))
            if row[free][0] <= ps[free] <= row[free][1]:
                pts.add(tuple(ps))
    return sorted(pts)


def test_three_valued_record_and_a_weight():
    # source: Definition 12 by brute force (apkdp, nothing known, the threshold at 1 on
    # x1 + x2 + 2 x3): the target x1 is Bernoulli, x2 takes 0, 1 or 3 with probabilities
    # in intervals, x3 is Bernoulli with weight 2; every law of a lattice of the box (the
    # rows' vertices among them): the class's δ(1/2) is their max
    model = {
        "kind": "interval-product",
        "records": [
            {"values": ["0", "1"], "probs": [["1/2", "3/4"], ["1/4", "1/2"]]},
            {"values": ["0", "1", "3"], "probs": [["0", "1/2"], ["1/4", "1/2"], ["0", "1/4"]]},
            {"values": ["0", "1"], "probs": [["1/3", "1"], ["0", "2/3"]]},
        ],
    }
    cls = IntervalProduct.from_json_object(model)
    mech = ThresholdSum(weights={"x3": F(2)}, T=F(1))
    res = interval_class_audit(cls, mech, "x1", [], [EPS], None, ["apkdp"])
    fig = res.notions[0].delta_at_epsilon[0][1]
    assert fig.status == SUP
    e = mpmath.exp(_mp(EPS))
    vals2, w3 = (F(0), F(1), F(3)), (F(0), F(2))
    top = mpmath.mpf(0)
    for p2 in _row_points(cls.rows[1], 4):
        for p3 in _row_points(cls.rows[2], 6):
            law = _law_of_sum([(vals2, p2), (w3, p3)])
            p = _output(law, 0, ("threshold", F(1)))
            q = _output(law, 1, ("threshold", F(1)))
            d = max(_hockey(p, q, ("threshold", F(1)), e), _hockey(q, p, ("threshold", F(1)), e))
            assert _mp(fig.bounds[1]) >= d - TOL, (p2, p3)
            top = max(top, d)
    assert _mp(fig.bounds[0]) <= top + TOL


def test_weights_split_the_groups():
    # source: hand count: three identical Bernoulli intervals besides the target, one of
    # them of weight 2: groups {x2, x3} (3 multisets) and {x4} (2 ends): 6 members
    cls = _cls([(F(1, 10), F(3, 10))] * 4)
    mech = CountSum(weights={"x4": F(2)})
    assert candidate_count(cls, mech, "x1", [], ["apkdp"]) == 6


def test_ibcdp_sup_at_an_inner_point():
    # source: the brute force above on 2001 points of the target's interval (the other
    # record fixed at 1/10, geometric noise of parameter 1/10 on the count, ε = 1/20): no
    # output reveals the target, the evidence ratio reaches about 10, and the largest
    # δ is near p = 0.24, well inside [1/10, 1/2] (0.507 there, 0.421 and 0.404 at the
    # ends); the class's enclosure holds the fine grid's max and is within 10^-6 of it
    eps, mech = F(1, 20), ("geometric", F(1, 10))
    cls = _cls([(F(1, 10), F(1, 2)), (F(1, 10), F(1, 10))])
    res = interval_class_audit(cls, GeometricSum(alpha=F(1, 10)), "x1", [], [eps], None, ["ibcdp"])
    fig = res.notions[0].delta_at_epsilon[0][1]
    top = max(
        _ibcdp_brute((F(1, 10) + F(2, 5) * k / 2000, F(1, 10)), 0, mech, eps)[1]
        for k in range(2001)
    )
    assert top > mpmath.mpf("0.5")
    assert _mp(fig.bounds[1]) >= top - TOL
    assert _mp(fig.bounds[0]) <= top + mpmath.mpf(10) ** -6


def test_ibcdp_eps_at_delta_over_the_target_interval():
    _ibcdp_eps_at_delta(21, 40, mpmath.mpf(10) ** -3)


@pytest.mark.slow
def test_ibcdp_eps_at_delta_over_a_dense_target_grid():
    _ibcdp_eps_at_delta(201, 60, mpmath.mpf(10) ** -5)


def _ibcdp_eps_at_delta(points, steps, tol):
    # source: the brute force above, ε(δ) of each law by bisection on its δ(ε) (which
    # decreases in ε), on a grid of the target's interval (the case of the inner sup
    # above): the class's ε(1/4) is a sup to 3 digits holding every law's
    mech = ("geometric", F(1, 10))
    cls = _cls([(F(1, 10), F(1, 2)), (F(1, 10), F(1, 10))])
    delta = F(1, 4)
    res = interval_class_audit(cls, GeometricSum(alpha=F(1, 10)), "x1", [], [], delta, ["ibcdp"])
    fig = res.notions[0].epsilon_at_delta[1]
    assert fig.status == SUP

    def eps_of(p):
        lo, hi = mpmath.mpf(0), mpmath.mpf(10)
        for _ in range(steps):
            mid = (lo + hi) / 2
            e = F(mpmath.nstr(mid, 40))  # a rational ε for the brute force
            if _ibcdp_brute((p, F(1, 10)), 0, mech, e)[1] <= _mp(delta):
                hi = mid
            else:
                lo = mid
        return hi

    top = max(eps_of(F(1, 10) + F(2, 5) * k / (points - 1)) for k in range(points))
    assert _mp(fig.bounds[1]) >= top - 10 * mpmath.mpf(2) ** -steps
    assert _mp(fig.bounds[0]) <= top + tol


def test_unproven_figures_are_enclosed_by_dp():
    # source: the module's docstring: no vertex proof for ibcdp's δ(ε) over a target of
    # three values whose law is an interval, nor for distributional-dp; class_dp_bound's
    # law-free bound from dp (the count: dp's δ(ε) = 1, hand) gives the upper end 1
    model = {
        "kind": "interval-product",
        "records": [
            {"values": ["0", "1", "2"], "probs": [["1/4", "1/2"], ["1/4", "1/2"], ["1/4", "1/4"]]},
            {"values": ["0", "1"], "probs": [["1/4", "3/4"], ["1/4", "3/4"]]},
        ],
    }
    cls = IntervalProduct.from_json_object(model)
    notions = ["ibcdp", "distributional-dp"]
    res = interval_class_audit(cls, CountSum(), "x1", [], [EPS], None, notions)
    for row in res.notions:
        fig = row.delta_at_epsilon[0][1]
        assert fig.status == ENCLOSED and fig.bounds[1] == 1, row.notion


@pytest.mark.parametrize(
    ("probs", "field"),
    [
        ([["1/2", "1/4"], ["1/2", "3/4"]], "records[0].probs[0]"),  # lo > hi
        ([["0", "1/2"], ["1/2", "5/4"]], "records[0].probs[1]"),  # above 1
        ([["3/4", "1"], ["1/2", "1"]], "records[0].probs"),  # lower ends sum above 1
    ],
)
def test_bad_records_exit_2_naming_the_field(tmp_path, capsys, probs, field):
    # source: the rules of a class file (docs/uncertain-laws.md, "Class files")
    model = {"kind": "interval-product", "records": [{"values": ["0", "1"], "probs": probs}]}
    assert _run(tmp_path, model, "--eps", "1") == 2
    err = capsys.readouterr().err
    assert field in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    data=st.lists(st.tuples(st.integers(0, 10), st.integers(0, 10)), min_size=2, max_size=6),
    kind=st.sampled_from(["count", "threshold", "geometric"]),
    notion=st.sampled_from(NOTIONS),
    known=st.booleans(),
    u=st.lists(st.integers(0, 8), min_size=6, max_size=6),
)
def test_sup_at_least_every_sampled_law_up_to_six_records(data, kind, notion, known, u):
    # source: the brute force above at a law sampled inside a random box of up to six
    # records (each p at the u/8 point of its interval), the second record known or not
    boxes = [(F(min(a, b), 10), F(max(a, b), 10)) for a, b in data]
    cls = _cls(boxes)
    mech, bmech = _mech(kind)
    kn = ["x2"] if known else []
    res = interval_class_audit(cls, mech, "x1", kn, [EPS], None, [notion])
    row = res.notions[0]
    ps = tuple(lo + (hi - lo) * F(x, 8) for (lo, hi), x in zip(boxes, u, strict=False))
    r, d = brute(ps, 0, [1] if known else [], bmech, notion, EPS)
    _check_encloses((row.epsilon, row.delta_at_epsilon[0][1]), r, d, ps)


def test_ibcdp_eps_when_the_target_interval_reaches_0():
    # source: the brute force above at p in (0, 1/2] (the other record fixed at 1/10,
    # geometric noise 1/10, no output reveals the target): the largest ratio grows as
    # p -> 0 (a limit: at p = 0 the target is certain and the ratio is 1); the class's
    # ε is the sup: at least every law's, and within 10^-9 of the law at p = 10^-12
    mech = ("geometric", F(1, 10))
    cls = _cls([(F(0), F(1, 2)), (F(1, 10), F(1, 10))])
    res = interval_class_audit(cls, GeometricSum(alpha=F(1, 10)), "x1", [], [EPS], None, ["ibcdp"])
    fig = res.notions[0].epsilon
    assert fig.status == SUP
    for k in range(1, 41):
        r, _ = _ibcdp_brute((F(k, 80), F(1, 10)), 0, mech, EPS)
        assert _mp(fig.bounds[1]) >= mpmath.log(_mp(r)) - TOL
    r, _ = _ibcdp_brute((F(1, 10**12), F(1, 10)), 0, mech, EPS)
    assert _mp(fig.bounds[0]) <= mpmath.log(_mp(r)) + mpmath.mpf(10) ** -9
    assert _mp(fig.bounds[0]) > mpmath.log(_mp(_ibcdp_brute((F(1, 80), F(1, 10)), 0, mech, EPS)[0]))

"""``audit`` over an interval class: every figure a sup (certified) or a labelled lower
bound.

Independent sources: the single-law ``audit()`` (the already-tested engine) run here on
grids of the box the class audit never sees, and for T <= 4 a brute force written here
(the joint law by enumeration in Fraction, the Laplace mixtures in mpmath).
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import binary_interval_chain

from pdpsym.audit import audit
from pdpsym.audit.class_audit import LOWER, SUP, bounds_of
from pdpsym.audit.class_audit_interval import ENCLOSED, interval_class_audit
from pdpsym.mechanisms.sum_kernels import GeometricSum, LaplaceSum
from pdpsym.models.law_class import IntervalProduct

F = Fraction
NOTIONS = ["dp", "apkdp", "ppkdp", "np", "cdp", "dependent-dp"]


def _figures(notion_row):
    """Every figure of one notion: (name, ClassFigure)."""
    out = [("epsilon", notion_row.epsilon)]
    out += [(f"delta@{e}", f) for e, f in notion_row.delta_at_epsilon]
    return out


def _single_figures(a, k):
    """The same figures of one law's audit, as rational bounds."""
    r = a.results[k]
    out = [("epsilon", bounds_of(r.epsilon, r.ratio_enclosure))]
    out += [(f"delta@{e}", bounds_of(d)) for e, d, _ in r.delta_at_epsilon]
    return out


def _grid(cls, n):
    axes = [[a + (b - a) * k / (n - 1) for k in range(n)] for a, b in cls.box()]
    return list(itertools.product(*axes))


@pytest.mark.slow
@settings(max_examples=4, deadline=None)
@given(
    a0=st.integers(1, 6),
    w0=st.integers(0, 3),
    a1=st.integers(4, 9),
    w1=st.integers(0, 3),
    known=st.booleans(),
)
def test_class_audit_at_least_every_grid_law(a0, w0, a1, w1, known):
    # source: the single-law audit() at a 4 x 4 grid of the box (not the class audit's
    # own 3 x 3 grid): a figure labelled "sup" is at least every grid law's figure; a
    # "lower-bound" figure is attained by a law the class audit evaluated
    cls = binary_interval_chain(4, (F(a0, 10), F(a0 + w0, 10)), (F(a1, 10), F(min(a1 + w1, 9), 10)))
    mech = LaplaceSum(lam=F(3, 2))
    kn = ["x1"] if known else []
    res = interval_class_audit(cls, mech, "x2", kn, [F(1)], None, NOTIONS)
    for theta in _grid(cls, 4):
        a = audit(cls.member(theta), mech, "x2", kn, [F(1)], None, NOTIONS)
        for k, row in enumerate(res.notions):
            for (name, fig), (_, single) in zip(_figures(row), _single_figures(a, k), strict=True):
                if fig.status == SUP and isinstance(single, tuple):
                    assert fig.bounds[1] >= single[0], (row.notion, name, theta)
    for k, row in enumerate(res.notions):
        for name, fig in _figures(row):
            if fig.status == LOWER:
                own = _single_figures(res.audits[fig.member], k)
                assert dict(own)[name][1] >= fig.bounds[0], (row.notion, name)


def test_class_audit_at_least_grid_law_fast():
    # source: the single-law audit() at a 4 x 4 grid of one box (the class audit
    # evaluates a 3 x 3 one): apkdp's ε (a sup) is at least every grid law's
    cls = binary_interval_chain(4, (F(1, 10), F(3, 10)), (F(6, 10), F(8, 10)))
    mech = LaplaceSum(lam=F(1))
    res = interval_class_audit(cls, mech, "x2", [], [], None, ["apkdp"])
    fig = res.notions[0].epsilon
    assert fig.status == SUP
    for theta in _grid(cls, 4):
        a = audit(cls.member(theta), mech, "x2", [], [], None, ["apkdp"])
        assert fig.bounds[1] >= bounds_of(a.results[0].epsilon, a.results[0].ratio_enclosure)[0]


def test_law_free_notions_are_the_same_at_every_member():
    # source: single-law audit() on a 5 x 5 grid: dp and dependent-dp (every figure)
    # take one value over a box with distinct rows everywhere (the module's proof that
    # they are sups rests on this: they depend on the law only through the group)
    cls = binary_interval_chain(4, (F(1, 10), F(3, 10)), (F(6, 10), F(9, 10)))
    mech = LaplaceSum(lam=F(2))
    values = set()
    for theta in _grid(cls, 5):
        a = audit(cls.member(theta), mech, "x3", [], [F(1, 2)], None, ["dp", "dependent-dp"])
        values.add(tuple(str(x) for r in a.results for x in (r.epsilon, r.delta_at_epsilon[0][1])))
    assert len(values) == 1


def _brute_eq2(T, x0, x1, i, lam):
    """Eq. 2 of target x_{i+1} (stationary start, the sum, no known record): the count
    law given x_i = a by enumerating the 2^T paths (Fraction), the sup over outputs r on
    a quarter grid of [-1, T + 1] of ln p(r | a) / p(r | b) for the Laplace mixtures
    (mpmath, 30 digits)."""
    P = [[1 - x0, x0], [1 - x1, x1]]
    pi = ((1 - x1) / (x0 + 1 - x1), x0 / (x0 + 1 - x1))
    law = {0: [F(0)] * (T + 1), 1: [F(0)] * (T + 1)}
    for path in itertools.product((0, 1), repeat=T):
        p = pi[path[0]]
        for s, t in itertools.pairwise(path):
            p *= P[s][t]
        law[path[i]][sum(path)] += p
    mix = {}
    for a in (0, 1):
        tot = sum(law[a])
        mix[a] = lambda r, a=a, tot=tot: (
            sum(
                mpmath.mpf(c.numerator) / c.denominator * mpmath.exp(-abs(r - k) / lam)
                for k, c in enumerate(law[a])
            )
            / (mpmath.mpf(tot.numerator) / tot.denominator)
        )
    with mpmath.workdps(30):
        rs = [mpmath.mpf(j) / 4 for j in range(-4, 4 * T + 5)]
        return max(abs(mpmath.log(mix[0](r) / mix[1](r))) for r in rs)


def test_brute_force_tiny_chain():
    # source: the brute force above (T = 3), on an 11 x 11 grid of the box: apkdp's ε
    # (δ = 0, Laplace: Eq. 2) over the class is at least every grid law's, and its lower
    # end is the brute force's value at the worst law reported
    cls = binary_interval_chain(3, (F(1, 10), F(3, 10)), (F(6, 10), F(8, 10)))
    lam = F(1)
    res = interval_class_audit(cls, LaplaceSum(lam=lam), "x2", [], [], None, ["apkdp"])
    fig = res.notions[0].epsilon
    assert fig.status == SUP
    with mpmath.workdps(30):
        lo, hi = (mpmath.mpf(q.numerator) / q.denominator for q in fig.bounds)
        best = max(_brute_eq2(3, x0, x1, 1, 1) for x0, x1 in _grid(cls, 11))
        assert best <= hi * (1 + mpmath.mpf(10) ** -20)
        worst = res.laws[fig.member]
        at = _brute_eq2(3, worst[0], worst[1], 1, 1)
        assert abs(at - lo) <= mpmath.mpf(10) ** -12 * at


def test_point_box_equals_single_law():
    # source: the single-law audit() of the one member; every figure's bounds enclose it
    x0, x1 = F(1, 5), F(7, 10)
    cls = binary_interval_chain(4, (x0, x0), (x1, x1))
    mech = LaplaceSum(lam=F(2))
    res = interval_class_audit(cls, mech, "x2", ["x4"], [F(1)], None, NOTIONS)
    assert res.laws == ((x0, x1),)
    single = audit(cls.member((x0, x1)), mech, "x2", ["x4"], [F(1)], None, NOTIONS)
    for k, row in enumerate(res.notions):
        for (name, fig), (_, ref) in zip(_figures(row), _single_figures(single, k), strict=True):
            assert fig.bounds[0] <= ref[1] and ref[0] <= fig.bounds[1], (row.notion, name)


def test_geometric_is_enclosed_by_the_figures_search():
    # hand derivation: only Laplace's δ = 0 ε is Eq. 2 (no Eq. 2 search here); geometric
    # noise's apkdp ε is enclosed by the figures' branch and bound (a sup or an
    # enclosure, never a bare lower bound), and its lower end is the max over the laws
    # evaluated (source: the single-law audits kept in the result)
    cls = binary_interval_chain(3, (F(1, 10), F(2, 10)), (F(7, 10), F(8, 10)))
    mech = GeometricSum(alpha=F(1, 2))
    res = interval_class_audit(cls, mech, "x2", [], [], None, ["apkdp", "dp"], figure_boxes=40)
    assert res.search is None and res.boxes is not None
    assert res.notions[0].epsilon.status in (SUP, ENCLOSED)
    assert res.notions[1].epsilon.status == SUP
    figs = [bounds_of(a.results[0].epsilon, a.results[0].ratio_enclosure) for a in res.audits]
    top = max(figs, key=lambda f: f[0])
    assert top[0] <= res.notions[0].epsilon.bounds[0] <= top[1]


def test_interval_product_eq2_is_a_sup():
    # source: Li et al. Theorem 1 (independent records: Eq. 2 depends only on the
    # supports): the single-law audit of the widest member and of a corner member agree
    cls = IntervalProduct.from_json_object(
        {"kind": "interval-product", "bernoulli": [["1/10", "1/5"], ["1/3", "1/2"], ["1/4", "1/4"]]}
    )
    mech = LaplaceSum(lam=F(1))
    res = interval_class_audit(cls, mech, "x2", ["x1"], [], None, ["apkdp"])
    assert res.notions[0].epsilon.status == SUP
    corner = audit(cls.widest_member(), mech, "x2", ["x1"], [], None, ["apkdp"])
    ref = bounds_of(corner.results[0].epsilon, corner.results[0].ratio_enclosure)
    assert res.notions[0].epsilon.bounds[0] <= ref[1] <= res.notions[0].epsilon.bounds[1]


@pytest.mark.parametrize("fmt", [pytest.param("json", marks=pytest.mark.slow), "text"])
def test_cli_labels_lower_bounds(tmp_path, fmt):
    # hand derivation: distributional-dp's ε (δ = 0) is at most dp's, |w_i| span / λ = 1/2,
    # at every law (class_dp_bound: an enclosure [max, 1/2]); ibcdp's for Laplace noise is at most 2 |w_i| span / λ = 1 at every law (an
    # enclosure [max, 1]); dp is law-free (a sup); cdp's ε (δ = 0) for Laplace noise is at
    # most |w_i| span / λ at every law (the kernel's ratio), reached here (a sup); no
    # --eps: no δ(ε), so no figures' search (the Laplace δ(ε) labels are tested in
    # test_class_audit_laplace.py and the docs' example)
    path = tmp_path / "c.json"
    cls_obj = {
        "kind": "interval-markov-chain",
        "length": 3,
        "states": ["0", "1"],
        "initial": "stationary",
        "transition": [[["4/5", "9/10"], ["1/10", "1/5"]], [["1/5", "3/10"], ["7/10", "4/5"]]],
    }
    path.write_text(json.dumps(cls_obj))
    mech = tmp_path / "m.json"
    mech.write_text('{"kind": "laplace", "lam": "2"}')
    argv = [sys.executable, "-m", "pdpsym", "audit", str(path), str(mech), "--target", "x2"]
    # (distributional-dp's LPs at every law: in the JSON run only)
    argv += ["--notions", "dp,apkdp,cdp,ibcdp" + (",distributional-dp" if fmt == "json" else "")]
    argv += ["--json"] if fmt == "json" else []
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    if fmt == "json":
        d = json.loads(out)
        dist = d["notions"]["distributional-dp"]["epsilon"]
        assert dist["status"] == "enclosure" and dist["enclosure"][1] == "0.5000000000000"
        assert d["notions"]["ibcdp"]["epsilon"]["status"] == "enclosure"
        assert d["notions"]["ibcdp"]["epsilon"]["enclosure"][1] == "1.000000000000"
        assert d["notions"]["cdp"]["epsilon"]["status"] == "sup"
        assert d["notions"]["cdp"]["epsilon"]["enclosure"][0].startswith("0.5000")
        assert d["notions"]["dp"]["epsilon"]["status"] == "sup"
        assert d["notions"]["apkdp"]["epsilon"]["status"] == "sup"
    else:
        assert "(an enclosure of the sup, not to the digits)" in out and "(sup, in [" in out
        assert all(len(line) < 120 for line in out.splitlines())


def test_audit_of_an_interval_class_respects_max_work(capsys):
    # hand derivation: 10 laws of 100 records share a limit of 10^6 steps, below one
    # law's own audit estimate: refused up front, naming the flag
    from pdpsym.app.cli import main  # noqa: PLC0415 (the CLI, for this test only)

    argv = ["audit", "docs/examples/estimated-chain.json", "docs/examples/laplace2.json"]
    code = main([*argv, "--target", "x50", "--eps", "1", "--max-work", "1e6"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "--max-work" in err[0]

"""Randomized response on Bayesian networks (the target's component audited as a table)
against two independent references: a brute force written here with Fractions, which
enumerates the databases of the FULL network (every component) and the full report
vector and applies Desfontaines et al.'s Definitions 12-13 literally; and the table audit
of the full network's joint (``net.to_joint()``, every record and every report)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.app.cli import main
from pdpsym.audit import audit
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.mechanisms.discrete import randomized_response
from pdpsym.models.bayesnet import BayesianNetwork
from pdpsym.models.neighbours import DDPReading

from .test_sum_mechanisms import figures_of, laws

KEEPS = [Fraction(1, 3), Fraction(3, 4), Fraction(1)]


@st.composite
def two_component_networks(draw):
    """A network of two components: A (2 or 3 nodes, each after the first has a parent
    in A, so A is connected) and B (1 or 2 binary nodes, linked when 2), declared
    interleaved. Rows are exact laws (zeros allowed)."""
    na, nb = draw(st.integers(2, 3)), draw(st.integers(1, 2))
    specs = {}
    a_names = [f"a{j}" for j in range(na)]
    b_names = [f"b{j}" for j in range(nb)]
    for group, binary in ((a_names, False), (b_names, True)):
        for j, name in enumerate(group):
            k = 2 if binary or na == 3 else draw(st.sampled_from([2, 3]))
            parents = [] if j == 0 else [group[draw(st.integers(0, j - 1))]]
            rows = 1
            for p in parents:
                rows *= len(specs[p]["states"])
            cpt = [[str(x) for x in draw(laws(k))] for _ in range(rows)]
            specs[name] = {
                "name": name,
                "states": [str(v) for v in range(k)],
                "parents": parents,
                "cpt": cpt if parents else cpt[0],
            }
    order = draw(st.permutations(a_names + b_names))
    # parents before children is not required by the format; keep any order
    return BayesianNetwork.from_json(
        {"kind": "bayesian-network", "nodes": [specs[v] for v in order]}
    )


def _rr(net, keep):
    return randomized_response(keep, [net.domain(v) for v in net.variables])


def _brute(net, keep, target, known, t):
    """apkdp ε (as e^ε, None = infinite) and δ at e^ε = t, ppkdp δ at t: by definition on
    the full network, every database and every full report vector, in Fractions."""
    names = list(net.variables)
    doms = [net.domain(v) for v in names]
    nodes = net.nodes
    # the joint law by the chain rule, written here (states are 0..k-1, values = index)
    theta = {}
    for d in itertools.product(*(range(len(x)) for x in doms)):
        p = Fraction(1)
        for j, v in enumerate(names):
            cfg = tuple(d[names.index(u)] for u in nodes[v].parents)
            p *= nodes[v].cpt[cfg][d[j]]
        if p:
            theta[d] = p

    def rr(o, x, k):
        return keep if o == x else (1 - keep) / (k - 1)

    outs = list(itertools.product(*(range(len(x)) for x in doms)))
    i = names.index(target)
    kidx = [names.index(k) for k in known]

    def law(a, v):
        rows = {d: p for d, p in theta.items() if d[i] == a and tuple(d[j] for j in kidx) == v}
        z = sum(rows.values(), Fraction(0))
        if not z:
            return None, Fraction(0)
        out = {}
        for o in outs:
            s = Fraction(0)
            for d, p in rows.items():
                q = p
                for j in range(len(names)):
                    q *= rr(o[j], d[j], len(doms[j]))
                s += q
            out[o] = s / z
        return out, z

    m = len(doms[i])
    vs = list(itertools.product(*(range(len(doms[j])) for j in kidx)))
    laws_ = {(a, v): law(a, v) for a in range(m) for v in vs}
    pa = {a: sum((laws_[(a, v)][1] for v in vs), Fraction(0)) for a in range(m)}
    best: Fraction | None = Fraction(1)
    apk_delta = Fraction(0)
    ppk_delta = Fraction(0)
    seen_case = False
    for a, b in itertools.permutations(range(m), 2):
        if not pa[a] or not pa[b]:
            continue
        ppk = Fraction(0)
        for v in vs:
            la, za = laws_[(a, v)]
            lb, zb = laws_[(b, v)]
            if la is None:
                continue
            if lb is None:
                ppk += za / pa[a]  # impossible under b: counts in full
                continue
            seen_case = True
            hs = sum((max(la[o] - t * lb[o], Fraction(0)) for o in outs), Fraction(0))
            apk_delta = max(apk_delta, hs)
            ppk += za / pa[a] * hs
            for o in outs:
                if la[o] and not lb[o]:
                    best = None
                elif best is not None and la[o]:
                    best = max(best, la[o] / lb[o])
        ppk_delta = max(ppk_delta, ppk)
    return (best if seen_case else Fraction(1)), apk_delta, ppk_delta


def _equal(x, y):
    if x is None or y is None:
        return x is y
    if x == sympy.oo or y == sympy.oo:
        return x == y
    return sympy.simplify(sympy.sympify(x) - sympy.sympify(y)) == 0


def _network_law(data):
    net = data.draw(two_component_networks())
    names = list(net.variables)
    target = data.draw(st.sampled_from(names))
    known = data.draw(
        st.lists(st.sampled_from([v for v in names if v != target]), unique=True, max_size=2)
    )
    keep = data.draw(st.sampled_from(KEEPS))
    t = Fraction(2)
    got = audit(net, _rr(net, keep), target, known, [Eps.log(t)], None, ["apkdp", "ppkdp"])
    ratio, apk_delta, ppk_delta = _brute(net, keep, target, known, t)
    want_eps = (
        sympy.oo if ratio is None else sympy.log(sympy.Rational(ratio.numerator, ratio.denominator))
    )
    assert _equal(got["apkdp"].epsilon, want_eps)
    assert _equal(
        got["apkdp"].delta_at_epsilon[0][1],
        sympy.Rational(apk_delta.numerator, apk_delta.denominator),
    )
    assert _equal(
        got["ppkdp"].delta_at_epsilon[0][1],
        sympy.Rational(ppk_delta.numerator, ppk_delta.denominator),
    )


def _full_table_law(data):
    net = data.draw(two_component_networks())
    names = list(net.variables)
    target = data.draw(st.sampled_from(names))
    known = data.draw(
        st.lists(st.sampled_from([v for v in names if v != target]), unique=True, max_size=2)
    )
    keep = data.draw(st.sampled_from(KEEPS))
    eps = [Eps.of(Fraction(1, 2))]
    delta = data.draw(st.sampled_from([None, Fraction(1, 10)]))
    notions = ["dp", "apkdp", "ppkdp", "np", "cdp", "ibcdp"]
    mech = _rr(net, keep)
    got = audit(net, mech, target, known, eps, delta, notions)
    ref = audit(net.to_joint(), mech, target, known, eps, delta, notions)
    for n in notions:
        assert figures_of(got[n]) == figures_of(ref[n]), n
    cond = DDPReading.CONDITIONAL
    cg = audit(net, mech, target, known, eps, delta, ["dependent-dp"], cond)
    cr = audit(net.to_joint(), mech, target, known, eps, delta, ["dependent-dp"], cond)
    assert figures_of(cg["dependent-dp"]) == figures_of(cr["dependent-dp"])


@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_network_rr_equals_the_brute_force_over_the_full_network(data):
    """Law: on networks of two components, APKDP's ε and δ at ε = ln 2 and PPKDP's δ at
    ln 2 from the target's component equal the definitions applied to every database and
    every report vector of the whole network (the other component factors out)."""
    _network_law(data)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_network_rr_equals_the_brute_force_over_the_full_network_thorough(data):
    """Law (thorough): the same on more networks."""
    _network_law(data)


@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_network_rr_equals_the_full_joint_table_audit(data):
    """Law: every notion but dependent-dp's neighbours (dp, apkdp, ppkdp, np, cdp, ibcdp,
    dependent-dp conditional) equals the table audit of the whole network's joint."""
    _full_table_law(data)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_network_rr_equals_the_full_joint_table_audit_thorough(data):
    """Law (thorough): the same on more networks."""
    _full_table_law(data)


def test_dependent_neighbours_over_a_mixed_component_by_hand():
    """Component {a (2 values), c (3 values)}, keep 3/4: the worst pair differs at both,
    so the largest ratio is (3/4)/(1/4) * (3/4)/(1/8) = 3 * 6 = 18 (hand derivation:
    other = (1 - keep)/(k - 1) is 1/4 and 1/8)."""
    net = BayesianNetwork.from_json(
        {
            "kind": "bayesian-network",
            "nodes": [
                {"name": "a", "states": ["0", "1"], "cpt": ["1/2", "1/2"]},
                {
                    "name": "c",
                    "states": ["0", "1", "2"],
                    "parents": ["a"],
                    "cpt": [["1/2", "1/4", "1/4"], ["1/4", "1/4", "1/2"]],
                },
                {"name": "z", "states": ["0", "1"], "cpt": ["1/3", "2/3"]},
            ],
        }
    )
    r = audit(net, _rr(net, "3/4"), "a", [], [], None, ["dependent-dp"])["dependent-dp"]
    assert _equal(r.epsilon, sympy.log(18))
    assert r.witness["group"] == ["a", "c"]


def test_child_network_is_refused_cleanly(capsys, tmp_path):
    """CHILD (20 nodes, one component): its joint is far too large to list, so a notion
    that needs it, named with --notions, is refused before starting, naming --max-work,
    on one line; by default those notions are listed as not run and classic dp (no table)
    is computed; the library refuses too (field model: a fixed limit, which a raised
    --max-work does not lift, and the message says so)."""
    mech = tmp_path / "rr.json"
    mech.write_text(json.dumps({"kind": "randomized-response", "keep": "3/4"}))
    bif = "tests/data/child.bif"
    assert main(["audit", bif, str(mech), "--target", "BirthAsphyxia", "--notions", "apkdp"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--max-work" in err and "apkdp" in err
    assert main(["audit", bif, str(mech), "--target", "BirthAsphyxia"]) == 0
    out = capsys.readouterr().out
    assert "\ndp:" in out and "\napkdp:" not in out
    assert "  apkdp: the target's component has " in out.split("not run")[1]
    net = BayesianNetwork.from_bif(bif)
    with pytest.raises(InputError) as info:
        audit(net, _rr(net, "3/4"), "BirthAsphyxia", [], [], None, ["apkdp"])
    assert info.value.field == "model"
    assert main(["audit", bif, str(mech), "--target", "BirthAsphyxia", "--notions", "dp"]) == 0
    assert "log(3)" in capsys.readouterr().out  # keep/other = (3/4)/(1/4), by hand


def test_network_rr_cli_runs_on_a_small_network(tmp_path, capsys):
    net = tmp_path / "n.json"
    net.write_text(
        json.dumps(
            {
                "kind": "bayesian-network",
                "nodes": [
                    {"name": "a", "states": ["0", "1"], "cpt": ["1/2", "1/2"]},
                    {
                        "name": "b",
                        "states": ["0", "1"],
                        "parents": ["a"],
                        "cpt": [["3/4", "1/4"], ["1/4", "3/4"]],
                    },
                ],
            }
        )
    )
    mech = tmp_path / "rr.json"
    mech.write_text(json.dumps({"kind": "randomized-response", "keep": "3/4"}))
    assert (
        main(["audit", str(net), str(mech), "--target", "a", "--json", "--notions", "apkdp"]) == 0
    )
    r = json.loads(capsys.readouterr().out)["notions"]["apkdp"]
    # T = 2 symmetric stay 3/4, keep 3/4, nothing known: ln 5 (the hand derivation of
    # tests/audit/test_rr_reports.py::test_symmetric_chain_epsilon_by_hand)
    assert r["epsilon"]["exact"] == "log(5)"


def test_distributional_dp_enclosures_agree_with_the_whole_joint():
    """distributional-dp is certified enclosures (exact LP bisection): the component's and
    the whole network's joint enclose the same e^ε, so they overlap (independent: the
    table audit of the whole network lists the other component too)."""
    net = BayesianNetwork.from_json(
        {
            "kind": "bayesian-network",
            "nodes": [
                {"name": "a", "states": ["0", "1"], "cpt": ["4/5", "1/5"]},
                {
                    "name": "b",
                    "states": ["0", "1"],
                    "parents": ["a"],
                    "cpt": [["4/5", "1/5"], ["1/10", "9/10"]],
                },
                {"name": "z", "states": ["0", "1"], "cpt": ["1/3", "2/3"]},
            ],
        }
    )
    mech = _rr(net, "3/4")
    got = audit(net, mech, "a", ["z"], [], None, ["distributional-dp"])["distributional-dp"]
    ref = audit(net.to_joint(), mech, "a", ["z"], [], None, ["distributional-dp"])
    (lo1, hi1), (lo2, hi2) = got.ratio_enclosure, ref["distributional-dp"].ratio_enclosure
    assert max(lo1, lo2) <= min(hi1, hi2)


def test_a_component_over_the_row_limit_is_refused_naming_the_fixed_limit(tmp_path, capsys):
    """19 linked binary records: 2^19 joint rows, over the 2^18 the network path lists.
    With --max-work raised past the command's estimate, the library's own limit refuses
    on one line and says that --max-work does not lift it (an honest message, not an
    invitation to raise the flag)."""
    nodes = [{"name": "v0", "states": ["0", "1"], "cpt": ["1/2", "1/2"]}]
    for k in range(1, 19):
        nodes.append(
            {
                "name": f"v{k}",
                "states": ["0", "1"],
                "parents": [f"v{k - 1}"],
                "cpt": [["3/4", "1/4"], ["1/4", "3/4"]],
            }
        )
    net = tmp_path / "n.json"
    net.write_text(json.dumps({"kind": "bayesian-network", "nodes": nodes}))
    mech = tmp_path / "rr.json"
    mech.write_text(json.dumps({"kind": "randomized-response", "keep": "3/4"}))
    argv = ["audit", str(net), str(mech), "--target", "v9", "--notions", "apkdp"]
    assert main([*argv, "--max-work", "1e18"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "fixed limit" in err and "model" in err

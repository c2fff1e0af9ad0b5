"""The float64 junction tree with a proven error (pdpsym.models.bayesnet_float_jtree)
and the certified enclosures built on it (pdpsym.loss.network_floats).

Independent sources: a brute force over the full joint written here (Fractions, random
networks valid by construction); the exact integer junction tree (itself checked against
brute forces in test_bayesnet_bnlearn.py); a float64 variable elimination written in
test_bayesnet_bnlearn.py (``float_laws``, a different order and code) on andes."""

from __future__ import annotations

import gzip
import itertools
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import float_network

from pdpsym.core import poly
from pdpsym.core.errors import InputError
from pdpsym.loss import network_floats
from pdpsym.loss.count_leakage import structured_leakage, target_enclosure
from pdpsym.models import bayesnet_float_jtree as fj
from pdpsym.models.bayesnet import BayesianNetwork

DATA = Path(__file__).resolve().parents[1] / "data" / "bnlearn"
TOL = Fraction(1, 10**6)
#: andes: 20 of its records counted in state 'true' (the exact tree's work is over 1e8)
ANDES_20 = (
    "GOAL_2,SNode_3,SNode_4,SNode_5,SNode_6,SNode_7,DISPLACEM0,RApp1,GIVEN_1,RApp2,"
    "SNode_8,SNode_9,SNode_10,SNode_11,SNode_12,SNode_13,SNode_14,SNode_15,SNode_16,SNode_17"
).split(",")


def load(name: str) -> BayesianNetwork:
    text = gzip.open(DATA / f"{name}.bif.gz", "rt", encoding="utf-8").read()
    return BayesianNetwork.from_bif_text(text, tolerance=TOL, max_work=10**10)


@st.composite
def networks(draw):
    """A random DAG of 1-5 nodes with 2-3 letter states (values 0, 1, 2), at most two
    parents among earlier nodes, rows of small non-negative integer weights."""
    n = draw(st.integers(1, 5))
    names = [f"x{k}" for k in range(n)]
    specs = []
    for k, name in enumerate(names):
        size = draw(st.integers(2, 3))
        parents = draw(st.lists(st.sampled_from(names[:k]), unique=True, max_size=2)) if k else []
        specs.append({"name": name, "states": ["a", "b", "c"][:size], "parents": parents})
    sizes = {s["name"]: len(s["states"]) for s in specs}
    for s in specs:
        rows = []
        for _ in itertools.product(*(range(sizes[u]) for u in s["parents"])):
            w = draw(st.lists(st.integers(0, 5), min_size=sizes[s["name"]], max_size=3))
            w = w[: sizes[s["name"]]]
            if sum(w) == 0:
                w[0] = 1
            rows.append([str(Fraction(x, sum(w))) for x in w])
        s["cpt"] = rows
    return specs


def brute_laws(specs):
    """P(S = s, x_t = a) for every record t and state a, S the sum of the state indices,
    by listing the full joint (chain rule on the JSON tables)."""
    by = {s["name"]: s for s in specs}
    out: dict[tuple[str, int], dict[int, Fraction]] = {}
    for states in itertools.product(*(range(len(s["states"])) for s in specs)):
        x = {s["name"]: k for s, k in zip(specs, states)}
        p = Fraction(1)
        for s in specs:
            r = 0
            for u in s["parents"]:
                r = r * len(by[u]["states"]) + x[u]
            p *= Fraction(s["cpt"][r][x[s["name"]]])
        for t, a in x.items():
            law = out.setdefault((t, a), {})
            law[sum(states)] = law.get(sum(states), Fraction(0)) + p
    return out


def within_bound(got: list[int], want: dict[int, Fraction], kappa: int) -> bool:
    """The normalized float law equals the normalized exact one up to the proven factor
    ``(1 + g)/(1 - g)`` on every coefficient, with the same support (hand: each
    coefficient is ``c (1 + theta)``, ``|theta| <= g``, and so is their sum)."""
    g = fj.gamma(kappa)
    zg, zw = sum(got), sum(want.values())
    if zw == 0:
        return zg == 0
    for c in range(max(len(got), max(want) + 1)):
        e = want.get(c, Fraction(0))
        f = got[c] if c < len(got) else 0
        if (e == 0) != (f == 0):
            return False
        if e and not (1 - g) / (1 + g) <= Fraction(f, zg) / (e / zw) <= (1 + g) / (1 - g):
            return False
    return True


@settings(deadline=None)
@given(networks())
def test_float_laws_are_within_the_proven_bound_of_a_brute_force(specs):
    net = BayesianNetwork.from_nodes(specs)
    brute = brute_laws(specs)
    for t, values, kappa in fj.network_float_laws(net, list(net.variables), {}):
        for s, a in enumerate(net.nodes[t].values):
            got = poly.coefficients(values[a][0])
            assert within_bound(got, brute.get((t, s), {}), kappa), (t, s)


@settings(deadline=None)
@given(networks(), st.sampled_from([Fraction(1, 2), Fraction(2), Fraction(7)]))
def test_float_enclosures_contain_the_exact_engines_values(specs, lam):
    net = BayesianNetwork.from_nodes(specs)
    targets = list(net.variables)
    exact = {r.target: r for r in structured_leakage(net, targets, (), lam, exact=False)}
    contrib = net.contributions()
    got = network_floats.float_results(
        fj.network_float_laws(net, targets, {}),
        lambda v: target_enclosure(v, contrib, lam, 15, False),
    )
    for t in targets:
        r = exact[t]
        if r.value is None:
            assert got[t] is None
            continue
        lo, hi, _ = got[t]
        # the value is >= 0 (hand: two densities of mass 1 have a ratio reaching 1), so
        # the exact enclosure's part at or above 0 must be inside the float one
        assert lo <= max(r.value.lo, 0) and r.value.hi <= hi


CHEAP = ["asia", "cancer", "earthquake", "survey", "sachs", "child", "alarm", "win95pts"]
#: water is left out: its exact polynomials make the Fraction comparison take minutes
COSTLY = ["insurance", "hepar2", "hailfinder"]


@pytest.mark.parametrize("name", CHEAP + [pytest.param(n, marks=pytest.mark.slow) for n in COSTLY])
def test_float_laws_of_bnlearn_networks_are_within_the_bound_of_the_exact_tree(name):
    net = load(name)
    targets = list(net.variables)
    exact = dict(net.target_factors(targets, {}))
    for t, values, kappa in fj.network_float_laws(net, targets, {}):
        for a in net.nodes[t].values:
            want = dict(enumerate(poly.coefficients(exact[t][a][0])))
            want = {c: Fraction(v) for c, v in want.items() if v}
            assert within_bound(poly.coefficients(values[a][0]), want, kappa), (t, a)


def test_the_bound_is_needed_on_alarm():
    # the check above can fail: with kappa = 0 (no rounding allowed) alarm's floats are
    # outside the bound for some coefficient (they are rounded)
    net = load("alarm")
    targets = list(net.variables)
    exact = dict(net.target_factors(targets, {}))
    misses = 0
    for t, values, _ in fj.network_float_laws(net, targets, {}):
        for a in net.nodes[t].values:
            want = {c: Fraction(v) for c, v in enumerate(poly.coefficients(exact[t][a][0])) if v}
            misses += not within_bound(poly.coefficients(values[a][0]), want, 0)
    assert misses > 0


def test_gamma_and_the_log_bound_by_hand():
    # hand: gamma_1 = u/(1 - u), u = 2^-53; ln((1+g)/(1-g)) <= g + g/(1-g)
    u = Fraction(1, 2**53)
    assert fj.gamma(1) == u / (1 - u)
    g = fj.gamma(10)
    assert fj.log_ratio_bound(10) == g + g / (1 - g)
    with pytest.raises(fj.FloatRange):
        fj.gamma(2**53)


def test_a_product_that_could_underflow_is_refused():
    # hand: 2^-600 * 2^-600 = 2^-1200 is below the normal range of float64
    tiny = fj.FFactor(("a",), np.array([[2.0**-600], [1.0]]), 1)
    with pytest.raises(fj.FloatRange):
        fj.fmul(tiny, fj.FFactor(("b",), np.array([[2.0**-600], [0.5]]), 1))


def test_convolution_and_kappa_by_hand():
    # hand: (1 + 2z)(3 + z) = 3 + 7z + 2z^2; kappa = 1 + 1 + 1 + 1 (one addition)
    a = fj.FFactor((), np.array([1.0, 2.0]), 1)
    b = fj.FFactor((), np.array([3.0, 1.0]), 1)
    c = fj.fmul(a, b)
    assert c.arr.tolist() == [3.0, 7.0, 2.0] and c.kappa == 4


def test_the_float_path_is_chosen_only_above_the_exact_limit():
    # the 12 named networks stay on the exact engine (their exact trees are under 1e8
    # units); andes counting 20 records is over it and the float estimate is smaller
    alarm = load("alarm")
    assert not fj.prefers_floats(alarm.targets_work((), None, alarm.variables), 37)
    andes = load("andes").count_query(ANDES_20, "true")
    tree = andes.targets_work((), None, andes.variables)
    assert tree.work > fj.EXACT_WORK and fj.prefers_floats(tree, 20)
    # munin1's largest clique has 2.744e8 cells (the tree's own count, not an independent
    # value: what is checked is that the memory guard then turns the floats off)
    munin1 = load("munin1")
    tree = munin1.targets_work((), None, munin1.variables)
    assert tree.largest == 274_400_000 and not fj.prefers_floats(tree, 806)


@pytest.mark.slow
def test_andes_certified_enclosures_agree_with_a_float64_elimination_written_in_a_test():
    net = load("andes")
    counted = set(ANDES_20)
    # the oracle's plain data: each table as a float array, a count of 1 in state 'true'
    tables = {}
    for v in net.variables:
        node = net.nodes[v]
        shape = [len(net.nodes[u].states) for u in node.parents] + [len(node.states)]
        arr = np.zeros(shape)
        for config, row in node.cpt.items():
            arr[config] = [float(p) for p in row]
        tables[v] = (list(node.parents), arr)
    shifts = {
        v: [int(v in counted and s == "true") for s in net.nodes[v].states] for v in net.variables
    }
    results = structured_leakage(
        net.count_query(ANDES_20, "true"), list(net.variables), (), Fraction(2), digits=15
    )
    by = {r.target: r for r in results}
    for t in ["GOAL_2", "SNode_8", "RApp2"]:
        ref = float_network.eq2(float_network.count_laws(tables, shifts, t), 1 / 2)
        v = by[t].value
        assert v is not None and v.hi - v.lo < Fraction(1, 10**9)
        assert float(v.lo) - 1e-9 <= ref <= float(v.hi) + 1e-9


def test_the_float_passes_refuse_work_over_the_networks_limit_naming_the_width():
    # the engine checks its own estimate too (the caller's may have had other known
    # records); andes's min-fill width is 17 (tests/app/test_bayesnet_large_cli.py
    # computes it from the file with a min-fill written there)
    text = gzip.open(DATA / "andes.bif.gz", "rt", encoding="utf-8").read()
    net = BayesianNetwork.from_bif_text(text, tolerance=TOL, max_work=10**7)
    with pytest.raises(InputError) as err:
        next(fj.network_float_laws(net, list(net.variables), {}))
    assert err.value.field == "max_work" and "induced width 17" in err.value.message

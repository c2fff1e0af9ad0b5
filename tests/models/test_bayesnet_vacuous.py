"""Exact zeros from a Bayesian network's table values (pdpsym.models.bayesnet_vacuous:
vacuous edges and averaged tables; the reason printed by structured_leakage and the CLI).

Independent sources: a brute force over the full joint written here (Fractions, the
chain rule over every assignment): a target is an exact zero exactly when the law of
the count given each of its compatible values is the same law (every ratio of Eq. 2 is
1); each network below is written by hand, with the independence read off by hand in
its comment, and a one-entry change of it that breaks the independence (the brute force
then shows different laws, and the code finds no zero: the check can fail).
"""

from __future__ import annotations

import dataclasses
import gzip
import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.app.cli import main
from pdpsym.loss.count_leakage import structured_leakage
from pdpsym.loss.count_leakage_work import target_plan
from pdpsym.models.bayesnet import BayesianNetwork
from pdpsym.models.bayesnet_vacuous import (
    exact_marginal,
    reduced_nodes,
    vacuous_edges,
    without_vacuous,
)
from pdpsym.models.bayesnet_zeros import zero_plan

DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "bnlearn"
BIT = ["0", "1"]


def node(name, parents, rows):
    return {"name": name, "states": BIT, "parents": parents, "cpt": rows}


def copy_rows():
    """The rows of a record with parents ``(p1, p2, selector)`` that copies ``p1`` when
    the selector is 0 and ``p2`` when it is 1."""
    rows = []
    for f1, f2, z in itertools.product(range(2), repeat=3):
        s = f1 if z == 0 else f2
        rows.append(["1", "0"] if s == 0 else ["0", "1"])
    return rows


def joint(specs):
    """Every assignment with its probability, by the chain rule."""
    by = {s["name"]: s for s in specs}
    for states in itertools.product(*(range(len(s["states"])) for s in specs)):
        x = {s["name"]: k for s, k in zip(specs, states, strict=True)}
        p = Fraction(1)
        for s in specs:
            r = 0
            for u in s["parents"]:
                r = r * len(by[u]["states"]) + x[u]
            p *= Fraction(s["cpt"][r][x[s["name"]]])
        if p:
            yield x, p


def count_laws(specs, counted, target, known=()):
    """``{x_K: {a: law of the count given x_t = a, x_K}}`` (normalized), by brute force."""
    out: dict = {}
    for x, p in joint(specs):
        key = tuple(x[k] for k in known)
        c = sum(x[v] == 1 for v in counted)
        law = out.setdefault(key, {}).setdefault(x[target], {})
        law[c] = law.get(c, 0) + p
    return {
        key: {a: {c: q / sum(law.values()) for c, q in law.items()} for a, law in by.items()}
        for key, by in out.items()
    }


def independent_by_brute_force(specs, counted, target, known=()):
    """Whether every compatible value of ``target`` gives the same law of the count."""
    for by_value in count_laws(specs, counted, target, known).values():
        laws = list(by_value.values())
        if any(law != laws[0] for law in laws):
            return False
    return True


# Y's rows are the same for T = 0 and T = 1 (at each X): the edge T -> Y is vacuous, so
# T is independent of (X, Y) by hand, though the graph links them
VACUOUS = [
    node("X", [], [["1/3", "2/3"]]),
    node("T", [], [["1/4", "3/4"]]),
    node("Y", ["T", "X"], [["1/5", "4/5"], ["1/2", "1/2"], ["1/5", "4/5"], ["1/2", "1/2"]]),
]
# the same with Y's last row changed: the edge carries T's value
NOT_VACUOUS = [*VACUOUS[:2], node("Y", ["T", "X"], [*VACUOUS[2]["cpt"][:3], ["1/3", "2/3"]])]

# N copies F1 when Z = 0, F2 when Z = 1; F1 and F2 have one law, so N's law is that law
# whatever Z is: N is independent of (Z0, Z) by hand (bnlearn's link has this shape)
SELECTOR = [
    node("F1", [], [["1/3", "2/3"]]),
    node("F2", [], [["1/3", "2/3"]]),
    node("Z0", [], [["1/2", "1/2"]]),
    node("Z", ["Z0"], [["3/4", "1/4"], ["1/4", "3/4"]]),
    node("N", ["F1", "F2", "Z"], copy_rows()),
]
# the same with F2's law changed: N's law then follows Z
UNEQUAL = [SELECTOR[0], node("F2", [], [["1/2", "1/2"]]), *SELECTOR[2:]]

# two generations: M1 copies G1 or G2 (selector Z1), M2 copies G3 or G4 (Z2), N copies
# M1 or M2 (Z3); the G have one law, so each of M1, M2, N has it whatever the selectors
PEDIGREE = [
    *(node(f"G{k}", [], [["2/7", "5/7"]]) for k in range(1, 5)),
    node("Z1", [], [["1/2", "1/2"]]),
    node("Z2", ["Z1"], [["9/10", "1/10"], ["1/10", "9/10"]]),
    node("Z3", ["Z2"], [["9/10", "1/10"], ["1/10", "9/10"]]),
    node("M1", ["G1", "G2", "Z1"], copy_rows()),
    node("M2", ["G3", "G4", "Z2"], copy_rows()),
    node("N", ["M1", "M2", "Z3"], copy_rows()),
]


def zeros_of(specs, counted, known=()):
    net = BayesianNetwork.from_nodes(specs).count_query(counted, "1")
    targets = [v for v in net.variables if v not in known]
    plan = zero_plan(net, targets, known)
    zeros, decided, by_tables = plan.zeros, plan.decided, plan.by_tables
    return net, targets, set(zeros), decided, by_tables


def test_a_vacuous_edge_is_dropped_and_the_joint_is_unchanged():
    nodes = BayesianNetwork.from_nodes(VACUOUS).nodes
    assert vacuous_edges(nodes) == (("T", "Y"),)
    reduced = reduced_nodes(nodes)
    assert reduced["Y"].parents == ("X",)
    specs = [
        {"name": v, "states": BIT, "parents": list(n.parents), "cpt": list(n.cpt.values())}
        for v, n in reduced.items()
    ]
    # the chain rule over the reduced tables: the same joint, assignment by assignment
    assert dict(map(lambda xp: (tuple(xp[0].values()), xp[1]), joint(specs))) == dict(
        map(lambda xp: (tuple(xp[0].values()), xp[1]), joint(VACUOUS))
    )
    assert vacuous_edges(BayesianNetwork.from_nodes(NOT_VACUOUS).nodes) == ()


@pytest.mark.parametrize(
    "specs, counted, target, zero",
    [
        (VACUOUS, ["X", "Y"], "T", True),
        (NOT_VACUOUS, ["X", "Y"], "T", False),
        (SELECTOR, ["Z0", "Z"], "N", True),
        (UNEQUAL, ["Z0", "Z"], "N", False),
        (PEDIGREE, ["Z1", "Z2", "Z3"], "N", True),
        (PEDIGREE, ["Z1", "Z2", "Z3"], "M2", True),
    ],
)
def test_zeros_by_the_tables_are_the_brute_force_independences(specs, counted, target, zero):
    assert independent_by_brute_force(specs, counted, target) == zero
    net, targets, zeros, decided, by_tables = zeros_of(specs, counted)
    assert (target in zeros) == zero and (target in by_tables) == zero
    if zero:
        assert decided[target] is True  # two states of positive probability (by hand)
        results = {r.target: r for r in structured_leakage(net, targets, (), 2, exact=False)}
        value = results[target].value
        assert (value.lo, value.hi) == (0, 0) and "tables" in value.reason
    for t in zeros:  # every zero the plan claims is one by the brute force
        assert independent_by_brute_force(specs, counted, t)


def test_known_records_keep_the_averaged_zero():
    # N is independent of (Z0, Z) jointly (by hand, above), so also given Z0 = z
    assert independent_by_brute_force(SELECTOR, ["Z"], "N", ["Z0"])
    _, _, zeros, decided, by_tables = zeros_of(SELECTOR, ["Z"], ["Z0"])
    assert "N" in zeros and "N" in by_tables and decided["N"] is True


def test_the_pedigree_with_one_grandparent_changed_is_not_a_zero():
    changed = [node("G4", [], [["1/2", "1/2"]]) if s["name"] == "G4" else s for s in PEDIGREE]
    assert not independent_by_brute_force(changed, ["Z1", "Z2", "Z3"], "N")
    _, _, zeros, _, _ = zeros_of(changed, ["Z1", "Z2", "Z3"])
    assert "N" not in zeros and "M1" in zeros  # M1 copies G1 or G2, still one law


def test_exact_marginal_is_the_brute_force_marginal():
    nodes = BayesianNetwork.from_nodes(PEDIGREE).nodes
    names = ["N", "Z1"]
    brute: dict = {}
    for x, p in joint(PEDIGREE):
        key = (x["N"], x["Z1"])
        brute[key] = brute.get(key, 0) + p
    assert exact_marginal(nodes, names) == brute
    assert exact_marginal(nodes, names, max_cells=2) is None


@st.composite
def selector_networks(draw):
    """Founders with laws from a set of two (so equal laws are common), selector chains,
    and copying or random records below them; a counted set of selectors."""
    laws = [["1/3", "2/3"], ["1/2", "1/2"]]
    specs = [node(f"F{k}", [], [draw(st.sampled_from(laws))]) for k in range(3)]
    specs.append(node("Z0", [], [["1/2", "1/2"]]))
    specs.append(node("Z1", ["Z0"], [["2/3", "1/3"], ["1/5", "4/5"]]))
    names = ["F0", "F1", "F2"]  # the records a child may copy (not the selectors)
    for k in range(draw(st.integers(1, 3))):
        a, b = draw(st.lists(st.sampled_from(names), unique=True, min_size=2, max_size=2))
        z = draw(st.sampled_from(["Z0", "Z1"]))
        if draw(st.booleans()):
            rows = copy_rows()
        else:
            rows = [
                [str(Fraction(w, 4)), str(Fraction(4 - w, 4))]
                for w in draw(st.lists(st.integers(0, 4), min_size=8, max_size=8))
            ]
        specs.append(node(f"C{k}", [a, b, z], rows))
        names.append(f"C{k}")
    counted = draw(st.lists(st.sampled_from(["Z0", "Z1"]), unique=True, min_size=1))
    return specs, counted


@settings(max_examples=25, deadline=None)
@given(selector_networks())
def test_every_zero_by_the_tables_is_a_brute_force_independence(case):
    specs, counted = case
    _, _, zeros, decided, by_tables = zeros_of(specs, counted)
    for t in zeros:
        assert independent_by_brute_force(specs, counted, t)
    for t in by_tables:
        values = {a for by in count_laws(specs, counted, t).values() for a in by}
        assert decided[t] == (len(values) >= 2)


def test_cli_prints_the_reason(tmp_path, capsys):
    path = tmp_path / "selector.json"
    path.write_text(json.dumps({"kind": "bayesian-network", "nodes": SELECTOR}))
    argv = ["leakage", str(path), "--all-targets", "--lam", "2", "--count", "Z0,Z=1"]
    assert main([*argv, "--json"]) == 0
    by = {t["target"]: t["value"] for t in json.loads(capsys.readouterr().out)["targets"]}
    assert by["N"]["exact"] == "0" and "tables" in by["N"]["reason"]
    assert "reason" not in by["Z"]
    # a vacuous edge (T -> Y): T is a zero of the tables, not of the declared graph
    path.write_text(json.dumps({"kind": "bayesian-network", "nodes": VACUOUS}))
    argv = ["leakage", str(path), "--all-targets", "--lam", "2", "--count", "X,Y=1", "--json"]
    assert main(argv) == 0
    by = {t["target"]: t["value"] for t in json.loads(capsys.readouterr().out)["targets"]}
    assert by["T"]["exact"] == "0" and "tables" in by["T"]["reason"]
    assert "reason" not in by["X"] and "reason" not in by["Y"]


@pytest.mark.slow
def test_link_count_of_twenty_has_twenty_zeros_by_the_tables():
    # link counting 20 selector records in state f: 20 allele records that the certified
    # float passes (before these zeros existed) enclosed in [0, 6e-11] and the graph does
    # not separate from the count; each is decided exact 0 by its averaged table
    text = gzip.open(DATA / "link.bif.gz", "rt").read()
    net = BayesianNetwork.from_text(text, "bif", tolerance=Fraction(1, 10**6))
    counted = [f"Z_{k}_{s}_{g}" for k in (56, 57, 58, 59, 54) for s in "da" for g in "mf"]
    net = net.count_query(counted, "f")
    plan = zero_plan(net, net.variables, ())
    decided, by_tables = plan.decided, plan.by_tables
    expected = {f"N{k}_{s}_{g}" for k in (54, 56, 57, 58, 59) for s in "da" for g in "mf"}
    expected -= {"N56_a_m", "N56_a_f"}
    expected |= {"D0_56_a_m", "D0_56_a_f"}
    assert by_tables == expected and all(decided[t] for t in by_tables)


@pytest.mark.slow
def test_munin1_counting_one_record_runs(capsys):
    # munin1 counting R_LNLLP_APB_MALOSS = NO was refused (1.8e10 units): most targets
    # are d-separated from it, but the batch support passes are over their cap, so they
    # were all computed; each target's support over its own ancestors now decides them
    # and the others fit the default limit
    argv = ["leakage", str(DATA / "munin1.bif.gz"), "--all-targets", "--lam", "2", "--json"]
    assert main([*argv, "--count", "R_LNLLP_APB_MALOSS=NO"]) == 0
    out = json.loads(capsys.readouterr().out)["targets"]
    assert len(out) == 186 and sum(bool(t["value"] and "reason" in t["value"]) for t in out) > 100


def test_insurance_without_its_vacuous_edges_gives_the_same_laws():
    # insurance's two vacuous edges (RiskAversion -> VehicleYear and -> MakeModel: their
    # rows do not depend on it, read in the file) dropped: a smaller clique tree
    text = gzip.open(DATA / "insurance.bif.gz", "rt").read()
    net = BayesianNetwork.from_text(text, "bif", tolerance=Fraction(1, 10**6))
    assert vacuous_edges(net.nodes) == (
        ("RiskAversion", "VehicleYear"),
        ("RiskAversion", "MakeModel"),
    )
    small = without_vacuous(net)
    assert without_vacuous(small) is small and small.variables == net.variables
    before, after = net.targets_work(), small.targets_work()
    assert after.largest < before.largest and after.work < before.work


@pytest.mark.slow
def test_insurance_without_its_vacuous_edges_gives_the_same_polynomials():
    # the same integer polynomials J_{t,a} (the same scaled tables and sums), 13 s
    text = gzip.open(DATA / "insurance.bif.gz", "rt").read()
    net = BayesianNetwork.from_text(text, "bif", tolerance=Fraction(1, 10**6))
    targets = ["RiskAversion", "MakeModel", "Age"]
    small = without_vacuous(net)
    assert dict(small.target_factors(targets, {})) == dict(net.target_factors(targets, {}))


def test_each_target_on_its_own_tree_gives_the_shared_trees_values():
    # alarm counting two records: every target on one clique tree (the engine checked
    # against brute forces and float64 in test_bayesnet*.py) and each target on the tree
    # of its own ancestors and the counted records give the same enclosures
    text = gzip.open(DATA / "alarm.bif.gz", "rt").read()
    net = BayesianNetwork.from_text(text, "bif", tolerance=Fraction(1, 10**6))
    net = net.count_query(["HYPOVOLEMIA", "LVFAILURE"], "TRUE")
    targets = list(net.variables)
    plan = target_plan(net, zero_plan(net, targets, (), averaged=False))
    assert not plan.per_target  # a small shared tree: not tried
    alone = dataclasses.replace(plan, per_target=True)
    shared = structured_leakage(net, targets, (), 2, exact=False, plan=plan)
    each = structured_leakage(net, targets, (), 2, exact=False, plan=alone)
    assert [(r.target, r.status) for r in each] == [(r.target, r.status) for r in shared]
    for a, b in zip(each, shared, strict=True):
        assert (a.value.lo, a.value.hi, a.value.reason) == (b.value.lo, b.value.hi, b.value.reason)


@pytest.mark.slow
def test_munin1_counting_five_records_runs_target_by_target(capsys):
    # every target on one tree: 5.0e10 units (width 11), refused; each computed target on
    # its own tree: 3.7e7 units in all (width 7 at most), 10 s
    text = gzip.open(DATA / "munin1.bif.gz", "rt").read()
    net = BayesianNetwork.from_text(text, "bif", tolerance=Fraction(1, 10**6))
    having = [v for v in net.variables if "NO" in net.nodes[v].states][:5]
    counted = net.count_query(having, "NO")
    found = zero_plan(counted, net.variables, (), averaged=False)
    plan = target_plan(counted, found, limit=10**8)
    assert plan.per_target and plan.work < 10**8 and plan.width <= 7
    argv = ["leakage", str(DATA / "munin1.bif.gz"), "--all-targets", "--lam", "2", "--json"]
    assert main([*argv, "--count", ",".join(having) + "=NO"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["targets"]) == 186 and out["max"]["value"]["decimal"].startswith("0.5")

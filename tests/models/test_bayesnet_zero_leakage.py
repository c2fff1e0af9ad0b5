"""Targets whose Eq. 2 leakage is exactly 0 because they are d-separated from the query
(pdpsym.models.bayesnet_build.independent_targets, surely_compatible; the exact 0 of
pdpsym.loss.count_leakage.structured_leakage).

Independent sources: a brute force over the full joint written here (Fractions, random
networks valid by construction): the law of the count given each compatible value of
the target is the same law, so every ratio of Eq. 2 is 1; a d-separation test written
here by a different algorithm (Lauritzen's criterion: separation in the moral graph of
the ancestral set, not the Bayes-ball search of the code); pgmpy's
``active_trail_nodes`` on bnlearn's alarm and andes read by pgmpy's own BIF reader.
"""

from __future__ import annotations

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
from pdpsym.models import bayesnet_zeros
from pdpsym.models.bayesnet import BayesianNetwork
from pdpsym.models.bayesnet_build import independent_targets, surely_compatible
from pdpsym.models.bayesnet_supports import marginal_supports
from pdpsym.models.bayesnet_zeros import zero_targets

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "bnlearn"
STATES = ["a", "b", "c"]


@st.composite
def networks(draw):
    """A random DAG of 1-6 nodes with 2-3 states, at most two parents among earlier
    nodes, rows of small non-negative integer weights (zeros allowed), a counted set (in
    state 'b') and a known set."""
    n = draw(st.integers(1, 6))
    names = [f"x{k}" for k in range(n)]
    specs = []
    for k, name in enumerate(names):
        size = draw(st.integers(2, 3))
        parents = draw(st.lists(st.sampled_from(names[:k]), unique=True, max_size=2)) if k else []
        specs.append({"name": name, "states": STATES[:size], "parents": parents})
    sizes = {s["name"]: len(s["states"]) for s in specs}
    for s in specs:
        rows = []
        for _ in itertools.product(*(range(sizes[u]) for u in s["parents"])):
            w = draw(st.lists(st.integers(0, 3), min_size=sizes[s["name"]], max_size=3))
            w = w[: sizes[s["name"]]]
            if sum(w) == 0:
                w[0] = 1
            rows.append([str(Fraction(x, sum(w))) for x in w])
        s["cpt"] = rows
    counted = draw(st.lists(st.sampled_from(names), unique=True, min_size=1, max_size=3))
    known = draw(st.lists(st.sampled_from(names), unique=True, max_size=2))
    return specs, counted, known


def joint(specs):
    """Every assignment (state indices) with its probability, by the chain rule."""
    by = {s["name"]: s for s in specs}
    for states in itertools.product(*(range(len(s["states"])) for s in specs)):
        x = {s["name"]: k for s, k in zip(specs, states)}
        p = Fraction(1)
        for s in specs:
            r = 0
            for u in s["parents"]:
                r = r * len(by[u]["states"]) + x[u]
            p *= Fraction(s["cpt"][r][x[s["name"]]])
        if p:
            yield x, p


def brute_laws(specs, counted, target, known):
    """``{x_K: {a: {count: P(count, x_t = a, x_K)}}}`` over the full joint."""
    out: dict = {}
    for x, p in joint(specs):
        key = tuple(x[k] for k in known)
        c = sum(x[v] == 1 for v in counted)  # state 'b' is index 1
        law = out.setdefault(key, {}).setdefault(x[target], {})
        law[c] = law.get(c, 0) + p
    return out


def normalized(law):
    total = sum(law.values())
    return {c: q / total for c, q in law.items()}


def dseparated(specs, x, ys, zs):
    """Whether ``x`` is d-separated from every record of ``ys`` given ``zs``, by
    Lauritzen's criterion: moralize the ancestral set of ``{x} | ys | zs``, delete
    ``zs``, and look for a path (Lauritzen et al., Networks 20, 1990, Proposition 3)."""
    parents = {s["name"]: s["parents"] for s in specs}
    wanted = {x, *ys, *zs}
    anc, stack = set(), list(wanted)
    while stack:
        v = stack.pop()
        if v not in anc:
            anc.add(v)
            stack.extend(parents[v])
    edges = {v: set() for v in anc}
    for v in anc:
        family = [v, *parents[v]]
        for a, b in itertools.combinations(family, 2):
            edges[a].add(b)
            edges[b].add(a)
    seen, stack = {x}, [x]
    while stack:
        v = stack.pop()
        for u in edges[v]:
            if u not in seen and u not in zs:
                seen.add(u)
                stack.append(u)
    return not (seen & set(ys))


@settings(max_examples=60, deadline=None)
@given(networks())
def test_d_separated_targets_leak_exactly_zero(case):
    specs, counted, known = case
    names = [s["name"] for s in specs]
    targets = [v for v in names if v not in known]
    nodes = BayesianNetwork.from_nodes(specs).nodes
    zeros = independent_targets(nodes, counted, targets, known)
    # the same set as Lauritzen's criterion gives (counted records that are known are
    # constants; a counted target is never separated from itself)
    free = [c for c in counted if c not in known]
    expected = [t for t in targets if t not in free and dseparated(specs, t, free, set(known))]
    assert list(zeros) == expected
    net = BayesianNetwork.from_nodes(specs).count_query(counted, "b")
    results = {r.target: r for r in structured_leakage(net, targets, known, 2, exact=False)}
    # the graph's zeros, and those the tables' values add (pdpsym.models.bayesnet_vacuous;
    # checked by the same brute force)
    every_zero, decided = zero_targets(net, targets, known)
    assert set(zeros) <= set(every_zero)
    for t in every_zero:
        laws = brute_laws(specs, counted, t, known)
        # by the brute force: each compatible value gives the same law of the count
        pairs = False
        for by_value in laws.values():
            shapes = [normalized(law) for law in by_value.values()]
            assert all(s == shapes[0] for s in shapes)
            pairs |= len(shapes) >= 2
        r = results[t]
        assert r.status == ("ok" if pairs else "no-compatible-pair")
        if pairs:
            assert (r.value.lo, r.value.hi) == (0, 0) and r.value.reason
        if t in decided:  # decided on the graph (not computed): as the brute force
            assert decided[t] == pairs
        if surely_compatible(nodes, t, known):
            # every value of t is compatible with every known assignment of the joint
            for by_value in laws.values():
                assert len(by_value) == len(nodes[t].states)


@settings(max_examples=60, deadline=None)
@given(networks())
def test_marginal_supports_are_the_brute_force_supports(case):
    specs, _, _ = case
    net = BayesianNetwork.from_nodes(specs)
    names = [s["name"] for s in specs]
    got = marginal_supports(net.nodes, net.variables, names)
    # by the brute force: the states seen in an assignment of positive probability
    seen = {v: set() for v in names}
    for x, _ in joint(specs):
        for v, k in x.items():
            seen[v].add(k)
    assert got == {v: tuple(k in seen[v] for k in range(len(net.nodes[v].states))) for v in names}
    assert marginal_supports(net.nodes, net.variables, names, max_cells=1) is None


def test_alarm_count_prints_exact_zeros_with_the_reason(capsys):
    # HISTORY descends from LVFAILURE only: no trail to HYPOVOLEMIA without a collider
    # (hand reading of alarm's graph), so its leakage is exactly 0; CVP descends from
    # HYPOVOLEMIA (through LVEDVOLUME) and is not 0
    argv = ["leakage", str(DATA / "alarm.bif.gz"), "--all-targets", "--lam", "2"]
    argv += ["--count", "HYPOVOLEMIA=TRUE"]
    assert main([*argv, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    by = {t["target"]: t["value"] for t in out["targets"]}
    assert by["HISTORY"]["exact"] == "0" and "d-separated" in by["HISTORY"]["reason"]
    assert "reason" not in by["CVP"] and by["CVP"]["decimal"].startswith("0.35058")
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "HISTORY: 0 (exact: d-separated from every counted record given the known ones)" in (
        lines
    )


def pgmpy_model(name):
    pytest.importorskip("pgmpy.readwrite", reason="pgmpy is an optional extra")
    from pgmpy.readwrite import BIFReader  # noqa: PLC0415 (an optional extra)

    return BIFReader(string=gzip.open(DATA / f"{name}.bif.gz", "rt").read()).get_model()


ALARM_CASES = [
    (["HYPOVOLEMIA"], []),
    (["HYPOVOLEMIA", "LVFAILURE"], ["CVP"]),
    (["HISTORY", "KINKEDTUBE"], ["VENTLUNG", "INTUBATION"]),
    (["BP"], ["CO", "TPR"]),
]


@pytest.mark.parametrize(
    "name, cases",
    [
        # slow: importing pgmpy alone takes about 3 s (Lauritzen's criterion above is
        # the default suite's independent check)
        pytest.param("alarm", ALARM_CASES, marks=pytest.mark.slow),
        pytest.param(
            "andes",
            [(["GOAL_2", "SNode_3", "SNode_4", "SNode_5"], []), (["SNode_10"], ["SNode_11"])],
            marks=pytest.mark.slow,
        ),
    ],
)
def test_d_separated_targets_match_pgmpy(name, cases):
    model = pgmpy_model(name)
    net = BayesianNetwork.from_text(
        gzip.open(DATA / f"{name}.bif.gz", "rt").read(), "bif", tolerance=Fraction(1, 10**6)
    )
    for counted, known in cases:
        free = [c for c in counted if c not in known]
        linked = set().union(*model.active_trail_nodes(free, observed=known or None).values())
        targets = [v for v in net.variables if v not in known]
        expected = [t for t in targets if t not in linked]
        assert list(independent_targets(net.nodes, counted, targets, known)) == expected
        assert expected  # each case has some


def test_leaving_decided_targets_out_moves_no_number():
    # alarm counting HYPOVOLEMIA = TRUE: 30 targets are d-separated from it (Lauritzen's
    # criterion, above) and decided on the graph; the others' laws are the exact engine's integer polynomials whatever the
    # tree, so each enclosure is the one computed for that target alone (the
    # single-target run keeps only its ancestors and the counted record)
    text = gzip.open(DATA / "alarm.bif.gz", "rt").read()
    net = BayesianNetwork.from_text(text, "bif", tolerance=Fraction(1, 10**6))
    net = net.count_query(["HYPOVOLEMIA"], "TRUE")
    every = {r.target: r for r in structured_leakage(net, net.variables, (), 2, exact=False)}
    specs = [{"name": v, "parents": list(net.nodes[v].parents)} for v in net.variables]
    zeros = {t for t, r in every.items() if r.value.reason is not None}
    assert zeros == {v for v in net.variables if dseparated(specs, v, ["HYPOVOLEMIA"], set())}
    assert len(zeros) == 30 and zero_targets(net, net.variables, ())[1]  # some left out
    for t in ("CVP", "LVEDVOLUME", "BP"):
        (alone,) = structured_leakage(net, [t], (), 2, exact=False)
        assert (alone.value.lo, alone.value.hi) == (every[t].value.lo, every[t].value.hi)


@pytest.mark.slow
def test_link_counting_twenty_records_runs_with_its_exact_zeros(capsys):
    # 20 records of link in state f: by Lauritzen's criterion (written above) 670 of
    # the 724 targets are d-separated from them; the run is within the default limit
    counted = [f"Z_{k}_{s}_{g}" for k in (56, 57, 58, 59, 54) for s in "da" for g in "mf"]
    argv = ["leakage", str(DATA / "link.bif.gz"), "--all-targets", "--lam", "2", "--json"]
    assert main([*argv, "--count", ",".join(counted) + "=f"]) == 0
    out = json.loads(capsys.readouterr().out)
    zeros = {t["target"] for t in out["targets"] if t["value"] and "reason" in t["value"]}
    text = gzip.open(DATA / "link.bif.gz", "rt").read()
    net = BayesianNetwork.from_text(text, "bif", tolerance=Fraction(1, 10**6))
    specs = [{"name": v, "parents": list(net.nodes[v].parents)} for v in net.variables]
    # the search from the counted records once: every record reached is d-connected
    linked = {v for v in net.variables if not dseparated(specs, v, counted, set())}
    dsep = {t["target"] for t in out["targets"] if "d-separated" in t["value"].get("reason", "")}
    assert dsep == set(net.variables) - linked and len(dsep) == 670
    # and 20 more by the tables' values (tests/models/test_bayesnet_vacuous.py)
    assert len(zeros - dsep) == 20
    assert all(t["value"] is not None for t in out["targets"])


@settings(max_examples=60, deadline=None)
@given(networks())
def test_supports_over_each_targets_ancestors_when_the_batch_is_refused(case):
    # the batch boolean passes refused (as on munin1): each d-separated target's support
    # is found over its own ancestors (bayesnet_zeros.zero_plan), and decides it as the
    # brute force does (two values compatible with some known assignment, or not)
    specs, counted, known = case
    names = [s["name"] for s in specs]
    targets = [v for v in names if v not in known]
    net = BayesianNetwork.from_nodes(specs).count_query(counted, "b")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bayesnet_zeros, "marginal_supports", lambda *a, **k: None)
        zeros, decided = zero_targets(net, targets, known)
    for t in zeros:
        if t in decided:
            laws = brute_laws(specs, counted, t, known)
            assert decided[t] == any(len(by_value) >= 2 for by_value in laws.values())

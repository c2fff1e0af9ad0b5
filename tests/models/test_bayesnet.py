"""Bayesian networks: the law of a weighted sum by variable elimination, against a brute
force over every assignment written here (the chain rule with Fractions), and Li et al.'s
Eq. 2 through ``query_law`` against the full-table engine on a real network."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pdpsym.core.errors import InputError
from pdpsym.loss import table_leakage as eq2
from pdpsym.loss.laplace_mixture import laplace_mixture_sup
from pdpsym.models.bayesnet import BayesianNetwork
from pdpsym.models.bayesnet_bif import parse_bif

CHILD = Path(__file__).parent.parent / "data" / "child.bif"


# --- random networks, valid by construction -----------------------------------------


@st.composite
def networks(draw, max_nodes: int = 7):
    """(JSON object, value map) of a random DAG: node k's parents are among nodes < k in
    a hidden topological order; the declaration order is shuffled. States are numbers
    (their own values) or letters (values 0, 1, 2: the documented index reading)."""
    n = draw(st.integers(1, max_nodes))
    names = [f"x{k + 1}" for k in range(n)]
    specs = []
    values = {}
    for k, name in enumerate(names):
        size = draw(st.integers(2, 3))
        if draw(st.booleans()):
            pool = [Fraction(v) for v in range(-2, 5)] + [Fraction(1, 2), Fraction(-3, 2)]
            nums = sorted(draw(st.sets(st.sampled_from(pool), min_size=size, max_size=size)))
            states = [str(v) for v in nums]
            values[name] = list(nums)
        else:
            states = ["a", "b", "c"][:size]
            values[name] = [Fraction(j) for j in range(size)]
        parents = draw(st.lists(st.sampled_from(names[:k]), unique=True, max_size=2)) if k else []
        specs.append({"name": name, "states": states, "parents": parents})
    sizes = {s["name"]: len(s["states"]) for s in specs}
    for s in specs:
        rows = []
        for _ in itertools.product(*(range(sizes[u]) for u in s["parents"])):
            ws = draw(
                st.lists(
                    st.integers(0, 4), min_size=len(s["states"]), max_size=len(s["states"])
                ).filter(lambda w: sum(w) > 0)
            )
            rows.append([str(Fraction(w, sum(ws))) for w in ws])
        s["cpt"] = rows
    order = draw(st.permutations(specs))
    return {"kind": "bayesian-network", "nodes": list(order)}, values


def brute_joint(obj, values):
    """Every assignment (as value tuples in declaration order) with its chain-rule
    probability, straight from the JSON tables (written independently of the library)."""
    nodes = obj["nodes"]
    names = [s["name"] for s in nodes]
    by = {s["name"]: s for s in nodes}
    out = {}
    for states in itertools.product(*(range(len(s["states"])) for s in nodes)):
        a = dict(zip(names, states))
        p = Fraction(1)
        for s in nodes:
            sizes = [len(by[u]["states"]) for u in s["parents"]]
            # row index of the parent configuration, last parent fastest
            r = 0
            for u, size in zip(s["parents"], sizes):
                r = r * size + a[u]
            p *= Fraction(s["cpt"][r][a[s["name"]]])
        out[tuple(values[v][a[v]] for v in names)] = p
    return names, out


@given(networks(), st.randoms(use_true_random=False))
def test_query_law_is_the_brute_force_conditional_law(case, rnd: random.Random):
    obj, values = case
    net = BayesianNetwork.from_json(obj)
    names, joint = brute_joint(obj, values)
    target = rnd.choice(names)
    a = rnd.choice(values[target])
    others = [v for v in names if v != target]
    known = {v: rnd.choice(values[v]) for v in rnd.sample(others, rnd.randint(0, len(others)))}
    weights = {v: rnd.randint(-2, 2) for v in names} if rnd.random() < 0.7 else None
    w = weights or dict.fromkeys(names, 1)
    # brute force: condition on x_target = a, x_K = known; the law of sum_k w_k x_k
    z = Fraction(0)
    law: dict[Fraction, Fraction] = {}
    for row, p in joint.items():
        x = dict(zip(names, row))
        if x[target] != a or any(x[k] != v for k, v in known.items()) or p == 0:
            continue
        s = sum((w[v] * x[v] for v in names), Fraction(0))
        law[s] = law.get(s, Fraction(0)) + p
        z += p
    expected = None if z == 0 else {s: p / z for s, p in law.items()}
    assert net.query_law(target, a, known, weights) == expected


@given(networks())
def test_to_joint_rows_are_the_chain_rule(case):
    obj, values = case
    net = BayesianNetwork.from_json(obj)
    names, joint = brute_joint(obj, values)
    table = net.to_joint()
    assert table.variables == tuple(names)
    assert dict(table.probs) == {row: p for row, p in joint.items() if p}


# --- the real network (bnlearn's CHILD) -------------------------------------------------

#: an ancestral set of CHILD (closed under parents): itself a network with CHILD's tables
SUB12 = ["LVHreport", "HypDistrib", "GruntingReport", "LungFlow"]


def bayes_leakage(net: BayesianNetwork, target: str, known: list[str], lam: Fraction):
    """Li et al. Eq. 2 through the structured protocol: the max over known assignments
    and ordered pairs a != b of the exact sup over r of the log ratio of the two Laplace
    mixtures given by ``query_law`` (pairs with an impossible side are skipped)."""
    best = None
    for xk in itertools.product(*(net.domain(k) for k in known)):
        kv = dict(zip(known, xk))
        laws = {a: net.query_law(target, a, kv) for a in net.domain(target)}
        for a, b in itertools.permutations(net.domain(target), 2):
            if laws[a] is None or laws[b] is None:
                continue
            value, _ = laplace_mixture_sup(laws[a], laws[b], lam)
            if best is None or value.exact_compare(best) > 0:
                best = value
    return best


def test_child_parses_with_its_twenty_nodes():
    # the file's header comment gives CHILD as 20 nodes; every row sums to exactly 1
    net = BayesianNetwork.from_bif(CHILD)
    assert len(net.variables) == 20
    assert net.domain("Disease") == tuple(Fraction(j) for j in range(6))  # index reading
    assert net.nodes["HypDistrib"].parents == ("DuctFlow", "CardiacMixing")
    # hand check: the Disease | no row's third entry is 0.29591837 in the file
    assert net.nodes["Disease"].cpt[(1,)][2] == Fraction(29591837, 10**8)


def test_ancestral_sub_network_has_twelve_nodes():
    sub = BayesianNetwork.from_bif(CHILD).ancestral(SUB12)
    assert len(sub.variables) == 12


@pytest.mark.parametrize(
    ("target", "known"),
    [
        ("Disease", []),
        pytest.param("LVH", ["LVHreport"], marks=pytest.mark.slow),
        pytest.param("Sick", ["BirthAsphyxia"], marks=pytest.mark.slow),
    ],
)
def test_child_eq2_leakage_equals_the_full_table_engine(target, known):
    # independent reference: eq2.table_leakage on the full joint table of the 12-node
    # sub-network (82944 cells), which lists every database
    sub = BayesianNetwork.from_bif(CHILD).ancestral(SUB12)
    lam = Fraction(3)
    ours = bayes_leakage(sub, target, known, lam)
    ref = eq2.table_leakage(sub.to_joint(), target, known, lam).require()
    assert ours.exact_compare(ref) == 0


def test_every_query_law_of_child_sums_to_one():
    net = BayesianNetwork.from_bif(CHILD)
    for v in net.variables:
        for a in net.domain(v):
            law = net.query_law(v, a, {})
            assert law is None or sum(law.values()) == 1


# --- bad input: InputError naming the field ------------------------------------------


def node(name, states=("0", "1"), parents=(), cpt=None):
    k = len(states)
    if cpt is None:
        rows = 1
        for _ in parents:
            rows *= 2
        cpt = [[f"1/{k}"] * k for _ in range(rows)]
    return {"name": name, "states": list(states), "parents": list(parents), "cpt": cpt}


def bad(nodes):
    with pytest.raises(InputError) as err:
        BayesianNetwork.from_json({"kind": "bayesian-network", "nodes": nodes})
    return err.value


def test_a_cycle_is_named():
    e = bad([node("a", parents=["c"]), node("b", parents=["a"]), node("c", parents=["b"])])
    assert e.field.endswith(".parents") and "cycle" in e.message
    assert (
        "a -> b -> c -> a" in e.message
        or "c -> a -> b -> c" in e.message
        or ("b -> c -> a -> b" in e.message)
    )


def test_unknown_parent_is_named():
    e = bad([node("a", parents=["zz"])])
    assert e.field == "nodes[0].parents" and "zz" in e.message


def test_row_not_summing_to_one():
    e = bad([node("a", cpt=["1/2", "1/3"])])
    assert e.field == "nodes[0].cpt[0]" and "5/6" in e.message


def test_negative_and_non_numeric_probabilities():
    assert bad([node("a", cpt=["3/2", "-1/2"])]).field == "nodes[0].cpt[0][1]"
    e = bad([node("a", cpt=["1/2", "half"])])
    assert e.field == "nodes[0].cpt[0][1]" and "not a number" in e.message


def test_state_count_mismatch():
    e = bad([node("a", states=("0", "1", "2"), cpt=["1/2", "1/2"])])
    assert e.field == "nodes[0].cpt[0]" and "expected 3" in e.message
    e = bad([node("a"), node("b", parents=["a"], cpt=[["1/2", "1/2"]])])
    assert e.field == "nodes[1].cpt" and "expected 2 rows" in e.message


def test_duplicate_nodes():
    assert bad([node("a"), node("a")]).field == "nodes[1].name"


def test_bif_errors_name_their_line():
    text = (
        "network x {\n}\n"
        "variable a {\n  type discrete [ 2 ] { yes, no };\n}\n"
        "probability ( a ) {\n  table 0.5, 0.4;\n}\n"
    )
    with pytest.raises(InputError) as err:
        BayesianNetwork.from_bif_text(text)
    assert err.value.field == "line 7" and "9/10" in err.value.message
    with pytest.raises(InputError) as err:
        BayesianNetwork.from_bif_text(text.replace("[ 2 ]", "[ 3 ]"))
    assert err.value.field == "line 4"
    with pytest.raises(InputError) as err:
        BayesianNetwork.from_bif_text(text.replace("( a )", "( a | q )").replace("table", "(u)"))
    # the unknown parent is on the probability line (line 6), not the variable line (3)
    assert err.value.field == "line 6" and "unknown parent 'q'" in err.value.message


def test_rounded_rows_are_read_only_with_a_tolerance():
    text = (
        "variable a { type discrete [ 3 ] { x, y, z }; }\n"
        "probability ( a ) { table 0.333333, 0.333333, 0.333333; }\n"
    )
    with pytest.raises(InputError):
        BayesianNetwork.from_bif_text(text)
    net = BayesianNetwork.from_bif_text(text, tolerance=Fraction(1, 10**6))
    # hand: each entry is 0.333333 / 0.999999 = 1/3 exactly
    assert net.nodes["a"].cpt[()] == (Fraction(1, 3),) * 3
    # the renormalized row is reported with its line and |sum - 1| = 10^-6 (hand)
    assert net.renormalized == (("line 2", Fraction(1, 10**6)),)
    with pytest.raises(InputError) as err:
        BayesianNetwork.from_bif_text(text, tolerance=Fraction(1, 10**7))
    assert err.value.field == "line 2" and "more than the tolerance 1/10000000" in err.value.message


def test_bif_errors_on_the_probability_block_name_its_line():
    text = (
        "variable a { type discrete [ 2 ] { yes, no }; }\n"
        "variable b { type discrete [ 2 ] { yes, no }; }\n"
        "probability ( a | b ) {\n (yes) 0.5, 0.5;\n (no) 0.5, 0.5;\n}\n"
        "probability ( b | a ) {\n (yes) 0.5, 0.5;\n (no) 0.5, 0.5;\n}\n"
    )
    with pytest.raises(InputError) as err:
        BayesianNetwork.from_bif_text(text)
    # hand: a -> b -> a is a cycle; the probability block of a (line 3) lists b
    assert err.value.field == "line 3" and "cycle" in err.value.message
    short = text.replace(" (no) 0.5, 0.5;\n}\nprobability ( b", "}\nprobability ( b")
    with pytest.raises(InputError) as err:
        BayesianNetwork.from_bif_text(
            short.replace("( b | a )", "( b )").replace("(yes) 0.5, 0.5;\n (no)", "table")
        )
    assert (
        err.value.field == "line 3" and "no row for parent configuration (no)" in err.value.message
    )


def test_bif_with_too_many_variables_is_refused_at_the_first_one_past_the_limit():
    text = "".join(f"variable v{k} {{ type discrete [ 2 ] {{ 0, 1 }}; }}\n" for k in range(5))
    with pytest.raises(InputError) as err:
        parse_bif(text, max_nodes=3)
    assert err.value.field == "line 4" and "more than 3 variables" in err.value.message


def test_work_beyond_max_work_is_refused_with_the_width():
    # a grid-like network: each node has the two previous ones as parents, 12 nodes;
    # with max_work tiny, the plan is refused before any factor is built
    nodes = [node("n0"), node("n1", parents=["n0"])]
    nodes += [node(f"n{k}", parents=[f"n{k - 1}", f"n{k - 2}"]) for k in range(2, 12)]
    net = BayesianNetwork.from_json({"kind": "bayesian-network", "nodes": nodes}, max_work=50)
    with pytest.raises(InputError) as err:
        net.query_law("n0", Fraction(0), {})
    assert err.value.field == "max_work" and "induced width 2" in err.value.message


# --- the reader and the command line ----------------------------------------------------


def test_the_structured_protocol_is_implemented():
    from pdpsym.models.query_law import StructuredModel

    assert isinstance(BayesianNetwork.from_bif(CHILD), StructuredModel)


def test_load_model_dispatches_on_kind_and_extension(tmp_path):
    from pdpsym.app.readers import load_model

    assert isinstance(load_model(CHILD), BayesianNetwork)
    good = tmp_path / "net.json"
    good.write_text(json.dumps({"kind": "bayesian-network", "nodes": [node("x1")]}))
    assert load_model(good).variables == ("x1",)
    cyclic = tmp_path / "bad.json"
    cyclic.write_text(
        json.dumps({"kind": "bayesian-network", "nodes": [node("x1", parents=["x1"])]})
    )
    with pytest.raises(InputError) as err:
        load_model(cyclic)
    assert err.value.field == "nodes[0].parents"
    bif = tmp_path / "bad.bif"
    bif.write_text(
        "variable a { type discrete [ 2 ] { 0, 1 }; }\nprobability ( a ) { table 1, -0.5; }"
    )
    with pytest.raises(InputError) as err:
        load_model(bif)
    assert err.value.field == "line 2[1]" and "negative" in err.value.message


def test_the_command_line_refuses_a_bad_network_in_one_line(capsys, tmp_path):
    from pdpsym.app.cli import main

    bad_file = tmp_path / "bad.json"
    nodes = [node("x1", parents=["x2"]), node("x2", parents=["x1"])]
    bad_file.write_text(json.dumps({"kind": "bayesian-network", "nodes": nodes}))
    code = main(["leakage", str(bad_file), "--target", "x1"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_d_separation_by_hand():
    from pdpsym.models.bayesnet_build import reachable, relevant_known

    def net(edges, names):
        nodes = []
        for v in names:
            pa = [u for u, w in edges if w == v]
            rows = [["1/2", "1/2"]] * (2 ** len(pa))
            nodes.append({"name": v, "states": ["0", "1"], "parents": pa, "cpt": rows})
        return BayesianNetwork.from_json({"kind": "bayesian-network", "nodes": nodes})

    collider = net([("a", "c"), ("b", "c")], "abc").nodes
    # hand (Koller and Friedman, Sec. 3.3): a v-structure a -> c <- b blocks a from b
    # unless c (or a descendant of c) is observed
    assert "b" not in reachable(collider, ["a"], [])
    assert "b" in reachable(collider, ["a"], ["c"])
    chain = net([("a", "b"), ("b", "c")], "abc").nodes
    assert "c" not in reachable(chain, ["a"], ["b"]) and "c" in reachable(chain, ["a"], [])
    # known a is irrelevant to target c (counted: c alone) once b is known, but b is not
    assert relevant_known(chain, ["c"], ["a", "b"]) == ("b",)
    # with the collider, known c links a to b: both stay
    assert relevant_known(collider, ["b"], ["c", "a"]) == ("c", "a")


def test_dropping_d_separated_known_records_keeps_the_leakage():
    """A chain a -> b -> c -> d, target d counting c and d, known a and b: a is
    d-separated by b, so the max over (a, b) equals the max over b alone; the full-table
    engine (which lists every (a, b)) is the independent reference."""
    rows = [["4/5", "1/5"], ["1/3", "2/3"]]
    nodes = [{"name": "a", "states": ["0", "1"], "cpt": ["1/4", "3/4"]}]
    nodes += [
        {"name": v, "states": ["0", "1"], "parents": [u], "cpt": rows}
        for u, v in (("a", "b"), ("b", "c"), ("c", "d"))
    ]
    net = BayesianNetwork.from_json({"kind": "bayesian-network", "nodes": nodes})
    from pdpsym.loss import table_leakage as eq2
    from pdpsym.loss.count_leakage import structured_leakage
    from pdpsym.mechanisms.laplace import LinearQuery
    from pdpsym.models.bayesnet_build import relevant_known

    assert relevant_known(net.nodes, ["c", "d"], ["a", "b"]) == ("b",)
    w = {"a": 0, "b": 0}
    (r,) = structured_leakage(net, ["d"], ("a", "b"), Fraction(1), w, digits=20, exact=False)
    table = net.to_joint()
    query = LinearQuery.from_text(table, "a=0,b=0")
    ref = eq2.table_leakage(table, "d", ("a", "b"), Fraction(1), query).certified(25)
    assert r.value.lo <= Fraction(ref.enclosure[1]) and Fraction(ref.enclosure[0]) <= r.value.hi

"""The layered WHG engine against the one-impact-at-a-time reference, node by node.

The engine (``whg_from_distribution``) decides the chain rule with arb balls and builds
exact values lazily; ``definitional.reference_whg`` is the plain loop (every ``W_ij``
enumerated, every comparison exact, built on the library's edges and Eq. 2). They must
agree exactly on every node, every reading, both bottom rules, fast search and the PATHS
mode. The node values are also checked against the independent Eq. 2 brute force of
``tests/oracles/eq2_leakage.py`` (mpmath on a dense grid, no pdpsym code).
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.eq2_leakage import eq2_bruteforce
from strategies import joint_tables

from papers.li2019.whg.definitional import reference_whg
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.families import random_table, tables_up_to
from pdpsym.models.joint import JointDistribution
from pdpsym.papers.li2019.edge_tables import EdgeTables
from pdpsym.papers.li2019.edges import EdgeReading, impact_set, log_max, log_min
from pdpsym.papers.li2019.examples import li2019_table
from pdpsym.papers.li2019.whg import BottomRule, DistributionWHG, whg_from_distribution


def assert_same(a: DistributionWHG, b: DistributionWHG) -> None:
    assert a.nodes.keys() == b.nodes.keys()
    for key, u in a.nodes.items():
        v = b.nodes[key]
        assert u.layer == v.layer and u.generated == v.generated, key
        assert (u.chain is None) == (v.chain is None), key
        if u.chain is not None:
            assert u.chain.exact_compare(v.chain) == 0, key  # type: ignore[arg-type]
        assert (u.chain_paths is None) == (v.chain_paths is None), key
        if u.chain_paths is not None:
            assert u.chain_paths.exact_compare(v.chain_paths) == 0, key  # type: ignore[arg-type]
        if u.exact is not None and v.exact is not None:
            assert u.exact.status == v.exact.status
            if u.exact.ok:
                assert u.exact.require().exact_compare(v.exact.require()) == 0, key


def both(model: JointDistribution, lam: Fraction = Fraction(1), **kw: object) -> None:
    assert_same(whg_from_distribution(model, lam, **kw), reference_whg(model, lam, **kw))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["a", "b"])
def test_engine_node_values_match_the_independent_eq2_oracle(name: str) -> None:
    # Independent source: tests/oracles/eq2_leakage.py, Eq. 2 from its definition in mpmath
    # on a dense grid of outputs (the sup of a Laplace mixture's log ratio is reached on
    # the grid's support points, so the two agree to the working precision).
    model = li2019_table(name)
    g = whg_from_distribution(model, Fraction(1))
    assert len(g.nodes) == model.n * 2 ** (model.n - 1)
    for (target, known), node in g.nodes.items():
        oracle = eq2_bruteforce(model, target, node.known, Fraction(1))
        result = node.exact
        assert result is not None and set(node.known) == known
        assert (oracle is None) == (not result.ok), (target, known)
        if result.ok:
            with mpmath.workdps(40):
                exact = mpmath.mpf(result.certified(30).decimal)
                assert abs(exact - oracle) < mpmath.mpf(10) ** -25, (target, known)


@pytest.mark.parametrize("name", ["a", "b", "c", "d"])
@pytest.mark.parametrize("reading", list(EdgeReading))
def test_engine_matches_reference_on_paper_tables(name: str, reading: EdgeReading) -> None:
    both(li2019_table(name), reading=reading, with_paths=True)


def test_engine_matches_reference_on_every_small_binary_pair_table() -> None:
    # every 2x2 table with denominators <= 4, both bottom rules, both single tails
    count = 0
    for model in tables_up_to([2, 2], 4, full_support_values=False):
        for bottom in BottomRule:
            for reading in (EdgeReading.RIGHT, EdgeReading.LEFT):
                both(model, bottom=bottom, reading=reading)
                count += 1
    assert count > 100


def test_engine_matches_reference_on_random_three_and_four_tuple_tables() -> None:
    rng = random.Random(11)
    for trial in range(12):
        sizes = [rng.choice([2, 3]) for _ in range(3 if trial % 3 else 4)]
        model = random_table(rng, sizes)
        lam = Fraction(rng.choice([1, 2, 3]), rng.choice([1, 2]))
        reading = list(EdgeReading)[trial % 3]
        bottom = list(BottomRule)[trial % 2]
        both(model, lam, reading=reading, bottom=bottom, with_paths=model.n <= 3)


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_fast_search_matches_reference(k: int) -> None:
    rng = random.Random(k)
    for _ in range(4):
        model = random_table(rng, [2, 2, 2])
        both(model, fast_k=k)


def test_weighted_query_matches_reference() -> None:
    rng = random.Random(5)
    model = random_table(rng, [2, 3, 2])
    for w in itertools.product([Fraction(-2), Fraction(1, 2), Fraction(3)], repeat=2):
        query = LinearQuery(dict(zip(model.variables, [Fraction(1), *w], strict=True)))
        both(model, Fraction(1, 2), query=query, reading=EdgeReading.BOTH)


@settings(max_examples=15)
@given(joint_tables(min_n=2, max_n=3, max_domain=3), st.sampled_from(list(EdgeReading)))
def test_engine_equals_reference_on_generated_tables(
    model: JointDistribution, reading: EdgeReading
) -> None:
    both(model, reading=reading)


@settings(max_examples=25)
@given(joint_tables(min_n=2, max_n=3, max_domain=3), st.sampled_from(list(EdgeReading)))
def test_edge_extremes_are_the_max_and_min_of_W(
    model: JointDistribution, reading: EdgeReading
) -> None:
    lam = Fraction(1)
    query = LinearQuery.sum(model.variables)
    tables = EdgeTables(model, lam, query, reading)
    names = model.variables
    n = model.n
    for i, j in itertools.permutations(range(n), 2):
        rest = [v for v in range(n) if v not in (i, j)]
        for r in range(len(rest) + 1):
            for ctx in itertools.combinations(rest, r):
                child = (1 << j) | sum(1 << v for v in ctx)
                known = tuple(names[v] for v in range(n) if child >> v & 1)
                W = impact_set(model, names[i], known, names[j], lam, query, reading)
                got = tables.extremes(i, child, j)
                if not W:
                    assert got is None
                    continue
                assert got is not None
                hi, lo = got
                assert hi.value.exact_compare(log_max([w.value for w in W])) == 0
                assert lo.value.exact_compare(log_min([w.value for w in W])) == 0


@pytest.mark.parametrize("reading", list(EdgeReading))
def test_chain_text_is_exact_and_certified_digits_agree(reading: EdgeReading) -> None:
    """The signed sum-of-logs text parses back to the product-form value, and the
    certified digits (from the propagated ball) are those of the product form."""
    import sympy

    from pdpsym.core.certify import certify

    rng = random.Random(2)
    models = [li2019_table(x) for x in "abcd"] + [random_table(rng, [2, 3, 2]) for _ in range(3)]
    for model in models:
        g = whg_from_distribution(model, Fraction(1, 2), reading=reading)
        for node in g.nodes.values():
            cv = node.chain_value
            if cv is None:
                continue
            parsed = sympy.parse_expr(cv.exact_text())
            assert abs(sympy.N(parsed - cv.exact.sympy(), 60)) < sympy.Float("1e-45")
            assert certify(cv, 25).decimal == certify(cv.exact, 25).decimal


def test_rational_chain_values_print_as_rationals() -> None:
    g = whg_from_distribution(li2019_table("c"), 1)
    top = g.nodes[("x1", frozenset())].chain_value
    assert top is not None and top.exact_text() == "2"


def test_target_values_closer_than_a_float_ulp_are_still_ordered_exactly() -> None:
    a, b = Fraction(1, 3), Fraction(1, 3) + Fraction(1, 10**20)  # equal as float64
    assert float(a) == float(b)
    rows = [
        [a, 0, Fraction(1, 4)],
        [a, 1, Fraction(1, 8)],
        [b, 0, Fraction(1, 8)],
        [b, 1, Fraction(1, 2)],
    ]
    model = JointDistribution.from_rows(["x1", "x2"], rows)
    both(model, reading=EdgeReading.BOTH)
    g = whg_from_distribution(model, 1)
    assert g.nodes[("x1", frozenset())].chain is not None

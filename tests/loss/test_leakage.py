"""Li et al. Eq. 2: exact leakage against an oracle, exhaustive classes and stated laws."""

import itertools
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracles.eq2_leakage import eq2_bruteforce, eq2_grid
from strategies import joint_tables, lambdas, product_tables

from pdpsym.loss.adversary import Adversary
from pdpsym.loss.leakage import leakage
from pdpsym.loss.table_leakage import all_adversaries, leakage_all, table_leakage
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.families import tables_up_to
from pdpsym.models.joint import JointDistribution
from pdpsym.models.markov import MarkovChain
from pdpsym.papers.li2019.examples import li2019_table
from pdpsym.papers.li2019.theorems import bayes_identity_holds, group_dp_bound, theorem4_value


def test_examples_2_to_4_exact_values():
    assert (
        str(table_leakage(li2019_table("a"), "x1").expression())
        == "log((2*E + 3*exp(2))/(3 + 2*E))"
    )
    assert (
        str(table_leakage(li2019_table("b"), "x1").expression())
        == "log((3*E + 2*exp(2))/(2 + 3*E))"
    )
    assert table_leakage(li2019_table("a"), "x1", ["x2"]).compare_rational(Fraction(1)) == 0
    assert table_leakage(li2019_table("c"), "x1").compare_rational(Fraction(2)) == 0
    assert table_leakage(li2019_table("d"), "x1").compare_rational(Fraction(6)) == 0
    assert table_leakage(li2019_table("c"), "x1", ["x2"]).status == "no-compatible-pair"
    assert table_leakage(li2019_table("a"), "x1").certified(12).decimal == "1.18537590325"


def test_witness_attains_the_value():
    res = table_leakage(li2019_table("a"), "x1")
    w = res.witness
    assert w is not None and w.x_i != w.x_i_prime
    assert res.as_json(10)["witness"]["r"] in {"0", "2"}


def test_screened_search_equals_the_fully_exact_search_on_every_small_table():
    count = 0
    for model in tables_up_to([2, 2], 5, full_support_values=False):
        for adv in all_adversaries(model):
            a = table_leakage(model, adv.target, adv.known, 1, method="screened")
            b = table_leakage(model, adv.target, adv.known, 1, method="exact")
            assert a.status == b.status
            if a.ok:
                assert a.value.exact_compare(b.value) == 0
            count += 1
    assert count > 100


@pytest.mark.parametrize("sizes,den", [([2, 2], 4), ([2, 3], 3), ([3, 3], 2), ([2, 2, 2], 2)])
def test_eq2_matches_the_bruteforce_oracle_exhaustively(sizes, den):
    for model in tables_up_to(sizes, den, full_support_values=False):
        for adv in all_adversaries(model):
            res = table_leakage(model, adv.target, adv.known, Fraction(1))
            oracle = eq2_bruteforce(model, adv.target, adv.known, Fraction(1))
            if not res.ok:
                assert oracle is None
                continue
            with mpmath.workdps(40):
                exact = mpmath.mpf(res.certified(30).decimal)
                assert abs(exact - oracle) < mpmath.mpf(10) ** -25


@given(joint_tables(), lambdas)
def test_eq2_agrees_with_the_oracle_on_generated_tables(model, lam):
    adv = next(iter(all_adversaries(model)))
    res = table_leakage(model, adv.target, adv.known, lam)
    oracle = eq2_bruteforce(model, adv.target, adv.known, lam)
    assert (oracle is None) == (not res.ok)
    if res.ok:
        with mpmath.workdps(40):
            assert abs(mpmath.mpf(res.certified(30).decimal) - oracle) < mpmath.mpf(10) ** -25


@given(joint_tables(), lambdas)
def test_eq2_never_exceeds_group_dp(model, lam):
    query = LinearQuery.sum(model.variables)
    for adv in all_adversaries(model):
        res = table_leakage(model, adv.target, adv.known, lam, query)
        if res.ok:
            assert res.compare_rational(group_dp_bound(model, adv, lam, query)) <= 0


@given(product_tables(), lambdas)
def test_independence_makes_every_adversary_leak_delta_over_lambda(model, lam):
    query = LinearQuery.sum(model.variables)
    for adv in all_adversaries(model):
        res = table_leakage(model, adv.target, adv.known, lam, query)
        assert res.compare_rational(query.sensitivity(model, adv.target) / lam) == 0


@given(joint_tables(max_n=2), st.fractions(-3, 3, max_denominator=4))
def test_bayes_form_eq3_is_an_identity(model, r):
    query = LinearQuery.sum(model.variables)
    adv = Adversary("x1", ())
    dom = [row[0] for row in model.marginal(["x1"]).probs]
    if len(dom) >= 2:
        assert bayes_identity_holds(model, adv, dom[0], dom[1], {}, r, Fraction(1), query)


@given(joint_tables(), st.data())
def test_leakage_is_symmetric_under_relabelling_the_tuples(model, data):
    perm = data.draw(st.permutations(list(model.variables)))
    renamed = {old: f"y{k}" for k, old in enumerate(perm)}
    rows = [
        [row[model.variables.index(old)] for old in perm] + [p] for row, p in model.probs.items()
    ]
    other = JointDistribution.from_rows(
        [renamed[o] for o in perm], rows, {renamed[o]: list(model.domain(o)) for o in perm}
    )
    for adv in list(all_adversaries(model))[:4]:
        a = table_leakage(model, adv.target, adv.known)
        b = table_leakage(other, renamed[adv.target], [renamed[k] for k in adv.known])
        assert a.status == b.status
        if a.ok:
            assert a.value.exact_compare(b.value) == 0


@given(joint_tables(), st.fractions(-5, 5, max_denominator=3), st.data())
def test_leakage_is_invariant_when_a_tuple_is_shifted(model, shift, data):
    name = data.draw(st.sampled_from(model.variables))
    k = model.variables.index(name)
    rows = [
        [v + shift if j == k else v for j, v in enumerate(row)] + [p]
        for row, p in model.probs.items()
    ]
    domains = {n: [v + shift if n == name else v for v in model.domain(n)] for n in model.variables}
    shifted = JointDistribution.from_rows(list(model.variables), rows, domains)
    for adv in list(all_adversaries(model))[:4]:
        a = table_leakage(model, adv.target, adv.known)
        b = table_leakage(shifted, adv.target, adv.known)
        assert a.status == b.status
        if a.ok:
            assert a.value.exact_compare(b.value) == 0


@given(joint_tables(max_n=2), st.sampled_from([Fraction(2), Fraction(1, 3)]))
def test_scaling_weights_and_lambda_together_leaves_leakage_unchanged(model, c):
    base = table_leakage(model, "x1", (), 1)
    scaled = table_leakage(model, "x1", (), c, LinearQuery({v: c for v in model.variables}))
    assert base.status == scaled.status
    if base.ok:
        assert base.value.exact_compare(scaled.value) == 0


def test_bottom_layer_equals_the_corrected_theorem4_on_small_tables():
    for model in tables_up_to([3, 2], 4):
        query = LinearQuery.sum(model.variables)
        adv = Adversary("x1", ("x2",))
        res = table_leakage(model, "x1", ("x2",), 1, query)
        t4 = theorem4_value(model, adv, Fraction(1), query)
        assert (t4 is None) == (not res.ok)
        if t4 is not None:
            assert res.compare_rational(t4) == 0


def test_weights_enter_the_query():
    m = li2019_table("c")
    res = table_leakage(m, "x1", (), 1, LinearQuery({"x1": Fraction(1), "x2": Fraction(-1)}))
    # f = x1 - x2 = 0 always: nothing leaks, and the exact value is 0
    assert res.compare_rational(Fraction(0)) == 0


def test_leakage_all_covers_every_adversary():
    m = li2019_table("a")
    results = leakage_all(m, 1)
    assert len(results) == 2 * 2 ** (2 - 1)


def test_records_a_linear_query_leaves_out_have_weight_zero_on_a_chain():
    # LinearQuery: "variables without a weight have weight 0". A structured model's
    # engine reads an absent record as weight 1 (its default sum), so the entry point must
    # pass every record. Expected value: Eq. 2 over the chain's joint law enumerated here
    # in Fractions (x1 ~ (2/5, 3/5), stay 4/5 else move), query x1 + x2, on a grid that
    # holds every support point (oracles.eq2_leakage, no pdpsym import).
    init, stay = (Fraction(2, 5), Fraction(3, 5)), Fraction(4, 5)
    cells = {}
    for seq in itertools.product((0, 1), repeat=3):
        p = init[seq[0]]
        for a, b in itertools.pairwise(seq):
            p *= stay if a == b else 1 - stay
        cells[tuple(Fraction(x) for x in seq)] = p
    weights = {"x1": Fraction(1), "x2": Fraction(1)}
    expected = eq2_grid((["x1", "x2", "x3"], cells), "x1", (), Fraction(1), weights)
    chain = MarkovChain(["0", "1"], 3, ["2/5", "3/5"], [["4/5", "1/5"], ["1/5", "4/5"]])
    named = leakage(chain, "x1", lam=1, query=LinearQuery(weights))
    zero = leakage(chain, "x1", lam=1, query=LinearQuery({**weights, "x3": Fraction(0)}))
    assert named.as_row(15)["value"] == zero.as_row(15)["value"]
    lo, hi = (mpmath.mpf(x) for x in named.as_row(15)["value"]["enclosure"])
    assert lo - mpmath.mpf(10) ** -14 <= expected <= hi + mpmath.mpf(10) ** -14

"""Eq. 9-13 edges, Lemma 3, and the chain rule on the paper's Tables (a)-(d)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from strategies import joint_tables, lambdas

from pdpsym.core.exp_polynomials import ExpPoly, LogRatio
from pdpsym.loss.adversary import compare_log_ratio_rational
from pdpsym.loss.table_leakage import table_leakage
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.joint import JointDistribution
from pdpsym.papers.li2019.correlation import lemma3_sides, lemma3_symbolic
from pdpsym.papers.li2019.edges import (
    TAILS,
    EdgeReading,
    impact,
    impact_set,
    increment_ratio,
    log_abs_sum,
    rational_log,
    theorem2_step,
)
from pdpsym.papers.li2019.examples import li2019_table
from pdpsym.papers.li2019.whg import BottomRule, whg_from_distribution

E = ExpPoly({Fraction(1): Fraction(1)})


def lr(num: dict, den: dict) -> LogRatio:
    return LogRatio(ExpPoly(num), ExpPoly(den))


@pytest.mark.parametrize(
    ("name", "top"),
    [
        # (a): 1 + ln((2 + 3e)/(3 + 2e)); (b): 1 + ln((3 + 2e)/(2 + 3e)); (c) 2; (d) 6
        ("a", lr({2: 3, 1: 2}, {0: 3, 1: 2})),
        ("b", lr({2: 2, 1: 3}, {0: 2, 1: 3})),
        ("c", rational_log(Fraction(2))),
        ("d", rational_log(Fraction(6))),
    ],
)
def test_tables_chain_equals_eq2_and_closed_form(name: str, top: LogRatio) -> None:
    g = whg_from_distribution(li2019_table(name), 1)
    node = g.nodes[("x1", frozenset())]
    assert node.chain is not None and node.exact is not None and node.exact.ok
    assert node.chain.exact_compare(top) == 0
    assert node.exact.value.exact_compare(top) == 0  # type: ignore[union-attr]


def test_example2_b_edge_is_negative_and_a_positive() -> None:
    q = LinearQuery.sum(["x1", "x2"])
    da = impact(li2019_table("a"), "x1", "x2", Fraction(1), Fraction(0), {}, Fraction(1), q)
    db = impact(li2019_table("b"), "x1", "x2", Fraction(1), Fraction(0), {}, Fraction(1), q)
    assert da is not None and db is not None
    assert da.sign() == 1 and db.sign() == -1


def test_left_reading_mirrors_right_on_symmetric_table() -> None:
    m, q = li2019_table("a"), LinearQuery.sum(["x1", "x2"])
    r = impact(m, "x1", "x2", Fraction(1), Fraction(0), {}, Fraction(1), q, EdgeReading.RIGHT)
    left = impact(m, "x1", "x2", Fraction(1), Fraction(0), {}, Fraction(1), q, EdgeReading.LEFT)
    assert r is not None and left is not None and r.exact_compare(left) == 0


def test_bottom_rule_eq2_leaves_no_value_without_compatible_pair() -> None:
    g = whg_from_distribution(li2019_table("c"), 1, bottom=BottomRule.EQ2)
    assert g.nodes[("x1", frozenset({"x2"}))].chain is None
    assert g.nodes[("x1", frozenset())].chain is None


def test_theorem2_step_picks_the_largest_absolute_value() -> None:
    m, q = li2019_table("b"), LinearQuery.sum(["x1", "x2"])
    W = impact_set(m, "x1", ("x2",), "x2", Fraction(1), q)
    step = theorem2_step(rational_log(Fraction(1)), W)
    assert step.value.exact_compare(log_abs_sum(rational_log(Fraction(1)), W[0].value)) == 0
    # with a tiny child value, |PL + w| for negative w flips sign
    small = theorem2_step(rational_log(Fraction(1, 100)), W)
    assert small.value.sign() == 1


def test_lemma3_symbolic_identity() -> None:
    assert lemma3_symbolic()


@given(joint_tables(max_n=2, max_domain=3), lambdas)
def test_increment_ratio_in_unit_interval(model: JointDistribution, lam: Fraction) -> None:
    q = LinearQuery.sum(model.variables)
    for reading in TAILS:
        for e in impact_set(model, "x1", ("x2",), "x2", lam, q, reading):
            r = increment_ratio(e.value, model, "x2", lam, q)
            assert r is not None
            assert r.compare(Fraction(1)) <= 0 and r.compare(Fraction(-1)) >= 0


@given(joint_tables(max_n=2, max_domain=3))
def test_lemma3_on_tables(model: JointDistribution) -> None:
    x1 = model.marginal(["x1"])
    if len(model.domain("x1")) != 2 or len(x1.probs) < 2:
        return
    rho, diff = lemma3_sides(model, "x1", "x2")
    assert rho == diff


@given(joint_tables(max_n=2, max_domain=2), lambdas)
def test_binary_pair_chain_is_the_right_tail_so_at_most_eq2(
    model: JointDistribution, lam: Fraction
) -> None:
    """n = 2, binary: the chain value is the r -> +inf limit, so it never exceeds Eq. 2."""
    g = whg_from_distribution(model, lam, bottom=BottomRule.THEOREM4)
    for target in ("x1", "x2"):
        node = g.nodes[(target, frozenset())]
        if node.exact is None or not node.exact.ok or node.chain is None:
            continue
        assert node.chain.exact_compare(node.exact.value) <= 0  # type: ignore[arg-type]


def test_eq2_bottom_of_table_a_is_one() -> None:
    res = table_leakage(li2019_table("a"), "x1", ["x2"], 1)
    assert res.value is not None and compare_log_ratio_rational(res.value, Fraction(1)) == 0


def test_theorem2_counterexample_independently() -> None:
    """The minimal counterexample of li2019.thm2: the sup of Eq. 2 sits at r = 0, not a tail."""
    m = JointDistribution.from_rows(["x1", "x2"], [[0, 0, "1/3"], [1, 0, "1/3"], [1, 1, "1/3"]])
    q = LinearQuery.sum(["x1", "x2"])
    child = table_leakage(m, "x2", ["x1"], 1)
    anc = table_leakage(m, "x2", [], 1)
    W = impact_set(m, "x2", ("x1",), "x1", Fraction(1), q)
    step = theorem2_step(child.value, W)  # type: ignore[arg-type]
    # Eq. 2 = ln((e + e^2)/2) attained at r = 0; the step gives ln(2e^2/(1+e))
    assert anc.value is not None
    assert anc.value.exact_compare(lr({1: 1, 2: 1}, {0: 2})) == 0
    assert step.value.exact_compare(lr({2: 2}, {0: 1, 1: 1})) == 0
    assert step.value.exact_compare(anc.value) < 0


def test_chain_can_exceed_eq2_on_three_tuples() -> None:
    """The other direction of li2019.thm5: on this 3-tuple table the chain value of the
    weakest adversary of x1 is 2 while Eq. 2 is about 1.60579."""
    m = JointDistribution.from_rows(
        ["x1", "x2", "x3"],
        [[0, 0, 0, "1/4"], [0, 1, 1, "1/4"], [1, 0, 1, "1/4"], [1, 1, 0, "1/8"], [1, 1, 1, "1/8"]],
    )
    g = whg_from_distribution(m, 1)
    node = g.nodes[("x1", frozenset())]
    assert node.chain is not None and node.exact is not None and node.exact.value is not None
    assert node.chain.exact_compare(rational_log(Fraction(2))) == 0
    assert node.chain.exact_compare(node.exact.value) > 0
    assert compare_log_ratio_rational(node.exact.value, Fraction(16057, 10000)) > 0
    assert compare_log_ratio_rational(node.exact.value, Fraction(16058, 10000)) < 0

"""The one entry point of Eq. 2 (pdpsym.loss.leakage.leakage) and its one result type.

Expected values: by hand (independent records leak 1/lam; Li et al.'s Example 5 with
rho = 1/2 leaks (1 + rho) Delta / lam = 3/2), and the Eq. 2 brute force of
tests/oracles/eq2_leakage.py (mpmath on a dense grid, no pdpsym engine) on the chain's full joint table.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from oracles.eq2_leakage import eq2_bruteforce

import pdpsym as ps
from pdpsym.core.errors import InputError
from pdpsym.loss.adversary import LeakageResult
from pdpsym.loss.base import exact_sign
from pdpsym.loss.gaussian import GaussianLeakage
from pdpsym.loss.leakage import eq2_loss, leakage
from pdpsym.loss.leakage_result import Leakage, TargetLeakage
from pdpsym.loss.table_leakage import table_leakage
from pdpsym.models.gaussian import GaussianModel
from pdpsym.models.joint import JointDistribution
from pdpsym.models.markov import MarkovChain
from pdpsym.models.product import ProductModel

ROW_KEYS = ["target", "known", "status", "value"]


def _chain() -> MarkovChain:
    return MarkovChain(["0", "1"], 4, ["1/2", "1/2"], [["3/4", "1/4"], ["1/3", "2/3"]])


def test_every_model_kind_gives_the_one_result_type_and_row_shape() -> None:
    table = JointDistribution.from_rows(["x1", "x2"], [[0, 0, "1/2"], [1, 1, "1/2"]])
    coins = ProductModel([(["0", "1"], ["1/2", "1/2"])] * 3)
    gauss = GaussianModel.build(["x1", "x2"], [0, 0], [[1, "1/2"], ["1/2", 1]], {"x1": [0, 1]})
    results = [leakage(table, "x1"), leakage(coins, "x1", lam=2), leakage(gauss, "x1")]
    kinds = [LeakageResult, TargetLeakage, GaussianLeakage]
    for res, kind in zip(results, kinds, strict=True):
        assert isinstance(res, Leakage) and isinstance(res, kind)
        row = res.as_row(10)
        assert list(row) == ROW_KEYS and row["status"] == "ok" and row["target"] == "x1"
    # by hand: x2 = x1 reveals x1, the sum moves by 2 -> 2/lam; coins: 1/lam; Example 5: 3/2
    assert [
        r.compare_rational(q) for r, q in zip(results, [2, Fraction(1, 2), Fraction(3, 2)])
    ] == [
        0,
        0,
        0,
    ]
    assert ps.leakage is leakage


def test_a_chain_through_the_entry_point_matches_the_brute_force_of_its_joint_table() -> None:
    chain = _chain()
    joint = chain.to_joint()
    for target, known in (("x2", ()), ("x1", ("x3",))):
        res = leakage(chain, target, known, lam=1, digits=12)
        assert res.known == known
        ref = eq2_bruteforce(joint, target, known, Fraction(1))
        lo, hi = res.value.lo, res.value.hi  # type: ignore[union-attr]
        assert float(lo) - 1e-12 <= ref <= float(hi) + 1e-12


def test_known_records_and_the_gaussian_weights_reach_their_engines() -> None:
    gauss = GaussianModel.build(["x1", "x2"], [0, 0], [[1, "1/2"], ["1/2", 1]], {"x1": [0, 1]})
    # by hand (Li et al. Example 5): the strongest adversary leaks Delta / lam = 1
    assert leakage(gauss, "x1", ["x2"]).compare_rational(Fraction(1)) == 0
    q = ps.LinearQuery({"x1": Fraction(2), "x2": Fraction(0)})
    # by hand: f = 2 x1, range [0, 1] -> 2 Delta / lam = 2
    assert leakage(gauss, "x1", (), 1, q).compare_rational(Fraction(2)) == 0


def test_bad_queries_are_refused_naming_the_field() -> None:
    coins = ProductModel([(["0", "1"], ["1/2", "1/2"])] * 2)
    with pytest.raises(InputError) as e:
        leakage(coins, "x1", query="mean")  # type: ignore[arg-type]
    assert e.value.field == "query"
    with pytest.raises(InputError) as e:
        leakage(coins, "x1", query=ps.LinearQuery({"x1": Fraction(1, 2), "x2": Fraction(1)}))
    assert e.value.field == "query"
    with pytest.raises(InputError) as e:
        leakage(coins, "x1", lam=0, query="histogram")
    assert e.value.field == "lam"


def test_eq2_as_a_privacy_loss_has_the_engines_value_as_its_epsilon_zero() -> None:
    """The engines are the reference here: the PrivacyLoss route (LaplacePair cases) must
    give the same exact value as the table engine's breakpoint search, and a value inside
    the chain engine's certified enclosure."""
    rows = [[0, 0, "3/10"], [0, 1, "1/5"], [1, 0, "1/5"], [1, 1, "3/10"]]
    table = JointDistribution.from_rows(["x1", "x2"], rows)
    for known in ((), ("x2",)):
        loss = eq2_loss(table, "x1", known, lam=1)
        ref = table_leakage(table, "x1", known, lam=1).require()
        v = loss.epsilon_zero().value
        same = ref.compare_rational(v) if isinstance(v, Fraction) else ref.exact_compare(v)
        assert same == 0
    # the curve: Eq. 2 at lam 1 is 1.18 (the doctest of table_leakage), so delta(1) > 0 and
    # delta(2) = 0 (Desfontaines et al. Lemma 1: delta vanishes from epsilon_zero on)
    assert exact_sign(eq2_loss(table, "x1", (), 1).delta(1).value, Fraction(0)) == 1
    assert exact_sign(eq2_loss(table, "x1", (), 1).delta(2).value, Fraction(0)) == 0
    chain = _chain()
    res = leakage(chain, "x2", ("x4",), lam=1, digits=12)
    v = eq2_loss(chain, "x2", ("x4",), lam=1).epsilon_zero().value
    assert res.compare_rational(Fraction(0)) == 1
    lo, hi = res.value.lo, res.value.hi  # type: ignore[union-attr]
    assert v.compare_rational(lo) >= 0 and v.compare_rational(hi) <= 0

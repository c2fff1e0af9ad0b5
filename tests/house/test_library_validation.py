"""Library input validation (no float where an exact number is needed, no malformed input accepted).

A mechanism table that is not a probability law, or a float epsilon, must be refused with
an InputError naming the Python parameter, never answered (a sub-probability row used
to give delta = 0) and never an AttributeError.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.loss.plrv import apkdp_delta, ppkdp_delta
from pdpsym.loss.table_leakage import table_leakage
from pdpsym.mechanisms.finite import table_mechanism
from pdpsym.models.joint import JointDistribution
from pdpsym.models.scenario import Scenario

F = Fraction


def _scenario() -> Scenario:
    # two independent fair bits, the second one known
    return Scenario.bernoulli([F(1, 2), F(1, 2)], known=[1])


@pytest.mark.parametrize(
    "row",
    [
        {0: F(1, 2)},  # sums to 1/2
        {0: F(1, 2), 1: F(2, 3)},  # sums to 7/6
        {0: F(3, 2), 1: F(-1, 2)},  # sums to 1 with a negative entry
    ],
)
def test_table_rows_must_be_probability_laws(row: dict[int, Fraction]) -> None:
    table = {(0, 0): {0: F(1)}, (0, 1): row, (1, 0): {0: F(1)}, (1, 1): {1: F(1)}}
    with pytest.raises(InputError) as err:
        table_mechanism(table)
    assert err.value.field == "table[(0, 1)]"


def test_a_callable_mechanism_that_is_not_a_law_is_refused() -> None:
    """Hand-made: M(D) = {D(0): 1/2} loses half its mass; before the check it gave a
    delta computed from sub-probabilities."""

    def half(d: tuple[int, ...]) -> dict[int, Fraction]:
        return {d[0]: F(1, 2)}

    for fn in (apkdp_delta, ppkdp_delta):
        with pytest.raises(InputError) as err:
            fn(_scenario(), half, Eps.log(2))
        assert err.value.field.startswith("mech[")


def test_float_eps_is_refused_naming_eps() -> None:
    def ident(d: tuple[int, ...]) -> dict[int, Fraction]:
        return {d[0]: F(1)}

    with pytest.raises(InputError) as err:
        apkdp_delta(_scenario(), ident, 0.5)  # type: ignore[arg-type]
    assert err.value.field == "eps"
    with pytest.raises(InputError) as err:
        Eps.of(0.1)  # type: ignore[arg-type]
    assert err.value.field == "eps"
    with pytest.raises(InputError):
        Eps.log(0)


def test_exact_eps_forms_agree() -> None:
    # hand: ln 1 = 0, and the two spellings of the same epsilon are one value
    assert Eps.of(0) == Eps.log(1) == Eps(exp_eps=1)
    assert Eps.of("1/2") == Eps(exponent=F(1, 2)) == Eps(eps=F(1, 2))
    assert Eps.log(2).exact_exp() == 2 and Eps.of(1).exact_exp() is None
    # a deterministic identity mechanism on a fair bit: delta at eps = ln 2 is 1
    # (hand: the output reveals D(0); APK = E[max(0, 1 - e^eps / inf)] = 1)

    def ident(d: tuple[int, ...]) -> dict[int, Fraction]:
        return {d[0]: F(1)}

    assert apkdp_delta(_scenario(), ident, Eps.log(2)).delta.rational() == 1


def test_library_errors_name_parameters_not_flags() -> None:
    m = JointDistribution.from_rows(["x1", "x2"], [["0", "0", "1/2"], ["1", "1", "1/2"]])
    cases = [
        (dict(target="x1", lam=0), "lam"),
        (dict(target="nope"), "target"),
        (dict(target="x1", known=["x1"]), "known"),
        (dict(target="x1", known=["x2", "x2"]), "known"),
    ]
    for kwargs, field in cases:
        with pytest.raises(InputError) as err:
            table_leakage(m, **kwargs)  # type: ignore[arg-type]
        assert err.value.field == field
        assert "--" not in str(err.value)


def test_float_eps_is_refused_by_every_delta() -> None:
    from pdpsym.loss.plrv import hockey_stick
    from pdpsym.mechanisms.counting import counting_delta_homogeneous
    from pdpsym.mechanisms.geometric import geometric_delta

    calls = [
        lambda: geometric_delta(F(1, 2), 0.5),
        lambda: hockey_stick({0: F(1)}, {1: F(1)}, 0.5),
        lambda: counting_delta_homogeneous(5, F(1, 3), 0.5),
    ]
    for call in calls:
        with pytest.raises(InputError) as err:
            call()  # type: ignore[arg-type]
        assert err.value.field == "eps"
    # hand (DMKB20 Definition 19): max(0, 1 - e^0 p)/(1 + p) = (1/2)/(3/2) at p = 1/2
    assert geometric_delta(F(1, 2), 0) == F(1, 3)


@pytest.mark.parametrize(
    "variables", ["ab", 12, 1.5, [], ["a", "a"], ["a", " "], ["a\nb"], ["\ud800"]]
)
def test_variables_must_be_a_list_of_distinct_names(variables: object) -> None:
    """Issue 10: "ab" was read as the variables a and b, 12 as "1" and "2"."""
    from pdpsym.models.gaussian import GaussianModel

    with pytest.raises(InputError) as err:
        JointDistribution.from_rows(variables, [])  # type: ignore[arg-type]
    assert err.value.field.startswith("variables")
    with pytest.raises(InputError):
        GaussianModel.build(variables, [], [])  # type: ignore[arg-type]


def test_gaussian_models_reject_unknown_keys_like_discrete_ones() -> None:
    from pdpsym.models.gaussian import GaussianModel

    obj = {"variables": ["x"], "mean": ["0"], "cov": [["1"]], "covariance": []}
    with pytest.raises(InputError) as err:
        GaussianModel.from_json_object(obj)
    assert err.value.field == "covariance"


def test_numbers_past_the_int_string_limit() -> None:
    """Issue 10: a 4,301-digit number raised Python's int-string ValueError. The strict
    grammar reads up to MAX_DIGITS digits exactly (hand: 10^4500 - 1 over 3 is
    333...3, 4500 threes) and refuses longer numbers by name."""
    from pdpsym.core.numbers import MAX_DIGITS, parse_rational

    q = parse_rational("9" * 4500 + "/3", "rows[0][2]")
    assert q == (10**4500 - 1) // 3
    assert parse_rational("0." + "0" * 4400 + "1", "p") == F(1, 10**4401)
    with pytest.raises(InputError) as err:
        parse_rational("1" * (MAX_DIGITS + 1), "rows[0][2]")
    assert err.value.field == "rows[0][2]"
    assert len(str(err.value)) < 100


def test_exact_text_of_huge_integers() -> None:
    import sys

    from pdpsym.core.numbers import fraction_str

    n = 3**30000  # 14,314 digits
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # the reference: Python's own conversion, unlimited
    try:
        want = str(n)
    finally:
        sys.set_int_max_str_digits(old)
    assert fraction_str(F(-n, 1)) == "-" + want
    assert fraction_str(F(1, n)) == "1/" + want


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"variables": ["a", "a"]}, "edges.variables"),
        ({"variables": ["a", " "]}, "edges.variables[1]"),
        ({"variables": ["a"]}, "edges.variables"),
    ],
)
def test_given_edges_names(extra: dict[str, object], field: str) -> None:
    """Issue 10: duplicate or blank names in a given-edges file were accepted."""
    from pdpsym.core.numbers import parse_rational
    from pdpsym.papers.li2019.whg import ArrayEdges

    obj = {"n": 2, "bottom": 1, "edges": [[["1/2", None]], [["1/3", None]]], **extra}
    with pytest.raises(InputError) as err:
        ArrayEdges.from_json_object(obj, parse_rational)
    assert err.value.field == field


def test_theorem4_refuses_a_negative_b_max() -> None:
    from pdpsym.papers.dmkb2020.thresholding import theorem4

    with pytest.raises(InputError) as err:
        theorem4(10, F(1, 10), 3, known_size=2, b_max=-1)
    assert err.value.field == "b_max"
    assert theorem4(10, F(1, 10), 3, known_size=2, b_max=0) is None  # hypothesis fails


def test_geometric_delta_refuses_negative_eps() -> None:
    # Hand derivation: for eps < 0 every output counts (at p = 1/2, eps = -1 the true
    # delta is 1 - e^-1), but the closed form keeps only the 1/p tail (it answered
    # 2/3 - e^-1/3); so a negative eps must be refused, not answered.
    from pdpsym.mechanisms.geometric import geometric_delta

    with pytest.raises(InputError) as err:
        geometric_delta(F(1, 2), Eps(-1))
    assert err.value.field == "eps"
    assert geometric_delta(F(1, 2), Eps(0)) == F(1, 3)  # 1/(1+p) - p/(1+p) by hand


def test_thresholding_probability_refuses_outputs_that_do_not_exist() -> None:
    # M_T releases ⊥ or a count in (T, n]; o = T used to read as ⊥ and o < T as another
    # output's mass (a negative index).
    from pdpsym.mechanisms.thresholding import BOT, Thresholding

    mech = Thresholding.homogeneous(6, F(1, 2), 3)
    total = sum(mech.exact_probability(o, 1) for o in mech.outputs())
    assert total == 1  # the outputs form a law
    for bad in (3, 2, 0, 7):
        with pytest.raises(InputError) as err:
            mech.exact_probability(bad, 1)
        assert err.value.field == "o"
    assert mech.exact_probability(BOT, 1) + mech.exact_probability(4, 1) <= 1


def test_kanonymity_refuses_a_value_against_itself() -> None:
    from pdpsym.loss.kanonymity_loss import KAnonymityLoss
    from pdpsym.mechanisms.kanonymity import kanon3_delta

    probs = {"a": F(1, 5), "b": F(1, 2), "⊥": F(3, 10)}
    with pytest.raises(InputError) as err:
        KAnonymityLoss.kanon3(5, probs, "a", "a", 1)
    assert err.value.field == "t2"
    with pytest.raises(InputError) as err:
        kanon3_delta(5, probs, "a", "a", 1, Eps(0))
    assert err.value.field == "t2"


def test_homogeneous_counting_refuses_degenerate_p() -> None:
    from pdpsym.mechanisms.counting import counting_delta_homogeneous

    for p in (F(0), F(1)):
        with pytest.raises(InputError) as err:
            counting_delta_homogeneous(5, p, Eps(0))
        assert err.value.field == "p"


def test_pmf_pair_epsilon_range_checks_delta() -> None:
    from pdpsym.loss.pmf_pair import PMFPair

    pair = PMFPair({0: F(3, 4), 1: F(1, 4)}, {0: F(1, 4), 1: F(3, 4)})
    for bad in (F(-1, 10), F(1)):
        with pytest.raises(InputError) as err:
            pair.epsilon(bad)
        assert err.value.field == "delta"
    # by hand: max ratio 3, so eps(0) = ln 3
    import sympy

    assert pair.epsilon(0).value == sympy.log(3)


def test_count_mechanism_refuses_a_database_of_the_wrong_length() -> None:
    from pdpsym.mechanisms.discrete import count

    with pytest.raises(InputError) as err:
        count([1, 2])((1, 0, 1))
    assert err.value.field == "weights"

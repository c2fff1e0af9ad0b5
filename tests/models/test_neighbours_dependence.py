"""Dependence sets, the dependence size L and the dependence coefficient rho_ij (Eq. 14)."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st
from strategies import joint_tables, product_tables

from pdpsym.core.compare import compare
from pdpsym.core.errors import InputError
from pdpsym.loss.laplace_mixture import laplace_mixture_sup
from pdpsym.models.joint import JointDistribution
from pdpsym.models.neighbours import (
    DependenceReading,
    dependence_sets,
    dependence_size,
    independent,
)
from pdpsym.papers.lmm2016.dependence import dependence_coefficient

XOR = JointDistribution.from_rows(
    ["a", "b", "c"], [[0, 0, 0, "1/4"], [0, 1, 1, "1/4"], [1, 0, 1, "1/4"], [1, 1, 0, "1/4"]]
)
SAME = JointDistribution.from_rows(["i", "j"], [["0", "0", "1/2"], ["1", "1", "1/2"]])
PARTIAL = JointDistribution.from_rows(
    ["i", "j"], [["0", "0", "1/3"], ["0", "1", "1/6"], ["1", "0", "1/6"], ["1", "1", "1/3"]]
)


def test_independence_is_exact():
    assert independent(XOR, ["a"], ["b"])
    assert independent(XOR, ["a"], ["c"])
    assert not independent(XOR, ["a"], ["b", "c"])
    assert not independent(SAME, ["i"], ["j"])


def test_dependence_sets_joint_and_pairwise_differ_on_xor():
    joint = dependence_sets(XOR, DependenceReading.JOINT)
    pair = dependence_sets(XOR, DependenceReading.PAIRWISE)
    assert joint == {"a": ("a", "b"), "b": ("a", "b"), "c": ("a", "c")}
    assert pair == {"a": ("a",), "b": ("b",), "c": ("c",)}
    assert dependence_size(XOR, DependenceReading.JOINT) == 2
    assert dependence_size(XOR, DependenceReading.PAIRWISE) == 1


@given(product_tables(min_n=2, max_n=3, max_domain=2))
def test_independent_tuples_have_size_one(theta):
    for reading in DependenceReading:
        assert dependence_size(theta, reading) == 1


@given(joint_tables(min_n=2, max_n=3, max_domain=2))
def test_joint_sets_make_the_rest_independent(theta):
    sets = dependence_sets(theta, DependenceReading.JOINT)
    for i, group in sets.items():
        assert i in group
        rest = [k for k in theta.variables if k not in group]
        assert independent(theta, [i], rest)
    # pairwise sets are never larger than needed by a pairwise test
    pair = dependence_sets(theta, DependenceReading.PAIRWISE)
    for i, group in pair.items():
        for k in theta.variables:
            if k not in group:
                assert independent(theta, [i], [k])


def test_rho_end_points_are_exact():
    assert dependence_coefficient(SAME, "i", "j", F(1)).compare_rational(F(1)) == 0
    ind = JointDistribution.product({"i": {"0": "1/2", "1": "1/2"}, "j": {"0": "1/4", "1": "3/4"}})
    assert dependence_coefficient(ind, "i", "j", F(3)).compare_rational(F(0)) == 0


def test_rho_known_value():
    rho = dependence_coefficient(PARTIAL, "i", "j", F(1))
    expected = sympy.log((1 + 2 * sympy.E) / (2 + sympy.E))
    assert compare(rho.sympy(), expected).sign == 0
    assert rho.witness["output"] in ("+inf", "-inf")


def test_rho_degenerate_is_zero():
    const = JointDistribution.from_rows(["i", "j"], [["0", "1", "1/2"], ["1", "1", "1/2"]])
    assert dependence_coefficient(const, "i", "j", F(1)).sympy() == 0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"i": "i", "j": "i", "sigma": F(1)},
        {"i": "i", "j": "j", "sigma": F(0)},
        {"i": "nope", "j": "j", "sigma": F(1)},
    ],
)
def test_rho_bad_input(kwargs):
    with pytest.raises(InputError):
        dependence_coefficient(PARTIAL, **kwargs)


sigmas = st.sampled_from([F(1, 3), F(1, 2), F(1), F(2), F(5, 2)])


@given(joint_tables(min_n=2, max_n=2, max_domain=3), sigmas)
def test_rho_lies_in_unit_interval(theta, sigma):
    i, j = theta.variables
    rho = dependence_coefficient(theta, i, j, sigma)
    assert rho.compare_rational(F(0)) >= 0
    assert rho.compare_rational(F(1)) <= 0


@given(joint_tables(min_n=2, max_n=2, max_domain=3), sigmas, st.fractions(-4, 6, max_denominator=7))
def test_per_output_rho_is_below_the_sup(theta, sigma, r):
    i, j = theta.variables
    sup = dependence_coefficient(theta, i, j, sigma)
    at = dependence_coefficient(theta, i, j, sigma, output=r)
    assert at.compare_rational(F(0)) >= 0
    if sup.ratio is not None and at.ratio is not None:
        assert at.ratio.exact_compare(sup.ratio) <= 0


def _float_log_mix(w, b, r):
    return math.log(sum(float(c) * math.exp(-abs(r - float(s)) / float(b)) for s, c in w.items()))


@given(
    st.dictionaries(st.integers(-3, 4), st.integers(1, 5), min_size=1, max_size=4),
    st.dictionaries(st.integers(-3, 4), st.integers(1, 5), min_size=1, max_size=4),
    sigmas,
)
def test_mixture_sup_against_a_dense_grid(a, b, scale):
    """Independent re-computation: no grid output beats the exact sup (floats, margin)."""
    w1 = {F(k): F(v, sum(a.values())) for k, v in a.items()}
    w2 = {F(k): F(v, sum(b.values())) for k, v in b.items()}
    lr, _ = laplace_mixture_sup(w1, w2, scale)
    exact = float(lr)
    grid = [x / 20 for x in range(-400, 400)]
    best = max(_float_log_mix(w1, scale, r) - _float_log_mix(w2, scale, r) for r in grid)
    assert best <= exact + 1e-9

    # the sup is attained: on the grid (which holds the support points) or in a tail
    def tail(w, sign):
        return math.log(
            sum(float(c) * math.exp(sign * float(s) / float(scale)) for s, c in w.items())
        )

    tails = [tail(w1, t) - tail(w2, t) for t in (1, -1)]
    assert abs(max([best, *tails]) - exact) < 1e-9

"""The mechanism interface (pdpsym.mechanisms.base): the audit asks a mechanism its kernel
or its report laws, never its class.

Expected values: by hand (randomized response's product form, Warner 1965; Laplace noise
on independent coins: dp's epsilon is the sensitivity over lam, Dwork and Roth Theorem
3.6), and the same audit run with the built-in mechanism (the engines are the reference
for a user-defined mechanism that declares the same kernel).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import pytest
import sympy

import pdpsym as ps
from pdpsym.core.errors import InputError
from pdpsym.mechanisms.base import QueryMechanism, ReportMechanism, SumMechanism
from pdpsym.mechanisms.discrete import randomized_response
from pdpsym.mechanisms.laplace import laplace
from pdpsym.mechanisms.sum_kernels import GeometricSum, LaplaceSum


@dataclass(frozen=True)
class HalvedGeometric(QueryMechanism):
    """A mechanism the package does not have: geometric noise of parameter 1/2."""

    weights: None = None

    def on_sum(self) -> SumMechanism:
        return GeometricSum(None, alpha=Fraction(1, 2))


def test_randomized_responses_report_laws_multiply_to_its_output_law() -> None:
    rr = randomized_response("3/4", [[0, 1, 2], [0, 1]])
    assert isinstance(rr, ReportMechanism) and rr.symmetric_keep() == Fraction(3, 4)
    # by hand: keep 3/4 on the value, the other 1/4 spread over the other values
    assert rr.report_law(0, 1) == {0: Fraction(1, 8), 1: Fraction(3, 4), 2: Fraction(1, 8)}
    for d in itertools.product([0, 1, 2], [0, 1]):
        out = rr(d)
        for o, p in out.items():
            assert p == rr.report_law(0, d[0])[o[0]] * rr.report_law(1, d[1])[o[1]]


def test_laplace_noise_is_a_query_mechanism_whose_kernel_is_laplace() -> None:
    noise = laplace("1/2", {"x1": 2})
    assert isinstance(noise, QueryMechanism)
    assert noise.on_sum() == LaplaceSum({"x1": Fraction(2)}, lam=Fraction(1, 2))


def test_a_user_defined_query_mechanism_is_audited_like_the_built_in_one() -> None:
    coins = ps.ProductModel([(["0", "1"], ["1/2", "1/2"])] * 3)
    mine = ps.audit(coins, HalvedGeometric(), "x1", notions=["dp", "apkdp"])
    built_in = ps.audit(coins, GeometricSum(alpha=Fraction(1, 2)), "x1", notions=["dp", "apkdp"])
    assert [r.epsilon for r in mine.results] == [r.epsilon for r in built_in.results]
    # by hand: a shift of 1 under geometric noise of parameter 1/2 costs ln 2
    assert sympy.simplify(mine.results[0].epsilon - sympy.log(2)) == 0


def test_a_joint_table_takes_only_a_laplace_kernel() -> None:
    table = ps.JointDistribution.from_rows(["x1", "x2"], [[0, 0, "1/2"], [1, 1, "1/2"]])
    # by hand: the sum's sensitivity to x1 is 1, so dp's epsilon is 1/lam = 2
    res = ps.audit(table, laplace("1/2"), "x1", notions=["dp"])
    assert sympy.simplify(res.results[0].epsilon - 2) == 0
    with pytest.raises(InputError) as e:
        ps.audit(table, HalvedGeometric(), "x1", notions=["dp"])
    assert e.value.field == "mechanism"

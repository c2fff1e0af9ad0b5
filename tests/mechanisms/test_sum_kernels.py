"""The kernels on the sum: one subclass per mechanism, each checking its parameters and
giving its output laws (expected values derived by hand in the comments)."""

from fractions import Fraction as F

import pytest

from pdpsym.core.errors import InputError
from pdpsym.mechanisms.base import SumMechanism
from pdpsym.mechanisms.finite import BOTTOM
from pdpsym.mechanisms.sum_kernels import (
    SUM_MECHANISMS,
    CountSum,
    GeometricSum,
    LaplaceSum,
    ThresholdSum,
)


def test_the_base_is_abstract_and_every_kernel_is_named_once():
    with pytest.raises(TypeError):
        SumMechanism()  # type: ignore[abstract]
    assert {k: c.kind for k, c in SUM_MECHANISMS.items()} == {
        "laplace": "laplace",
        "geometric": "geometric",
        "count": "count",
        "threshold": "threshold",
    }


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: LaplaceSum(None, F(0)), "lam"),
        (lambda: GeometricSum(None, F(1)), "alpha"),
        (lambda: ThresholdSum(None), "T"),
    ],
)
def test_each_kernel_refuses_its_own_bad_parameter(make, field):
    with pytest.raises(InputError) as err:
        make()
    assert err.value.field == field


def test_threshold_lumps_the_values_at_most_T_into_bottom():
    # hand: law {0: 1/4, 1: 1/2, 2: 1/4}, T = 1: 0 and 1 become ⊥ (1/4 + 1/2), 2 stays
    (out,) = ThresholdSum(None, T=F(1)).output_laws([{F(0): F(1, 4), F(1): F(1, 2), F(2): F(1, 4)}])
    assert out == {BOTTOM: F(3, 4), F(2): F(1, 4)}


def test_count_is_its_law_and_laplace_has_no_finite_outputs():
    law = {F(0): F(1, 3), F(1): F(2, 3)}
    assert CountSum().output_laws([law]) == [law]
    assert LaplaceSum(None, F(1)).output_laws([law]) is None
    assert (LaplaceSum(None, F(2)).lam, CountSum().lam, GeometricSum(alpha=F(1, 2)).alpha) == (
        F(2),
        None,
        F(1, 2),
    )


def test_geometric_point_mass_matches_the_two_sided_geometric_law():
    # hand: one centre s = 0, alpha = 1/2, outputs 0..0: P(0) = (1-a)/(1+a) = 1/3; each
    # tail sum_{k>=1} (1/3)(1/2)^k = 1/3, lumped as "<0" and ">0"
    (out,) = GeometricSum(alpha=F(1, 2)).output_laws([{F(0): F(1)}])
    assert out == {"<0": F(1, 3), F(0): F(1, 3), ">0": F(1, 3)}
    with pytest.raises(InputError) as err:
        GeometricSum(alpha=F(1, 2)).output_laws([{F(1, 2): F(1)}])
    assert err.value.field == "weights"

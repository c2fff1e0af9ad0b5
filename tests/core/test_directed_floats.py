"""Directed rounding of rationals to floats (pdpsym.core.numbers.float_below/above)."""

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from pdpsym.core.numbers import float_above, float_below


def test_one_third_by_hand():
    # float(1/3) = 6004799503160661 / 2^54 < 1/3 (hand: 3 * 6004799503160661 = 2^54 - 1)
    third = Fraction(1, 3)
    assert Fraction(float(third)) < third
    assert float_below(third) == float(third)
    assert Fraction(float_above(third)) > third
    assert float_below(Fraction(1, 2)) == float_above(Fraction(1, 2)) == 0.5  # exact


@given(st.fractions(min_value=-(10**6), max_value=10**6, max_denominator=10**12))
def test_floats_bracket_the_rational(q):
    assert Fraction(float_below(q)) <= q <= Fraction(float_above(q))

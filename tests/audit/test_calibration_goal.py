"""A calibration's goal: checked once for every engine (expected values by hand)."""

from fractions import Fraction
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

import pdpsym as ps
from pdpsym.audit.calibrate import calibrate
from pdpsym.audit.calibration import Goal
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import short_between


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [({"eps": F(0)}, "eps"), ({"eps": F(1), "mechanism": "gauss"}, "mechanism")],
)
def test_a_bad_goal_is_refused_naming_its_field(kwargs, field):
    with pytest.raises(InputError) as err:
        Goal(**kwargs)
    assert err.value.field == field


def test_targets_default_to_every_record_not_known_and_none_left_is_refused():
    goal = Goal(F(1), known=["x2"])
    assert goal.targets_of(["x1", "x2", "x3"]) == ["x1", "x3"]
    assert Goal(F(1), targets=["x3"]).targets == ("x3",)
    with pytest.raises(InputError) as err:
        Goal(F(1), known=["x1"]).targets_of(["x1"])
    assert err.value.field == "target"


def test_one_entry_for_both_queries():
    # hand: two independent fair coins; the sum moves by 1 per record (leakage 1/lam: eps
    # = 1 needs lam = 1), the histogram by 2 bins (2/lam: lam = 2)
    coins = ps.ProductModel([(["0", "1"], ["1/2", "1/2"])] * 2)
    s = calibrate(coins, F(1), baselines=False)
    h = calibrate(coins, F(1), query="histogram", baselines=False)
    assert s.lo <= 1 <= s.hi and h.lo <= 2 <= h.hi
    with pytest.raises(InputError) as err:
        calibrate(coins, F(1), query="mean")
    assert err.value.field == "query"
    with pytest.raises(InputError) as err:
        calibrate(coins, F(1), query="histogram", weights={"x1": 2})
    assert err.value.field == "weights"


def _first_short(mid: Fraction, lo: Fraction, hi: Fraction) -> Fraction:
    # the definition, written out: the first round(mid d)/d, d = 1, 2, 4, ..., strictly
    # inside (lo, hi) and within a quarter of the width of mid
    d = 1
    while True:
        q = Fraction(round(mid * d), d)
        if lo < q < hi and abs(q - mid) <= (hi - lo) / 4:
            return q
        d *= 2


@given(
    st.fractions(min_value=-(10**6), max_value=10**6),
    st.integers(0, 400),
    st.integers(1, 10**6),
)
def test_short_between_is_the_first_short_rational_inside(
    lo: Fraction, shift: int, span: int
) -> None:
    hi = lo + Fraction(span, 2**shift)
    mid = (lo + hi) / 2
    q = short_between(mid, lo, hi)
    assert lo < q < hi and abs(q - mid) <= (hi - lo) / 4
    if hi - lo >= Fraction(1, 2**200):
        assert q == _first_short(mid, lo, hi)

"""``halves``: the bisection step shared by the branch and bounds over a class's box."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from pdpsym.models.law_class import halves

F = Fraction


def test_halves_by_hand() -> None:
    # by hand: side 1 of [0,1] x [1/4,3/4] splits at 1/2, side 0 is untouched
    box = ((F(0), F(1)), (F(1, 4), F(3, 4)))
    lower, upper = halves(box, 1)
    assert lower == ((F(0), F(1)), (F(1, 4), F(1, 2)))
    assert upper == ((F(0), F(1)), (F(1, 2), F(3, 4)))


fractions = st.fractions(min_value=0, max_value=1, max_denominator=64)
intervals = st.tuples(fractions, fractions).map(lambda t: (min(t), max(t)))


@given(st.lists(intervals, min_size=1, max_size=4), st.data())
def test_halves_cover_the_box(box: list[tuple[Fraction, Fraction]], data: st.DataObject) -> None:
    # the halves meet at the midpoint of the split side, cover it, and keep every other side
    side = data.draw(st.integers(0, len(box) - 1))
    lower, upper = halves(tuple(box), side)
    a, b = box[side]
    assert lower[side][0] == a and upper[side][1] == b
    assert lower[side][1] == upper[side][0] == (a + b) / 2
    for j in range(len(box)):
        if j != side:
            assert lower[j] == upper[j] == box[j]

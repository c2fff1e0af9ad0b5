"""``core.poly.monomial``: ``coefficient * z^degree`` for an integer or a polynomial.

Source of the expected values: by hand, ``(1 + 2z) z^2 = z^2 + 2z^3`` and ``5 z^3``;
the property test compares with the coefficient list shifted in plain Python (zeros put
in front), not with the code under test.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pdpsym.core import poly


def test_monomial_by_hand() -> None:
    # by hand: (1 + 2z) z^2 = z^2 + 2 z^3; 5 z^3; p z^0 = p
    p = poly.from_coefficients([1, 2])
    assert poly.coefficients(poly.monomial(p, 2)) == [0, 0, 1, 2]
    assert poly.coefficients(poly.monomial(5, 3)) == [0, 0, 0, 5]
    assert poly.monomial(p, 0) == p
    with pytest.raises(ValueError):
        poly.monomial(p, -1)


@given(st.lists(st.integers(-(10**30), 10**30), max_size=8), st.integers(0, 12))
def test_monomial_shifts_the_coefficients(cs: list[int], degree: int) -> None:
    # plain Python: the list with `degree` zeros in front, trailing zeros dropped
    want = [0] * degree + cs
    while want and want[-1] == 0:
        want.pop()
    assert poly.coefficients(poly.monomial(poly.from_coefficients(cs), degree)) == want


@given(
    st.lists(
        st.tuples(
            st.one_of(st.none(), st.lists(st.integers(-(10**20), 10**20), max_size=6)),
            st.integers(-5, 5),
        ),
        max_size=5,
    )
)
def test_linear_combination_is_the_coefficientwise_sum(
    terms: list[tuple[list[int] | None, int]],
) -> None:
    # plain Python: sum c * p coefficient by coefficient, None terms left out
    width = max((len(p) for p, _ in terms if p is not None), default=0)
    want = [0] * width
    for p, c in terms:
        for j, a in enumerate(p or []):
            want[j] += c * a
    while want and want[-1] == 0:
        want.pop()
    polys = [(None if p is None else poly.from_coefficients(p), c) for p, c in terms]
    assert poly.coefficients(poly.linear_combination(polys)) == want

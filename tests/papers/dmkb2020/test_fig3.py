"""dmkb2020.fig3 against Theorem 3's numerical bound summed term by term in the test.

Source of the expected values: E_N[delta_N(eps)], N ~ Bin(n-1, 2 lambda), delta_N the
hockey stick of Bin(N, 1/2) + 1 against Bin(N, 1/2), from the definition in mpmath at 50
digits (tests/oracles/blanket.py); and delta(oo) = E[2^-N] = (1 - lambda)^(n-1) by hand
(only the output N + 1 has Q = 0).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from oracles.blanket import blanket

from pdpsym.papers.dmkb2020.figures_counting import fig3_row

pytestmark = pytest.mark.usefixtures("fifty_digits")


def test_epsilon_brackets_the_target() -> None:
    n, lam = 100, Fraction(2, 5)
    row = fig3_row(n, lam)
    target = mpmath.mpf(1) / (100 * n)
    lm = mpmath.mpf(2) / 5
    assert blanket(n, lm, mpmath.mpf(row["epsilon"])) <= target
    assert blanket(n, lm, mpmath.mpf(row["epsilon_below"])) > target
    assert Fraction(row["epsilon"]) - Fraction(row["epsilon_below"]) == Fraction(1, 10_000)


def test_no_eps_when_delta_at_infinity_is_above_the_target() -> None:
    # (1 - 1/20)^99 = 0.0062 > 1/10000
    row = fig3_row(100, Fraction(1, 20))
    assert row["epsilon"] == "" and "no eps" in row["reason"]
    lam = mpmath.mpf(1) / 20
    assert (1 - lam) ** 99 > mpmath.mpf(1) / 10_000
    assert blanket(100, lam, mpmath.mpf(40)) > mpmath.mpf(1) / 10_000

"""dmkb2020.fig6 against a brute-force sum written in the test.

Source of the expected values: the definition of the hockey-stick divergence
sum_o max(0, P(o) - e^eps Q(o)) with Q the law of X = Bin(N, 1/2) + G and P that of X + 1,
G two-sided geometric of Definition 19 (P[G = k] = (1-p)/(1+p) p^|k|, cut at |k| <= 200,
which leaves mass below 2 p^201 < 1e-60 for p = 1/2), averaged over N ~ Bin(n-1, 2 lambda)
term by term in mpmath at 50 digits (tests/oracles/blanket.py).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from oracles.blanket import blanket

from pdpsym.claims.figure import Scale, figures
from pdpsym.papers.dmkb2020.figures_noise import fig6_point

pytestmark = pytest.mark.usefixtures("fifty_digits")


def close(text: str, want: mpmath.mpf, digits: int = 12) -> bool:
    """The printed decimal agrees with the brute force to ``digits`` relative digits."""
    got = mpmath.mpf(text)
    return abs(got - want) <= abs(want) * mpmath.mpf(10) ** (-digits)


@pytest.mark.parametrize("p", [None, Fraction(1, 2)])
def test_points_match_a_brute_force_convolution(p: Fraction | None) -> None:
    n, eps_list = 30, (Fraction(1, 10), Fraction(1, 2))
    rows = fig6_point((n, p, eps_list))
    lam = mpmath.mpf(1) / 20
    pm = None if p is None else mpmath.mpf(p.numerator) / p.denominator
    for row, eps in zip(rows, eps_list, strict=True):
        want = blanket(n, lam, mpmath.mpf(eps.numerator) / eps.denominator, pm, 200 if pm else 0)
        assert row["digits"] == "15"
        assert close(row["delta"], want)
        assert mpmath.mpf(row["delta_upper"]) >= want


def test_delta_is_zero_once_the_noise_alone_is_eps_dp() -> None:
    # ln(4/3) = 0.2877 < 3/10: by hand, X(o-1) <= X(o)/p for X = Bin + G, so every term of
    # the hockey stick is <= 0; the brute force agrees to 1e-40
    (row,) = fig6_point((30, Fraction(3, 4), (Fraction(3, 10),)))
    assert row["delta"] == "0" and row["digits"] == "exact"
    got = blanket(30, mpmath.mpf(1) / 20, mpmath.mpf(3) / 10, mpmath.mpf(3) / 4, 400)
    assert got < mpmath.mpf(10) ** -40


def test_quick_scale_is_monotone_and_noise_helps() -> None:
    data = figures()["dmkb2020.fig6"].build(Scale.QUICK)
    by: dict[str, list[float]] = {}
    for r in data.rows:
        by.setdefault(r["noise"], []).append(float(r["delta_upper"]))
    for vals in by.values():
        assert vals == sorted(vals, reverse=True)
    for a, b in zip(by["none"], by["geometric p = 1/2"], strict=True):
        assert b <= a

"""dmkb2020.fig2 against computations written here.

Sources: the exact delta of the count from its definition (Poisson binomial of the other
records by the product rule, max over targets and both directions of the hockey stick);
Theorem 3's numerical bound as E_N[delta_N] summed term by term; Theorem 3's closed form
exp(-eps^2 lambda (n-1)/14) and Proposition 7 (delta_2 = 1.25 exp(-eps^2 n mu_2/2),
delta = 1.12 mu_3 (1 + e^eps)/(sqrt(n) mu_2^3) + delta_2) as printed in Section 4.1, with
mu_3 printed (p(1-p)|1-2p|) and corrected (p(1-p)(p^2+(1-p)^2)); all mpmath at 50 digits.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from oracles.blanket import blanket
from oracles.counting import counting_delta

from pdpsym.papers.dmkb2020.figures_counting import fig2_row

pytestmark = pytest.mark.usefixtures("fifty_digits")


def close(text: str, want: mpmath.mpf, digits: int = 12) -> bool:
    """The printed decimal agrees with the brute force to ``digits`` relative digits."""
    got = mpmath.mpf(text)
    return abs(got - want) <= abs(want) * mpmath.mpf(10) ** (-digits)


def _ps(case: int, n: int) -> list[mpmath.mpf]:
    lo = mpmath.mpf(1) / 20
    if case == 1:
        return [lo] + [mpmath.mpf(1) / 2] * (n - 1)
    return [lo + mpmath.mpf(9) / 10 * i / (n - 1) for i in range(n)]


def _prop7(ps: list[mpmath.mpf], eps: mpmath.mpf, printed: bool) -> mpmath.mpf:
    n = len(ps)
    mu2 = sum(p * (1 - p) for p in ps) / n
    if printed:
        mu3 = sum(p * (1 - p) * abs(1 - 2 * p) for p in ps) / n
    else:
        mu3 = sum(p * (1 - p) * (p**2 + (1 - p) ** 2) for p in ps) / n
    d2 = mpmath.mpf(5) / 4 * mpmath.exp(-(eps**2) * n * mu2 / 2)
    return mpmath.mpf(112) / 100 * mu3 / (mpmath.sqrt(n) * mu2**3) * (1 + mpmath.exp(eps)) + d2


@pytest.mark.parametrize(("case", "eps"), [(1, Fraction(1, 2)), (2, Fraction(1))])
def test_small_n_matches_the_definitions(case: int, eps: Fraction) -> None:
    n = 12
    e = mpmath.mpf(eps.numerator) / eps.denominator
    ps = _ps(case, n)
    row = fig2_row(case, n, eps)
    assert close(row["exact_delta"], counting_delta(ps, e))
    assert close(row["theorem3_numerical"], blanket(n, mpmath.mpf(1) / 20, e))
    assert close(row["prop7"], _prop7(ps, e, printed=False))
    assert close(row["prop7_printed"], _prop7(ps, e, printed=True))
    assert row["theorem3_closed"] == "" and "closed form" in row["reason"]


def test_closed_form_where_it_applies() -> None:
    # 27/(lambda (n-1)) = 0.5405... <= 3/4 <= 1 at n = 1000
    row = fig2_row(1, 1000, Fraction(3, 4))
    e, lam = mpmath.mpf(3) / 4, mpmath.mpf(1) / 20
    assert close(row["theorem3_closed"], mpmath.exp(-(e**2) * lam * 999 / 14))
    assert close(row["prop7_printed"], _prop7(_ps(1, 1000), e, printed=True))

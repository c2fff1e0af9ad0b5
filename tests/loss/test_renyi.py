"""Rényi's divergence (Mironov 2017, Definition 3) on its own: finite laws by hand and by a
brute force at 50 mpmath digits, two Laplace laws by quadrature, the sup over pairs."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import sympy
from hypothesis import given
from hypothesis import strategies as st

from pdpsym.loss.renyi import integer_moment, laplace_renyi, renyi_divergence, sup_renyi

laws = st.lists(st.integers(1, 5), min_size=3, max_size=3).map(
    lambda w: {o: F(x, sum(w)) for o, x in enumerate(w)}
)


def _brute(p: dict[int, F], q: dict[int, F], alpha: F) -> mpmath.mpf:
    """``1/(α-1) ln Σ_o P^α Q^(1-α)``, term by term at 50 digits."""
    a = mpmath.mpf(alpha.numerator) / alpha.denominator
    s = mpmath.fsum(
        mpmath.mpf(p[o].numerator)
        / p[o].denominator
        * (
            mpmath.mpf(q[o].numerator)
            / q[o].denominator
            / (mpmath.mpf(p[o].numerator) / p[o].denominator)
        )
        ** (1 - a)
        for o in p
    )
    return mpmath.log(s) / (a - 1)


def test_order_two_by_hand() -> None:
    # P = (1/2, 1/2), Q = (1/4, 3/4): Σ P^2 / Q = 1 + 1/3 = 4/3, D_2 = ln(4/3)
    p, q = {0: F(1, 2), 1: F(1, 2)}, {0: F(1, 4), 1: F(3, 4)}
    assert integer_moment(p, q, 2) == F(4, 3)
    assert renyi_divergence(p, q, F(2)) == sympy.log(sympy.Rational(4, 3))


def test_an_output_q_never_gives_is_infinite() -> None:
    assert renyi_divergence({0: F(1)}, {1: F(1)}, F(3, 2)) == sympy.oo
    assert integer_moment({0: F(1)}, {1: F(1)}, 2) is None


@given(laws, laws, st.sampled_from([F(3, 2), F(2), F(5, 2), F(4)]))
def test_finite_laws_match_a_brute_force(p: dict[int, F], q: dict[int, F], alpha: F) -> None:
    with mpmath.workdps(50):
        got = mpmath.mpf(sympy.N(renyi_divergence(p, q, alpha), 40))
        assert abs(got - _brute(p, q, alpha)) < mpmath.mpf(10) ** -35


def test_laplace_laws_match_a_quadrature() -> None:
    # two Laplace densities of scale 1 centred 0 and 1/2, α = 3/2, integrated numerically
    lam, shift, alpha = F(1), F(1, 2), F(3, 2)
    with mpmath.workdps(30):
        a = mpmath.mpf(3) / 2
        dens = lambda x, c: mpmath.exp(-abs(x - c)) / 2  # noqa: E731
        integral = mpmath.quad(
            lambda x: dens(x, 0) ** a * dens(x, 0.5) ** (1 - a), [-mpmath.inf, 0, 0.5, mpmath.inf]
        )
        want = mpmath.log(integral) / (a - 1)
        got = mpmath.mpf(sympy.N(laplace_renyi(shift, lam, alpha), 30))
        assert abs(got - want) < mpmath.mpf(10) ** -20
    assert laplace_renyi(F(0), lam, alpha) == 0


def test_sup_over_pairs_is_the_largest_and_names_its_pair() -> None:
    near = ({"b": 1}, {0: F(1, 2), 1: F(1, 2)}, {0: F(1, 3), 1: F(2, 3)})
    far = ({"b": 2}, {0: F(1, 2), 1: F(1, 2)}, {0: F(1, 4), 1: F(3, 4)})
    value, where = sup_renyi([near, far], F(2))
    assert (value, where) == (sympy.log(sympy.Rational(4, 3)), {"b": 2})
    assert sup_renyi([], F(2)) == (0, None)

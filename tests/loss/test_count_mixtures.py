"""Relative rounding of the forward/backward factors (core.poly.relative_floor) and the
mixture balls built from rounded factors: they must still enclose the exact mixture."""

from __future__ import annotations

from fractions import Fraction

import mpmath
from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.core import poly
from pdpsym.loss import count_mixtures

coeffs = st.lists(
    st.one_of(st.just(0), st.integers(min_value=1, max_value=2**400)), min_size=1, max_size=12
).filter(any)


@settings(max_examples=60, deadline=None)
@given(coeffs, st.integers(min_value=1, max_value=80))
def test_relative_floor_brackets_each_coefficient(cs: list[int], bits: int) -> None:
    # the law stated in the docstring, checked coefficient by coefficient with integers:
    # 2^s g_d <= f_d and f_d (1 - 2^-bits) < 2^s g_d, i.e. f_d 2^bits - f_d < 2^(s+bits) g_d
    g, s = poly.relative_floor(poly.from_coefficients(cs), bits)
    got = poly.coefficients(g)
    got += [0] * (len(cs) - len(got))
    for f_d, g_d in zip(cs, got, strict=True):
        assert (g_d << s) <= f_d
        if f_d:
            assert f_d * (2**bits) - f_d < (g_d << (s + bits))
        else:
            assert g_d == 0


@settings(max_examples=30, deadline=None)
@given(coeffs, coeffs, st.integers(min_value=1, max_value=4))
def test_mixture_from_rounded_factors_encloses_exact(a: list[int], b: list[int], r: int) -> None:
    # independent value: M(c) = sum_d J[d] e^{-r|c-d|} for the exact product J = A B,
    # evaluated with mpmath at 60 digits, then scaled like the balls (2^-(shift + s))
    n = len(a) + len(b) - 2
    exact_j = [0] * (n + 1)
    for i, x in enumerate(a):
        for k, y in enumerate(b):
            exact_j[i + k] += x * y
    bits = 30
    (ga, sa), (gb, sb) = (poly.relative_floor(poly.from_coefficients(v), bits) for v in (a, b))
    j = poly.product([ga, gb])
    k = int(sa > 0) + int(sb > 0)
    shift = poly.height_bits(j)
    balls = count_mixtures.mixture_values(j, n, Fraction(r), 128, shift, (k, bits))
    with mpmath.workdps(60):
        for c in range(n + 1):
            m = mpmath.fsum(
                mpmath.mpf(v) * mpmath.exp(-r * abs(c - d)) for d, v in enumerate(exact_j)
            ) * mpmath.mpf(2) ** (-(shift + sa + sb))
            lo, hi = poly.endpoints(balls[c])
            assert mpmath.mpf(lo.numerator) / lo.denominator <= m * (1 + mpmath.mpf(10) ** -40)
            assert m * (1 - mpmath.mpf(10) ** -40) <= mpmath.mpf(hi.numerator) / hi.denominator

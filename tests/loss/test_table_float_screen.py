"""The float screens of Eq. 2 on a joint table (loss/table_float_screen), each against what
it claims, computed here at 60 mpmath digits from the tables: the plain screen's floats
are the log-ratios; the huge-scale screen's first-order term is within its stated error of
``V / sigma``; the tiny-scale screen keeps exactly the candidates of the largest leading
exponent, and every candidate it drops is below every one it keeps."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from pdpsym.loss.table_float_screen import dominant_screen, plain_screen, small_scale_screen


@st.composite
def tables(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Two target values, one or two known configurations, up to three values of the
    unknowns' part, every ``P[a, k] > 0`` (compatible pairs), outputs on the support."""
    nk, ns = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    C = np.array(
        [[[draw(st.integers(0, 6)) for _ in range(ns)] for _ in range(nk)] for _ in range(2)],
        dtype=np.int64,
    )
    for a in range(2):
        for k in range(nk):
            if C[a, k].sum() == 0:
                C[a, k, 0] = 1
    base = np.array(
        [[draw(st.integers(0, 4)) for _ in range(nk)] for _ in range(2)], dtype=np.int64
    )
    S = np.array(
        sorted(set(draw(st.lists(st.integers(0, 5), min_size=ns, max_size=ns)))), dtype=np.int64
    )
    C = C[:, :, : len(S)]
    for a in range(2):
        for k in range(nk):
            if C[a, k].sum() == 0:
                C[a, k, 0] = 1
    R = np.unique((base[:, :, None] + S[None, None, :]).ravel())
    return C, base, S, R


def _log_ratio(C, base, S, R, sigma, a, b, k, r) -> mpmath.mpf:
    """``ln p(r | a, k) / p(r | b, k)`` from the definition (each a Laplace mixture)."""

    def cond(x: int) -> mpmath.mpf:
        tot = mpmath.fsum(
            int(C[x, k, s]) * mpmath.exp(-abs(int(R[r]) - int(base[x, k]) - int(S[s])) * sigma)
            for s in range(len(S))
        )
        return tot / int(C[x, k].sum())

    return mpmath.log(cond(a)) - mpmath.log(cond(b))


def _mp(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


@given(tables(), st.sampled_from([Fraction(1, 3), Fraction(1), Fraction(7, 2)]))
def test_plain_screen_floats_are_the_log_ratios(t, Dlam: Fraction) -> None:
    C, base, S, R = t
    out = plain_screen(C, base, S, R, Dlam, C.sum(axis=2))
    assert out is not None
    ratio, scale = out
    with mpmath.workdps(60):
        sigma = 1 / _mp(Dlam)
        for a, b, k, r in np.ndindex(ratio.shape):
            want = _log_ratio(C, base, S, R, sigma, a, b, k, r)
            assert abs(float(want) - ratio[a, b, k, r]) <= 1e-12 * (1 + scale)


@given(tables(), st.sampled_from([Fraction(10**10), Fraction(3 * 10**12), Fraction(10**15)]))
def test_small_scale_first_order_term_is_within_its_error(t, Dlam: Fraction) -> None:
    C, base, S, R = t
    out = small_scale_screen(C, base, S, R, Dlam, C.sum(axis=2))
    assert out is not None
    G, _d_max, error = out
    with mpmath.workdps(60):
        sigma = 1 / _mp(Dlam)
        for a, b, k, r in np.ndindex(G.shape):
            v = _log_ratio(C, base, S, R, sigma, a, b, k, r)
            # float rounding of G (a difference of means below 100) on top of the bound
            assert abs(v / sigma - G[a, b, k, r]) <= error * (1 + 1e-9) + 1e-12


@given(tables(), st.sampled_from([Fraction(1, 10**17), Fraction(1, 10**20)]))
def test_tiny_scale_keeps_the_largest_leading_exponent(t, Dlam: Fraction) -> None:
    C, base, S, R = t
    P = C.sum(axis=2)
    valid = np.ones((2, 2, C.shape[1], len(R)), dtype=bool)
    valid[0, 0] = valid[1, 1] = False  # a != b
    out = dominant_screen(C, base, S, R, Dlam, P, valid)
    assert out is not None
    top, (floats, _scale) = out
    assert top.any() and not (top & ~valid).any()
    with mpmath.workdps(60):
        sigma = 1 / _mp(Dlam)
        v = {i: _log_ratio(C, base, S, R, sigma, *i) for i in zip(*np.nonzero(valid))}
        kept = [x for i, x in v.items() if top[i]]
        dropped = [x for i, x in v.items() if not top[i]]
        if dropped:
            assert max(dropped) < min(kept)
        lead = max(round(x / sigma) for x in kept)  # the common leading exponent A
        for i, x in v.items():
            if top[i]:  # the floats rank B = V - A sigma by its dominant terms
                assert abs(float(x - lead * sigma) - floats[i]) <= 1e-12

"""The box bound of :mod:`pdpsym.loss.histogram_boxes` against a brute force written here (mpmath
at 50 digits over every integer point of random boxes, not the code under test), and the
branch and bound's enclosure against the same brute force over the whole grid."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
import numpy as np
from flint import arb, ctx
from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.loss import histogram_boxes

mpmath.mp.dps = 50


def _log_ratio_max(laws, y, rate):
    """max over ordered pairs a != b of ln G_a(y)/G_b(y), by the definition."""
    vals = []
    for counts, weights in laws:
        tot = sum(weights)
        vals.append(
            mpmath.fsum(
                mpmath.mpf(w) / tot * mpmath.exp(-rate * sum(abs(yj - nj) for yj, nj in zip(y, n)))
                for n, w in zip(counts.tolist(), weights)
            )
        )
    return max(mpmath.log(a / b) for i, a in enumerate(vals) for j, b in enumerate(vals) if i != j)


@st.composite
def _case(draw, max_T=5):
    """Two or three laws of count vectors (k states summing to T, valid by construction)
    and a box inside {0..T}^k."""
    k = draw(st.integers(2, 3))
    T = draw(st.integers(1, max_T))
    vectors = [v for v in itertools.product(range(T + 1), repeat=k) if sum(v) == T]
    laws = []
    for _ in range(draw(st.integers(2, 3))):
        support = draw(st.lists(st.sampled_from(vectors), min_size=1, max_size=6, unique=True))
        weights = draw(st.lists(st.integers(1, 50), min_size=len(support), max_size=len(support)))
        laws.append((np.array(support, dtype=np.int64), weights))
    lo, hi = [], []
    for _ in range(k):
        a, b = sorted(draw(st.lists(st.integers(0, T), min_size=2, max_size=2)))
        lo.append(a)
        hi.append(b)
    rate = F(draw(st.integers(1, 12)), draw(st.integers(1, 6)))
    return laws, lo, hi, rate


@settings(max_examples=40)
@given(_case())
def test_the_box_bound_is_above_every_point_of_the_box(case) -> None:
    laws, lo, hi, rate = case
    with ctx.workprec(128):
        q = (-arb(rate.numerator) / rate.denominator).exp()
        _, top = histogram_boxes.box_bound(laws, lo, hi, q)
        for y in itertools.product(*(range(a, b + 1) for a, b in zip(lo, hi))):
            brute = _log_ratio_max(laws, y, mpmath.mpf(rate.numerator) / rate.denominator)
            assert brute <= mpmath.mpf(top.numerator) / top.denominator
            if lo == hi:  # a one-point box: the bound is the value, enclosed
                p_lo, p_hi = histogram_boxes.box_bound(laws, y, y, q)
                assert mpmath.mpf(p_lo.numerator) / p_lo.denominator <= brute
                assert brute <= mpmath.mpf(p_hi.numerator) / p_hi.denominator


def test_a_box_bound_by_hand() -> None:
    # one state pair k = 2, T = 1: laws delta at (1, 0) and at (0, 1); the box [0,1]^2.
    # By hand: near = 0 for every n, far = 2, so the bound is ln 1 - ln q^2 = 2 rate;
    # at y = (1, 0) the ratio is q^0 / q^2: the bound is attained
    laws = [(np.array([[1, 0]]), [1]), (np.array([[0, 1]]), [1])]
    with ctx.workprec(128):
        q = (-arb(1) / 3).exp()
        lo, hi = histogram_boxes.box_bound(laws, [0, 0], [1, 1], q)
    assert lo <= F(2, 3) <= hi and hi - lo < F(1, 10**20)


@settings(max_examples=10)
@given(_case(max_T=3))
def test_branch_and_bound_encloses_the_grid_max(case) -> None:
    laws, _, _, rate = case
    k = laws[0][0].shape[1]
    T = int(laws[0][0][0].sum())
    r = mpmath.mpf(rate.numerator) / rate.denominator
    brute = max(
        _log_ratio_max(laws, y, r) for y in itertools.product(range(T + 1), repeat=k)
    )  # the grid lemma: the max over R^k is on the grid
    res = histogram_boxes.box_sup(laws, T, rate)
    assert res is not None
    lo, hi, boxes = res
    assert mpmath.mpf(lo.numerator) / lo.denominator <= brute + mpmath.mpf(10) ** -40
    assert brute <= mpmath.mpf(hi.numerator) / hi.denominator
    assert hi - lo < F(1, 10**20)
    assert boxes <= 2 * (T + 1) ** k

"""The complement in the float screen (:mod:`pdpsym.loss.histogram_complement`): the last
law's floats as the total's minus the others' with a proven error, and the screen's
mixtures left in another axis order. Expected values: a brute force written here (mpmath
mixtures at every grid point, Fraction laws), not the code under test; the axis order
against the natural mixture, float for float."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import pdpsym as ps
from pdpsym.loss import histogram_complement, histogram_grid, histogram_mixture
from pdpsym.loss.histogram import histogram_laws, histogram_leakage

mpmath.mp.dps = 50


def _g(counts, weights, y, rate):
    """sum_n w(n) e^{-rate |y - n|_1} / sum_n w(n), by mpmath (the definition)."""
    tot = sum(weights)
    r = mpmath.mpf(rate.numerator) / rate.denominator
    return mpmath.fsum(
        mpmath.mpf(w) / tot * mpmath.exp(-r * sum(abs(a - b) for a, b in zip(y, n, strict=True)))
        for n, w in zip(counts, weights, strict=True)
    )


@st.composite
def _complement_case(draw):
    """Two or three laws on one common scale and their pointwise total (valid by
    construction: non-negative integer weights on count vectors summing to T, each law
    with a positive total)."""
    k = draw(st.integers(2, 4))
    T = draw(st.integers(1, 4 if k < 4 else 3))
    vectors = [v for v in itertools.product(range(T + 1), repeat=k) if sum(v) == T]
    support = draw(st.lists(st.sampled_from(vectors), min_size=1, max_size=10, unique=True))
    n_laws = draw(st.integers(2, 3))
    table = []
    for _ in range(n_laws):
        w = draw(st.lists(st.integers(0, 10**6), min_size=len(support), max_size=len(support)))
        if not any(w):
            w[0] = 1
        table.append(w)
    rate = F(draw(st.integers(1, 60)), draw(st.integers(1, 8)))
    return support, table, T, k, rate


def _as_laws(support, table):
    laws = []
    for w in table:
        keep = [i for i, x in enumerate(w) if x]
        laws.append((np.array([support[i] for i in keep], dtype=np.int64), [w[i] for i in keep]))
    total = [sum(col) for col in zip(*table, strict=True)]
    return laws, (np.array(support, dtype=np.int64), total)


@settings(max_examples=60, deadline=None)
@given(_complement_case())
@example(([(0, 0, 3), (1, 1, 1), (3, 0, 0)], [[5, 1, 1], [1, 1, 7], [1, 9, 1]], 3, 3, F(1, 2)))
def test_the_complement_screen_bounds_hold_and_keep_the_best_point(case):
    support, table, T, k, rate = case
    laws, total_law = _as_laws(support, table)
    total = histogram_complement.Total(total_law)
    points, ubs, lb = histogram_grid.screen(laws, T, rate, complement=total)
    vals = {}
    for y in itertools.product(range(T + 1), repeat=k):
        gs = [_g(c.tolist(), w, y, rate) for c, w in laws]
        vals[y] = mpmath.log(max(gs) / min(gs))
    best = max(vals.values())
    kept = {tuple(p): u for p, u in zip(points.tolist(), ubs.tolist(), strict=True)}
    # LB is a lower bound of the max; each kept point's ub bounds its value; every point
    # dropped is below the best kept one and (but for the float log's margin) below LB
    assert mpmath.mpf(lb) <= best + mpmath.mpf(10) ** -30
    for y, u in kept.items():
        assert vals[y] <= mpmath.mpf(u)
    best_kept = max(vals[y] for y in kept)
    margin = mpmath.mpf(2) ** -39 * (1 + abs(mpmath.mpf(lb)))
    for y, v in vals.items():
        if y not in kept:
            assert v < best_kept
            assert v < mpmath.mpf(lb) + margin


@settings(max_examples=40, deadline=None)
@given(_complement_case())
def test_grid_sup_with_the_complement_encloses_the_brute_force(case):
    support, table, T, k, rate = case
    laws, total_law = _as_laws(support, table)
    total = histogram_complement.Total(total_law)
    lo, hi = histogram_grid.grid_sup(laws, T, rate, 20, complement=total)
    want = max(
        mpmath.log(max(gs) / min(gs))
        for y in itertools.product(range(T + 1), repeat=k)
        for gs in [[_g(c.tolist(), w, y, rate) for c, w in laws]]
    )
    tol = mpmath.mpf(10) ** -30
    assert mpmath.mpf(lo.numerator) / lo.denominator - tol <= want
    assert want <= mpmath.mpf(hi.numerator) / hi.denominator + tol


def test_the_screen_uses_the_complement_and_the_total_once():
    # a chain with no symmetry (3 states, 5 records): after the first target every
    # target's last law is the total minus the others; the screen takes the complement
    # path (one total grid, its balls cached by point) and the values enclose the brute
    # force of the definition (every grid point, mpmath)
    rows = [["3/5", "3/10", "1/10"], ["1/7", "5/7", "1/7"], ["2/9", "1/9", "2/3"]]
    chain = ps.MarkovChain(["a", "b", "c"], 5, ["1/3", "1/2", "1/6"], rows)
    names = [f"x{t}" for t in range(1, 6)]
    from pdpsym.loss import histogram  # the private generator's totals (a test only)

    seen = []
    for name, laws, kept in histogram._target_laws(chain, names, {}):
        seen.append(kept)
        if kept is None:
            continue
        law_list = list(laws.values())
        lo, hi = histogram_grid.grid_sup(law_list, 5, F(1, 2), 20, complement=kept)
        want = max(
            mpmath.log(max(gs) / min(gs))
            for y in itertools.product(range(6), repeat=3)
            for gs in [[_g(c.tolist(), w, y, F(1, 2)) for c, w in law_list]]
        )
        tol = mpmath.mpf(10) ** -30
        assert mpmath.mpf(lo.numerator) / lo.denominator - tol <= want, name
        assert want <= mpmath.mpf(hi.numerator) / hi.denominator + tol, name
        assert kept.uses >= 1  # the complement path, not the fallback
    assert seen[0] is None and all(t is not None for t in seen[1:])
    assert len({id(t) for t in seen[1:]}) == 1  # one total for every target


@pytest.mark.parametrize("k", [3, 4, 5])
def test_a_mixture_left_in_another_axis_order_is_the_same_floats(k):
    # natural=False skips the copies back: the array transposed by argsort(order) must be
    # the natural mixture, float for float (a copy is exact)
    T = 6 if k < 5 else 4
    vectors = np.array([v for v in itertools.product(range(T + 1), repeat=k) if sum(v) == T])
    weights = [(7 * i + 3) ** 5 % 1000 + 1 for i in range(len(vectors))]
    q = 0.8
    gap = histogram_mixture.clipped_gap(T, k)
    last = histogram_mixture.last_kernel(T, q, gap, None)
    a = [np.empty(last.shape) for _ in range(2)]
    b = [np.empty(last.shape) for _ in range(2)]
    _, nat, order_nat = histogram_mixture.mixture(vectors, weights, last, q, a)
    _, other, order = histogram_mixture.mixture(vectors, weights, last, q, b, natural=False)
    assert order_nat == list(range(k)) and nat is a[0]
    assert np.array_equal(other.transpose(np.argsort(order)), nat)
    pts = np.array([[1, 2, 3, 4, 0][:k]])
    back = histogram_mixture.natural_points(pts, order)
    assert other[tuple(pts[0])] == nat[tuple(back[0])]


def test_too_much_cancellation_falls_back_to_the_last_laws_own_mixture():
    # X = A c_1 r_max above 2^-20: no gamma_2 (the screen then computes the law itself)
    assert histogram_complement.complement_gamma(1e-3, 1e-12, 1e-12, 3, 1.0) is None
    A, B = histogram_complement.complement_terms(F(4), 1e-12, 0.0, 3)
    g2 = histogram_complement.complement_gamma(A, 1e-12, 1e-12, 3, 10.0)
    # by hand: A = 2 * 4 * (1e-12 + 5 u) (1 + 2^-40)^3, X = A c_1 (1 + 2^-39) 10
    assert g2 is not None and 8.0e-11 < g2 < 8.1e-11 and B == 0.0


def test_histogram_laws_unchanged_by_the_totals():
    # the public generator still yields (target, laws) pairs, the last law exact
    rows = [["1/2", "1/2", "0"], ["0", "1/3", "2/3"], ["3/4", "0", "1/4"]]
    chain = ps.MarkovChain(["a", "b", "c"], 5, ["1/3", "1/3", "1/3"], rows)
    got = list(histogram_laws(chain, ["x1", "x2", "x3"], {}))
    assert [len(item) for item in got] == [2, 2, 2]
    res = histogram_leakage(chain, ["x2"], [], F(1), digits=12)
    assert res[0].value is not None

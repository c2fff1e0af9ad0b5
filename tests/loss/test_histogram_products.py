"""The row-content lemma of :mod:`pdpsym.loss.histogram_products`: ``F B`` from the
smaller integers equals the plain product ``F B`` (FLINT's, exact) coefficient by
coefficient, on random one-matrix chains; and its sum check catches wrong row factors."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import pdpsym as ps
from pdpsym.core import poly
from pdpsym.loss import histogram_grid
from pdpsym.loss.histogram import simplex_codes
from pdpsym.loss.histogram_products import RowContents
from pdpsym.models.histogram_bins import coded_by_bin


@st.composite
def _rows(draw):
    """A k-state stochastic matrix of small fractions (valid by construction)."""
    k = draw(st.integers(2, 3))
    rows = []
    for _ in range(k):
        den = draw(st.sampled_from([2, 3, 4, 5, 6, 7, 9, 10, 12]))
        cuts = sorted(draw(st.lists(st.integers(0, den), min_size=k - 1, max_size=k - 1)))
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, den], strict=True)]
        rows.append([F(p, den) for p in parts])
    return rows


def _check(rows, T, known):
    k = len(rows)
    names = [chr(ord("a") + j) for j in range(k)]
    init = [F(1, k)] * k
    model = ps.MarkovChain(names, T, init, [[str(x) for x in r] for r in rows])
    shadow, code, _, _ = coded_by_bin(model)
    simplex = simplex_codes(k, T)
    counts = histogram_grid.decode_counts(simplex, k, T + 1, T)
    contents = RowContents(model.matrices[0], T, simplex, counts)
    kn = {n: list(code.values())[v] for n, v in known.items()}
    targets = [f"x{t}" for t in range(1, T + 1) if f"x{t}" not in known]
    for name, factors in shadow.target_factors(targets, kn):
        for a, pair in enumerate(factors.values()):
            fwd, bwd = pair
            # expected: the plain exact product (FLINT), read at the same codes
            want = poly.coefficients_at(poly.product([fwd, bwd]), simplex)
            got = contents.law(fwd, bwd, a, int(name[1:]))
            assert got.tolist() == want
    assert contents.fallbacks == 0  # the scaled path itself, not the plain fallback
    return contents


@settings(max_examples=30, deadline=None)
@given(_rows(), st.integers(1, 7))
def test_the_scaled_product_is_the_product(rows, T):
    _check(rows, T, {})


def test_active_on_rows_with_common_factors_and_with_a_known_record():
    # by hand: d = 20, rows (12, 4, 4), (2, 14, 4), (5, 5, 10): g = (4, 2, 5), L = 20
    rows = [
        [F(3, 5), F(1, 5), F(1, 5)],
        [F(1, 10), F(7, 10), F(1, 5)],
        [F(1, 4), F(1, 4), F(1, 2)],
    ]
    contents = _check(rows, 6, {"x3": 1})
    assert contents.g == [4, 2, 5] and contents.L == 20 and contents.active


def test_wrong_row_factors_are_caught_by_the_sum_check():
    rows = [[F(3, 5), F(2, 5)], [F(1, 10), F(9, 10)]]  # d = 10: rows (6, 4), (1, 9): g = (2, 1)
    T = 5
    model = ps.MarkovChain(["a", "b"], T, "stationary", [[str(x) for x in r] for r in rows])
    shadow, _, _, _ = coded_by_bin(model)
    simplex = simplex_codes(2, T)
    counts = histogram_grid.decode_counts(simplex, 2, T + 1, T)
    contents = RowContents(model.matrices[0], T, simplex, counts)
    assert contents.g == [2, 1]
    contents.g = [3, 1]  # not a factor of row 0: the floored divisions lose weight
    contents._pow = [np.array([g**e for e in range(T + 1)], dtype=object) for g in contents.g]
    contents._law_pow = contents._powers(counts)
    contents.L = 3
    for name, factors in shadow.target_factors(["x2", "x4"], {}):
        for a, (fwd, bwd) in enumerate(factors.values()):
            want = poly.coefficients_at(poly.product([fwd, bwd]), simplex)
            assert contents.law(fwd, bwd, a, int(name[1:])).tolist() == want
    assert contents.fallbacks > 0

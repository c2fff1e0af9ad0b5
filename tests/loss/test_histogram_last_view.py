"""The last axis's kernel as a view of a small table
(``pdpsym.loss.histogram_mixture.last_view``) against the kernel written here entry by
entry (``q^min(|y - (T - n_0 - ... - n_{k-2})|, 2T)`` by repeated products, the rounding
the screen's error bound counts), and against the grid-sized array it replaces."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.loss import histogram_grid, histogram_mixture


def _power(q: float, d: int) -> float:
    out = 1.0
    for _ in range(d):
        out *= q
    return out


@pytest.mark.parametrize(("k", "T"), [(2, 5), (3, 4), (4, 3), (5, 2), (3, 6)])
@pytest.mark.parametrize("q", [0.5, math.exp(-1 / 3), 1e-200])
def test_view_is_the_kernel(k, T, q):
    # expected: each entry written here by repeated products (bit for bit)
    view = histogram_mixture.last_view(T, k, q)
    assert view.shape == (T + 1,) * k and not view.flags.writeable
    for point in itertools.product(range(T + 1), repeat=k):
        d = min(abs(point[-1] - (T - sum(point[:-1]))), 2 * T)
        assert view[point] == _power(q, d), point
    full = histogram_mixture.last_kernel(T, q, histogram_mixture.clipped_gap(T, k), None)
    assert np.array_equal(view, full)


def test_workspace_holds_no_grid_sized_kernel():
    ws = histogram_grid.Workspace()
    last, arrays = ws.get(20, 4, 0.7, 2)
    assert last.shape == (21,) * 4 and len(arrays) == 2
    bounds = getattr(np.lib, "array_utils", np).byte_bounds(last)
    assert bounds[1] - bounds[0] < 21**4 * 8 // 10  # the memory of a small table


def test_a_wrong_entry_is_seen():
    # the check can fail: one entry of the kernel changed differs from the loop's
    view = np.array(histogram_mixture.last_view(3, 3, 0.5))
    view[1, 1, 0] *= 1 + 2**-52
    assert view[1, 1, 0] != _power(0.5, min(abs(0 - (3 - 2)), 6))


@settings(max_examples=40, deadline=None)
@given(
    k=st.integers(2, 5),
    T=st.integers(1, 6),
    q=st.floats(1e-300, 0.999, allow_nan=False),
    data=st.data(),
)
def test_random_entries_of_the_view(k, T, q, data):
    # expected: random entries against the loop written here (bit for bit)
    view = histogram_mixture.last_view(T, k, q)
    for _ in range(5):
        point = tuple(data.draw(st.integers(0, T)) for _ in range(k))
        d = min(abs(point[-1] - (T - sum(point[:-1]))), 2 * T)
        assert view[point] == _power(q, d), point

"""The float mixtures of the histogram's float screen: each law's ``G(y) = sum_n p(n)
q^{|y - n|_1}`` on the grid ``{0..T}^k`` by first-order recurrences, their envelope, and
the screen in logs for kernels outside float range.

The error analysis (Higham's Lemma 3.1 for sums of products of non-negative numbers, the
absolute ``slack`` of underflow) is in :mod:`pdpsym.loss.histogram_grid`'s docstring; the
complement's (one law as the total minus the others) in
:mod:`pdpsym.loss.histogram_complement`. A mixture may be left with its axes in another
order (``natural=False``): the same floats, one transposed copy fewer; every grid of one
screen is then in that order, so the pointwise max, min and ratios are unchanged and only
the points' coordinates are read back through it (:func:`natural_points`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

#: probabilities below ``2^-DROP_BITS`` of their law's largest are not stored
DROP_BITS = 1000
_U = 2.0**-53

#: one law: (the count vectors of its support, shape (m, k); their exact integer weights)
Law = tuple[np.ndarray, Sequence[int]]


def mixture(
    counts: np.ndarray,
    weights: Sequence[int],
    last: np.ndarray,
    q: float,
    bufs: list,
    natural: bool = True,
    heads: list | None = None,
    total: int | None = None,
) -> tuple[float, np.ndarray, list[int]]:
    """The float mixture ``G`` of the normalized law on the grid.

    ``last`` is the kernel of the last axis (:func:`last_kernel`): the last count is ``T``
    minus the others, so the last axis needs no recurrence; every other axis takes the two
    recurrences of :func:`filter_axis`, an inner axis run as the outer one of a transposed
    copy (contiguous slices).

    Args:
        counts: the law's support, int ``(m, k)``.
        weights: its exact non-negative integer weights.
        last: the last axis's kernel.
        q: the kernel's ratio.
        bufs: two grid-shaped float arrays (the result goes to one, the other is scratch).
        natural: copy the result back to the grid's own axis order in ``bufs[0]``; False:
            leave it where the last filter put it, its axes in the order returned (the
            same floats: a copy is exact).
        heads: when given, the law's float probabilities on the grid of the first ``k -
            1`` counts (:func:`head_of`) are appended to it.
        total: the sum of ``weights`` when known (None: summed here).

    Returns:
        ``(eta_in, grid, order)``: the relative error of the input probabilities, the array
        holding ``G``, and the grid axis of each of its axes (``G_natural = grid.transpose(
        argsort(order))``).

    References:
        Higham (2002), Section 3.1, Lemma 3.1 (sums of products of non-negative numbers);
        the module docstring of :mod:`pdpsym.loss.histogram_grid`.
    """
    k = counts.shape[1]
    head, eta_in = head_of(counts, weights, last.shape[:-1], total)
    if heads is not None:
        heads.append(head)
    grid, right = bufs
    np.multiply(head[..., None], last, out=grid)
    filter_axis(grid, right, q, 0)
    order = list(range(k))
    for axis in range(1, k - 1):
        if natural:
            swap = [axis, *range(1, axis), 0, *range(axis + 1, k)]
            np.copyto(right, grid.transpose(swap))
            filter_axis(right, grid, q, 0)
            np.copyto(grid, right.transpose(swap))
            continue
        # the transposed copy is kept: its axes' order changes instead
        pos = order.index(axis)
        swap = [pos, *range(1, pos), 0, *range(pos + 1, k)]
        np.copyto(right, grid.transpose(swap))
        filter_axis(right, grid, q, 0)
        order = [order[s] for s in swap]
        grid, right = right, grid
    return eta_in, grid, order


def head_of(
    counts: np.ndarray, weights: Sequence[int], shape: tuple[int, ...], total: int | None = None
) -> tuple[np.ndarray, float]:
    """The law's float probabilities at its first ``k - 1`` counts (the last is ``T`` minus
    them), each ``2^{log2 w - log2 W}`` from the exact integers; below ``2^-DROP_BITS`` not
    stored.

    Args:
        counts: the support, int ``(m, k)``.
        weights: its exact non-negative integer weights.
        shape: ``(T + 1,) * (k - 1)``.
        total: the sum of ``weights`` when known (None: summed here).

    Returns:
        ``(head, eta_in)``: the float array and the relative error of its entries,
        ``(4 B + 2) u`` for ``B`` the bit length of the total.

    References:
        The module docstring of :mod:`pdpsym.loss.histogram_grid` (the input error).
    """
    k = counts.shape[1]
    total = sum(weights) if total is None else total
    lt = math.log2(total)
    logs = _log2s(weights, lt)
    bits = total.bit_length()  # the weights are >= 0: none is longer than their sum
    keep = logs > -DROP_BITS
    head = np.zeros(shape)
    head[tuple(counts[keep, : k - 1].T)] = np.exp2(logs[keep])
    return head, (4 * bits + 2) * _U


def point_values(
    heads: Sequence[np.ndarray], T: int, q: float, points: np.ndarray
) -> tuple[np.ndarray, int]:
    """``G(y) = sum_n p(n) q^{|y - n|_1}`` of each law at a few grid points, from the laws'
    heads (:func:`head_of`): each term one product with ``q^d`` (``d`` roundings by
    repeated products), summed by NumPy (any order of non-negative terms errs by at most
    ``(m - 1) u`` relative, ``m`` the terms: Higham (2002), Section 4.2).

    Args:
        heads: the laws' float probabilities at their first ``k - 1`` counts.
        T: the number of records.
        q: the kernel's ratio.
        points: int ``(c, k)`` grid points.

    Returns:
        ``(values, m)``: the float values, shape ``(len(heads), c)``, and the terms of
        each sum (the counts where some law is positive).

    References:
        Higham (2002), Sections 3.1 and 4.2 (sums of non-negative terms).
    """
    k = points.shape[1]
    nz = np.nonzero(np.logical_or.reduce([h > 0 for h in heads]))
    n = np.stack([*nz, T - np.sum(nz, axis=0)], axis=1)
    vals = [h[nz] for h in heads]
    powers = np.empty(k * T + 1)
    powers[0] = 1.0
    for d in range(1, k * T + 1):
        powers[d] = powers[d - 1] * q
    out = np.empty((len(heads), len(points)))
    for i, y in enumerate(points):
        kernel = powers[np.abs(n - y).sum(axis=1)]
        for j, v in enumerate(vals):
            out[j, i] = float(np.sum(v * kernel))
    return out, len(n)


def _log2s(weights: Sequence[int], lt: float) -> np.ndarray:
    """``log2(w) - lt`` for each weight (``-inf`` for 0), each ``log2`` the one of the exact
    integer (``math.log2``), as a float array."""
    try:
        logs = np.fromiter(map(math.log2, weights), dtype=float, count=len(weights))
    except ValueError:  # a zero weight
        return np.array([math.log2(w) - lt if w else -math.inf for w in weights])
    logs -= lt
    return logs


def last_kernel(T: int, q: float, gap: np.ndarray, out: np.ndarray | None) -> np.ndarray:
    """``q^{|y_{k-1} - (T - n_0 - ... - n_{k-2})|}`` on the grid (the powers of ``q`` by
    repeated products, ``d`` roundings for ``q^d``), from :func:`clipped_gap`.

    Args:
        T: the number of records.
        q: the kernel's ratio.
        gap: :func:`clipped_gap`'s array.
        out: an array of the grid's shape to fill, or None (a new one).

    Returns:
        The kernel of the last axis on the grid.

    References:
        Higham (2002), Section 3.1 (``d`` roundings in ``q^d`` by repeated products).
    """
    powers = np.empty(2 * T + 1)
    powers[0] = 1.0
    for d in range(1, 2 * T + 1):
        powers[d] = powers[d - 1] * q
    return np.take(powers, gap, out=out)


def last_view(T: int, k: int, q: float) -> np.ndarray:
    """:func:`last_kernel` as a read-only view of a small table: its value at ``(n_0, ...,
    n_{k-2}, y)`` depends on ``s = n_0 + ... + n_{k-2}`` and ``y`` only, so a table
    ``K[s, y]`` of ``((k - 1) T + 1) (T + 1)`` floats read with the same stride along
    every count axis gives every entry (the same floats: the same powers of ``q`` at the
    same clipped distances), without a grid-sized array.

    Args:
        T: the number of records.
        k: the number of bins (``>= 2``).
        q: the kernel's ratio.

    Returns:
        A read-only array view of shape ``(T + 1,) * k``.

    References:
        NumPy's ``lib.stride_tricks.as_strided`` (a view with repeated strides); the module
        docstring of :mod:`pdpsym.loss.histogram_grid` (the last count is ``T`` minus the
        others).

    Examples:
        >>> v = last_view(3, 3, 0.5)
        >>> bool((v == last_kernel(3, 0.5, clipped_gap(3, 3), None)).all())
        True
    """
    powers = np.empty(2 * T + 1)
    powers[0] = 1.0
    for d in range(1, 2 * T + 1):
        powers[d] = powers[d - 1] * q
    rest = T - np.arange((k - 1) * T + 1)
    gap = np.minimum(np.abs(np.arange(T + 1) - rest[:, None]), 2 * T)
    table = np.ascontiguousarray(powers[gap])
    strides = (table.strides[0],) * (k - 1) + (table.strides[1],)
    return np.lib.stride_tricks.as_strided(table, (T + 1,) * k, strides, writeable=False)


def clipped_gap(T: int, k: int) -> np.ndarray:
    """``min(|y_{k-1} - (T - n_0 - ... - n_{k-2})|, 2 T)`` on the grid (small ints; beyond
    ``2 T`` the head is zero: those cells have more than ``T`` records).

    Args:
        T: the number of records.
        k: the number of bins.

    Returns:
        The clipped distances, an int array of shape ``(T + 1,) * k``.

    References:
        The module docstring of :mod:`pdpsym.loss.histogram_grid` (the last count is ``T``
        minus the others).
    """
    rest = T - np.indices((T + 1,) * (k - 1)).sum(axis=0)
    gap = np.abs(np.arange(T + 1) - rest[..., None])
    return np.minimum(gap, 2 * T).astype(np.uint16 if 2 * T < 2**16 else np.int64)


def _rows(grid: np.ndarray, scratch: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
    """``grid`` as ``(before, axis, after)`` rows, and ``scratch`` so shaped holding a copy
    of it (both views: writes go to the arrays)."""
    shape = grid.shape
    rows = math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1 :])
    v = grid.reshape(rows)
    right = scratch.reshape(rows)
    np.copyto(right, v)
    return v, right


def filter_axis(grid: np.ndarray, scratch: np.ndarray, q: float, axis: int) -> None:
    """``G[y] = sum_n g[n] q^{|y - n|}`` along ``axis`` (``axis < k - 1``), in place:
    ``R[y] = q (g[y+1] + R[y+1])`` (``R = 0`` at the end) into ``scratch``, then ``L[y] =
    g[y] + q L[y-1]`` in place and ``G = L + R`` (non-negative terms; a term meets at most
    ``2 T + 1`` roundings on an axis; the later axes are contiguous blocks).

    Args:
        grid: the values ``g``, overwritten by ``G``.
        scratch: an array of the same shape (overwritten).
        q: the kernel's ratio.
        axis: the axis filtered.

    Returns:
        None (``grid`` holds the result).

    References:
        Higham (2002), Section 3.1, Lemma 3.1 (sums of products of non-negative numbers).
    """
    shape = grid.shape
    rows = math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1 :])
    v = grid.reshape(rows)
    right = scratch.reshape(rows)
    n = v.shape[1]
    right[:, n - 1, :] = 0.0
    for y in range(n - 2, -1, -1):
        np.add(v[:, y + 1, :], right[:, y + 1, :], out=right[:, y, :])
        right[:, y, :] *= q
    tmp = np.empty_like(v[:, 0, :])
    for y in range(1, n):
        np.multiply(v[:, y - 1, :], q, out=tmp)
        v[:, y, :] += tmp
    v += right


def _gap(T: int, k: int) -> np.ndarray:
    """``|y_{k-1} - (T - n_0 - ... - n_{k-2})|`` on the grid (ints)."""
    rest = T - np.indices((T + 1,) * (k - 1)).sum(axis=0)
    return np.abs(np.arange(T + 1) - rest[..., None])


def _log_filter(grid: np.ndarray, scratch: np.ndarray, lq: float, axis: int) -> None:
    """:func:`filter_axis` in logs: ``L[y] = logaddexp(g[y], L[y-1] + ln q)`` and so on."""
    v, right = _rows(grid, scratch, axis)
    n = v.shape[1]
    for y in range(1, n):
        np.logaddexp(v[:, y, :], v[:, y - 1, :] + lq, out=v[:, y, :])
    for y in range(n - 2, -1, -1):
        np.logaddexp(right[:, y, :], right[:, y + 1, :] + lq, out=right[:, y, :])
    np.logaddexp(v[:, :-1, :], right[:, 1:, :] + lq, out=v[:, :-1, :])


def envelope(top: np.ndarray, low: np.ndarray, values: np.ndarray, first: bool) -> None:
    """``top``, ``low`` := the pointwise max and min of the grids so far and ``values``
    (the first grid starts them).

    Args:
        top: the running max (overwritten).
        low: the running min (overwritten).
        values: the next grid.
        first: whether ``values`` is the first grid.

    Returns:
        None (``top`` and ``low`` hold the result; max and min are exact operations).

    References:
        IEEE 754-2019, Section 9.6 (maxNum and minNum are exact).
    """
    if first:
        np.copyto(top, values)
        np.copyto(low, values)
        return
    np.maximum(top, values, out=top)
    np.minimum(low, values, out=low)


def log_screen(
    laws: Sequence[Law], T: int, lq: float, arrays: list[np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """``(lb, ub)`` of the log of the max ratio at every grid point, in logs throughout
    (for kernels whose powers leave float range; the error analysis is in the module
    docstring of :mod:`pdpsym.loss.histogram_grid`).

    Args:
        laws: the laws (their supports and exact integer weights).
        T: the number of records.
        lq: ``ln q``.
        arrays: four grid-shaped float arrays (overwritten).

    Returns:
        ``(lb, ub)``, float arrays of the grid's shape.

    References:
        Higham (2002), Section 3.1; the screen in logs of
        :mod:`pdpsym.loss.histogram_grid`.
    """
    k = laws[0][0].shape[1]
    gap = _gap(T, k)
    grid, scratch, top, low = arrays
    err = 0.0
    with np.errstate(divide="ignore"):
        for j, (counts, weights) in enumerate(laws):
            total = sum(weights)
            lt = math.log2(total)
            logs = np.array([math.log2(w) - lt if w else -math.inf for w in weights])
            bits = max(max(w.bit_length() for w in weights), total.bit_length())
            head = np.full(gap.shape[:-1], -math.inf)
            head[tuple(counts[:, : k - 1].T)] = logs * math.log(2)
            np.multiply(gap, lq, out=grid)
            grid += head[..., None]
            for axis in range(k - 1):
                _log_filter(grid, scratch, lq, axis)
            size = float(np.abs(grid).max())
            steps = k * (2 * T + 3) + 2
            err = max(err, 2 * (3 * _U * (1 + size) * steps + (4 * bits + 2) * _U))
            envelope(top, low, grid, first=j == 0)
    diff = np.subtract(top, low, out=grid)
    margin = 2 * err + 2.0**-40 * (1 + float(np.abs(diff).max()))
    return diff - margin, diff + margin


def natural_points(points: np.ndarray, order: Sequence[int]) -> np.ndarray:
    """Grid points read in a mixture's axis order (:func:`mixture`), in the grid's own.

    Args:
        points: int ``(m, k)``, coordinate ``j`` along grid axis ``order[j]``.
        order: the grid axis of each array axis.

    Returns:
        The points with coordinate ``i`` along grid axis ``i``.

    References:
        NumPy's ``transpose`` (an axis permutation is a relabelling of coordinates).

    Examples:
        >>> natural_points(np.array([[1, 2, 3]]), [1, 0, 2]).tolist()
        [[2, 1, 3]]
    """
    out = np.empty_like(points)
    out[:, list(order)] = points
    return out


__all__ = [
    "DROP_BITS",
    "clipped_gap",
    "envelope",
    "filter_axis",
    "last_kernel",
    "last_view",
    "log_screen",
    "mixture",
    "head_of",
    "natural_points",
    "point_values",
]

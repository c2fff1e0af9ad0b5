"""A branch and bound over boxes of the histogram's output grid (Eq. 2, noise on every bin).

The setting is :mod:`pdpsym.loss.histogram_grid`'s: ``G(y) = sum_n p(n) q^{|y - n|_1}`` for
each conditional law ``p`` of the count vector ``n`` (``sum_j n_j = T``), ``0 < q < 1``,
and Eq. 2 is the max over ordered pairs ``a != b`` and over the integer grid ``y in
{0..T}^k`` of ``ln G_a(y) / G_b(y)`` (the grid lemma of that module).

**The box bound.** Let ``B = prod_j [l_j, h_j]`` be a box (real ``y`` or integer). For
``y_j`` in ``[l_j, h_j]`` the distance ``|y_j - n_j|`` is at least ``near_j(n) =
max(0, l_j - n_j, n_j - h_j)`` (the distance from ``n_j`` to the interval) and at most
``far_j(n) = max(n_j - l_j, h_j - n_j)`` (its farther end), and ``x -> q^x`` decreases, so
``q^{far_j(n)} <= q^{|y_j - n_j|} <= q^{near_j(n)}`` (the per-coordinate kernel factor is
monotone on each side of ``n_j``, so its extremes over an interval are at the interval's
corners or at ``n_j`` itself). Multiplying the ``k`` non-negative factors and summing
with the non-negative weights ``p(n)``::

    L(B) = sum_n p(n) q^{far(n)}  <=  G(y)  <=  U(B) = sum_n p(n) q^{near(n)}

for every ``y`` in ``B``, with ``near = sum_j near_j`` and ``far = sum_j far_j``. Both are
positive (``p`` has positive mass), so ``ln G_a(y) - ln G_b(y) <= ln U_a(B) - ln L_b(B)``
for every ``y`` in ``B``: the box bound. On a one-point box ``near = far = |y - n|_1`` and
the bound is the value itself. Each of ``U`` and ``L`` is an integer polynomial in ``q``
(the weights grouped by the integer ``near`` or ``far``) evaluated at a ball of ``q``
(Johansson, "Arb", IEEE Trans. Computers 66(8), 2017), so the bound is certified.

**Its looseness.** ``far_j - near_j <= h_j - l_j``, so ``U/L <= q^{-(sum_j h_j - l_j)}``
per law and the bound exceeds the box's true max by at most ``2 ln(1/q) sum_j (h_j -
l_j)`` (twice the box's half-perimeter in units of ``lambda``): a box is pruned only when
its true max is that far below the best value found. The histogram's log ratio is flat
(on a symmetric 4-state chain of 30 records at ``lambda = 4``, 36% of the grid is within
one unit of the max, 66% for the end records), so the search splits most boxes down to
single points: :func:`box_sup` is a certified check and a fallback for small grids, not
a faster engine than the float screen of :mod:`pdpsym.loss.histogram_grid`.

**The search.** Boxes are kept in a heap by their bound; the best lower endpoint of a
point value seen so far (each box's centre is evaluated when it is made) is ``LB``; a box
whose bound's upper endpoint is below ``LB`` is dropped (no point in it can carry the
max); the rest are split in half along their longest side until they are single points,
whose bounds are their values. The enclosure is ``[LB, max of the kept points' upper
endpoints]``.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from pdpsym.core.balls import Ball, BallPoly, arb_from_fraction, ball_endpoints, working_precision

#: one law: (the count vectors of its support, shape (m, k); their exact integer weights)
Law = tuple[np.ndarray, Sequence[int]]


def _poly_at(dist: np.ndarray, weights: Sequence[int], q: Ball) -> Ball:
    """``sum_n w_n q^{dist_n} / sum_n w_n`` as a ball (weights grouped by distance)."""
    w = [0] * (int(dist.max()) + 1)
    for d, c in zip(dist.tolist(), weights, strict=True):
        if c:
            w[d] += c
    return BallPoly(w)(q) / sum(weights)


def box_bound(
    laws: Sequence[Law], lo: Sequence[int], hi: Sequence[int], q: Ball
) -> tuple[Fraction, Fraction]:
    """Exact endpoints around the box bound of ``ln G_a(y)/G_b(y)``, every pair.

    Args:
        laws: two or more laws of the count vector (positive totals).
        lo: the box's lower corner (``k`` integers).
        hi: its upper corner (``lo <= hi``).
        q: the kernel's ratio as a ball in ``(0, 1)``.

    Returns:
        ``(lo, hi)`` around ``max_{a != b} ln U_a(B) - ln L_b(B)`` (module docstring):
        ``hi`` bounds ``ln G_a(y) - ln G_b(y)`` above for every ``y`` in the box and
        every pair; on a one-point box ``[lo, hi]`` encloses the max over pairs there.

    References:
        Li et al. (2019), Section IV-A, Eq. 2; the box bound of this module's docstring.
    """
    low = np.asarray(lo, dtype=np.int64)
    high = np.asarray(hi, dtype=np.int64)
    ups, downs = [], []
    for counts, weights in laws:
        near = np.maximum(0, np.maximum(low - counts, counts - high)).sum(axis=1)
        far = np.maximum(counts - low, high - counts).sum(axis=1)
        ups.append(_poly_at(near, weights, q).log())
        downs.append(_poly_at(far, weights, q).log())
    out_lo: Fraction | None = None
    out_hi: Fraction | None = None
    for a, up in enumerate(ups):
        for b, down in enumerate(downs):
            if a != b:
                e_lo, e_hi = ball_endpoints(up - down)
                out_lo = e_lo if out_lo is None else max(out_lo, e_lo)
                out_hi = e_hi if out_hi is None else max(out_hi, e_hi)
    assert out_lo is not None and out_hi is not None
    return out_lo, out_hi


def box_sup(
    laws: Sequence[Law],
    T: int,
    rate: Fraction,
    prec: int = 128,
    max_boxes: int = 10**6,
) -> tuple[Fraction, Fraction, int] | None:
    """``[lo, hi]`` enclosing Eq. 2 by a branch and bound over boxes of ``{0..T}^k``.

    Args:
        laws: each compatible value's law of the count vector (as in
            :func:`pdpsym.loss.histogram_grid.grid_sup`).
        T: the number of records.
        rate: ``1/lambda > 0``, exact.
        prec: the working precision (bits).
        max_boxes: the most boxes bounded before giving up.

    Returns:
        ``(lo, hi, boxes)``: exact rationals with ``lo <= Eq. 2 <= hi`` and the number of
        boxes bounded; None for fewer than two laws or when ``max_boxes`` is reached.

    References:
        Li et al. (2019), Section IV-A, Eq. 2; Land, Doig, "An automatic method of solving
        discrete programming problems", Econometrica 28(3), 1960 (branch and bound).
    """
    laws = [law for law in laws if sum(law[1]) > 0]
    if len(laws) < 2:
        return None
    k = laws[0][0].shape[1]
    with working_precision(prec):
        q = (-arb_from_fraction(rate)).exp()
        best: Fraction | None = None
        top: Fraction | None = None
        heap: list[tuple[float, int, tuple[int, ...], tuple[int, ...], Fraction]] = []
        count = 0

        def push(lo: tuple[int, ...], hi: tuple[int, ...]) -> None:
            nonlocal best, count
            count += 1
            mid = tuple((a + b) // 2 for a, b in zip(lo, hi, strict=True))
            p_lo, _ = box_bound(laws, mid, mid, q)
            best = p_lo if best is None else max(best, p_lo)
            _, b_hi = box_bound(laws, lo, hi, q)
            heapq.heappush(heap, (-float(b_hi), count, lo, hi, b_hi))

        push((0,) * k, (T,) * k)
        while heap:
            _, _, lo, hi, b_hi = heapq.heappop(heap)
            assert best is not None
            if b_hi < best:
                continue
            if lo == hi:
                top = b_hi if top is None else max(top, b_hi)
                continue
            if count >= max_boxes:
                return None
            j = max(range(k), key=lambda i: hi[i] - lo[i])
            cut = (lo[j] + hi[j]) // 2
            push(lo, hi[:j] + (cut,) + hi[j + 1 :])
            push(lo[:j] + (cut + 1,) + lo[j + 1 :], hi)
        assert best is not None and top is not None
        return best, max(top, best), count


__all__ = ["box_bound", "box_sup"]

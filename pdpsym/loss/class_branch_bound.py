"""The branch and bound over a class's parameter box, written once: every certified
search over an interval class (Eq. 2 over binary and k-state chains, the audit's
figures) runs it with its own proven upper bound of a sub-box and its own exact values
at candidate points.

**The driver.** A sub-box's *payload* is what the caller's ``bound`` proved about it
(one upper bound per target, or per figure; ``None``: the sub-box holds no law and is
dropped). ``settle`` splits a payload into the part still open (``None``: every bound
is within the caller's tolerance of the best exact value found so far, which the caller
records as closed) and a priority; the open sub-box of highest priority (the smallest
key) is taken next, settled again (the best values only rise, so a bound may close
meanwhile), and split along its widest side relative to the root's
(:func:`~pdpsym.models.law_class.halves`), or a side the caller chooses. It stops when
no sub-box is open, when ``max_boxes`` sub-boxes were bounded, or when ``stop`` says so.

**Why the result holds.** Every law of the root lies in a leaf of the tree of sub-boxes
bounded (the halves cover their parent), and every leaf is closed (its bound recorded by
the caller), open (returned in :attr:`Outcome.open`), a point that cannot be split
(:attr:`Outcome.points`) or parked by the caller (:attr:`Outcome.parked`). So the max
over the closed, open, point and parked bounds is an upper bound of the sup over the
class, whatever the budget; the caller's exact values at members are its lower end.

API (for every search over a box of rationals)::

    out = branch_and_bound(root, bound, settle, max_boxes=..., on_box=..., stop=...,
                           side=..., park=...)
    # bound(box, parent_open_payload_or_None) -> payload | None   (None: drop the box)
    # settle(payload) -> (open part | None, heap key)             (records closed parts)
    # out.open, out.points, out.parked: payloads; out.boxes: sub-boxes bounded

References:
    Horst and Tuy, Global Optimization, 3rd ed. (1996), Ch. IV (branch and bound);
    Moore, Kearfott, Cloud, Introduction to Interval Analysis (SIAM 2009), Ch. 5.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, TypeVar

from pdpsym.models.law_class import Box, halves

P = TypeVar("P")


@dataclass
class Outcome(Generic[P]):
    """What the branch and bound left: the payloads of the sub-boxes still open when it
    stopped, of the point sub-boxes it could not split, of the sub-boxes the caller
    parked, and how many sub-boxes were bounded (the root included)."""

    open: list[P] = field(default_factory=list)
    points: list[P] = field(default_factory=list)
    parked: list[P] = field(default_factory=list)
    boxes: int = 0


def widest_side(box: Box, widths: list[Fraction]) -> int:
    """The side of ``box`` widest relative to the root's (the first on a tie).

    Args:
        box: the sub-box.
        widths: the root's widths (a side of width 0 counts as width 1).

    Returns:
        The side's index.

    References:
        Horst and Tuy (1996), Ch. IV (exhaustive bisection).
    """
    return max(range(len(box)), key=lambda i: (box[i][1] - box[i][0]) / (widths[i] or 1))


def branch_and_bound(
    root: Box,
    bound: Callable[[Box, P | None], P | None],
    settle: Callable[[P], tuple[P | None, Any]],
    *,
    max_boxes: int,
    on_box: Callable[[int], None] | None = None,
    stop: Callable[[], bool] | None = None,
    side: Callable[[Box, P, int], int] | None = None,
    park: Callable[[Box, P], bool] | None = None,
) -> Outcome[P]:
    """Run the branch and bound over ``root`` (module docstring).

    Args:
        root: the parameter box (rational ends).
        bound: the proven upper bound of a sub-box, given the open payload of its parent
            (None for the root); it may evaluate members exactly (the lower end). None:
            no law in the sub-box (dropped).
        settle: the open part of a payload (None: closed, recorded by the caller) and its
            heap key (the smallest is split first).
        max_boxes: the most sub-boxes bounded (the root counts as one).
        on_box: called with the number of sub-boxes bounded so far, after each.
        stop: checked before each split: True ends the search (a decided question).
        side: the side to split, given the sub-box, its open payload and the default
            (:func:`widest_side`).
        park: whether to leave a sub-box open without splitting it (checked after the
            point check): it goes to :attr:`Outcome.parked`.

    Returns:
        The :class:`Outcome`.

    References:
        Horst and Tuy (1996), Ch. IV; Moore, Kearfott, Cloud (2009), Ch. 5.
    """
    widths = [b - a for a, b in root]
    tick = itertools.count()
    heap: list[tuple[Any, int, Box, P]] = []
    out: Outcome[P] = Outcome()

    def push(box: Box, payload: P | None) -> None:
        out.boxes += 1
        if on_box is not None:
            on_box(out.boxes)
        if payload is None:
            return
        live, key = settle(payload)
        if live is not None:
            heapq.heappush(heap, (key, next(tick), box, live))

    push(root, bound(root, None))
    while heap and out.boxes < max_boxes and not (stop is not None and stop()):
        _, _, box, payload = heapq.heappop(heap)
        live, _ = settle(payload)
        if live is None:
            continue
        j = widest_side(box, widths)
        if side is not None:
            j = side(box, live, j)
        a, c = box[j]
        if a == c:  # a point: nothing to split
            out.points.append(live)
            continue
        if park is not None and park(box, live):
            out.parked.append(live)
            continue
        for child in halves(box, j):
            push(child, bound(child, live))
    out.open = [x[3] for x in heap]
    return out


__all__ = ["Outcome", "branch_and_bound", "widest_side"]

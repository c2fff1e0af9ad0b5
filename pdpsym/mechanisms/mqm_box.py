"""MQMExact over a box of binary stationary chains: one quilt's max-influence bounded
over the whole box (Song, Wang, Chaudhuri, SIGMOD 2017, Sec. 5, with Pufferfish's class
``Theta`` the box).

For the quilt ``{x_{i-a}, x_{i+b}}`` of a stationary chain the influence is ``ln R`` with
``R = max_{s != s'} [max_w P^a[w,s] pi(s') / (P^a[w,s'] pi(s))] [max_y P^b[s,y] /
P^b[s',y]]`` (:func:`~pdpsym.mechanisms.mqm_class.influence_ratio`). On a sub-box every
entry of ``P`` lies in an interval of non-negative numbers (``P[s][1] = x_s``,
``P[s][0] = 1 - x_s``), so the entries of ``P^a`` lie between the powers of the lower and
of the upper matrices (products and sums of non-negative numbers are increasing in each
factor); ``pi_1 = x_0 / (x_0 + 1 - x_1)`` is increasing in both parameters. Each ratio
is then at most its numerator's upper end over its denominator's lower end, which bounds
``R`` over the sub-box (Moore et al., Ch. 2). A branch and bound splits the sub-box of
largest bound, with the exact ``R`` of members (the box's corners and each sub-box's
centre) as lower ends, until the bound is within a relative ``rel`` of the best member
or the budget is spent; the upper end holds either way, so MQM's scale computed from it
holds for every law of the box.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass
from fractions import Fraction

from pdpsym.mechanisms.mqm_class import influence_ratio
from pdpsym.models.law_class import IntervalChain, halves

Iv = tuple[Fraction, Fraction]
Mat = list[list[Fraction]]
ZERO = Fraction(0)


def _power_range(lo: Fraction, hi: Fraction, d: int) -> list[Iv]:
    """The range of ``λ^d`` for ``λ`` in ``[lo, hi]``, cut at 0 into pieces on which
    ``μ = λ^d`` keeps one sign."""
    ends = sorted({lo**d, hi**d})
    if lo < 0 < hi:
        if d % 2:
            return [(lo**d, ZERO), (ZERO, hi**d)]
        return [(ZERO, max(ends))]
    return [(ends[0], ends[-1])]


def _terms(p1: Fraction, mu: Fraction) -> list[Fraction] | None:
    """``max_y P^d[s,y] / P^d[s',y]`` for ``(s, s') = (0, 1)`` and ``(1, 0)``, with
    ``P^d[s,y] = pi_y + mu (1[s = y] - pi_y)``; None when a denominator is not positive."""
    p0 = 1 - p1
    dens = (p0 * (1 - mu), p1 + mu * p0, p1 * (1 - mu), p0 + mu * p1)
    if min(dens) <= 0:
        return None
    t01 = max((p0 + mu * p1) / dens[0], p1 * (1 - mu) / dens[1])
    t10 = max((p1 + mu * p0) / dens[2], p0 * (1 - mu) / dens[3])
    return [t01, t10]


def _side(p1s: Iv, lam: Iv, d: int | None) -> list[Fraction] | None:
    """Upper bounds of ``max_y P^d[s,y] / P^d[s',y]`` for both ordered pairs over a
    rectangle of ``(pi_1, λ)`` (``d`` None: the side is absent, 1)."""
    if d is None:
        return [Fraction(1), Fraction(1)]
    out = [ZERO, ZERO]
    for mus in _power_range(lam[0], lam[1], d):
        for p1, mu in itertools.product(p1s, mus):
            t = _terms(p1, mu)
            if t is None:
                return None
            out = [max(x, y) for x, y in zip(out, t, strict=True)]
    return out


def influence_bound(box: tuple[Iv, ...], a: int | None, b: int | None) -> Fraction | None:
    """An upper bound of ``R`` (module docstring) over a sub-box of ``(x_0, x_1)``.

    A binary stationary chain is reversible, so the upstream factor
    ``P^a[w,s] pi(s') / (P^a[w,s'] pi(s))`` equals ``P^a[s,w] / P^a[s',w]``; and
    ``P^d = Π + μ (I - Π)`` with ``μ = λ^d``, ``λ = x_1 - x_0`` (Π the rows of pi). Each
    ratio ``P^d[s,y] / P^d[s',y]`` is then monotone in ``pi_1`` (as the sign of ``μ``)
    and in ``μ``, so its max over the rectangle of ``(pi_1, μ)`` (``pi_1`` between its
    values at the sub-box's lowest and highest corners, ``λ`` in
    ``[lo_1 - hi_0, hi_1 - lo_0]``, cut where ``μ`` changes sign) is at a corner; the
    rectangle holds every member of the sub-box.

    Args:
        box: the sub-box ``((lo_0, hi_0), (lo_1, hi_1))`` of the rows' ``P[s][1]``.
        a: the quilt's distance upstream, or None.
        b: the quilt's distance downstream, or None.

    Returns:
        A rational at least every member's ``R``, or None when no finite bound holds
        (a denominator may vanish in the sub-box).

    References:
        Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 5; Moore, Kearfott, Cloud (2009), Ch. 2.
    """
    (a0, b0), (a1, b1) = box[0], box[1]
    p1s = (a0 / (a0 + 1 - a1), b0 / (b0 + 1 - b1))
    lam = (a1 - b0, b1 - a0)
    left, right = _side(p1s, lam, a), _side(p1s, lam, b)
    if left is None or right is None:
        return None
    return max(x * y for x, y in zip(left, right, strict=True))


@dataclass(frozen=True)
class BoxInfluence:
    """A quilt's ``R`` over the box: ``lo`` a member's exact ``R`` (at ``theta``), ``hi``
    a proven upper bound over the box (None: none finite), and whether it closed."""

    lo: Fraction
    hi: Fraction | None
    theta: tuple[Fraction, ...]
    tight: bool
    boxes: int


def influence_sup(
    cls: IntervalChain,
    a: int | None,
    b: int | None,
    *,
    rel: Fraction = Fraction(1, 10**6),
    max_boxes: int = 2000,
) -> BoxInfluence:
    """The sup over the box of a quilt's ``R``, enclosed by branch and bound (module
    docstring).

    Args:
        cls: a binary interval chain with ``"initial": "stationary"``.
        a: the quilt's distance upstream, or None.
        b: the quilt's distance downstream, or None.
        rel: a sub-box closes when its bound is within ``rel`` (relative) of the best.
        max_boxes: the most sub-boxes bounded.

    Returns:
        The :class:`BoxInfluence`.

    References:
        Song, Wang, Chaudhuri (SIGMOD 2017), Algorithm 2 and Sec. 5; Moore, Kearfott,
        Cloud (2009), Ch. 5.
    """
    root = cls.box()[:2]
    best, at = ZERO, tuple(x for x, _ in root)

    def lower(theta: tuple[Fraction, ...]) -> None:
        nonlocal best, at
        r = influence_ratio(cls.member(theta), a, b)
        if r is not None and r > best:
            best, at = r, theta

    for corner in itertools.product(*root):
        lower(corner)
    heap: list[tuple[int, Fraction, int, tuple[Iv, ...], Fraction | None]] = []
    count = itertools.count()

    def push(box: tuple[Iv, ...]) -> None:
        ub = influence_bound(box, a, b)
        lower(tuple((x + y) / 2 for x, y in box))
        key = (0, ZERO) if ub is None else (1, -ub)
        heapq.heappush(heap, (*key, next(count), box, ub))

    push(root)
    boxes, done = 1, list[Fraction | None]()
    while heap and boxes < max_boxes:
        *_, box, ub = heapq.heappop(heap)
        if ub is not None and ub <= best * (1 + rel):
            done.append(ub)
            continue
        d = max(range(2), key=lambda j: box[j][1] - box[j][0])
        x, y = box[d]
        if x == y:
            done.append(ub)
            continue
        for half in halves(box, d):
            push(half)
            boxes += 1
    ubs = done + [h[-1] for h in heap]
    tight = not heap and all(u is not None for u in ubs)
    finite = [u for u in ubs if u is not None]
    hi = None if len(finite) < len(ubs) else max([best, *finite])
    return BoxInfluence(best, hi, at, tight, boxes)


__all__ = ["BoxInfluence", "influence_bound", "influence_sup"]

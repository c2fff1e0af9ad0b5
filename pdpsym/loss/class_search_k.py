"""Li et al.'s Eq. 2 over a k-state interval chain (``k > 2``): a certified branch and bound.

The parameter box is the product of the rows' free coordinates
(:meth:`~pdpsym.models.interval_chain_k.IntervalChainK.box`); a sub-box is clipped to the
rows' polytopes, and one that misses a polytope is dropped. Each sub-box gets a proven
upper bound per target (:func:`pdpsym.loss.class_kstate_bounds.box_upper`: the
forward-backward pass on the entries' interval ends, first order in the sub-box's
width); members are evaluated exactly by the single-law engine
(:func:`~pdpsym.loss.count_leakage.structured_leakage`, certified enclosures) at the
vertices of the rows' polytopes (up to 64 combinations, ranked by a float estimate) and at
a point inside each sub-box whose float estimate beats a target's best value: those give
the lower end. A sub-box is closed for a target when its bound is within the tolerance of
the best value; the search stops when every sub-box is closed, or after ``max_boxes``,
and then reports ``[best lo, max bound over the open sub-boxes]``, not tight.

The binary engine (:mod:`pdpsym.loss.class_search`) is unchanged; this one reads the same
question for more states.

References:
    Li et al. (2019), Sec. III, Eq. 2; Kifer and Machanavajjhala (2014), Definition 3.1;
    Horst and Tuy, Global Optimization, 3rd ed. (1996), Ch. IV (branch and bound).
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction

from pdpsym.core.errors import InputError
from pdpsym.loss.class_kstate_bounds import KShape, box_upper, point_estimate
from pdpsym.loss.class_search import CLASS_DIGITS, MEMBER_DIGITS, ClassLeakage, ClassTarget
from pdpsym.loss.count_leakage import structured_leakage
from pdpsym.loss.leakage_result import Enclosed
from pdpsym.models.interval_chain_k import Box, IntervalChainK


def k_shape(
    cls: IntervalChainK,
    targets: Sequence[str],
    known: Sequence[str],
    lam: Fraction,
    weights: Mapping[str, int] | None,
) -> KShape:
    """The passes' shape (contributions, rate, target positions, known assignments).

    Args:
        cls: the class.
        targets: the target records.
        known: the known records.
        lam: the Laplace scale.
        weights: integer query weights.

    Returns:
        The :class:`~pdpsym.loss.class_kstate_bounds.KShape`.

    References:
        Li et al. (2019), Sec. III, Eq. 2 (the query and the adversary ``A(i, K)``).
    """
    names = cls.variables
    for k in known:
        if k not in names:
            raise InputError("known", f"unknown record {k!r}")
    if len(set(known)) != len(known):
        raise InputError("known", "duplicate record")
    for t in targets:
        if t not in names:
            raise InputError("target", f"unknown record {t!r}")
        if t in known:
            raise InputError("known", f"the target {t!r} cannot also be known")
    probe = cls.member(cls.centre(cls.box()))
    contrib = probe.contributions(weights)
    pos = [names.index(k) for k in known]
    assignments = tuple(
        dict(zip(pos, combo, strict=True))
        for combo in itertools.product(range(cls.k), repeat=len(pos))
    )
    return KShape(
        contrib.table,
        float(1 / (lam * contrib.scale)),
        tuple(names.index(t) for t in targets),
        assignments,
    )


def k_chain_leakage(
    cls: IntervalChainK,
    targets: Sequence[str],
    known: Sequence[str] = (),
    lam: Fraction | int = 1,
    weights: Mapping[str, int] | None = None,
    *,
    digits: int = CLASS_DIGITS,
    max_boxes: int = 2000,
    on_box: Callable[[int], None] | None = None,
    below: Fraction | None = None,
) -> ClassLeakage:
    """Eq. 2's sup over a k-state interval chain, by branch and bound (module docstring).

    Args:
        cls: the class.
        targets: the target records.
        known: the records the adversary knows (the max runs over their values).
        lam: the Laplace scale (> 0).
        weights: integer query weights (default: the sum).
        digits: the significant digits the enclosures should fix (at most
            :data:`~pdpsym.loss.class_search.CLASS_DIGITS`).
        max_boxes: the most sub-boxes bounded before the search stops (not tight).
        on_box: called with the number of sub-boxes bounded so far (progress).
        below: decide ``sup <= below`` instead: a sub-box is closed once its bound is at
            most ``below``, and the search stops as soon as a member is certified above
            it (a calibration's decision).

    Returns:
        The :class:`~pdpsym.loss.class_search.ClassLeakage`; each law is the member's
        parameters (the rows' free coordinates).

    References:
        Li et al. (2019), Sec. III, Eq. 2; Kifer and Machanavajjhala (2014), Definition
        3.1; Horst and Tuy (1996), Ch. IV.
    """
    lam = Fraction(lam)
    if lam <= 0:
        raise InputError("lam", "must be > 0")
    targets = list(targets)
    shape = k_shape(cls, targets, tuple(known), lam, weights)
    pos = dict(zip(targets, shape.targets, strict=True))
    aim = min(digits, CLASS_DIGITS)
    lo: dict[str, Fraction | None] = dict.fromkeys(targets)
    hi_m: dict[str, Fraction | None] = dict.fromkeys(targets)
    law: dict[str, tuple[Fraction, ...] | None] = dict.fromkeys(targets)
    closed_hi = dict.fromkeys(targets, -math.inf)
    seen: set[tuple[Fraction, ...]] = set()

    def evaluate(theta: tuple[Fraction, ...]) -> None:
        if theta in seen:
            return
        seen.add(theta)
        res = structured_leakage(
            cls.member(theta), targets, known, lam, weights, digits=MEMBER_DIGITS, exact=False
        )
        for r in res:
            if r.value is None:
                continue
            t = r.target
            if lo[t] is None or r.value.lo > lo[t]:  # type: ignore[operator]
                lo[t], law[t] = r.value.lo, theta
            if hi_m[t] is None or r.value.hi > hi_m[t]:  # type: ignore[operator]
                hi_m[t] = r.value.hi

    def beats(est: dict[int, float], active: Sequence[str]) -> bool:
        return any(
            lo[t] is None or est[pos[t]] > float(lo[t]) * (1 - 1e-12)  # type: ignore[arg-type]
            for t in active
            if est[pos[t]] > -math.inf
        )

    # the vertices, ranked by their float estimates: the best per target evaluated exactly
    root = cls.box()
    ests = [(theta, point_estimate(cls, shape, theta)) for theta in cls.vertices()]
    for t in targets:
        ranked = sorted(ests, key=lambda e: -e[1][pos[t]])
        if ranked:
            evaluate(ranked[0][0])
    evaluate(cls.centre(root))

    def done(t: str, u: float) -> bool:
        best = lo[t]
        if u == -math.inf:
            return True
        if below is not None:
            # deciding sup <= below: only a bound at most below closes a sub-box
            return u != math.inf and Fraction(u) <= below
        if best is None or u == math.inf:
            return False
        tol = Fraction(1, 10**aim) * max(abs(best), Fraction(1, 10**aim))
        return Fraction(u) <= best + tol / 4

    def bound(box: Box, active: list[str]) -> dict[str, float] | None:
        sub = replace(shape, targets=tuple(pos[t] for t in active))
        ub = box_upper(cls, sub, box)
        if ub is None:
            return None
        theta = cls.centre(box)
        if beats(point_estimate(cls, sub, theta), active):
            evaluate(theta)
        return {t: ub[pos[t]] for t in active}

    widths = [b - a for a, b in root]
    tick = itertools.count()
    heap: list[tuple[float, int, Box, dict[str, float]]] = []

    def push(box: Box, upper: dict[str, float] | None) -> None:
        if upper is None:
            return
        live = {t: u for t, u in upper.items() if not done(t, u)}
        for t, u in upper.items():
            if t not in live:
                closed_hi[t] = max(closed_hi[t], u)
        if live:
            gap = max(u - float(lo[t] or 0) for t, u in live.items())
            heapq.heappush(heap, (-gap, next(tick), box, live))

    count = 1
    push(root, bound(root, targets))
    if on_box is not None:
        on_box(count)

    def refuted() -> bool:
        return below is not None and any(v is not None and v > below for v in lo.values())

    while heap and count < max_boxes and not refuted():
        _, _, box, upper = heapq.heappop(heap)
        live = [t for t, u in upper.items() if not done(t, u)]
        for t, u in upper.items():
            if t not in live:
                closed_hi[t] = max(closed_hi[t], u)
        if not live:
            continue
        j = max(range(len(box)), key=lambda i: (box[i][1] - box[i][0]) / (widths[i] or 1))
        a, c = box[j]
        if a == c:  # a point: its bound is the member's, to rounding
            for t in live:
                closed_hi[t] = max(closed_hi[t], upper[t])
            continue
        mid = (a + c) / 2
        for half in ((a, mid), (mid, c)):
            child = tuple(half if i == j else iv for i, iv in enumerate(box))
            push(child, bound(child, live))
            count += 1
            if on_box is not None:
                on_box(count)
    open_hi = dict.fromkeys(targets, -math.inf)
    for _, _, _, upper in heap:
        for t, u in upper.items():
            open_hi[t] = max(open_hi[t], u)
    out = []
    for t in targets:
        if lo[t] is None:
            out.append(ClassTarget(t, None, None))
            continue
        u = max(open_hi[t], closed_hi[t])
        if u == math.inf:
            out.append(ClassTarget(t, Enclosed(lo[t], hi_m[t]), law[t], open_above=True))  # type: ignore[arg-type]
            continue
        hi = hi_m[t] if u == -math.inf else max(hi_m[t], Fraction(u))  # type: ignore[type-var]
        out.append(ClassTarget(t, Enclosed(lo[t], hi), law[t]))  # type: ignore[arg-type]
    tight = not heap and not any(ct.open_above for ct in out)
    reason = "" if tight else ("box-limit" if heap else "open-end")
    return ClassLeakage(tuple(out), tight, count, reason)


__all__ = ["k_chain_leakage", "k_shape"]

"""Proven upper bounds of a notion's figures over a sub-box of an interval chain, and the
branch and bound that turns them into a certified enclosure of the class's sup.

Which figures: every notion that compares pairs of conditional output laws by the hockey
stick (:attr:`~pdpsym.audit.registry.Compare.HOCKEY_STICK`) whose pairs are built from the
laws given the target and the known records (:attr:`~pdpsym.audit.registry.Pairs.GIVEN_KNOWN`,
:attr:`~pdpsym.audit.registry.Pairs.WEIGHTED_KNOWN`, :attr:`~pdpsym.audit.registry.Pairs.CHANGED`),
for a mechanism with a discrete output on the weighted sum (the count, the threshold,
geometric noise): their ε at δ = 0 and their δ(ε). The bound is written once against
the registry's ``Pairs`` and ``Compare``, never per notion name.

**The enclosure of the laws over a sub-box.** Each member's joint law
``J(a, v, s) = P[x_i = a, x_K = v, f = s]`` is a sum over the records' sequences of
products of the initial law's and the transition rows' entries, every one non-negative.
On a sub-box each entry lies in an interval of non-negative numbers (``P[s][1] = x_s``
in ``[lo_s, hi_s]``, ``P[s][0] = 1 - x_s`` in ``[1 - hi_s, 1 - lo_s]``; the stationary
``pi_1 = x_0 / (x_0 + 1 - x_1)`` is increasing in both parameters, so it lies between its
values at the box's lowest and highest corners), so the forward pass through the chain
in exact interval arithmetic (Moore et al., Ch. 2: the product and the sum of
non-negative intervals are the products and sums of their ends) encloses every ``J``.
A conditional law ``p_s = J_s / (J_s + R)``, with ``R`` the rest of its row, is
increasing in ``J_s`` and decreasing in ``R``: it lies in
``[J_s^lo / (J_s^lo + R^hi), J_s^hi / (J_s^hi + R^lo)]``. The same holds for
``P[x_K = v | x_i = a]``. The mechanism's kernel is non-negative and linear, so pushing
the ends through it encloses the output laws: ``P_y in [P_y^lo, P_y^hi]``.

**The notion's comparison applied to the enclosures.** For each pair the notion compares
(Desfontaines et al., Lemma 1): ``δ(ε) = Σ_y max(0, P_y - e^ε Q_y)`` is increasing in
each ``P_y`` and decreasing in each ``Q_y``, so it is at most
``Σ_y max(0, P_y^hi - L Q_y^lo)`` for any rational ``L <= e^ε``; the largest ratio
``max_y P_y / Q_y`` (``e^ε`` at δ = 0) is at most ``max_y P_y^hi / Q_y^lo`` (unbounded
when some ``Q_y^lo = 0 < P_y^hi``). A weighted pair (Definition 13) is
``Σ_v w_v δ_v`` with ``w_v = P[x_K = v | x_i = a] <= w_v^hi``; its ratio is the largest
over the terms of positive weight. Pairs that a law of the box does not have (a value
``v`` impossible under ``b``) only add terms to the max, so the bound still holds. The
geometric kernel's two tails are lumped (:func:`~pdpsym.audit.sum_posteriors.pushed_laws`):
beyond the range every output's ``P_y - L Q_y`` has one sign, so the lumped term is
the tail's sum.

**Lower ends.** At each sub-box's centre the same code runs on the point (an interval of
width 0 is the exact law) with ``U >= e^ε``: ``Σ_y max(0, P_y - U Q_y)`` is at most the
law's δ(ε), and the ratio is exact. The branch and bound splits the sub-box with the
widest gap along its widest side and stops when every sub-box's bound is within the
asked digits of the best value found, or when the box budget is spent (then the figure
is an enclosure of the sup, not the sup to those digits).

References:
    Kifer and Machanavajjhala (2014), Definition 3.1; Desfontaines et al. (2020),
    Definitions 5, 12, 13 and Lemma 1; Moore, Kearfott, Cloud, Introduction to Interval
    Analysis (SIAM 2009), Ch. 2 and 5.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pdpsym.audit import registry
from pdpsym.audit.registry import Compare, Pairs
from pdpsym.audit.sum_mechanisms import SumMechanism
from pdpsym.audit.sum_posteriors import pushed_laws
from pdpsym.core.certify import ball_endpoints
from pdpsym.core.eps import Eps
from pdpsym.models.law_class import IntervalChain

Iv = tuple[Fraction, Fraction]
Box = tuple[Iv, ...]
#: the pairs a sub-box bound is proven for (with :attr:`Compare.HOCKEY_STICK`)
BOUNDED_PAIRS = (Pairs.GIVEN_KNOWN, Pairs.WEIGHTED_KNOWN, Pairs.CHANGED)
#: the mechanisms on the sum whose output is discrete (pushed exactly)
DISCRETE_KINDS = ("count", "threshold", "geometric")
ZERO = Fraction(0)


def bounded(notion: str, mechanism: Any) -> bool:
    """Whether the sub-box bound covers this notion with this mechanism.

    Args:
        notion: a notion's name.
        mechanism: the audited mechanism.

    Returns:
        True for a hockey-stick notion over the pairs of :data:`BOUNDED_PAIRS` and a
        discrete mechanism on the sum (:data:`DISCRETE_KINDS`).
    """
    n = registry.notion(notion)
    return (
        isinstance(mechanism, SumMechanism)
        and mechanism.kind in DISCRETE_KINDS
        and n.compare is Compare.HOCKEY_STICK
        and n.pairs in BOUNDED_PAIRS
    )


@dataclass
class BoxLaws:
    """Interval enclosures of a sub-box's conditional laws: ``laws[(a, v)]`` is
    ``(lo, hi)`` of the law of ``f`` given ``x_i = a, x_K = v`` (dicts over ``f``), and
    ``known[a][v]`` the interval of ``P[x_K = v | x_i = a]``; ``shift[(a, b)]`` how far
    ``f`` moves when ``x_i`` changes from ``a`` to ``b``; ``steps`` the keys visited."""

    laws: dict[tuple[Fraction, tuple[Fraction, ...]], tuple[dict[Fraction, Fraction], ...]]
    known: dict[Fraction, dict[tuple[Fraction, ...], Iv]]
    shift: dict[tuple[Fraction, Fraction], Fraction]
    states: tuple[Fraction, ...]
    steps: int


def _row_bounds(cls: IntervalChain, box: Box) -> tuple[list[list[Iv]], list[Iv]]:
    """The transition entries' and initial law's intervals over ``box``."""
    (a0, b0), (a1, b1) = box[0], box[1]
    trans = [[(1 - b0, 1 - a0), (a0, b0)], [(1 - b1, 1 - a1), (a1, b1)]]
    if cls.initial == "stationary":  # pi_1 increasing in x_0 and in x_1
        lo1, hi1 = a0 / (a0 + 1 - a1), b0 / (b0 + 1 - b1)
        init = [(1 - hi1, 1 - lo1), (lo1, hi1)]
    elif isinstance(cls.initial[0], tuple):
        y0, y1 = box[2]
        init = [(1 - y1, 1 - y0), (y0, y1)]
    else:
        init = [(p, p) for p in cls.initial]  # type: ignore[misc]
    return trans, init


def box_laws(
    cls: IntervalChain, box: Box, target: str, known: Sequence[str], weights: Any
) -> BoxLaws:
    """Enclose every conditional law of the query over a sub-box (module docstring).

    Args:
        cls: the interval chain.
        box: the sub-box of :meth:`IntervalChain.box` (a point gives the exact laws).
        target: the target record.
        known: the known records.
        weights: the query's weights (record -> weight; None: all 1).

    Returns:
        The :class:`BoxLaws`.

    References:
        Moore, Kearfott, Cloud (2009), Ch. 2; Desfontaines et al. (2020), Definition 12.
    """
    names = cls.variables
    w = {v: Fraction(1) for v in names}
    w.update({k: Fraction(x) for k, x in (weights or {}).items()})
    it, kpos = names.index(target), {names.index(k): j for j, k in enumerate(known)}
    trans, init = _row_bounds(cls, box)
    vals = cls.states
    # key: (state, a, v, s) -> [lo, hi]
    cur: dict[tuple[int, Fraction, tuple[Fraction, ...], Fraction], list[Fraction]] = {}
    steps = 0

    def put(d: dict[Any, list[Fraction]], key: Any, lo: Fraction, hi: Fraction) -> None:
        if hi == 0:
            return
        e = d.get(key)
        if e is None:
            d[key] = [lo, hi]
        else:
            e[0] += lo
            e[1] += hi

    blank = (ZERO,) * len(known)

    def place(t: int, j: int, a: Fraction, v: tuple[Fraction, ...]) -> Any:
        if t == it:
            a = vals[j]
        if t in kpos:
            v = v[: kpos[t]] + (vals[j],) + v[kpos[t] + 1 :]
        return a, v

    for j in (0, 1):
        a, v = place(0, j, ZERO, blank)
        put(cur, (j, a, v, w[names[0]] * vals[j]), init[j][0], init[j][1])
    for t in range(1, cls.length):
        nxt: dict[Any, list[Fraction]] = {}
        c = w[names[t]]
        for (j, a, v, s), (lo, hi) in cur.items():
            for k in (0, 1):
                tl, th = trans[j][k]
                a2, v2 = place(t, k, a, v)
                put(nxt, (k, a2, v2, s + c * vals[k]), lo * tl, hi * th)
                steps += 1
        cur = nxt
    joint: dict[tuple[Fraction, tuple[Fraction, ...]], dict[Fraction, list[Fraction]]] = {}
    for (_, a, v, s), (lo, hi) in cur.items():
        put(joint.setdefault((a, v), {}), s, lo, hi)
    laws = {key: _conditional(row) for key, row in joint.items()}
    known_of: dict[Fraction, dict[tuple[Fraction, ...], list[Fraction]]] = {}
    for (a, v), row in joint.items():
        put(
            known_of.setdefault(a, {}),
            v,
            sum((x[0] for x in row.values()), ZERO),
            sum((x[1] for x in row.values()), ZERO),
        )
    kg: dict[Fraction, dict[tuple[Fraction, ...], Iv]] = {}
    for a, r in known_of.items():
        lo, hi = _conditional(r)
        kg[a] = {v: (lo[v], hi[v]) for v in r}
    shift = {(a, b): w[target] * (b - a) for a in vals for b in vals if a != b}
    return BoxLaws(laws, kg, shift, tuple(vals), steps)


def _conditional(row: dict[Any, list[Fraction]]) -> tuple[dict[Any, Fraction], ...]:
    """Enclose ``J_s / Σ J`` for every ``s`` from the joint's intervals (module docstring)."""
    tlo = sum((x[0] for x in row.values()), ZERO)
    thi = sum((x[1] for x in row.values()), ZERO)
    lo, hi = {}, {}
    for s, (jl, jh) in row.items():
        den_lo = jl + (thi - jh)
        lo[s] = jl / den_lo if den_lo > 0 else ZERO
        den_hi = jh + (tlo - jl)
        hi[s] = jh / den_hi if den_hi > 0 else Fraction(1)
    return lo, hi


def _pair_bounds(
    mech: SumMechanism,
    p: tuple[dict[Fraction, Fraction], ...],
    q: tuple[dict[Fraction, Fraction], ...],
    exps: Sequence[Fraction],
    point: bool,
) -> tuple[Fraction | None, list[Fraction]]:
    """One pair's ratio bound (None: unbounded) and δ bound at each ``e^ε`` bound: upper
    bounds from ``P^hi`` and ``Q^lo`` (``exps`` below ``e^ε``), or at a point the exact
    ratio and lower bounds of δ (``exps`` above ``e^ε``)."""
    pl, ph, ql, qh = pushed_laws(mech, [p[0], p[1], q[0], q[1]])
    up, down = (pl, ql) if point else (ph, ql)
    ratio: Fraction | None = ZERO
    for y, x in up.items():
        if x <= 0:
            continue
        d = down.get(y, ZERO)
        if d <= 0:
            ratio = None
            break
        if ratio is not None and x / d > ratio:
            ratio = x / d
    deltas = [
        sum((max(ZERO, x - e * down.get(y, ZERO)) for y, x in up.items()), ZERO) for e in exps
    ]
    return ratio, [min(d, Fraction(1)) for d in deltas]


def _shifted(
    law: tuple[dict[Fraction, Fraction], ...], d: Fraction
) -> tuple[dict[Fraction, Fraction], ...]:
    return tuple({s + d: x for s, x in part.items()} for part in law)


def notion_bounds(
    laws: BoxLaws, mech: SumMechanism, pairs: Pairs, exps: Sequence[Fraction], point: bool
) -> tuple[Fraction | None, list[Fraction]]:
    """A notion's figures over a sub-box from its pairs: the ratio ``e^ε`` at δ = 0 (None:
    unbounded) and δ at each ε.

    Args:
        laws: the sub-box's enclosed laws (:func:`box_laws`).
        mech: a discrete mechanism on the sum.
        pairs: the notion's pairs (one of :data:`BOUNDED_PAIRS`).
        exps: rational bounds of ``e^ε`` (below it for upper bounds, above for ``point``).
        point: whether ``laws`` are one law's (lower ends) or a sub-box's (upper bounds).

    Returns:
        ``(ratio, deltas)``.

    References:
        Desfontaines et al. (2020), Definitions 5, 12, 13 and Lemma 1.
    """
    ratio: Fraction | None = ZERO
    deltas = [ZERO] * len(exps)

    def take(r: Fraction | None, ds: Sequence[Fraction]) -> None:
        nonlocal ratio
        ratio = None if r is None or ratio is None else max(ratio, r)
        for k, d in enumerate(ds):
            deltas[k] = max(deltas[k], d)

    targets = sorted(laws.known)
    for a, b in itertools.permutations(targets if pairs is not Pairs.CHANGED else (), 2):
        ka, kb = laws.known[a], laws.known[b]
        if pairs is Pairs.WEIGHTED_KNOWN:
            tot: list[Fraction] = [ZERO] * len(exps)
            wr: Fraction | None = ZERO
            for v, (wl, wh) in ka.items():
                wt = wl if point else wh
                qb = laws.laws.get((b, v), ({}, {}))
                r, ds = _pair_bounds(mech, laws.laws[(a, v)], qb, exps, point)
                if wt > 0:
                    wr = None if r is None or wr is None else max(wr, r)
                tot = [x + wt * d for x, d in zip(tot, ds, strict=True)]
            take(wr, [min(x, Fraction(1)) for x in tot])
            continue
        for v in ka:
            if v in kb:
                take(*_pair_bounds(mech, laws.laws[(a, v)], laws.laws[(b, v)], exps, point))
    if pairs is Pairs.CHANGED:  # the law against itself shifted, both ways, to every b
        for a in targets:
            for v in laws.known[a]:
                for b in laws.states:
                    if b == a or (point and b in laws.known and v not in laws.known[b]):
                        continue
                    pa = laws.laws[(a, v)]
                    pc = _shifted(pa, laws.shift[(a, b)])
                    take(*_pair_bounds(mech, pa, pc, exps, point))
                    take(*_pair_bounds(mech, pc, pa, exps, point))
    return ratio, deltas


@dataclass(frozen=True)
class BoxFigure:
    """One figure's enclosure of the class's sup from the branch and bound: ``lo`` and
    ``hi`` in the figure's own terms (``e^ε`` for ε at δ = 0, δ for δ(ε); None: infinite),
    the law where ``lo`` is attained, and whether every sub-box closed (the sup to the
    asked digits) or the budget ran out (an enclosure, not tight)."""

    notion: str
    figure: int  # -1: ε at δ = 0 (as e^ε); k: δ at the k-th ε
    lo: Fraction | None
    hi: Fraction | None
    law: tuple[Fraction, ...]
    tight: bool


@dataclass(frozen=True)
class BoxSearch:
    """The branch and bound's figures and the sub-boxes it bounded."""

    figures: tuple[BoxFigure, ...]
    boxes: int


Vec = list[Fraction | None]


def _gt(x: Fraction | None, y: Fraction | None) -> bool:
    """``x > y`` with None as +infinity."""
    return (x is None and y is not None) or (x is not None and y is not None and x > y)


def search_figures(
    cls: IntervalChain,
    mech: SumMechanism,
    target: str,
    known: Sequence[str],
    eps: Sequence[Any],
    notions: Sequence[str],
    *,
    digits: int = 4,
    max_boxes: int = 2000,
    on_step: Callable[[int], None] | None = None,
) -> BoxSearch:
    """The certified branch and bound of the bounded notions' figures over the box
    (module docstring).

    Args:
        cls: the interval chain.
        mech: a discrete mechanism on the sum (:data:`DISCRETE_KINDS`).
        target: the target record.
        known: the known records.
        eps: the ε values of δ(ε).
        notions: the notions; those :func:`bounded` are searched.
        digits: a sub-box closes when its bound is within ``10^-digits`` (relative, with
            an absolute floor ``10^-(digits + 3)``) of the best value found.
        max_boxes: the most sub-boxes bounded.
        on_step: called once per sub-box bounded.

    Returns:
        The :class:`BoxSearch`.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1; Moore, Kearfott, Cloud (2009),
        Ch. 5 (branch and bound).
    """
    names = [n for n in notions if bounded(n, mech)]
    kinds = sorted({registry.notion(n).pairs for n in names}, key=lambda p: p.value)
    ends = [ball_endpoints(Eps.of(e).arb_exp(128)) for e in eps]
    down, up = [lo for lo, _ in ends], [hi for _, hi in ends]
    slots = [(n, f) for n in names for f in range(-1, len(eps))]
    tol, floor = Fraction(1, 10**digits), Fraction(1, 10 ** (digits + 3))

    def vector(box: Box, point: bool) -> Vec:
        laws = box_laws(cls, box, target, known, mech.weights)
        got = {k: notion_bounds(laws, mech, k, up if point else down, point) for k in kinds}
        out: Vec = []
        for n, f in slots:
            r, ds = got[registry.notion(n).pairs]
            out.append(r if f < 0 else ds[f])
        return out

    root = cls.box()
    best: Vec = [ZERO] * len(slots)
    where: list[tuple[Fraction, ...]] = [tuple(a for a, _ in root)] * len(slots)

    def lower(theta: tuple[Fraction, ...]) -> None:
        for k, x in enumerate(vector(tuple((t, t) for t in theta), True)):
            if _gt(x, best[k]):
                best[k], where[k] = x, theta

    def gap(ub: Vec) -> Fraction | None:
        worst: Fraction | None = ZERO
        for k, u in enumerate(ub):
            lo = best[k]
            if lo is None:
                continue
            if u is None:
                return None
            g = (u - lo) / max(lo * tol, floor)
            worst = g if worst is not None and g > worst else worst
        return worst

    for corner in itertools.product(*root):
        lower(corner)
    lower(tuple((a + b) / 2 for a, b in root))
    counter = itertools.count()
    heap: list[tuple[Any, int, Box, Vec]] = []

    def push(box: Box) -> None:
        ub = vector(box, False)
        lower(tuple((a + b) / 2 for a, b in box))
        g = gap(ub)
        heapq.heappush(heap, (_key(g), next(counter), box, ub))
        if on_step is not None:
            on_step(1)

    push(root)
    done: list[Vec] = []
    boxes = 1
    width = [b - a for a, b in root]
    while heap and boxes < max_boxes:
        _, _, box, ub = heapq.heappop(heap)
        g = gap(ub)
        if g is not None and g <= 1:
            done.append(ub)
            continue
        d = max(range(len(box)), key=lambda j: (box[j][1] - box[j][0]) / (width[j] or 1))
        a, b = box[d]
        if a == b:  # a point: nothing to split
            done.append(ub)
            continue
        m = (a + b) / 2
        for half in ((a, m), (m, b)):
            push(box[:d] + (half,) + box[d + 1 :])
            boxes += 1
    leaves = done + [ub for *_, ub in heap]
    tight = all((g := gap(ub)) is not None and g <= 1 for ub in leaves)
    figs = []
    for k, (n, f) in enumerate(slots):
        hi: Fraction | None = ZERO
        for ub in leaves:
            hi = None if ub[k] is None or hi is None else max(hi, ub[k])  # type: ignore[type-var]
        lo = best[k]
        if lo is None:
            hi = None
        figs.append(BoxFigure(n, f, lo, hi, where[k], tight))
    return BoxSearch(tuple(figs), boxes)


def _key(g: Fraction | None) -> Any:
    """The heap's key: the widest gap first (None, an unbounded one, before all)."""
    return (0, ZERO) if g is None else (1, -g)


def steps_per_box(cls: IntervalChain, mech: SumMechanism, target: str, known: Sequence[str]) -> int:
    """The measured work of one sub-box (its enclosure and its centre's exact laws), in
    steps of about a microsecond: the forward pass's keys, once at the box's centre.

    Args:
        cls: the interval chain.
        mech: the mechanism on the sum.
        target: the target record.
        known: the known records.

    Returns:
        The estimated steps of one sub-box.
    """
    centre = tuple(((a + b) / 2,) * 2 for a, b in cls.box())
    laws = box_laws(cls, centre, target, known, mech.weights)  # type: ignore[arg-type]
    cells = sum(len(lo) for lo, _ in laws.laws.values())
    return STEP_COST * laws.steps + CELL_COST * cells * max(1, len(laws.known)) ** 2


#: steps of one key of the forward pass (both ends, both passes) and of one output cell
STEP_COST = 20
CELL_COST = 40


__all__ = [
    "BOUNDED_PAIRS",
    "DISCRETE_KINDS",
    "BoxFigure",
    "BoxLaws",
    "BoxSearch",
    "box_laws",
    "bounded",
    "notion_bounds",
    "search_figures",
    "steps_per_box",
]

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

**Lower ends.** At each sub-box's centre and corners the same code runs on the point (an interval of
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
from pdpsym.audit.class_box_laws import BoxLaws, Enc, box_laws, imul
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


@dataclass(frozen=True)
class Side:
    """One side of a pair over a sub-box: its law's enclosure, its exact law at the
    sub-box's centre, and its gradient's enclosure (None: no finite bound)."""

    box: Enc
    centre: dict[Fraction, Fraction]
    grads: list[Enc] | None

    def shifted(self, d: Fraction) -> Side:
        """The same law translated by ``d`` (the changed database's, Definition 5)."""

        def sh(x: dict[Fraction, Fraction]) -> dict[Fraction, Fraction]:
            return {s + d: v for s, v in x.items()}

        g = None if self.grads is None else [(sh(lo), sh(hi)) for lo, hi in self.grads]
        return Side((sh(self.box[0]), sh(self.box[1])), sh(self.centre), g)


#: a weight over a sub-box: its interval, its value at the centre, its gradient's (or None)
Weight = tuple[tuple[Fraction, Fraction], Fraction, list[tuple[Fraction, Fraction]] | None]


def _spread(grads: Sequence[tuple[Fraction, Fraction]], radius: Sequence[Fraction]) -> Fraction:
    """``max Σ_k g_k t_k`` over ``g_k`` in its interval and ``|t_k| <= radius_k``."""
    return sum((r * max(-lo, hi) for (lo, hi), r in zip(grads, radius, strict=True)), ZERO)


def _push_sides(mech: SumMechanism, sides: Sequence[Side]) -> list[list[dict[Any, Fraction]]]:
    """Every side's dicts pushed through the mechanism in one call (one output range):
    ``[lo, hi, centre, d_0 lo, d_0 hi, ...]`` per side (no gradients when it has none)."""
    flat: list[dict[Fraction, Fraction]] = []
    sizes = []
    for side in sides:
        part = [side.box[0], side.box[1], side.centre]
        for lo, hi in side.grads or []:
            part += [lo, hi]
        flat += part
        sizes.append(len(part))
    pushed = pushed_laws(mech, flat)
    out, at = [], 0
    for n in sizes:
        out.append(pushed[at : at + n])
        at += n
    return out


def _pair_mv(
    pp: Sequence[dict[Any, Fraction]],
    qq: Sequence[dict[Any, Fraction]],
    exps: Sequence[Fraction],
    radius: Sequence[Fraction],
    weight: Weight | None = None,
) -> tuple[Fraction | None, list[Fraction]]:
    """One pair's upper bounds over a sub-box: the smaller of the plain bound (``P^hi``
    against ``Q^lo``) and the mean-value form around the centre (Moore et al., Ch. 6:
    ``h(θ) <= h(c) + Σ_k r_k max |∂_k h|`` over the sub-box) for each output's
    ``P_y - L Q_y`` (times the weight, for a weighted pair) and ``P_y / Q_y``."""
    n = len(radius)
    have = len(pp) > 3 and len(qq) > 3 and (weight is None or weight[2] is not None)
    pl, ph, pc = pp[:3]
    ql, qh, qc = qq[:3]
    grads = (
        [(pp[3 + 2 * k], pp[4 + 2 * k], qq[3 + 2 * k], qq[4 + 2 * k]) for k in range(n)]
        if have
        else []
    )
    (wl, wh), wc, wg = (
        weight if weight is not None else ((Fraction(1), Fraction(1)), Fraction(1), [])
    )
    ratio: Fraction | None = ZERO
    for y, x in ph.items():
        if x <= 0 or ratio is None:
            continue
        d = ql.get(y, ZERO)
        if d <= 0:
            ratio = None
            continue
        r = x / d
        if have:
            qi = (d, qh.get(y, ZERO))
            pi = (pl.get(y, ZERO), x)
            gr = []
            for g in grads:
                a = imul((g[0].get(y, ZERO), g[1].get(y, ZERO)), qi)
                b = imul(pi, (g[2].get(y, ZERO), g[3].get(y, ZERO)))
                num = (a[0] - b[1], a[1] - b[0])
                gr.append(imul(num, (1 / qi[1] ** 2, 1 / qi[0] ** 2)))
            r = min(r, pc.get(y, ZERO) / qc[y] + _spread(gr, radius))
        ratio = max(ratio, r)
    deltas = []
    for e in exps:
        tot = ZERO
        # the outputs whose term is positive over the whole sub-box add up as one smooth
        # function: one mean-value form for their sum (their gradients may cancel)
        sure_bound, sure_c = ZERO, ZERO
        sure_g = [(ZERO, ZERO)] * n
        for y in set(ph) | set(qh):
            plain = ph.get(y, ZERO) - e * ql.get(y, ZERO)
            if plain <= 0:
                continue
            bound = wh * plain
            if not have:
                tot += bound
                continue
            hc = pc.get(y, ZERO) - e * qc.get(y, ZERO)
            gh = [
                (
                    g[0].get(y, ZERO) - e * g[3].get(y, ZERO),
                    g[1].get(y, ZERO) - e * g[2].get(y, ZERO),
                )
                for g in grads
            ]
            low = pl.get(y, ZERO) - e * qh.get(y, ZERO)
            if weight is None:
                kc, gk = hc, gh
            else:
                gk = []
                for k in range(n):
                    u, v = imul(wg[k], (low, plain)), imul((wl, wh), gh[k])  # type: ignore[index]
                    gk.append((u[0] + v[0], u[1] + v[1]))
                kc = wc * hc
            spread = _spread(gk, radius)
            bound = min(bound, kc + spread)
            if max(low, hc - _spread(gh, radius)) > 0:  # positive at every law of the box
                sure_bound += bound
                sure_c += kc
                sure_g = [(x[0] + z[0], x[1] + z[1]) for x, z in zip(sure_g, gk, strict=True)]
            else:
                tot += max(ZERO, bound)
        if have:
            tot += min(sure_bound, sure_c + _spread(sure_g, radius))
        deltas.append(tot)
    return ratio, deltas


def _side(laws: BoxLaws, centre: BoxLaws, key: tuple[Fraction, tuple[Fraction, ...]]) -> Side:
    """The side of ``key`` over the sub-box (no gradient when the centre lacks it)."""
    box = laws.laws.get(key, ({}, {}))
    if key not in centre.laws:
        return Side(box, {}, None)
    return Side(box, centre.laws[key][0], laws.grads.get(key))


def box_notion_bounds(
    laws: BoxLaws,
    centre: BoxLaws,
    radius: Sequence[Fraction],
    mech: SumMechanism,
    pairs: Pairs,
    exps: Sequence[Fraction],
) -> tuple[Fraction | None, list[Fraction]]:
    """A notion's upper bounds over a sub-box (module docstring): the ratio ``e^ε`` at
    δ = 0 (None: unbounded) and δ at each ε, each the smaller of the plain bound and the
    mean-value form around the centre.

    Args:
        laws: the sub-box's enclosed laws and gradients
            (:func:`~pdpsym.audit.class_box_laws.box_laws`).
        centre: the exact laws at the sub-box's centre (the same, on the point).
        radius: the sub-box's half-widths.
        mech: a discrete mechanism on the sum.
        pairs: the notion's pairs (one of :data:`BOUNDED_PAIRS`).
        exps: rational lower bounds of ``e^ε``.

    Returns:
        ``(ratio, deltas)``.

    References:
        Desfontaines et al. (2020), Definitions 5, 12, 13 and Lemma 1; Moore, Kearfott,
        Cloud (2009), Ch. 6.
    """
    ratio: Fraction | None = ZERO
    deltas = [ZERO] * len(exps)

    def take(r: Fraction | None, ds: Sequence[Fraction]) -> None:
        nonlocal ratio
        ratio = None if r is None or ratio is None else max(ratio, r)
        for k, d in enumerate(ds):
            deltas[k] = max(deltas[k], min(d, Fraction(1)))

    targets = sorted(laws.known)
    sides: dict[Any, Side] = {}
    for a in targets:
        for v in laws.known[a]:
            sides[(a, v)] = _side(laws, centre, (a, v))
            if pairs is Pairs.CHANGED:
                for b in laws.states:
                    if b != a:
                        sides[(a, v, b)] = sides[(a, v)].shifted(laws.shift[(a, b)])
    for a, b in itertools.permutations(targets, 2):  # a v impossible under b: Q = 0
        for v in laws.known[a]:
            sides.setdefault((b, v), Side(({}, {}), {}, None))
    keys = list(sides)
    pushed = dict(zip(keys, _push_sides(mech, [sides[k] for k in keys]), strict=True))
    if pairs is Pairs.CHANGED:  # the law against itself shifted, both ways, to every b
        for a in targets:
            for v in laws.known[a]:
                for b in laws.states:
                    if b != a:
                        take(*_pair_mv(pushed[(a, v)], pushed[(a, v, b)], exps, radius))
                        take(*_pair_mv(pushed[(a, v, b)], pushed[(a, v)], exps, radius))
        return ratio, deltas
    for a, b in itertools.permutations(targets, 2):
        ka = laws.known[a]
        if pairs is Pairs.WEIGHTED_KNOWN:
            tot: list[Fraction] = [ZERO] * len(exps)
            wr: Fraction | None = ZERO
            kg = laws.known_grads[a]
            for v, wiv in ka.items():
                wc = centre.known.get(a, {}).get(v)
                wgt: Weight = (wiv, wc[0] if wc else ZERO, kg[v] if kg and wc else None)
                r, ds = _pair_mv(pushed[(a, v)], pushed[(b, v)], exps, radius, wgt)
                if wiv[1] > 0:
                    wr = None if r is None or wr is None else max(wr, r)
                tot = [x + d for x, d in zip(tot, ds, strict=True)]
            take(wr, tot)
            continue
        for v in ka:
            if v in laws.known[b]:
                take(*_pair_mv(pushed[(a, v)], pushed[(b, v)], exps, radius))
    return ratio, deltas


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

    points: dict[Box, BoxLaws] = {}  # a centre's exact laws, used twice (bound, lower end)

    def at(box: Box) -> BoxLaws:
        if box in points:
            return points.pop(box)
        laws = box_laws(cls, box, target, known, mech.weights)
        if all(a == b for a, b in box):
            points[box] = laws
        return laws

    def vector(box: Box, point: bool) -> Vec:
        laws = at(box)
        if point:
            got = {k: notion_bounds(laws, mech, k, up, True) for k in kinds}
        else:
            mid = tuple(((a + b) / 2,) * 2 for a, b in box)
            ctr = at(mid)
            rad = [(b - a) / 2 for a, b in box]
            got = {k: box_notion_bounds(laws, ctr, rad, mech, k, down) for k in kinds}
        out: Vec = []
        for n, f in slots:
            r, ds = got[registry.notion(n).pairs]
            out.append(r if f < 0 else ds[f])
        return out

    root = cls.box()
    best: Vec = [ZERO] * len(slots)
    where: list[tuple[Fraction, ...]] = [tuple(a for a, _ in root)] * len(slots)

    seen: set[tuple[Fraction, ...]] = set()

    def lower(theta: tuple[Fraction, ...]) -> None:
        if theta in seen:
            return
        seen.add(theta)
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
        for corner in itertools.product(*box):  # a corner's exact value: the maximum of
            lower(corner)  # a sub-box is often there, and then its gap is second order
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


def steps_per_box(
    cls: IntervalChain,
    mech: SumMechanism,
    target: str,
    known: Sequence[str],
    notions: Sequence[str] = ("apkdp",),
) -> int:
    """The estimated work of one sub-box, in steps of about a microsecond: the forward
    passes (the sub-box's, with its gradients, and its centre's), the pushes of every
    side through the mechanism and the pairs' comparisons, counted on the laws at the
    box's centre (fitted in ``benchmarks/bench_class_audit_boxes.py``).

    Args:
        cls: the interval chain.
        mech: the mechanism on the sum.
        target: the target record.
        known: the known records.
        notions: the notions asked for (those :func:`bounded` count).

    Returns:
        The estimated steps of one sub-box.
    """
    box = cls.box()
    n = len(box)
    centre = tuple(((a + b) / 2,) * 2 for a, b in box)
    laws = box_laws(cls, centre, target, known, mech.weights)
    kinds = {registry.notion(x).pairs for x in notions if bounded(x, mech)} or {Pairs.GIVEN_KNOWN}
    keys = [lo for lo, _ in laws.laws.values()]
    values = [s for law in keys for s in law]
    span = int(max(values) - min(values)) + 3 if values else 1
    sides = len(keys) * (len(laws.states) if Pairs.CHANGED in kinds else 1)
    per_dict = sum(len(law) for law in keys) / max(len(keys), 1)
    if mech.kind == "geometric":
        per_dict *= span
    push = sides * (3 + 2 * n) * per_dict
    pairs = len(keys) * max(1, len(laws.states) - 1) * (2 if Pairs.CHANGED in kinds else 1)
    compare = len(kinds) * pairs * (span if mech.kind == "geometric" else per_dict) * (1 + n)
    return int(FORWARD_COST * laws.steps * (2 + n) + PUSH_COST * push + PAIR_COST * compare)


#: steps of one key of the forward pass, of one pushed dict entry, of one output compared
FORWARD_COST = 30
PUSH_COST = 6
PAIR_COST = 40


__all__ = [
    "BOUNDED_PAIRS",
    "DISCRETE_KINDS",
    "BoxFigure",
    "BoxSearch",
    "bounded",
    "box_notion_bounds",
    "notion_bounds",
    "search_figures",
    "steps_per_box",
]

"""Proven upper bounds of a notion's figures over a sub-box of an interval chain (the
branch and bound that turns them into a certified enclosure of the class's sup is
:mod:`pdpsym.audit.class_figure_search`).

Which figures: every notion that compares pairs of conditional output laws by the hockey
stick (:attr:`~pdpsym.audit.registry.Compare.HOCKEY_STICK`) whose pairs are built from the
laws given the target and the known records (:attr:`~pdpsym.audit.registry.Pairs.GIVEN_KNOWN`,
:attr:`~pdpsym.audit.registry.Pairs.WEIGHTED_KNOWN`, :attr:`~pdpsym.audit.registry.Pairs.CHANGED`),
for a mechanism with a discrete output on the weighted sum (the count, the threshold,
geometric noise): their ε at δ = 0 and their δ(ε); for Laplace noise on the sum, their
δ(ε) (:mod:`pdpsym.audit.class_audit_laplace`). The bound is written once against
the registry's ``Pairs`` and ``Compare``, never per notion name.

**The enclosure of the laws over a sub-box** (:mod:`pdpsym.audit.class_box_laws`): the
forward pass through the chain in exact interval arithmetic encloses every conditional
law of the query, and its gradient in the parameters, over the sub-box. The mechanism's
kernel is non-negative and linear, so pushing the ends through it encloses the output
laws (``P_y in [P_y^lo, P_y^hi]``) and their gradients.

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

**The mean-value form.** Each bound above is intersected with its mean-value form
around the sub-box's centre ``c`` (Moore et al., Ch. 6): for a smooth ``h`` (an output's
``P_y - L Q_y``, times ``w_v`` for a weighted pair, or ``P_y / Q_y`` where ``Q_y^lo > 0``),
``h(θ) <= h(c) + Σ_k r_k max |∂_k h|`` over the sub-box of half-widths ``r``, with the
exact ``h(c)`` and the gradient's enclosure; the outputs whose term is positive at every
law of the sub-box (a lower bound above 0) are summed first, so their gradients may
cancel. This bound is second order in the sub-box's width.

**Lower ends** (:mod:`pdpsym.audit.class_figure_search`): at each sub-box's centre and
corners, :func:`notion_bounds` runs on the point (an interval of width 0 is the exact
law) with ``U >= e^ε``: ``Σ_y max(0, P_y - U Q_y)`` is at most the law's δ(ε), and the
ratio is exact.

References:
    Kifer and Machanavajjhala (2014), Definition 3.1; Desfontaines et al. (2020),
    Definitions 5, 12, 13 and Lemma 1; Moore, Kearfott, Cloud, Introduction to Interval
    Analysis (SIAM 2009), Ch. 2 and 5.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pdpsym.audit import registry
from pdpsym.audit.class_box_laws import BoxLaws, Enc, imul
from pdpsym.audit.registry import Compare, Pairs
from pdpsym.audit.sum_posteriors import pushed_laws
from pdpsym.mechanisms.base import ReportMechanism, SumMechanism

Iv = tuple[Fraction, Fraction]
Box = tuple[Iv, ...]
#: the pairs a sub-box bound is proven for (with :attr:`Compare.HOCKEY_STICK`)
BOUNDED_PAIRS = (Pairs.GIVEN_KNOWN, Pairs.WEIGHTED_KNOWN, Pairs.CHANGED)
#: the posterior pairs (IBCDP, :attr:`Compare.POSTERIOR`) bounded for the discrete
#: mechanisms (:mod:`pdpsym.audit.class_audit_posteriors`)
POSTERIOR_PAIRS = (Pairs.CHANGED_POSTERIORS,)
#: the pairs bounded for randomized response (the laws of every record's report given
#: the target and the known records; the changed database's pairs are law-free there)
REPORT_PAIRS = (Pairs.GIVEN_KNOWN, Pairs.WEIGHTED_KNOWN)
#: the mechanisms on the sum whose output is discrete (pushed exactly)
DISCRETE_KINDS = ("count", "threshold", "geometric")
#: the mechanisms on the sum whose δ(ε) is bounded over a sub-box: the discrete ones here,
#: Laplace noise by :mod:`pdpsym.audit.class_audit_laplace` (δ(ε) only; its ε at δ = 0 of
#: the Eq. 2 notions is the Eq. 2 search's)
BOUNDED_KINDS = (*DISCRETE_KINDS, "laplace")
ZERO = Fraction(0)


def report_keep(mechanism: Any) -> Fraction | None:
    """Randomized response's ``keep`` (its reports' laws symmetric), else None.

    Args:
        mechanism: the audited mechanism.

    Returns:
        ``keep``, or None for any other mechanism.

    References:
        Warner (1965).
    """
    if isinstance(mechanism, ReportMechanism):
        return mechanism.symmetric_keep()
    return None


def bounded(notion: str, mechanism: Any) -> bool:
    """Whether the sub-box bound covers this notion with this mechanism.

    Args:
        notion: a notion's name.
        mechanism: the audited mechanism.

    Returns:
        True for a hockey-stick notion over the pairs of :data:`BOUNDED_PAIRS` and a
        mechanism on the sum of :data:`BOUNDED_KINDS`, or a posterior notion over
        :data:`POSTERIOR_PAIRS` and one of :data:`DISCRETE_KINDS`, or randomized response
        and the pairs of :data:`REPORT_PAIRS`.

    References:
        Desfontaines et al. (2020), Definitions 5, 6, 12, 13 and Lemma 1.
    """
    n = registry.notion(notion)
    if report_keep(mechanism) is not None:
        return n.compare is Compare.HOCKEY_STICK and n.pairs in REPORT_PAIRS
    if not isinstance(mechanism, SumMechanism):
        return False
    if n.compare is Compare.POSTERIOR:
        return mechanism.kind in DISCRETE_KINDS and n.pairs in POSTERIOR_PAIRS
    return (
        mechanism.kind in BOUNDED_KINDS
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


def pair_mean_value(
    pp: Sequence[dict[Any, Fraction]],
    qq: Sequence[dict[Any, Fraction]],
    exps: Sequence[Fraction],
    radius: Sequence[Fraction],
    weight: Weight | None = None,
) -> tuple[Fraction | None, list[Fraction]]:
    """One pair's upper bounds over a sub-box: the smaller of the plain bound (``P^hi``
    against ``Q^lo``) and the mean-value form around the centre (Moore et al., Ch. 6:
    ``h(θ) <= h(c) + Σ_k r_k max |∂_k h|`` over the sub-box) for each output's
    ``P_y - L Q_y`` (times the weight, for a weighted pair) and ``P_y / Q_y``.

    Args:
        pp: ``P``'s ``[lo, hi, centre, d_0 lo, d_0 hi, ...]`` over the outputs (only
            the first three: no mean-value form).
        qq: the same for ``Q``.
        exps: rational lower bounds of ``e^ε``.
        radius: the sub-box's half-widths.
        weight: a weighted pair's weight (interval, centre value, gradient), or None.

    Returns:
        ``(ratio, deltas)``: the ratio's bound (None: unbounded) and δ's at each ε.

    References:
        Desfontaines et al. (2020), Lemma 1; Moore, Kearfott, Cloud (2009), Ch. 6.
    """
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


def _max_or_none(a: Fraction | None, b: Fraction | None) -> Fraction | None:
    """The larger ratio, None (unbounded) when either is."""
    return None if a is None or b is None else max(a, b)


class _Sup:
    """The running sup over a notion's pairs: the ratio ``e^ε`` at δ = 0 (None:
    unbounded) and δ at each ε."""

    def __init__(self, n: int) -> None:
        self.ratio: Fraction | None = ZERO
        self.deltas = [ZERO] * n

    def take(self, r: Fraction | None, ds: Sequence[Fraction]) -> None:
        """One pair's (or one weighted sum's) ratio and deltas."""
        self.ratio = _max_or_none(self.ratio, r)
        for k, d in enumerate(ds):
            self.deltas[k] = max(self.deltas[k], d)


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
    sup = _Sup(len(exps))

    def take(r: Fraction | None, ds: Sequence[Fraction]) -> None:
        sup.take(r, [min(d, Fraction(1)) for d in ds])

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
                        take(*pair_mean_value(pushed[(a, v)], pushed[(a, v, b)], exps, radius))
                        take(*pair_mean_value(pushed[(a, v, b)], pushed[(a, v)], exps, radius))
        return sup.ratio, sup.deltas
    for a, b in itertools.permutations(targets, 2):
        ka = laws.known[a]
        if pairs is Pairs.WEIGHTED_KNOWN:
            tot: list[Fraction] = [ZERO] * len(exps)
            wr: Fraction | None = ZERO
            kg = laws.known_grads[a]
            for v, wiv in ka.items():
                wc = centre.known.get(a, {}).get(v)
                wgt: Weight = (wiv, wc[0] if wc else ZERO, kg[v] if kg and wc else None)
                r, ds = pair_mean_value(pushed[(a, v)], pushed[(b, v)], exps, radius, wgt)
                if wiv[1] > 0:
                    wr = _max_or_none(wr, r)
                tot = [x + d for x, d in zip(tot, ds, strict=True)]
            take(wr, tot)
            continue
        for v in ka:
            if v in laws.known[b]:
                take(*pair_mean_value(pushed[(a, v)], pushed[(b, v)], exps, radius))
    return sup.ratio, sup.deltas


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
    sup = _Sup(len(exps))
    take = sup.take

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
                    wr = _max_or_none(wr, r)
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
    return sup.ratio, sup.deltas


__all__ = [
    "BOUNDED_KINDS",
    "BOUNDED_PAIRS",
    "DISCRETE_KINDS",
    "POSTERIOR_PAIRS",
    "REPORT_PAIRS",
    "Side",
    "bounded",
    "box_notion_bounds",
    "notion_bounds",
    "pair_mean_value",
    "report_keep",
]

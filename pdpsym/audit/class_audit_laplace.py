"""Proven upper bounds of δ(ε) for Laplace noise on the sum over a sub-box of an interval
chain (the hockey-stick notions of :mod:`pdpsym.audit.class_audit_boxes`, whose branch
and bound :mod:`pdpsym.audit.class_figure_search` runs them).

**The bound.** On a sub-box, the forward pass (:mod:`pdpsym.audit.class_box_laws`)
encloses each conditional law of the query: ``P_lo(c) <= P(c) <= P_hi(c)`` and
``Q_lo(c) <= Q(c) <= Q_hi(c)`` for every value ``c`` and every law of the sub-box. The
output densities are the mixtures ``p(y) = Σ_c P(c) K(y - c)`` and
``q(y) = Σ_c Q(c) K(y - c)`` with the Laplace kernel ``K(z) = e^{-|z|/λ} / (2λ) > 0``, so
pointwise ``p(y) <= p_hi(y) = Σ_c P_hi(c) K(y - c)`` and ``q(y) >= q_lo(y) =
Σ_c Q_lo(c) K(y - c)``. The integrand of ``δ(ε) = ∫ max(0, p(y) - e^ε q(y)) dy``
(Desfontaines et al., Lemma 1) is increasing in ``p(y)`` and decreasing in ``q(y)``, so

    δ(ε) <= ∫ max(0, p_hi(y) - e^ε q_lo(y)) dy,

the hockey stick of two unnormalised Laplace mixtures with the same scale. That integral
is exactly what :class:`~pdpsym.loss.laplace_pair.LaplacePair` computes: its closed form
(the breakpoint lemma: on a segment between two centres ``p - e^ε q`` is
``α e^{y/λ} + β e^{-y/λ}`` and changes sign at most once) never uses that the weights sum
to 1, and the class accepts unnormalised weights. Its exact value is enclosed in a ball
and the ball's upper end is the bound; it is also at most 1, the true δ's ceiling. A
weighted pair (Definition 13) is ``Σ_v w_v δ_v <= Σ_v w_v^hi δ_v^hi``; the changed
database's pair (Definition 5) is the law against itself translated, both ways. Pairs a
law of the sub-box may not have (a known value impossible under ``b`` somewhere) are
compared against ``Q = 0`` (``δ_v^hi`` is then ``P``'s mass), which only raises the bound.

**Lower ends.** At a point (a sub-box of width 0) the enclosures are the exact laws and
the same class gives that law's exact δ(ε); the lower end of its ball is a certified lower
bound of the class's sup.

The bound is first order in the sub-box's width (no mean-value form here), so the search
usually stops at its budget with an enclosure of the sup rather than the sup to the
asked digits; both ends hold.

References:
    Kifer and Machanavajjhala (2014), Definition 3.1; Desfontaines et al. (2020),
    Definitions 5, 12, 13 and Lemma 1; Li et al. (2019), Eq. 2 (the Laplace mixtures);
    Moore, Kearfott, Cloud, Introduction to Interval Analysis (SIAM 2009), Ch. 2.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from pdpsym.audit.class_box_laws import BoxLaws, Enc, imul
from pdpsym.audit.registry import Pairs
from pdpsym.core.balls import Ball, ball_endpoints, to_ball, working_precision
from pdpsym.core.certify import enclose
from pdpsym.core.eps import Eps
from pdpsym.loss.laplace_pair import LaplacePair

ZERO = Fraction(0)
ONE = Fraction(1)
#: bits of the balls that enclose each exact δ (far below the search's 10^-3 tolerance)
PREC = 96


def pair_delta(
    p: Mapping[Fraction, Fraction],
    q: Mapping[Fraction, Fraction],
    lam: Fraction,
    eps: Sequence[Eps],
    upper: bool,
) -> list[Fraction]:
    """``∫ max(0, Σ_c p(c) K(y - c) - e^ε Σ_c q(c) K(y - c)) dy`` for unnormalised
    non-negative weights, enclosed: the ball's upper end (``upper``) or lower end.

    Args:
        p: centre -> weight (non-negative, any total).
        q: centre -> weight (non-negative, any total; empty: ``q = 0``).
        lam: the Laplace scale.
        eps: the ε values (exact).
        upper: the upper end (a bound over a sub-box) or the lower end (a point's value).

    Returns:
        One bound per ε, an upper one at most 1 or a lower one at least 0.

    References:
        Desfontaines et al. (2020), Lemma 1; Li et al. (2019), Eq. 2.
    """
    pair = LaplacePair(p, q, lam)
    out = []
    for e in eps:
        lo, hi = ball_endpoints(enclose(pair.delta(e).value, PREC))
        out.append(min(hi, ONE) if upper else max(lo, ZERO))
    return out


#: a piece of the line: rational ends, None for -inf (left) or +inf (right)
Piece = tuple[Fraction | None, Fraction | None]


def _pieces(
    p: Mapping[Fraction, Fraction],
    q: Mapping[Fraction, Fraction],
    e_lo: Fraction,
    e_hi: Fraction,
    lam: Fraction,
    outer: bool,
) -> list[Piece]:
    """Pieces covering ``{y: p(y) - E q(y) >= 0}`` for every ``E`` in ``[e_lo, e_hi]``
    (``outer``), or inside ``{y: p(y) - E q(y) > 0}`` for every such ``E`` (inner): on a
    segment between centres ``2λ (p - E q) = α e^{y/λ} + β e^{-y/λ}`` changes sign at most
    once, at ``e^{2y*/λ} = -β/α`` (the breakpoint lemma of
    :mod:`pdpsym.loss.laplace_pair`); signs and ``y*`` in balls, an undecided sign taken
    as the whole segment (outer) or none of it (inner)."""
    cs = sorted(set(p) | set(q))
    out: list[Piece] = []
    with working_precision(PREC):
        E = to_ball(e_lo) if outer else to_ball(e_hi)  # the E that widens (narrows) the set
        la = to_ball(lam)

        def w(c: Fraction) -> Ball:
            return to_ball(p.get(c, ZERO)) - E * to_ball(q.get(c, ZERO))

        ex = {c: (to_ball(c) / la).exp() for c in cs}
        ws = {c: w(c) for c in cs}
        bounds: list[Fraction | None] = [None, *cs, None]
        for j in range(len(cs) + 1):
            x, y = bounds[j], bounds[j + 1]
            alpha = sum((ws[c] / ex[c] for c in cs[j:]), to_ball(0))
            beta = sum((ws[c] * ex[c] for c in cs[:j]), to_ball(0))
            a_lo, a_hi = ball_endpoints(alpha)
            b_lo, b_hi = ball_endpoints(beta)
            pos_a, pos_b = a_lo > 0, b_lo > 0
            neg_a, neg_b = a_hi < 0, b_hi < 0
            if (a_lo >= 0 and b_lo >= 0) and (outer or pos_a or pos_b):
                out.append((x, y))
            elif (a_hi <= 0 and b_hi <= 0) and (neg_a or neg_b or not outer):
                continue
            elif (pos_a and neg_b) or (neg_a and pos_b):
                r_lo, r_hi = ball_endpoints(la * (-beta / alpha).log() / 2)
                if pos_a:  # positive above y*
                    u = r_lo if outer else r_hi
                    u = u if x is None else max(u, x)
                    if y is None or u < y:
                        out.append((u, y))
                else:  # positive below y*
                    v = r_hi if outer else r_lo
                    v = v if y is None else min(v, y)
                    if x is None or v > x:
                        out.append((x, v))
            elif outer:  # undecided
                out.append((x, y))
    return out


def _mass(pieces: Sequence[Piece], c: Fraction, lam: Fraction, upper: bool) -> Fraction:
    """``∫ K(y - c) dy`` over the pieces (no piece has ``c`` inside it), enclosed: the
    ball's upper or lower end."""
    with working_precision(PREC):
        la = to_ball(lam)

        def cdf(z: Fraction | None, inf: int) -> Ball:
            if z is None:
                return to_ball(0 if inf < 0 else 1)
            zb = to_ball(z - c) / la
            return (zb.exp() / 2) if z <= c else (1 - (-zb).exp() / 2)

        tot = sum((cdf(v, 1) - cdf(u, -1) for u, v in pieces), to_ball(0))
        lo, hi = ball_endpoints(tot)
    return min(hi, ONE) if upper else max(lo, ZERO)


def mean_value_delta(
    p: tuple[Enc, dict[Fraction, Fraction], list[Enc]],
    q: tuple[Enc, dict[Fraction, Fraction], list[Enc]],
    lam: Fraction,
    eps: Sequence[Eps],
    radius: Sequence[Fraction],
) -> list[Fraction]:
    """The mean-value form of one pair's δ(ε) over a sub-box: ``δ(θ) <= δ(c) + Σ_k r_k
    M_k`` (second order in the sub-box's width).

    **Proof.** Let ``D(P, Q) = ∫ max(0, f)``, ``f = Σ_x (P(x) - e^ε Q(x)) K(y - x)``: ``D``
    is convex in the weights. Along the segment from the centre's weights ``w_c`` to a
    law's ``w_θ`` (both inside the sub-box's enclosures, hence so is every point of the
    segment), ``φ(t) = D(w_c + t Δw)`` is convex, so ``δ(θ) - δ(c) = ∫_0^1 φ'(t) dt``
    with the right derivative ``φ'(t) = Σ_x s_t(x) (ΔP(x) - e^ε ΔQ(x))``,
    ``s_t(x) = ∫ σ_t(y) K(y - x) dy`` and ``σ_t`` between the indicators of ``{f_t > 0}``
    and ``{f_t >= 0}``. Pointwise ``f_lo <= f_t <= f_hi`` (``f_lo`` from ``P_lo`` and
    ``Q_hi``, ``f_hi`` from ``P_hi`` and ``Q_lo``), so ``s_t(x)`` lies in
    ``[∫_{f_lo > 0} K(y - x), ∫_{f_hi >= 0} K(y - x)]`` (:func:`_pieces`). By the
    mean-value theorem per entry, ``ΔP(x) - e^ε ΔQ(x) = Σ_k (θ_k - c_k) G_k(x)`` with
    ``G_k(x)`` in the gradients' enclosure ``∂_k P - e^ε ∂_k Q``. Hence
    ``δ(θ) - δ(c) <= Σ_k r_k max |Σ_x s(x) G_k(x)|`` over the two enclosures, the
    interval sum ``Σ_x [s_lo, s_hi] [G_lo, G_hi]`` bounding it. Both enclosures have width
    of the order of the sub-box's, so the overestimate is second order.

    Args:
        p: ``P``'s enclosure over the sub-box, its exact law at the centre, its
            gradients' enclosures (one per parameter).
        q: the same for ``Q``.
        lam: the Laplace scale.
        eps: the ε values (exact).
        radius: the sub-box's half-widths.

    Returns:
        An upper bound of δ at each ε over the sub-box (at most 1).

    References:
        Desfontaines et al. (2020), Lemma 1; Moore, Kearfott, Cloud (2009), Ch. 6
        (the mean-value form); Rockafellar, Convex Analysis (1970), Thm. 24.2.
    """
    (pl, ph), pc, pg = p
    (ql, qh), qc, qg = q
    at_c = pair_delta(pc, qc, lam, eps, True)
    cs = sorted(set(ph) | set(qh) | set(pc) | set(qc))
    out = []
    for e, dc in zip(eps, at_c, strict=True):
        e_lo, e_hi = ball_endpoints(e.arb_exp(PREC))
        outer = _pieces(ph, ql, e_lo, e_hi, lam, True)
        inner = _pieces(pl, qh, e_lo, e_hi, lam, False)
        s = {c: (_mass(inner, c, lam, False), _mass(outer, c, lam, True)) for c in cs}
        spread = ZERO
        for (gpl, gph), (gql, gqh), r in zip(pg, qg, radius, strict=True):
            lo = hi = ZERO
            for c in cs:
                eq = imul((e_lo, e_hi), (gql.get(c, ZERO), gqh.get(c, ZERO)))
                g = (gpl.get(c, ZERO) - eq[1], gph.get(c, ZERO) - eq[0])
                t = imul(s[c], g)
                lo, hi = lo + t[0], hi + t[1]
            spread += r * max(-lo, hi)
        out.append(min(dc + spread, ONE))
    return out


def _shifted(law: Mapping[Fraction, Fraction], d: Fraction) -> dict[Fraction, Fraction]:
    return {s + d: x for s, x in law.items()}


def laplace_bounds(
    laws: BoxLaws,
    lam: Fraction,
    pairs: Pairs,
    eps: Sequence[Eps],
    point: bool,
    centre: BoxLaws | None = None,
    radius: Sequence[Fraction] = (),
) -> list[Fraction]:
    """A hockey-stick notion's δ(ε) for Laplace noise on the sum over a sub-box (module
    docstring): upper bounds from ``P_hi`` against ``Q_lo``, or at a point (``point``)
    certified lower bounds of the law's exact δ.

    Args:
        laws: the sub-box's enclosed laws (:func:`~pdpsym.audit.class_box_laws.box_laws`).
        lam: the Laplace scale.
        pairs: the notion's pairs (one of
            :data:`~pdpsym.audit.class_audit_boxes.BOUNDED_PAIRS`).
        eps: the ε values (exact).
        point: whether ``laws`` are one law's (lower ends) or a sub-box's (upper bounds).
        centre: the exact laws at the sub-box's centre: with them, each unweighted pair's
            bound is also the smaller with its mean-value form (:func:`mean_value_delta`).
        radius: the sub-box's half-widths (with ``centre``).

    Returns:
        δ's bound at each ε.

    References:
        Desfontaines et al. (2020), Definitions 5, 12, 13 and Lemma 1.
    """
    side = 0 if point else 1  # the P side: exact (lo = hi) at a point, P_hi on a sub-box
    deltas = [ZERO] * len(eps)

    def take(ds: Sequence[Fraction]) -> None:
        for k, d in enumerate(ds):
            deltas[k] = max(deltas[k], min(d, ONE))

    def pair(pa: Mapping[Fraction, Fraction], qb: Mapping[Fraction, Fraction]) -> list[Fraction]:
        return pair_delta(pa, qb, lam, eps, not point)

    def jet(key: tuple[Fraction, tuple[Fraction, ...]], d: Fraction) -> Any:
        """A side's enclosure, centre law and gradients, translated by ``d`` (None: no
        gradient)."""
        g = laws.grads.get(key)
        if centre is None or key not in centre.laws or g is None or key not in laws.laws:
            return None
        lo, hi = laws.laws[key]
        return (
            (_shifted(lo, d), _shifted(hi, d)),
            _shifted(centre.laws[key][0], d),
            [(_shifted(a, d), _shifted(b, d)) for a, b in g],
        )

    def box_pair(ka: Any, da: Fraction, kb: Any, db: Fraction) -> list[Fraction]:
        """A sub-box's bound of one unweighted pair (``P`` of ``ka`` translated by ``da``
        against ``Q`` of ``kb`` translated by ``db``): plain, and its mean-value form."""
        pa = _shifted(laws.laws[ka][1], da)
        qb = _shifted(laws.laws.get(kb, ({}, {}))[0], db)
        plain = pair_delta(pa, qb, lam, eps, True)
        jp, jq = jet(ka, da), jet(kb, db)
        if jp is None or jq is None:
            return plain
        mv = mean_value_delta(jp, jq, lam, eps, radius)
        return [min(x, y) for x, y in zip(plain, mv, strict=True)]

    targets = sorted(laws.known)
    if pairs is Pairs.CHANGED:  # the law against itself translated, both ways, to every b
        for a in targets:
            for v in laws.known[a]:
                lo_hi = laws.laws[(a, v)]
                for b in laws.states:
                    if b == a or (point and b in laws.known and v not in laws.known[b]):
                        continue
                    d = laws.shift[(a, b)]
                    if not point:
                        take(box_pair((a, v), ZERO, (a, v), d))
                        take(box_pair((a, v), d, (a, v), ZERO))
                        continue
                    take(pair(lo_hi[side], _shifted(lo_hi[0], d)))
                    take(pair(_shifted(lo_hi[side], d), lo_hi[0]))
        return deltas
    for a, b in itertools.permutations(targets, 2):
        ka, kb = laws.known[a], laws.known[b]
        if point:  # a law's own pairs: the known values possible under both
            vs = [v for v in ka if v in kb]
        else:  # a value impossible under b somewhere in the sub-box: against Q = 0
            vs = list(ka)
        if pairs is Pairs.WEIGHTED_KNOWN:
            tot = [ZERO] * len(eps)
            for v in ka:
                wt = ka[v][side]
                if wt == 0:  # (a value impossible under b: against Q = 0, as a law's own)
                    continue
                qb = laws.laws.get((b, v), ({}, {}))[0]
                ds = pair(laws.laws[(a, v)][side], qb)
                tot = [x + wt * d for x, d in zip(tot, ds, strict=True)]
            take(tot)
            continue
        for v in vs:
            if not point:
                take(box_pair((a, v), ZERO, (b, v), ZERO))
                continue
            take(pair(laws.laws[(a, v)][side], laws.laws.get((b, v), ({}, {}))[0]))
    return deltas


__all__ = ["PREC", "laplace_bounds", "pair_delta"]

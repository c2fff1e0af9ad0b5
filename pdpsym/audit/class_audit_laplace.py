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

from pdpsym.audit.class_box_laws import BoxLaws
from pdpsym.audit.registry import Pairs
from pdpsym.core.certify import ball_endpoints, enclose
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


def _shifted(law: Mapping[Fraction, Fraction], d: Fraction) -> dict[Fraction, Fraction]:
    return {s + d: x for s, x in law.items()}


def laplace_bounds(
    laws: BoxLaws, lam: Fraction, pairs: Pairs, eps: Sequence[Eps], point: bool
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

    targets = sorted(laws.known)
    if pairs is Pairs.CHANGED:  # the law against itself translated, both ways, to every b
        for a in targets:
            for v in laws.known[a]:
                lo_hi = laws.laws[(a, v)]
                for b in laws.states:
                    if b == a or (point and b in laws.known and v not in laws.known[b]):
                        continue
                    d = laws.shift[(a, b)]
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
            take(pair(laws.laws[(a, v)][side], laws.laws.get((b, v), ({}, {}))[0]))
    return deltas


__all__ = ["PREC", "laplace_bounds", "pair_delta"]

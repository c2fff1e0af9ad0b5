"""Proven upper bounds of IBCDP's figures over a sub-box of an interval chain, for a
mechanism with a discrete output on the weighted sum (the count, the threshold,
geometric noise); the branch and bound that turns them into an enclosure of the class's
sup is :mod:`pdpsym.audit.class_figure_search`.

**IBCDP's pairs** (Desfontaines et al., Definition 6; :mod:`pdpsym.audit.sum_posteriors`).
For a known value ``v``, a value ``b`` of the target's domain and an output ``t``, the
posteriors of the target given ``M(D) = t, x_K = v`` and given ``M(D_{i→b}) = t,
x_K = v`` are ``post_1(a) = u_1(a) / Σ_a' u_1(a')`` and ``post_2(a) = u_2(a) / Σ_a'
u_2(a')`` with ``u_1(a) = Σ_s J(a, v, s) K(t | s)``, ``u_2(a) = Σ_s J(a, v, s) K(t | s +
w_i (b - a))``, ``J(a, v, s) = P[x_i = a, x_K = v, f = s]`` and ``K`` the mechanism's
kernel; IBCDP compares ``post_1`` with ``post_2`` (and back) by the hockey stick over the
target's values ``a``: ``δ(ε) = Σ_a max(0, post_1(a) - e^ε post_2(a))`` and the ratio
``max_a post_1(a) / post_2(a)`` (``e^ε`` at δ = 0), each maximized over ``(v, b, t)``
and both directions.

**The bound.** On a sub-box the forward pass (:mod:`pdpsym.audit.class_box_laws`)
encloses every ``J(a, v, s)`` and its gradient in the parameters. The kernel is
non-negative and linear in the weights, so pushing the enclosures' ends through it
(:func:`~pdpsym.audit.sum_posteriors.pushed_laws`, one output range for every law of
the pair, as the single-law engine does) encloses every ``u(a)`` and its gradient. A
posterior ``u(a) / (u(a) + R)``, ``R = Σ_{a' ≠ a} u(a')``, is increasing in ``u(a)`` and
decreasing in ``R``, which encloses it, and its gradient by interval arithmetic
(:func:`~pdpsym.audit.class_box_laws.conditional`). The two posteriors are then a pair of
laws over the target's values with enclosures, an exact value at the sub-box's centre and
gradient enclosures: exactly what the hockey-stick bound of
:mod:`pdpsym.audit.class_audit_boxes` takes (``Σ_a max(0, post_1^hi - L post_2^lo)`` for
``L <= e^ε``, ``max_a post_1^hi / post_2^lo``, each intersected with its mean-value form
around the centre, second order in the sub-box's width). Every pair of a law of the
sub-box is one of these ``(v, b, t)``: a ``v`` or an ``a`` of positive probability
somewhere in the sub-box has a positive upper end; for geometric noise an output of the
law's own range (or a lumped tail of it, whose posteriors are those of its range's end)
lies in the pair's range, which contains every law's centres. Pairs a law does not have
(an output it cannot produce) only add terms to the max.

**Lower ends.** At a point the enclosures are the exact masses: the same pairs give the
law's exact ratio, and ``Σ_a max(0, post_1(a) - U post_2(a))`` with ``U >= e^ε`` is at
most its δ(ε), skipping the outputs that one side cannot produce, as the single-law
engine does.

References:
    Desfontaines et al. (2020), Definition 6 and Lemma 1; Kifer and Machanavajjhala
    (2014), Definition 3.1; Moore, Kearfott, Cloud, Introduction to Interval Analysis
    (SIAM 2009), Ch. 2 and 6.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from pdpsym.audit.class_audit_boxes import pair_mean_value
from pdpsym.audit.class_box_laws import BoxLaws, Iv, conditional
from pdpsym.audit.sum_posteriors import pushed_laws
from pdpsym.mechanisms.base import SumMechanism

ZERO = Fraction(0)
ONE = Fraction(1)
Jets = dict[Fraction, list[Iv]]


def _shift(row: Jets, d: Fraction) -> Jets:
    return {s + d: jet for s, jet in row.items()}


def _pushed_jets(
    mech: SumMechanism, fams: Sequence[Sequence[Jets]]
) -> list[list[dict[Any, list[Iv]]]]:
    """Every family's masses pushed through the kernel, in one call (one output range):
    per family and value, ``{output: [value, d/dθ_0, ...]}`` as intervals."""
    flat: list[dict[Fraction, Fraction]] = []
    for fam in fams:
        for row in fam:
            n = len(next(iter(row.values()))) if row else 1
            for k in range(n):
                flat.append({s: jet[k][0] for s, jet in row.items()})
                flat.append({s: jet[k][1] for s, jet in row.items()})
    pushed = pushed_laws(mech, flat)
    out: list[list[dict[Any, list[Iv]]]] = []
    at = 0
    for fam in fams:
        rows: list[dict[Any, list[Iv]]] = []
        for row in fam:
            n = len(next(iter(row.values()))) if row else 1
            parts = pushed[at : at + 2 * n]
            at += 2 * n
            outs = set().union(*parts)
            rows.append(
                {
                    o: [
                        (parts[2 * k].get(o, ZERO), parts[2 * k + 1].get(o, ZERO)) for k in range(n)
                    ]
                    for o in outs
                }
            )
        out.append(rows)
    return out


def _posterior(
    values: Sequence[Fraction], rows: Sequence[dict[Any, Any]], t: Any
) -> dict[Fraction, list[Iv]]:
    """The jets of ``u(a)`` at output ``t`` for the values whose upper end is positive."""
    out = {}
    for a, row in zip(values, rows, strict=True):
        jet = row.get(t)
        if jet is not None and jet[0][1] > 0:
            out[a] = jet
    return out


def _side(
    row: dict[Fraction, list[Iv]], centre: dict[Fraction, list[Iv]] | None
) -> list[dict[Any, Fraction]]:
    """A posterior as the hockey-stick bound takes it: ``[lo, hi, centre, d_0 lo, d_0 hi,
    ...]`` over the target's values (no gradients when the centre lacks the output or the
    total may vanish in the sub-box)."""
    (lo, hi), grads = conditional(row)
    if centre is None:
        return [lo, hi, {}]
    tot = sum((jet[0][0] for jet in centre.values()), ZERO)
    if tot <= 0 or grads is None:
        return [lo, hi, {}]
    exact = {a: jet[0][0] / tot for a, jet in centre.items()}
    out = [lo, hi, exact]
    for gl, gh in grads:
        out += [gl, gh]
    return out


def posterior_bounds(
    laws: BoxLaws,
    centre: BoxLaws | None,
    radius: Sequence[Fraction],
    mech: SumMechanism,
    exps: Sequence[Fraction],
    point: bool,
) -> tuple[Fraction | None, list[Fraction]]:
    """IBCDP's figures over a sub-box (module docstring): the ratio ``e^ε`` at δ = 0
    (None: unbounded) and δ at each ε; upper bounds over the sub-box, or at a point
    (``point``) the exact ratio and lower bounds of δ.

    Args:
        laws: the sub-box's enclosed masses (:func:`~pdpsym.audit.class_box_laws.box_laws`).
        centre: the exact masses at the sub-box's centre (None at a point).
        radius: the sub-box's half-widths.
        mech: a discrete mechanism on the sum (count, threshold, geometric).
        exps: rational bounds of ``e^ε``: at most ``e^ε`` for upper bounds, at least it
            for ``point``.
        point: whether ``laws`` are one law's.

    Returns:
        ``(ratio, deltas)``.

    References:
        Desfontaines et al. (2020), Definition 6 and Lemma 1; Moore, Kearfott, Cloud
        (2009), Ch. 6.
    """
    ratio: Fraction | None = ZERO
    deltas = [ZERO] * len(exps)
    known = sorted({v for _, v in laws.joint})
    for v in known:
        values = [a for a in laws.states if (a, v) in laws.joint]
        rows = [laws.joint[(a, v)] for a in values]
        cvals = [] if centre is None else [a for a in values if (a, v) in centre.joint]
        crows = [] if centre is None else [centre.joint[(a, v)] for a in cvals]
        for b in laws.states:
            moved = [_shift(r, laws.shift.get((a, b), ZERO)) for a, r in zip(values, rows)]
            cmoved = [_shift(r, laws.shift.get((a, b), ZERO)) for a, r in zip(cvals, crows)]
            p1, p2, c1, c2 = _pushed_jets(mech, [rows, moved, crows, cmoved])
            for t in sorted({o for r in p1 + p2 for o in r}, key=repr):
                u1, u2 = _posterior(values, p1, t), _posterior(values, p2, t)
                if not u1 or not u2:
                    continue
                if point:
                    z1 = sum((j[0][0] for j in u1.values()), ZERO)
                    z2 = sum((j[0][0] for j in u2.values()), ZERO)
                    post1 = {a: j[0][0] / z1 for a, j in u1.items()}
                    post2 = {a: j[0][0] / z2 for a, j in u2.items()}
                    for x, y in ((post1, post2), (post2, post1)):
                        # at a point the plain bound is the law's exact ratio and, with
                        # U >= e^ε, a lower bound of its δ
                        r, ds = pair_mean_value([x, x, {}], [y, y, {}], exps, [])
                        ratio = None if r is None or ratio is None else max(ratio, r)
                        deltas = [max(x, min(d, ONE)) for x, d in zip(deltas, ds, strict=True)]
                    continue
                s1 = _side(u1, _posterior(cvals, c1, t) or None if centre else None)
                s2 = _side(u2, _posterior(cvals, c2, t) or None if centre else None)
                for pa, pb in ((s1, s2), (s2, s1)):
                    r, ds = pair_mean_value(pa, pb, exps, radius)
                    ratio = None if r is None or ratio is None else max(ratio, r)
                    deltas = [max(x, min(d, ONE)) for x, d in zip(deltas, ds, strict=True)]
    return ratio, deltas


__all__ = ["posterior_bounds"]

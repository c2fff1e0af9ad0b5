"""Enclosures of a k-state interval chain's conditional query laws over a sub-box of its
parameters (no gradients: the bounds of :mod:`pdpsym.audit.class_audit_boxes` then use
the enclosures' ends only, first order in the sub-box's width).

On a sub-box every transition entry lies in an exact interval, the rows clipped to their
polytopes (:meth:`~pdpsym.models.interval_chain_k.IntervalChainK.entries`; None when the
sub-box holds no member). The stationary law is ``pi_j = w_j / Σ_l w_l`` with the Markov
chain tree theorem's weights ``w`` (:func:`~pdpsym.models.interval_chain_k.tree_weights`),
polynomials with non-negative coefficients, increasing in every entry: ``w_j`` lies
between its values at the entries' lower and upper ends, and ``pi_j``, increasing in
``w_j`` and decreasing in the others, in ``[w_j^lo / (w_j^lo + Σ_{l≠j} w_l^hi),
w_j^hi / (w_j^hi + Σ_{l≠j} w_l^lo)]``. Every joint mass ``P[x_i = a, x_K = v, f = s]``
is a sum of products of these non-negative entries, so the forward pass in exact interval
arithmetic (:func:`~pdpsym.audit.class_box_laws.forward_laws`) encloses it for every
member of the sub-box, and with it every conditional law.

References:
    Leighton and Rivest (1983), the Markov chain tree theorem; Moore, Kearfott, Cloud,
    Introduction to Interval Analysis (SIAM 2009), Ch. 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, cast

from pdpsym.audit.class_box_laws import BoxLaws, Emission, Iv, box_laws, forward_laws
from pdpsym.models.interval_chain_k import Box, IntervalChainK, tree_weights
from pdpsym.models.interval_rows import IntervalChainBase

ZERO = Fraction(0)
ONE = Fraction(1)


def stationary_enclosure(rows: Sequence[Sequence[Iv]]) -> list[Iv]:
    """The stationary law's enclosure over interval rows (module docstring).

    Args:
        rows: ``k`` rows of ``k`` intervals of non-negative entries.

    Returns:
        ``k`` intervals (``[0, 1]`` where a denominator may vanish).

    References:
        Leighton and Rivest (1983); Levin, Peres, Wilmer (2009), Sec. 1.5.
    """
    w_lo = tree_weights([[a for a, _ in r] for r in rows])
    w_hi = tree_weights([[b for _, b in r] for r in rows])
    out = []
    for j in range(len(rows)):
        d_lo = w_lo[j] + sum(w_hi) - w_hi[j]
        d_hi = w_hi[j] + sum(w_lo) - w_lo[j]
        lo = w_lo[j] / d_lo if d_lo > 0 else ZERO
        hi = min(w_hi[j] / d_hi, ONE) if d_hi > 0 else ONE
        out.append((lo, hi))
    return out


def chain_box_laws(
    cls: IntervalChainBase,
    box: Box,
    target: str,
    known: Sequence[str],
    weights: Any,
    emit: Emission | None = None,
) -> BoxLaws | None:
    """Enclose every conditional law of the query over a sub-box of any interval chain
    (module docstring): a box of members' (two states) by
    :func:`~pdpsym.audit.class_box_laws.box_laws`, with gradients; a clipped one's (more
    than two states) here, first order (no gradients).

    Args:
        cls: the interval chain.
        box: a sub-box of its :meth:`~pdpsym.models.interval_rows.IntervalChainBase.box`
            (a point gives the exact laws).
        target: the target record.
        known: the known records.
        weights: the query's weights (record -> weight; None: all 1).
        emit: randomized response's report laws (None: the weighted sum).

    Returns:
        The :class:`~pdpsym.audit.class_box_laws.BoxLaws`, or None when the sub-box holds
        no member.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1; Moore, Kearfott, Cloud (2009),
        Ch. 2; Desfontaines et al. (2020), Definition 12.
    """
    if not cls.clipped:
        return box_laws(cls, box, target, known, weights, emit)  # type: ignore[arg-type]
    kc = cast(IntervalChainK, cls)
    ent = kc.entries(box)
    if ent is None:
        return None
    k = kc.k
    rows = ent[:k]
    if kc.initial == "stationary":
        init = stationary_enclosure(rows)
    elif isinstance(kc.initial[0], tuple):
        init = list(ent[k])
    else:
        init = [(p, p) for p in kc.initial]  # type: ignore[misc]
    vals = kc.member(kc.centre(box)).states
    trans = [[[iv] for iv in r] for r in rows]
    inits = [[iv] for iv in init]
    laws = forward_laws(trans, inits, vals, kc.variables, target, known, weights, emit)
    laws.grads = dict.fromkeys(laws.grads)
    laws.known_grads = dict.fromkeys(laws.known_grads)
    return laws


__all__ = ["chain_box_laws", "stationary_enclosure"]

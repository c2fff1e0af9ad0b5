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

The binary search (:mod:`pdpsym.loss.class_search`) and this one share the driver of
:mod:`pdpsym.loss.class_branch_bound` and the bookkeeping of
:mod:`pdpsym.loss.class_targets`; only their bounds and candidates differ.

References:
    Li et al. (2019), Sec. III, Eq. 2; Kifer and Machanavajjhala (2014), Definition 3.1;
    Horst and Tuy, Global Optimization, 3rd ed. (1996), Ch. IV (branch and bound).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction

from pdpsym.core.errors import InputError
from pdpsym.loss.class_kstate_bounds import KShape, box_upper, point_estimate
from pdpsym.loss.class_targets import (
    ClassLeakage,
    ClassQuery,
    ClassSearch,
    TargetBounds,
    Upper,
    check_names,
)
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
    check_names(names, targets, known)
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


def k_chain_search(cls: IntervalChainK, query: ClassQuery, search: ClassSearch) -> ClassLeakage:
    """Eq. 2's sup over a k-state interval chain, by branch and bound (module docstring);
    callers reach it through :func:`~pdpsym.loss.class_search.class_leakage`.

    Args:
        cls: the class.
        query: the targets, the known records (the max runs over their values), the
            Laplace scale (> 0) and the query weights.
        search: ``digits`` the enclosures should fix (at most
            :data:`~pdpsym.loss.class_targets.CLASS_DIGITS`), ``max_boxes`` (the most
            sub-boxes bounded before the search stops, not tight), ``on_step`` (called
            with the number of sub-boxes bounded so far) and ``below`` (decide
            ``sup <= below``: a sub-box is closed once its bound is at most ``below``, and
            the search stops as soon as a member is certified above it).

    Returns:
        The :class:`~pdpsym.loss.class_targets.ClassLeakage`; each law is the member's
        parameters (the rows' free coordinates).

    References:
        Li et al. (2019), Sec. III, Eq. 2; Kifer and Machanavajjhala (2014), Definition
        3.1; Horst and Tuy (1996), Ch. IV.
    """
    if query.lam <= 0:
        raise InputError("lam", "must be > 0")
    targets = list(query.targets)
    shape = k_shape(cls, targets, query.known, query.lam, query.weights)
    pos = dict(zip(targets, shape.targets, strict=True))
    best = TargetBounds(query, search, cls.member)

    def estimate(est: dict[int, float], active: Sequence[str]) -> dict[str, float]:
        return {t: est[pos[t]] for t in active}

    # the vertices, ranked by their float estimates: the best per target evaluated exactly
    root = cls.box()
    ests = [(theta, point_estimate(cls, shape, theta)) for theta in cls.vertices()]
    for t in targets:
        ranked = sorted(ests, key=lambda e: -e[1][pos[t]])
        if ranked:
            best.evaluate(ranked[0][0])
    best.evaluate(cls.centre(root))

    def bound(box: Box, parent: Upper | None) -> Upper | None:
        active = targets if parent is None else list(parent)
        sub = replace(shape, targets=tuple(pos[t] for t in active))
        ub = box_upper(cls, sub, box)
        if ub is None:
            return None
        theta = cls.centre(box)
        if best.beats(estimate(point_estimate(cls, sub, theta), active), active, True):
            best.evaluate(theta)
        return {t: ub[pos[t]] for t in active}

    return best.run(root, bound, strict=False)


__all__ = ["k_chain_search", "k_shape"]

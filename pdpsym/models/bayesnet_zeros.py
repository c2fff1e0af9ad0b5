"""The targets of a Bayesian network whose Eq. 2 leakage is exactly 0, found on the
graph before any law is computed: those d-separated from every counted record by the
known ones (the query's law then does not depend on the target's value), with their
compatible values decided from the graph and the tables' supports; and those
independent of the query by the tables' values (:mod:`pdpsym.models.bayesnet_vacuous`:
an edge the tables ignore, or a table averaged over parents independent of the query).

References:
    Koller and Friedman, Probabilistic Graphical Models (2009), Theorem 3.3 and
    Algorithm 3.1; Aji and McEliece (2000); Li et al. (2019), Eq. 2.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pdpsym.models.bayesnet_build import (
    Node,
    independent_targets,
    reachable,
    surely_compatible,
)
from pdpsym.models.bayesnet_supports import marginal_supports
from pdpsym.models.bayesnet_vacuous import averaged_independent, exact_marginal, reduced_nodes
from pdpsym.models.counts import ZeroPlan

#: the most cells of one factor when a target's support is found over its own ancestors
SUPPORT_CELLS = 1 << 18


def zero_targets(
    network: Any,
    targets: Sequence[str],
    known: Sequence[str],
    weights: Mapping[str, int] | None = None,
) -> tuple[tuple[str, ...], dict[str, bool]]:
    """The first two parts of :func:`zero_plan`: ``(zeros, decided)``.

    Args:
        network: a :class:`~pdpsym.models.bayesnet.BayesianNetwork`.
        targets: the target records.
        known: the known records.
        weights: integer query weights (default 1).

    Returns:
        ``(zeros, decided)`` of :func:`zero_plan`.

    References:
        Li et al. (2019), Eq. 2; Koller and Friedman (2009), Theorem 3.3.
    """
    plan = zero_plan(network, targets, known, weights)
    return plan.zeros, dict(plan.decided)


def zero_plan(
    network: Any,
    targets: Sequence[str],
    known: Sequence[str],
    weights: Mapping[str, int] | None = None,
    *,
    graph: Mapping[str, Node] | None = None,
    averaged: bool = True,
) -> ZeroPlan:
    """A Bayesian network's targets whose Eq. 2 leakage is exactly 0, those of them
    decided without computing their laws, and those found by the tables' values.

    The graph is first reduced by dropping every edge its tables ignore
    (:func:`~pdpsym.models.bayesnet_vacuous.reduced_nodes`: the same joint law, so every
    d-separation in the smaller graph is an independence). A target d-separated there
    from every counted record by the known ones
    (:func:`~pdpsym.models.bayesnet_build.independent_targets`) has the same law of the
    query for each of its values: its leakage is 0 when two of its values are compatible
    with some known assignment, else it has no compatible pair. When it is also
    d-separated from the known records given nothing, its values compatible with a known
    assignment of positive probability are those of positive marginal probability:
    every state when its table is positive
    (:func:`~pdpsym.models.bayesnet_build.surely_compatible`), else the support that the
    boolean passes of :func:`~pdpsym.models.bayesnet_supports.marginal_supports` find
    exactly (when those passes are over their size cap, each target's exact marginal
    over its own ancestors, :func:`~pdpsym.models.bayesnet_vacuous.exact_marginal`, when
    that is under its cap). Those targets are decided; the others are computed. A target whose table,
    averaged exactly over its parents independent of the query, is the same row for
    every setting of its other parents is independent of the counted and known records
    (:func:`~pdpsym.models.bayesnet_vacuous.averaged_independent`): an exact zero,
    decided (:func:`averaged_zeros`).

    Args:
        network: a :class:`~pdpsym.models.bayesnet.BayesianNetwork`.
        targets: the target records.
        known: the known records.
        weights: integer query weights (default 1).
        graph: the nodes as declared when ``network`` has had its vacuous edges dropped
            already (a zero d-separated only without them is one by the tables' values).
        averaged: also the zeros of :func:`averaged_zeros` (they never change which
            targets are computed: a caller may find them after its work check).

    Returns:
        The :class:`ZeroPlan` of the question: the zero targets in order; for each
        decided one whether it has a compatible pair (leakage 0) or not; and the zeros
        that the graph alone does not show (a dropped edge or an averaged table).

    References:
        Li et al. (2019), Eq. 2; Koller and Friedman (2009), Theorem 3.3; Aji and
        McEliece (2000).
    """
    graph = network.nodes if graph is None else graph
    nodes = reduced_nodes(network.nodes)
    contrib = network.contributions(weights)
    counted = [v for v, row in zip(network.variables, contrib.table, strict=True) if any(row)]
    zeros = independent_targets(nodes, counted, targets, known)
    by_tables = set(zeros) - set(independent_targets(graph, counted, targets, known))
    near_known = reachable(nodes, known, ()) if known else set()
    decided: dict[str, bool] = {}
    hard = []
    for t in zeros:
        if t in near_known:
            continue
        if surely_compatible(nodes, t, ()):
            decided[t] = True
        else:
            hard.append(t)
    supports = marginal_supports(nodes, network.variables, hard) if hard else None
    for t in hard if supports is not None else ():
        decided[t] = sum(supports[t]) >= 2  # type: ignore[index]
    for t in hard if supports is None else ():
        # the batch passes were refused: each target's own ancestors; every positive
        # entry counted as 1 (integer sums of products of positive integers: the support
        # of the marginal, exactly)
        law = exact_marginal(nodes, [t], SUPPORT_CELLS, lambda _: 1)
        if law is not None:
            decided[t] = len(law) >= 2
    if averaged:
        rest = [t for t in targets if t not in set(zeros)]
        more = averaged_zeros(network, rest, known, weights)
        if more:
            decided.update(more)
            by_tables |= set(more)
            zeros = tuple(t for t in targets if t in set(zeros) or t in more)
    return ZeroPlan(
        tuple(targets), tuple(known), weights, tuple(zeros), decided, frozenset(by_tables)
    )


def averaged_zeros(
    network: Any,
    targets: Sequence[str],
    known: Sequence[str],
    weights: Mapping[str, int] | None = None,
) -> dict[str, bool]:
    """The targets independent of the counted and known records by their averaged
    tables (:func:`~pdpsym.models.bayesnet_vacuous.averaged_independent`, on the network
    without its vacuous edges), each with whether it has a compatible pair.

    Args:
        network: a :class:`~pdpsym.models.bayesnet.BayesianNetwork`.
        targets: the targets to try (the known ones are skipped).
        known: the known records.
        weights: integer query weights (default 1).

    Returns:
        ``{target: has two compatible values}`` for each one decided (leakage exactly 0,
        or no compatible pair).

    References:
        Li et al. (2019), Eq. 2; Koller and Friedman (2009), Theorem 3.3.
    """
    nodes = reduced_nodes(network.nodes)
    contrib = network.contributions(weights)
    counted = [v for v, row in zip(network.variables, contrib.table, strict=True) if any(row)]
    rest = [t for t in targets if t not in set(known)]
    return averaged_independent(nodes, [c for c in counted if c not in known], known, rest)


__all__ = ["SUPPORT_CELLS", "ZeroPlan", "averaged_zeros", "zero_plan", "zero_targets"]

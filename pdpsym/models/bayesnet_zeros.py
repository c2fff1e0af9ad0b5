"""The targets of a Bayesian network whose Eq. 2 leakage is exactly 0, found on the
graph before any law is computed: those d-separated from every counted record by the
known ones (the query's law then does not depend on the target's value), with their
compatible values decided from the graph and the tables' supports.

References:
    Koller and Friedman, Probabilistic Graphical Models (2009), Theorem 3.3 and
    Algorithm 3.1; Aji and McEliece (2000); Li et al. (2019), Eq. 2.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pdpsym.models.bayesnet_build import independent_targets, reachable, surely_compatible
from pdpsym.models.bayesnet_jtree import marginal_supports


def zero_targets(
    network: Any,
    targets: Sequence[str],
    known: Sequence[str],
    weights: Mapping[str, int] | None = None,
) -> tuple[tuple[str, ...], dict[str, bool]]:
    """A Bayesian network's targets whose Eq. 2 leakage is exactly 0, and those of them
    decided without computing their laws.

    A target d-separated from every counted record by the known ones
    (:func:`~pdpsym.models.bayesnet_build.independent_targets`) has the same law of the
    query for each of its values: its leakage is 0 when two of its values are compatible
    with some known assignment, else it has no compatible pair. When it is also
    d-separated from the known records given nothing, its values compatible with a known
    assignment of positive probability are those of positive marginal probability:
    every state when its table is positive
    (:func:`~pdpsym.models.bayesnet_build.surely_compatible`), else the support that the
    boolean passes of :func:`~pdpsym.models.bayesnet_jtree.marginal_supports` find
    exactly. Those targets are decided; the others are computed.

    Args:
        network: a :class:`~pdpsym.models.bayesnet.BayesianNetwork`.
        targets: the target records.
        known: the known records.
        weights: integer query weights (default 1).

    Returns:
        ``(zeros, decided)``: the zero targets in order, and for each decided one whether
        it has a compatible pair (leakage 0) or not.

    References:
        Li et al. (2019), Eq. 2; Koller and Friedman (2009), Theorem 3.3; Aji and
        McEliece (2000).
    """
    nodes = network.nodes
    contrib = network.contributions(weights)
    counted = [v for v, row in zip(network.variables, contrib.table, strict=True) if any(row)]
    zeros = independent_targets(nodes, counted, targets, known)
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
    return zeros, decided


__all__ = ["zero_targets"]

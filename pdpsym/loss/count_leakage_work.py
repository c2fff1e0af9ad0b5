"""The work estimate of the structured Eq. 2 engine, from a model's shape alone.

A caller's ``--max-work`` limit is checked against :func:`leakage_work` before
:func:`pdpsym.loss.count_leakage.structured_leakage` starts: the estimate never lists the
model's records or databases.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pdpsym.loss.shortcuts import independent_closed_form
from pdpsym.models.counts import CountModel, ZeroPlan
from pdpsym.models.model_objects import chain_of, network_of

#: Markov-chain cells of the dynamic programme in one work step (a microsecond of CPU)
CHAIN_CELLS_PER_STEP = 30
#: a gigabyte of the all-targets chain engine's peak memory, counted in work steps
STEPS_PER_GIGABYTE = 10**7


def assignment_count(model: CountModel, known: Sequence[str]) -> int:
    """How many known assignments the max of Eq. 2 runs over (without listing them).

    Args:
        model: the structured model.
        known: the names of the known records ``K``.

    Returns:
        1 for an assignment-invariant model, else the product of the known records'
        domain sizes.

    References:
        Li et al. (2019), Section IV-A, Eq. 2 (the max over ``x_K``).
    """
    if getattr(model, "assignment_invariant", False):
        return 1
    sizes = getattr(model, "states", None)
    n = 1
    for k in known:
        n *= len(sizes) if sizes is not None else len(model.domain(k))
    return n


def leakage_work(
    model: CountModel,
    n_targets: int,
    known: Sequence[str],
    targets: Sequence[str] | None = None,
    weights: Mapping[str, int] | None = None,
) -> int:
    """An upper estimate of the work of :func:`structured_leakage`, from the model's shape.

    Computed without listing the model's records or databases (for a caller's work
    limit). A Bayesian network: known assignments × (the junction tree's estimate,
    :meth:`~pdpsym.models.bayesnet.BayesianNetwork.targets_work`, + 50 units per point
    of the span per target). Otherwise known assignments × (one pass over the model + ``c · √pass`` per target),
    ``c = 8``, or ``c = 4`` for a Markov chain with more than two targets (the
    all-targets engine of :mod:`pdpsym.loss.chain_float_screen`; measured on binary chains, a
    pass at T = 300, 1000 and 3000 takes 0.07, 0.42 and 3.9 s of CPU, about 3·10^7
    cells a second at either constant's size), counted for a Markov chain in steps of
    :data:`CHAIN_CELLS_PER_STEP` cells (a step is a microsecond of CPU).

    Args:
        model: the structured model.
        n_targets: the number of targets.
        known: the names of the known records ``K``.
        targets: a network's targets when known (its barren records are left out).
        weights: a network's integer query weights.

    Returns:
        The estimated number of steps (an int; a budget unit, not a time).

    References:
        Li et al. (2019), Section V-D (the cost of computing the leakage, measured rather
        than taken from the lost complexity formulas).
    """
    if independent_closed_form(model):  # the closed form: one pass over each target's values
        return max(n_targets, 1) * 16 + len(model.variables)  # type: ignore[attr-defined]
    network = network_of(model)
    if network is not None:
        from pdpsym.models import bayesnet_float_jtree  # with the first network: not a chain's

        # every target at once by the junction tree (its units: about a microsecond),
        # then each target's enclosure (about 50 units per point of the span)
        tree = network.targets_work(known, weights, targets)
        span = network.contributions(weights).span
        work = tree.work
        if bayesnet_float_jtree.prefers_floats(tree, span):  # the float passes run instead
            work = bayesnet_float_jtree.float_work(tree, span)
        per_target = 50 * (span + 1)
        return assignment_count(model, known) * (work + max(n_targets, 1) * per_target)
    per_pass = int(model.size_hint())
    span = max(1, int(per_pass**0.5))
    chain = chain_of(model)
    per_target = 4 if chain is not None and n_targets > 2 else 8
    cells = assignment_count(model, known) * (per_pass + max(n_targets, 1) * span * per_target)
    if chain is None:
        return cells
    # a Markov chain's cells run at about 3 * 10^7 a second (above), 30 to a microsecond
    # step: measured whole-process CPU against this estimate, binary chains stay 9/10,
    # every target: T = 1000, 2000, 3000, 4000, 6000 take 0.2, 0.6, 1.6, 7.0, 16 s
    # (estimate / CPU 2.0, 2.7, 2.3, 0.9, 0.9); three states, T = 1000 and 2000: 3.9, 3.6
    steps = -(-cells // CHAIN_CELLS_PER_STEP)
    if n_targets > 2:
        # every target at once holds windows of every target's law: peak memory measured
        # 0.17, 0.33, 1.2 and 2.7 GB at T = 2000, 3000, 4000 and 6000 (binary), 0.42 GB
        # for three states at T = 2000, and over 24 GB at T = 10,000 (killed). Fit:
        # 2.7 GB (n / 6000) (N / 6000)^3 for n targets and a count span N; each GB is
        # counted as 10^7 steps, so a run that would need many GB is refused up front
        count_span = per_pass // (chain.k * chain.k * chain.length)
        gigabytes = 2.7 * (n_targets / 6000) * (count_span / 6000) ** 3
        steps += int(gigabytes * STEPS_PER_GIGABYTE)
    return steps


@dataclass(frozen=True)
class TargetPlan(ZeroPlan):
    """A :class:`~pdpsym.models.counts.ZeroPlan` with the targets the passes
    compute (:func:`target_plan`): the zeros decided on the graph are left out of
    ``computed`` when that makes the estimate smaller."""

    computed: tuple[str, ...] = ()
    #: each computed target on its own clique tree (its ancestors and the query's):
    #: the estimate ``work`` and the largest induced width ``width`` of those trees
    per_target: bool = False
    work: int = 0
    width: int = 0


def target_plan(network: Any, found: ZeroPlan, limit: int | None = None) -> TargetPlan:
    """The targets to compute of a question whose exact zeros
    :func:`pdpsym.models.bayesnet_zeros.zero_plan` has found (on the graph: the zeros by
    averaged tables are found after the work check, by
    :func:`~pdpsym.loss.count_leakage.structured_leakage`, and computed all the same):
    the decided ones are left out when that makes the estimate smaller (their records
    may drop out of the clique tree), else every target is computed (a smaller network
    may fall to a costlier engine: the decided values are the same either way).

    Args:
        network: a :class:`~pdpsym.models.bayesnet.BayesianNetwork`.
        found: the question (targets, known records, integer weights) and its zeros.
        limit: a caller's work limit: when every target on one tree is over it, each
            target on its own tree is tried (:func:`per_target_work`).

    Returns:
        The :class:`TargetPlan`.

    References:
        Li et al. (2019), Eq. 2 (a target's value needs only its own laws).
    """
    targets, known, weights = found.targets, found.known, found.weights
    computed = list(targets)
    shared = leakage_work(network, len(targets), known, targets, weights)
    if found.decided:
        chosen = [t for t in targets if t not in found.decided]
        reduced = leakage_work(network, len(chosen), known, chosen, weights)
        if reduced < shared:
            computed, shared = chosen, reduced
    asked = {f.name: getattr(found, f.name) for f in dataclasses.fields(ZeroPlan)}
    plan = TargetPlan(**asked, computed=tuple(computed))
    alone = None
    if limit is not None and shared > limit:
        alone = per_target_work(network, computed, known, weights, limit)
    if alone is None or alone[0] >= shared:
        return plan
    return dataclasses.replace(plan, per_target=True, work=alone[0], width=alone[1])


def per_target_work(
    network: Any,
    targets: Sequence[str],
    known: Sequence[str],
    weights: Mapping[str, int] | None,
    limit: int,
) -> tuple[int, int] | None:
    """The estimate and the largest induced width of computing each target on its own
    clique tree (the target's ancestors, the known and the counted records': the others
    are barren for it, :meth:`~pdpsym.models.bayesnet.BayesianNetwork.targets_work`),
    each priced as :func:`leakage_work` prices one target divided by
    :data:`PER_TARGET_DIVISOR` (measured); None as soon as the sum
    passes :data:`PER_TARGET_REACH` times ``limit`` (or when the tree of the query's
    records alone, once per target, already does: each target's tree holds those
    records).

    Args:
        network: a :class:`~pdpsym.models.bayesnet.BayesianNetwork`.
        targets: the targets to compute.
        known: the known records.
        weights: integer query weights (default 1).
        limit: the work limit.

    Returns:
        ``(work, width)`` or None.

    References:
        Koller and Friedman (2009), Section 3.3.1 (barren nodes); Li et al. (2019), Eq. 2.
    """
    if len(targets) < 2:
        return None
    from pdpsym.models import bayesnet_float_jtree  # a network's: loaded with the first one

    span = network.contributions(weights).span
    times = assignment_count(network, known)

    def price(chosen: Sequence[str]) -> tuple[int, int]:
        tree = network.targets_work(known, weights, chosen)
        work = tree.work
        if bayesnet_float_jtree.prefers_floats(tree, span):
            work = bayesnet_float_jtree.float_work(tree, span)
        return times * (work + 50 * (span + 1)) // PER_TARGET_DIVISOR, tree.width

    if price([])[0] * len(targets) > PER_TARGET_REACH * limit:
        return None
    work, width = 0, 0
    for t in targets:
        cost, w = price([t])
        work, width = work + cost, max(width, w)
        if work > PER_TARGET_REACH * limit:
            return None
    return work, width


#: the targets' own trees are small: priced as the shared tree is, they measured 4.0,
#: 6.7 and 6.0 times their whole-process CPU (munin1 counting 5 and 20 records in state
#: NO, 9.2 and 15.1 s; link counting 120 in state f, 35.9 s), so each is divided by 5
PER_TARGET_DIVISOR = 5

#: how far over the limit :func:`per_target_work` keeps summing (so that a refusal names
#: the smaller estimate, which a raised ``--max-work`` can then meet)
PER_TARGET_REACH = 100

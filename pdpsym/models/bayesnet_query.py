"""The queries a network user asks, as per-state values of the counted records, and the
full joint table of a small network (for cross-checks).

A query on a :class:`~pdpsym.models.bayesnet.BayesianNetwork` is ``f(x) = sum_v w_v
q_v(x_v)``: by default ``q_v`` is the state's value (its number, or its index). Two
common questions need other ``q_v``:

* **count**: how many of the records ``v_1, ..., v_m`` are in state ``s`` (by name):
  ``q_v(x) = [x = s]`` for the listed records, ``0`` for the others;
* **sum**: the sum of the listed records' values: ``q_v`` the state values for the listed
  records, ``0`` for the others.

>>> import pdpsym as ps
>>> from fractions import Fraction
>>> net = ps.BayesianNetwork.from_bif_text(
...     "variable a { type discrete [ 2 ] { yes, no }; }\\n"
...     "probability ( a ) { table 0.25, 0.75; }"
... ).count_query(["a"], "no")
>>> net.query_law("a", Fraction(1), {})  # a = "no" (state 1): the count is 1
{Fraction(1, 1): Fraction(1, 1)}
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction

from pdpsym.core.errors import InputError
from pdpsym.models.bayesnet_build import Node, topological
from pdpsym.models.joint import JointDistribution


def _listed(nodes: Mapping[str, Node], names: Sequence[str], field: str) -> list[str]:
    if isinstance(names, str) or not names:
        raise InputError(field, "expected a non-empty list of node names")
    seen: list[str] = []
    for name in names:
        if not isinstance(name, str) or name.strip() not in nodes:
            raise InputError(field, f"unknown node {name!r}")
        if name.strip() in seen:
            raise InputError(field, f"node {name.strip()!r} listed twice")
        seen.append(name.strip())
    return seen


def count_values(
    nodes: Mapping[str, Node], names: Sequence[str], state: str
) -> dict[str, tuple[Fraction, ...]]:
    """Per-state values of ``f(x) = #{v in names : x_v = state}``.

    Args:
        nodes: the network's nodes.
        names: the counted records.
        state: the state's name; every counted record must have it.

    Returns:
        ``{v: (q_v(s_0), q_v(s_1), ...)}``: 1 for ``state``, 0 otherwise, for each listed
        record (the records not listed count 0).

    Raises:
        InputError: ``count`` on an unknown or repeated node, or a node without ``state``.

    References:
        Li et al. (2019), Sec. III (the query is a sum of per-record values).
    """
    listed = _listed(nodes, names, "count")
    s = str(state).strip()
    out: dict[str, tuple[Fraction, ...]] = {}
    for v in listed:
        if s not in nodes[v].states:
            raise InputError(
                "count", f"{v!r} has no state {s!r} (its states: {', '.join(nodes[v].states)})"
            )
        out[v] = tuple(Fraction(int(x == s)) for x in nodes[v].states)
    return out


def sum_values(nodes: Mapping[str, Node], names: Sequence[str]) -> dict[str, tuple[Fraction, ...]]:
    """Per-state values of ``f(x) = sum_{v in names} value(x_v)``.

    Args:
        nodes: the network's nodes.
        names: the summed records.

    Returns:
        ``{v: the state values of v}`` for each listed record.

    Raises:
        InputError: ``sum`` on an unknown or repeated node.

    References:
        Li et al. (2019), Sec. III.
    """
    return {v: nodes[v].values for v in _listed(nodes, names, "sum")}


def joint_table(
    variables: Sequence[str], nodes: Mapping[str, Node], max_rows: int
) -> JointDistribution:
    """The full joint table by the chain rule.

    Args:
        variables: the records, in order.
        nodes: their nodes.
        max_rows: the most rows (product of the domain sizes) to list.

    Returns:
        The joint distribution over ``variables`` with the states' values as domains.

    Raises:
        InputError: ``max_rows`` when the product of the domain sizes exceeds it.

    References:
        Pearl (1988), Sec. 3.3 (the chain rule of a Bayesian network).
    """
    cells = math.prod(len(nodes[v].states) for v in variables)
    if cells > max_rows:
        raise InputError("max_rows", f"the joint table has {cells} rows, over the limit {max_rows}")
    rows: list[tuple[dict[str, int], Fraction]] = [({}, Fraction(1))]
    for v in topological(nodes, variables):
        node = nodes[v]
        nxt = []
        for assign, p in rows:
            row = node.cpt[tuple(assign[u] for u in node.parents)]
            for s, q in enumerate(row):
                if q:
                    nxt.append(({**assign, v: s}, p * q))
        rows = nxt
    return JointDistribution.from_rows(
        variables,
        [[nodes[v].values[a[v]] for v in variables] + [p] for a, p in rows],
        {v: list(nodes[v].values) for v in variables},
    )

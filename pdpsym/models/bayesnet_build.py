"""Building a :class:`~pdpsym.models.bayesnet.BayesianNetwork`'s nodes from node
specifications (the JSON form, or BIF parsed into it): every check, each error naming
its field or the file line that holds the mistake, and the exact renormalization of rows
rounded in the file (reported back, never silent)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_rational
from pdpsym.models.bayesnet_validate import find_cycle, read_cpt, state_values


@dataclass(frozen=True)
class Node:
    """One record of the network: states, their values, parents and the table.

    ``cpt[c]`` is the row for parent configuration ``c`` (a tuple of parent state
    indices, in the order of ``parents``): one probability per state.
    """

    name: str
    states: tuple[str, ...]
    values: tuple[Fraction, ...]
    parents: tuple[str, ...]
    cpt: Mapping[tuple[int, ...], tuple[Fraction, ...]]


@dataclass(frozen=True)
class BuiltNodes:
    """The validated nodes in declaration order, and the rows that were renormalized:
    ``(field or line, |sum - 1|)`` for each (empty when every row summed to 1)."""

    order: tuple[str, ...]
    nodes: Mapping[str, Node]
    renormalized: tuple[tuple[str, Fraction], ...]


def build_nodes(
    specs: Sequence[tuple[str, Any]],
    lines: Mapping[str, str],
    tolerance: Fraction | None = None,
) -> BuiltNodes:
    """Validate node specs.

    Args:
        specs: pairs of a field prefix (``nodes[3]``, ``line 12``) and a node object
            ``{"name", "states", "parents"?, "cpt", "values"?}``.
        lines: optionally the field of a node's parts (``<prefix>.parents``,
            ``<prefix>.cpt``, ``<prefix>.cpt[k]``) -> ``line N``, so that an error in a
            BIF file names the line that holds it.
        tolerance: None demands rows summing to exactly 1; a rational ``t`` reads a row
            whose sum ``s`` has ``|s - 1| <= t`` as the row divided by ``s``, exactly.

    Returns:
        The :class:`BuiltNodes`.

    Raises:
        InputError: naming the field or line of the first mistake.

    References:
        Koller and Friedman, Probabilistic Graphical Models (2009), Section 3.2 (a
        Bayesian network: a DAG and one CPD per node).
    """
    if tolerance is not None:
        tolerance = parse_rational(tolerance, "tolerance")
        if tolerance < 0:
            raise InputError("tolerance", "must be >= 0")
    if not specs:
        raise InputError("nodes", "a network needs at least one node")
    raw: dict[str, tuple[str, Mapping[str, Any]]] = {}
    order: list[str] = []
    states: dict[str, tuple[str, ...]] = {}
    values: dict[str, tuple[Fraction, ...]] = {}
    parents: dict[str, tuple[str, ...]] = {}
    for where, spec in specs:
        if not isinstance(spec, Mapping):
            raise InputError(where, "expected a node object")
        extra = set(spec) - {"name", "states", "parents", "cpt", "values"}
        if extra:
            raise InputError(f"{where}.{sorted(extra)[0]}", "unknown field in a node")
        name = spec.get("name")
        if not isinstance(name, str) or not name.strip() or not name.isprintable():
            raise InputError(f"{where}.name", f"not a node name: {name!r}")
        name = name.strip()
        if name in raw:
            raise InputError(f"{where}.name", f"duplicate node {name!r}")
        raw[name] = (where, spec)
        order.append(name)
        st = spec.get("states")
        if not isinstance(st, list | tuple) or not st:
            raise InputError(f"{where}.states", "expected a non-empty list of state names")
        names = []
        for j, s in enumerate(st):
            if isinstance(s, bool) or not isinstance(s, str | int | Fraction):
                raise InputError(f"{where}.states[{j}]", f"not a state name: {s!r}")
            names.append(str(s).strip())
        if len(set(names)) != len(names):
            raise InputError(f"{where}.states", "repeated state name")
        states[name] = tuple(names)
        values[name] = state_values(where, spec.get("values"), names)
        field = lines.get(f"{where}.parents", f"{where}.parents")
        pa = spec.get("parents", [])
        if not isinstance(pa, list | tuple) or not all(isinstance(u, str) for u in pa):
            raise InputError(field, "expected a list of node names")
        pa = [u.strip() for u in pa]
        if len(set(pa)) != len(pa):
            raise InputError(field, "repeated parent")
        if name in pa:
            raise InputError(field, f"node {name!r} is its own parent")
        parents[name] = tuple(pa)
    for name in order:
        where = raw[name][0]
        for u in parents[name]:
            if u not in raw:
                field = lines.get(f"{where}.parents", f"{where}.parents")
                raise InputError(field, f"unknown parent {u!r} of {name!r}")
    cycle = find_cycle(order, parents)
    if cycle:
        where = raw[cycle[0]][0]
        field = lines.get(f"{where}.parents", f"{where}.parents")
        raise InputError(field, "the network has a cycle: " + " -> ".join(cycle))
    nodes: dict[str, Node] = {}
    renormalized: list[tuple[str, Fraction]] = []
    for name in order:
        where, spec = raw[name]
        cpt = read_cpt(
            where, spec.get("cpt"), name, states, parents[name], lines, tolerance, renormalized
        )
        nodes[name] = Node(name, states[name], values[name], parents[name], cpt)
    return BuiltNodes(tuple(order), nodes, tuple(renormalized))


def topological(nodes: Mapping[str, Node], order: Sequence[str]) -> list[str]:
    """The nodes with every parent before its children (depth-first, ``order`` first).

    Args:
        nodes: the network's nodes.
        order: the names, in declaration order.

    Returns:
        The names in a topological order.

    References:
        Cormen, Leiserson, Rivest, Stein, Introduction to Algorithms, Section 22.4.
    """
    done: set[str] = set()
    out: list[str] = []

    def visit(v: str) -> None:
        stack = [(v, False)]
        while stack:
            u, expanded = stack.pop()
            if u in done:
                continue
            if expanded:
                done.add(u)
                out.append(u)
                continue
            stack.append((u, True))
            stack.extend((p, False) for p in reversed(nodes[u].parents) if p not in done)

    for v in order:
        visit(v)
    return out


def moral_graph(
    nodes: Mapping[str, Node],
    variables: Sequence[str],
    evidence: Mapping[str, int],
    keep: Iterable[str],
) -> dict[str, set[str]]:
    """The moral graph of the records of ``keep`` not in ``evidence``.

    Args:
        nodes: the network's nodes.
        variables: the declaration order.
        evidence: the observed records (left out).
        keep: the records to include.

    Returns:
        Adjacency sets in declaration order: each family (a record and its parents) made
        a clique, observed records removed.

    References:
        Lauritzen and Spiegelhalter (1988) (moralization); Koller and Friedman, Sec. 9.3.
    """
    kept = set(keep)
    adj: dict[str, set[str]] = {v: set() for v in variables if v in kept and v not in evidence}
    for child in variables:
        if child not in kept:
            continue
        fam = [u for u in (child, *nodes[child].parents) if u in adj]
        for a, b in itertools.combinations(fam, 2):
            adj[a].add(b)
            adj[b].add(a)
    return adj


def ancestors(nodes: Mapping[str, Node], names: Iterable[str]) -> set[str]:
    """``names`` and every ancestor of theirs.

    Args:
        nodes: the network's nodes.
        names: records of the network.

    Returns:
        The ancestral set (the records the law of ``names`` depends on).

    References:
        Koller and Friedman, Sec. 3.3.1 (barren nodes can be removed).
    """
    keep: set[str] = set()
    stack = list(names)
    while stack:
        v = stack.pop()
        if v not in keep:
            keep.add(v)
            stack.extend(nodes[v].parents)
    return keep


def reachable(nodes: Mapping[str, Node], start: Iterable[str], given: Iterable[str]) -> set[str]:
    """The records connected to ``start`` by an active trail given ``given`` (d-connected),
    ``start`` included when not given.

    Args:
        nodes: the network's nodes.
        start: the source records.
        given: the observed records.

    Returns:
        Every record not d-separated from ``start`` by ``given``.

    References:
        Koller and Friedman, Probabilistic Graphical Models (2009), Algorithm 3.1
        (reachable nodes, the Bayes-ball search).
    """
    z = set(given)
    children: dict[str, list[str]] = {v: [] for v in nodes}
    for v, node in nodes.items():
        for p in node.parents:
            children[p].append(v)
    observed_or_above = ancestors(nodes, z)
    stack = [(v, True) for v in start]  # (record, reached from a child)
    seen: set[tuple[str, bool]] = set()
    out: set[str] = set()
    while stack:
        v, up = stack.pop()
        if (v, up) in seen:
            continue
        seen.add((v, up))
        if v not in z:
            out.add(v)
        if up and v not in z:
            stack.extend((p, True) for p in nodes[v].parents)
            stack.extend((c, False) for c in children[v])
        elif not up:
            if v not in z:
                stack.extend((c, False) for c in children[v])
            if v in observed_or_above:
                stack.extend((p, True) for p in nodes[v].parents)
    return out


def relevant_known(
    nodes: Mapping[str, Node], wanted: Iterable[str], known: Sequence[str]
) -> tuple[str, ...]:
    """The known records the law of ``wanted`` can depend on: each known record
    d-separated from ``wanted`` by the other known ones is dropped, one at a time (the
    law given the rest is then the law given all of them, and a value compatible with the
    rest is compatible with all of them whenever they have positive probability). For
    Eq. 2, ``wanted`` is the targets and the records the query counts.

    Args:
        nodes: the network's nodes.
        wanted: the records whose law is asked (the targets and the counted records:
            those of a non-zero contribution).
        known: the known records.

    Returns:
        The known records kept, in their order.

    References:
        Koller and Friedman (2009), Algorithm 3.1 (d-separation); Li et al. (2019),
        Eq. 2 (the law of the query given ``x_i`` and ``x_K``).
    """
    wanted = set(wanted)
    kept = list(known)
    for k in known:
        rest = [u for u in kept if u != k]
        if not reachable(nodes, [k], rest) & wanted:
            kept = rest
    return tuple(kept)


def independent_targets(
    nodes: Mapping[str, Node],
    counted: Iterable[str],
    targets: Iterable[str],
    known: Iterable[str],
) -> tuple[str, ...]:
    """The targets whose leakage is exactly 0: each d-separated by the known records from
    every counted record that is not known (so not itself counted).

    For such a target ``t``, ``P(S | x_t = a, x_K) = P(S | x_K)`` for every value ``a``
    compatible with ``x_K``: the query's law does not depend on ``a``, and every ratio of
    Eq. 2 is 1. (d-separation is symmetric: one search from the counted records finds
    every record d-connected to them.)

    Args:
        nodes: the network's nodes.
        counted: the records the query counts (a non-zero contribution).
        targets: the target records.
        known: the known records ``K``.

    Returns:
        Those targets, in their order.

    References:
        Koller and Friedman (2009), Theorem 3.3 (d-separation implies independence in
        every law that factorizes over the graph) and Algorithm 3.1; Li et al. (2019),
        Eq. 2.
    """
    z = set(known)
    free = [c for c in counted if c not in z]
    linked = reachable(nodes, free, z) if free else set()
    return tuple(t for t in targets if t not in z and t not in linked)


def surely_compatible(nodes: Mapping[str, Node], target: str, known: Iterable[str]) -> bool:
    """Whether every value of ``target`` is compatible with every known assignment of
    positive probability, by the graph and the target's table alone: the target has two
    states or more, every entry of its table is positive (so ``P(x_t = a) = sum_u
    P(u) P(a | u) > 0`` for every state ``a``), and it is d-separated from the known
    records given nothing (so ``P(x_t = a | x_K) = P(x_t = a)``).

    Args:
        nodes: the network's nodes.
        target: the target record.
        known: the known records.

    Returns:
        True when this proves it (False: not decided this way).

    References:
        Koller and Friedman (2009), Theorem 3.3 and Algorithm 3.1.
    """
    node = nodes[target]
    if len(node.states) < 2 or any(p <= 0 for row in node.cpt.values() for p in row):
        return False
    z = [k for k in known if k != target]
    return not z or target not in reachable(nodes, z, ())

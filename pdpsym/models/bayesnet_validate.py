"""Validation shared by the JSON and BIF forms of :mod:`pdpsym.models.bayesnet`: state
values, cycles and conditional probability tables, each error naming its field; and the
Markov blanket of a record in the graph."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str, parse_rational


def state_values(where: str, given: Any, names: Sequence[str]) -> tuple[Fraction, ...]:
    """The numeric value of each state of a record.

    Args:
        where: the record's field, for errors.
        given: the spec's ``values`` list, or None (then the state names when every one
            is a number, else the state indices ``0, 1, ...``).
        names: the state names, in order.

    Returns:
        One exact value per state, all different.

    Raises:
        InputError: naming ``<where>.values`` on a wrong length, a bad number or a repeat.

    References:
        Li et al. (2019), Section III (records take numeric values; the query is a
        weighted sum of them).
    """
    if given is not None:
        if not isinstance(given, list | tuple) or len(given) != len(names):
            raise InputError(
                f"{where}.values", f"expected a list of {len(names)} values, one per state"
            )
        vals = tuple(parse_rational(x, f"{where}.values[{j}]") for j, x in enumerate(given))
    else:
        try:
            vals = tuple(parse_rational(s, "state") for s in names)
        except InputError:  # not every state name is a number: the state indices
            vals = tuple(Fraction(j) for j in range(len(names)))
    if len(set(vals)) != len(vals):
        raise InputError(f"{where}.values", "two states have the same value")
    return vals


def markov_blanket_of(parents: Mapping[str, Sequence[str]], name: str) -> tuple[str, ...]:
    """The Markov blanket of ``name`` in a DAG: its parents, children and the children's
    other parents. Given them, ``name`` is independent of every other record (the
    joint law's factors that involve ``x_name`` are its own table and its children's).

    Args:
        parents: each node's parents (every node a key, in declaration order).
        name: the node.

    Returns:
        The blanket's nodes, in declaration order.

    References:
        Pearl, Probabilistic Reasoning in Intelligent Systems (1988), Section 3.2.
    """
    kids = [v for v, ps in parents.items() if name in ps]
    near = {*parents[name], *kids, *(p for c in kids for p in parents[c])}
    return tuple(v for v in parents if v in near and v != name)


def find_cycle(order: Sequence[str], parents: Mapping[str, Sequence[str]]) -> list[str]:
    """A directed cycle of the parent graph, found by depth-first search.

    Args:
        order: every record name.
        parents: each record's parents.

    Returns:
        A cycle ``[a, b, ..., a]`` along parent -> child edges, or ``[]`` when the graph
        is acyclic.

    References:
        Cormen, Leiserson, Rivest, Stein, Introduction to Algorithms, Section 22.3
        (depth-first search finds a back edge iff the graph has a cycle).
    """
    color = dict.fromkeys(order, 0)
    for start in order:
        if color[start]:
            continue
        stack: list[tuple[str, int]] = [(start, 0)]
        path: list[str] = []
        while stack:
            v, k = stack.pop()
            if k == 0:
                color[v] = 1
                path.append(v)
            pa = parents[v]
            if k < len(pa):
                stack.append((v, k + 1))
                u = pa[k]
                if color[u] == 1:  # u is on the path: u -> ... -> v -> u (child order)
                    cyc = path[path.index(u) :] + [u]
                    return cyc[::-1]  # parent -> child direction
                if color[u] == 0:
                    stack.append((u, 0))
            else:
                color[v] = 2
                path.pop()
    return []


def read_cpt(
    where: str,
    cpt: Any,
    name: str,
    states: Mapping[str, tuple[str, ...]],
    parents: Sequence[str],
    lines: Mapping[str, str],
    tolerance: Fraction | None,
    renormalized: list[tuple[str, Fraction]] | None = None,
) -> dict[tuple[int, ...], tuple[Fraction, ...]]:
    """Read and check one record's conditional probability table.

    Args:
        where: the record's field, for errors.
        cpt: the spec's ``cpt``: a list of rows in the parents' configuration order, or
            an object keyed by comma-separated parent states.
        name: the record's name.
        states: every record's state names.
        parents: the record's parents, in order.
        lines: a CPT row's field -> its ``line N`` (BIF input), else empty.
        tolerance: rows may sum to 1 within it and are then renormalized exactly;
            None demands exact sums.
        renormalized: when given, each renormalized row's ``(field, |sum - 1|)`` is
            appended to it.

    Returns:
        Parent configuration (state indices) -> the exact row of probabilities.

    Raises:
        InputError: naming the row (or its line) on a missing, repeated or malformed row,
            a negative probability or a sum other than 1.

    References:
        Koller and Friedman, Probabilistic Graphical Models (2009), Section 3.2.1 (a CPD
        per node: one distribution per parent configuration).
    """
    configs = list(itertools.product(*(range(len(states[u])) for u in parents)))
    k = len(states[name])
    rows: list[tuple[tuple[int, ...], Any, str]] = []
    if isinstance(cpt, Mapping):
        index = [{s: j for j, s in enumerate(states[u])} for u in parents]
        for key, row in cpt.items():
            field = lines.get(f"{where}.cpt[{key}]", f"{where}.cpt[{key}]")
            parts = [p.strip() for p in str(key).split(",")] if parents else []
            if len(parts) != len(parents):
                raise InputError(
                    field, f"expected {len(parents)} parent states ({', '.join(parents)})"
                )
            try:
                config = tuple(ix[p] for ix, p in zip(index, parts, strict=True))
            except KeyError as err:
                raise InputError(field, f"unknown parent state {err.args[0]!r}") from None
            rows.append((config, row, field))
    elif isinstance(cpt, list | tuple):
        if not parents and cpt and not isinstance(cpt[0], list | tuple):
            cpt = [cpt]  # a root's single row
        if len(cpt) != len(configs):
            raise InputError(
                lines.get(f"{where}.cpt", f"{where}.cpt"),
                f"expected {len(configs)} rows (one per parent configuration), got {len(cpt)}",
            )
        rows = [
            (c, row, lines.get(f"{where}.cpt[{j}]", f"{where}.cpt[{j}]"))
            for j, (c, row) in enumerate(zip(configs, cpt, strict=True))
        ]
    else:
        raise InputError(
            lines.get(f"{where}.cpt", f"{where}.cpt"),
            "expected a list of rows or an object of rows",
        )
    table: dict[tuple[int, ...], tuple[Fraction, ...]] = {}
    for config, row, field in rows:
        if config in table:
            raise InputError(field, "repeated parent configuration")
        if not isinstance(row, list | tuple) or len(row) != k:
            got = len(row) if isinstance(row, list | tuple) else type(row).__name__
            raise InputError(
                field, f"expected {k} probabilities (one per state of {name!r}), got {got}"
            )
        probs = tuple(parse_rational(p, f"{field}[{j}]") for j, p in enumerate(row))
        for j, p in enumerate(probs):
            if p < 0:
                raise InputError(f"{field}[{j}]", f"negative probability {fraction_str(p)}")
        total = sum(probs, Fraction(0))
        if total != 1:
            if tolerance is None or total == 0:
                raise InputError(
                    field, f"probabilities sum to {fraction_str(total)}, not exactly 1"
                )
            if abs(total - 1) > tolerance:
                raise InputError(
                    field,
                    f"probabilities sum to {fraction_str(total)}, off 1 by "
                    f"{fraction_str(abs(total - 1))}: more than the tolerance "
                    f"{fraction_str(tolerance)}",
                )
            probs = tuple(p / total for p in probs)
            if renormalized is not None:
                renormalized.append((field, abs(total - 1)))
        table[config] = probs
    missing = [c for c in configs if c not in table]
    if missing:
        shown = ", ".join(states[u][j] for u, j in zip(parents, missing[0], strict=True))
        raise InputError(
            lines.get(f"{where}.cpt", f"{where}.cpt"),
            f"no row for parent configuration ({shown})",
        )
    return table

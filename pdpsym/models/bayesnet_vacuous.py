"""Independences that a Bayesian network's tables carry and its graph hides, decided
exactly (rational arithmetic): a vacuous edge (:func:`reduced_nodes`), and a target whose
table, averaged over the parents independent of the query, is the same for every
setting of its other parents (:func:`averaged_independent`).

**Vacuous edges.** A parent ``u`` of ``v`` whose every state gives ``v`` the same row of
``P(v | pa(v))`` (for each setting of ``v``'s other parents), compared exactly. Dropping
such an edge leaves the network's joint law unchanged, so d-separation in the graph
without it proves independences the full graph hides.

**Why the law is unchanged.** Let ``u`` be a parent of ``v`` with ``P(v | u = a, w) =
P(v | u = b, w)`` for every two states ``a, b`` of ``u`` and every setting ``w`` of
``v``'s other parents ``W``. Define ``Q(v | w) = P(v | u = a0, w)`` for any one state
``a0``: it is a conditional probability table over ``W`` (each row is a row of ``P``, so
it sums to 1), and ``P(x_v | x_u, x_W) = Q(x_v | x_W)`` for every assignment, by the
hypothesis. The chain rule ``theta(x) = prod_v P(x_v | x_pa(v))`` is then the same
product with ``v``'s factor replaced by ``Q``: term by term the same rational numbers,
so the same joint law ``theta``. The new graph has one edge fewer and is still acyclic,
and ``theta`` factorizes over it, so every d-separation in it is an independence of
``theta`` (Koller and Friedman (2009), Theorem 3.3: soundness holds for every law that
factorizes over the graph). Dropping edges one at a time, each test made on the table
left by the previous drops, keeps this true at every step (each step is the argument
above applied to the current network).

**Averaged tables.** Let ``t`` be a record that is neither counted nor known and no
ancestor of one, ``C`` the counted records and ``K`` the known ones. Take a set ``W`` of
ancestors of ``t`` with ``t`` in it, and ``F`` the parents of records of ``W`` outside
``W``, such that no record of ``F`` is a descendant of one of ``W`` (so ``F``'s ancestors
hold no record of ``W``, and the chain rule over ``F``'s ancestors, then ``W`` in a
topological order, gives ``P(x_W | x_F) = prod_{w in W} P(x_w | x_pa(w))``), and ``t``
is d-separated from the records of ``C`` and ``K`` outside ``F`` given ``F`` (checked
by the Bayes-ball search). Split ``F`` into ``A`` and ``B`` such that ``B`` is
d-separated from ``A``, ``C`` and ``K`` given nothing. Then ``P(x_t | x_F, x_C, x_K) =
P(x_t | x_F)`` and ``P(x_F | x_C, x_K) = P(x_B) P(x_A | x_C, x_K)`` (Koller and
Friedman, Theorem 3.3), so for every state ``a`` of ``t``

    ``P(x_t = a | x_C, x_K) = sum_{x_A} P(x_A | x_C, x_K) g(a, x_A)``,
    ``g(a, x_A) = sum_{x_B} P(x_B) sum_{x_W with x_t = a} prod_{w in W} P(x_w | x_pa(w))``.

When ``g(a, x_A)`` is the same number ``g(a)`` for every setting ``x_A``, the sum is
``g(a)`` whatever ``x_C`` and ``x_K`` are: ``x_t`` is independent of ``(x_C, x_K)``, so
``P(S | x_t = a, x_K) = P(S | x_K)`` for each state ``a`` with ``g(a) > 0`` and every
known assignment of positive probability (the query ``S`` is a function of ``x_C``):
Eq. 2's ratios are all 1 and the leakage is exactly 0 when two states have ``g(a) > 0``;
with fewer, no pair of values is compatible. ``W`` starts as ``{t}`` and takes in the
records of ``F`` d-connected to the query but not in it (and any record of ``F`` below
``W``) until none is left; ``P(x_B)`` and ``g`` are computed exactly by variable
elimination (refused past a size cap: the target is then left to the passes). This is
the case of the genetic-linkage networks (bnlearn's link): an allele copies one of a
parent's two alleles as a selector record says, and when the alleles it may copy have
one law its own law does not depend on the selectors, which the query counts.

References:
    Koller and Friedman, Probabilistic Graphical Models (2009), Theorem 3.3,
    Section 3.3.1 (barren nodes) and Section 5.2 (context-specific independence in
    tables); Boutilier, Friedman, Goldszmidt and Koller (1996); Li et al. (2019), Eq. 2.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from pdpsym.models.bayesnet_build import Node, ancestors, reachable

#: the most cells of one factor :func:`exact_marginal` builds before giving up
MARGINAL_CELLS = 1 << 13

_N = TypeVar("_N")

#: a sparse exact factor: (scope, {configuration: probability}); absent entries are 0
_Factor = tuple[tuple[str, ...], dict[tuple[int, ...], Any]]


def _without(node: Node, k: int) -> Node | None:
    """``node`` with its ``k``-th parent dropped when every state of that parent gives the
    same row for each setting of the others (exact comparison), else None."""
    cpt: dict[tuple[int, ...], tuple] = {}
    for config, row in node.cpt.items():
        rest = config[:k] + config[k + 1 :]
        seen = cpt.setdefault(rest, row)
        if seen != row:
            return None
    parents = node.parents[:k] + node.parents[k + 1 :]
    return Node(node.name, node.states, node.values, parents, cpt)


def vacuous_edges(nodes: Mapping[str, Node]) -> tuple[tuple[str, str], ...]:
    """The edges ``(parent, child)`` that :func:`reduced_nodes` drops.

    Args:
        nodes: the network's nodes.

    Returns:
        The dropped edges, children in the order of ``nodes``, each child's parents in
        their declared order.

    References:
        Koller and Friedman (2009), Section 5.2.
    """
    reduced = reduced_nodes(nodes)
    return tuple(
        (u, v) for v, node in nodes.items() for u in node.parents if u not in reduced[v].parents
    )


def reduced_nodes(nodes: Mapping[str, Node]) -> Mapping[str, Node]:
    """The network's nodes with every vacuous parent edge dropped: for each node, its
    parents are tried in their declared order, and one is dropped when every state of it
    gives the node the same row (exactly) for each setting of the parents still kept.
    The joint law is the same (the module's docstring proves it).

    Args:
        nodes: the network's nodes.

    Returns:
        The same mapping when no edge is vacuous, else a new mapping of the same names
        (a node with no vacuous parent is the same object).

    References:
        Koller and Friedman (2009), Theorem 3.3 and Section 5.2.
    """
    out: dict[str, Node] = {}
    changed = False
    for name, node in nodes.items():
        k = 0
        while k < len(node.parents):
            smaller = _without(node, k)
            if smaller is None:
                k += 1
            else:
                node, changed = smaller, True
        out[name] = node
    return out if changed else nodes


def without_vacuous(network: _N) -> _N:
    """The same network with its vacuous edges dropped (:func:`reduced_nodes`): the same
    joint law and query, a moral graph with fewer edges (so clique trees no larger).

    Args:
        network: a :class:`~pdpsym.models.bayesnet.BayesianNetwork`.

    Returns:
        ``network`` itself when no edge is vacuous, else a copy with the reduced nodes.

    References:
        Koller and Friedman (2009), Theorem 3.3 and Section 5.2.
    """
    nodes = network.nodes  # type: ignore[attr-defined]
    reduced = reduced_nodes(nodes)
    return network if reduced is nodes else dataclasses.replace(network, nodes=reduced)  # type: ignore[type-var]


def _join(a: _Factor, b: _Factor) -> _Factor:
    """The product of two sparse factors."""
    shared = [v for v in a[0] if v in b[0]]
    scope = a[0] + tuple(v for v in b[0] if v not in a[0])
    ia = [a[0].index(v) for v in shared]
    ib = [b[0].index(v) for v in shared]
    rest = [k for k, v in enumerate(b[0]) if v not in a[0]]
    groups: dict[tuple[int, ...], list[tuple[tuple[int, ...], Any]]] = {}
    for key, p in b[1].items():
        groups.setdefault(tuple(key[k] for k in ib), []).append((tuple(key[k] for k in rest), p))
    table: dict[tuple[int, ...], Any] = {}
    for key, p in a[1].items():
        for tail, q in groups.get(tuple(key[k] for k in ia), ()):
            table[key + tail] = p * q
    return scope, table


def _sum_out(f: _Factor, v: str) -> _Factor:
    """``f`` with ``v`` summed out."""
    k = f[0].index(v)
    table: dict[tuple[int, ...], Any] = {}
    for key, p in f[1].items():
        short = key[:k] + key[k + 1 :]
        table[short] = table.get(short, 0) + p
    return f[0][:k] + f[0][k + 1 :], table


def _eliminate(
    factors: list[_Factor], free: Iterable[str], size: Mapping[str, int], max_cells: int
) -> list[_Factor] | None:
    """``factors`` with the records of ``free`` summed out of their product, each time
    the one whose product has the fewest cells (None past ``max_cells``)."""
    free = set(free)
    while free:
        near: dict[str, set[str]] = {}
        for f in factors:
            for u in f[0]:
                near.setdefault(u, set()).update(f[0])
        cells = {u: math.prod(size[w] for w in near.get(u, {u})) for u in free}
        v = min(sorted(free), key=cells.__getitem__)
        if cells[v] > max_cells:
            return None
        with_v = [f for f in factors if v in f[0]]
        factors = [f for f in factors if v not in f[0]]
        free.discard(v)
        if not with_v:
            continue
        prod = with_v[0]
        for f in with_v[1:]:
            prod = _join(prod, f)
        factors.append(_sum_out(prod, v))
    return factors


def exact_marginal(
    nodes: Mapping[str, Node],
    names: Sequence[str],
    max_cells: int = MARGINAL_CELLS,
    number: Callable[[Fraction], Any] = Fraction,
) -> dict[tuple[int, ...], Any] | None:
    """The exact joint law of ``names`` (state indices in their order), by variable
    elimination over their ancestors in min-degree order, or None when a factor would
    have more than ``max_cells`` cells.

    Args:
        nodes: the network's nodes.
        names: distinct records.
        max_cells: the size cap (dense cells of one factor's scope).
        number: how a table's entry is held (``float`` ranks: :func:`averaged_independent`
            screens in float64 before the exact pass).

    Returns:
        ``{configuration: probability}`` (configurations of probability 0 left out).

    References:
        Koller and Friedman (2009), Section 9.3 (variable elimination) and Section 3.3.1
        (the ancestral set carries the marginal).
    """
    size = {v: len(nodes[v].states) for v in nodes}
    factors: list[_Factor] = []
    for v in ancestors(nodes, names):
        node = nodes[v]
        table = {
            (*c, s): number(p) for c, row in node.cpt.items() for s, p in enumerate(row) if p != 0
        }
        factors.append(((*node.parents, v), table))
    keep = set(names)
    free = {v for f in factors for v in f[0]} - keep
    left = _eliminate(factors, free, size, max_cells)
    if left is None:
        return None
    factors = left
    if math.prod(size[v] for v in names) > max_cells:
        return None
    out: _Factor = ((), {(): 1})
    for f in factors:
        out = _join(out, f)
    index = [out[0].index(v) for v in names]
    law: dict[tuple[int, ...], Any] = {}
    for key, p in out[1].items():
        if p:
            short = tuple(key[k] for k in index)
            law[short] = law.get(short, 0) + p
    return law


def _frontier(
    nodes: Mapping[str, Node], t: str, near: set[str], linked: set[str], max_inner: int
) -> tuple[list[str], list[str]] | None:
    """``(W, F)``: ``t`` and the ancestors of ``t`` above it that are d-connected to the
    query but not in it, and their parents outside ``W`` (no one of them a descendant of
    ``W``); None past ``max_inner`` records."""
    inner = [t]
    frontier = list(nodes[t].parents)
    while True:
        grow = [u for u in frontier if u in near and u not in linked]
        if not grow:
            below = _descendants_within(nodes, inner, frontier)
            if not below:
                return inner, frontier
            grow = below
        inner += grow
        if len(inner) > max_inner:
            return None
        seen = set(inner)
        frontier = list(dict.fromkeys(p for v in inner for p in nodes[v].parents if p not in seen))


def _descendants_within(
    nodes: Mapping[str, Node], inner: Sequence[str], frontier: Sequence[str]
) -> list[str]:
    """The records of ``frontier`` that are descendants of a record of ``inner``."""
    inside = set(inner)
    out = []
    for f in frontier:
        stack, seen = list(nodes[f].parents), set()
        while stack:
            u = stack.pop()
            if u in inside:
                out.append(f)
                break
            if u not in seen:
                seen.add(u)
                stack.extend(nodes[u].parents)
    return out


def averaged_independent(
    nodes: Mapping[str, Node],
    counted: Iterable[str],
    known: Iterable[str],
    candidates: Iterable[str],
    max_cells: int = MARGINAL_CELLS,
    max_inner: int = 24,
) -> dict[str, bool]:
    """The candidates independent of the counted and known records by their averaged
    tables (the module's docstring proves it), and whether each has two states or more
    of positive probability (leakage 0) or not (no compatible pair).

    Args:
        nodes: the network's nodes.
        counted: the records the query counts.
        known: the known records.
        candidates: the targets to try (the others are not looked at).
        max_cells: the cap of one factor's cells in the exact eliminations.
        max_inner: the most records in ``W`` (the module's docstring).

    Returns:
        ``{target: has two compatible states}`` for each candidate this decides.

    References:
        Koller and Friedman (2009), Theorem 3.3 and Section 3.3.1; Li et al. (2019),
        Eq. 2.
    """
    linked = set(counted) | set(known)
    if not linked:
        return {}
    above = ancestors(nodes, linked)
    near = reachable(nodes, linked, ())
    out: dict[str, bool] = {}
    for t in candidates:
        if t in above or not nodes[t].parents:
            continue
        cut = _frontier(nodes, t, near, linked, max_inner)
        if cut is None:
            continue
        inner, frontier = cut
        if reachable(nodes, [t], frontier) & (linked - set(frontier)):
            continue  # the frontier does not separate t from the query
        a_side = [u for u in frontier if u in near]
        b_side = [u for u in frontier if u not in near]
        while a_side and b_side:
            moved = reachable(nodes, a_side, ()) & set(b_side)
            if not moved:
                break
            a_side += [u for u in b_side if u in moved]
            b_side = [u for u in b_side if u not in moved]
        if not a_side:
            continue  # d-separated from the query already
        # float64 ranks: only a target whose rows agree to 1e-9 gets the exact pass
        g = _averaged_rows(nodes, t, inner, a_side, b_side, max_cells, float)
        if g is not None:
            g = _averaged_rows(nodes, t, inner, a_side, b_side, max_cells, Fraction)
        if g is not None:
            out[t] = sum(1 for p in g if p > 0) >= 2
    return out


def _averaged_rows(
    nodes: Mapping[str, Node],
    t: str,
    inner: Sequence[str],
    a_side: Sequence[str],
    b_side: Sequence[str],
    max_cells: int,
    number: Callable[[Fraction], Any],
) -> tuple[Any, ...] | None:
    """``g(., x_A) = sum_{x_W - t, x_B} prod_{w in W} P(x_w | x_pa(w)) P(x_B)`` when it is
    the same row for every setting ``x_A`` (exactly for ``number = Fraction``, within
    ``1e-9`` for ``float``), else None (also past the size cap)."""
    size = {v: len(nodes[v].states) for v in nodes}
    factors: list[_Factor] = []
    if b_side:
        law = exact_marginal(nodes, b_side, max_cells, number)
        if law is None:
            return None
        factors.append((tuple(b_side), law))
    for v in inner:
        node = nodes[v]
        table = {
            (*c, s): number(p) for c, row in node.cpt.items() for s, p in enumerate(row) if p != 0
        }
        factors.append(((*node.parents, v), table))
    left = _eliminate(factors, [*(u for u in inner if u != t), *b_side], size, max_cells)
    if left is None:
        return None
    factors = left
    if math.prod(size[u] for u in (*a_side, t)) > max_cells:
        return None
    full: _Factor = ((), {(): 1})
    for f in factors:
        full = _join(full, f)
    index = [full[0].index(u) if u in full[0] else -1 for u in (*a_side, t)]
    first: tuple[Any, ...] | None = None
    for xa in itertools.product(*(range(size[u]) for u in a_side)):
        row = []
        for s in range(size[t]):
            want = (*xa, s)
            total = number(Fraction(0))
            for key, p in full[1].items():
                if all(k < 0 or key[k] == w for k, w in zip(index, want, strict=True)):
                    total += p
            row.append(total)
        if first is None:
            first = tuple(row)
        elif number is float and max(abs(x - y) for x, y in zip(row, first, strict=True)) > 1e-9:
            return None
        elif number is not float and tuple(row) != first:
            return None
    return first


__all__ = [
    "MARGINAL_CELLS",
    "averaged_independent",
    "exact_marginal",
    "reduced_nodes",
    "vacuous_edges",
    "without_vacuous",
]

"""Which entries of a Bayesian network's factors have positive probability: the junction
tree's passes (:mod:`pdpsym.models.bayesnet_jtree`, valid over any commutative semiring)
run on boolean tables, ``and`` for the product and ``or`` for the sum.

Two questions use them: the work of the exact passes counted on the tables' supports
(:func:`support_work`, :func:`sparse_tree`: a product costs its entries of positive
probability, which the dense estimate overcounts on sparse tables), and each target's
possible states given the evidence (:func:`marginal_supports`, for the exact zeros of
:mod:`pdpsym.models.bayesnet_zeros`).

References:
    Aji and McEliece, The generalized distributive law, IEEE Trans. Inf. Theory 46(2),
    2000 (the Boolean semiring); Koller and Friedman, Probabilistic Graphical Models
    (2009), Section 10.2.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from pdpsym.models.bayesnet_build import ancestors, moral_graph
from pdpsym.models.bayesnet_jtree import CliqueTree, clique_tree, pass_down, pass_up

#: a factor's support: (scope, boolean array over the scope's states)
BFactor = tuple[tuple[str, ...], np.ndarray]


#: the largest product whose support :func:`support_work` lists (cells)
SUPPORT_CELLS = 1 << 22


def _align(f: BFactor, scope: Sequence[str]) -> np.ndarray:
    """``f``'s array with its axes in ``scope``'s order, size-1 axes for the others."""
    fs, arr = f
    order = sorted(range(len(fs)), key=lambda k: scope.index(fs[k]))
    arr = arr.transpose(order)
    shape = [arr.shape[order.index(fs.index(u))] if u in fs else 1 for u in scope]
    return arr.reshape(shape)


def _bmul(a: BFactor, b: BFactor) -> BFactor:
    scope = a[0] + tuple(u for u in b[0] if u not in a[0])
    return scope, _align(a, scope) & _align(b, scope)


def _bsum(f: BFactor, keep: Sequence[str]) -> BFactor:
    scope, arr = f
    kept = tuple(u for u in scope if u in keep)
    axes = tuple(k for k, u in enumerate(scope) if u not in keep)
    return kept, np.asarray(arr.any(axis=axes)) if axes else arr


def support_work(tree: CliqueTree, supports: Sequence[BFactor], price: int) -> int | None:
    """The work of :func:`all_marginals` counted on the factors' supports: each product
    priced by its entries of positive probability (the polynomial products the exact
    passes actually make), the same passes run on boolean tables.

    Args:
        tree: the clique tree.
        supports: each table's support (``scope``, boolean array; an empty scope is a
            constant).
        price: the units of one entry's polynomial product.

    Returns:
        The work, or None when a product has more than :data:`SUPPORT_CELLS` cells (then
        the dense estimate stands).

    References:
        Koller and Friedman, Sec. 10.2 (the passes); the sparsity is the tables' zeros.
    """
    order = tree.order
    rank = {v: k for k, v in enumerate(order)}
    sizes: dict[str, int] = {}
    for scope, arr in supports:
        sizes.update(zip(scope, arr.shape, strict=True))
    if any(
        math.prod(sizes.get(u, 1) for u in (v, *tree.neighbours[v])) > SUPPORT_CELLS for v in order
    ):
        return None
    assigned: dict[str, list[BFactor]] = {v: [] for v in order}
    for f in supports:
        if f[0]:
            assigned[min(f[0], key=rank.__getitem__)].append(f)
    work = 0
    unit: BFactor = ((), np.ones((), dtype=bool))

    def mul(a: BFactor, b: BFactor) -> BFactor:
        nonlocal work
        out = _bmul(a, b)
        work += int(np.count_nonzero(out[1])) * price
        return out

    local = {v: functools.reduce(mul, assigned[v], unit) for v in order}
    kids, up = pass_up(tree, local, mul, _bsum)
    pass_down(tree, local, kids, up, mul, _bsum)
    return work


def sparse_tree(
    tree: CliqueTree, nodes: Mapping[str, Any], evidence: Mapping[str, int], keep: Iterable[str]
) -> CliqueTree:
    """``tree`` with its work counted on the tables' supports (:func:`support_work`)
    when that is smaller.

    Args:
        tree: the clique tree, with its dense work.
        nodes: the network's nodes (``states``, ``parents``, ``cpt``).
        evidence: the observed records' states; ``-1``: any state (the support's union).
        keep: the records whose tables enter.

    Returns:
        The tree with the smaller of the two works.

    References:
        Koller and Friedman, Sec. 10.2 (the passes whose products are counted).
    """
    if tree.work <= 10**6:
        return tree
    supports: list[BFactor] = []
    for v in keep:
        node = nodes[v]
        family = (*node.parents, v)
        arr = np.zeros([len(nodes[u].states) for u in family], dtype=bool)
        for config, row in node.cpt.items():
            arr[config] = [p != 0 for p in row]
        for k in range(len(family) - 1, -1, -1):
            if family[k] in evidence:
                s = evidence[family[k]]
                arr = np.asarray(arr.any(axis=k) if s < 0 else arr.take(s, axis=k))
        supports.append((tuple(u for u in family if u not in evidence), arr))
    work = support_work(tree, supports, tree.price)
    return tree if work is None or work >= tree.work else dataclasses.replace(tree, work=work)


#: the largest clique (cells) of the boolean passes of :func:`marginal_supports`
SUPPORT_CLIQUE = 1 << 25


def marginal_supports(
    nodes: Mapping[str, Any],
    variables: Sequence[str],
    targets: Sequence[str],
    max_cells: int = SUPPORT_CLIQUE,
) -> dict[str, tuple[bool, ...]] | None:
    """Which states of each target have positive marginal probability, exactly: the
    upward and downward passes over the boolean semiring (``or``, ``and``) on the
    tables' supports of the targets' ancestors (a state is possible iff some assignment
    with it has every table entry positive).

    Args:
        nodes: the network's nodes (``states``, ``parents``, ``cpt``).
        variables: the declaration order.
        targets: the records whose supports are wanted.
        max_cells: the largest clique the passes take on.

    Returns:
        ``{target: (possible, ...)}`` one flag per state, or None when a clique of the
        min-fill order has more than ``max_cells`` cells.

    References:
        Aji and McEliece (2000) (the junction tree over any commutative semiring);
        Koller and Friedman (2009), Sec. 10.2.
    """
    keep = ancestors(nodes, targets)
    kept = [v for v in variables if v in keep]
    adj = moral_graph(nodes, variables, {}, kept)
    position = {v: k for k, v in enumerate(variables)}
    sizes = {v: len(nodes[v].states) for v in adj}
    tree = clique_tree(kept, adj, position, sizes, 0)
    if tree.largest > max_cells:
        return None
    supports: list[BFactor] = []
    for v in kept:
        family = (*nodes[v].parents, v)
        arr = np.zeros([len(nodes[u].states) for u in family], dtype=bool)
        for config, row in nodes[v].cpt.items():
            arr[config] = [p != 0 for p in row]
        supports.append((family, arr))
    rank = {v: k for k, v in enumerate(tree.order)}
    unit: BFactor = ((), np.ones((), dtype=bool))
    assigned: dict[str, list[BFactor]] = {v: [] for v in tree.order}
    for f in supports:
        assigned[min(f[0], key=rank.__getitem__)].append(f)
    local = {v: functools.reduce(_bmul, assigned[v], unit) for v in tree.order}
    kids, up = pass_up(tree, local, _bmul, _bsum)
    beliefs, _ = pass_down(tree, local, kids, up, _bmul, _bsum, set(targets))
    # every tree of the forest has a possible assignment (each row has a positive entry)
    return {t: tuple(bool(x) for x in _bsum(beliefs[t], (t,))[1]) for t in targets}


__all__ = ["BFactor", "SUPPORT_CELLS", "marginal_supports", "sparse_tree", "support_work"]

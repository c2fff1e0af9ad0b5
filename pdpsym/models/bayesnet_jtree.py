"""Every target of a Bayesian network at once: a junction tree over integer polynomials.

The query law of one target ``t`` given ``x_t = a`` and the evidence needs the
generating polynomial ``J_{t,a}(z) = sum_x [x_t = a] prod_v P(x_v | x_pa(v)) z^{S(x)}``
(every table scaled to integers). One variable elimination per target and value gives
it (:mod:`pdpsym.models.bayesnet`); this module gives it for **every** ``t`` and ``a`` in
one upward and one downward pass of the clique tree that the elimination order
defines (the Shafer-Shenoy scheme, without division): the entries of every factor are
integer polynomials, which form a commutative semiring under ``+`` and ``*``, and the
junction-tree algorithm is valid over any commutative semiring (Aji and McEliece,
2000). The result is the *same* integer polynomial the per-target elimination gives: the
same scaled tables, the same sum over the same configurations.

**The clique tree.** Eliminating ``v`` in the min-fill order, its clique is ``C_v = {v}
union N(v)`` (its neighbours at that time) and its parent clique is that of the first
neighbour eliminated after it; every table goes to the clique of its first-eliminated
record. The upward message of ``C_v`` sums ``v`` out of the product of its tables and
its children's messages; the downward message from ``C_p`` to a child sums out of the
product of ``C_p``'s tables, its own downward message and its other children's upward
messages (prefix and suffix products: no division). The belief of ``C_v`` is the
product of everything that reaches it, and ``J_{v,a}`` is its sum over ``C_v`` minus
``v``. Disconnected parts of the network (after the evidence is removed) are separate
trees; each record's polynomial is multiplied by the totals of the other trees.

**Work.** The estimate, known before any table is built, counts the products of a
clique's size (once up, once down, once per child: ``cells(C_v) * (2 + children(v))``)
and prices each at ``5 + span * bits / 1000``: a polynomial product whose degree can
reach the query's span and whose coefficients have up to ``bits`` bits (the sum of the
tables' scale bits). Measured on the bnlearn networks (alarm, hailfinder, insurance,
hepar2, win95pts), one unit is about a microsecond of CPU, within a factor of 2; it
counts every cell; :func:`pdpsym.models.bayesnet_supports.support_work` then recounts the passes on the tables'
supports (the same passes on boolean tables, each product priced by its entries of
positive probability), which the exact passes never exceed.

References:
    Lauritzen and Spiegelhalter (1988); Shafer and Shenoy (1990); Aji and McEliece,
    The generalized distributive law, IEEE Trans. Inf. Theory 46(2), 2000; Koller and
    Friedman, Probabilistic Graphical Models (2009), Sections 10.2-10.3.
"""

from __future__ import annotations

import heapq
import itertools
import math
import operator
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from pdpsym.core import poly
from pdpsym.core.poly import IntPoly

#: a factor: (scope, {configuration of the scope: polynomial}); absent entries are 0
PFactor = tuple[tuple[str, ...], dict[tuple[int, ...], IntPoly]]
#: a factor of any kind (the message passing is the same for all)
_F = TypeVar("_F")


@dataclass(frozen=True)
class CliqueTree:
    """The elimination order of the free records, each one's clique neighbours ``N(v)``
    (so ``C_v = (v, *N(v))``), its parent (None for a root), its induced width and work."""

    order: tuple[str, ...]
    neighbours: Mapping[str, tuple[str, ...]]
    parent: Mapping[str, str | None]
    width: int
    work: int
    #: the units of one entry's polynomial product
    price: int = 1
    #: the cells of the largest clique
    largest: int = 0


def min_fill(
    free: Sequence[str],
    edges: dict[str, set[str]],
    position: Mapping[str, int],
) -> tuple[list[str], dict[str, tuple[str, ...]]]:
    """The greedy min-fill elimination order (ties: fewer neighbours, then ``position``)
    and each record's neighbours when it is eliminated.

    Scores are kept in a heap and recomputed only around an eliminated record (its
    neighbours and theirs), so the order is the one a full rescan at every step gives.

    Args:
        free: the records to eliminate.
        edges: the moral graph among them (symmetric adjacency sets; modified).
        position: each record's declaration index (the last tie-break).

    Returns:
        ``(order, neighbours)``.

    References:
        Kjaerulff (1990); Koller and Friedman, Sec. 9.4.3.2.
    """
    adj = edges

    def score(v: str) -> tuple[int, int, int]:
        nb = adj[v]
        missing = sum(1 for a, b in itertools.combinations(nb, 2) if b not in adj[a])
        return (missing, len(nb), position[v])

    current = {v: score(v) for v in free}
    heap = [(s, v) for v, s in current.items()]
    heapq.heapify(heap)
    order: list[str] = []
    neighbours: dict[str, tuple[str, ...]] = {}
    while heap:
        s, v = heapq.heappop(heap)
        if current.get(v) != s:
            continue  # a stale score
        nb = adj[v]
        neighbours[v] = tuple(sorted(nb, key=position.__getitem__))
        for a, b in itertools.combinations(nb, 2):
            adj[a].add(b)
            adj[b].add(a)
        for u in nb:
            adj[u].discard(v)
        del adj[v]
        del current[v]
        order.append(v)
        touched = set(nb)
        for u in nb:
            touched |= adj[u]
        for u in touched:
            new = score(u)
            if new != current[u]:
                current[u] = new
                heapq.heappush(heap, (new, u))
    return order, neighbours


def clique_tree(
    free: Sequence[str],
    edges: dict[str, set[str]],
    position: Mapping[str, int],
    sizes: Mapping[str, int],
    span: int,
    bits: int = 0,
) -> CliqueTree:
    """The clique tree of the min-fill order, with its width and work estimate.

    Args:
        free: the unobserved records.
        edges: their moral graph (modified).
        position: declaration indices (tie-break).
        sizes: each record's number of states.
        span: the query's span in count units (the largest polynomial degree).
        bits: the bits of the largest coefficient (the sum of the tables' scale bits).

    Returns:
        The :class:`CliqueTree`.

    References:
        Koller and Friedman, Sec. 10.4.1 (clique trees from variable elimination).
    """
    order, neighbours = min_fill(free, edges, position)
    rank = {v: k for k, v in enumerate(order)}
    parent: dict[str, str | None] = {}
    children = dict.fromkeys(order, 0)
    for v in order:
        nb = neighbours[v]
        p = min(nb, key=rank.__getitem__) if nb else None
        parent[v] = p
        if p is not None:
            children[p] += 1
    width = max((len(nb) for nb in neighbours.values()), default=0)
    price = 5 + span * bits // 1000
    work = sum(
        sizes[v] * math.prod(sizes[u] for u in neighbours[v]) * (2 + children[v]) * price
        for v in order
    )
    largest = max((sizes[v] * math.prod(sizes[u] for u in neighbours[v]) for v in order), default=0)
    return CliqueTree(tuple(order), neighbours, parent, width, work, price, largest)


def multiply(a: PFactor, b: PFactor) -> PFactor:
    """The product factor on the union of the scopes (shared records agree).

    Args:
        a: a factor.
        b: a factor.

    Returns:
        The product (entries multiplied as polynomials).

    References:
        Koller and Friedman, Definition 4.2 (factor product).
    """
    sa, ta = a
    sb, tb = b
    if not sb:
        c = tb.get(())
        return (sa, {k: p * c for k, p in ta.items()}) if c is not None else (sa, {})
    if not sa:
        c = ta.get(())
        return (sb, {k: c * p for k, p in tb.items()}) if c is not None else (sb, {})
    shared = [u for u in sa if u in sb]
    scope = sa + tuple(u for u in sb if u not in sa)
    ai = [sa.index(u) for u in shared]
    bi = [sb.index(u) for u in shared]
    rest = [k for k, u in enumerate(sb) if u not in shared]
    by_key: dict[tuple[int, ...], list[tuple[tuple[int, ...], IntPoly]]] = {}
    for key, p in tb.items():
        by_key.setdefault(tuple(key[k] for k in bi), []).append((tuple(key[k] for k in rest), p))
    table: dict[tuple[int, ...], IntPoly] = {}
    for key, p in ta.items():
        for tail, q in by_key.get(tuple(key[k] for k in ai), ()):
            table[key + tail] = p * q
    return scope, table


def marginal(f: PFactor, keep: Sequence[str]) -> PFactor:
    """The factor summed over every record of its scope not in ``keep``.

    Args:
        f: a factor.
        keep: the records to keep, in the order wanted; those not in the scope are
            left out (the factor does not depend on them).

    Returns:
        The marginal factor on the records of ``keep`` in its scope.

    References:
        Koller and Friedman, Definition 9.3 (factor marginalization).
    """
    scope, table = f
    keep = [u for u in keep if u in scope]
    idx = [scope.index(u) for u in keep]
    out: dict[tuple[int, ...], IntPoly] = {}
    for key, p in table.items():
        k = tuple(key[i] for i in idx)
        q = out.get(k)
        out[k] = p if q is None else q + p
    return tuple(keep), out


def _product(factors: Sequence[PFactor]) -> PFactor | None:
    out: PFactor | None = None
    for f in factors:
        out = f if out is None else multiply(out, f)
    return out


def pass_up(
    tree: CliqueTree,
    local: Mapping[str, _F],
    mul: Callable[[_F, _F], _F],
    marg: Callable[[_F, Sequence[str]], _F],
    on_clique: Callable[[], None] | None = None,
) -> tuple[dict[str, list[str]], dict[str, _F]]:
    """The upward pass (for factors of any kind, given their product ``mul`` and marginal
    ``marg``): each clique's own tables times its children's messages, marginalised to
    its separator, children before their parent.

    Args:
        tree: the clique tree.
        local: each clique's own tables, multiplied.
        mul: the product of two factors.
        marg: the marginal of a factor on some records.
        on_clique: called once per clique (progress).

    Returns:
        ``(kids, up)``: each clique's children (in ``tree.order``) and its upward message.

    References:
        Shafer and Shenoy (1990); Koller and Friedman, Sec. 10.2.
    """
    kids: dict[str, list[str]] = {v: [] for v in tree.order}
    for v in tree.order:
        p = tree.parent[v]
        if p is not None:
            kids[p].append(v)
    up: dict[str, _F] = {}
    for v in tree.order:  # children come before their parent
        prod = local[v]
        for c in kids[v]:
            prod = mul(prod, up[c])
        up[v] = marg(prod, tree.neighbours[v])
        if on_clique is not None:
            on_clique()
    return kids, up


def send_down(
    base: _F,
    cs: Sequence[str],
    up: Mapping[str, _F],
    down: dict[str, _F],
    neighbours: Mapping[str, Sequence[str]],
    mul: Callable[[_F, _F], _F],
    marg: Callable[[_F, Sequence[str]], _F],
) -> _F:
    """One clique's downward messages (for factors of any kind, given their product
    ``mul`` and marginal ``marg``): ``down[c]`` for each child ``c`` is ``base`` times
    every other child's upward message, marginalised to ``c``'s separator (by prefix and
    suffix products, so each product is taken once).

    Args:
        base: the clique's own tables times its downward message.
        cs: its children.
        up: the upward messages.
        down: the downward messages (filled in for ``cs``).
        neighbours: each clique's separator records.
        mul: the product of two factors.
        marg: the marginal of a factor on some records.

    Returns:
        ``base`` times every child's upward message (the clique's belief).

    References:
        Shafer and Shenoy (1990); Koller and Friedman, Sec. 10.2.
    """
    # prefix_j = base * up[c_0..c_{j-1}] (one held at a time: a clique-sized array each),
    # suffix[j] = up[c_j..] (on the children's separators only)
    suffix: list[_F | None] = [None] * (len(cs) + 1)
    for j in range(len(cs) - 1, -1, -1):
        nxt = suffix[j + 1]
        suffix[j] = up[cs[j]] if nxt is None else mul(up[cs[j]], nxt)
    prefix = base
    for j, c in enumerate(cs):
        s = suffix[j + 1]
        rest = prefix if s is None else mul(prefix, s)
        down[c] = marg(rest, neighbours[c])
        del rest
        suffix[j + 1] = None  # no longer needed
        prefix = mul(prefix, up[c])
    return prefix


def pass_down(
    tree: CliqueTree,
    local: Mapping[str, _F],
    kids: Mapping[str, Sequence[str]],
    up: Mapping[str, _F],
    mul: Callable[[_F, _F], _F],
    marg: Callable[[_F, Sequence[str]], _F],
    wanted: Collection[str] = (),
    on_clique: Callable[[], None] | None = None,
) -> tuple[dict[str, _F], dict[str, str]]:
    """The downward pass after :func:`pass_up`, parents before their children.

    Args:
        tree: the clique tree.
        local: each clique's own tables, multiplied.
        kids: each clique's children.
        up: the upward messages.
        mul: the product of two factors.
        marg: the marginal of a factor on some records.
        wanted: the cliques whose beliefs are kept.
        on_clique: called once per clique (progress).

    Returns:
        ``(beliefs, root_of)``: the belief of each wanted clique (its tables times every
        message into it; in reverse tree order) and each clique's root.

    References:
        Shafer and Shenoy (1990); Koller and Friedman, Sec. 10.2.
    """
    root_of: dict[str, str] = {}
    down: dict[str, _F] = {}
    beliefs: dict[str, _F] = {}
    for v in reversed(tree.order):  # parents come before their children
        p = tree.parent[v]
        root_of[v] = v if p is None else root_of[p]
        base = local[v] if p is None else mul(local[v], down[v])
        whole = send_down(base, kids[v], up, down, tree.neighbours, mul, marg)
        if v in wanted:
            beliefs[v] = whole
        if on_clique is not None:
            on_clique()
    return beliefs, root_of


def all_but_one(first: _F, values: Sequence[_F], unit: _F, mul: Callable[[_F, _F], _F]) -> list[_F]:
    """``first`` times every value but the ``k``-th, for each ``k`` (prefix and suffix
    products: each product is taken a constant number of times).

    Args:
        first: the common factor (the constants).
        values: the factors (the trees' totals).
        unit: the product's unit.
        mul: the product.

    Returns:
        One product per value, in order.

    References:
        Aji and McEliece (2000) (the other trees of a forest multiply in).
    """
    others: list[_F] = []
    acc = first
    for x in values:
        others.append(acc)
        acc = mul(acc, x)
    acc = unit
    for k in range(len(values) - 1, -1, -1):
        others[k] = mul(others[k], acc)
        acc = mul(acc, values[k])
    return others


def all_marginals(
    tree: CliqueTree,
    factors: Sequence[PFactor],
    targets: Sequence[str],
    on_clique: Callable[[], None] | None = None,
) -> dict[str, dict[int, IntPoly]]:
    """``J_{v,a}`` for every target ``v`` and state ``a``, by one upward and one
    downward pass (module docstring).

    Args:
        tree: the clique tree of the free records.
        factors: the evidence-reduced tables (scopes among the free records; an empty
            scope is a constant).
        targets: the free records whose polynomials are wanted.
        on_clique: called once per clique of each pass (progress).

    Returns:
        ``{v: {state index: polynomial}}`` (a state of probability 0 maps to the zero
        polynomial or is absent).

    References:
        Shafer and Shenoy (1990); Aji and McEliece (2000), the generalized distributive law.
    """
    order = tree.order
    rank = {v: k for k, v in enumerate(order)}
    assigned: dict[str, list[PFactor]] = {v: [] for v in order}
    constant: IntPoly = poly.monomial(1, 0)
    for f in factors:
        if not f[0]:
            constant = constant * f[1].get((), poly.zero())
        else:
            assigned[min(f[0], key=rank.__getitem__)].append(f)
    unit: PFactor = ((), {(): poly.monomial(1, 0)})
    local = {v: _product(assigned[v]) or unit for v in order}
    kids, up = pass_up(tree, local, multiply, marginal, on_clique)
    roots = [v for v in order if tree.parent[v] is None]
    totals = [up[r][1].get((), poly.zero()) for r in roots]
    beliefs, root_of = pass_down(tree, local, kids, up, multiply, marginal, set(targets), on_clique)
    # the other trees' totals and the constants, by prefix and suffix products
    others = dict(zip(roots, all_but_one(constant, totals, poly.monomial(1, 0), operator.mul)))
    out: dict[str, dict[int, IntPoly]] = {}
    for v, whole in beliefs.items():
        rest = others[root_of[v]]
        out[v] = {k[0]: q * rest for k, q in marginal(whole, (v,))[1].items()}
    return out


__all__ = [
    "CliqueTree",
    "PFactor",
    "all_marginals",
    "clique_tree",
    "marginal",
    "min_fill",
    "multiply",
    "send_down",
]

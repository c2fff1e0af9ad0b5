"""The WHG of a distribution (Li et al. Sec. V-A, V-C Theorem 5, V-D Algorithms 1-2):
every node's exact Eq. 2 value next to its chain-rule value, from the counts.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pdpsym.core.errors import InputError
from pdpsym.core.exp_polynomials import LogRatio
from pdpsym.loss.adversary import Adversary, LeakageResult
from pdpsym.loss.table_leakage import leakage_all, table_leakage
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.joint import JointDistribution
from pdpsym.papers.li2019.edge_tables import EdgeTables
from pdpsym.papers.li2019.edges import EdgeReading, rational_log
from pdpsym.papers.li2019.whg.chain import (
    MAX_PATHS_N,
    BottomRule,
    ChainValue,
    chain_min,
    compare_chain_values,
    first_max,
    step,
)

#: the largest n for exact work on a distribution (every node's Eq. 2 and chain value)
MAX_EXACT_N = 12


@dataclass
class Node:
    """One adversary with its exact Eq. 2 value and its chain-rule value(s)."""

    target: str
    known: tuple[str, ...]
    layer: int
    exact: LeakageResult | None
    chain_value: ChainValue | None
    chain_paths: LogRatio | None = None
    generated: bool = True  # False when fast search skipped it

    @property
    def chain(self) -> LogRatio | None:
        """The chain value as one LogRatio (the product form, built on first use)."""
        return None if self.chain_value is None else self.chain_value.exact

    @property
    def adversary(self) -> Adversary:
        """The node's adversary ``A(target, known)``."""
        return Adversary(self.target, self.known)


@dataclass
class DistributionWHG:
    """The WHG of a distribution: its model, scale, query and edge reading, and every node by
    ``(target, frozenset(known))``; ``fast_k`` when it was built by the fast search.
    """

    model: JointDistribution
    lam: Fraction
    query: LinearQuery
    reading: EdgeReading
    nodes: dict[tuple[str, frozenset[str]], Node] = field(default_factory=dict)
    fast_k: int | None = None

    def ordered(self) -> list[Node]:
        """The nodes by layer (bottom first), then target (model order), then known tuples."""
        return sorted(
            self.nodes.values(),
            key=lambda v: (v.layer, self.model.variables.index(v.target), v.known),
        )


def whg_from_distribution(
    model: JointDistribution,
    lam: Fraction | int = 1,
    query: LinearQuery | None = None,
    *,
    reading: EdgeReading = EdgeReading.RIGHT,
    fast_k: int | None = None,
    with_exact: bool = True,
    with_paths: bool = False,
    bottom: BottomRule = BottomRule.THEOREM4,
    progress: Any = None,
) -> DistributionWHG:
    """Every node's exact Eq. 2 value and chain-rule value (Theorem 2 steps from layer 1).

    Layer by layer over bitmasks: the extremes of every ``W_ij`` come from
    :class:`~pdpsym.papers.li2019.edge_tables.EdgeTables`; each chain value carries a
    rigorous arb ball, so the ``|x + w|`` signs and the minima are decided by ball
    separation, and exactly (exp-polynomial signs) when balls overlap. A node's chain value
    is a :class:`ChainValue` (the signed sum of logs of Eq. 14, Li et al. Sec. V-C); its
    single-LogRatio form ``Node.chain`` is built on first use. ``progress`` advances once
    per node for the Eq. 2 values (when ``with_exact``) and once per node for the chain.

    Args:
        model: the joint distribution of at most ``MAX_EXACT_N`` tuples (else
            ``InputError("model")``).
        lam: the Laplace scale, a rational > 0.
        query: the linear query; None means the sum.
        reading: which tail Eq. 9 is read as (``EdgeReading``).
        fast_k: None for the full search (Algorithm 1); else the number of nodes of a layer
            that generate the next (Algorithm 2), >= 1 (else ``InputError("fast_k")``).
        with_exact: also compute every node's exact Eq. 2 value.
        with_paths: also compute Theorem 5's minimum over all paths (``n <= MAX_PATHS_N``,
            else ``InputError("with_paths")``).
        bottom: layer 1 by Theorem 4 as printed (``Delta_i / lam``) or by exact Eq. 2.
        progress: None, or an object whose ``update(1)`` is called as described above.

    Returns:
        The :class:`DistributionWHG`: every node with its exact Eq. 2 result (when asked), its
        chain value (exact, with a certified ball; None when no child has one), its path
        minimum (when asked) and whether the fast search generated it.

    References:
        Li et al. (2019), Section V-A (the WHG), Section V-B, Theorem 2, Eq. 9-11 (rebuilt
        reading of the edge values), Section V-C, Theorem 4 and Theorem 5, Eq. 14, and
        Section V-D, Algorithms 1-2; each node's exact value by Section IV-A, Eq. 2.
    """
    n = model.n
    if n > MAX_EXACT_N:
        raise InputError(
            "model",
            f"{n} tuples: exact WHG work is limited to n <= {MAX_EXACT_N} "
            f"({n * 2 ** (n - 1)} nodes, each an exact Eq. 2 search)",
        )
    if fast_k is not None and fast_k < 1:
        raise InputError("fast_k", f"must be >= 1, got {fast_k}")
    if with_paths and n > MAX_PATHS_N:
        raise InputError("with_paths", f"path enumeration is limited to n <= {MAX_PATHS_N}")
    lam = Fraction(lam)
    query = query or LinearQuery.sum(model.variables)
    g = DistributionWHG(model, lam, query, reading, fast_k=fast_k)
    names = model.variables
    exact: dict[tuple[int, int], LeakageResult] = {}
    if with_exact:
        for res in leakage_all(model, lam, query, progress=progress):
            adv = res.adversary
            exact[(names.index(adv.target), _mask(names, adv.known))] = res

    def eq2(i: int, K: int) -> LeakageResult:
        if (i, K) not in exact:
            exact[(i, K)] = table_leakage(model, names[i], _known(names, K), lam, query)
        return exact[(i, K)]

    tables = EdgeTables(model, lam, query, reading)
    chain: dict[tuple[int, int], ChainValue | None] = {}
    paths: dict[tuple[int, int], list[ChainValue]] = {}
    generators: set[tuple[int, int]] | None = None
    full = (1 << n) - 1
    for layer in range(1, n + 1):
        size = n - layer
        this_layer: list[tuple[int, int]] = []
        for i in range(n):
            others = full & ~(1 << i)
            for K_t in itertools.combinations([v for v in range(n) if v != i], size):
                K = _mask_of(K_t)
                key = (i, K)
                node_chain: ChainValue | None
                generated = True
                if layer == 1:
                    if bottom is BottomRule.THEOREM4:
                        node_chain = ChainValue.of(
                            rational_log(query.sensitivity(model, names[i]) / lam)
                        )
                    else:
                        b = eq2(i, K)
                        node_chain = ChainValue.of(b.require()) if b.ok else None
                    if with_paths and node_chain is not None:
                        paths[key] = [node_chain]
                else:
                    cands: list[ChainValue] = []
                    pcands: list[ChainValue] = []
                    generated = False
                    for j in range(n):
                        if not (others >> j & 1) or K >> j & 1:
                            continue
                        ckey = (i, K | (1 << j))
                        if generators is not None and ckey not in generators:
                            continue
                        child = chain[ckey]
                        if child is None:
                            continue
                        generated = True
                        W = tables.extremes(i, ckey[1], j)
                        cands.append(step(child, W))
                        if with_paths:
                            pcands.extend(step(v, W) for v in paths.get(ckey, []))
                    node_chain = chain_min(cands) if cands else None
                    if with_paths and pcands:
                        paths[key] = pcands
                chain[key] = node_chain
                # layer 1 is its own (only) path, as in the reference definition
                pmin = (
                    node_chain
                    if layer == 1
                    else (chain_min(paths[key]) if with_paths and paths.get(key) else None)
                )
                g.nodes[(names[i], frozenset(_known(names, K)))] = Node(
                    names[i],
                    _known(names, K),
                    layer,
                    exact.get(key) if with_exact else None,
                    node_chain,
                    None if pmin is None else pmin.exact,
                    generated,
                )
                if generated and node_chain is not None:
                    this_layer.append(key)
                if progress is not None:
                    progress.update(1)
        if fast_k is not None:

            def by_value(x: tuple[int, int], y: tuple[int, int]) -> int:
                cx, cy = chain[x], chain[y]
                assert cx is not None and cy is not None
                return -compare_chain_values(cx, cy) or _order(x, y)

            ranked = sorted(this_layer, key=functools.cmp_to_key(by_value))
            generators = set(ranked[:fast_k])
    return g


def _mask(names: Sequence[str], known: Sequence[str]) -> int:
    return _mask_of(names.index(k) for k in known)


def _mask_of(indices: Any) -> int:
    m = 0
    for v in indices:
        m |= 1 << v
    return m


def _known(names: Sequence[str], K: int) -> tuple[str, ...]:
    return tuple(names[v] for v in range(len(names)) if K >> v & 1)


def _order(x: tuple[int, int], y: tuple[int, int]) -> int:
    """Fast search ties (equal exact values): the lower target, then the smaller mask."""
    return (x > y) - (x < y)


def max_chain(nodes: Sequence[Node]) -> Node | None:
    """A node of maximal chain value (decided: balls, then exact comparison).

    Args:
        nodes: the nodes to search; those without a chain value or not generated are skipped.

    Returns:
        The first node of maximal chain value, or None when no node has one.

    References:
        Li et al. (2019), Section V-D, Algorithm 1, line 11 (the leakage is the maximal node
        value).
    """
    return _decided_argmax(
        [(v, v.chain_value) for v in nodes if v.chain_value is not None and v.generated]
    )


def max_exact(nodes: Sequence[Node]) -> Node | None:
    """A node of maximal Eq. 2 value (decided: balls, then exact comparison).

    Args:
        nodes: the nodes to search; those without an Eq. 2 value are skipped.

    Returns:
        The first node of maximal exact Eq. 2 value, or None when no node has one.

    References:
        Li et al. (2019), Section IV-A, Definition 2 (the PDP level is the max over
        adversaries of Eq. 2).
    """
    return _decided_argmax(
        [(v, ChainValue.of(v.exact.require())) for v in nodes if v.exact is not None and v.exact.ok]
    )


def _decided_argmax(items: Sequence[tuple[Node, ChainValue]]) -> Node | None:
    if not items:
        return None
    return items[first_max([v for _, v in items])][0]

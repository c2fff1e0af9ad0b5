"""The weighted hierarchical graph (WHG), the chain rule and the two searches
(Li et al. Section V-A, V-C Theorem 5 / Eq. 14, V-D Algorithms 1-2).

Every adversary ``A(i, K)`` is a node; its *layer* is ``n - |K|`` (layer 1 = bottom,
``K`` = all others; layer ``n`` = top, ``K`` empty). The edge from ``A(i, K)`` up to its
ancestor ``A(i, K - {j})`` carries ``w``. The chain rule along a path from the bottom::

    PL = | ... | | PL_1 + w_1 | + w_2 | ... + w_{l-1} |        (Eq. 14)

Two ways to combine several paths into a node, both carried as :class:`ChainMode`:

- ``LAYERED`` (Algorithm 1, full-space search, "retain the minimal value ... (line 8)"):
  a node's value is the minimum over its children of the Theorem 2 step applied to the
  child's (already minimized) value;
- ``PATHS`` (Theorem 5's text, "compute the value of each path ... choose the minimum"):
  the minimum over all paths of Eq. 14. The step ``x -> |x + w|`` is not monotone, so
  the two can differ; ``PATHS`` enumerates paths and is for small ``n`` only.

Fast search (Algorithm 2): only the ``k`` largest nodes of a layer (over all targets)
generate the next layer; a node's value is the minimum over its *generated* children.

A WHG is built either from a distribution (edge values derived exactly by Eq. 9-11 of
:mod:`pdpsym.papers.li2019.edges`, node by node, alongside the exact Eq. 2 value of the same node)
or from given edge values (Section VII). Given edges are kept per target as an array
``E[p][mask]`` over the other tuples (bit ``p`` = the ``p``-th other tuple): the value of
the edge from ``mask | bit p`` up to ``mask``. Rational edges are combined exactly
(``Fraction`` object arrays); float edges (Section VII's beta draws) in float64, one
target at a time, so ``n = 20`` (10 million nodes) is practical.

The package's modules: :mod:`.chain` (chain values and the Theorem 2 step), :mod:`.exact`
(the WHG of a distribution), :mod:`.given` (edge sources and the searches), :mod:`.batch`
(certified enclosures of every node at float speed), :mod:`.ties` (exact tie classes) and
:mod:`.masks` (bitmask helpers).
"""

from __future__ import annotations

from pdpsym.papers.li2019.whg.chain import (
    BottomRule,
    ChainMode,
    ChainValue,
    chain_min,
    compare_chain_values,
    first_max,
    step,
)
from pdpsym.papers.li2019.whg.exact import (
    MAX_EXACT_N,
    MAX_PATHS_N,
    DistributionWHG,
    Node,
    max_chain,
    max_exact,
    whg_from_distribution,
)
from pdpsym.papers.li2019.whg.given_edges import (
    MAX_EXACT_GIVEN_N,
    ArrayEdges,
    BetaEdges,
    CachedEdges,
    EdgeSource,
    ExactOf,
    GivenResult,
    fast_search,
    full_search,
    paths_search,
)
from pdpsym.papers.li2019.whg.node_masks import popcounts

__all__ = [
    "ArrayEdges",
    "BetaEdges",
    "BottomRule",
    "CachedEdges",
    "ChainMode",
    "ChainValue",
    "DistributionWHG",
    "EdgeSource",
    "ExactOf",
    "GivenResult",
    "MAX_EXACT_GIVEN_N",
    "MAX_EXACT_N",
    "MAX_PATHS_N",
    "Node",
    "chain_min",
    "compare_chain_values",
    "fast_search",
    "first_max",
    "full_search",
    "max_chain",
    "max_exact",
    "paths_search",
    "popcounts",
    "step",
    "whg_from_distribution",
]

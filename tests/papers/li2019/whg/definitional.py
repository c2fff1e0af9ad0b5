"""The WHG of a distribution by the definitions, one impact at a time: a cross-check of
the layered engine's bookkeeping, NOT an independent oracle.

It is the first implementation of :func:`pdpsym.papers.li2019.whg.whg_from_distribution`
and is built on the library's own pieces: every ``W_ij`` is enumerated with
:func:`pdpsym.papers.li2019.edges.impact_set` (conditionals through ``JointDistribution``),
every Theorem 2 step by :func:`pdpsym.papers.li2019.edges.theorem2_step`, every node's
Eq. 2 value by :func:`pdpsym.loss.leakage.leakage`, every minimum by exact comparison,
with no balls, no vectorization, no caching across layers and no fast-search shortcut. It
therefore checks the engine's layering, caching, arb decisions and search against the
plain loop, not the definitions themselves; that is done by the independent oracles in
``tests/oracles`` (``eq2_leakage`` for the node values, ``edge_weights`` for Eq. 9,
``whg_chain_rule`` for Algorithms 1 and 2), see ``test_engine.py`` and
``tests/verify/test_errata_oracles.py``. It lives beside the tests that use it, not in
``tests/oracles``, because it imports pdpsym.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from pdpsym.core.exp_polynomials import LogRatio
from pdpsym.loss.table_leakage import table_leakage
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.joint import JointDistribution
from pdpsym.papers.li2019.edges import EdgeReading, impact_set, log_min, rational_log, theorem2_step
from pdpsym.papers.li2019.whg import BottomRule, ChainValue, DistributionWHG, Node


def reference_whg(
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
    """Every node's exact Eq. 2 value and chain-rule value (Theorem 2 steps from layer 1)."""
    n = model.n
    lam = Fraction(lam)
    query = query or LinearQuery.sum(model.variables)
    g = DistributionWHG(model, lam, query, reading, fast_k=fast_k)
    names = model.variables
    W_cache: dict[tuple[str, tuple[str, ...], str], list] = {}

    def W(target: str, known: tuple[str, ...], j: str) -> list:
        key = (target, known, j)
        if key not in W_cache:
            W_cache[key] = impact_set(model, target, known, j, lam, query, reading)
        return W_cache[key]

    paths_vals: dict[tuple[str, frozenset[str]], list[LogRatio]] = {}
    generators: set[tuple[str, frozenset[str]]] | None = None
    for layer in range(1, n + 1):
        size = n - layer
        this_layer: list[Node] = []
        for target in names:
            others = [v for v in names if v != target]
            for K in itertools.combinations(others, size):
                key = (target, frozenset(K))
                exact = table_leakage(model, target, K, lam, query) if with_exact else None
                if progress is not None:
                    progress.update(1)
                chain: LogRatio | None
                if layer == 1:
                    # Theorem 4's layer: as printed (Delta_i/lam) or the exact Eq. 2 value
                    if bottom is BottomRule.THEOREM4:
                        chain = rational_log(query.sensitivity(model, target) / lam)
                    else:
                        b = exact or table_leakage(model, target, K, lam, query)
                        chain = b.value if b.ok else None
                    node = Node(target, K, layer, exact, _value(chain), chain)
                    if chain is not None:
                        paths_vals[key] = [chain]
                    g.nodes[key] = node
                    this_layer.append(node)
                    continue
                cands: list[LogRatio] = []
                pcands: list[LogRatio] = []
                generated = False
                for j in others:
                    if j in K:
                        continue
                    ckey = (target, frozenset((*K, j)))
                    if generators is not None and ckey not in generators:
                        continue
                    child = g.nodes[ckey]
                    if child.chain is None:
                        continue
                    generated = True
                    child_known = tuple(v for v in names if v in ckey[1])
                    Wj = W(target, child_known, j)
                    cands.append(theorem2_step(child.chain, Wj).value)
                    if with_paths:
                        for v in paths_vals.get(ckey, []):
                            pcands.append(theorem2_step(v, Wj).value)
                chain = log_min(cands) if cands else None
                pchain = log_min(pcands) if pcands else None
                if with_paths and pcands:
                    paths_vals[key] = pcands
                node = Node(target, K, layer, exact, _value(chain), pchain, generated)
                g.nodes[key] = node
                this_layer.append(node)
        if fast_k is not None:
            ranked = sorted(
                (v for v in this_layer if v.chain is not None and v.generated),
                key=lambda v: float(v.chain),  # type: ignore[arg-type]
                reverse=True,
            )
            generators = {(v.target, frozenset(v.known)) for v in ranked[:fast_k]}
    return g


def _value(chain: LogRatio | None) -> ChainValue | None:
    return None if chain is None else ChainValue.of(chain)

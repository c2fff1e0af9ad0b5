"""Checkers for Li et al. Section V's weighted hierarchical graph (WHG): Theorem 5 (the
chain rule, Eq. 14), Eq. 16 and Corollary 1, and the full and fast searches (Algorithms
1-2).

Every chain-rule value is compared with the exact Eq. 2 value of the same node
(:func:`pdpsym.loss.leakage.leakage`) over the exhaustive classes of small tables of
:mod:`pdpsym.papers.li2019.table_cases`, so the first failure is the minimal counterexample.
Readings: Eq. 9 right tail (:class:`~pdpsym.papers.li2019.edges.EdgeReading`), Theorem 4
as printed at layer 1 (:class:`~pdpsym.papers.li2019.whg.BottomRule`), Algorithm 1's
per-node minimum.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

from pdpsym.claims import claim
from pdpsym.loss import adversary
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.joint import JointDistribution
from pdpsym.papers.li2019 import table_cases, theorems, whg
from pdpsym.papers.li2019.claims import ONE, proved
from pdpsym.papers.li2019.whg import ArrayEdges, fast_search, full_search
from pdpsym.proofs import pdp_bounds

CHAIN_READING = (
    table_cases.READING
    + "; layer 1 by Theorem 4 as printed (Delta_i/lam); Algorithm 1 per-node min"
)
_WHGS = "generated WHGs (n 2..5, unequal rational Delta, LAYERED and PATHS, exact)"


def _others(i: int, n: int) -> list[int]:
    """The tuples other than ``i``: the edge slot ``p`` of target ``i`` is ``_others(i, n)[p]``."""
    return [k for k in range(n) if k != i]


# --- Theorem 5 (chain rule against Eq. 2) -------------------------------------------------
@claim.checker("li2019.thm5")
def check_thm5(config: claim.RunConfig) -> claim.Property:
    """Checker of ``li2019.thm5``: the chain rule (Eq. 14) gives each node's leakage.

    Every node of the WHG built from each small table (layer 1 by Theorem 4 as printed,
    Algorithm 1's minimum over children) is compared exactly with the node's Eq. 2 value.

    References:
        Li et al. (2019), Section V-C, Theorem 5, Eq. 14 (with Eq. 9-11 in their rebuilt
        reading).
    """
    cls = table_cases.classes(config, ([2, 2], 6, 10), ([2, 3], 3, 5), ([2, 2, 2], 3, 4))
    stats = claim.Tally()

    def cases(_c: claim.RunConfig) -> Iterator[Any]:
        for model in table_cases.tables(cls):
            g = whg.whg_from_distribution(model, 1, with_paths=len(model.variables) <= 3)
            for v in g.ordered():
                if v.exact is None or not v.exact.ok or v.chain is None:
                    stats.add("no_eq2_value")
                else:
                    yield model, v

    def law(case: Any) -> object:
        model, v = case
        if v.chain_paths is not None and v.chain_paths.exact_compare(v.chain) != 0:
            stats.add("layered_vs_paths_differ")
        c = v.chain.exact_compare(v.exact.value)
        stats.add("equal" if c == 0 else "chain_above" if c > 0 else "chain_below")
        return c == 0 or claim.Counterexample(
            model=model, lam="1", query="sum", node=table_cases.node(v.target, v.known), layer=v.layer,
            chain=table_cases.cj(v.chain), eq2=table_cases.cj(v.exact.value), eq2_witness=v.exact.witness.as_json(),
        )  # fmt: skip

    return claim.Exhaustive(
        law,
        cases,
        holds=lambda n: f"chain value = Eq. 2 at all {n} nodes of {table_cases.class_text(cls)}",
        fails=lambda n: (
            "the chain-rule value (Eq. 14) differs from Eq. 2: first in the ordered search over "
            f"{table_cases.class_text(cls)}, after {n} nodes"
        ),
        reading=CHAIN_READING,
        details=lambda: stats.counts,
    )


# --- Eq. 16, Corollary 1 on WHG algebra (given rational edges) -------------------------------
def _random_whgs(
    config: claim.RunConfig, counts: tuple[int, int], q_range: tuple[Fraction, Fraction]
) -> Iterator[Any]:
    """Seeded WHGs (n 2..5, unequal rational Delta), each searched LAYERED and by PATHS; given
    rational edges w = q Delta_j / lam (lam = 1), q uniform on a 1/4 grid of ``q_range``."""
    rng = random.Random(config.seed)
    grid = [Fraction(k, 4) for k in range(int(q_range[0] * 4), int(q_range[1] * 4) + 1)]
    for _ in range(config.count(*counts)):
        n = rng.randint(2, 5)
        deltas = [Fraction(rng.randint(1, 4), rng.randint(1, 2)) for _ in range(n)]
        E = [
            [[rng.choice(grid) * deltas[k] for _ in range(1 << (n - 1))] for k in _others(i, n)]
            for i in range(n)
        ]
        src = ArrayEdges(n, E, deltas, True)
        for res in (full_search(src), whg.paths_search(src)):
            yield src, res


def _node_values(whgs: Iterator[Any]) -> Iterator[Any]:
    """(WHG, target i, mask, chain value, group DP: sum of Delta_k over {i} u U)."""
    for src, res in whgs:
        for i, V in enumerate(res.values):
            for mask, v in enumerate(V):
                unknown = [k for p, k in enumerate(_others(i, src.n)) if not mask >> p & 1]
                yield src, i, mask, v, sum((src.bottoms[k] for k in (i, *unknown)), Fraction(0))


@claim.checker("li2019.eq16")
def check_eq16(config: claim.RunConfig) -> claim.Property:
    """Checker of ``li2019.eq16``: with ``|q| <= 1`` the chain value is at most group DP.

    The symbolic proof, corroborated exactly at every node of seeded WHGs given by rational
    edge values (``q`` on a 1/4 grid of [-1, 1]), searched layered and by paths.

    References:
        Li et al. (2019), Section V-C, Eq. 15-17.
    """
    return proved(
        pdp_bounds.eq16,
        lambda c: c[3] <= c[4] or claim.Counterexample(n=c[0].n, i=c[1], mask=c[2]),
        lambda cfg: _node_values(_random_whgs(cfg, (40, 400), (-ONE, ONE))),
        method=claim.Method.GENERATED,
        holds=lambda n: (
            f"{pdp_bounds.STEPS_EQ16}. Corroborated: chain value <= sum over {{i}} u U of Delta_k/lam at all {n} node values of {_WHGS}, "
            "q on a 1/4 grid of [-1, 1]; as |x + w| <= x + |w| this needs q >= -1 too (Theorem "
            "3(1)): with q <= 1 alone, Delta = lam = 1, q = -4 give |1 - 4| = 3 > 2 = group DP"
        ),
        fails="a chain value exceeds group DP",
        reading="|q| <= 1 (Theorem 3(1) supplies q >= -1); layer 1 = Delta_i/lam",
    )


def _perfect_correlation(_c: claim.RunConfig) -> Iterator[Any]:
    """Nodes with an Eq. 2 value of perfectly positively correlated tables."""
    for hi in ([1, 1], [5, 1], [1, 1, 1]):  # half the mass at all-zero, half at ``hi``
        rows = [[*(0 for _ in hi), "1/2"], [*hi, "1/2"]]
        model = JointDistribution.from_rows([f"x{k + 1}" for k in range(len(hi))], rows)
        for v in whg.whg_from_distribution(model, 1).ordered():
            if v.exact is not None and v.exact.ok:
                yield model, v


def _group_dp_law(case: Any) -> object:
    model, v = case
    bound = theorems.group_dp_bound(model, v.adversary, ONE, LinearQuery.sum(model.variables))
    return adversary.compare_log_ratio_rational(v.exact.value, bound) == 0 or claim.Counterexample(
        model=model, node=table_cases.node(v.target, v.known)
    )


@claim.checker("li2019.cor1.1")
def check_cor1_1(config: claim.RunConfig) -> claim.Property:
    """Checker of ``li2019.cor1.1``: with every ``q = 1`` PDP equals group DP.

    Exactly at every node of seeded WHGs with every edge ``Delta_j / lambda``, and, on
    perfectly positively correlated tables, Eq. 2 at every node with a value.

    References:
        Li et al. (2019), Section V-C, Corollary 1(1).
    """
    return claim.AllOf(
        (
            claim.ForAll(
                lambda c: c[3] == c[4] or claim.Counterexample(n=c[0].n, i=c[1], mask=c[2]),
                lambda cfg: _node_values(_random_whgs(cfg, (20, 200), (ONE, ONE))),
                method=claim.Method.GENERATED,
            ),
            claim.Exhaustive(_group_dp_law, _perfect_correlation, method=claim.Method.GENERATED),
        ),
        holds=lambda n: (
            f"with every w = Delta_j/lam the chain value equals group DP at every node of {_WHGS}; "
            "and on perfectly positively correlated tables (Examples (c), (d), a 3-tuple copy) "
            f"Eq. 2 equals group DP at every node with a value ({n} cases in all)"
        ),
        reading="layer 1 = Delta_i/lam (Theorem 4 as printed)",
    )


def _max_layers(res: Any) -> tuple[Any, list[int]]:
    best = max(max(V) for V in res.values)
    layers = {
        res.n - bin(mask).count("1") for V in res.values for mask, v in enumerate(V) if v == best
    }
    return best, sorted(layers)


def _enumerate_edges(values: Sequence[Fraction]) -> Iterator[ArrayEdges]:
    """Every WHG on 2, then 3 tuples (Delta = 1) whose edges take values in ``values``."""
    for n in (2, 3):
        m = n - 1
        # target 0's edges vary fastest (itertools.product varies the last slot first)
        grid = itertools.product(reversed(range(n)), range(m), range(1 << m))
        slots = [(i, p, k) for i, p, k in grid if not k >> p & 1]
        for combo in itertools.product(values, repeat=len(slots)):
            E = [[[Fraction(0)] * (1 << m) for _ in range(m)] for _ in range(n)]
            for (i, p, k), w in zip(slots, combo, strict=True):
                E[i][p][k] = w
            yield ArrayEdges(n, E, [ONE] * n, True)


def _edges_cx(src: ArrayEdges, **extra: Any) -> claim.Counterexample:
    layout = "edges[i][p][mask]: edge from A(i, mask|bit p) up to A(i, mask)"
    return claim.Counterexample(n=src.n, bottom=src.bottoms, edges=src.E, layout=layout, **extra)


@claim.checker("li2019.cor1.2")
def check_cor1_2(config: claim.RunConfig) -> claim.Property:
    """Checker of ``li2019.cor1.2``: with every edge positive the maximum is at the top layer.

    Every WHG on 2, then 3 tuples (``Delta = lambda = 1``) with edges in ``{1/d, 1}``,
    ``d`` = 2, 3, 4, searched by Algorithm 1 (minimum over children), exactly.

    References:
        Li et al. (2019), Section V-C, Corollary 1(2).
    """

    def law(src: ArrayEdges) -> object:
        res = full_search(src)
        best, layers = _max_layers(res)
        top = max(V[0] for V in res.values)
        return top == best or _edges_cx(src, max=best, max_layers=layers, top_layer_max=top)

    return claim.Exhaustive(
        law,
        lambda _c: itertools.chain(*(_enumerate_edges([Fraction(1, d), ONE]) for d in (2, 3, 4))),
        holds=lambda n: f"the maximum is at the top layer in all {n} WHGs searched",
        fails=(
            "all edges > 0 (Delta = lam = 1) but the maximal node is above every top-layer node: "
            "a node's value is the MIN over its children, so a large child need not lift its "
            "ancestor. First in the ordered search over n = 2, 3, edges in {1/d, 1}, d = 2, 3, 4"
        ),
        reading="Algorithm 1 per-node minimum; layer 1 = Delta_i/lam",
    )


@claim.checker("li2019.cor1.3")
def check_cor1_3(config: claim.RunConfig) -> claim.Property:
    """Checker of ``li2019.cor1.3``: with every edge negative the maximum is at the bottom layer.

    Seeded WHGs with ``q`` in [-1, -1/4] (Theorem 3(1) supplies ``q >= -1``), exactly.

    References:
        Li et al. (2019), Section V-C, Corollary 1(3).
    """

    def law(case: Any) -> object:
        src, res = case
        return 1 in (layers := _max_layers(res)[1]) or _edges_cx(src, max_layers=layers)

    return claim.ForAll(
        law,
        lambda cfg: _random_whgs(cfg, (40, 400), (-ONE, Fraction(-1, 4))),
        method=claim.Method.GENERATED,
        holds=lambda n: (
            f"with every w < 0 and q >= -1 the maximum node is in layer 1 in all {n} searches of "
            f"{_WHGS}: |x + w| <= max(x, -w) <= max(x, Delta_j/lam), the layer-1 value of j"
        ),
        fails="the maximum is not at the bottom layer",
        reading="q in [-1, 0) (Theorem 3(1)); layer 1 = Delta_i/lam; max over all targets",
    )


# --- fast search, Section VII ---------------------------------------------------------------
@claim.checker("li2019.fastsearch")
def check_fastsearch(config: claim.RunConfig) -> claim.Property:
    """Checker of ``li2019.fastsearch``: the fast search errs high compared with the full one.

    Every WHG on 2, then 3 tuples with edges in ``{-1, 1/2, 1}``, fast search with
    ``k = 1`` against the full search, exactly; the details add exact runs on
    beta-distributed edges with ``k = 2`` ("close for strong correlation").

    References:
        Li et al. (2019), Section V-D, Algorithms 1-2, and Section VII-B3, Fig. 5.
    """
    runs, n = config.count(4, 30), config.count(6, 10)

    def law(src: ArrayEdges) -> object:
        full, fast = full_search(src).max_value(), fast_search(src, 1).max_value()
        return fast >= full or _edges_cx(src, k=1, full_max=full, fast_max=fast)

    def details() -> dict[str, Any]:
        # "close for strong correlation": exact chain on beta-sampled edges, k = 2
        gaps: dict[str, Any] = {}
        for corr in (0.2, 0.5, 0.8):
            srcs = (whg.ExactOf(whg.BetaEdges(n, corr, config.seed * 100 + r)) for r in range(runs))
            pairs = [(full_search(s).max_value(), fast_search(s, 2).max_value()) for s in srcs]
            gaps[str(corr)] = {
                "fast_above": sum(b > a for a, b in pairs),
                "fast_below": sum(b < a for a, b in pairs),
                "mean_relative_gap": round(sum(float((b - a) / a) for a, b in pairs) / runs, 6),
            }
        return {"beta_WHGs": gaps, "n": n, "runs": runs, "k": 2}

    return claim.Exhaustive(
        law,
        lambda _c: _enumerate_edges([-ONE, Fraction(1, 2), ONE]),
        holds=lambda n: f"fast >= full on all {n} WHGs with edges in {{-1, 1/2, 1}}",
        fails=(
            "fast search can under-estimate: with k = 1 the maximal node is never generated. Fast "
            "search keeps fewer children per node (raising their min) and fewer nodes (lowering "
            "the max), so it errs either way; beta-edge WHGs with k = 2 are in the details"
        ),
        reading="Algorithm 2: top-k nodes of each layer over all targets generate the next layer",
        details=details,
    )

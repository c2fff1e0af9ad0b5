"""Greedy elimination orders on a bnlearn network's moral graph: min-fill (what pdpsym
runs), weighted min-fill (fill edges weighted by the product of their records' state
counts), min-weight (the eliminated clique's cells) and min-degree. Prints each order's
induced width, total clique cells and largest clique, then the best of ten runs of the
two min-fill variants with random tie-breaks.

    python benchmarks/bayesnet_orders.py munin1 pigs link
"""

from __future__ import annotations

import gzip
import itertools
import math
import random
import sys
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "bnlearn"


def greedy(adj0, sizes, kind, rng=None):
    """``(width, total cells, largest clique)`` of one greedy order."""
    adj = {v: set(s) for v, s in adj0.items()}
    cost = largest = width = 0
    while adj:
        best = None
        for v, nb in adj.items():
            pairs = [(a, b) for a, b in itertools.combinations(nb, 2) if b not in adj[a]]
            if kind == "min-fill":
                s = (len(pairs), len(nb))
            elif kind == "weighted min-fill":
                s = (sum(sizes[a] * sizes[b] for a, b in pairs), len(nb))
            elif kind == "min-weight":
                s = (math.prod(sizes[u] for u in nb) * sizes[v],)
            else:
                s = (len(nb),)
            if rng is not None:
                s = (*s, rng.random())
            if best is None or s < best[0]:
                best = (s, v)
        v = best[1]
        nb = adj[v]
        cells = sizes[v] * math.prod(sizes[u] for u in nb)
        cost += cells
        largest = max(largest, cells)
        width = max(width, len(nb))
        for a, b in itertools.combinations(nb, 2):
            adj[a].add(b)
            adj[b].add(a)
        for u in nb:
            adj[u].discard(v)
        del adj[v]
    return width, cost, largest


def main() -> None:
    from pdpsym.models.bayesnet import BayesianNetwork  # noqa: PLC0415 (after sys.path)
    from pdpsym.models.bayesnet_build import moral_graph  # noqa: PLC0415

    for name in sys.argv[1:]:
        text = gzip.open(DATA / f"{name}.bif.gz", "rt").read()
        net = BayesianNetwork.from_bif_text(text, tolerance=Fraction(1, 10**6))
        adj = moral_graph(net.nodes, net.variables, {}, net.variables)
        sizes = {v: len(net.nodes[v].states) for v in adj}
        for kind in ("min-fill", "weighted min-fill", "min-weight", "min-degree"):
            w, c, big = greedy(adj, sizes, kind)
            print(f"{name:8} {kind:18} width {w:2} total {c:.2e} largest {big:.2e}", flush=True)
        rng = random.Random(1)
        runs = [
            greedy(adj, sizes, k, rng) for _ in range(5) for k in ("min-fill", "weighted min-fill")
        ]
        w, c, big = min(runs, key=lambda r: r[1])
        print(f"{name:8} {'best random ties':18} width {w:2} total {c:.2e} largest {big:.2e}")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()

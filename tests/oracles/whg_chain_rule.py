"""Li, Ren, Yang, Yang's chain rule on a WHG given by its edges (no pdpsym import).

* Theorem 5 / Algorithm 1: ``V(i, K) = min over j not in K of |V(i, K + j) + w|`` up the
  layers, exactly in Fractions.
* Algorithm 2 (the fast search): only the k largest nodes of a layer generate the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any


def chain_values(n: int, bottom: Sequence[Fraction], edges: Any) -> list[dict[int, Fraction]]:
    """Algorithm 1 on a given WHG: V[i][mask] for every target i and known set ``mask``
    (bits over the n-1 others); ``edges[i][p][mask]`` is the edge from A(i, mask|bit p)
    up to A(i, mask)."""
    m = n - 1
    full = (1 << m) - 1
    out = []
    for i in range(n):
        V = {full: Fraction(bottom[i])}
        for mask in sorted(range(1 << m), key=lambda k: -bin(k).count("1")):
            if mask == full:
                continue
            V[mask] = min(
                abs(V[mask | 1 << p] + Fraction(edges[i][p][mask]))
                for p in range(m)
                if not mask >> p & 1
            )
        out.append(V)
    return out


def layer_max(n: int, V: list[dict[int, Fraction]]) -> list[Fraction]:
    """The max node value of each layer; layer 1 knows all n-1 others, layer n none."""
    m = n - 1
    return [
        max(Vi[k] for Vi in V for k in Vi if bin(k).count("1") == m - (layer - 1))
        for layer in range(1, n + 1)
    ]


def fast_search_max(n: int, bottom: Sequence[Fraction], edges: Any, k: int) -> Fraction:
    """Algorithm 2: only the k largest nodes of a layer generate the next one (ties: the
    lower target index first). Returns the max node value it reaches."""
    m = n - 1
    full = (1 << m) - 1
    values: dict[tuple[int, int], Fraction] = {(i, full): Fraction(bottom[i]) for i in range(n)}
    layer = [(i, full) for i in range(n)]
    for _ in range(2, n + 1):
        top = sorted(layer, key=lambda t: (-values[t], t[0], t[1]))[:k]
        nxt: dict[tuple[int, int], Fraction] = {}
        for i, mask in top:
            for p in range(m):
                if mask >> p & 1:
                    anc = mask & ~(1 << p)
                    cand = abs(values[i, mask] + Fraction(edges[i][p][anc]))
                    nxt[i, anc] = min(cand, nxt.get((i, anc), cand))
        values.update(nxt)
        layer = list(nxt)
    return max(values.values())

"""The chain rule on given edge values (Li et al. Sec. V-D Algorithms 1-2, Sec. VII): edge
sources (arrays, beta draws, cached, exact) and the full, fast and path searches.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from pdpsym.core.errors import InputError
from pdpsym.models.variables import check_names
from pdpsym.papers.li2019.whg.chain import MAX_PATHS_N
from pdpsym.papers.li2019.whg.node_masks import popcounts

#: the largest n for exact (Fraction) chain-rule search on given rational edges
MAX_EXACT_GIVEN_N = 14


class EdgeSource(Protocol):
    """A WHG given by its edge values: ``n``, each target's layer-1 value and its edges."""

    @property
    def n(self) -> int:
        """The number of tuples ``n`` (>= 2)."""
        ...

    def bottom(self, i: int) -> Any:
        """The layer-1 (strongest adversary) value of target ``i``."""
        ...

    def edges(self, i: int) -> np.ndarray:
        """Target ``i``'s edges as an array ``E[p][mask]`` of shape ``(n-1, 2^(n-1))``."""
        ...


@dataclass
class ArrayEdges:
    """Given edges ``E[i][p][mask]`` (shape ``(n, n-1, 2^(n-1))``) and bottom values."""

    n: int
    E: Sequence[Any]
    bottoms: Sequence[Any]
    exact: bool = True

    def bottom(self, i: int) -> Any:
        """The layer-1 value of target ``i``, as given."""
        return self.bottoms[i]

    def edges(self, i: int) -> np.ndarray:
        """Target ``i``'s edges ``E[p][mask]``: a Fraction object array when exact, else float64."""
        return np.asarray(self.E[i], dtype=object if self.exact else np.float64)

    @classmethod
    def from_json_object(cls, obj: Any, parse: Callable[[Any, str], Fraction]) -> ArrayEdges:
        """``{"n": n, "bottom": [n values] | value, "edges": E}``; rationals parsed exactly.

        ``E[i][p][mask]`` is the edge from ``A(i, mask | bit p)`` up to ``A(i, mask)`` (bit
        ``p`` = the ``p``-th tuple other than ``i``); entries with bit ``p`` set in ``mask``
        are ignored and may be null.
        """
        if not isinstance(obj, dict) or "edges" not in obj:
            raise InputError("edges", "expected an object with 'n' and 'edges'")
        # other keys are allowed: a counterexample of the checkers carries its results
        # (max, layout, ...) next to the edges and replays as it is
        raw_n = obj.get("n")
        n_q = parse("" if raw_n is None or isinstance(raw_n, bool) else raw_n, "edges.n")
        if n_q.denominator != 1 or n_q < 2:
            raise InputError("edges.n", f"expected an integer n >= 2, got {raw_n!r}")
        n = int(n_q)
        if n > MAX_EXACT_GIVEN_N:
            raise InputError(
                "edges.n",
                f"n = {n} is too large for exact search on given edges "
                f"(limit {MAX_EXACT_GIVEN_N}: {n} x {n - 1} x 2^{n - 1} exact edges)",
            )
        if obj.get("variables") is not None:
            names = check_names(obj["variables"], "edges.variables")
            if len(names) != n:
                raise InputError("edges.variables", f"expected {n} names, got {len(names)}")
        m = n - 1
        E = obj["edges"]
        if not isinstance(E, list) or len(E) != n:
            raise InputError("edges.edges", f"expected shape ({n}, {m}, {1 << m}): outer length")
        out = []
        for i, Ei in enumerate(E):
            if not isinstance(Ei, list) or len(Ei) != m:
                raise InputError(f"edges.edges[{i}]", f"expected {m} rows (one per other tuple)")
            rows = []
            for p, row in enumerate(Ei):
                if not isinstance(row, list) or len(row) != 1 << m:
                    raise InputError(f"edges.edges[{i}][{p}]", f"expected {1 << m} entries")
                vals = []
                for mask, v in enumerate(row):
                    if mask >> p & 1:
                        vals.append(Fraction(0))
                    else:
                        vals.append(parse(v, f"edges.edges[{i}][{p}][{mask}]"))
                rows.append(vals)
            out.append(rows)
        b = obj.get("bottom", 1)
        if isinstance(b, list):
            if len(b) != n:
                raise InputError("edges.bottom", f"expected {n} values")
            bottoms = [parse(v, f"edges.bottom[{k}]") for k, v in enumerate(b)]
        else:
            bottoms = [parse(b, "edges.bottom")] * n
        for k, v in enumerate(bottoms):
            if v < 0:
                raise InputError(f"edges.bottom[{k}]", "a leakage is >= 0")
        return cls(n, out, bottoms, True)


@dataclass
class BetaEdges:
    """Section VII: edge values ``w = q Delta/lam`` with ``|q| ~ Beta`` of mean ``|corr|``.

    ``q = sign(corr) * Beta(c |corr|, c (1 - |corr|))`` (mean ``|corr|``, concentration
    ``c``); bottom values ``Delta/lam`` (Theorem 4). Seeded per target, so every target's
    edges can be regenerated on demand without storing all of them.
    """

    n: int
    corr: float
    seed: int = 0
    concentration: float = 10.0
    delta_over_lam: float = 1.0

    def bottom(self, i: int) -> float:
        """The layer-1 value ``Delta/lam`` (Theorem 4), the same for every target."""
        return self.delta_over_lam

    def edges(self, i: int) -> np.ndarray:
        """Target ``i``'s edges, drawn from a generator seeded by ``(seed, i)``: float64, shape
        ``(n-1, 2^(n-1))``, ``sign(corr) Beta(c mu, c (1 - mu)) Delta/lam`` with ``mu = |corr|``
        clipped into (0, 1).
        """
        m = self.n - 1
        rng = np.random.default_rng([self.seed, i])
        mu = min(max(abs(self.corr), 1e-9), 1 - 1e-9)
        q = rng.beta(self.concentration * mu, self.concentration * (1 - mu), size=(m, 1 << m))
        return math.copysign(1.0, self.corr) * q * self.delta_over_lam


class CachedEdges:
    """Every target's edges drawn once up front, so that searches can be timed (or
    repeated) without the cost of drawing them."""

    def __init__(self, source: EdgeSource) -> None:
        self.n = source.n
        self._bottoms = [source.bottom(i) for i in range(source.n)]
        self._edges = [source.edges(i) for i in range(source.n)]

    def bottom(self, i: int) -> Any:
        """The layer-1 value of target ``i`` (drawn once)."""
        return self._bottoms[i]

    def edges(self, i: int) -> np.ndarray:
        """Target ``i``'s edges (drawn once, the same array every call)."""
        return self._edges[i]


@dataclass
class GivenResult:
    """Node values ``V[i][mask]`` (NaN / None: not generated) and the maxima."""

    n: int
    values: list[np.ndarray]
    exact: bool

    def layer_of_mask(self) -> np.ndarray:
        """The layer ``n - |K|`` of every mask ``K`` of known tuples (index = mask)."""
        return self.n - popcounts(self.n - 1)

    def max_value(self) -> Any:
        """The largest node value over every target, skipping nodes not generated (None when no
        node has a value).
        """
        best = None
        for V in self.values:
            for v in V:
                if v is None or (isinstance(v, float) and math.isnan(v)):
                    continue
                if best is None or v > best:
                    best = v
        return best

    def layer_max(self) -> list[Any]:
        """Max node value per layer (index 0 = layer 1)."""
        layers = self.layer_of_mask()
        out: list[Any] = []
        for layer in range(1, self.n + 1):
            sel = layers == layer
            vals = [
                v
                for V in self.values
                for v in V[sel]
                if v is not None and not (isinstance(v, float) and math.isnan(v))
            ]
            out.append(max(vals) if vals else None)
        return out


def full_search(source: EdgeSource, exact: bool | None = None, progress: Any = None) -> GivenResult:
    """Algorithm 1 (LAYERED) on given edges: every node, min over children, per target.

    Per target the masks are processed by decreasing popcount (layer 1 first); for each
    layer and each removed tuple ``p`` one vectorized ``|V[mask | p] + E[p][mask]|``.

    Args:
        source: the edge source: ``n``, each target's bottom (layer-1) value and its
            edges ``E[p][mask]`` (the edge from ``A(i, mask | bit p)`` up to
            ``A(i, mask)``, bit ``p`` the ``p``-th tuple other than ``i``); Fraction object
            arrays are combined exactly, float64 arrays in floats.
        exact: True to combine exactly (object arrays), False for float64; None decides by
            the edges' dtype.
        progress: None, or an object whose ``update(1)`` is called after each target.

    Returns:
        A :class:`GivenResult`: per target, the value of every node by its mask of known
        tuples (exact Fractions when the edges are, else float64).

    References:
        Li et al. (2019), Section V-D, Algorithm 1 (full-space search: the minimum over
        children, line 8), with the Theorem 2 step ``|PL + w|`` (Eq. 11) and Theorem 5,
        Eq. 14.
    """
    n = source.n
    m = n - 1
    pc = popcounts(m)
    by_count = [np.flatnonzero(pc == c) for c in range(m + 1)]
    out = []
    for i in range(n):
        E = source.edges(i)
        is_exact = E.dtype == object if exact is None else exact
        if is_exact and m <= 4:
            out.append(_full_search_small(source.bottom(i), E, m))
            continue
        if is_exact:
            V = np.full(1 << m, None, dtype=object)
        else:
            V = np.full(1 << m, np.inf)
        V[(1 << m) - 1] = source.bottom(i)
        for c in range(m - 1, -1, -1):
            sel = by_count[c]
            for p in range(m):
                s = sel[(sel >> p & 1) == 0]
                cand = np.abs(V[s | (1 << p)] + E[p][s])
                if is_exact:
                    cur = V[s]
                    V[s] = [x if y is None or x < y else y for x, y in zip(cand, cur, strict=True)]
                else:
                    V[s] = np.minimum(V[s], cand)
        out.append(V)
        if progress is not None:
            progress.update(1)
    return GivenResult(n, out, bool(out and out[0].dtype == object))


def _full_search_small(bottom: Any, E: np.ndarray, m: int) -> np.ndarray:
    """The same recursion in plain Python (exact, tiny graphs: numpy overhead dominates)."""
    full = (1 << m) - 1
    V: list[Any] = [None] * (1 << m)
    V[full] = bottom
    for mask in sorted(range(full), key=lambda x: -bin(x).count("1")):
        V[mask] = min(abs(V[mask | (1 << p)] + E[p][mask]) for p in range(m) if not mask >> p & 1)
    out = np.empty(1 << m, dtype=object)
    out[:] = V
    return out


def fast_search(source: EdgeSource, k: int) -> GivenResult:
    """Algorithm 2: only the ``k`` largest nodes of each layer (all targets) generate the next.

    A generated node's value is the minimum over its generated children; ties among the
    ``k`` largest are broken by the order in which the nodes were generated.

    Args:
        source: the edge source: ``n``, each target's bottom (layer-1) value and its
            edges ``E[p][mask]`` (the edge from ``A(i, mask | bit p)`` up to
            ``A(i, mask)``, bit ``p`` the ``p``-th tuple other than ``i``); Fraction object
            arrays are combined exactly, float64 arrays in floats.
        k: the number of nodes of a layer that generate the next, >= 1 (else
            ``InputError("k")``; the paper's value is lost from its text).

    Returns:
        A :class:`GivenResult`: per target, the value of every node by its mask of known
        tuples (exact Fractions when the edges are, else float64); nodes not generated are
        None (exact) or NaN (float).

    References:
        Li et al. (2019), Section V-D, Algorithm 2 (fast search) and Proposition 2.
    """
    if k < 1:
        raise InputError("k", f"must be >= 1, got {k}")
    n = source.n
    m = n - 1
    full = (1 << m) - 1
    Es = [source.edges(i) for i in range(n)]
    exact = Es[0].dtype == object
    values: list[dict[int, Any]] = [{full: source.bottom(i)} for i in range(n)]
    layer_nodes = [(i, full) for i in range(n)]
    for _layer in range(2, n + 1):
        ranked = sorted(layer_nodes, key=lambda t: values[t[0]][t[1]], reverse=True)[:k]
        nxt: dict[tuple[int, int], Any] = {}
        for i, mask in ranked:
            v = values[i][mask]
            for p in range(m):
                if mask >> p & 1:
                    anc = mask & ~(1 << p)
                    cand = abs(v + Es[i][p][anc])
                    key = (i, anc)
                    if key not in nxt or cand < nxt[key]:
                        nxt[key] = cand
        for (i, anc), v in nxt.items():
            values[i][anc] = v
        layer_nodes = list(nxt)
    arrays = []
    for i in range(n):
        V = np.full(1 << m, None if exact else np.nan, dtype=object if exact else np.float64)
        for mask, v in values[i].items():
            V[mask] = v
        arrays.append(V)
    return GivenResult(n, arrays, exact)


def paths_search(source: EdgeSource) -> GivenResult:
    """Theorem 5's text: the minimum over *all paths* of Eq. 14 (small ``n`` only).

    Args:
        source: the edge source: ``n``, each target's bottom (layer-1) value and its
            edges ``E[p][mask]`` (the edge from ``A(i, mask | bit p)`` up to
            ``A(i, mask)``, bit ``p`` the ``p``-th tuple other than ``i``); Fraction object
            arrays are combined exactly, float64 arrays in floats. ``n`` is at most
            ``MAX_PATHS_N`` (else ``InputError("source")``).

    Returns:
        A :class:`GivenResult` of object arrays: per target, every node's minimum over all
        bottom-to-node paths of the chain value (exact when the edges are rational).

    References:
        Li et al. (2019), Section V-C, Theorem 5, Eq. 14 ("compute the value of each path ...
        and then choose the minimum").
    """
    n = source.n
    if n > MAX_PATHS_N:
        raise InputError("source", f"path enumeration is limited to n <= {MAX_PATHS_N}")
    m = n - 1
    pc = popcounts(m)
    out = []
    for i in range(n):
        E = source.edges(i)
        sets: dict[int, set[Any]] = {(1 << m) - 1: {source.bottom(i)}}
        for c in range(m - 1, -1, -1):
            for mask_np in np.flatnonzero(pc == c):
                mask = int(mask_np)
                s: set[Any] = set()
                for p in range(m):
                    if not mask >> p & 1:
                        w = E[p][mask]
                        s |= {abs(v + w) for v in sets[mask | (1 << p)]}
                sets[mask] = s
        V = np.empty(1 << m, dtype=object)
        for mk, vals in sets.items():
            V[mk] = min(vals)
        out.append(V)
    return GivenResult(n, out, True)


@dataclass
class ExactOf:
    """The same edges as ``source`` read as exact rationals (each float is a dyadic rational),
    so the chain rule on sampled data is computed without rounding."""

    source: Any

    @property
    def n(self) -> int:
        """The number of tuples of the wrapped source."""
        return int(self.source.n)

    def bottom(self, i: int) -> Fraction:
        """The wrapped source's layer-1 value of target ``i``, as an exact Fraction."""
        return Fraction(self.source.bottom(i))

    def edges(self, i: int) -> np.ndarray:
        """The wrapped source's edges of target ``i`` as a Fraction object array (each float read
        exactly as the dyadic rational it is).
        """
        E = self.source.edges(i)
        out = np.empty(E.shape, dtype=object)
        for idx, v in np.ndenumerate(E):
            out[idx] = Fraction(v)
        return out

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
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any, Protocol

import numpy as np
import sympy
from flint import arb, ctx

from pdpsym.core.certify import separate
from pdpsym.core.compare import decided_argmax, decided_min
from pdpsym.core.errors import InputError
from pdpsym.core.expoly import LogRatio
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.joint import JointDistribution
from pdpsym.models.variables import check_names
from pdpsym.papers.li2019.edges import (
    BALL_PREC,
    EdgeReading,
    EdgeTables,
    EdgeValue,
    log_sum,
    rational_log,
)
from pdpsym.papers.li2019.eq2 import Adversary, LeakageResult, leakage, leakage_all

#: the largest n for exact work on a distribution (every node's Eq. 2 and chain value)
MAX_EXACT_N = 12
#: the largest n for exact (Fraction) chain-rule search on given rational edges
MAX_EXACT_GIVEN_N = 14
#: the largest n for the PATHS mode (min over every path; (n-1)! paths per top node)
MAX_PATHS_N = 7


class BottomRule(Enum):
    """Layer-1 values: the printed Theorem 4 (``Delta_i/lam`` whatever theta) or exact Eq. 2."""

    THEOREM4 = "theorem4"
    EQ2 = "eq2"


class ChainMode(Enum):
    """Chain values per node (Algorithm 1's layered minimum) or over every path."""

    LAYERED = "layered"
    PATHS = "paths"


def layer_of(n: int, known_size: int) -> int:
    return n - known_size


def popcounts(m: int) -> np.ndarray:
    masks = np.arange(1 << m, dtype=np.int64)
    pc = np.zeros(1 << m, dtype=np.int64)
    for p in range(m):
        pc += (masks >> p) & 1
    return pc


# --- WHG from a distribution (exact) -------------------------------------------------------


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
        return Adversary(self.target, self.known)


@dataclass
class DistributionWHG:
    model: JointDistribution
    lam: Fraction
    query: LinearQuery
    reading: EdgeReading
    nodes: dict[tuple[str, frozenset[str]], Node] = field(default_factory=dict)
    fast_k: int | None = None

    def ordered(self) -> list[Node]:
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
    :class:`~pdpsym.papers.li2019.edges.EdgeTables`; each chain value carries a rigorous arb ball,
    so the ``|x + w|`` signs and the minima are decided by ball separation, and exactly
    (exp-polynomial signs) when balls overlap. A node's chain value is a
    :class:`ChainValue` (the signed sum of logs of Eq. 14, Li et al. Sec. V-C); its
    single-LogRatio form ``Node.chain`` is built on first use. ``progress`` advances once
    per node for the Eq. 2 values (when ``with_exact``) and once per node for the chain.
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
            exact[(i, K)] = leakage(model, names[i], _known(names, K), lam, query)
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
                        cands.append(_step(child, W))
                        if with_paths:
                            pcands.extend(_step(v, W) for v in paths.get(ckey, []))
                    node_chain = _decided_min(cands) if cands else None
                    if with_paths and pcands:
                        paths[key] = pcands
                chain[key] = node_chain
                # layer 1 is its own (only) path, as in the reference definition
                pmin = (
                    node_chain
                    if layer == 1
                    else (_decided_min(paths[key]) if with_paths and paths.get(key) else None)
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
                return -_compare(cx, cy) or _order(x, y)

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


class ChainValue:
    """A chain-rule value (Eq. 14): ``s_l(... s_1(PL_1 + w_1) ... + w_l)`` with every sign
    ``s = +-1`` decided, carried with a rigorous arb ball.

    The value is a signed sum of logs, so its exact text is the sum itself
    (``exact_text``) and its ball the sum of the parts' balls; the single-LogRatio
    product form (``exact``) is built only when asked for (exact ties, checkers).
    It is an :class:`~pdpsym.core.certify.ArbEvaluable`, so ``certify`` takes it.
    """

    __slots__ = ("ball", "_exact", "_base", "_edge", "_neg", "_texts", "_precise")

    def __init__(
        self,
        ball: arb,
        exact: LogRatio | None = None,
        base: ChainValue | None = None,
        edge: EdgeValue | None = None,
        neg: bool = False,
    ) -> None:
        self.ball, self._exact, self._base, self._edge, self._neg = ball, exact, base, edge, neg
        self._texts: dict[int, str] | None = None
        self._precise: dict[int, arb] | None = None  # balls above BALL_PREC, by precision

    @classmethod
    def of(cls, value: LogRatio) -> ChainValue:
        return cls(value.arb(BALL_PREC), value)

    @property
    def exact(self) -> LogRatio:
        if self._exact is None:
            assert self._base is not None and self._edge is not None
            s = log_sum(self._base.exact, self._edge.value)
            self._exact = -s if self._neg else s
        return self._exact

    def parts(self) -> list[tuple[int, LogRatio | EdgeValue]]:
        """``[(sign, term)]`` with the value = sum of sign * term."""
        out: list[tuple[int, LogRatio | EdgeValue]] = []
        node: ChainValue | None = self
        sign = 1
        while node is not None:
            if node._edge is None or node._base is None:
                out.append((sign, node.exact))
                break
            if node._neg:
                sign = -sign
            out.append((sign, node._edge))
            node = node._base
        return out[::-1]

    def as_rational(self) -> Fraction | None:
        """Exact rational value when every part is rational, or when the ball meets 0
        (then the product form decides); else None (not syntactically rational)."""
        total = Fraction(0)
        for sign, term in self.parts():
            q = (term.value if isinstance(term, EdgeValue) else term).as_rational()
            if q is None:
                return self.exact.as_rational() if self.ball.contains(0) else None
            total += sign * q
        return total

    def arb(self, prec: int) -> arb:
        if prec <= BALL_PREC:
            return self.ball
        if self._precise is None:
            self._precise = {}
        if prec not in self._precise:
            if self._edge is None or self._base is None:
                ball = self.exact.arb(prec)
            else:  # +-(base + edge), from the base's (cached) ball at the same precision
                with ctx.workprec(prec):
                    ball = self._base.arb(prec) + self._edge.ball(prec)
                ball = -ball if self._neg else ball
            self._precise[prec] = ball
        return self._precise[prec]

    def sympy(self) -> sympy.Expr:
        return self.exact.sympy()

    def exact_text(self) -> str:
        q = self.as_rational()
        if q is not None:
            return str(q)
        return self._signed_text(1)

    def _signed_text(self, sign: int) -> str:
        """Exact text of ``sign * value`` as a signed sum of logs (cached per sign)."""
        if self._texts is None:
            self._texts = {}
        if sign not in self._texts:
            if self._edge is None or self._base is None:
                text = self.exact.exact_text()
                out = text if sign > 0 else "-" + (f"({text})" if _compound(text) else text)
            else:
                s = -sign if self._neg else sign
                edge = self._edge.text()
                out = self._base._signed_text(s) + (" + " if s > 0 else " - ") + edge
            self._texts[sign] = out
        return self._texts[sign]

    def __float__(self) -> float:
        return float(self.ball.mid())


def _compound(text: str) -> bool:
    """Whether ``text`` has a top-level sum or a leading sign (needs parentheses)."""
    depth = 0
    for k, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch in "+-" and depth == 0 and (k == 0 or text[k - 1] == " "):
            return True
    return False


def _abs_sum(c: ChainValue, w: EdgeValue) -> ChainValue:
    """``|c + w|``: the sign by the ball, else exactly."""
    with ctx.workprec(BALL_PREC):
        s = c.ball + w.ball(BALL_PREC)
    if s > 0:
        return ChainValue(s, base=c, edge=w)
    if s < 0:
        return ChainValue(-s, base=c, edge=w, neg=True)

    def total(prec: int) -> arb:
        with ctx.workprec(prec):
            return c.arb(prec) + w.ball(prec)

    sign = separate(total, lambda prec: arb(0), BALL_PREC)  # wide balls (lambda = 1e-320)
    if sign:
        return ChainValue(s if sign > 0 else -s, base=c, edge=w, neg=sign < 0)
    exact = log_sum(c.exact, w.value)
    neg = exact.sign() < 0
    return ChainValue(abs(s), -exact if neg else exact, base=c, edge=w, neg=neg)


def _compare(x: ChainValue, y: ChainValue) -> int:
    """The decided sign of ``x - y``: balls (raised in precision when they are wide, as
    at lambda = 1e-320), else exactly."""
    if x.ball < y.ball:
        return -1
    if x.ball > y.ball:
        return 1
    return separate(x.arb, y.arb, BALL_PREC) or x.exact.exact_compare(y.exact)


def _decided_min(values: Sequence[ChainValue]) -> ChainValue:
    return decided_min(values, _compare)[1]


def _step(child: ChainValue, W: tuple[EdgeValue, EdgeValue] | None) -> ChainValue:
    """Theorem 2 (Eq. 11): ``max(|c + max W|, |c + min W|)``; the child when W is empty."""
    if W is None:
        return child
    hi, lo = W
    a = _abs_sum(child, hi)
    if lo.same_as(hi):
        return a
    b = _abs_sum(child, lo)
    return a if _compare(a, b) >= 0 else b


def max_chain(nodes: Sequence[Node]) -> Node | None:
    """A node of maximal chain value (decided: balls, then exact comparison)."""
    return _decided_argmax(
        [(v, v.chain_value) for v in nodes if v.chain_value is not None and v.generated]
    )


def max_exact(nodes: Sequence[Node]) -> Node | None:
    """A node of maximal Eq. 2 value (decided: balls, then exact comparison)."""
    return _decided_argmax(
        [(v, ChainValue.of(v.exact.require())) for v in nodes if v.exact is not None and v.exact.ok]
    )


def compare_chain_values(x: ChainValue, y: ChainValue) -> int:
    """The decided sign of ``x - y`` (balls, raised in precision, then exactly)."""
    return _compare(x, y)


def first_max(values: Sequence[ChainValue]) -> int:
    """The index of the first maximal value (decided: balls, then exactly)."""
    return decided_argmax(values, _compare)


def _decided_argmax(items: Sequence[tuple[Node, ChainValue]]) -> Node | None:
    if not items:
        return None
    return items[first_max([v for _, v in items])][0]


# --- WHG from given edge values ------------------------------------------------------------


class EdgeSource(Protocol):
    @property
    def n(self) -> int: ...

    def bottom(self, i: int) -> Any: ...

    def edges(self, i: int) -> np.ndarray: ...


@dataclass
class ArrayEdges:
    """Given edges ``E[i][p][mask]`` (shape ``(n, n-1, 2^(n-1))``) and bottom values."""

    n: int
    E: Sequence[Any]
    bottoms: Sequence[Any]
    exact: bool = True

    def bottom(self, i: int) -> Any:
        return self.bottoms[i]

    def edges(self, i: int) -> np.ndarray:
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
        return self.delta_over_lam

    def edges(self, i: int) -> np.ndarray:
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
        return self._bottoms[i]

    def edges(self, i: int) -> np.ndarray:
        return self._edges[i]


@dataclass
class GivenResult:
    """Node values ``V[i][mask]`` (NaN / None: not generated) and the maxima."""

    n: int
    values: list[np.ndarray]
    exact: bool

    def layer_of_mask(self) -> np.ndarray:
        return self.n - popcounts(self.n - 1)

    def max_value(self) -> Any:
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
    """Algorithm 2: only the ``k`` largest nodes of each layer (all targets) generate the next."""
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
    """Theorem 5's text: the minimum over *all paths* of Eq. 14 (small ``n`` only)."""
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
        return int(self.source.n)

    def bottom(self, i: int) -> Fraction:
        return Fraction(self.source.bottom(i))

    def edges(self, i: int) -> np.ndarray:
        E = self.source.edges(i)
        out = np.empty(E.shape, dtype=object)
        for idx, v in np.ndenumerate(E):
            out[idx] = Fraction(v)
        return out

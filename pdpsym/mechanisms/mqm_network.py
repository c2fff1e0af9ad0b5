"""The Markov Quilt Mechanism on a Bayesian network (Song, Wang, Chaudhuri, "Pufferfish
privacy mechanisms for correlated data", SIGMOD 2017, Sec. 4, Algorithm 1).

**Quilts.** For a record ``X_i``, a Markov quilt is a set ``X_Q`` that splits the other
records into nearby ones ``X_N`` (with ``X_i``) and remote ones ``X_R`` such that ``X_R``
is independent of ``X_i`` given ``X_Q``. Separation in the moral graph implies
conditional independence (the moral graph is an undirected I-map of the network: Lauritzen,
Graphical Models, 1996, Prop. 3.25), so the quilts searched here are separators of the
moral graph:

* the **branches** of ``i`` are the connected parts of its connected component once ``i``
  is removed (records of different branches are linked only through ``i``, hence
  independent given ``X_i``);
* a quilt picks, for every branch ``b``, a radius ``r_b``: ``Q_b`` the records of ``b`` at
  moral distance exactly ``r_b`` from ``i`` (``N`` gets those nearer), or ``r_b = inf``
  (the whole branch is nearby, ``Q_b`` empty); other components are remote.

For a chain the branches are the left and right parts and the quilts are exactly
``{x_{i-a}, x_{i+b}}``, ``{x_{i+b}}``, ``{x_{i-a}}`` and the empty quilt, MQMExact's.
**Bounds of the search:** radii up to ``max_radius`` (default 8) and each ``Q_b`` of at
most :data:`MAX_QUILT_CELLS` joint values; at most :data:`MAX_QUILTS` quilts per record
(radii taken in increasing order). Leaving quilts out can only raise the scale, which
stays private: the empty quilt (the whole component nearby, influence 0) is always in.

**Max-influence, exactly.** Given ``X_i`` the branches are independent, so
``e(Q | X_i) = max_{s != s'} sum_b e_b(s, s')`` with
``e_b(s, s') = max_{x_{Q_b}} ln P(x_{Q_b} | X_i = s) / P(x_{Q_b} | X_i = s')`` computed
from the exact conditional law of ``X_{Q_b}`` (one variable elimination per state on the
ancestral sub-network of ``Q_b`` and ``i``): the influence is ``ln R`` with ``R`` an exact
rational, infinite when some ``x_{Q_b}`` has probability 0 under one state only. States of
``X_i`` of probability 0 are no secret.

**Scale.** ``sigma_i = min_Q Delta(N) / (eps - e(Q | X_i))`` over the quilts with ``e <
eps`` and ``sigma_max = max_i sigma_i``; the Laplace scale is ``sigma_max``, where
``Delta(N) = sum_{v in N} Delta_v`` and ``Delta_v`` is the largest change of the query
when ``x_v`` changes (the paper's ``L card(N)`` when every ``Delta_v = L``; the sum is the
same bound on the query's change over ``X_N``). Every comparison (usability ``R < e^eps``,
the min over quilts, the max over records) is decided exactly
(:func:`pdpsym.core.compare.compare`).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np
import sympy

from pdpsym.core.compare import compare, decided_max, decided_min
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import to_sympy
from pdpsym.mechanisms.mqm import BaselineScale
from pdpsym.models.bayesnet import BayesianNetwork
from pdpsym.models.bayesnet_build import moral_graph
from pdpsym.models.query_law import records_law

#: the most joint values of one branch's part of a quilt
MAX_QUILT_CELLS = 4096
#: the most quilts searched per record
MAX_QUILTS = 256


def branches(net: BayesianNetwork, target: str) -> list[dict[str, int]]:
    """The branches of ``target``: each a map from its records to their moral distance
    from ``target`` (module docstring).

    Args:
        net: the network.
        target: a record.

    Returns:
        One ``{record: distance}`` per branch, in declaration order of their first record.

    References:
        Song et al. (2017), Sec. 4.1 (Markov quilts); Lauritzen (1996), Prop. 3.25.
    """
    adj = moral_graph(net.nodes, net.variables, {}, net.variables)
    seen = {target}
    out = []
    for start in sorted(adj[target], key=net.variables.index):
        if start in seen:
            continue
        dist = {start: 1}
        frontier = [start]
        seen.add(start)
        while frontier:
            nxt = []
            for u in frontier:
                for w in adj[u]:
                    if w not in seen:
                        seen.add(w)
                        dist[w] = dist[u] + 1
                        nxt.append(w)
            frontier = nxt
        out.append(dist)
    # a record reached first through one neighbour may also touch another's region: the
    # BFS from each unvisited neighbour of target collects exactly the connected parts of
    # the component minus target, with distances through target's neighbours
    return _distances_from_target(adj, target, out)


def _distances_from_target(
    adj: dict[str, set[str]], target: str, parts: list[dict[str, int]]
) -> list[dict[str, int]]:
    """Each part's records with their distance from ``target`` (a BFS from ``target``)."""
    dist = {target: 0}
    frontier = [target]
    while frontier:
        nxt = []
        for u in frontier:
            for w in adj[u]:
                if w not in dist:
                    dist[w] = dist[u] + 1
                    nxt.append(w)
        frontier = nxt
    return [{v: dist[v] for v in part} for part in parts]


def _joint(net: BayesianNetwork, keep: Sequence[str]) -> tuple[tuple[str, ...], np.ndarray]:
    """``P(X_keep)`` up to one integer scale, as an integer array over ``keep`` (Python
    integers, exact): the ancestral sub-network's tables scaled to integers, every other
    record summed out (smallest product first), each step one ``einsum``."""
    sub = net.ancestral(keep)
    factors: list[tuple[tuple[str, ...], np.ndarray]] = []
    for v in sub.variables:
        node = sub.nodes[v]
        den = math.lcm(*(p.denominator for row in node.cpt.values() for p in row))
        arr = np.zeros([len(sub.nodes[u].states) for u in (*node.parents, v)], dtype=object)
        for c, row in node.cpt.items():
            arr[c] = [int(p * den) for p in row]
        factors.append(((*node.parents, v), arr))
    rest = [v for v in sub.variables if v not in keep]
    while rest:

        def cost(v: str, fs: list[tuple[tuple[str, ...], np.ndarray]] = factors) -> int:
            scope = {u for f in fs if v in f[0] for u in f[0]}
            return math.prod(len(sub.nodes[u].states) for u in scope)

        v = min(rest, key=cost)
        rest.remove(v)
        touching = [f for f in factors if v in f[0]]
        factors = [f for f in factors if v not in f[0]]
        scope = tuple(dict.fromkeys(u for f in touching for u in f[0] if u != v))
        factors.append((scope, _einsum(touching, scope)))
    return tuple(keep), _einsum(factors, tuple(keep))


def _einsum(
    factors: Sequence[tuple[tuple[str, ...], np.ndarray]], out: tuple[str, ...]
) -> np.ndarray:
    """The product of ``factors`` summed onto the records ``out`` (exact integers)."""
    names = list(dict.fromkeys([*out, *(u for f in factors for u in f[0])]))
    letter = {u: chr(65 + k) if k < 26 else chr(97 + k - 26) for k, u in enumerate(names)}
    spec = ",".join("".join(letter[u] for u in f[0]) for f in factors)
    return np.asarray(
        np.einsum(f"{spec}->{''.join(letter[u] for u in out)}", *(f[1] for f in factors))
    )


def _ratio(
    net: BayesianNetwork, target: str, quilt: Sequence[str]
) -> dict[tuple[int, int], Fraction | None]:
    """``max_x P(x_Q | s) / P(x_Q | s')`` for every pair of possible states of ``target``
    (None: infinite), from the exact joint law of ``X_Q`` and ``X_target``."""
    scope, table = _joint(net, [target, *quilt])
    by_state: dict[int, dict[tuple[int, ...], int]] = {}
    for key, n in np.ndenumerate(table):
        if n:
            by_state.setdefault(key[0], {})[key[1:]] = int(n)
    totals = {s: sum(law.values()) for s, law in by_state.items()}
    out: dict[tuple[int, int], Fraction | None] = {}
    for s, s2 in itertools.permutations(by_state, 2):
        num, den = 0, 1  # the best ratio J_s[x] / J_s2[x] so far, as integers
        finite = True
        for x, p in by_state[s].items():
            q = by_state[s2].get(x, 0)
            if q == 0:
                finite = False
                break
            if p * den > num * q:
                num, den = p, q
        out[(s, s2)] = Fraction(num * totals[s2], den * totals[s]) if finite else None
    return out


def _deltas(net: BayesianNetwork, weights: dict[str, int] | None) -> dict[str, Fraction]:
    contrib = net.contributions(weights)
    return {
        v: Fraction(max(row), contrib.scale)
        for v, row in zip(net.variables, contrib.table, strict=True)
    }


def record_scale(
    net: BayesianNetwork,
    target: str,
    eps: Fraction,
    deltas: dict[str, Fraction],
    max_radius: int = 8,
) -> tuple[sympy.Expr, dict[str, object]]:
    """``sigma_i``: the least ``Delta(N) / (eps - e(Q | X_i))`` over the quilts searched.

    Args:
        net: the network (its query's values are not used: quilts are about records).
        target: the record ``i``.
        eps: the privacy parameter (> 0).
        deltas: each record's ``Delta_v``.
        max_radius: the largest radius per branch.

    Returns:
        The scale (exact) and the chosen quilt ``{"quilt": [...], "nearby": n}``.

    References:
        Song et al. (2017), Algorithm 1 (MQM) and Sec. 4.2.
    """
    base = dataclasses.replace(net, query_values=None)
    parts = branches(base, target)
    options: list[
        list[tuple[int | None, tuple[str, ...], dict[tuple[int, int], Fraction | None]]]
    ] = []
    budget = MAX_QUILTS
    for part in parts:
        opts: list[tuple[int | None, tuple[str, ...], dict[tuple[int, int], Fraction | None]]] = [
            (None, (), {})
        ]
        top = max(part.values())
        for r in range(1, min(top, max_radius) + 1):
            shell = tuple(v for v in net.variables if part.get(v) == r)
            cells = math.prod(len(net.nodes[v].states) for v in shell)
            if cells > MAX_QUILT_CELLS:
                break
            if math.prod(len(o) for o in options) * (len(opts) + 1) > budget:
                break
            opts.append((r, shell, _ratio(base, target, shell)))
        options.append(opts)
    component = {target}.union(*(set(p) for p in parts))
    states = [
        k
        for k, a in enumerate(net.nodes[target].values)
        if records_law(base.ancestral([target]), target, a, {}, []) is not None
    ]
    candidates: list[tuple[sympy.Expr, dict[str, object]]] = []
    for combo in itertools.product(*options):
        quilt = [v for _, shell, _ in combo for v in shell]
        near = {target}
        for part, (radius, _, _) in zip(parts, combo, strict=True):
            near |= {v for v, d in part.items() if radius is None or d < radius}
        worst: Fraction | None = Fraction(1)
        for s, s2 in itertools.permutations(states, 2):
            prod: Fraction | None = Fraction(1)
            for _, _, ratios in combo:
                if not ratios:
                    continue
                r_b = ratios.get((s, s2))
                if r_b is None:
                    prod = None
                    break
                assert prod is not None
                prod *= r_b
            if prod is None:
                worst = None
                break
            assert worst is not None
            worst = max(worst, prod)
        if worst is None or compare(sympy.log(to_sympy(worst)), to_sympy(eps)).sign >= 0:
            continue  # an infinite influence, or one at least eps: not usable
        delta = sum((deltas[v] for v in near), Fraction(0))
        scale = to_sympy(delta) / (to_sympy(eps) - sympy.log(to_sympy(worst)))
        candidates.append((scale, {"quilt": quilt, "nearby": len(near)}))
    if not candidates:  # pragma: no cover - the empty quilt is always usable
        delta = sum((deltas[v] for v in component), Fraction(0))
        return to_sympy(delta / eps), {"quilt": [], "nearby": len(component)}
    k, _ = decided_min([c[0] for c in candidates])
    return candidates[k]


def mqm_network_scale(
    net: BayesianNetwork,
    eps: Fraction,
    weights: dict[str, int] | None = None,
    max_radius: int = 8,
    on_record: Callable[[str], None] | None = None,
) -> BaselineScale:
    """MQM's Laplace scale ``sigma_max`` on a Bayesian network (module docstring).

    Args:
        net: the network and its query (``count_query`` / ``sum_query``, else the sum).
        eps: the privacy parameter (> 0).
        weights: integer query weights.
        max_radius: the largest radius searched per branch.
        on_record: called after each record (progress).

    Returns:
        The scale as an exact expression, with the worst record and its quilt.

    References:
        Song, Wang, Chaudhuri (SIGMOD 2017), Algorithm 1 and Sec. 4.
    """
    eps = Fraction(eps)
    if eps <= 0:
        raise InputError("eps", "must be > 0")
    deltas = _deltas(net, weights)
    scales = []
    for v in net.variables:
        scales.append((v, *record_scale(net, v, eps, deltas, max_radius)))
        if on_record is not None:
            on_record(v)
    k, _ = decided_max([s[1] for s in scales])
    name, scale, detail = scales[k]
    return BaselineScale("mqm-network", scale, {"worst_record": name, **detail})


__all__ = ["MAX_QUILTS", "MAX_QUILT_CELLS", "branches", "mqm_network_scale", "record_scale"]

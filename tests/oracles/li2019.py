"""Brute-force oracle for Li, Ren, Yang, Yang (PDP), written from the definitions only.

Nothing here imports pdpsym: a model is the counterexample's JSON (variables, rows of
values and a probability). Everything is plain Fractions, or mpmath inside
``mpmath.workdps``.

* Eq. 2: ``PL(A(i,K)) = sup over x_i != x_i', x_K, r of ln p(r|x_i,x_K)/p(r|x_i',x_K)``,
  ``p(r|x_i,x_K) = sum over x_U of theta(x_U|x_i,x_K) e^{-|r-f(x)|/lam}/(2 lam)``, sum
  query. The sup over r is taken on a dense grid (step 1/16) around the support of f,
  its support points, and far tails -- no breakpoint lemma.
* Eq. 9: ``d_j(x_a, x_b) = ln sum_{x_j} theta(x_j|x_a, ctx) e^{x_j/lam} /
  sum_{x_j} theta(x_j|x_b, ctx) e^{x_j/lam}`` (the right-tail reading), ``q = lam d/Delta_j``.
* Pearson's rho of (x_i, x_j) given a context: its sign, exactly (the covariance).
* The chain rule (Theorem 5 / Algorithm 1) on a WHG given by its edges:
  ``V(i, K) = min over j in K of |V(i, K) + w|`` up the layers, exactly.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import mpmath

Model = tuple[list[str], dict[tuple[Fraction, ...], Fraction]]


def model(obj: dict[str, Any]) -> Model:
    """(variables, {cell: probability}) from a counterexample's JSON model."""
    names = list(obj["variables"])
    cells: dict[tuple[Fraction, ...], Fraction] = {}
    for row in obj["rows"]:
        cell = tuple(Fraction(v) for v in row[:-1])
        cells[cell] = cells.get(cell, Fraction(0)) + Fraction(row[-1])
    return names, {c: p for c, p in cells.items() if p}


def _mp(q: Fraction) -> mpmath.mpf:
    return mpmath.mpf(q.numerator) / q.denominator


def eq2(m: Model, target: str, known: Sequence[str], lam: Fraction) -> mpmath.mpf:
    """Eq. 2 for the sum query, at 50 digits (None-free: asserts a compatible pair)."""
    names, cells = m
    i, K = names.index(target), [names.index(k) for k in known]
    groups: dict[tuple[Fraction, ...], dict[Fraction, list[tuple[Fraction, Fraction]]]] = {}
    for cell, p in cells.items():
        ctx = tuple(cell[k] for k in K)
        groups.setdefault(ctx, {}).setdefault(cell[i], []).append((sum(cell), p))
    sums = sorted({f for g in groups.values() for lst in g.values() for f, _ in lst})
    grid = {sums[0] - 3 + Fraction(t, 16) for t in range(int((sums[-1] - sums[0] + 6) * 16) + 1)}
    grid |= set(sums) | {sums[0] - 200, sums[-1] + 200}
    best = None
    with mpmath.workdps(50):
        L = _mp(lam)

        def dens(lst: list[tuple[Fraction, Fraction]], r: Fraction) -> mpmath.mpf:
            tot = sum(p for _, p in lst)
            return mpmath.fsum(_mp(p / tot) * mpmath.exp(-abs(_mp(r - f)) / L) for f, p in lst)

        for by_xi in groups.values():
            for a, b in itertools.permutations(by_xi, 2):
                for r in grid:
                    v = mpmath.log(dens(by_xi[a], r)) - mpmath.log(dens(by_xi[b], r))
                    best = v if best is None or v > best else best
    assert best is not None, "no x_K is compatible with two values of the target"
    return best


def conditional(m: Model, fixed: dict[str, Fraction], var: str) -> dict[Fraction, Fraction]:
    """theta(var | fixed), exactly."""
    names, cells = m
    out: dict[Fraction, Fraction] = {}
    for cell, p in cells.items():
        if all(cell[names.index(v)] == x for v, x in fixed.items()):
            out[cell[names.index(var)]] = out.get(cell[names.index(var)], Fraction(0)) + p
    tot = sum(out.values())
    return {x: p / tot for x, p in out.items()}


def edge_d(
    m: Model,
    target: str,
    j: str,
    ctx: dict[str, Fraction],
    xa: Fraction,
    xb: Fraction,
    lam: Fraction,
) -> mpmath.mpf:
    """Eq. 9 (right-tail reading), at 50 digits."""
    with mpmath.workdps(50):
        L = _mp(lam)
        mgf = [
            mpmath.fsum(
                _mp(p) * mpmath.exp(_mp(x) / L)
                for x, p in conditional(m, {**ctx, target: xv}, j).items()
            )
            for xv in (xa, xb)
        ]
        return mpmath.log(mgf[0]) - mpmath.log(mgf[1])


def edge_values(
    m: Model, target: str, j: str, context_vars: Sequence[str], lam: Fraction
) -> list[mpmath.mpf]:
    """Eq. 10: every d_j(x_a, x_b), x_a > x_b, over every context where both are possible."""
    names, cells = m
    out = []
    idx = [names.index(v) for v in context_vars]
    for ctx_vals in sorted({tuple(c[k] for k in idx) for c in cells}):
        ctx = dict(zip(context_vars, ctx_vals, strict=True))
        seen = sorted(set(conditional(m, ctx, target)))
        for xb, xa in itertools.combinations(seen, 2):
            out.append(edge_d(m, target, j, ctx, xa, xb, lam))
    return out


def covariance(m: Model, a: str, b: str, ctx: dict[str, Fraction]) -> Fraction:
    """cov(x_a, x_b | ctx), exactly; its sign is the sign of Pearson's rho."""
    names, cells = m
    sub = {c: p for c, p in cells.items() if all(c[names.index(v)] == x for v, x in ctx.items())}
    tot = sum(sub.values())
    ia, ib = names.index(a), names.index(b)
    ea = sum(c[ia] * p for c, p in sub.items()) / tot
    eb = sum(c[ib] * p for c, p in sub.items()) / tot
    return sum(c[ia] * c[ib] * p for c, p in sub.items()) / tot - ea * eb


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

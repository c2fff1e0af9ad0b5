"""Li, Ren, Yang, Yang's Eq. 2 leakage of an adversary A(i, K), by brute force (no pdpsym
import).

``PL(A(i,K)) = sup over x_i != x_i', x_K, r of ln p(r|x_i,x_K) / p(r|x_i',x_K)`` with
``p(r|x_i,x_K) = sum over x_U of theta(x_U|x_i,x_K) e^{-|r-f(x)|/lam}/(2 lam)`` and ``f``
the (weighted) sum query. Every database is enumerated from the law's cells, the mixture
densities are formed directly in mpmath, and the sup over r is taken on a dense grid
around the support of f, its support points, and far tails -- no breakpoint lemma, no
screening, no exp-polynomials. The one module for Eq. 2: :func:`eq2` reads a
:data:`oracles.joint_table.Model`, :func:`eq2_bruteforce` any object with ``variables``
and ``probs`` (the library's table is read as plain data, nothing of it is called).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import mpmath

from oracles.joint_table import Model


def _mp(q: Fraction) -> mpmath.mpf:
    return mpmath.mpf(q.numerator) / q.denominator


def eq2_grid(
    m: Model,
    target: str,
    known: Sequence[str],
    lam: Fraction,
    weights: Mapping[str, Fraction] | None = None,
    step: Fraction = Fraction(1, 16),
    tail: int = 200,
    dps: int = 50,
) -> mpmath.mpf | None:
    """The sup of Eq. 2 over a grid of outputs (None: no x_K is compatible with two values
    of the target)."""
    names, cells = m
    w = [Fraction(1) if weights is None else Fraction(weights.get(v, 0)) for v in names]
    i, K = names.index(target), [names.index(k) for k in known]
    groups: dict[tuple[Fraction, ...], dict[Fraction, list[tuple[Fraction, Fraction]]]] = {}
    for cell, p in cells.items():
        f = sum((a * x for a, x in zip(w, cell, strict=True)), Fraction(0))
        groups.setdefault(tuple(cell[k] for k in K), {}).setdefault(cell[i], []).append((f, p))
    sums = sorted({f for g in groups.values() for lst in g.values() for f, _ in lst})
    lo, hi = sums[0] - 3, sums[-1] + 3
    grid = {lo + step * t for t in range(int((hi - lo) / step) + 1)}
    grid |= set(sums) | {sums[0] - tail, sums[-1] + tail}
    best = None
    with mpmath.workdps(dps):
        L = _mp(lam)

        def dens(lst: list[tuple[Fraction, Fraction]], r: Fraction) -> mpmath.mpf:
            tot = sum(p for _, p in lst)
            return mpmath.fsum(_mp(p / tot) * mpmath.exp(-abs(_mp(r - f)) / L) for f, p in lst)

        for by_xi in groups.values():
            for a, b in itertools.permutations(by_xi, 2):
                for r in sorted(grid):
                    v = mpmath.log(dens(by_xi[a], r)) - mpmath.log(dens(by_xi[b], r))
                    best = v if best is None or v > best else best
    return best


def eq2(m: Model, target: str, known: Sequence[str], lam: Fraction) -> mpmath.mpf:
    """Eq. 2 for the sum query, at 50 digits (asserts a compatible pair)."""
    best = eq2_grid(m, target, known, lam)
    assert best is not None, "no x_K is compatible with two values of the target"
    return best


def eq2_bruteforce(
    model: Any,
    target: str,
    known: tuple[str, ...],
    lam: Fraction,
    weights: dict[str, Fraction] | None = None,
    step: Fraction = Fraction(1, 8),
) -> mpmath.mpf | None:
    """Eq. 2 of a table given as plain data: ``model.variables`` (names) and
    ``model.probs`` ({row of values: probability}); ``weights`` of the linear query (None:
    the sum). At 60 digits, tails at distance 40."""
    cells = {tuple(Fraction(x) for x in row): Fraction(p) for row, p in model.probs.items()}
    return eq2_grid(
        (list(model.variables), cells), target, known, lam, weights, step, tail=40, dps=60
    )

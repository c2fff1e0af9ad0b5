"""Brute-force oracle for Liu, Chakraborty, Mittal (dependent DP), from Definition 4 only.

A law R is {database: probability}; a mechanism is {database: {output: probability}}.
Definition 4 (as printed): ``γ(A) = max over dependent neighbours D, D'`` (they differ in
one tuple and, possibly, in the tuples that depend on it) ``and outputs O of
P(A(D)=O)/P(A(D')=O)``; here every tuple depends on every other (L = n), so every two
databases of the product domain that differ in the target are neighbours. Fractions only.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from fractions import Fraction

Table = dict[tuple[int, ...], dict[Hashable, Fraction]]


def gamma(A: Table) -> Fraction | None:
    """The largest probability ratio over neighbouring pairs (None = unbounded)."""
    best = Fraction(1)
    for d, e in itertools.permutations(A, 2):
        for o, p in A[d].items():
            q = A[e].get(o, Fraction(0))
            if q == 0:
                return None
            best = max(best, p / q)
    return best


def parallel(A1: Table, A2: Table) -> Table:
    """The pair (A1(D), A2(D)), run with independent coins."""
    out: Table = {}
    for d in A1:
        out[d] = {(o1, o2): p1 * p2 for o1, p1 in A1[d].items() for o2, p2 in A2[d].items()}
    return out


Law = dict[tuple[int, ...], Fraction]


def _marginal(R: Law, idx: tuple[int, ...]) -> dict[tuple[int, ...], Fraction]:
    out: dict[tuple[int, ...], Fraction] = {}
    for d, p in R.items():
        key = tuple(d[j] for j in idx)
        out[key] = out.get(key, Fraction(0)) + p
    return out


def blocks_independent(R: Law, blocks: list[tuple[int, ...]]) -> bool:
    """Whether the blocks of tuples are mutually independent under R (R is the product of
    the blocks' marginals), exactly."""
    union = tuple(j for b in blocks for j in b)
    joint = _marginal(R, union)  # the law of the blocks' tuples together
    margs = [_marginal(R, b) for b in blocks]
    for d in itertools.product(*(list(m) for m in margs)):
        prod = Fraction(1)
        for key, m in zip(d, margs, strict=True):
            prod *= m[key]
        if joint.get(tuple(v for key in d for v in key), Fraction(0)) != prod:
            return False
    return True


def dependents(R: Law, i: int) -> set[int]:
    """Definition 3's tuples whose values a change of tuple i may change through R: those j
    with D_j not independent of D_i under R (pairwise)."""
    n = len(next(iter(R)))
    return {j for j in range(n) if j != i and not blocks_independent(R, [(i,), (j,)])}


def gamma_neighbours(A: Table, R: Law, in_support: bool = False) -> Fraction | None:
    """Definition 4 over Definition 3's dependent neighbours: D, D' differ in tuple i and
    otherwise only in tuples dependent on i (``in_support``: both of positive probability
    under R). None = unbounded."""
    n = len(next(iter(A)))
    deps = {i: dependents(R, i) | {i} for i in range(n)}
    best = Fraction(1)
    for d, e in itertools.permutations(A, 2):
        if in_support and (R.get(d, 0) == 0 or R.get(e, 0) == 0):
            continue
        diff = {j for j in range(n) if d[j] != e[j]}
        if not any(i in diff and diff <= deps[i] for i in range(n)):
            continue
        for o, p in A[d].items():
            q = A[e].get(o, Fraction(0))
            if q == 0:
                return None
            best = max(best, p / q)
    return best


def gamma_conditional(A: Table, R: Law) -> Fraction | None:
    """The adversary who knows R: max over tuples i, values d1 != d2 of positive probability
    and outputs S of P(A(D)=S | D_i=d1) / P(A(D)=S | D_i=d2), D ~ R. None = unbounded."""
    n = len(next(iter(A)))
    best = Fraction(1)
    for i in range(n):
        laws: dict[int, dict[Hashable, Fraction]] = {}
        for v in {d[i] for d, p in R.items() if p > 0}:
            tot = sum(p for d, p in R.items() if d[i] == v)
            out: dict[Hashable, Fraction] = {}
            for d, p in R.items():
                if d[i] == v and p > 0:
                    for o, q in A[d].items():
                        out[o] = out.get(o, Fraction(0)) + p * q / tot
            laws[v] = out
        for v1, v2 in itertools.permutations(laws, 2):
            for o, p in laws[v1].items():
                q = laws[v2].get(o, Fraction(0))
                if q == 0:
                    if p > 0:
                        return None
                    continue
                best = max(best, p / q)
    return best

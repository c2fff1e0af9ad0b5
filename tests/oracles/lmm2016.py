"""Brute-force oracle for Liu, Mittal, Mittal (dependent DP), from Definition 4 only.

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

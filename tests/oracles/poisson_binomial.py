"""Brute-force oracle: the exact law of a sum of independent Bernoulli records.

Written from the definition only (no pdpsym import): the one-record recursion
``P[S' = s] = (1 - p) P[S = s] + p P[S = s - 1]``, in exact Fractions.
"""

from __future__ import annotations

from fractions import Fraction


def pmf(ps: list[Fraction]) -> list[Fraction]:
    """``[P[S = 0], ..., P[S = n]]`` for ``S`` the sum of Bernoulli(``p``) records."""
    out = [Fraction(1)]
    for p in ps:
        nxt = [Fraction(0)] * (len(out) + 1)
        for s, w in enumerate(out):
            nxt[s] += w * (1 - p)
            nxt[s + 1] += w * p
        out = nxt
    return out

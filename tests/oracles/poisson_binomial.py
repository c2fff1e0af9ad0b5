"""Brute-force oracle: the exact law of a sum of independent Bernoulli records.

Written from the definition only (no pdpsym import): the one-record recursion
``P[S' = s] = (1 - p) P[S = s] + p P[S = s - 1]``, in exact Fractions or, given mpmath
numbers, at the working precision; the binomial law is the case of equal ``p``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any


def pmf(ps: list[Any]) -> list[Any]:
    """``[P[S = 0], ..., P[S = n]]`` for ``S`` the sum of Bernoulli(``p``) records (``p``
    Fractions or mpmath numbers)."""
    out: list[Any] = [Fraction(1)]
    for p in ps:
        nxt: list[Any] = [Fraction(0)] * (len(out) + 1)
        for s, w in enumerate(out):
            nxt[s] += w * (1 - p)
            nxt[s + 1] += w * p
        out = nxt
    return out


def binom(s: int, n: int, p: Fraction) -> Fraction:
    """f(s, n, p) = C(n, s) p^s (1-p)^(n-s) (0 outside 0..n), exactly."""
    return Fraction(math.comb(n, s)) * p**s * (1 - p) ** (n - s) if 0 <= s <= n else Fraction(0)


def binom_pmf(m: int, q: Any) -> list[Any]:
    """``[P[Bin(m, q) = s] for s in 0..m]``, term by term (q a Fraction or an mpmath number)."""
    return [math.comb(m, s) * q**s * (1 - q) ** (m - s) for s in range(m + 1)]

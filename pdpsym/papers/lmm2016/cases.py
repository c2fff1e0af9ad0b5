"""Case generators shared by the checkers of Liu, Mittal and Mittal (dependent DP).

Small exact classes listed in a fixed order (so that the first counterexample found is
the minimal one in that order) and seeded random laws and mechanisms. Everything is
exact (Fractions).

References:
    Liu, Mittal, Mittal (2016), "Dependence makes you vulnerable: differential privacy
    under dependent tuples", Sections IV-VI.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Hashable, Iterable, Iterator, Sequence
from fractions import Fraction as F
from typing import Any

from pdpsym.models.joint import JointDistribution
from pdpsym.papers.lmm2016 import mechanism as mech

LEVELS = (F(1, 3), F(2, 3))
BITS = (0, 1)
Case = tuple[Any, ...]


def joint_law(cells: Iterable[Any], doms: Sequence[Any], names: Any = ()) -> JointDistribution:
    """The law P(cell) = p on the product of ``doms`` (variables D1, D2, ... unless named)."""
    names = list(names or (f"D{k + 1}" for k in range(len(doms))))
    domains = {v: list(d) for v, d in zip(names, doms, strict=True)}
    return JointDistribution.from_rows(names, [[*c, p] for c, p in cells], domains)


def pair_law(ps: str, names: Sequence[str] = ("D1", "D2")) -> JointDistribution:
    """The law on {0,1}^2 with P(00), P(01), P(10), P(11) given as "p00 p01 p10 p11"."""
    cells = zip(itertools.product(BITS, repeat=2), ps.split(), strict=True)
    return joint_law(cells, [BITS] * 2, names)


def grid_distributions(
    names: Sequence[str], domains: Sequence[Sequence[int]], max_den: int
) -> Iterator[JointDistribution]:
    """Every joint law on the product domain with probabilities k/N, N <= max_den.

    Order: by N, then lexicographically by counts; each law is listed once (at its least N).
    """
    cells = list(itertools.product(*domains))
    for den in range(1, max_den + 1):
        for cuts in itertools.combinations_with_replacement(range(den + 1), len(cells) - 1):
            counts = [b - a for a, b in zip((0, *cuts), (*cuts, den), strict=True)]
            if math.gcd(den, *counts) == 1:  # else listed already at a smaller N
                yield joint_law(zip(cells, (F(k, den) for k in counts)), domains, names)


def uniform_on_supports(n: int) -> Iterator[JointDistribution]:
    """Uniform laws on every non-empty subset of {0,1}^n, by support size then lexicographic."""
    cells = list(itertools.product(BITS, repeat=n))
    for size in range(1, len(cells) + 1):
        for support in itertools.combinations(cells, size):
            yield joint_law(((c, F(1, size)) for c in support), [BITS] * n)


def random_distribution(rng: random.Random, n: int, k: int) -> JointDistribution:
    """A random law on {0..k-1}^n with random rational weights (some cells zero)."""
    cells = list(itertools.product(range(k), repeat=n))
    weights = [rng.choice([0, 0, 1, 1, 2, 3, 5]) for _ in cells]
    if sum(weights) == 0:
        weights[rng.randrange(len(cells))] = 1
    return joint_law(zip(cells, (F(w, sum(weights)) for w in weights)), [range(k)] * n)


def bit_pmf(q: F) -> dict[Hashable, F]:
    """The output law on {0, 1} with P(1) = q (outputs of probability 0 left out)."""
    return {s: p for s, p in ((1, q), (0, 1 - q)) if p != 0}


def random_pmf(rng: random.Random, outputs: int, top: int = 6) -> dict[Hashable, F]:
    w = [rng.randint(1, top) for _ in range(outputs)]
    return {s: F(x, sum(w)) for s, x in enumerate(w)}


# binary pairs: independent uniform, completely dependent, a partial dependence
SMALL = [pair_law(ps) for ps in ("1/4 1/4 1/4 1/4", "1/2 0 0 1/2", "1/3 1/6 1/6 1/3")]
TABLES = (
    "the tables D -> {0,1} with P(1|D) in {1/3, 2/3} on 3 binary laws (independent, "
    "completely dependent, partially dependent)"
)


def table_cases(k: int, readings: Any, values: Any, stride: int, subsets: Any) -> Iterator[Case]:
    """Every ``stride``-th ``subsets(tables, k)`` of the tables D -> {0,1}, P(1|D) in LEVELS
    (lexicographic) of each small law, in each reading and with each variant value."""
    for theta in SMALL:
        dbs = mech.databases(theta)
        levels = itertools.product(LEVELS, repeat=len(dbs))
        tables = [mech.FiniteMechanism({d: bit_pmf(q) for d, q in zip(dbs, qs)}) for qs in levels]
        for mechs in list(subsets(tables, k))[::stride]:
            yield from ((theta, r, mechs, v) for r in readings for v in values)

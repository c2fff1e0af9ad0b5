"""Case generators shared by the checkers of Liu, Chakraborty and Mittal (dependent DP).

Small exact classes listed in a fixed order (so that the first counterexample found is
the minimal one in that order) and seeded random laws and mechanisms. Everything is
exact (Fractions).

References:
    Liu, Chakraborty, Mittal (2016), "Dependence makes you vulnerable: differential privacy
    under dependent tuples", Sections IV-VI.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Hashable, Iterable, Iterator, Sequence
from fractions import Fraction as F
from typing import Any

from pdpsym.models import neighbours as nbr
from pdpsym.models.joint import JointDistribution
from pdpsym.papers.lmm2016 import mechanism as mech

LEVELS = (F(1, 3), F(2, 3))
BITS = (0, 1)
Case = tuple[Any, ...]


def joint_law(cells: Iterable[Any], doms: Sequence[Any], names: Any = ()) -> JointDistribution:
    """The exact joint law with P(cell) = p on the product of ``doms``.

    Args:
        cells: pairs ``(cell, p)``, ``cell`` a tuple of values (one per domain) and ``p``
            its probability (anything ``JointDistribution.from_rows`` parses exactly);
            the probabilities must sum to 1.
        doms: the domain of each variable, in variable order.
        names: the variable names; empty (the default) names them ``D1, D2, ...``.

    Returns:
        The :class:`~pdpsym.models.joint.JointDistribution` (exact Fractions).

    References:
        Liu et al. (2016), Section V (a database D = [D1, ..., Dn] of dependent tuples).
    """
    names = list(names or (f"D{k + 1}" for k in range(len(doms))))
    domains = {v: list(d) for v, d in zip(names, doms, strict=True)}
    return JointDistribution.from_rows(names, [[*c, p] for c, p in cells], domains)


def pair_law(ps: str, names: Sequence[str] = ("D1", "D2")) -> JointDistribution:
    """The law of two binary tuples, given as the string ``"p00 p01 p10 p11"``.

    Args:
        ps: four exact probabilities separated by spaces, for the cells 00, 01, 10, 11 in
            that order (summing to 1).
        names: the two variable names.

    Returns:
        The exact :class:`~pdpsym.models.joint.JointDistribution` on {0,1}^2.

    References:
        Liu et al. (2016), Section V (two dependent tuples D_i, D_j).
    """
    cells = zip(itertools.product(BITS, repeat=2), ps.split(), strict=True)
    return joint_law(cells, [BITS] * 2, names)


def grid_distributions(
    names: Sequence[str], domains: Sequence[Sequence[int]], max_den: int
) -> Iterator[JointDistribution]:
    """Every joint law on the product domain whose probabilities are k/N, N <= ``max_den``.

    Order: by N, then lexicographically by counts; each law is listed once (at its least
    N), so the first counterexample a checker finds is the least one in this order.

    Args:
        names: the variable names, one per domain.
        domains: the domain of each variable.
        max_den: the largest common denominator N, >= 1.

    Yields:
        Exact :class:`~pdpsym.models.joint.JointDistribution` objects.

    References:
        Liu et al. (2016), Section V (the probabilistic dependence relationship R over the
        tuples, here every rational law on a grid).
    """
    cells = list(itertools.product(*domains))
    for den in range(1, max_den + 1):
        for cuts in itertools.combinations_with_replacement(range(den + 1), len(cells) - 1):
            counts = [b - a for a, b in zip((0, *cuts), (*cuts, den), strict=True)]
            if math.gcd(den, *counts) == 1:  # else listed already at a smaller N
                yield joint_law(zip(cells, (F(k, den) for k in counts)), domains, names)


def uniform_on_supports(n: int) -> Iterator[JointDistribution]:
    """Uniform laws on every non-empty subset of {0,1}^n.

    Order: by support size, then lexicographically.

    Args:
        n: the number of binary tuples, >= 1.

    Yields:
        Exact :class:`~pdpsym.models.joint.JointDistribution` objects on variables
        ``D1..Dn``.

    References:
        Liu et al. (2016), Section V (deterministic and probabilistic dependence between
        tuples).
    """
    cells = list(itertools.product(BITS, repeat=n))
    for size in range(1, len(cells) + 1):
        for support in itertools.combinations(cells, size):
            yield joint_law(((c, F(1, size)) for c in support), [BITS] * n)


def random_distribution(rng: random.Random, n: int, k: int) -> JointDistribution:
    """A seeded random law on {0..k-1}^n with small random rational weights (some cells 0).

    Args:
        rng: the seeded generator (the only source of randomness).
        n: the number of tuples, >= 1.
        k: the size of each tuple's domain, >= 1.

    Returns:
        An exact :class:`~pdpsym.models.joint.JointDistribution` on variables ``D1..Dn``.

    References:
        Liu et al. (2016), Section V (the dependence relationship R as a joint law).
    """
    cells = list(itertools.product(range(k), repeat=n))
    weights = [rng.choice([0, 0, 1, 1, 2, 3, 5]) for _ in cells]
    if sum(weights) == 0:
        weights[rng.randrange(len(cells))] = 1
    return joint_law(zip(cells, (F(w, sum(weights)) for w in weights)), [range(k)] * n)


def bit_pmf(q: F) -> dict[Hashable, F]:
    """The output law on {0, 1} with P(1) = q (outputs of probability 0 left out).

    Args:
        q: the exact probability of output 1, in [0, 1].

    Returns:
        A dict output -> exact probability.

    References:
        Liu et al. (2016), Section V, Definition 4 (a randomized algorithm's output law).
    """
    return {s: p for s, p in ((1, q), (0, 1 - q)) if p != 0}


def random_pmf(rng: random.Random, outputs: int, top: int = 6) -> dict[Hashable, F]:
    """A seeded random output law on ``{0, ..., outputs - 1}`` with positive weights.

    Args:
        rng: the seeded generator.
        outputs: the number of outputs, >= 1.
        top: the largest integer weight (weights are drawn in 1..top).

    Returns:
        A dict output -> exact probability (every output has probability > 0).

    References:
        Liu et al. (2016), Section V, Definition 4 (a randomized algorithm's output law).
    """
    w = [rng.randint(1, top) for _ in range(outputs)]
    return {s: F(x, sum(w)) for s, x in enumerate(w)}


# binary pairs: independent uniform, completely dependent, a partial dependence
SMALL = [pair_law(ps) for ps in ("1/4 1/4 1/4 1/4", "1/2 0 0 1/2", "1/3 1/6 1/6 1/3")]
TABLES = (
    "the tables D -> {0,1} with P(1|D) in {1/3, 2/3} on 3 binary laws (independent, "
    "completely dependent, partially dependent)"
)


def table_cases(k: int, readings: Any, values: Any, stride: int, subsets: Any) -> Iterator[Case]:
    """Cases built from finite mechanisms given as tables on three small binary laws.

    The tables are every mechanism D -> {0,1} with P(1|D) in ``LEVELS`` (listed
    lexicographically) on each law of ``SMALL`` (independent, completely dependent,
    partially dependent); every ``stride``-th group ``subsets(tables, k)`` is combined with
    each reading and each variant value.

    Args:
        k: the size of each group of tables (e.g. 2 for a composition of two mechanisms).
        readings: the readings of Definition 4 to try, each yielded with every group.
        values: the variant values (e.g. mixture weights) to try with every group.
        stride: keep every ``stride``-th group, >= 1 (thins the class deterministically).
        subsets: ``itertools.combinations``-like function listing the groups of ``k`` tables.

    Yields:
        Tuples ``(theta, reading, mechanisms, value)``.

    References:
        Liu et al. (2016), Section V-A, Theorems 3-4 and Section V-B, Theorems 5-6 (the
        composition and axiom theorems these cases check).
    """
    for theta in SMALL:
        dbs = nbr.databases(theta)
        levels = itertools.product(LEVELS, repeat=len(dbs))
        tables = [mech.FiniteMechanism({d: bit_pmf(q) for d, q in zip(dbs, qs)}) for qs in levels]
        for mechs in list(subsets(tables, k))[::stride]:
            yield from ((theta, r, mechs, v) for r in readings for v in values)

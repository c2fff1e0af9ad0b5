"""Finite classes of exact distributions, enumerated in a fixed order (small first).

Exhaustive checks walk these classes from the smallest case up, so the first
counterexample found is minimal in (number of tuples, domain sizes, denominator,
lexicographic cell order). ``random_table`` draws seeded generated cases.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from fractions import Fraction

from pdpsym.models.joint import JointDistribution


def compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """All tuples of ``parts`` non-negative ints summing to ``total`` (lexicographic).

    Args:
        total: the sum, >= 0.
        parts: the number of parts, >= 1.

    Yields:
        Each composition once, in lexicographic order.

    References:
        Knuth, TAOCP vol. 4A (2011), Section 7.2.1.3 (generating all combinations and
        compositions).
    """
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in compositions(total - first, parts - 1):
            yield (first, *rest)


def _names(n: int) -> list[str]:
    return [f"x{k + 1}" for k in range(n)]


def all_tables(
    sizes: Sequence[int],
    denominator: int,
    full_support_values: bool = True,
    values: Sequence[Sequence[int]] | None = None,
) -> Iterator[JointDistribution]:
    """Every joint table over domains ``{0..s-1}`` with probabilities ``k / denominator``.

    With ``full_support_values`` only tables in which every domain value has positive
    marginal probability are produced (so each ``Delta_k`` is a realised range).

    Args:
        sizes: the domain size of each variable ``x1, x2, ...``.
        denominator: the common denominator of the cell probabilities.
        full_support_values: keep only tables whose marginals have full support.
        values: the domain values of each variable (default ``0..s-1``).

    Yields:
        Each table once, in the order of the compositions of ``denominator``.

    References:
        Li et al. (2019), Section III (the joint-table model ``theta`` of Eq. 2).
    """
    vals = values or [list(range(s)) for s in sizes]
    cells = list(itertools.product(*vals))
    names = _names(len(sizes))
    for comp in compositions(denominator, len(cells)):
        rows = [[*c, Fraction(k, denominator)] for c, k in zip(cells, comp, strict=True) if k]
        if full_support_values:
            seen: list[set[object]] = [set() for _ in sizes]
            for row in rows:
                for j, v in enumerate(row[:-1]):
                    seen[j].add(v)
            if any(len(s) != len(v) for s, v in zip(seen, vals, strict=True)):
                continue
        yield JointDistribution.from_rows(
            names, rows, {n: list(v) for n, v in zip(names, vals, strict=True)}
        )


def tables_up_to(
    sizes: Sequence[int], max_denominator: int, full_support_values: bool = True
) -> Iterator[JointDistribution]:
    """``all_tables`` for denominators 1, 2, ..., ``max_denominator`` (duplicates skipped).

    Args:
        sizes: the domain size of each variable.
        max_denominator: the largest denominator enumerated.
        full_support_values: as for :func:`all_tables`.

    Yields:
        Each distinct table once, smallest denominator first.

    References:
        Li et al. (2019), Section III (the joint-table model ``theta`` of Eq. 2).
    """
    seen: set[tuple[object, ...]] = set()
    for d in range(1, max_denominator + 1):
        for t in all_tables(sizes, d, full_support_values):
            key = tuple(sorted(t.probs.items()))
            if key not in seen:
                seen.add(key)
                yield t


def random_table(
    rng: random.Random, sizes: Sequence[int], max_weight: int = 9, zero_prob: float = 0.2
) -> JointDistribution:
    """A seeded random exact table; cells are zero with probability ``zero_prob``.

    Args:
        rng: the seeded generator.
        sizes: the domain size of each variable.
        max_weight: the largest integer weight of a non-zero cell.
        zero_prob: the chance that a cell is zero.

    Returns:
        The table, its weights normalised exactly.

    References:
        Li et al. (2019), Section III (the joint-table model ``theta`` of Eq. 2).
    """
    cells = list(itertools.product(*(range(s) for s in sizes)))
    while True:
        weights = [0 if rng.random() < zero_prob else rng.randint(1, max_weight) for _ in cells]
        if sum(weights):
            break
    total = sum(weights)
    names = _names(len(sizes))
    rows = [[*c, Fraction(w, total)] for c, w in zip(cells, weights, strict=True) if w]
    return JointDistribution.from_rows(
        names, rows, {n: list(range(s)) for n, s in zip(names, sizes, strict=True)}
    )


def random_product(
    rng: random.Random, sizes: Sequence[int], max_weight: int = 9
) -> JointDistribution:
    """A seeded random product distribution with full-support marginals.

    Args:
        rng: the seeded generator.
        sizes: the domain size of each variable.
        max_weight: the largest integer weight of a marginal's value.

    Returns:
        The product of the random marginals, as a joint table.

    References:
        Li et al. (2019), Section III (independent records: the joint law is the product
        of the marginals).
    """
    margs = {}
    for name, s in zip(_names(len(sizes)), sizes, strict=True):
        w = [rng.randint(1, max_weight) for _ in range(s)]
        margs[name] = {str(v): Fraction(x, sum(w)) for v, x in enumerate(w)}
    return JointDistribution.product(margs)

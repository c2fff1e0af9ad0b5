"""Independent reference for the histogram of a Markov chain (no pdpsym code is used
here): the law of the states' counts given the target's state and the known records',
by listing every state sequence and multiplying the chain's transition probabilities in
Fractions (Li et al.'s Eq. 2 needs these laws; the Markov Quilt paper releases the
histogram).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction


def histogram_laws(
    init: Sequence[object],
    rows: Sequence[Sequence[object]],
    T: int,
    target: int,
    known: Mapping[int, int],
) -> dict[int, dict[tuple[int, ...], Fraction]]:
    """``P(histogram | x_target = a, x_K)`` for each state ``a``, over every ``k^T``
    sequence of a chain with initial law ``init`` and one transition matrix ``rows``.

    Args:
        init: the initial law (``k`` exact numbers or their text).
        rows: the transition matrix, ``rows[s][t] = P(x_{j+1} = t | x_j = s)``.
        T: the records.
        target: the target's position (0-based).
        known: known positions and their states.

    Returns:
        ``{a: {counts of each state: probability}}`` for each ``a`` of positive probability.
    """
    k = len(init)
    m = [[Fraction(x) for x in row] for row in rows]  # type: ignore[arg-type]
    out: dict[int, dict[tuple[int, ...], Fraction]] = {}
    for seq in itertools.product(range(k), repeat=T):
        if any(seq[i] != v for i, v in known.items()):
            continue
        p = Fraction(init[seq[0]])  # type: ignore[arg-type]
        for s, t in itertools.pairwise(seq):
            p *= m[s][t]
        if not p:
            continue
        h = tuple(seq.count(s) for s in range(k))
        law = out.setdefault(seq[target], {})
        law[h] = law.get(h, Fraction(0)) + p
    return {a: {h: p / sum(law.values()) for h, p in law.items()} for a, law in out.items()}

"""Randomized response's local laws, shared by the chain and network audits.

Every record ``j`` with ``k`` values is reported through randomized response:
``R(o | x) = keep`` if ``o = x`` else ``(1 - keep) / (k - 1)`` (Warner 1965).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from pdpsym.models.scenario import PMF

#: the most outcomes a dependent-neighbour pair is listed with (else ε alone)
MAX_GROUP_OUTCOMES = 20_000


def other_prob(keep: Fraction, k: int) -> Fraction:
    """The probability of reporting one given wrong value.

    Args:
        keep: the probability of reporting the true value.
        k: the number of values.

    Returns:
        ``(1 - keep) / (k - 1)`` (0 for one value).

    References:
        Warner (1965); Desfontaines et al. (2020), Section 2.
    """
    return (1 - keep) / (k - 1) if k > 1 else Fraction(0)


def group_pair(keep: Fraction, sizes: Sequence[int]) -> tuple[PMF, PMF] | None:
    """The worst dependent-neighbour pair over records of the given domain sizes: every
    record differs; outcomes keyed by ``(#o_j = x_j, #o_j = x'_j)`` per domain size.

    Args:
        keep: randomized response's keep probability.
        sizes: each record's domain size.

    Returns:
        The two exact laws, or None when they have more than
        :data:`MAX_GROUP_OUTCOMES` outcomes.

    References:
        Liu et al. (2016), Definition 4; Warner (1965).
    """
    classes: dict[int, int] = {}
    for k in sizes:
        classes[k] = classes.get(k, 0) + 1
    count = math.prod((n + 1) * (n + 2) // 2 for n in classes.values())
    if count > MAX_GROUP_OUTCOMES:
        return None
    p: PMF = {(): Fraction(1)}
    q: PMF = {(): Fraction(1)}
    for k, n in sorted(classes.items()):
        other = other_prob(keep, k)
        z = 1 - keep - other
        cp: PMF = {}
        cq: PMF = {}
        for plus in range(n + 1):
            for minus in range(n + 1 - plus):
                zero = n - plus - minus
                coef = math.factorial(n) // (
                    math.factorial(plus) * math.factorial(minus) * math.factorial(zero)
                )
                pp = coef * keep**plus * other**minus * z**zero
                qq = coef * other**plus * keep**minus * z**zero
                if pp:
                    cp[(k, plus, minus)] = pp
                if qq:
                    cq[(k, plus, minus)] = qq
        p = {a + (b,): x * y for a, x in p.items() for b, y in cp.items()}
        q = {a + (b,): x * y for a, x in q.items() for b, y in cq.items()}
    return p, q


__all__ = ["MAX_GROUP_OUTCOMES", "group_pair", "other_prob"]

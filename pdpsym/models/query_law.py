"""The interface every structured model offers: the law of a linear query, by dynamic
programming, given the target's value and the values of the known records.

A structured model (a Markov chain, independent records, a Bayesian network) never lists
its databases. What the privacy engines need from it is the exact law of the query
``f(x) = sum_k w_k x_k`` (integer weights) given ``x_target = a`` and ``x_K = v``: Li et
al.'s Eq. 2 and every notion with a noise mechanism on ``f`` take their conditional output
laws from it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Protocol, runtime_checkable

# the law of the query value: value -> probability (exact, sums to 1)
QueryLaw = dict[Fraction, Fraction]
# the known records' values: name -> value
Known = Mapping[str, Fraction]
# the query's integer weight per record name (None, or a record left out: weight 1)
QueryWeights = Mapping[str, int] | None


@runtime_checkable
class StructuredModel(Protocol):
    """What a structured model offers the engines (implemented by each kind)."""

    @property
    def variables(self) -> tuple[str, ...]:
        """The record names, in order."""
        ...

    def domain(self, name: str) -> tuple[Fraction, ...]:
        """The values record ``name`` can take (its declared states, as rationals)."""
        ...

    def query_law(
        self, target: str, value: Fraction, known: Known, weights: QueryWeights = None
    ) -> QueryLaw | None:
        """The exact law of ``sum_k w_k x_k`` given ``x_target = value`` and ``x_K = known``.

        ``weights`` defaults to 1 for every record. Returns None when the conditioning
        event has probability 0.
        """
        ...

    def size_hint(self) -> int:
        """A work unit count for ``--max-work`` checks (e.g. T * k^2 * T for a chain)."""
        ...


def records_law(
    model: StructuredModel, target: str, value: Fraction, known: Known, records: Sequence[str]
) -> dict[tuple[Fraction, ...], Fraction] | None:
    """The joint law of the values of ``records`` given ``x_target = value, x_K = known``,
    from one query law.

    With ``D`` the common denominator of the records' values and ``lo_r`` each record's
    least value, record ``r`` gets the integer weight ``R_r = prod_{r' < r} (c_{r'} + 1)``
    (``c_r`` its largest code ``D (x - lo_r)``) and every other record weight 0: the sum
    ``sum_r R_r x_r`` is ``sum_r R_r lo_r + (1/D) sum_r R_r D (x_r - lo_r)``, whose
    mixed-radix digits ``D (x_r - lo_r)`` are the records' values. A model with another
    query (a network's count or sum: ``state_query``) is read through its state values.

    Args:
        model: a structured model.
        target: the conditioning record.
        value: its value.
        known: the known records' values (disjoint from ``records``).
        records: the records whose joint law is wanted (none: the law ``{(): 1}``).

    Returns:
        ``{(x_r for r in records): probability}`` over the values of positive
        probability, or None when the condition has probability zero.

    References:
        Knuth, TAOCP vol. 2, Section 4.1 (mixed-radix numbers); Li et al. (2019),
        Section III, Eq. 2 (the conditional law of a linear query).
    """
    plain = getattr(model, "state_query", None)  # a network's count or sum query: its states
    if plain is not None:
        model = plain()
    doms = {r: tuple(model.domain(r)) for r in records}
    den = math.lcm(1, *(x.denominator for d in doms.values() for x in d))
    weights = {v: 0 for v in model.variables}
    digits = []  # (record, least value, radix, number of codes)
    radix = 1
    for r in records:
        lo = min(doms[r])
        size = int((max(doms[r]) - lo) * den) + 1
        weights[r] = radix
        digits.append((r, lo, radix, size))
        radix *= size
    law = model.query_law(target, value, known, weights)
    if law is None:
        return None
    base = sum((lo * rad for _, lo, rad, _ in digits), Fraction(0))
    out: dict[tuple[Fraction, ...], Fraction] = {}
    for s, p in law.items():
        if p:
            code = int((s - base) * den)
            key = tuple(lo + Fraction(code // rad % size, den) for _, lo, rad, size in digits)
            out[key] = out.get(key, Fraction(0)) + p
    return out

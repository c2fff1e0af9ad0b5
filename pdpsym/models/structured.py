"""The interface every structured model offers: the law of a linear query, by dynamic
programming, given the target's value and the values of the known records.

A structured model (a Markov chain, independent records, a Bayesian network) never lists
its databases. What the privacy engines need from it is the exact law of the query
``f(x) = sum_k w_k x_k`` (integer weights) given ``x_target = a`` and ``x_K = v``: Li et
al.'s Eq. 2 and every notion with a noise mechanism on ``f`` take their conditional output
laws from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Protocol, runtime_checkable

# the law of the query value: value -> probability (exact, sums to 1)
QueryLaw = dict[Fraction, Fraction]
# the known records' values: name -> value
Known = Mapping[str, Fraction]
# the query's integer weight per record name (None, or a record left out: weight 1)
Weights = Mapping[str, int] | None


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
        self, target: str, value: Fraction, known: Known, weights: Weights = None
    ) -> QueryLaw | None:
        """The exact law of ``sum_k w_k x_k`` given ``x_target = value`` and ``x_K = known``.

        ``weights`` defaults to 1 for every record. Returns None when the conditioning
        event has probability 0.
        """
        ...

    def size_hint(self) -> int:
        """A work unit count for ``--max-work`` checks (e.g. T * k^2 * T for a chain)."""
        ...

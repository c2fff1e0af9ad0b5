"""What the Markov chain and the product model share: records ``x_1..x_T`` with finite
rational domains, and the law of a linear query read off their count polynomials.

A subclass gives its record names (``_names``, None for ``x1..xT``), each record's domain
(``_record_domains``, cached as :attr:`RecordModel.record_domains`) and the count polynomials
(:meth:`~pdpsym.models.counts.CountModel.target_factors`); :class:`RecordModel` gives the
rest of :class:`~pdpsym.models.counts.CountModel`. The law of Li et al.'s Eq. 2 given
``x_i = a, x_K = v`` is ``n_c / J_{i,a}(1)`` on the coefficients of ``J_{i,a}``
(:func:`~pdpsym.models.counts.exact_law`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cached_property

from pdpsym.core.errors import InputError
from pdpsym.models.counts import Contributions, CountModel, contributions, exact_law
from pdpsym.models.query_law import Known, QueryLaw, QueryWeights


class RecordModel(CountModel):
    """Records named ``_names`` (default ``x1..xT``), each with a finite domain.

    References:
        Li et al. (2019), Section III, Eq. 2 (the conditional law of the query); Desfontaines
        et al., Section 4 (counts of independent records).
    """

    _names: tuple[str, ...] | None

    def _record_domains(self) -> Sequence[tuple[Fraction, ...]]:
        raise NotImplementedError  # each subclass lists its records' values

    @cached_property
    def record_domains(self) -> Sequence[tuple[Fraction, ...]]:
        """Each record's values, in record order (one entry per record)."""
        return self._record_domains()

    @cached_property
    def variables(self) -> tuple[str, ...]:  # type: ignore[override]
        """The record names, in order (``x1..xT`` unless named)."""
        if self._names is not None:
            return self._names
        return tuple(f"x{t + 1}" for t in range(len(self.record_domains)))

    @cached_property
    def _positions(self) -> dict[str, int]:
        return {name: t for t, name in enumerate(self.variables)}

    def index(self, name: str, field_name: str = "variable") -> int:
        """The position of record ``name``; an :class:`InputError` naming ``field_name``
        when there is no such record."""
        try:
            return self._positions[name]
        except KeyError:
            raise InputError(field_name, f"unknown record {name!r}") from None

    def domain(self, name: str) -> tuple[Fraction, ...]:
        """The values record ``name`` can take."""
        return self.record_domains[self.index(name)]

    def contributions(self, weights: QueryWeights = None) -> Contributions:
        """The integer contributions of the query (:func:`~pdpsym.models.counts.contributions`)."""
        return contributions(self.variables, self.record_domains, weights)

    def query_law(
        self, target: str, value: Fraction, known: Known, weights: QueryWeights = None
    ) -> QueryLaw | None:
        """The exact law of ``sum_t w_t x_t`` given ``x_target = value`` and ``x_K``, from
        the target's count polynomials (see
        :meth:`~pdpsym.models.query_law.StructuredModel.query_law`)."""
        value = Fraction(value)
        if value not in self.domain(target):
            raise InputError("value", f"{value} is not a value of {target!r}")
        contrib = self.contributions(weights)
        for _, factors in self.target_factors([target], known, weights):
            return exact_law(factors[value], contrib)
        return None  # pragma: no cover


__all__ = ["RecordModel"]

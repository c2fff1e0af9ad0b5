"""What the count engines need from a structured model, beyond
:class:`~pdpsym.models.query_law.StructuredModel`: exact integer generating polynomials.

For a query ``f(x) = sum_t w_t x_t`` (integer weights, rational record values) every
record contributes ``w_t x_t``. Scaled by the common denominator ``D`` of the values and
shifted by the smallest contribution, record ``t`` in state ``s`` adds the non-negative
integer ``c_t(s) = D w_t v_s - min_s' D w_t v_s'`` to a count ``S``, and

    f(x) = (S + offset) / D.

A :class:`CountModel` yields, for each target ``i`` and each value ``a`` of it, integer
polynomials whose product ``J_{i,a}(z) = sum_c n_c z^c`` is proportional to
``P(S = c, x_i = a, x_K = v)`` (the same factor for every ``a`` of one target). The law
of Eq. 2 given ``x_i = a, x_K = v`` is ``n_c / J_{i,a}(1)``; ``J_{i,a} = 0`` means the
event has probability zero.

What the Markov chain and the product model share is :class:`RecordModel`: records
``x_1..x_T`` with finite rational domains. A subclass gives its record names (``_names``,
None for ``x1..xT``), each record's domain (``_record_domains``, cached as
:attr:`RecordModel.record_domains`) and the count polynomials
(:meth:`CountModel.target_factors`); :class:`RecordModel` gives the rest of
:class:`CountModel`, the law of a linear query included (:func:`exact_law`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Protocol, runtime_checkable

from pdpsym.core import poly
from pdpsym.core.errors import InputError
from pdpsym.models.query_law import Known, QueryLaw, QueryWeights, StructuredModel

#: target value -> integer polynomial factors of J_{i,a}
TargetFactors = dict[Fraction, tuple[poly.IntPoly, ...]]


class RecordTable:
    """A mixin for a dataclass with a ``table`` field: per record, the integer
    contributions ``c_t(s)`` of its states (the count is their sum over the records)."""

    table: tuple[tuple[int, ...], ...]

    @property
    def length(self) -> int:
        """``T``, the number of records."""
        return len(self.table)

    @property
    def span(self) -> int:
        """``N``, the largest possible count."""
        return sum(max(row) for row in self.table)


@dataclass(frozen=True)
class Contributions:
    """The integer contributions ``c_t(s)`` of every record (see the module docstring)."""

    scale: int
    offset: Fraction
    table: tuple[tuple[int, ...], ...]

    @cached_property
    def span(self) -> int:
        """``N``, the largest possible count (computed once: engines ask per target)."""
        return sum(max(row) for row in self.table)

    def value_of(self, count: int) -> Fraction:
        """The query value of count ``count``."""
        return (Fraction(count) + self.offset) / self.scale


def contributions(
    variables: Sequence[str],
    domains: Sequence[Sequence[Fraction]],
    weights: Mapping[str, int] | None,
) -> Contributions:
    """The scaled, shifted contributions of a linear query with integer weights.

    Args:
        variables: record names, in order.
        domains: each record's values (rationals).
        weights: integer weight per record name (default 1; unnamed records keep 1).

    Returns:
        The :class:`Contributions` (scale ``D``, offset, table ``c_t(s)``).

    References:
        Li et al. (2019), Section III, Eq. 2 (the query ``f`` whose law the engines need);
        the scaling to integer counts is the generating-function method of Wilf,
        "generatingfunctionology" (1994), Section 1.
    """
    w: dict[str, int] = {}
    names = set(variables)  # a set: a weight per record is checked in O(1), not O(n)
    for name, value in (weights or {}).items():
        if name not in names:
            raise InputError("weights", f"unknown record {name!r}")
        q = Fraction(value)
        if q.denominator != 1:
            raise InputError(f"weights[{name}]", f"must be an integer, got {q}")
        w[name] = int(q)
    scale = 1
    for dom in domains:
        for v in dom:
            scale = math.lcm(scale, Fraction(v).denominator)
    table: list[tuple[int, ...]] = []
    offset = Fraction(0)
    for name, dom in zip(variables, domains, strict=True):
        raw = [int(w.get(name, 1) * Fraction(v) * scale) for v in dom]
        low = min(raw)
        offset += low
        table.append(tuple(r - low for r in raw))
    return Contributions(scale, offset, tuple(table))


@dataclass(frozen=True)
class ZeroPlan:
    """A question asked of a count model (its targets, known records and integer query
    weights) with the targets whose Eq. 2 leakage is exactly 0, as a Bayesian network's
    graph and tables show them (:func:`pdpsym.models.bayesnet_zeros.zero_plan`):
    ``decided`` says, for each zero settled without its laws, whether it has a
    compatible pair (leakage 0) or none; ``by_tables``: the zeros that the graph alone
    does not show (a dropped edge or an averaged table)."""

    targets: tuple[str, ...]
    known: tuple[str, ...]
    weights: Mapping[str, int] | None = None
    zeros: tuple[str, ...] = ()
    decided: Mapping[str, bool] = field(default_factory=dict)
    by_tables: frozenset[str] = frozenset()


@runtime_checkable
class CountModel(StructuredModel, Protocol):
    """A structured model whose count laws come as exact integer polynomials."""

    @property
    def assignment_invariant(self) -> bool:
        """True when the known records' values only shift the count (independent
        records): the engines then need one compatible assignment of them, not all."""
        ...

    def contributions(self, weights: QueryWeights = None) -> Contributions:
        """The integer contributions of the query (see :func:`contributions`)."""
        ...

    def target_factors(
        self, targets: Sequence[str], known: Known, weights: QueryWeights = None
    ) -> Iterator[tuple[str, TargetFactors]]:
        """For each target (in the given order), value -> factors of ``J_{i,a}``."""
        ...

    def dependence_groups(self) -> list[tuple[str, ...]]:
        """The records split into groups that are mutually independent (group DP)."""
        ...


def query_contributions(model: StructuredModel, weights: Mapping[str, int] | None) -> Contributions:
    """The integer contributions of a structured model's query: the model's own
    (``contributions``: a network's count or sum query counts its listed records only),
    else those of the records' values.

    Args:
        model: a structured model.
        weights: integer weight per record name (default 1).

    Returns:
        The :class:`Contributions` of ``f``.

    References:
        Li et al. (2019), Section III, Eq. 2 (the query ``f``).
    """
    own = getattr(model, "contributions", None)
    if own is not None:
        return own(weights)  # type: ignore[no-any-return]
    return contributions(model.variables, [model.domain(v) for v in model.variables], weights)


def exact_law(
    factors: Sequence[poly.IntPoly], contrib: Contributions
) -> dict[Fraction, Fraction] | None:
    """The exact law ``value -> probability`` of the product of ``factors``.

    Args:
        factors: integer polynomials whose product ``J(z) = sum_c n_c z^c`` has ``n_c``
            proportional to the probability of count ``c``.
        contrib: the contributions that map a count ``c`` to a query value.

    Returns:
        ``{query value: n_c / J(1)}`` over the non-zero coefficients, or None when
        ``J = 0`` (the conditioning event has probability zero).

    References:
        Li et al. (2019), Section III, Eq. 2 (the conditional law of the query).
    """
    j = poly.product(factors)
    norm = poly.total(j)
    if norm == 0:
        return None
    return {contrib.value_of(c): Fraction(n, norm) for c, n in enumerate(poly.coefficients(j)) if n}


def exact_joint_law(
    model: CountModel, target: str, known: Known, weights: QueryWeights = None
) -> dict[Fraction, dict[Fraction, Fraction]] | None:
    """The joint law of the target's value and the query given the known records.

    Every ``J_{i,a}`` of :meth:`CountModel.target_factors` is ``P(S = c, x_i = a, x_K =
    v)`` up to one factor common to every ``a``, so dividing by ``sum_a J_{i,a}(1)``
    gives ``P(x_i = a, f = s | x_K = v)``.

    Args:
        model: a count model.
        target: the target record ``i``.
        known: the known records' values ``x_K = v``.
        weights: the query's integer weights (default 1).

    Returns:
        ``{a: {query value s: P(x_i = a, f = s | x_K = v)}}`` over the values ``a`` of
        positive probability (summing to 1 over every ``a`` and ``s``), or None when
        ``x_K = v`` has probability zero.

    References:
        Desfontaines et al. (2020), Section 2.2, Definition 6 (the posteriors of
        ``D(i)`` given the output and ``B̂``); Li et al. (2019), Section III, Eq. 2.
    """
    contrib = model.contributions(weights)
    joint: dict[Fraction, poly.IntPoly] = {}
    for _, factors in model.target_factors([target], known, weights):
        joint = {a: poly.product(fs) for a, fs in factors.items()}
    norm = sum(poly.total(j) for j in joint.values())
    if norm == 0:
        return None
    out: dict[Fraction, dict[Fraction, Fraction]] = {}
    for a, j in joint.items():
        law = {
            contrib.value_of(c): Fraction(n, norm) for c, n in enumerate(poly.coefficients(j)) if n
        }
        if law:
            out[a] = law
    return out


def check_known(
    variables: Sequence[str],
    domain_of: Mapping[str, Sequence[Fraction]],
    known: Mapping[str, Fraction],
) -> dict[str, Fraction]:
    """Validate the known records' names and values.

    Args:
        variables: the model's record names.
        domain_of: each known-able record's values.
        known: the known records' values (name -> value).

    Returns:
        The known values as rationals, by name.

    Raises:
        InputError: an unknown record (``known``) or a value outside its domain
            (``known[name]``).

    References:
        Li et al. (2019), Section III (the adversary ``A(i, K)`` knows ``x_K``).
    """
    out: dict[str, Fraction] = {}
    for name, value in known.items():
        if name not in domain_of:
            raise InputError("known", f"unknown record {name!r}")
        v = Fraction(value)
        if v not in domain_of[name]:
            raise InputError(f"known[{name}]", f"{v} is not a state of {name!r}")
        out[name] = v
    return out


def record_count(model: CountModel) -> int:
    """The number of records, without listing their names (a chain of 10^6 records has
    a length, not a list).

    Args:
        model: a count model.

    Returns:
        The number of records.

    References:
        Li et al. (2019), Section III (the n records of the database).
    """
    n = getattr(model, "length", None)
    return int(n) if n is not None else len(model.variables)


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


__all__ = [
    "record_count",
    "Contributions",
    "CountModel",
    "RecordModel",
    "RecordTable",
    "TargetFactors",
    "ZeroPlan",
    "check_known",
    "contributions",
    "exact_joint_law",
    "exact_law",
]

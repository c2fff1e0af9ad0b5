"""The mechanism interface: what the engines ask a mechanism, never which class it is.

Two kinds of mechanism reach the engines that do not list databases:

* a :class:`QueryMechanism` releases a kernel of the weighted sum
  ``f(x) = sum_k w_k x_k``: Laplace noise, two-sided geometric noise, the count itself,
  thresholding. Its output law under any condition on the records is the kernel mixed
  over the conditional law of ``f`` (the model's ``query_law``), so a pair of query laws
  is a pair of output laws, and the engines turn it into one
  :class:`~pdpsym.loss.base.PrivacyLoss` (a Laplace pair, or two finite PMFs). What they
  ask it is :meth:`QueryMechanism.on_sum`, its kernel as a :class:`SumMechanism`.
* a :class:`ReportMechanism` releases every record through its own report law
  ``R_j(o | x)`` (randomized response): the engines take the reports' laws from the
  records' joint law; a symmetric one (:meth:`ReportMechanism.symmetric_keep`) also has
  the engines of long chains (report cones and windows).

A finite mechanism ``D -> {output: probability}`` (:mod:`pdpsym.mechanisms.finite`) is
neither: the finite-table engine calls it on every database.

::

    model.query_law(target, a, x_K)  --QueryMechanism-->  output law P_a  \\
    model.query_law(target, b, x_K)  --QueryMechanism-->  output law P_b  --> PrivacyLoss
    records' joint law               --ReportMechanism--> reports' laws   /

References:
    Dwork and Roth (2014), Definition 3.3 (the Laplace mechanism); Desfontaines et al.
    (2020), Definitions 15 and 19 (thresholding, geometric noise); Warner (1965)
    (randomized response); Song, Wang, Chaudhuri (2017) (mechanisms on a query of
    correlated records).
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_rational
from pdpsym.models.scenario import PMF

if TYPE_CHECKING:  # the model type is only named in signatures
    from pdpsym.models.joint import JointDistribution


@dataclass(frozen=True)
class LinearQuery:
    """``f(x) = sum_k w_k x_k``; variables without a weight have weight 0.

    Examples:
        >>> from fractions import Fraction
        >>> from pdpsym import LinearQuery
        >>> LinearQuery({"x1": Fraction(2)}).weight("x1"), LinearQuery({"x1": Fraction(2)}).weight("x2")
        (Fraction(2, 1), Fraction(0, 1))
    """

    weights: Mapping[str, Fraction]

    @classmethod
    def sum(cls, variables: Iterable[str]) -> LinearQuery:
        """The sum query: weight 1 on each of ``variables``.

        Args:
            variables: the names of the summed variables.

        Returns:
            The linear query ``Σ_k x_k``.

        References:
            Li et al. (2019), Section III-A3 (linear queries, the sum).
        """
        return cls({v: Fraction(1) for v in variables})

    @classmethod
    def count(cls, variables: Iterable[str]) -> LinearQuery:
        """The number of tuples equal to 1, for 0/1-valued tuples (weights 1)."""
        return cls.sum(variables)

    @classmethod
    def mean(cls, variables: Sequence[str]) -> LinearQuery:
        """The mean query: weight ``1/n`` on each of the ``n`` ``variables``.

        Args:
            variables: the names of the averaged variables (at least one).

        Returns:
            The linear query ``(1/n) Σ_k x_k``.

        References:
            Li et al. (2019), Section III-A3 (linear queries, the mean).
        """
        return cls({v: Fraction(1, len(variables)) for v in variables})

    @classmethod
    def histogram_cell(cls, variables: Iterable[str], members: Iterable[str]) -> LinearQuery:
        """The count over the tuples ``members`` (0/1 indicators of a histogram cell)."""
        cell = set(members)
        return cls({v: Fraction(int(v in cell)) for v in variables})

    @classmethod
    def from_text(cls, model: JointDistribution, text: str | None) -> LinearQuery:
        """Parse ``"x1=1,x2=1/2"``; unnamed variables keep weight 1 (the sum's default)."""
        weights = {v: Fraction(1) for v in model.variables}
        if not text:
            return cls(weights)
        seen = set()
        for part in text.split(","):
            if "=" not in part:
                raise InputError("weights", f"expected NAME=WEIGHT, got {part.strip()!r}")
            name, value = (s.strip() for s in part.split("=", 1))
            if name not in weights:
                raise InputError("weights", f"unknown variable {name!r}")
            if name in seen:
                raise InputError("weights", f"duplicate variable {name!r}")
            seen.add(name)
            weights[name] = parse_rational(value, f"weights.{name}")
        return cls(weights)

    def weight(self, name: str) -> Fraction:
        """The weight ``w_k`` of one variable (0 when it has none).

        Args:
            name: the variable's name.

        Returns:
            The exact weight as a Fraction.

        References:
            Li et al. (2019), Section III-A3.
        """
        return Fraction(self.weights.get(name, 0))

    def sensitivity(self, model: JointDistribution, name: str) -> Fraction:
        """``Delta_k = |w_k| (max X_k - min X_k)``."""
        dom = model.domain(name)
        return abs(self.weight(name)) * (max(dom) - min(dom))


class QueryMechanism(abc.ABC):
    """A mechanism that releases a kernel of the weighted sum ``f(x) = sum_k w_k x_k``.

    Subclasses hold ``weights`` (record -> weight; a record not listed has weight 1;
    None: all 1) and give :meth:`on_sum`.
    """

    weights: Mapping[str, Fraction] | None

    @abc.abstractmethod
    def on_sum(self) -> SumMechanism:
        """The mechanism's kernel on the weighted sum.

        Returns:
            The :class:`SumMechanism` the engines compute with.
        """

    def query_for(self, model: JointDistribution) -> LinearQuery:
        """The linear query on ``model``'s variables (unnamed ones keep weight 1).

        Args:
            model: the joint table whose variables the weights name.

        Returns:
            The :class:`~pdpsym.mechanisms.laplace.LinearQuery`.

        Raises:
            InputError: (field ``weights``) a weight names no variable of the model.
        """
        weights = {v: Fraction(1) for v in model.variables}
        for name, w in (self.weights or {}).items():
            if name not in weights:
                raise InputError("weights", f"unknown variable {name!r}")
            weights[name] = Fraction(w)
        return LinearQuery(weights)


@dataclass(frozen=True)
class SumMechanism(QueryMechanism):
    """A kernel on the weighted sum ``f(x) = Σ_k w_k x_k`` of a structured model: one
    subclass per mechanism (:mod:`pdpsym.mechanisms.sum_kernels`), each knowing its
    kernel; the engines ask it, never its name.

    Args:
        weights: record -> weight; a record not listed has weight 1 (None: all 1).

    A continuous kernel (Laplace noise) has a scale :attr:`lam` and no finite output
    laws; a finite one (the count, thresholding, geometric noise) gives its output laws
    mixed over query laws (:meth:`output_laws`). ``kind`` is the mechanism's name (for
    JSON and messages); :attr:`alpha` and :attr:`T` are the geometric parameter and the
    threshold, None where they do not apply.
    """

    weights: Mapping[str, Fraction] | None = None
    kind: ClassVar[str] = ""

    @property
    def lam(self) -> Fraction | None:
        """The Laplace scale of a continuous kernel, else None."""
        return None

    @property
    def alpha(self) -> Fraction | None:
        """The geometric parameter, else None."""
        return None

    @property
    def T(self) -> Fraction | None:  # noqa: N802 (the threshold's name in the paper)
        """The threshold, else None."""
        return None

    @abc.abstractmethod
    def output_laws(self, laws: Sequence[Mapping[Fraction, Fraction]]) -> list[PMF] | None:
        """The kernel's output law mixed over each query law, on one output range.

        Args:
            laws: laws (or unnormalized weights) of the query value.

        Returns:
            One exact PMF per law (a finite kernel), or None (a continuous kernel: the
            engines take its pairs of mixtures by its scale).
        """

    def on_sum(self) -> SumMechanism:
        """Itself.

        Returns:
            This :class:`SumMechanism`.
        """
        return self


class ReportMechanism(abc.ABC):
    """A mechanism that releases every record ``j`` through its own report law
    ``R_j(o | x)``, independently: ``M(o | D) = prod_j R_j(o_j | D(j))``.

    Subclasses hold ``domains`` (each record's values, in order) and give
    :meth:`report_law`.
    """

    domains: tuple[tuple[Any, ...], ...]

    @abc.abstractmethod
    def report_law(self, j: int, x: Any) -> PMF:
        """``R_j(. | x)``: the law of record ``j``'s report when its value is ``x``.

        Args:
            j: the record's index.
            x: its value (in ``domains[j]``).

        Returns:
            ``{report: exact probability}``.
        """

    def symmetric_keep(self) -> Fraction | None:
        """The probability ``keep`` of the true report when every report law puts
        ``keep`` on the value and spreads the rest evenly over the other values (the form
        the report-cone and report-window engines compute with); None otherwise.

        Returns:
            ``keep``, or None (the default: the engines then use the report laws).
        """
        return None


__all__ = ["LinearQuery", "QueryMechanism", "ReportMechanism", "SumMechanism"]

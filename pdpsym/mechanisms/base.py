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
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pdpsym.core.errors import InputError
from pdpsym.models.scenario import PMF

if TYPE_CHECKING:  # the query type is only named in signatures
    from pdpsym.mechanisms.laplace import LinearQuery
    from pdpsym.models.joint import JointDistribution

#: the kernels of a :class:`SumMechanism`
SUM_KINDS = ("laplace", "geometric", "count", "threshold")


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
        from pdpsym.mechanisms.laplace import LinearQuery  # noqa: PLC0415 (it imports this module)

        weights = {v: Fraction(1) for v in model.variables}
        for name, w in (self.weights or {}).items():
            if name not in weights:
                raise InputError("weights", f"unknown variable {name!r}")
            weights[name] = Fraction(w)
        return LinearQuery(weights)


@dataclass(frozen=True)
class SumMechanism(QueryMechanism):
    """A mechanism on the weighted sum ``f(x) = Σ_k w_k x_k`` of a structured model.

    Args:
        kind: ``"laplace"`` (scale ``lam``), ``"geometric"`` (parameter ``alpha``,
            Desfontaines et al. Definition 19), ``"count"`` (``f`` itself) or
            ``"threshold"`` (``f`` if ``f > T`` else ``⊥``, Definition 15).
        weights: record -> weight; a record not listed has weight 1 (None: all 1).
        lam: the Laplace scale (``laplace``).
        alpha: the geometric parameter in ``(0, 1)`` (``geometric``).
        T: the threshold (``threshold``).
    """

    kind: str
    weights: Mapping[str, Fraction] | None = None
    lam: Fraction | None = None
    alpha: Fraction | None = None
    T: Fraction | None = None

    def __post_init__(self) -> None:
        if self.kind not in SUM_KINDS:
            raise InputError("kind", f"unknown kind {self.kind!r}; known: {', '.join(SUM_KINDS)}")
        if self.kind == "laplace" and (self.lam is None or self.lam <= 0):
            raise InputError("lam", "must be > 0")
        if self.kind == "geometric" and (self.alpha is None or not 0 < self.alpha < 1):
            raise InputError("alpha", "must lie in (0, 1)")
        if self.kind == "threshold" and self.T is None:
            raise InputError("T", "missing")

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


__all__ = ["SUM_KINDS", "QueryMechanism", "ReportMechanism", "SumMechanism"]

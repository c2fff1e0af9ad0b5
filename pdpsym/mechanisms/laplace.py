"""The Laplace mechanism on a linear query (Li et al. Sec. III).

``f(x) = sum_k w_k x_k`` released as ``f(x) + Lap(lambda)``, with output density
``p(r | x) = exp(-|r - f(x)| / lambda) / (2 lambda)``. Presets: sum (all weights 1),
count (weights 1 over 0/1 tuples: the number of tuples equal to 1), mean (weights 1/n),
and a histogram cell (weights 1 on the tuples that make up the cell, 0 elsewhere).

The local sensitivity of tuple k is ``Delta_k = |w_k| (max X_k - min X_k)``: "the local
sensitivity of x is its own domain" (our reading of the lost formula, Sec. III).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_positive, parse_rational
from pdpsym.mechanisms.base import QueryMechanism, SumMechanism
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


@dataclass(frozen=True)
class LaplaceNoise(QueryMechanism):
    """Laplace noise of scale ``lam`` on a linear query (weights default to 1 each): a
    :class:`~pdpsym.mechanisms.base.QueryMechanism`.

    Its outputs are continuous; the exact leakage is Li et al.'s Eq. 2
    (:func:`pdpsym.loss.leakage.leakage`).
    """

    lam: Fraction
    weights: Mapping[str, Fraction] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.lam, Fraction | int) or isinstance(self.lam, bool):
            raise InputError("lam", f"expected an exact number, got {self.lam!r}")
        if self.lam <= 0:
            raise InputError("lam", "must be > 0")

    def on_sum(self) -> SumMechanism:
        """The Laplace kernel on the weighted sum.

        Returns:
            ``SumMechanism("laplace", weights, lam=lam)``.
        """
        return SumMechanism("laplace", self.weights, lam=Fraction(self.lam))


def laplace(
    lam: Fraction | int | str, weights: Mapping[str, Fraction | int | str] | None = None
) -> LaplaceNoise:
    """``f(D) + Lap(lam)`` for the linear query with the given weights (default 1 each).

    Args:
        lam: the Laplace scale ``λ > 0``, exact (int, Fraction or a string such as
            ``"1/2"``).
        weights: the weights ``w_k`` by variable name (exact numbers); variables left out
            keep weight 1 when the query is bound to a model. ``None``: the sum.

    Returns:
        A :class:`LaplaceNoise` with exact ``lam`` and weights.

    Raises:
        InputError: (field ``lam`` or ``weights.NAME``) for a value that is not an exact
            number, or ``λ ≤ 0``.

    References:
        Li et al. (2019), Section III-B (the Laplace mechanism) and Section IV-A, Eq. 2
        (the leakage it is measured by).

    >>> laplace("1/2", {"x1": 2}).lam
    Fraction(1, 2)
    """
    ws = (
        None
        if weights is None
        else {k: parse_rational(v, f"weights.{k}") for k, v in weights.items()}
    )
    return LaplaceNoise(parse_positive(lam, "lam"), ws)


def parse_lambda(text: object) -> Fraction:
    """The Laplace scale ``λ > 0`` from user text, exactly.

    Args:
        text: an int, a Fraction or a string in the strict number grammar (``"1/2"``,
            ``"1e-3"``); floats are refused.

    Returns:
        ``λ`` as a Fraction.

    Raises:
        InputError: (field ``lam``) if ``text`` is not an exact number or ``λ ≤ 0``.

    References:
        Li et al. (2019), Section III-B (the Laplace scale λ).
    """
    return parse_positive(text, "lam")


__all__ = ["LaplaceNoise", "LinearQuery", "laplace", "parse_lambda"]

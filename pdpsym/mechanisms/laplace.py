"""The Laplace mechanism on a linear query (Li et al. Sec. III).

``f(x) = sum_k w_k x_k`` released as ``f(x) + Lap(lambda)``, with output density
``p(r | x) = exp(-|r - f(x)| / lambda) / (2 lambda)``. Presets: sum (all weights 1),
count (weights 1 over 0/1 tuples: the number of tuples equal to 1), mean (weights 1/n),
and a histogram cell (weights 1 on the tuples that make up the cell, 0 elsewhere).

The local sensitivity of tuple k is ``Delta_k = |w_k| (max X_k - min X_k)``: "the local
sensitivity of x is its own domain" (our reading of the lost formula, Sec. III).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_positive, parse_rational
from pdpsym.mechanisms.base import LinearQuery, QueryMechanism, SumMechanism
from pdpsym.mechanisms.sum_kernels import LaplaceSum


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
            ``LaplaceSum(weights, lam)``.
        """
        return LaplaceSum(self.weights, Fraction(self.lam))


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

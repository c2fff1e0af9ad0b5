"""The kernels on the weighted sum, one subclass of
:class:`~pdpsym.mechanisms.base.SumMechanism` per mechanism: Laplace noise, two-sided
geometric noise, the count itself and thresholding. Each checks its own parameters and
knows its kernel; :data:`SUM_MECHANISMS` names them for the model files.

References:
    Dwork and Roth (2014), Definition 3.3 (the Laplace mechanism); Desfontaines et al.
    (2020), Definition 15 (thresholding) and Definition 19 (geometric noise).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from pdpsym.core.errors import InputError
from pdpsym.mechanisms.base import SumMechanism
from pdpsym.mechanisms.finite import BOTTOM
from pdpsym.models.scenario import PMF

Law = Mapping[Fraction, Fraction]


@dataclass(frozen=True)
class LaplaceSum(SumMechanism):
    """``f(x) + Lap(lam)``: a continuous kernel (the engines take its Laplace pairs).

    Args:
        weights: record -> weight (None: all 1).
        lam: the Laplace scale, ``> 0``.

    References:
        Dwork and Roth (2014), Definition 3.3.
    """

    lam: Fraction | None = None  # type: ignore[assignment]
    kind: ClassVar[str] = "laplace"

    def __post_init__(self) -> None:
        if self.lam is None or self.lam <= 0:
            raise InputError("lam", "must be > 0")

    def output_laws(self, laws: Sequence[Law]) -> list[PMF] | None:
        """None: Laplace outputs are continuous (the engines use the scale)."""
        return None


@dataclass(frozen=True)
class CountSum(SumMechanism):
    """``f(x)`` itself: each query law is its own output law.

    References:
        Desfontaines et al. (2020), Section 4 (the count released exactly).
    """

    kind: ClassVar[str] = "count"

    def output_laws(self, laws: Sequence[Law]) -> list[PMF] | None:
        """The query laws, as they are."""
        return [dict(law) for law in laws]


@dataclass(frozen=True)
class ThresholdSum(SumMechanism):
    """``f(x)`` if ``f(x) > T``, else ``⊥``.

    Args:
        weights: record -> weight (None: all 1).
        T: the threshold.

    References:
        Desfontaines et al. (2020), Section 4, Definition 15.
    """

    T: Fraction | None = None  # type: ignore[assignment]
    kind: ClassVar[str] = "threshold"

    def __post_init__(self) -> None:
        if self.T is None:
            raise InputError("T", "missing")

    def output_laws(self, laws: Sequence[Law]) -> list[PMF] | None:
        """Each law with the values at most ``T`` lumped into ``⊥``."""
        assert self.T is not None
        out = []
        for law in laws:
            pmf: dict[Any, Fraction] = {}
            for s, p in law.items():
                o = s if s > self.T else BOTTOM
                pmf[o] = pmf.get(o, Fraction(0)) + p
            out.append(pmf)
        return out


@dataclass(frozen=True)
class GeometricSum(SumMechanism):
    """``f(x) + Z`` with ``P(Z = k) = (1 - alpha)/(1 + alpha) alpha^|k|`` on an
    integer-valued query.

    Args:
        weights: record -> weight (None: all 1).
        alpha: the geometric parameter in ``(0, 1)``.

    References:
        Desfontaines et al. (2020), Section 5.2, Definition 19.
    """

    alpha: Fraction | None = None  # type: ignore[assignment]
    kind: ClassVar[str] = "geometric"

    def __post_init__(self) -> None:
        if self.alpha is None or not 0 < self.alpha < 1:
            raise InputError("alpha", "must lie in (0, 1)")

    def output_laws(self, laws: Sequence[Law]) -> list[PMF] | None:
        """Each law's geometric mixture on the outputs ``lo..hi`` (the least and largest
        centre of every law) and the two lumped tails
        (:func:`geometric_mixture_pmf`).

        Raises:
            InputError: (field ``weights``) a non-integer query value.
        """
        assert self.alpha is not None
        centres = [s for law in laws for s in law]
        for s in centres:
            if s.denominator != 1:
                raise InputError("weights", "geometric noise needs an integer-valued query")
        if not centres:
            return [{} for _ in laws]
        lo, hi = int(min(centres)), int(max(centres))
        return [geometric_mixture_pmf(law, self.alpha, lo, hi) if law else {} for law in laws]


def geometric_mixture_pmf(
    weights: Mapping[Fraction, Fraction], alpha: Fraction, lo: int, hi: int
) -> dict[Any, Fraction]:
    """A geometric mixture's PMF on ``lo..hi``, the two infinite tails lumped.

    ``P(o) = (1-α)/(1+α) Σ_s w(s) α^{|o-s|}`` for ``lo ≤ o ≤ hi``; the outputs below ``lo``
    become one output ``"<lo"`` of mass ``Σ_s w(s) α^{s-lo+1}/(1+α)``, those above ``hi``
    one output ``">hi"`` of mass ``Σ_s w(s) α^{hi-s+1}/(1+α)``. With ``lo`` and ``hi`` at
    or beyond the extreme centres, the likelihood ratio of two such mixtures is
    constant on each tail, so δ(ε) and ε(δ) are unchanged by the lumping.

    Args:
        weights: integer centre ``s`` -> exact non-negative weight ``w(s)``.
        alpha: the geometric parameter, an exact rational in (0, 1).
        lo: the lowest kept output (at most the smallest centre).
        hi: the highest kept output (at least the largest centre).

    Returns:
        ``{"<lo": ..., Fraction(lo): ..., ..., Fraction(hi): ..., ">hi": ...}``, exact
        (summing to ``Σ_s w(s)``).

    References:
        Desfontaines et al. (2020), Section 5.2, Definition 19.
    """
    c = (1 - alpha) / (1 + alpha)
    out: dict[Any, Fraction] = {
        f"<{lo}": sum((w * alpha ** int(s - lo + 1) for s, w in weights.items()), Fraction(0))
        / (1 + alpha)
    }
    for o in range(lo, hi + 1):
        out[Fraction(o)] = c * sum(
            (w * alpha ** int(abs(o - s)) for s, w in weights.items()), Fraction(0)
        )
    out[f">{hi}"] = sum((w * alpha ** int(hi - s + 1) for s, w in weights.items()), Fraction(0)) / (
        1 + alpha
    )
    return out


#: the kernels on the sum by their names in model files
SUM_MECHANISMS: dict[str, type[SumMechanism]] = {
    k.kind: k for k in (LaplaceSum, GeometricSum, CountSum, ThresholdSum)
}


__all__ = [
    "SUM_MECHANISMS",
    "CountSum",
    "GeometricSum",
    "LaplaceSum",
    "ThresholdSum",
    "geometric_mixture_pmf",
]

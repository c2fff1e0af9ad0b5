"""A count plus two-sided geometric noise (Desfontaines et al. Definition 19, Figure 6).

``M(D) = Σ_j D(j) + G`` with ``P[G = k] = (1-α)/(1+α) α^{|k|}``. For a target whose
uncertain peers count ``S`` (a Poisson binomial ``law``), the two hypotheses give
``S + 1 + G`` and ``S + G``; with ``c = (1-α)/(1+α)`` and ``P_a(o) = c Σ_s P[S=s]
α^{|o-s-a|}``,

    δ(ε) = max_{(a, a') ∈ {(1,0), (0,1)}} Σ_{o ∈ ℤ} (P_a(o) - e^ε P_{a'}(o))_+.

Above ``m`` (below 1) the ratio ``P_1/P_0`` is the constant ``1/α`` (``α``), so each tail's
summands have one sign and sum in closed form (a geometric series); the middle
``o = 1..m`` is finite. δ(ε) is ``A - e^ε B`` with rational ``A, B``
(:func:`pdpsym.mechanisms.geometric.convolution_delta`, the engine). The same pair is the
two :class:`~pdpsym.loss.geometric_pair.GeometricPair` of shifted centres, which give
ε(0) and the limit of δ.

>>> from fractions import Fraction as F
>>> from pdpsym.mechanisms.count_law import CountLaw
>>> str(GeometricConvolutionLoss(CountLaw.homogeneous(0, F(1, 2)), F(1, 2)).delta(0).value)
'1/3'
"""

from __future__ import annotations

from fractions import Fraction

from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.loss.base import LossPoint, PrivacyLoss, WorstCase, worst_case
from pdpsym.loss.geometric_pair import GeometricPair
from pdpsym.mechanisms.count_law import CountLaw
from pdpsym.mechanisms.geometric import convolution_delta


class GeometricConvolutionLoss(PrivacyLoss):
    """The count of a target's peers (law ``law``) plus two-sided geometric noise ``α``.

    Args:
        law: the law of the target's uncertain peers' count ``S`` (exact PMF).
        alpha: the noise parameter ``0 < α < 1``.

    References:
        Desfontaines et al. 2020, Definition 19 and Figure 6 (Section 4.4); Lemma 1.
    """

    def __init__(self, law: CountLaw, alpha: Fraction) -> None:
        a = Fraction(alpha)
        if not 0 < a < 1:
            raise InputError("alpha", "must lie in (0, 1)")
        self.law, self.alpha = law, a

    def delta(self, eps: Eps | Fraction | int | str) -> LossPoint:
        """Exact ``δ(ε)``, both directions (closed-form tails)."""
        return LossPoint(convolution_delta(self.law, self.alpha, Eps.of(eps)))

    def _worst(self) -> WorstCase:
        pmf = self.law.exact_pmf()
        one = {Fraction(s + 1): w for s, w in enumerate(pmf)}
        zero = {Fraction(s): w for s, w in enumerate(pmf)}
        return worst_case(
            [
                ({"direction": "1,0"}, GeometricPair(one, zero, self.alpha)),
                ({"direction": "0,1"}, GeometricPair(zero, one, self.alpha)),
            ]
        )

    def epsilon_zero(self) -> LossPoint:
        """``max_o |ln P_1(o)/P_0(o)|``: at most ``ln(1/α)`` (the tails' ratio)."""
        return self._worst().epsilon_zero()

    def mass_without_q(self) -> Fraction:
        """0: both laws charge every integer."""
        return Fraction(0)


__all__ = ["GeometricConvolutionLoss"]

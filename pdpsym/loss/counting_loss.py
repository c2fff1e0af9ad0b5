"""The noiseless counting query's privacy loss (Desfontaines et al. Section 4.1).

``M(D) = Σ_i D(i)`` over independent ``D(i) ~ Bernoulli(p_i)``. For a target ``i`` whose
uncertain peers count ``S`` (Poisson binomial), ``P = law(S + 1)`` and ``Q = law(S)``
(direction ``1,0``) or the reverse (``0,1``), and

    δ(ε) = max_{i, direction} Σ_o (P(o) - e^ε Q(o))_+,

exact (the law and the monotone likelihood ratio are :mod:`pdpsym.mechanisms.counting`'s).
The loss is unbounded (output ``m + 1`` has ``Q = 0``), so ε(0) = ∞ and ε(δ) for δ > 0 is
the base class's exact bisection.

>>> from fractions import Fraction as F
>>> loss = CountingLoss.homogeneous(3, F(1, 2))
>>> str(loss.delta(Eps.log(3)).value)
'1/4'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import sympy

from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.loss.base import LossPoint, PrivacyLoss
from pdpsym.mechanisms.count_law import CountLaw
from pdpsym.mechanisms.counting import counting_delta, counting_delta_fast


class CountingLoss(PrivacyLoss):
    """The counting query over independent Bernoulli records, worst target and direction.

    Args:
        ps: the records' probabilities, each in ``(0, 1)``.
        known: the attacker knows the first ``known`` records (dropped: a known record
            only shifts the output, Desfontaines et al. Proposition 6).
        progress: called with 1 after each distinct target of ``delta``.

    References:
        Desfontaines et al. 2020, Section 4.1, Definition 12 and Lemma 1; Proposition 6.
    """

    def __init__(
        self,
        ps: Sequence[Fraction],
        known: int = 0,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        self.ps = [p if type(p) is Fraction else Fraction(p) for p in ps]
        self.progress = progress
        if known < 0 or known >= len(self.ps):
            raise InputError("known", f"must be between 0 and n-1 = {len(self.ps) - 1}")
        self.known = known
        self._common = False

    @classmethod
    def homogeneous(cls, n: int, p: Fraction, known: int = 0) -> CountingLoss:
        """``n`` records with a common ``p`` (one target stands for all)."""
        if n - known < 1:
            raise InputError("known", "the attacker must not know every record")
        obj = cls.__new__(cls)
        obj.ps, obj.known, obj._common = [Fraction(p)] * n, known, True
        obj.progress = None
        return obj

    def delta(self, eps: Eps | Fraction | int | str) -> LossPoint:
        """:meth:`PrivacyLoss.delta`, rational or ``A - e^ε B`` with exact masses;
        ``where`` names the worst target and direction."""
        e = Eps.of(eps)
        if self._common:
            law = CountLaw.homogeneous(len(self.ps) - self.known - 1, self.ps[0])
            return LossPoint(counting_delta_fast(law, e), {"target": self.known})
        res = counting_delta(self.ps, e, self.known, self.progress)
        return LossPoint(res.value, {"target": res.target, "direction": res.direction})

    def epsilon_zero(self) -> LossPoint:
        """``∞``: output ``m + 1`` (all ones) has probability 0 when the target is 0."""
        return LossPoint(sympy.oo, None)

    def mass_without_q(self) -> Fraction:
        """``lim δ(ε)``: ``max(Π p_j, Π (1 - p_j))`` over the target's peers, worst target."""
        unknown = self.ps[self.known :]
        best = Fraction(0)
        for p in set(unknown):
            others = list(unknown)
            others.remove(p)
            ones, zeros = Fraction(1), Fraction(1)
            for q in others:
                ones, zeros = ones * q, zeros * (1 - q)
            best = max(best, ones, zeros)
        return best


__all__ = ["CountingLoss"]

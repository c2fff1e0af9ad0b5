"""A pair of finite PMFs (and weighted sums of such pairs): δ(ε) and ε(δ) in closed form.

For finite PMFs ``δ(ε) = Σ_o (P(o) - e^ε Q(o))_+`` is ``c0 + c1 e^ε`` with rational
``c0, c1`` (a :class:`~pdpsym.loss.exp_linear.WLin`): piecewise linear in ``t = e^ε`` with
breakpoints at the likelihood ratios ``P(o)/Q(o)``, so ``ε(δ) = ln t`` with ``t`` an exact
rational (Desfontaines et al. Lemma 1). The work is :class:`pdpsym.loss.curve.Case`'s.

>>> from fractions import Fraction as F
>>> pair = PMFPair({0: F(3, 4), 1: F(1, 4)}, {0: F(1, 4), 1: F(3, 4)})
>>> str(pair.delta(Eps.log(2)).value), str(pair.epsilon(F(1, 4)).value)
('1/4', 'log(2)')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from pdpsym.core.eps import Eps, ratio_log
from pdpsym.loss.base import LossPoint, PrivacyLoss, checked_delta
from pdpsym.loss.curve import Case
from pdpsym.models.scenario import PMF


class PMFPair(PrivacyLoss):
    """``Σ_k w_k Σ_o (P_k(o) - e^ε Q_k(o))_+`` for finite PMFs (one term: a plain pair).

    Args:
        p: the PMF ``P`` (output -> probability; unnormalized weights are allowed).
        q: the PMF ``Q``.

    References:
        Desfontaines et al. Lemma 1 (the hockey-stick form).
    """

    def __init__(self, p: PMF, q: PMF, where: Mapping[str, Any] | None = None) -> None:
        self.case = Case(dict(where or {}), ((Fraction(1), p, q),))

    @classmethod
    def weighted(
        cls, terms: Iterable[tuple[Fraction, PMF, PMF]], where: Mapping[str, Any] | None = None
    ) -> PMFPair:
        """``Σ_k w_k`` of PMF pairs, kept as one case (its curve stays exact in ``e^ε``)."""
        obj = cls.__new__(cls)
        obj.case = Case(dict(where or {}), tuple(terms))
        return obj

    @classmethod
    def of_case(cls, case: Case) -> PMFPair:
        """The pair whose curve is the given :class:`~pdpsym.loss.curve.Case`'s (shared, not copied).

        Args:
            case: the case (its ``where`` and weighted PMF pairs).

        Returns:
            The :class:`PMFPair`.
        """
        obj = cls.__new__(cls)
        obj.case = case
        return obj

    @property
    def where(self) -> Mapping[str, Any]:
        """The facts naming this case (the ``where`` given at construction)."""
        return self.case.where

    def delta(self, eps: Eps | Fraction | int | str) -> LossPoint:
        """``δ(ε) = Σ_k w_k Σ_o (P_k(o) - e^ε Q_k(o))_+``, each sign decided exactly.

        Args:
            eps: ε (an :class:`~pdpsym.core.eps.Eps` or an exact number).

        Returns:
            :class:`~pdpsym.loss.base.LossPoint` with a :class:`~pdpsym.loss.exp_linear.WLin`
            ``c0 + c1 e^ε`` (rational coefficients).
        """
        return LossPoint(self.case.delta(Eps.of(eps)), self.case.where)

    def epsilon_zero(self) -> LossPoint:
        """``ln max_o P(o)/Q(o)`` (``oo`` when some ``Q(o) = 0 < P(o)``), with the worst output.

        Returns:
            :class:`~pdpsym.loss.base.LossPoint` (``0`` when δ(0) is already 0).
        """
        return self.epsilon(0)

    def epsilon(self, delta: Fraction | int | str = 0) -> LossPoint:
        """The smallest ε ≥ 0 with ``δ(ε) ≤ delta``: ``ln t`` for an exact rational ``t``.

        The linear piece (in ``t = e^ε``) that crosses ``delta`` is solved exactly.

        Args:
            delta: a rational in ``[0, 1)`` (an int, a Fraction or a number string).

        Returns:
            :class:`~pdpsym.loss.base.LossPoint`: a sympy ``log`` of a Rational, ``0``, or
            ``oo`` when no ε works; at ``delta = 0`` its ``where`` names the worst output.
        """
        d = checked_delta(delta)
        t = self.case.ratio_at_delta(d)
        where = self.case.where
        if d == 0 and "output" not in where:
            where = {**where, "output": self.case.worst_output()}
        return LossPoint(ratio_log(t), where)

    def mass_without_q(self) -> Fraction:
        """``lim_{ε→∞} δ(ε)``: ``Σ_k w_k P_k(Q_k = 0)``.

        Returns:
            The exact limit as a Fraction.
        """
        return sum(
            (
                Fraction(w) * Fraction(po)
                for w, p, q in self.case.terms
                for o, po in p.items()
                if po and not q.get(o, 0)
            ),
            Fraction(0),
        )


__all__ = ["PMFPair"]

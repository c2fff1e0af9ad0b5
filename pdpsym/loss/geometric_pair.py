"""A pair of two-sided geometric mixtures on integer centres: a finite pair in disguise.

``P(o) = Σ_s w_P(s) (1-α)/(1+α) α^{|o-s|}`` for every integer ``o`` (Desfontaines et al.
Definition 19, mixed over the query value). Below the smallest centre ``b_0`` every
``P(o)`` is ``P(b_0) α^{b_0-o}`` and every ``Q(o)`` is ``Q(b_0) α^{b_0-o}``: the likelihood
ratio is constant on the tail, so the tail's terms of ``Σ_o (P(o) - e^ε Q(o))_+`` have one
sign and sum (a geometric series) to the term of one lumped output of mass
``Σ_{k ≥ 1} ... = α/(1+α) Σ_s w(s) α^{s-b_0}``; likewise above the largest centre. The
pair is therefore exactly the finite pair on ``b_0 .. b_m`` plus two lumped tails, and
δ(ε) (``c0 + c1 e^ε``) and ε(δ) (``ln`` of a rational) are exact
(:class:`~pdpsym.loss.pmf_pair.PMFPair`).

>>> from fractions import Fraction as F
>>> g = GeometricPair({F(0): F(1)}, {F(1): F(1)}, F(1, 2))
>>> str(g.epsilon().value), str(g.delta(0).value)
('log(2)', '1/3')
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.loss.base import LossPoint, PrivacyLoss
from pdpsym.loss.laplace_mixture import Weights
from pdpsym.loss.pmf_pair import PMFPair
from pdpsym.mechanisms.sum_kernels import geometric_mixture_pmf


class GeometricPair(PrivacyLoss):
    """``P = Σ_s w_P(s) Geom(s, α)`` against ``Q = Σ_s w_Q(s) Geom(s, α)``.

    Args:
        p_weights: integer centre -> weight of ``P``.
        q_weights: integer centre -> weight of ``Q`` (empty: ``Q = 0``).
        alpha: the parameter ``0 < α < 1``.

    References:
        Desfontaines et al. Definition 19 (the two-sided geometric law), Lemma 1.
    """

    def __init__(
        self,
        p_weights: Weights,
        q_weights: Weights,
        alpha: Fraction,
        where: Mapping[str, Any] | None = None,
    ) -> None:
        a = Fraction(alpha)
        if not 0 < a < 1:
            raise InputError("alpha", "must lie in (0, 1)")
        ws = []
        for name, w in (("p_weights", p_weights), ("q_weights", q_weights)):
            clean: dict[Fraction, Fraction] = {}
            for s, c in w.items():
                s, c = Fraction(s), Fraction(c)
                if s.denominator != 1:
                    raise InputError(name, f"centre {s} is not an integer")
                if c < 0:
                    raise InputError(name, f"weight {c} at {s} is negative")
                if c:
                    clean[s] = clean.get(s, Fraction(0)) + c
            ws.append(clean)
        self.p, self.q, self.alpha = ws[0], ws[1], a
        self.where = dict(where or {})
        centres = set(self.p) | set(self.q)
        lo, hi = (int(min(centres)), int(max(centres))) if centres else (0, 0)
        self.pair = PMFPair(
            geometric_mixture_pmf(self.p, a, lo, hi) if self.p else {},
            geometric_mixture_pmf(self.q, a, lo, hi) if self.q else {},
            self.where,
        )

    def key(self) -> tuple[Any, ...]:
        """The pair up to a common translation (δ and ε do not change under it).

        Returns:
            ``(α, P's (centre - lo, weight) pairs, Q's pairs)``, hashable.
        """
        centres = set(self.p) | set(self.q)
        lo = min(centres) if centres else Fraction(0)
        return (
            self.alpha,
            tuple(sorted((s - lo, c) for s, c in self.p.items())),
            tuple(sorted((s - lo, c) for s, c in self.q.items())),
        )

    def delta(self, eps: Eps | Fraction | int | str) -> LossPoint:
        """Exact ``δ(ε)`` of the lumped finite pair (``PMFPair.delta``).

        Args:
            eps: ε (an :class:`~pdpsym.core.eps.Eps` or an exact number).

        Returns:
            :class:`~pdpsym.loss.base.LossPoint` with a :class:`~pdpsym.loss.exp_linear.WLin`
            ``c0 + c1 e^ε``.
        """
        return self.pair.delta(eps)

    def epsilon_zero(self) -> LossPoint:
        """``max_o ln P(o)/Q(o)`` over the lumped pair (``oo`` when some ``Q(o) = 0 < P(o)``).

        Returns:
            :class:`~pdpsym.loss.base.LossPoint`: ``ln`` of an exact rational, or ``oo``.
        """
        return self.pair.epsilon_zero()

    def epsilon(self, delta: Fraction | int | str = 0) -> LossPoint:
        """The smallest ε ≥ 0 with ``δ(ε) ≤ delta``, exactly (``ln`` of a rational).

        Args:
            delta: a rational in ``[0, 1)``.

        Returns:
            :class:`~pdpsym.loss.base.LossPoint` (``oo`` when no ε works).
        """
        return self.pair.epsilon(delta)

    def mass_without_q(self) -> Fraction:
        """``lim_{ε→∞} δ(ε)``: the mass of ``P`` where ``Q = 0`` (all of ``P`` when ``Q`` is empty).

        Returns:
            The exact limit as a Fraction.
        """
        return self.pair.mass_without_q()


__all__ = ["GeometricPair", "geometric_mixture_pmf"]

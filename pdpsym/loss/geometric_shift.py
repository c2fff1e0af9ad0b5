r"""A count law against its own translate under two-sided geometric noise, in balls: the
hockey stick of independent records with many distinct laws on an integer output.

``P(t) = c Σ_s K(s) α^{|t - s|}`` and ``Q(t) = P(t - D)`` on the integers, with ``c =
(1 - α)/(1 + α)`` and ``K`` the count law (:class:`~pdpsym.loss.shift_pairs.BallCountLaw`:
kept balls and a dropped measure of mass at most ``d``). With ``c_x = K(x) - T K(x - D)``
(``T = e^ε``) the difference ``G(t) = (P - T Q)(t) / c = Σ_x c_x α^{|t - x|}`` splits into
``L(t) = Σ_{x <= t} c_x α^{t - x}`` and ``R(t) = Σ_{x > t} c_x α^{x - t}``, two
first-order recurrences (``L(t) = α L(t - 1) + c_t``, ``R(t) = α (R(t + 1) + c_{t+1})``).
Left of every centre ``G(t) = α^{x_0 - t} G(x_0)`` (every ``|t - x| = x - t``), right of
every centre ``G(t) = α^{t - x_1} G(x_1)``: each tail is a geometric series,
``G(end)_+ α/(1 - α)``. So ``δ(ε) = c (Σ_{x_0 <= t <= x_1} G(t)_+ + tails)``, each
``G(t)_+`` enclosed by the positive parts of its ball's ends. The dropped measure moves
δ by at most its mass, as for Laplace noise: ``δ_K - T d <= δ <= δ_K + d``.

References:
    Desfontaines et al. (2020), Lemma 1 (δ(ε) as the hockey stick), Section 5.2,
    Definition 19 (two-sided geometric noise); Ghosh, Roughgarden and Sundararajan (2012)
    (the geometric mechanism).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from pdpsym.core.balls import Ball, to_ball, working_precision
from pdpsym.core.certify import decide_sign
from pdpsym.core.eps import Eps, ratio_log
from pdpsym.loss.geometric_pair import GeometricPair
from pdpsym.loss.shift_pairs import BallCountLaw, ShiftDelta, ShiftPair, tree_precision


def geometric_shift_delta_ball(
    law: BallCountLaw, shift: int, alpha: Fraction, eps: Eps, prec: int
) -> Ball:
    """A ball containing δ(ε) of ``K`` against ``K + shift`` under two-sided geometric
    noise of parameter ``alpha`` (module docstring).

    Args:
        law: the count law ``K`` (integer outputs: one count unit a query unit).
        shift: ``D``, in count units.
        alpha: the geometric parameter, in ``(0, 1)``.
        eps: ε.
        prec: the working precision in bits (:func:`tree_precision` is used inside).

    Returns:
        The enclosure, within ``[0, 1]``.

    References:
        Desfontaines et al. (2020), Lemma 1; Section 5.2, Definition 19.
    """
    p = tree_precision(prec)
    key = ("geometric", shift, alpha, eps, p)
    if key not in law.deltas:
        law.deltas[key] = _delta_ball(law, shift, alpha, eps, p)
    return law.deltas[key]


def _delta_ball(law: BallCountLaw, shift: int, alpha: Fraction, eps: Eps, p: int) -> Ball:
    _, vals, dropped = law.window(p)
    with working_precision(p):
        big = eps.arb_exp(p)
        a = to_ball(alpha)
        n = len(vals)
        base = min(0, shift)
        at_p, at_q = -base, shift - base
        m = n + abs(shift)
        cs = []
        for x in range(m):
            c = vals[x - at_p] if 0 <= x - at_p < n else Ball(0)
            if 0 <= x - at_q < n:
                c = c - big * vals[x - at_q]
            cs.append(c)
        right = [Ball(0)] * m
        for t in range(m - 2, -1, -1):
            right[t] = a * (right[t + 1] + cs[t + 1])
        lo_sum, hi_sum = Ball(0), Ball(0)
        left = Ball(0)
        g = Ball(0)
        for t in range(m):
            left = a * left + cs[t]
            g = left + right[t]
            lo, hi = g.lower(), g.upper()
            lo_sum += lo if lo > 0 else Ball(0)
            hi_sum += hi if hi > 0 else Ball(0)
            if t == 0:
                first = g
        ratio = a / (1 - a)
        for end in (first, g):  # the tails beyond the first and the last centre
            lo, hi = end.lower(), end.upper()
            lo_sum += (lo if lo > 0 else Ball(0)) * ratio
            hi_sum += (hi if hi > 0 else Ball(0)) * ratio
        scale = (1 - a) / (1 + a)
        low = (scale * lo_sum - big * dropped).lower()
        up = (scale * hi_sum + dropped).upper()
        low = low if low > 0 else Ball(0)
        up = up if up < 1 else Ball(1)
        return Ball.union(low, up)


def exp_at_least(eps: Eps, t: Fraction) -> bool:
    """Whether ``e^ε >= t`` for a rational ``t >= 1``, decided: ``e^ε`` is rational only
    at ε = 0 or when ``ε = ln w`` (Lindemann), so the balls separate every other case.

    Args:
        eps: ε.
        t: the rational threshold ``α^{-|D|}``.

    Returns:
        The decided comparison.

    References:
        Lindemann (1882): ``e^x`` is irrational for rational ``x != 0``.
    """
    w = eps.exact_exp()
    if w is not None:
        return w >= t

    def diff(prec: int) -> Ball:
        with working_precision(prec):
            return eps.arb_exp(prec) - to_ball(t)

    return decide_sign(diff, "e^epsilon against alpha^-|D|") > 0


class GeometricShiftDelta(ShiftDelta):
    """δ(ε) of ``K`` against ``K + D`` under two-sided geometric noise of parameter
    ``α``: a certified value with no closed form (:func:`geometric_shift_delta_ball`
    encloses it). Equal curves as for :class:`~pdpsym.loss.shift_pairs.ShiftDelta` (the
    geometric kernel is symmetric too)."""

    def __init__(self, law: BallCountLaw, shift: int, alpha: Fraction, eps: Eps) -> None:
        super().__init__(law, shift, Fraction(1), eps)
        self.alpha = alpha

    def _key(self) -> tuple[Any, ...]:
        # never equal to a Laplace curve's key (one more entry): ShiftDelta's __eq__ holds
        return (*super()._key(), "geometric", self.alpha)

    def arb(self, prec: int) -> Ball:
        """A ball containing the value, at about ``prec`` bits."""
        return geometric_shift_delta_ball(self.law, self.shift, self.alpha, self.eps, prec)

    def exact_text(self) -> str:
        """What the number is (there is no closed form to print)."""
        return (
            f"delta at epsilon {self.eps.sympy()} of the records' count law against its "
            f"translate by {self.shift} under geometric noise (certified enclosure)"
        )

    def exact_value(self) -> Any:
        """The exact δ(ε) of :class:`~pdpsym.loss.geometric_pair.GeometricPair` on the
        exact law (small laws only)."""
        law = {Fraction(s): w for s, w in self.law.exact().items()}
        pair = GeometricPair(law, {s + self.shift: w for s, w in law.items()}, self.alpha)
        return pair.delta(self.eps).value

    def __repr__(self) -> str:
        return f"GeometricShiftDelta(shift={self.shift}, alpha={self.alpha}, eps={self.eps})"


class GeometricShiftPair(ShiftPair):
    """``P = K ⊛ Geom(α)`` against ``Q = (K + D) ⊛ Geom(α)`` on the integers, certified
    in balls.

    **ε at δ = 0.** ``|t - s - D| <= |t - s| + |D|`` gives ``P <= α^{-|D|} Q`` at every
    output, with equality for every centre ``s`` on the tail beyond the support on the
    side ``D`` points away from; the tail has positive mass, so ``ε = |D| ln(1/α)``
    exactly, δ(ε) = 0 from there on and δ(ε) > 0 below.

    Args:
        law: the count law ``K`` (one count unit a query unit).
        shift: ``D``.
        alpha: the geometric parameter, in ``(0, 1)``.
        where: the case's plain facts.

    References:
        Desfontaines et al. (2020), Lemma 1; Section 5.2, Definition 19.
    """

    def __init__(
        self, law: BallCountLaw, shift: int, alpha: Fraction, where: Mapping[str, Any]
    ) -> None:
        super().__init__(law, shift, Fraction(1), where)
        self.alpha = Fraction(alpha)
        self.top = (1 / self.alpha) ** abs(shift)  # e^ε at which δ reaches 0

    def _top(self) -> Any:
        """``ε_0 = ln α^{-|D|}`` (the class docstring)."""
        return ratio_log(self.top)

    def _past_top(self, e: Eps) -> bool:
        """Whether ``e^ε >= α^{-|D|}``, decided."""
        return exp_at_least(e, self.top)

    def _enclosed(self, e: Eps) -> GeometricShiftDelta:
        """δ(ε) below ``ε_0``: a certified value with no closed form."""
        return GeometricShiftDelta(self.law, self.shift, self.alpha, e)


__all__ = [
    "GeometricShiftDelta",
    "GeometricShiftPair",
    "exp_at_least",
    "geometric_shift_delta_ball",
]

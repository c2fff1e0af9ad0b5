r"""A pair of Laplace mixtures: δ(ε) in closed form, ε(0) exactly, ε(δ) by exact bisection.

``P`` has density ``p(r) = Σ_s w_P(s) e^{-|r-s|/λ} / (2λ)`` (and ``Q`` likewise), the law
of ``f(D) + Lap(λ)`` when the query value ``f(D)`` has the law ``w_P`` (Li et al. Eq. 2;
Liu et al. Sec. VI).

**Closed form.** Let ``b_0 < ... < b_m`` be the centres of both mixtures. On a segment
``(b_j, b_{j+1})``, with ``E = e^ε``,

    2λ (p(r) - E q(r)) = α e^{r/λ} + β e^{-r/λ},
    α = Σ_{s > r} (w_P(s) - E w_Q(s)) e^{-s/λ},   β = Σ_{s < r} (w_P(s) - E w_Q(s)) e^{s/λ}.

Its sign is that of ``α v + β`` with ``v = e^{2r/λ}``: it changes at most once, at
``r* = (λ/2) ln(-β/α)``. With ``∫ α e^{r/λ}/(2λ) = α e^{r/λ}/2``:

* the whole segment ``[x, y]`` positive: ``(α (e^{y/λ} - e^{x/λ}) + β (e^{-x/λ} - e^{-y/λ}))/2``;
* ``α > 0 > β`` (positive above ``r*``): ``(α e^{y/λ} - β e^{-y/λ})/2 - sqrt(-αβ)``;
* ``α < 0 < β`` (positive below ``r*``): ``(β e^{-x/λ} - α e^{x/λ})/2 - sqrt(-αβ)``;
* the tails ``r < b_0`` (only ``α``) and ``r > b_m`` (only ``β``): ``α e^{b_0/λ}/2`` and
  ``β e^{-b_m/λ}/2`` when positive.

``α``, ``β`` and every sign above are exponential polynomials with rational data
(:class:`~pdpsym.core.exp_polynomials.ExpPoly`), decided exactly; the sum is a
:class:`~pdpsym.core.exp_sqrt_sums.SqrtExpSum` (a sympy expression with certified digits).

>>> from fractions import Fraction as F
>>> pair = LaplacePair({F(0): F(1)}, {F(1): F(1)}, F(1))
>>> pair.delta(Eps.log(1)).value.sympy()
1 - exp(-1/2)
>>> pair.epsilon().value
Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.core.exp_polynomials import ExpPoly
from pdpsym.core.exp_sqrt_sums import SqrtExpSum
from pdpsym.loss.base import LossPoint, PrivacyLoss
from pdpsym.loss.laplace_mixture import Weights, laplace_mixture_sup


def _weights(w: Mapping[Any, Any], field: str) -> dict[Fraction, Fraction]:
    out: dict[Fraction, Fraction] = {}
    for s, c in w.items():
        c = Fraction(c)
        if c < 0:
            raise InputError(field, f"weight {c} at {s} is negative")
        if c:
            out[Fraction(s)] = out.get(Fraction(s), Fraction(0)) + c
    return out


def times_exp_eps(poly: ExpPoly, eps: Eps) -> ExpPoly:
    """``e^ε · poly`` exactly (a scaling when ``e^ε`` is rational, else a shift of exponents).

    Args:
        poly: an exact exponential polynomial ``Σ_k c_k e^{a_k}``.
        eps: ε (an :class:`~pdpsym.core.eps.Eps`).

    Returns:
        The exact :class:`~pdpsym.core.exp_polynomials.ExpPoly` ``Σ_k c_k e^{a_k + ε}``.

    References:
        Desfontaines et al. (2020), Section 3.1, Lemma 1 (the factor ``e^ε`` of the
        hockey stick).
    """
    if eps.w is not None:
        return poly.scale(eps.w)
    assert eps.exponent is not None
    return poly.shift(eps.exponent)


class LaplacePair(PrivacyLoss):
    """``P = Σ_s w_P(s) Lap(s, λ)`` against ``Q = Σ_s w_Q(s) Lap(s, λ)``.

    Args:
        p_weights: centre -> weight of ``P`` (unnormalized weights allowed).
        q_weights: centre -> weight of ``Q`` (empty: ``Q = 0``, δ is ``P``'s mass).
        lam: the common scale ``λ > 0``.

    References:
        Li et al. Eq. 2 (the mixtures); Desfontaines et al. Lemma 1 (the hockey stick).
    """

    def __init__(
        self,
        p_weights: Weights,
        q_weights: Weights,
        lam: Fraction | int,
        where: Mapping[str, Any] | None = None,
    ) -> None:
        lam = Fraction(lam)
        if lam <= 0:
            raise InputError("lam", "must be > 0")
        self.p, self.q, self.lam = (
            _weights(p_weights, "p_weights"),
            _weights(q_weights, "q_weights"),
            lam,
        )
        self.where = dict(where or {})
        self.centres = sorted(set(self.p) | set(self.q))
        lam_ = self.lam
        # suffix sums Σ_{s ≥ b_j} w e^{-s/λ} and prefix sums Σ_{s ≤ b_j} w e^{s/λ}, for P and Q
        self._suffix: list[tuple[ExpPoly, ExpPoly]] = []
        self._prefix: list[tuple[ExpPoly, ExpPoly]] = []
        acc = (ExpPoly(), ExpPoly())
        for s in reversed(self.centres):
            acc = (
                acc[0] + ExpPoly({-s / lam_: self.p.get(s, Fraction(0))}),
                acc[1] + ExpPoly({-s / lam_: self.q.get(s, Fraction(0))}),
            )
            self._suffix.append(acc)
        self._suffix.reverse()
        acc = (ExpPoly(), ExpPoly())
        for s in self.centres:
            acc = (
                acc[0] + ExpPoly({s / lam_: self.p.get(s, Fraction(0))}),
                acc[1] + ExpPoly({s / lam_: self.q.get(s, Fraction(0))}),
            )
            self._prefix.append(acc)

    def _e(self, x: Fraction) -> ExpPoly:
        return ExpPoly({x / self.lam: Fraction(1)})

    def delta(self, eps: Eps | Fraction | int | str) -> LossPoint:
        """``δ(ε) = ∫ (p(r) - e^ε q(r))_+ dr`` in closed form (module docstring), exactly.

        Args:
            eps: ε (an :class:`~pdpsym.core.eps.Eps` or an exact number).

        Returns:
            :class:`~pdpsym.loss.base.LossPoint`: a Fraction when the value is rational, else a
            :class:`~pdpsym.core.exp_sqrt_sums.SqrtExpSum` (exponentials and square roots of
            exponential polynomials, certified digits); 0 when ``P`` is empty.
        """
        e = Eps.of(eps)
        if not self.p:
            return LossPoint(Fraction(0), self.where)
        half = Fraction(1, 2)
        poly = ExpPoly()
        roots: dict[ExpPoly, Fraction] = {}
        b = self.centres
        m = len(b)
        # left tail: α = all centres' suffix, β = 0
        ap, aq = self._suffix[0]
        alpha = ap - times_exp_eps(aq, e)
        if alpha.sign() > 0:
            poly = poly + (alpha * self._e(b[0])).scale(half)
        bp, bq = self._prefix[m - 1]
        beta = bp - times_exp_eps(bq, e)
        if beta.sign() > 0:
            poly = poly + (beta * self._e(-b[-1])).scale(half)
        for j in range(m - 1):
            x, y = b[j], b[j + 1]
            ap, aq = self._suffix[j + 1]
            bp, bq = self._prefix[j]
            alpha = ap - times_exp_eps(aq, e)
            beta = bp - times_exp_eps(bq, e)
            sa, sb = alpha.sign(), beta.sign()
            if sa <= 0 and sb <= 0:
                continue
            ex, ey, emx, emy = self._e(x), self._e(y), self._e(-x), self._e(-y)
            whole = (alpha * (ey - ex) + beta * (emx - emy)).scale(half)
            if sa >= 0 and sb >= 0:
                poly = poly + whole
                continue
            gx = (alpha * ex + beta * emx).sign()
            gy = (alpha * ey + beta * emy).sign()
            # increasing (sa > 0): positive above r*, so [x, y] is all positive when
            # g(x) >= 0 and partly when g(y) > 0; decreasing: the same with x and y swapped
            near, far = (gx, gy) if sa > 0 else (gy, gx)
            if near >= 0:
                poly = poly + whole
            elif far > 0:
                part = alpha * ey - beta * emy if sa > 0 else beta * emx - alpha * ex
                poly = poly + part.scale(half)
                r = -(alpha * beta)
                roots[r] = roots.get(r, Fraction(0)) - 1
        value = SqrtExpSum(poly, roots)
        q = value.as_rational()
        return LossPoint(q if q is not None else value, self.where)

    def epsilon_zero(self) -> LossPoint:
        """``sup_r ln p(r)/q(r)`` exactly (the breakpoint lemma), with the output attaining it.

        ``oo`` when ``Q`` is empty (and ``P`` is not). Not clamped at 0: with unnormalized
        weights (``P`` lighter than ``Q`` everywhere) the value can be negative.

        Returns:
            :class:`~pdpsym.loss.base.LossPoint`: a rational or a
            :class:`~pdpsym.core.exp_polynomials.LogRatio`; ``where`` gains ``output`` (``"r=..."``,
            ``"+inf"`` or ``"-inf"``).
        """
        if not self.p:
            return LossPoint(Fraction(0), self.where)
        if not self.q:
            return LossPoint(sympy.oo, self.where)
        value, at = laplace_mixture_sup(self.p, self.q, self.lam)
        r = value.as_rational()
        return LossPoint(r if r is not None else value, {**self.where, "output": at})

    def mass_without_q(self) -> Fraction:
        """``lim_{ε→∞} δ(ε)``: ``P``'s total weight when ``Q`` is empty, else 0.

        Returns:
            The exact limit as a Fraction.
        """
        return sum(self.p.values(), Fraction(0)) if not self.q else Fraction(0)

    def key(self) -> tuple[Any, ...]:
        """The pair up to a common translation (δ and ε do not change under it).

        Returns:
            ``(λ, P's (centre - lo, weight) pairs, Q's pairs)``, hashable.
        """
        lo = self.centres[0] if self.centres else Fraction(0)
        return (
            self.lam,
            tuple(sorted((s - lo, c) for s, c in self.p.items())),
            tuple(sorted((s - lo, c) for s, c in self.q.items())),
        )


__all__ = ["LaplacePair", "times_exp_eps"]

r"""IBCDP and distributional DP of a two-valued target among many independent records:
closed forms read off the tails of the output, with no posterior search and no LP.

The records are independent, so given the target's value ``a`` and the known records'
values ``v`` the query is ``c_a + c(v) + S`` (count units), ``S`` the other records' sum,
whose law ``K`` depends on neither (:mod:`pdpsym.audit.product_shifts`). Let the
target's support be ``{lo, hi}`` with ``D = c_hi - c_lo > 0``, prior ``p_lo, p_hi``
(``P[x_i = a | x_K = v] = P[x_i = a]``), and ``g`` the output density (or mass) of
``S + noise``. Write ``R(t) = g(t - c_hi) / g(t - c_lo)`` (the common translation by
``c(v)`` dropped: it moves every output alike).

**Lemma (the ratio's range).** ``R`` takes its values in ``[1/r, r]`` and attains both
ends on whole tails, with ``r = e^{D/Λ}`` under Laplace noise of scale ``Λ`` (count
units) and ``r = α^{-D}`` under two-sided geometric noise (query units, ``D`` an
integer). *Proof.* ``g(t - c) = Σ_s K(s) k(t - c - s)`` with ``k(x) ∝ e^{-|x|/Λ}`` (or
``α^{|x|}``). By the triangle inequality ``|x - D| <= |x| + D``, so every term of
``g(t - c_hi)`` is at least ``1/r`` times the matching term of ``g(t - c_lo)``, and at most
``r`` times it; below every centre (``t <= c_lo + min s``) each ``|x - D| = |x| + D``, so
``R = 1/r`` there, and above every centre (``t >= c_hi + max s``) ``R = r``. ∎

**IBCDP** (Desfontaines et al. Definition 6; the cases of
:mod:`pdpsym.audit.sum_posteriors`). Given the output ``t`` of ``D`` the posterior is
``post(hi | t) = p_hi R / (p_lo + p_hi R)`` and ``post(lo | t) = p_lo / (p_lo + p_hi R)``.
Given the output of ``D_{i→b}`` every database's query is ``c_b + c(v) + S`` whatever its
``x_i``, so the posterior is the prior ``p`` for every ``b`` and every ``v``: each case is
the posterior against the prior, both ways. ``Σ_a (x_a - T y_a)_+`` over two values is the
largest of ``0``, ``x_lo - T y_lo``, ``x_hi - T y_hi`` and ``1 - T`` (the largest sum over
the subsets of values), and each of these is monotone in ``R``: ``post(hi)`` increases and
``post(lo)`` decreases. So by the lemma the sup over outputs is reached on a tail, in
closed form, with ``T = e^ε``:

* posterior against prior: ``p_hi r/(p_lo + p_hi r) - T p_hi`` (``t → +∞``) and
  ``p_lo r/(p_lo r + p_hi) - T p_lo`` (``t → -∞``);
* prior against posterior: ``p_hi - T p_hi/(p_lo r + p_hi)`` (``-∞``) and
  ``p_lo - T p_lo/(p_lo + p_hi r)`` (``+∞``).

Each is ``α_k - T β_k``, so ``δ(ε) = max(0, α_k - e^ε β_k)``, ``ε(δ) = max(0, ln((α_k -
δ)/β_k))`` over the ``k`` with ``α_k > δ``, and ``ε(0) = ln(1 + max(p_lo, p_hi)(r - 1))``
(the largest ratio ``α_k/β_k``: ``(p_lo r + p_hi)(p_lo + p_hi r) >= r`` puts the prior
against the posterior on top). The other records' law enters only through the lemma: the
figures hold for every number of records, and need no law at all.

**Distributional DP** (Definition 4). The target has no Markov blanket among independent
records, so the simulator sees no record the target depends on and, per known value
``v``, is one output law ``S`` facing both rows ``P = M | lo, v`` and ``Q = M | hi, v``
(the translates of one law by ``D``): ``δ*(T) = min_S max(H_T(P‖S), H_T(S‖P), H_T(Q‖S),
H_T(S‖Q))`` with ``H_T`` the hockey stick. Let ``TV`` be the total variation of ``P`` and
``Q`` (``δ`` of the shift pair at ``ε = 0``, :mod:`pdpsym.loss.shift_pairs`).

*Theorem.* For ``T = e^ε >= 1``, with ``h_1 = H_{T^2}(P‖Q)/(1 + T)``,
``h_2 = H_{T^2}(Q‖P)/(1 + T)`` and ``gap = (1 - T (1 - TV))/2``,
``δ*(T) = max(0, gap, h_1, h_2)``.

*Lower bound.* With ``A = {P > Q}``: ``S(A^c) - T P(A^c) <= δ`` and ``S(A) - T Q(A) <=
δ`` add to ``1 - T (1 - TV) <= 2δ``. Chaining ``P(B) <= T S(B) + δ <= T^2 Q(B) + (1 +
T) δ`` over every ``B`` gives ``δ >= h_1``, and the same with ``P, Q`` swapped ``δ >= h_2``.

*Upper bound: a simulator.* On ``A_1 = {P > T^2 Q}`` put ``S = (P + T Q)/(1 + T)``:
there ``P - T S = S - T Q = (P - T^2 Q)/(1 + T)`` and ``Q - T S``, ``S - T P`` are
negative, so ``A_1`` costs ``h_1`` to ``H_T(P‖S)`` and to ``H_T(S‖Q)`` and nothing else;
likewise ``A_2 = {Q > T^2 P}`` costs ``h_2`` to ``H_T(Q‖S)`` and ``H_T(S‖P)``. Elsewhere
the band ``max(P, Q)/T <= S <= T min(P, Q)`` is not empty and costs nothing. At the band's
upper end the mass is ``M_hi = T (1 - TV) + h_1 + h_2``, at its lower end
``M_lo = (1 + TV - h_1 - h_2)/T`` (``(P + T Q)/(1 + T) = T Q + (P - T^2 Q)/(1 + T) = P/T -
(P - T^2 Q)/(T (1 + T))`` on ``A_1``). ``M_lo <= 1`` always: ``M_lo > 1`` would give
``M_hi < 1 + TV (1 - T) <= 1 < M_lo``, yet ``M_lo <= M_hi``. If ``M_hi >= 1`` a point of
the band between its ends has mass 1: ``δ <= max(h_1, h_2)``, and then ``gap <= (h_1 +
h_2)/2``. Else ``m = 1 - M_hi = 2 gap - h_1 - h_2`` is missing: add ``x_A`` on ``A``
under ``T P`` (it costs ``H_T(S‖Q)`` one for one, nothing else; room ``T TV - h_1``) and
``x_{A^c}`` on ``A^c`` under ``T Q`` with ``x_A + x_{A^c} = m``, ``h_1 + x_A <= δ`` and
``h_2 + x_{A^c} <= δ`` for ``δ = max(gap, h_1, h_2)`` (possible: ``2δ - h_1 - h_2 >= m``;
and ``δ <= TV <= T TV``, since ``S = P`` already gives ``δ* <= TV``). ∎

So ``ε`` at ``δ = 0`` is ``max(ε*, -ln(1 - TV))`` with ``ε* = D/(2Λ)`` (``h_1 = 0`` iff ``T^2 >= r``:
``P/Q = r`` on a tail of positive mass), ``δ*`` above ``ε*`` is ``max(0, gap)``,
every term is non-increasing in ``T``, and ``ε(δ)`` is ``ln((1 - 2δ)/(1 - TV))`` when
that is above ``ε*``, else a bisection decided in balls.

The theorem uses nothing of the noise but the lemma, so it holds under Laplace noise
(``ε* = D/(2Λ)``) and under geometric noise on the integers (``ε* = D ln(1/α)/2``, the
sums over outputs in place of the integrals). Every ``TV`` and ``H`` is a ball enclosure
over the count law's product tree (:func:`~pdpsym.loss.shift_pairs.shift_delta_ball`,
:func:`~pdpsym.loss.geometric_shift.geometric_shift_delta_ball`); the signs deciding each
``max`` are certain.

References:
    Desfontaines et al. (2020), Section 2.1, Definition 4; Section 2.2, Definition 6;
    Lemma 1 (the hockey stick); Li et al. (2019), Eq. 2 (the Laplace mixtures).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.audit import product_shifts
from pdpsym.audit.product_shifts import ProductCases
from pdpsym.audit.registry import Compare
from pdpsym.audit.results import NotionResult
from pdpsym.core.balls import Ball, ball_endpoints, to_ball, working_precision
from pdpsym.core.certify import decide_sign
from pdpsym.core.compare import compare
from pdpsym.core.eps import Eps
from pdpsym.loss.base import LossPoint, PrivacyLoss, bisect_epsilon, checked_delta
from pdpsym.loss.geometric_shift import geometric_shift_delta_ball
from pdpsym.loss.shift_pairs import (
    GUARD,
    BallCountLaw,
    at_least,
    exceeds_in_balls,
    shift_delta_ball,
)
from pdpsym.models.model_objects import product_of


def _rat(q: Fraction) -> sympy.Expr:
    return sympy.Rational(q.numerator, q.denominator)


class TailPosteriors(PrivacyLoss):
    """IBCDP's posterior against the prior of a two-valued target among independent
    records: the four tail terms of the module docstring, exact.

    Args:
        p_lo: the prior of the value of smaller contribution.
        p_hi: the prior of the other value.
        r: the ratio's end ``e^{D/Λ}`` or ``α^{-D}``, an exact sympy number ``> 1``.
        where: the case's plain facts (the known value).

    References:
        Desfontaines et al. (2020), Section 2.2, Definition 6.
    """

    def __init__(
        self, p_lo: Fraction, p_hi: Fraction, r: sympy.Expr, where: Mapping[str, Any]
    ) -> None:
        lo, hi = _rat(p_lo), _rat(p_hi)
        back = {**where, "direction": "changed vs actual"}
        self.terms: list[tuple[sympy.Expr, sympy.Expr, dict[str, Any]]] = [
            (hi * r / (lo + hi * r), hi, {**where, "output": "+inf"}),
            (lo * r / (lo * r + hi), lo, {**where, "output": "-inf"}),
            (hi, hi / (lo * r + hi), {**back, "output": "-inf"}),
            (lo, lo / (lo + hi * r), {**back, "output": "+inf"}),
        ]

    def _largest(self, values: Sequence[Any]) -> int:
        best = 0
        for k in range(1, len(values)):
            if compare(values[k], values[best]).sign > 0:
                best = k
        return best

    def delta(self, eps: Eps | Fraction | int | str) -> LossPoint:
        """``max(0, α_k - e^ε β_k)``, exact (a sympy number, or 0).

        Args:
            eps: ε.

        Returns:
            :class:`~pdpsym.loss.base.LossPoint` with the tail that attains it.
        """
        t = Eps.of(eps).sympy_exp()
        values = [a - t * b for a, b, _ in self.terms]
        k = self._largest(values)
        if compare(values[k], 0).sign <= 0:
            return LossPoint(Fraction(0), None)
        return LossPoint(values[k], self.terms[k][2])

    def epsilon_zero(self) -> LossPoint:
        """``ln max_k α_k/β_k`` (the prior against the posterior wins), exact."""
        ratios = [a / b for a, b, _ in self.terms]
        k = self._largest(ratios)
        return LossPoint(sympy.log(sympy.simplify(ratios[k])), self.terms[k][2])

    def epsilon(self, delta: Fraction | int | str = 0) -> LossPoint:
        """``max(0, ln((α_k - δ)/β_k))`` over the ``k`` with ``α_k > δ``, exact (``delta``
        and the result as in :meth:`pdpsym.loss.base.PrivacyLoss.epsilon`)."""
        d = checked_delta(delta)
        if not d:
            return self.epsilon_zero()
        ratios = [(a - _rat(d)) / b for a, b, _ in self.terms]
        k = self._largest(ratios)
        if compare(ratios[k], 1).sign <= 0:
            return LossPoint(Fraction(0), None)
        return LossPoint(sympy.log(sympy.simplify(ratios[k])), self.terms[k][2])

    def exceeds(self, eps: Eps, delta: Fraction) -> bool:
        """Whether ``δ(ε) > delta``, decided."""
        return compare(self.delta(eps).value, delta).sign > 0


class BallValue:
    """A positive number known through ball enclosures at any precision (no closed
    form): ``-ln(1 - TV)`` or ``(1 - e^ε (1 - TV))/2`` of the module docstring.

    Args:
        ball: its enclosure at a precision (bits).
        text: what the number is.
    """

    #: no closed form: reports print its certified digits and enclosure only
    closed_form = False

    def __init__(self, ball: Callable[[int], Ball], text: str) -> None:
        self._ball, self.text = ball, text

    def arb(self, prec: int) -> Ball:
        """A ball containing the value at about ``prec`` bits."""
        with working_precision(prec + GUARD):
            return self._ball(prec)

    def as_rational(self) -> Fraction | None:
        """None: no closed form."""
        return None

    def exact_text(self) -> str:
        """What the number is."""
        return self.text

    def sympy(self) -> Any:
        """A symbol standing for the value: never equal to a number."""
        return sympy.Symbol("enclosed", positive=True)

    def __repr__(self) -> str:
        return f"BallValue({self.text!r})"


def _ball_max(balls: Sequence[Ball]) -> Ball:
    """A ball containing the largest of the numbers the balls contain (its ends are the
    largest lower end and the largest upper end)."""
    lo = max((b.lower() for b in balls), key=lambda x: ball_endpoints(x)[0])
    hi = max((b.upper() for b in balls), key=lambda x: ball_endpoints(x)[1])
    return Ball.union(lo, hi)


class OneSimulator(PrivacyLoss):
    """Distributional DP with one simulator law facing the two rows ``P`` (``K``) and
    ``Q`` (``K + D``) under Laplace or geometric noise: ``δ*(ε)`` of the module
    docstring's theorem.

    Args:
        law: the count law ``K`` of the other unknown records.
        shift: ``D > 0`` in count units.
        scale: ``Λ``, the Laplace scale in count units (ignored with ``alpha``).
        where: the block's plain facts (the known value).
        alpha: the geometric parameter (None: Laplace noise); the count unit is then
            the query's unit.

    References:
        Desfontaines et al. (2020), Section 2.1, Definition 4.
    """

    #: ε(δ)'s bisection decides each step in balls (certified, not exact rationals)
    bisection = "certified"

    def __init__(
        self,
        law: BallCountLaw,
        shift: int,
        scale: Fraction,
        where: Mapping[str, Any],
        alpha: Fraction | None = None,
    ) -> None:
        self.law, self.shift, self.scale = law, shift, Fraction(scale)
        self.alpha = None if alpha is None else Fraction(alpha)
        self.where = dict(where)
        # ε* where T^2 = r: D/(2Λ), or D ln(1/α)/2 under geometric noise
        self.star: Any = Fraction(shift) / (2 * self.scale)
        if self.alpha is not None:
            self.star = shift * sympy.log(_rat(1 / self.alpha)) / 2

    def hockey(self, shift: int, e: Eps, prec: int) -> Ball:
        """``H_{e^ε}`` of ``K`` against ``K + shift`` in balls."""
        if self.alpha is not None:
            return geometric_shift_delta_ball(self.law, shift, self.alpha, e, prec)
        return shift_delta_ball(self.law, shift, self.scale, e, prec)

    def _tv(self, prec: int) -> Ball:
        return self.hockey(self.shift, Eps.of(0), prec)

    def _star(self, prec: int) -> Ball:
        if self.alpha is None:
            return to_ball(self.star)
        return self.shift * (1 / to_ball(self.alpha)).log() / 2

    def _above(self, e: Eps) -> bool:
        """Whether ``ε >= ε*`` (``T^2 >= r``), decided."""
        if self.alpha is None:
            return at_least(e, self.star)
        if e.w is not None:  # both sides rational
            return e.w * e.w >= (1 / self.alpha) ** self.shift
        if not e.exponent:
            return False  # ε* > 0

        def diff(prec: int) -> Ball:
            with working_precision(prec + GUARD):
                return e.arb(prec + GUARD) - self._star(prec)

        return decide_sign(diff, "epsilon against |shift| ln(1/alpha)/2") >= 0

    def _terms(self, e: Eps, prec: int) -> list[Ball]:
        """The theorem's terms at ``ε`` as balls: the gap ``(1 - T (1 - TV))/2`` and,
        below ``ε*``, ``H_{T^2}(P‖Q)/(1 + T)`` and ``H_{T^2}(Q‖P)/(1 + T)`` (0 at and
        above it: ``T^2 >= r``)."""
        with working_precision(prec + GUARD):
            t = e.arb_exp(prec + GUARD)
            out = [(1 - t * (1 - self._tv(prec))) / 2]
            if not self._above(e):
                if e.exponent is not None:
                    t2 = Eps(exponent=2 * e.exponent)
                else:
                    assert e.w is not None
                    t2 = Eps(w=e.w * e.w)
                for d in (self.shift, -self.shift):
                    out.append(self.hockey(d, t2, prec) / (1 + t))
            return out

    def delta(self, eps: Eps | Fraction | int | str) -> LossPoint:
        """``δ*(ε) = max(0, gap, H_{T^2}(P‖Q)/(1 + T), H_{T^2}(Q‖P)/(1 + T))``.

        Args:
            eps: ε.

        Returns:
            :class:`~pdpsym.loss.base.LossPoint`: 0, or a ball value.
        """
        e = Eps.of(eps)
        if self._above(e):  # the hockey-stick terms vanish: the gap alone

            def gap(prec: int) -> Ball:
                return self._terms(e, prec)[0]

            if decide_sign(gap, "distributional DP delta against 0") <= 0:
                return LossPoint(Fraction(0), self.where)
            text = f"(1 - e^{e.sympy()} (1 - TV))/2, TV the total variation of the two rows"
            return LossPoint(BallValue(gap, text), self.where)

        def top(prec: int) -> Ball:
            return _ball_max(self._terms(e, prec))

        text = (
            f"max((1 - e^{e.sympy()} (1 - TV))/2, H(P||Q), H(Q||P)), H the rows' hockey "
            f"sticks at e^{2 * e.sympy()} over 1 + e^{e.sympy()}"
        )
        return LossPoint(BallValue(top, text), self.where)

    def exceeds(self, eps: Eps, delta: Fraction) -> bool:
        """Whether ``δ*(ε) > delta``, decided in balls."""
        return exceeds_in_balls(self.delta(eps).value, delta, "distributional DP delta")

    def epsilon_zero(self) -> LossPoint:
        """``max(ε*, -ln(1 - TV))``: ``ε*`` when ``1 - TV >= e^{-ε*}`` (decided), else
        the ball value."""

        def diff(prec: int) -> Ball:
            with working_precision(prec + GUARD):
                return (1 - self._tv(prec)) - (-self._star(prec)).exp()

        if decide_sign(diff, "1 - TV against e^(-epsilon*)") >= 0:
            return LossPoint(self.star, self.where)

        def ball(prec: int) -> Ball:
            with working_precision(prec + GUARD):
                return -((1 - self._tv(prec)).log())

        text = "-ln(1 - TV), TV the total variation of the two rows"
        return LossPoint(BallValue(ball, text), self.where)

    def epsilon(self, delta: Fraction | int | str = 0) -> LossPoint:
        """The smallest ε with ``δ*(ε) <= δ``: ``ln((1 - 2δ)/(1 - TV))`` when that is
        above ``ε*`` (the gap alone is left there), else by bisection on the decided
        ``δ*`` (non-increasing in ε: every term is).

        Args:
            delta: a rational in ``[0, 1)``.

        Returns:
            :class:`~pdpsym.loss.base.LossPoint`.
        """
        d = checked_delta(delta)
        if not d:
            return self.epsilon_zero()
        if 2 * d < 1:

            def ball(prec: int) -> Ball:
                with working_precision(prec + GUARD):
                    return (to_ball(1 - 2 * d) / (1 - self._tv(prec))).log()

            def diff(prec: int) -> Ball:
                with working_precision(prec + GUARD):
                    return ball(prec) - self._star(prec)

            if decide_sign(diff, "distributional DP epsilon against epsilon*") > 0:
                text = f"ln((1 - 2*{d})/(1 - TV)), TV the total variation of the two rows"
                return LossPoint(BallValue(ball, text), self.where)
        point = bisect_epsilon(self, d)
        return LossPoint(point.value, self.where)


def two_values(support: Sequence[Fraction], row: Sequence[int], domain: Sequence[Fraction]) -> Any:
    """The target's two support values ordered by contribution, or None when the support
    has another size or both values contribute alike.

    Args:
        support: the values of positive probability.
        row: the integer contributions per domain value.
        domain: the declared domain.

    Returns:
        ``(lo, hi, D)`` with ``D = c_hi - c_lo > 0``, or None.

    References:
        Desfontaines et al. (2020), Section 2.2, Definition 6 (the target's values).
    """
    if len(support) != 2:
        return None
    a, b = support
    ca, cb = row[list(domain).index(a)], row[list(domain).index(b)]
    if ca == cb:
        return None
    return (a, b, cb - ca) if ca < cb else (b, a, ca - cb)


#: how the IBCDP figures of :func:`product_result` are computed
IBCDP_TAIL_NOTE = (
    "exact: the sup over outputs is on a tail (the posterior ratio ranges over [1/r, r], "
    "r = e^(|shift|/lambda), or alpha^-|shift| for geometric noise, attained there); closed "
    "form in the target's prior, for any number of records (no database is listed)"
)
#: how the distributional-dp figures of :func:`product_result` are computed
SIMULATOR_NOTE = (
    "one simulator law per known value (independent records: no Markov blanket), its "
    "optimum in closed form: delta = max(0, (1 - e^eps (1 - TV))/2, H(P||Q), H(Q||P)), TV "
    "the rows' total variation and H their hockey sticks at e^(2 eps) over 1 + e^eps "
    "(0 from eps = |shift|/(2 lambda) on, |shift| ln(1/alpha)/2 for geometric noise), "
    "enclosed in balls over the count law (digits all certain)"
)


def product_result(kind: Any, model: Any, mech: Any, m: Any, req: Any) -> Any:
    """IBCDP or distributional DP of a two-valued target among more than
    :data:`~pdpsym.audit.product_shifts.EXACT_RECORDS` independent records, in closed
    form (the module docstring); None where the exact engines run (fewer records, other
    models or mechanisms, another notion, a target of more than two values).

    Args:
        kind: the notion (:class:`~pdpsym.audit.registry.Notion`).
        model: the structured model.
        mech: the mechanism on the weighted sum.
        m: the query laws (:class:`~pdpsym.audit.sum_posteriors.QueryLaws`, with the
            records' integer ``rows`` and ``unit``).
        req: the request (ε values, δ).

    Returns:
        The notion's :class:`~pdpsym.audit.NotionResult`, or None.

    References:
        Desfontaines et al. (2020), Section 2.1, Definition 4; Section 2.2, Definition 6.
    """
    posterior = kind.compare is Compare.POSTERIOR
    if not (posterior or kind.compare is Compare.SIMULATOR_LP):
        return None
    geometric = mech.alpha is not None
    if product_of(model) is None or len(model.variables) <= product_shifts.EXACT_RECORDS:
        return None
    if (mech.lam is None and not geometric) or (geometric and not posterior and m.unit != 1):
        return None
    vals, ps = dict(zip(model.variables, model.laws, strict=True))[m.target]
    prior = dict(zip(vals, ps, strict=True))
    pair = two_values([a for a in vals if prior[a]], m.rows[m.target], vals)
    if pair is None:
        return None
    lo, hi, shift = pair
    lam = Fraction(1) if mech.lam is None else Fraction(mech.lam)
    cases = ProductCases(model, m.target, m.known, m.rows, m.unit, lam)
    where = {"known": cases.first_known()}
    if posterior:
        if geometric:
            d = Fraction(shift, m.unit)
            assert d.denominator == 1  # geometric noise needs an integer-valued query
            r = _rat(1 / Fraction(mech.alpha)) ** int(d)
        else:
            r = sympy.exp(_rat(shift / cases.scale))
        loss: PrivacyLoss = TailPosteriors(prior[lo], prior[hi], r, where)
        note = IBCDP_TAIL_NOTE
    else:
        alpha = None if mech.alpha is None else Fraction(mech.alpha)
        loss = OneSimulator(cases.law(True), shift, cases.scale, where, alpha)
        note = SIMULATOR_NOTE
    res = NotionResult.of_loss(kind.name, loss, req.eps, req.delta, kind.label(req.reading))
    return replace(res, note=note)


__all__ = [
    "IBCDP_TAIL_NOTE",
    "SIMULATOR_NOTE",
    "BallValue",
    "OneSimulator",
    "TailPosteriors",
    "product_result",
    "two_values",
]

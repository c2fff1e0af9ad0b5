"""The one privacy-loss interface: δ(ε) and ε(δ) of a pair of output laws, exactly.

Modelled on dp_accounting's ``pld/privacy_loss_mechanism.py``: one abstract base,
:class:`PrivacyLoss`, and one subclass per family (a pair of finite PMFs, a pair of
Laplace mixtures, a pair of two-sided geometric mixtures, the closed-form counting and
thresholding laws), plus two combinators: :class:`Weighted` (``Σ_k w_k · loss_k``, the
PPKDP expectation of Desfontaines et al. Theorem 1) and :class:`WorstCase` (the maximum
over the cases of a notion, with the case that attains it).

For a pair ``(P, Q)`` the privacy loss at ``ε`` is the hockey-stick divergence

    δ(ε) = sup_S P(S) - e^ε Q(S) = ∫ (p(o) - e^ε q(o))_+ do

(Desfontaines et al. Lemma 1), non-increasing and convex in ``e^ε``, and

    ε(δ) = min { ε ≥ 0 : δ(ε) ≤ δ }     (``oo`` when no ε works).

``delta`` returns a :class:`LossPoint` holding an exact value (a Fraction, a
:class:`~pdpsym.loss.exp_linear.WLin`, a :class:`~pdpsym.core.exp_sqrt_sums.SqrtExpSum`, ...) and
where it is attained; ``epsilon`` returns a :class:`LossPoint` holding ``ε`` exactly
(``ln`` of a rational, a :class:`~pdpsym.core.exp_polynomials.LogRatio`) or, when no closed form
is known, a :class:`~pdpsym.core.exp_sqrt_sums.Bracket`: the root of ``δ(ε) = δ`` found by
bisection in which every step is decided exactly.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.core.compare import compare
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError, Undecided
from pdpsym.core.exp_sqrt_sums import Bracket, SqrtExpSum

#: an exact value (anything :func:`pdpsym.core.certify.certify` accepts), or sympy ``oo``
Value = Any


@dataclass(frozen=True)
class LossPoint:
    """An exact value of δ(ε) or ε(δ) and where it is attained (plain facts, or None).

    It is itself an exact value: ``arb``, ``sympy`` and ``exact_text`` delegate to
    ``value`` (``oo`` for an infinite ε).
    """

    value: Value
    where: Mapping[str, Any] | None = None

    def is_infinite(self) -> bool:
        """Whether the value is sympy's ``oo`` (an unbounded ε)."""
        return self.value is sympy.oo

    def sympy(self) -> sympy.Expr:
        """The value as an exact sympy expression (a Rational for a Fraction or an int).

        Returns:
            The exact sympy value (``oo`` for an infinite ε).
        """
        v = self.value
        if isinstance(v, Fraction | int):
            q = Fraction(v)
            return sympy.Rational(q.numerator, q.denominator)
        return v if isinstance(v, sympy.Basic) else v.sympy()

    def arb(self, prec: int) -> Any:
        """A certified arb ball enclosing the value at ``prec`` bits (:func:`pdpsym.core.certify.enclose`).

        Args:
            prec: the working precision in bits.

        Returns:
            The enclosure.
        """
        from pdpsym.core.certify import enclose  # noqa: PLC0415 (the one helper)

        return enclose(self.value, prec)

    def exact_text(self) -> str:
        """The exact value as text (:func:`pdpsym.core.certify.exact_str`).

        Returns:
            The exact text of the value.
        """
        from pdpsym.core.certify import exact_str  # noqa: PLC0415

        return exact_str(self.value)


def exact_sign(x: Value, q: Fraction) -> int:
    """The decided sign of ``x - q`` for an exact value ``x`` and a rational ``q``.

    Uses the value's own ``compare_rational`` when it has one, else
    :func:`pdpsym.core.compare.compare` (certified, exact on ties).

    Args:
        x: an exact value (Fraction, sympy expression, or a value type of
            :mod:`pdpsym.core`).
        q: the rational to compare with.

    Returns:
        ``-1``, ``0`` or ``1``.

    Raises:
        Undecided: when the comparison cannot be decided at the precision cap.

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval
        arithmetic" (2017), for the certified comparison.
    """
    cmp = getattr(x, "compare_rational", None)
    if cmp is not None:
        return int(cmp(q))
    return compare(x, q).sign


def as_sum(x: Value, eps: Eps) -> SqrtExpSum:
    """Any δ value of this package (Fraction, WLin, ExpPoly, SqrtExpSum) as a SqrtExpSum.

    A ``WLin`` ``c0 + c1 e^ε`` is expanded at the given ε: a rational when ``e^ε`` is
    rational, else the exp-polynomial ``c0 + c1 e^{ε}``.

    Args:
        x: the δ value.
        eps: the ε at which ``x`` was computed.

    Returns:
        The same exact value as a :class:`~pdpsym.core.exp_sqrt_sums.SqrtExpSum` (so values of
        different kinds can be added, as :class:`Weighted` does).

    Raises:
        TypeError: for a value of another kind.

    References:
        Desfontaines et al. (2020), Section 3.4, Theorem 1 (PPK as a weighted sum of APK
        values, the reason the sum is needed).
    """
    from pdpsym.core.exp_polynomials import ExpPoly  # noqa: PLC0415 (kept local: one use)

    if isinstance(x, SqrtExpSum):
        return x
    if isinstance(x, Fraction | int):
        return SqrtExpSum.of(Fraction(x))
    c0, c1 = getattr(x, "c0", None), getattr(x, "c1", None)
    if c0 is not None and c1 is not None:  # a WLin c0 + c1 e^ε
        if eps.w is not None:
            return SqrtExpSum.of(c0 + c1 * eps.w)
        assert eps.exponent is not None
        return SqrtExpSum(ExpPoly({Fraction(0): c0, eps.exponent: c1}))
    raise TypeError(f"not a δ value: {x!r}")


class PrivacyLoss(abc.ABC):
    """A pair of output laws ``(P, Q)`` (or a combination of pairs) and its privacy curve.

    Subclasses give :meth:`delta` (exact) and :meth:`epsilon_zero` (the smallest ε with
    δ = 0); :meth:`epsilon` at δ > 0 defaults to an exactly decided bisection on
    :meth:`delta`, and subclasses with a closed form override it.

    References:
        Desfontaines et al. Lemma 1, Definitions 12-13 (the hockey stick); dp_accounting
        ``PrivacyLoss`` (the shape of this interface).
    """

    @abc.abstractmethod
    def delta(self, eps: Eps | Fraction | int | str) -> LossPoint:
        """``δ(ε) = ∫ (p - e^ε q)_+`` exactly.

        Args:
            eps: ε (an :class:`~pdpsym.core.eps.Eps` or an exact number).

        Returns:
            :class:`LossPoint` with an exact value.
        """

    @abc.abstractmethod
    def epsilon_zero(self) -> LossPoint:
        """The smallest ε with δ(ε) = 0: ``sup_o ln p(o)/q(o)`` (``oo`` if unbounded)."""

    def mass_without_q(self) -> Fraction:
        """``lim_{ε→∞} δ(ε)``: the mass of P where Q vanishes (0 by default)."""
        return Fraction(0)

    def exceeds(self, eps: Eps, delta: Fraction) -> bool:
        """Whether ``δ(ε) > delta``, decided exactly."""
        return exact_sign(self.delta(eps).value, delta) > 0

    def epsilon(self, delta: Fraction | int | str = 0) -> LossPoint:
        """The smallest ε ≥ 0 with ``δ(ε) ≤ delta``.

        Args:
            delta: a rational in ``[0, 1)``.

        Returns:
            :class:`LossPoint`: ``oo`` when no ε works, ``0`` when ε = 0 already works,
            else the exact value or a :class:`~pdpsym.core.exp_sqrt_sums.Bracket`.
        """
        d = checked_delta(delta)
        if d == 0:
            return self.epsilon_zero()
        return bisect_epsilon(self, d)


def checked_delta(delta: Fraction | int | str) -> Fraction:
    """``delta`` as an exact rational in ``[0, 1)``.

    Args:
        delta: an int, a Fraction or a number string.

    Returns:
        The Fraction.

    Raises:
        InputError: (field ``delta``) outside ``[0, 1)``.

    References:
        Dwork and Roth (2014), Definition 2.4 (δ is a probability slack in [0, 1)).
    """
    d = Eps.of(delta).eps if not isinstance(delta, Fraction | int) else Fraction(delta)
    if d is None or not 0 <= d < 1:
        raise InputError("delta", "must lie in [0, 1)")
    return d


def _exceeds(loss: PrivacyLoss, eps: Fraction, delta: Fraction) -> bool:
    return loss.exceeds(Eps.of(eps), delta)


def bisect_epsilon(loss: PrivacyLoss, delta: Fraction, limit: Fraction = Fraction(0)) -> LossPoint:
    """ε(δ) for δ > 0 by bisection on the exact δ(ε), each step decided exactly.

    Returns ``oo`` when ``mass_without_q() > δ`` (no ε works) and ``0`` when δ(0) ≤ δ
    already. Otherwise doubles an upper end from 1 until ``δ(hi) ≤ δ``, then bisects; a
    step that falls on an undecidable tie ``δ(m) = δ`` is moved off it (up to 8 tries).

    Args:
        loss: the privacy loss (its δ(ε) non-increasing in ε).
        delta: the target δ, a rational in ``(0, 1)``.
        limit: when positive, the bracket is tightened to this width at once and labelled
            a certified enclosure; 0 leaves it lazy (narrowed on demand).

    Returns:
        :class:`LossPoint`: ``oo``, ``0``, or a :class:`~pdpsym.core.exp_sqrt_sums.Bracket`
        ``[lo, hi]`` with ``δ(lo) > δ ≥ δ(hi)``; its ``where`` is the loss's ``where``.

    Raises:
        Undecided: when eight steps in a row cannot be decided.

    References:
        Desfontaines et al. (2020), Section 3.1, Lemma 1 (δ(ε) as the hockey stick);
        Meiser & Mohammadi (2018), "Tight on budget?", for ε(δ) as the inverse of the
        privacy curve.
    """
    if loss.mass_without_q() > delta:
        return LossPoint(sympy.oo, _where(loss))
    if not _exceeds(loss, Fraction(0), delta):
        return LossPoint(Fraction(0), _where(loss))
    hi = Fraction(1)
    while _exceeds(loss, hi, delta):
        hi *= 2
    lo = hi / 2 if hi > 1 else Fraction(0)

    def narrow(a: Fraction, b: Fraction) -> tuple[Fraction, Fraction]:
        mid = (a + b) / 2
        for k in range(8):  # a tie δ(mid) = δ cannot be decided: step off it
            m = mid + (b - a) * Fraction(k, 64)
            try:
                return (m, b) if _exceeds(loss, m, delta) else (a, m)
            except Undecided:
                continue
        raise Undecided(f"epsilon at delta {delta}", 0)

    label = f"epsilon with delta(epsilon) = {delta} ({_bisection(loss)} bisection)"
    if limit:  # an enclosure of that width, reported as such
        label = f"epsilon with delta(epsilon) = {delta} (certified enclosure)"
        bracket = Bracket(lo, hi, narrow, label, limit=limit)
        bracket.tighten(limit)
        return LossPoint(bracket, _where(loss))
    return LossPoint(Bracket(lo, hi, narrow, label), _where(loss))


def _bisection(loss: PrivacyLoss) -> str:
    """How ε(δ)'s bisection decides its steps: ``exact``, or ``certified`` when any part
    of the loss is decided in balls (its class sets ``bisection``)."""
    # Weighted holds (w, loss) terms, WorstCase and _Max (where, loss) cases; other
    # losses may hold cases of their own kind (not losses: skipped)
    items = [*getattr(loss, "terms", ()), *getattr(loss, "cases", ())]
    parts = [i[1] if isinstance(i, tuple) and len(i) == 2 else i for i in items]
    if getattr(loss, "bisection", "exact") != "exact" or any(
        _bisection(p) != "exact" for p in parts if isinstance(p, PrivacyLoss)
    ):
        return "certified"
    return "exact"


def _where(loss: PrivacyLoss) -> Mapping[str, Any] | None:
    return getattr(loss, "where", None)


# --- combinations ------------------------------------------------------------------------


class Weighted(PrivacyLoss):
    """``Σ_k w_k · loss_k`` with rational ``w_k > 0``: PPKDP's expectation over the known
    value (Desfontaines et al. Theorem 1, Proposition 5's proof).

    Args:
        terms: ``(w_k, loss_k)`` pairs.
    """

    def __init__(self, terms: Iterable[tuple[Fraction, PrivacyLoss]]) -> None:
        self.terms = tuple((Fraction(w), t) for w, t in terms if w)

    def delta(self, eps: Eps | Fraction | int | str) -> LossPoint:
        """``Σ_k w_k δ_k(ε)`` exactly.

        Args:
            eps: ε (an :class:`~pdpsym.core.eps.Eps` or an exact number).

        Returns:
            :class:`LossPoint`: a Fraction when every term is, else a
            :class:`~pdpsym.core.exp_sqrt_sums.SqrtExpSum`; ``0`` for no terms.
        """
        e = Eps.of(eps)
        if not self.terms:
            return LossPoint(Fraction(0))
        vals = [t.delta(e).value for _, t in self.terms]
        if all(isinstance(v, Fraction) for v in vals):
            return LossPoint(
                sum((w * v for (w, _), v in zip(self.terms, vals, strict=True)), Fraction(0))
            )
        total = SqrtExpSum.of(0)
        for (w, _), v in zip(self.terms, vals, strict=True):
            total = total + as_sum(v, e).scale(w)
        return LossPoint(total)

    def epsilon_zero(self) -> LossPoint:
        # δ = 0 iff every term is 0: the largest ε of the terms
        """The smallest ε with δ = 0: the largest of the terms' (δ = 0 iff every term is 0).

        Returns:
            :class:`LossPoint` (``oo`` if a term is unbounded).
        """
        return worst_of([t.epsilon_zero() for _, t in self.terms])

    def mass_without_q(self) -> Fraction:
        """``lim_{ε→∞} δ(ε) = Σ_k w_k · lim δ_k``.

        Returns:
            The exact limit as a Fraction.
        """
        return sum((w * t.mass_without_q() for w, t in self.terms), Fraction(0))


def worst_of(points: Sequence[LossPoint]) -> LossPoint:
    """The largest of exact values (``oo`` wins), by decided comparisons; ties keep the first.

    Args:
        points: the candidates, each with its ``where``.

    Returns:
        The maximizing :class:`LossPoint` (with its ``where``); ``LossPoint(0)`` for no
        points.

    References:
        Desfontaines et al. (2020), Section 3.2, Definition 12 (the worst case over the
        quantified cases).
    """
    best: LossPoint | None = None
    for p in points:
        if p.is_infinite():
            return p
        if best is None or _cmp(p.value, best.value) > 0:
            best = p
    return best if best is not None else LossPoint(Fraction(0))


def _cmp(x: Value, y: Value) -> int:
    if x is y or (type(x) is type(y) and x == y):
        return 0
    return compare(x, y).sign


class WorstCase(PrivacyLoss):
    """The maximum over the cases of a notion: ``δ(ε) = max_c δ_c(ε)``, with the case
    attaining it (its ``where``) as the witness; ``ε(δ) = max_c ε_c(δ)``.

    Args:
        cases: ``(where, loss)`` pairs; ``where`` is a mapping of plain facts.
    """

    def __init__(self, cases: Iterable[tuple[Mapping[str, Any], PrivacyLoss]]) -> None:
        self.cases = tuple(cases)

    def delta(self, eps: Eps | Fraction | int | str) -> LossPoint:
        """``max_c δ_c(ε)`` with the maximizing case's ``where``.

        Equal values (by hash and equality) are compared once; the first case keeps them.

        Args:
            eps: ε (an :class:`~pdpsym.core.eps.Eps` or an exact number).

        Returns:
            :class:`LossPoint` whose ``where`` is the attaining case.
        """
        e = Eps.of(eps)
        seen: dict[Any, Mapping[str, Any]] = {}
        points = []
        for where, loss in self.cases:
            v = loss.delta(e).value
            try:
                key = hash(v), v
                if key in seen:
                    continue
                seen[key] = where
            except TypeError:
                pass
            points.append(LossPoint(v, where))
        return worst_of(points)

    def epsilon_zero(self) -> LossPoint:
        """``max_c ε_c(0)``, with the case's ``where`` merged with the case's own witness.

        Returns:
            :class:`LossPoint` (``oo`` if a case is unbounded).
        """
        points = []
        for where, loss in self.cases:
            p = loss.epsilon_zero()
            points.append(LossPoint(p.value, {**where, **(p.where or {})}))
        return worst_of(points)

    def epsilon(self, delta: Fraction | int | str = 0) -> LossPoint:
        """``max_c ε_c(δ)``: exact when every case's ε is; otherwise one bisection on the max.

        Args:
            delta: a rational in ``[0, 1)``.

        Returns:
            :class:`LossPoint`: ``oo`` as soon as one case has no ε; the largest exact ε;
            or a :class:`~pdpsym.core.exp_sqrt_sums.Bracket` from a bisection on ``max_c δ_c``.

        Raises:
            InputError: (field ``delta``) outside ``[0, 1)``.
        """
        d = checked_delta(delta)
        if d == 0:
            return self.epsilon_zero()
        points = []
        for where, loss in self.cases:
            p = loss.epsilon(d)
            if p.is_infinite():
                return LossPoint(sympy.oo, where)
            points.append(LossPoint(p.value, where))
        exact = [p for p in points if not isinstance(p.value, Bracket)]
        if len(exact) == len(points):
            return worst_of(points)
        # brackets: one bisection on the maximum (its witness: the last case to exceed)
        return bisect_epsilon(_Max(self.cases), d)

    def mass_without_q(self) -> Fraction:
        """``lim_{ε→∞} max_c δ_c(ε) = max_c lim δ_c``.

        Returns:
            The exact limit as a Fraction (0 for no cases).
        """
        return max((loss.mass_without_q() for _, loss in self.cases), default=Fraction(0))


class _Max(PrivacyLoss):
    """``max_c δ_c`` as a loss whose ``delta`` only answers ``> δ?`` well: the first case
    found above δ is tried first next time, and is the witness."""

    def __init__(self, cases: Sequence[tuple[Mapping[str, Any], PrivacyLoss]]) -> None:
        self.cases = list(cases)
        self.where: Mapping[str, Any] | None = cases[0][0] if cases else None

    def delta(self, eps: Eps | Fraction | int | str) -> LossPoint:
        return WorstCase(self.cases).delta(eps)

    def exceeds(self, eps: Eps, delta: Fraction) -> bool:
        for k, (where, loss) in enumerate(self.cases):
            if loss.exceeds(eps, delta):
                self.cases.insert(0, self.cases.pop(k))
                self.where = where
                return True
        return False

    def epsilon_zero(self) -> LossPoint:
        return WorstCase(self.cases).epsilon_zero()

    def mass_without_q(self) -> Fraction:
        return max((loss.mass_without_q() for _, loss in self.cases), default=Fraction(0))


def worst_case(cases: Iterable[tuple[Mapping[str, Any], PrivacyLoss]]) -> WorstCase:
    """The maximum over ``(where, loss)`` cases (see :class:`WorstCase`).

    Args:
        cases: ``(where, loss)`` pairs; ``where`` is a mapping of plain facts naming
            the case (target, direction, knowledge value, ...).

    Returns:
        The :class:`WorstCase` loss.

    References:
        Desfontaines et al. (2020), Section 3.2, Definition 12 (for all i, a, b and B̂).
    """
    return WorstCase(cases)


__all__ = [
    "LossPoint",
    "PrivacyLoss",
    "Weighted",
    "WorstCase",
    "as_sum",
    "bisect_epsilon",
    "exact_sign",
    "worst_case",
    "worst_of",
]

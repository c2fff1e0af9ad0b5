"""One privacy curve δ(ε) for every notion with finite outputs, exactly.

Every notion of the three papers, for a finite mechanism and a finite model, is a
maximum over *cases* (a target value pair, a known value, ...) of a weighted sum of
hockey-stick divergences

    δ_case(ε) = Σ_k w_k Σ_o max(0, P_k(o) - e^ε Q_k(o))

(Desfontaines et al. Lemma 1 and Definitions 12-13: APKDP has one term per case; PPKDP
weights the terms by P[B̂ | D(i) = a]; classic DP, NP, CDP and dependent DP have one
term each). As a function of ``t = e^ε`` each case is convex, piecewise linear and
non-increasing, with breakpoints at the likelihood ratios ``P_k(o) / Q_k(o)``. So:

* the smallest ε with δ = 0 is ``ln max P_k(o)/Q_k(o)`` (``oo`` if some ``Q_k(o) = 0 <
  P_k(o)``);
* δ at a given ε is exact (a :class:`~pdpsym.loss.exp_linear.WLin` ``c0 + c1 e^ε``);
* the smallest ε for a given δ is ``ln t`` with ``t`` an exact rational: the linear
  piece of the case that crosses δ is solved exactly.

>>> c = Case({"pair": "a vs b"}, ((Fraction(1), {0: Fraction(3, 4), 1: Fraction(1, 4)},
...                                  {0: Fraction(1, 4), 1: Fraction(3, 4)}),))
>>> c.ratio_at_delta(Fraction(0)), c.ratio_at_delta(Fraction(1, 4))
(Fraction(3, 1), Fraction(2, 1))
>>> str(c.delta(Eps.log(2)))
'1/4'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from pdpsym.core.eps import Eps
from pdpsym.loss.exp_linear import WLin
from pdpsym.models.scenario import PMF

Term = tuple[Fraction, PMF, PMF]


@dataclass(frozen=True)
class Case:
    """One case of a notion: ``where`` it is (plain facts) and its weighted PMF pairs."""

    where: Mapping[str, Any]
    terms: tuple[Term, ...]

    @cached_property
    def _rows(self) -> tuple[tuple[Fraction, tuple[tuple[Any, Fraction, Fraction], ...]], ...]:
        # each term's outputs with P(o) > 0, in P's order, as (o, P(o), Q(o)): an output
        # with P(o) = 0 adds nothing to δ and no ratio, and an output key (a tuple of
        # Fractions, say) is hashed once here rather than at every evaluation
        out = []
        for w, p, q in self.terms:
            rows = []
            for o, po in p.items():
                if po:
                    rows.append((o, Fraction(po), Fraction(q.get(o, 0))))
            out.append((Fraction(w), tuple(rows)))
        return tuple(out)

    def delta(self, eps: Eps) -> WLin:
        """``δ_case(ε)`` exactly: each output's sign of ``P(o) - e^ε Q(o)`` decided exactly."""
        c0 = c1 = Fraction(0)
        for w, rows in self._rows:
            a = b = Fraction(0)
            for _, p, q in rows:
                if WLin(p, -q, eps).sign() > 0:
                    a += p
                    b += q
            c0 += w * a
            c1 -= w * b
        return WLin(c0, c1, eps)

    def delta_at_ratio(self, t: Fraction) -> Fraction:
        """``δ_case`` at ``e^ε = t`` (a rational), exactly."""
        total = Fraction(0)
        for w, rows in self._rows:
            for _, p, q in rows:
                x = p - t * q
                if x > 0:
                    total += w * x
        return total

    def worst_output(self) -> Any:
        """The output with the largest likelihood ratio ``P_k(o)/Q_k(o)`` (``Q_k(o) = 0``
        first): where ε at δ = 0 is attained."""
        best: tuple[int, Fraction] | None = None
        where = None
        for _, rows in self._rows:
            for o, p, q in rows:
                key = (1, Fraction(0)) if q == 0 else (0, p / q)
                if best is None or key > best:
                    best, where = key, o
        return where

    @cached_property
    def _ratio_memo(self) -> dict[Fraction, Fraction | None]:
        return {}

    def ratio_at_delta(self, delta: Fraction) -> Fraction | None:
        """The smallest ``t = e^ε ≥ 1`` with ``δ_case ≤ delta``; None if there is none."""
        memo = self._ratio_memo
        if delta not in memo:
            memo[delta] = self._ratio_at_delta(delta)
        return memo[delta]

    def _ratio_at_delta(self, delta: Fraction) -> Fraction | None:
        if self.delta_at_ratio(Fraction(1)) <= delta:
            return Fraction(1)
        if delta == 0:  # δ(t) = 0 exactly from the largest ratio on (none if some Q = 0)
            if any(q == 0 for _, rows in self._rows for _, _, q in rows):
                return None
            return max(p / q for _, rows in self._rows for _, p, q in rows)
        # δ(t) = A(t) - t B(t), A and B summing w P and w Q over the outputs whose ratio
        # exceeds t (Q = 0 counts as an infinite ratio). Walk the breakpoints down from
        # the largest: δ there only grows, so the last breakpoint r > 1 with δ(r) ≤ delta
        # is the first one above the answer, and the piece below it is solved exactly.
        A = sum((w * p for w, rows in self._rows for _, p, q in rows if q == 0), Fraction(0))
        B = Fraction(0)
        if A > delta:
            return None  # the mass with Q = 0 alone exceeds delta
        items = sorted(
            ((p / q, w * p, w * q) for w, rows in self._rows for _, p, q in rows if q),
            key=lambda x: x[0],
            reverse=True,
        )
        k = 0
        while k < len(items):
            r = items[k][0]
            if r <= 1 or A - r * B > delta:
                break  # δ(lo) > delta at lo = max(r, 1): the answer lies above lo
            while k < len(items) and items[k][0] == r:
                A += items[k][1]
                B += items[k][2]
                k += 1
        return (A - delta) / B


@dataclass(frozen=True)
class CurvePoint:
    """The worst case of a notion at one ε or one δ, with where it is attained."""

    value: Any
    where: Mapping[str, Any] | None


def worst_ratio(cases: Iterable[Case], delta: Fraction = Fraction(0)) -> CurvePoint:
    """``e^ε`` of the smallest ε ≥ 0 with ``max_case δ_case(ε) ≤ delta``.

    Each case's ``t = e^ε`` is an exact rational (:meth:`Case.ratio_at_delta`: the
    largest likelihood ratio at δ = 0, else the crossing of one linear piece of the
    piecewise-linear curve in ``t``); the worst case is the largest ``t``, decided
    exactly on rationals.

    Args:
        cases: the cases of the notion (each a weighted sum of PMF pairs).
        delta: the target δ, a rational in ``[0, 1)``.

    Returns:
        :class:`CurvePoint`: ``value`` is the rational ``t ≥ 1`` (so ``ε = ln t``; 1 when
        there are no cases), or ``None`` when no finite ε works (ε = ∞); ``where`` is the
        attaining case (with the worst ``output`` added at δ = 0).

    References:
        Desfontaines et al. (2020), Section 3.1, Lemma 1 and Section 3.2-3.3,
        Definitions 12-13; Meiser & Mohammadi (2018), "Tight on budget?" (the privacy
        curve of a pair of discrete laws).
    """
    best = Fraction(1)
    where: Mapping[str, Any] | None = None
    for c in cases:
        t = c.ratio_at_delta(delta)
        if t is None:
            return CurvePoint(None, _with_output(c, delta))
        if where is None or t > best:
            best, where = t, _with_output(c, delta)
    return CurvePoint(best, where)


def _with_output(c: Case, delta: Fraction) -> Mapping[str, Any]:
    # at delta = 0 the worst case sits at one output; report it with the case
    return (
        {**c.where, "output": c.worst_output()}
        if delta == 0 and "output" not in c.where
        else c.where
    )


def worst_delta(cases: Iterable[Case], eps: Eps) -> CurvePoint:
    """``max_case δ_case(ε)``, exactly, and the case attaining it.

    Args:
        cases: the cases of the notion (each a weighted sum of PMF pairs).
        eps: ε (an :class:`~pdpsym.core.eps.Eps`).

    Returns:
        :class:`CurvePoint`: ``value`` is a :class:`~pdpsym.loss.exp_linear.WLin`
        ``c0 + c1 e^ε`` with rational ``c0, c1`` (0 for no cases), ``where`` the first
        case attaining the maximum.

    References:
        Desfontaines et al. (2020), Section 3.1, Lemma 1 and Sections 3.2-3.3,
        Definitions 12-13.
    """
    best = WLin.const(0, eps)
    where: Mapping[str, Any] | None = None
    for c in cases:
        v = c.delta(eps)
        if where is None or v.exact_compare(best) > 0:
            best, where = v, c.where
    return CurvePoint(best, where)

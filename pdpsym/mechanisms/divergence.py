"""Output laws as unions of ranges of a count, and their exact hockey-stick divergence.

An :class:`OutputLaw` gives output ``o`` the mass ``weight * P[S in ranges[o]]`` for a
count ``S`` of law :class:`~pdpsym.mechanisms.count_law.CountLaw`. Definition 12 with
Lemma 1 of Desfontaines et al. (Section 4) makes the privacy curve of two such laws

    delta(eps) = sum_o max(0, P(o) - e^eps Q(o)),

which :func:`hockey` decides exactly: the sign of each summand by arb balls at rising
precision (``e^eps`` is irrational for rational ``eps != 0``, Lindemann, so it is never a
tie), the value ``A - e^eps B`` with exact masses ``A, B`` of the decided output set
(:class:`Hockey`, reported through :mod:`pdpsym.core.certify`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.core.balls import Ball, arb_from_fraction, ball_endpoints
from pdpsym.core.certify import Exact, decide_sign
from pdpsym.core.count_law_balls import (
    BALL_ZERO,
    exp_ball,
    workprec,
)
from pdpsym.core.eps import Eps
from pdpsym.mechanisms.count_law import CountLaw


@dataclass(frozen=True)
class OutputLaw:
    """A law over outputs ``0..len-1``: output ``o`` has mass ``weight * P[S in ranges[o]]``.

    A range is ``(lo, hi, shift)``: the event ``lo <= S + shift <= hi``. ``weight`` is an
    exact rational (a probability of background knowledge, say).
    """

    law: CountLaw
    ranges: tuple[tuple[int, int], ...]  # already in terms of S
    weight: Fraction = Fraction(1)

    def __len__(self) -> int:
        return len(self.ranges)

    def exact_mass(self, o: int) -> Fraction:
        """The exact mass ``weight · P[lo ≤ S ≤ hi]`` of output ``o`` (0 for an empty range).

        Args:
            o: the output's index.

        Returns:
            The exact Fraction (from the law's exact PMF).
        """
        lo, hi = self.ranges[o]
        pmf = self.law.exact_pmf()
        lo, hi = max(lo, 0), min(hi, self.law.m)
        if lo > hi:  # an empty event (never a negative slice)
            return Fraction(0)
        return self.weight * sum(pmf[lo : hi + 1], Fraction(0))

    def arb_mass(self, o: int, prec: int) -> Ball:
        """A certified ball of the mass of output ``o`` at ``prec`` bits.

        Args:
            o: the output's index.
            prec: the working precision in bits.

        Returns:
            The arb ball enclosing ``weight · P[lo ≤ S ≤ hi]``.
        """
        lo, hi = self.ranges[o]
        return self.law.arb_range(lo, hi, prec) * arb_from_fraction(self.weight)


@dataclass(frozen=True)
class Mass:
    """The exact value ``sum_k w_k P[S_k in union of ranges_k]`` (arb-evaluable)."""

    parts: tuple[tuple[Fraction, CountLaw, tuple[tuple[int, int], ...]], ...]

    @classmethod
    def of(cls, weight: Fraction, law: CountLaw, ranges: Sequence[tuple[int, int]]) -> Mass:
        """``weight * P[S in union of ranges]`` with the ranges clipped and merged."""
        clipped = [(max(lo, 0), min(hi, law.m)) for lo, hi in ranges]
        return cls(((Fraction(weight), law, tuple(_merge(clipped))),))

    def exact(self) -> Fraction | None:
        """The exact value when every law is small (exact PMFs), else None.

        Returns:
            The Fraction, or None for a large law (use :meth:`arb` or :meth:`sympy`).
        """
        if not all(law.is_exact() for _, law, _ in self.parts):
            return None
        total = Fraction(0)
        for w, law, rs in self.parts:
            pmf = law.exact_pmf()
            for lo, hi in rs:
                lo, hi = max(lo, 0), min(hi, law.m)
                if lo <= hi:
                    total += w * sum(pmf[lo : hi + 1], Fraction(0))
        return total

    def arb(self, prec: int) -> Ball:
        """A certified ball of the value at ``prec`` bits.

        Args:
            prec: the working precision in bits.

        Returns:
            The arb ball.
        """
        acc = BALL_ZERO
        with workprec(prec):
            for w, law, rs in self.parts:
                for lo, hi in rs:
                    acc += arb_from_fraction(w) * law.arb_range(lo, hi, prec)
        return acc

    def sympy(self) -> sympy.Expr:
        """The exact value as sympy: a Rational for small laws, else unexpanded binomial masses.

        Returns:
            The sympy expression (``BinomialMass`` / ``PoissonBinomialMass`` terms for large
            laws).
        """
        q = self.exact()
        if q is not None:
            return sympy.Rational(q.numerator, q.denominator)
        terms = []
        for w, law, rs in self.parts:
            for lo, hi in _merge(rs):
                terms.append(sympy.Rational(w.numerator, w.denominator) * law.sympy_range(lo, hi))
        return sympy.Add(*terms)

    def __add__(self, other: Mass) -> Mass:
        return Mass(self.parts + other.parts)


def _merge(rs: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(r for r in rs if r[0] <= r[1]):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


@dataclass(frozen=True)
class Hockey:
    """The exact value ``A - e^eps B`` (``A``, ``B`` exact masses, ``eps`` rational)."""

    a: Mass
    b: Mass
    eps: Eps

    def rational(self) -> Fraction | None:
        """The value as a rational when it is one (small laws and rational ``e^ε``, or ``B = 0``).

        Returns:
            The Fraction, or None.
        """
        qa, qb = self.a.exact(), self.b.exact()
        if qa is None or qb is None:
            return None
        if qb == 0:
            return qa
        c = self.eps.exact_exp()
        return None if c is None else qa - c * qb

    def arb(self, prec: int) -> Ball:
        """A certified ball of ``A - e^ε B`` at ``prec`` bits (``A`` alone when ``B`` is exactly 0).

        Args:
            prec: the working precision in bits.

        Returns:
            The arb ball.
        """
        with workprec(prec):
            b = self.b.arb(prec)
            if b.is_exact() and b == 0:  # e^eps may be beyond arb's reach (eps = 10^9999)
                return self.a.arb(prec)
            return self.a.arb(prec) - self.eps.arb_exp(prec) * b

    def sympy(self) -> sympy.Expr:
        """The exact value ``A - e^ε B`` as a sympy expression.

        Returns:
            The sympy expression.
        """
        return self.a.sympy() - self.eps.sympy_exp() * self.b.sympy()

    def __add__(self, other: Hockey) -> Hockey:
        if other.eps != self.eps:
            raise ValueError("adding privacy curves at different eps")
        return Hockey(self.a + other.a, self.b + other.b, self.eps)

    def value(self) -> Exact:
        """The value in its simplest exact form: a Fraction when rational, else this Hockey.

        Returns:
            A Fraction or ``self`` (an exact value :func:`pdpsym.core.certify.certify`
            accepts).
        """
        q = self.rational()
        return q if q is not None else self


def positive_sign(p_mass: Any, q_mass: Any, eps: Eps, prec0: int = 128) -> bool:
    """Decide ``P(o) - e^ε Q(o) > 0`` for exact masses given by callables.

    Each callable takes a precision: ``None`` asks for the exact rational (or None when
    there is none), an int for a certified ball at that many bits. Rationals decide at
    once when they can; otherwise balls at rising precision decide (a summand that is
    exactly 0, both masses 0, counts as not positive).

    Args:
        p_mass: the mass of ``P`` at the output.
        q_mass: the mass of ``Q`` at the output.
        eps: ε.
        prec0: the first precision tried, in bits.

    Returns:
        True iff the summand is positive.

    Raises:
        Undecided: when the balls cannot decide at the precision cap.

    References:
        Desfontaines et al. (2020), Section 3.1, Lemma 1 (the summands of δ);
        Johansson, Arb (2017) for the ball arithmetic.
    """
    qp = p_mass(None)
    qq = q_mass(None)
    c = eps.exact_exp()
    if qp is not None and qq is not None:
        if c is not None:
            return bool(qp > c * qq)
        if qq == 0:
            return bool(qp > 0)
        if qp == 0:
            return False

    def ball(prec: int) -> Ball:
        with workprec(prec):
            return p_mass(prec) - eps.arb_exp(prec) * q_mass(prec)

    # an exact zero: both masses exactly 0 (outside the support)
    return decide_sign(ball, "sign of a privacy-curve summand", prec0, exact_zero=True) > 0


def exp_lower(x: Fraction, bits: int = 96) -> Fraction:
    """A rational ``c ≤ e^x`` within about ``2^-bits`` relative.

    Args:
        x: the exponent, an exact rational.
        bits: the relative accuracy wanted, in bits.

    Returns:
        The lower end of a certified ball of ``e^x`` (an exact Fraction).

    References:
        Johansson, Arb (2017) for the certified exponential.
    """
    with workprec(bits + 32):
        lo, _ = ball_endpoints(exp_ball(x, bits + 32))
    return lo


def ratio_exceeds_exp(ratio: Fraction, eps: Eps) -> bool:
    """Decide ``ratio > e^ε`` exactly (strictly).

    When ``e^ε`` is rational the comparison is rational. Otherwise ``e^ε`` is irrational
    (Lindemann: ``ε`` rational and nonzero), so a tie is impossible and certified balls
    at rising precision decide; ε far from ``ln ratio`` is settled by a cheap bound first.

    Args:
        ratio: the exact likelihood ratio (``≤ 0`` never exceeds).
        eps: ε (an :class:`~pdpsym.core.eps.Eps` or a rational).

    Returns:
        True iff ``ratio > e^ε``.

    References:
        Desfontaines et al. (2020), Section 3.1, Definition 10 (the PLRV against ε);
        Lindemann (1882) for the transcendence of ``e^ε``.
    """
    eps = Eps.of(eps)
    c = eps.exact_exp()
    if c is not None:
        return ratio > c
    if ratio <= 0:
        return False
    bound = eps.exp_sign_bound(ratio)  # settles eps far from ln(ratio), e.g. eps = 10^9999
    if bound:
        return bound > 0

    def ball(prec: int) -> Ball:
        with workprec(prec):
            return arb_from_fraction(ratio) - eps.arb_exp(prec)

    return decide_sign(ball, "ratio against e^eps") > 0


def hockey(p_law: OutputLaw, q_law: OutputLaw, eps: Eps | Fraction) -> Hockey:
    """``Σ_o max(0, P(o) - e^ε Q(o))`` over the common outputs, exactly.

    Each output's summand sign is decided (:func:`positive_sign`); the chosen outputs'
    masses make the exact ``A - e^ε B``.

    Args:
        p_law: the law ``P`` over outputs ``0..len-1``.
        q_law: the law ``Q`` over the same outputs.
        eps: ε.

    Returns:
        The exact :class:`Hockey`.

    Raises:
        ValueError: when the two laws have different output counts.

    References:
        Desfontaines et al. (2020), Section 3.1, Lemma 1.
    """
    if len(p_law) != len(q_law):
        raise ValueError("output laws over different output sets")
    eps = Eps.of(eps)
    chosen: list[int] = []
    exact = p_law.law.is_exact() and q_law.law.is_exact()
    for o in range(len(p_law)):
        if exact:

            def pm(prec: int | None, o: int = o) -> Any:
                return (
                    p_law.exact_mass(o) if prec is None else arb_from_fraction(p_law.exact_mass(o))
                )

            def qm(prec: int | None, o: int = o) -> Any:
                return (
                    q_law.exact_mass(o) if prec is None else arb_from_fraction(q_law.exact_mass(o))
                )

        else:

            def pm(prec: int | None, o: int = o) -> Any:
                return None if prec is None else p_law.arb_mass(o, prec)

            def qm(prec: int | None, o: int = o) -> Any:
                return None if prec is None else q_law.arb_mass(o, prec)

        if positive_sign(pm, qm, eps):
            chosen.append(o)
    a = Mass.of(p_law.weight, p_law.law, [p_law.ranges[o] for o in chosen])
    b = Mass.of(q_law.weight, q_law.law, [q_law.ranges[o] for o in chosen])
    return Hockey(a, b, eps)

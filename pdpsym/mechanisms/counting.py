"""Noiseless counting query over independent Bernoulli(p_i) records (DMKB20 Section 4.1).

The mechanism is ``M(D) = sum_i D(i)`` with ``D(i) ~ Bernoulli(p_i)`` independent. For a
target ``i``, let ``S = sum_{j != i} D(j)`` (a Poisson binomial law on ``{0..m}``,
``m = n - 1`` minus the records the attacker knows). Conditioned on ``D(i) = 0`` the
output is ``S``; on ``D(i) = 1`` it is ``S + 1`` (a known record only shifts the output,
Prop. 6, so APK = PPK by Theorem 2 and known records are dropped). Definition 12 with
Lemma 1 gives the exact privacy curve

    delta_{a,b}(eps) = sum_o max(0, P[O = o | D(i)=a] - e^eps P[O = o | D(i)=b]),

and ``delta(eps)`` is its maximum over both directions and over the targets.

Exactness. For rational ``p_i`` every probability is rational. ``e^eps`` is irrational for
rational ``eps != 0`` (Lindemann), so the sign of each summand is never a tie and is
decided by arb balls at rising precision. The value is then ``A - e^eps B`` with ``A, B``
exact masses of the decided output set; it is reported through ``pdpsym.core.certify``.
Small laws (``m <= EXACT_LIMIT``) use exact rationals; larger ones use arb balls (for a
common ``p`` the pmf by its ratio recurrence; for distinct ``p_i`` the binomial blocks of
equal ``p`` on certified windows, multiplied as ball polynomials, with the left-out mass
carried as a defect ``[0, D]``: :mod:`pdpsym.core.arbpoly`), whose rigorous radii certify
the digits. For a large heterogeneous law, float64 log-gamma blocks guess where the sign of
the privacy loss changes, and certified signs decide it there (:func:`float_boundaries`).

The machinery here (``CountLaw``, ``OutputLaw``, ``hockey``) is reused by the thresholding,
k-anonymity and geometric modules: every output law there is a set of ranges of a count.
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import sympy

from pdpsym.core.arbpoly import (
    BALL_ZERO,
    Ball,
    WindowLaw,
    ball_sum,
    binomial_balls,
    exp_ball,
    poisson_binomial_window,
    workprec,
)
from pdpsym.core.certify import (
    Exact,
    arb_from_fraction,
    ball_endpoints,
    certified_float,
    decide_sign,
)
from pdpsym.core.compare import compare, decided_max
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str

EXACT_LIMIT = 400  # number of Bernoulli records up to which pmfs are exact rationals
WINDOW_PREC = 256  # the least precision of a large heterogeneous law's window (bits)


def check_probability(p: Fraction, field_name: str) -> Fraction:
    """Check that a record's probability lies strictly between 0 and 1.

    Args:
        p: the exact probability.
        field_name: the field the error names.

    Returns:
        ``p`` unchanged.

    Raises:
        InputError: naming ``field_name`` unless ``0 < p < 1``.

    References:
        Desfontaines et al. (2020), Section 4.1, Theorem 3 (records are Bernoulli(p_i)
        with ``λ < p_i < 1 - λ``).
    """
    if not (0 < p < 1):
        raise InputError(field_name, f"must lie strictly between 0 and 1, got {fraction_str(p)}")
    return p


# --- the law of a count ---------------------------------------------------------------


@dataclass(eq=False)
class CountLaw:
    """The law of ``S = sum_j Bernoulli(p_j)`` over ``m`` independent records."""

    ps: tuple[Fraction, ...]
    _exact: list[Fraction] | None = field(default=None, repr=False)
    _blocks: dict[Fraction, int] | None = field(default=None, repr=False)
    _arb: dict[int, tuple[list[Ball], list[Ball], list[Ball]]] = field(
        default_factory=dict, repr=False
    )
    _windows: dict[int, WindowLaw] = field(default_factory=dict, repr=False)

    @classmethod
    def homogeneous(cls, m: int, p: Fraction) -> CountLaw:
        """``Bin(m, p)``; shared per ``(m, p)`` so its arb tables are computed once."""
        return _homogeneous(m, Fraction(p))

    @property
    def m(self) -> int:
        """The number of records ``m`` (``S`` ranges over ``0..m``)."""
        return len(self.ps)

    @functools.cached_property
    def common_p(self) -> Fraction | None:
        """The common probability when every record has the same ``p`` (None if not, or if ``m = 0``)."""
        if not self.ps:
            return None
        p0 = self.ps[0]
        return p0 if all(p == p0 for p in self.ps) else None

    def is_exact(self) -> bool:
        """Whether the law is small enough (``m ≤ EXACT_LIMIT``) for exact rational PMFs."""
        return self.m <= EXACT_LIMIT

    @property
    def blocks(self) -> dict[Fraction, int]:
        """``{p: number of records with that p}``: the binomial blocks of the law."""
        if self._blocks is None:
            p = self.common_p
            self._blocks = {p: self.m} if p is not None else dict(Counter(self.ps))
        return self._blocks

    def _windowed(self) -> bool:
        """Large laws with several distinct p: held as a certified window (core.arbpoly)."""
        return not self.is_exact() and self.common_p is None

    def window(self, prec: int) -> WindowLaw:
        """The certified window of a large heterogeneous law at ``prec`` bits (cached)."""
        # a finer window encloses as well: reuse one, and start at 256 bits (coarser
        # windows rarely decide a summand of a law this large)
        finer = [p for p in self._windows if p >= prec]
        if finer:
            return self._windows[min(finer)]
        prec = max(prec, WINDOW_PREC)
        w = poisson_binomial_window(self.blocks, prec)
        self._windows[prec] = w
        return w

    def exact_pmf(self) -> list[Fraction]:
        """``P[S = s]`` for ``s = 0..m`` as exact rationals (small laws only)."""
        if self._exact is None:
            p = self.common_p
            if p is not None:
                m = self.m
                self._exact = [
                    Fraction(sympy.binomial(m, s)) * p**s * (1 - p) ** (m - s) for s in range(m + 1)
                ]
            else:
                pmf = [Fraction(1)]
                for q in self.ps:
                    nxt = [Fraction(0)] * (len(pmf) + 1)
                    for s, w in enumerate(pmf):
                        nxt[s] += w * (1 - q)
                        nxt[s + 1] += w * q
                    pmf = nxt
                self._exact = pmf
        return self._exact

    def pmf(self, s: int) -> Fraction:
        """``P[S = s]`` as an exact rational (0 outside ``0..m``).

        Args:
            s: the count.

        Returns:
            The exact probability (from :meth:`exact_pmf`).
        """
        if s < 0 or s > self.m:
            return Fraction(0)
        return self.exact_pmf()[s]

    def arb_pmf(self, prec: int) -> tuple[list[Ball], list[Ball], list[Ball]]:
        """Balls of ``P[S = s]``, of the prefix sums ``P[S <= s]`` and suffix sums ``P[S >= s]``."""
        if prec not in self._arb:
            with workprec(prec):
                p = self.common_p
                m = self.m
                if self.is_exact():
                    vals = [arb_from_fraction(v) for v in self.exact_pmf()]
                else:
                    assert p is not None, "heterogeneous large laws are windowed"
                    vals = binomial_balls(m, p)
                pre: list[Ball] = []
                acc = BALL_ZERO
                for v in vals:
                    acc = acc + v
                    pre.append(acc)
                suf: list[Ball] = [BALL_ZERO] * (m + 1)
                acc = BALL_ZERO
                for s in range(m, -1, -1):
                    acc = acc + vals[s]
                    suf[s] = acc
            self._arb[prec] = (vals, pre, suf)
        return self._arb[prec]

    def arb_range(self, lo: int, hi: int, prec: int) -> Ball:
        """A ball of ``P[lo <= S <= hi]`` (summed without cancellation)."""
        lo, hi = max(lo, 0), min(hi, self.m)
        if lo > hi:
            return BALL_ZERO
        if self._windowed():
            return self.window(prec).mass(lo, hi)
        vals, pre, suf = self.arb_pmf(prec)
        with workprec(prec):
            if hi == self.m:
                return suf[lo]
            if lo == 0:
                return pre[hi]
            if hi - lo < 64:
                acc = BALL_ZERO
                for s in range(lo, hi + 1):
                    acc += vals[s]
                return acc
            return ball_sum(vals[lo : hi + 1])

    def sympy_range(self, lo: int, hi: int) -> sympy.Expr:
        """The exact mass ``P[lo <= S <= hi]`` as a sympy expression."""
        lo, hi = max(lo, 0), min(hi, self.m)
        if lo > hi:
            return sympy.Integer(0)
        if self.is_exact():
            return sympy.Rational(*_nd(sum(self.exact_pmf()[lo : hi + 1], Fraction(0))))
        p = self.common_p
        if p is not None:
            ps = sympy.Rational(p.numerator, p.denominator)
            return BinomialMass(sympy.Integer(self.m), ps, sympy.Integer(lo), sympy.Integer(hi))
        digest = hashlib.sha256(",".join(map(str, self.ps)).encode()).hexdigest()[:16]
        return sympy.Function("PoissonBinomialMass")(
            sympy.Integer(self.m), sympy.Integer(lo), sympy.Integer(hi), sympy.Symbol(f"p_{digest}")
        )


class BinomialMass(sympy.Function):
    """``BinomialMass(m, p, lo, hi) = sum_{k=lo}^{hi} binomial(m, k) p^k (1-p)^(m-k)``.

    An exact value kept unexpanded (its expansion is a rational with ~m log(q) digits);
    ``.rewrite(sympy.Sum)`` gives the sum. Digits come from :class:`Mass` arb balls.
    """

    nargs = 4

    def _eval_rewrite_as_Sum(self, m: Any, p: Any, lo: Any, hi: Any, **kwargs: Any) -> Any:
        k = sympy.Symbol("k", integer=True, nonnegative=True)
        return sympy.Sum(sympy.binomial(m, k) * p**k * (1 - p) ** (m - k), (k, lo, hi))


@functools.lru_cache(maxsize=32)
def _homogeneous(m: int, p: Fraction) -> CountLaw:
    return CountLaw(tuple([p] * m))


def _nd(q: Fraction) -> tuple[int, int]:
    return q.numerator, q.denominator


# --- epsilon, exactly ---------------------------------------------------------------------


# --- output laws as unions of ranges of a count, and the hockey-stick divergence -------


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


# --- the counting query ------------------------------------------------------------------


def shift_laws(law: CountLaw) -> tuple[OutputLaw, OutputLaw]:
    """The counting query's output laws given ``D(i) = 0`` (``S``) and ``D(i) = 1`` (``S + 1``).

    Args:
        law: the law of the peers' count ``S`` on ``0..m``.

    Returns:
        ``(zero, one)``: two :class:`OutputLaw` over the outputs ``0..m+1``.

    References:
        Desfontaines et al. (2020), Section 4.1, Theorem 3 (``M(D) = Σ_i D(i)``).
    """
    m = law.m
    zero = OutputLaw(law, tuple((o, o) for o in range(m + 2)))
    one = OutputLaw(law, tuple((o - 1, o - 1) for o in range(m + 2)))
    return zero, one


def counting_curve(law: CountLaw, eps: Eps | Fraction) -> dict[str, Hockey]:
    """Both directions of the exact curve for one target whose peers have law ``law``.

    Args:
        law: the law of the target's unknown peers' count ``S``.
        eps: ε.

    Returns:
        ``{"1,0": δ_{1,0}(ε), "0,1": δ_{0,1}(ε)}``, each an exact :class:`Hockey`
        (``"a,b"``: ``P`` is the law given ``D(i) = a``).

    References:
        Desfontaines et al. (2020), Section 3.2, Definition 12 with Section 3.1, Lemma 1;
        Section 4.1, Theorem 3.
    """
    zero, one = shift_laws(law)
    return {"1,0": hockey(one, zero, eps), "0,1": hockey(zero, one, eps)}


@dataclass(frozen=True)
class CountingDelta:
    """The exact ``delta(eps)`` of the counting query, with its maximizing target and direction."""

    value: Exact
    target: int
    direction: str
    candidates: int


def counting_delta(ps: Sequence[Fraction], eps: Eps | Fraction, known: int = 0) -> CountingDelta:
    """Exact ``δ(ε)`` of ``M(D) = Σ_i D(i)``, maximized over targets and directions.

    The attacker knows the first ``known`` records; they only shift the output
    (Θ-reducibility), so they are dropped and APKDP = PPKDP. Targets with equal ``p_i``
    give equal curves, so one target per distinct value is examined, and a direction
    whose curve mirrors one already seen (``p → 1 - p``) is skipped. Large laws
    (``m > EXACT_LIMIT``) use :func:`counting_delta_fast`.

    Args:
        ps: the records' exact probabilities ``p_i`` (the first ``known`` are known).
        eps: ε.
        known: how many records the attacker knows, ``0 ≤ known ≤ n - 1``.

    Returns:
        :class:`CountingDelta`: the exact value (a Fraction or a :class:`Hockey`), the
        maximizing target's index in ``ps``, its direction (``"1,0"``, ``"0,1"``, or
        ``"max of both"`` for a large law) and the number of curves examined.

    Raises:
        InputError: (field ``known``) outside ``0..n-1``.

    References:
        Desfontaines et al. (2020), Section 4.1, Theorem 3; Section 3.5, Proposition 6
        and Theorem 2 (known records do not matter); Section 3.1, Lemma 1.
    """
    eps = Eps.of(eps)
    ps = [Fraction(p) for p in ps]
    if known < 0 or known >= len(ps):
        raise InputError("known", f"must be between 0 and n-1 = {len(ps) - 1}")
    unknown = ps[known:]
    best: tuple[Exact, int, str] | None = None
    seen: set[Fraction] = set()
    keys: set[tuple[tuple[Fraction, ...], str]] = set()
    count = 0
    all_blocks = Counter(unknown)
    for idx, p in enumerate(unknown):
        if p in seen:
            continue
        seen.add(p)
        others = unknown[:idx] + unknown[idx + 1 :]
        blocks = {q: k - (q == p) for q, k in all_blocks.items() if k - (q == p) > 0}
        law = CountLaw(tuple(others), _blocks=blocks)
        if not law.is_exact():
            # a Poisson binomial is log-concave: the monotone likelihood ratio gives both
            # directions in O(log m) certified signs (the per-output walk is O(m))
            count += 1
            v = counting_delta_fast(law, eps)
            if best is None or compare(v, best[0]).sign > 0:
                best = (v, known + idx, "max of both")
            continue
        for direction, h in counting_curve(law, eps).items():
            key = _mirror_key(others, direction)
            if key in keys:  # an equal curve was already examined
                continue
            keys.add(key)
            count += 1
            v = h.value()
            if best is None or compare(v, best[0]).sign > 0:
                best = (v, known + idx, direction)
    assert best is not None
    return CountingDelta(best[0], best[1], best[2], count)


def _mirror_key(ps: Sequence[Fraction], direction: str) -> tuple[tuple[Fraction, ...], str]:
    """Equal keys give equal curves: ``(ps, "0,1")`` mirrors to ``(1 - ps, "1,0")``."""
    if direction == "0,1":
        return tuple(sorted(1 - p for p in ps)), "1,0"
    return tuple(sorted(ps)), direction


def counting_delta_homogeneous(n: int, p: Fraction, eps: Eps | Fraction, known: int = 0) -> Exact:
    """Exact ``δ(ε)`` of the counting query for a common ``p``.

    The target's peers are the ``n - known - 1`` unknown records, ``Bin(n - known - 1, p)``.

    Args:
        n: the number of records.
        p: the common probability, strictly between 0 and 1.
        eps: ε.
        known: how many records the attacker knows.

    Returns:
        The exact value: a Fraction or a :class:`Hockey` (``A - e^ε B``).

    Raises:
        InputError: (field ``known``) when ``known ≥ n``; (field ``p``) unless ``0 < p < 1``.

    References:
        Desfontaines et al. (2020), Section 4.1, Theorem 3; Section 3.5, Proposition 6.
    """
    if not 0 < p < 1:
        raise InputError("p", "must lie strictly between 0 and 1")
    if n - known < 1:
        raise InputError("known", "the attacker must not know every record")
    return counting_delta_fast(CountLaw.homogeneous(n - known - 1, p), eps)


def counting_delta_fast(law: CountLaw, eps: Eps | Fraction) -> Exact:
    """The counting curve for a log-concave law, by the monotone likelihood ratio.

    ``P[S=o-1]/P[S=o]`` is nondecreasing in ``o`` for a Poisson binomial (log-concave), so
    the positive summands of ``δ_{1,0}`` form a suffix ``o ≥ o*`` and those of ``δ_{0,1}``
    a prefix ``o ≤ o'``: two certified boundary searches, O(log m) signs (floats only
    propose a starting guess for large heterogeneous laws). The larger direction is
    decided exactly; a symmetric law (or ε = 0) gives equal directions.

    Args:
        law: the law of the target's unknown peers' count ``S``.
        eps: ε.

    Returns:
        The exact ``max(δ_{1,0}, δ_{0,1})``: a Fraction or a :class:`Hockey`.

    References:
        Desfontaines et al. (2020), Section 4.1, Theorem 3; Section 3.1, Lemma 1;
        Hardy, Littlewood, Pólya, "Inequalities", Section 2.22 (Newton's inequalities:
        the Poisson binomial PMF is log-concave).
    """
    eps = Eps.of(eps)
    m = law.m
    zero, one = shift_laws(law)
    results = []
    guesses = float_boundaries(law, eps) if law._windowed() else None
    for pl, ql, suffix in ((one, zero, True), (zero, one, False)):

        def pos(o: int, pl: OutputLaw = pl, ql: OutputLaw = ql, suffix: bool = suffix) -> bool:
            p = law.common_p
            if p is not None and 1 <= o <= m:
                # P[S=o-1]/P[S=o] = (1-p) o / (p (m-o+1)): a rational against e^eps
                r = (1 - p) * o / (p * (m - o + 1))
                ratio = r if suffix else 1 / r
                return ratio_exceeds_exp(ratio, eps)
            if law.is_exact():
                return positive_sign(
                    lambda pr: (
                        pl.exact_mass(o) if pr is None else arb_from_fraction(pl.exact_mass(o))
                    ),
                    lambda pr: (
                        ql.exact_mass(o) if pr is None else arb_from_fraction(ql.exact_mass(o))
                    ),
                    eps,
                )
            return positive_sign(
                lambda pr: None if pr is None else pl.arb_mass(o, pr),
                lambda pr: None if pr is None else ql.arb_mass(o, pr),
                eps,
            )

        # the boundary of the monotone predicate on 0..m+1; floats propose it, certified
        # signs decide it (a far-tail probe would need balls of ~m digits)
        guess = None if guesses is None else guesses[0 if suffix else 1]
        if suffix:  # smallest o with pos(o); pos(m+1) is true (Q = 0 there)
            chosen = (first_true(0, m + 1, pos, guess), m + 1)
        else:  # largest o with pos(o); pos(0) is true (Q = 0 there)
            chosen = (0, last_true(0, m + 1, pos, guess))
        a = Mass(((Fraction(1), law, (_shift(pl, chosen),)),))
        b = Mass(((Fraction(1), law, (_shift(ql, chosen),)),))
        results.append(Hockey(a, b, eps).value())
    p = law.common_p
    # S and m - S have the same law when the multiset of p's is closed under p -> 1 - p
    symmetric = (
        2 * p == 1 if p is not None else law.blocks == {1 - q: k for q, k in law.blocks.items()}
    )
    if symmetric:
        return results[0]  # S and m - S have the same law: the two directions are equal
    if eps.exact_exp() == 1:
        # eps = 0: both directions are the total variation distance of two probability
        # laws (sum max(0, P - Q) = sum max(0, Q - P) as both sum to 1): equal, though
        # balls cannot prove it
        return results[0]
    return decided_max(results)[1]


def first_true(lo: int, hi: int, pred: Callable[[int], bool], guess: int | None = None) -> int:
    """The smallest ``x`` in ``[lo, hi]`` with ``pred(x)``, for ``pred`` false then true.

    A binary search of O(log(hi - lo)) calls; with a ``guess`` it first gallops out from
    it (a right guess costs two calls). ``hi`` is returned when no smaller ``x`` holds,
    whether or not ``pred(hi)`` does.

    Args:
        lo: the lower end.
        hi: the upper end.
        pred: a monotone predicate (false on a prefix, true on the rest).
        guess: an optional first probe.

    Returns:
        The boundary ``x``.

    References:
        Knuth, TAOCP vol. 3, Section 6.2.1 (binary search); Bentley & Yao (1976) for
        the galloping (exponential) search.
    """
    if guess is not None and lo <= guess <= hi:
        step = 1
        if pred(guess):
            hi = guess
            while hi - step >= lo and pred(hi - step):
                hi, step = hi - step, 2 * step
            lo = max(lo, hi - step + 1)
        else:
            lo = guess + 1
            while lo + step - 1 < hi and not pred(lo + step - 1):
                lo, step = lo + step, 2 * step
            hi = min(hi, lo + step - 1)
    while lo < hi:
        mid = (lo + hi) // 2
        if pred(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def last_true(lo: int, hi: int, pred: Callable[[int], bool], guess: int | None = None) -> int:
    """The largest ``x`` in ``[lo, hi]`` with ``pred(x)``, for ``pred`` true then false.

    Mirrors :func:`first_true` (galloping out from ``guess`` first).

    Args:
        lo: the lower end.
        hi: the upper end.
        pred: a monotone predicate (true on a prefix, false on the rest).
        guess: an optional first probe.

    Returns:
        The boundary ``x`` (``lo`` when no larger ``x`` holds).

    References:
        Knuth, TAOCP vol. 3, Section 6.2.1 (binary search).
    """
    return -first_true(-hi, -lo, lambda x: pred(-x), None if guess is None else -guess)


def float_boundaries(law: CountLaw, eps: Eps) -> tuple[int, int] | None:
    """Float64 guesses of the two sign changes of the counting curve (ranking only).

    The binomial blocks are built in the log domain (log-gamma), cut where they fall below
    ``e^-300`` of their mode, and convolved directly; the guesses only seed the certified
    searches of :func:`counting_delta_fast`.

    Args:
        law: the law of the target's peers' count ``S``.
        eps: ε.

    Returns:
        ``(o1, o2)``: the first output with ``P[S=o-1] > e^ε P[S=o]`` and the last with
        ``P[S=o] > e^ε P[S=o-1]``; None when floats cannot say (``e^ε`` overflows, or no
        such output in the window).

    References:
        Desfontaines et al. (2020), Section 4.1, Theorem 3 (the curve whose boundaries
        are guessed).
    """
    try:
        ce = float(eps.w) if eps.w is not None else math.exp(float(eps.exponent or 0))
    except (OverflowError, ValueError):
        return None
    if not math.isfinite(ce):
        return None
    offset, pmf = 0, np.ones(1)
    for q, k in sorted(law.blocks.items()):
        fq = float(q)
        s = np.arange(k + 1, dtype=float)
        lg = np.array([math.lgamma(x + 1.0) for x in range(k + 1)])
        logf = lg[k] - lg - lg[::-1] + s * math.log(fq) + (k - s) * math.log1p(-fq)
        top = logf.max()
        keep = np.nonzero(logf > top - 300.0)[0]
        lo, hi = int(keep[0]), int(keep[-1])
        pmf = np.convolve(pmf, np.exp(logf[lo : hi + 1] - top))
        pmf /= pmf.max()
        # drop what nears the subnormals (slow arithmetic, and no use to a guess)
        kept = np.nonzero(pmf > 1e-200)[0]
        pmf = pmf[kept[0] : kept[-1] + 1]
        offset += lo + int(kept[0])
    # f(o) on o = offset - 1 .. offset + len(pmf): zero padded
    f = np.concatenate(([0.0], pmf, [0.0]))
    prev, cur = f[:-1], f[1:]  # P[S = o-1], P[S = o] for o = offset .. offset + len(pmf)
    up = np.nonzero(prev > ce * cur)[0]
    down = np.nonzero(cur > ce * prev)[0]
    if len(up) == 0 or len(down) == 0:
        return None
    return offset + int(up[0]), offset + int(down[-1])


def _shift(ol: OutputLaw, outputs: tuple[int, int]) -> tuple[int, int]:
    """The S-range of the outputs ``outputs[0]..outputs[1]`` of a shift law."""
    lo0, _ = ol.ranges[outputs[0]]
    _, hi1 = ol.ranges[outputs[1]]
    return (lo0, hi1)


enclose_float = certified_float  # kept importable: a float for ranking only

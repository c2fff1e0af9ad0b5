"""The law of a count of independent Bernoulli records (Desfontaines et al., Section 4).

``S = sum_j Bernoulli(p_j)`` over ``m`` independent records is a Poisson binomial law (a
binomial one for a common ``p``). :class:`CountLaw` gives its masses exactly: as
rationals for ``m <= EXACT_LIMIT``, and as arb balls beyond (for a common ``p`` the pmf by
its ratio recurrence; for distinct ``p_i`` the binomial blocks of equal ``p`` on certified
windows, multiplied as ball polynomials: :mod:`pdpsym.core.count_law_balls`). Every output law of
the counting, thresholding, k-anonymity and geometric mechanisms is a set of ranges of
such a count (:mod:`pdpsym.mechanisms.divergence`).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.core.balls import Ball, arb_from_fraction
from pdpsym.core.count_law_balls import (
    BALL_ZERO,
    WindowLaw,
    ball_sum,
    binomial_balls,
    poisson_binomial_window,
    workprec,
)
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str
from pdpsym.core.tails import (
    TiltedLaw,
    below_bits,
    extend_window,
    tilt_for,
    tilt_scale,
    tilted_blocks,
    tilted_mean,
    tilted_sd,
)
from pdpsym.models.count_deconvolve import divided_window

EXACT_LIMIT = 400  # number of Bernoulli records up to which pmfs are exact rationals
WINDOW_PREC = 256  # the least precision of a large heterogeneous law's window (bits)
TAIL_BITS = 192  # a range the 256-bit window bounds below 2^-192 is a tail: tilted
SHARE_MAX = 64  # peer laws share one window product up to this many distinct p


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
    """The law of ``S = sum_j Bernoulli(p_j)`` over ``m`` independent records.

    A large law with several distinct ``p`` is held as certified windows: one around the
    mode (:meth:`window`) and, for a range far out in a tail, a tilted one
    (:meth:`tilted`, :mod:`pdpsym.core.tails`). A law made by :func:`peer_laws` may name
    a ``_base`` law and ``_extra`` records (the law is the base plus those records): its
    windows are the base's times the records' exact law (Lemma 2 of
    :mod:`pdpsym.core.tails`).
    """

    ps: tuple[Fraction, ...]
    _exact: list[Fraction] | None = field(default=None, repr=False)
    _blocks: dict[Fraction, int] | None = field(default=None, repr=False)
    _arb: dict[int, tuple[list[Ball], list[Ball], list[Ball]]] = field(
        default_factory=dict, repr=False
    )
    _windows: dict[int, WindowLaw] = field(default_factory=dict, repr=False)
    _base: CountLaw | None = field(default=None, repr=False)
    _extra: tuple[Fraction, ...] = field(default=(), repr=False)
    _removed: tuple[Fraction, ...] = field(default=(), repr=False)
    _tilts: dict[tuple[bool, int], dict[int, TiltedLaw]] = field(default_factory=dict, repr=False)
    _tilted_windows: dict[tuple[Fraction, int], tuple[WindowLaw, Ball]] = field(
        default_factory=dict, repr=False
    )
    memo: dict[Any, Any] = field(default_factory=dict, repr=False)  # the layers above's caches

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
        if self._blocks is not None:  # given: no scan of the records
            return next(iter(self._blocks)) if len(self._blocks) == 1 else None
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

    def windowed(self) -> bool:
        """Large laws with several distinct p: held as a certified window (core.count_law_balls)."""
        return not self.is_exact() and self.common_p is None

    def window(self, prec: int) -> WindowLaw:
        """The certified window of a large heterogeneous law at ``prec`` bits (cached)."""
        # a finer window encloses as well: reuse one, and start at 256 bits (coarser
        # windows rarely decide a summand of a law this large)
        finer = [p for p in self._windows if p >= prec]
        if finer:
            return self._windows[min(finer)]
        prec = max(prec, WINDOW_PREC)
        if self._base is not None:
            w = self._base.window(prec)
            if self._removed:  # the base without these records (core.deconvolve)
                w = divided_window(w, self._removed)
            w = extend_window(w, self._extra)
        else:
            w = poisson_binomial_window(self.blocks, prec)
        self._windows[w.prec] = w
        return w

    @functools.cached_property
    def mean(self) -> Fraction:
        """``E[S] = sum_j p_j`` (exact)."""
        return sum((q * k for q, k in self.blocks.items()), Fraction(0))

    def _tilted_window(self, c: Fraction, prec: int) -> tuple[WindowLaw, Ball]:
        """A window of the tilted count ``S_c`` and a ball of ``F`` (cached per ``c``)."""
        key = (c, prec)
        if key not in self._tilted_windows:
            if self._base is not None:
                bw, bf = self._base._tilted_window(c, prec)
                if self._removed:
                    bw = divided_window(bw, [q * c / (1 - q + q * c) for q in self._removed])
                    bf = bf / tilt_scale(Counter(self._removed), c, prec)
                extra = [q * c / (1 - q + q * c) for q in self._extra]
                f = bf * tilt_scale(Counter(self._extra), c, prec)
                self._tilted_windows[key] = (extend_window(bw, extra), f)
            else:
                w = poisson_binomial_window(tilted_blocks(self.blocks, c), prec)
                self._tilted_windows[key] = (w, tilt_scale(self.blocks, c, prec))
        return self._tilted_windows[key]

    def tilted(self, upper: bool, edge: int, prec: int) -> TiltedLaw:
        """The tilted law for ranges beyond ``edge`` (``lo >= edge`` when ``upper``, else
        ``hi <= edge``), at least ``prec`` bits (cached).

        The reference count ``r`` is ``edge`` rounded outward to a multiple of a quarter
        of the tilted law's standard deviation (floats: precision, not rigor), so nearby
        ranges share a tilt.

        Args:
            upper: an upper tail (``c >= 1``) or a lower one.
            edge: the range's inner end.
            prec: the working precision in bits.

        Returns:
            The :class:`~pdpsym.core.tails.TiltedLaw` (Lemma 1 of :mod:`pdpsym.core.tails`).
        """
        r = self.reference(upper, edge)
        side = 1 if upper else -1
        by_prec = self._tilts.setdefault((upper, r), {})
        finer = [p for p in by_prec if p >= prec]
        if finer:
            return by_prec[min(finer)]
        prec = max(prec, WINDOW_PREC)
        c = tilt_for(self._steering_blocks(), float(r), side)
        w, f = self._tilted_window(c, prec)
        t = TiltedLaw.of(w, c, f, r, upper)
        by_prec[prec] = t
        return t

    def _steering_blocks(self) -> dict[Fraction, int]:
        """The blocks floats steer tilts by: a divided law's base's (one record apart,
        so the tilts and their windows are shared; precision only, never rigor)."""
        if self._removed and self._base is not None:
            return self._base.blocks
        return self.blocks

    def reference(self, upper: bool, edge: int) -> int:
        """The reference count of :meth:`tilted` for a range ending at ``edge``: ``edge``
        rounded outward to a multiple of a quarter of the tilted law's standard deviation
        (floats steer the precision, never the rigor).

        Args:
            upper: an upper tail or a lower one.
            edge: the range's inner end.

        Returns:
            The reference count ``r``.
        """
        side = 1 if upper else -1
        blocks = self._steering_blocks()
        sd = tilted_sd(blocks, tilt_for(blocks, float(edge), side))
        step = max(1, int(sd / 4))
        return edge - edge % step if upper else min(self.m, edge + (-edge) % step)

    def tilted_window(self, c: Fraction, prec: int) -> tuple[WindowLaw, Ball]:
        """A window of the tilted count ``S_c`` and a ball of ``F`` (Lemma 1 of
        :mod:`pdpsym.core.tails`), cached per ``(c, prec)``.

        Args:
            c: the tilt, ``> 0``.
            prec: bits.

        Returns:
            ``(window of S_c, ball of F = prod_q (1 - q + q c)^k_q)``.
        """
        return self._tilted_window(c, max(prec, WINDOW_PREC))

    def _tail_side(self, lo: int, hi: int) -> int:
        """``+1`` / ``-1`` when ``lo..hi`` is a range in the upper / lower tail (its mass
        certified below ``2^-TAIL_BITS`` by the mode window), else 0: which window to use,
        never what the mass is."""
        if self._removed:
            # a law divided out of a whole population's windows: its mode window is one
            # more product tree, so floats pick the side (a choice of precision only: a
            # tilted enclosure holds for every range on its side of the reference count)
            blocks = self._steering_blocks()
            mu, sd = tilted_mean(blocks, 0.0), tilted_sd(blocks, Fraction(1))
            if lo > mu + 12 * sd + 1:
                return 1
            if hi < mu - 12 * sd - 1:
                return -1
            return 0
        if not below_bits(self.window(WINDOW_PREC), lo, hi, TAIL_BITS):
            return 0
        if lo > self.mean:
            return 1
        if hi < self.mean:
            return -1
        return 0

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
        if self.windowed():
            side = self._tail_side(lo, hi)
            if side > 0:
                return self.tilted(True, lo, prec).mass(lo, hi)
            if side < 0:
                return self.tilted(False, hi, prec).mass(lo, hi)
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
        return sympy.Function("PoissonBinomialMass")(
            sympy.Integer(self.m),
            sympy.Integer(lo),
            sympy.Integer(hi),
            sympy.Symbol(f"p_{self._digest}"),
        )

    @functools.cached_property
    def _digest(self) -> str:
        return hashlib.sha256(",".join(map(str, self.ps)).encode()).hexdigest()[:16]


def peer_laws(ps: Sequence[Fraction]) -> dict[Fraction, tuple[int, CountLaw]]:
    """For each distinct ``p`` in ``ps``, the law of the others' count when the first
    record with that ``p`` is the target.

    Records with equal ``p`` give equal laws, so one target per distinct value stands
    for all. Large laws with a few distinct ``p`` share one window product: the blocks
    with one record of each ``p`` removed; each target's law is that base plus one
    record of every other ``p`` (Lemma 2 of :mod:`pdpsym.core.tails`).

    Args:
        ps: the records' exact probabilities.

    Returns:
        ``{p: (index of the first record with p, law of the others)}`` in order of first
        appearance.

    References:
        Desfontaines et al. (2020), Section 4.1 (the count of a target's peers).
    """
    ps = list(ps)
    blocks = Counter(ps)  # insertion order: first appearance
    first: dict[Fraction, int] = {}
    for i, q in enumerate(ps):
        if q not in first:
            first[q] = i
            if len(first) == len(blocks):
                break
    base = None
    if 1 < len(blocks) <= SHARE_MAX and len(ps) - 1 > EXACT_LIMIT:
        base_blocks = {q: k - 1 for q, k in blocks.items() if k > 1}
        base_ps = tuple(
            itertools.chain.from_iterable(itertools.repeat(q, k) for q, k in base_blocks.items())
        )
        base = CountLaw(base_ps, _blocks=base_blocks)
    out: dict[Fraction, tuple[int, CountLaw]] = {}
    for p, i in first.items():
        own = {q: k - (q == p) for q, k in blocks.items() if k - (q == p) > 0}
        others = tuple(ps[:i] + ps[i + 1 :])
        if base is None:
            law = CountLaw(others, _blocks=own)
        else:
            extra = tuple(q for q in blocks if q != p)
            law = CountLaw(others, _blocks=own, _base=base, _extra=extra)
        out[p] = (i, law)
    return out


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

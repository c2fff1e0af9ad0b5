"""Far tails and shared products of Poisson-binomial windows, certified.

A :class:`~pdpsym.core.count_law_balls.WindowLaw` of ``S = sum_q Bin(k_q, q)`` at ``prec`` bits
keeps the masses within about ``2^-prec`` of the mode; a mass far out in a tail (the
thresholding curve at ``T`` far above the mean: ``10^-40000`` for ``10^5`` records) is
lost in its defect, and doubling ``prec`` until it shows costs minutes and gigabytes.
This module gives such masses to full relative precision at the same ``prec``, and lets
laws that differ by a few records share one window product.

**Lemma 1 (exponential tilting).** For a rational ``c > 0`` let ``Z_q = 1 - q + q c``,
``q_c = q c / Z_q`` and ``S_c = sum_q Bin(k_q, q_c)``. Then for every ``s``

    P[S = s] = F c^(-s) P[S_c = s],     F = prod_q Z_q^(k_q).

*Proof.* ``P[S = s] = sum_{|A| = s} prod_{j in A} p_j prod_{j not in A} (1 - p_j)``, and
the term of ``A`` in ``P[S_c = s]`` is that term times ``c^s / prod_j Z_j``.

**Corollary (a tail range, certified).** Let ``c >= 1`` and ``r <= lo`` (an *upper*
tilt), or ``c <= 1`` and ``r >= hi`` (a *lower* tilt). Then every weight ``c^(r - s)``
with ``lo <= s <= hi`` is at most 1, so with ``K`` the kept mass and ``D`` the defect of
a window of ``S_c``

    P[lo <= S <= hi] = F c^(-r) sum_{s=lo}^{hi} c^(r-s) P[S_c = s]
                     in F c^(-r) (K_w + [0, D]),   K_w = sum over the window of c^(r-s) kept_s.

Choosing ``c`` with ``E[S_c]`` near ``r`` (:func:`tilt_for`) puts ``r`` in the bulk of
``S_c``, so ``K_w`` is not small and the ball's relative radius is about ``2^-prec``
however small the mass. ``c`` only steers the precision, never the rigor: any ``c > 0``
on the right side of 1 gives a valid enclosure.

**Lemma 2 (extending a window).** If ``W`` is a window of ``R`` with defect ``D``
(``P[R in A] in kept(A) + [0, D]`` for every set ``A``) and ``E`` is the exact law of
``k`` further independent Bernoulli records, then ``kept * E`` (a polynomial product) is a
window of ``R + E`` with the same defect ``D``. *Proof.* ``true_R = kept + dropped`` with
``dropped >= 0`` of mass at most ``D``; ``true_R * E = kept * E + dropped * E`` and
``dropped * E >= 0`` has the mass of ``dropped`` (``E`` sums to 1).

Lemma 2 lets the ``d`` laws "every record but one with ``p = q``" (one per distinct
``q``) share the product of the blocks with one record of each ``q`` removed: each law is
that window times ``d - 1`` linear factors (:func:`extend_window`).

References: Feller, An Introduction to Probability Theory and Its Applications, vol. 2,
Section XVI.7 (associated, i.e. exponentially tilted, distributions); Desfontaines et al.
(2020), Section 4 (the counts whose tails are needed).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from flint import arb, arb_poly, ctx

from pdpsym.core.balls import arb_from_fraction
from pdpsym.core.count_law_balls import WindowLaw, range_mass

__all__ = [
    "TiltedLaw",
    "below_bits",
    "extend_window",
    "tilt_for",
    "tilted_mean",
    "tilted_sd",
    "tilt_scale",
    "tilted_blocks",
    "window_from_poly",
]

THETA_GRID = 64  # tilts are rounded to multiples of 1/64 in log c, so that nearby
# reference counts and laws differing by a few records share one tilted window (the
# rounding moves E[S_c] by at most var(S_c)/128, about one standard deviation for 10^5
# records: a few bits of precision, never rigor)


#: above this many distinct probabilities the float steering runs on numpy arrays (the
#: same formulas; at or below it the scalar loops, unchanged, decide every tilt)
MANY = 64
_ARRAYS: dict[int, tuple[Mapping[Fraction, int], np.ndarray, np.ndarray]] = {}


def _arrays(blocks: Mapping[Fraction, int]) -> tuple[np.ndarray, np.ndarray]:
    """``(k_q, logit q)`` as float arrays, cached per blocks object (a few are alive)."""
    hit = _ARRAYS.get(id(blocks))
    if hit is not None and hit[0] is blocks:
        return hit[1], hit[2]
    items = [(k, _logit(q)) for q, k in blocks.items() if k > 0]
    ks = np.array([k for k, _ in items], dtype=float)
    gs = np.array([g for _, g in items], dtype=float)
    if len(_ARRAYS) >= 8:
        _ARRAYS.clear()
    _ARRAYS[id(blocks)] = (blocks, ks, gs)
    return ks, gs


def _np_expit(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = 0.5 * (1.0 + np.tanh(0.5 * x))
    return out


def _expit(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _logit(q: Fraction) -> float:
    # log(q / (1 - q)) from the integers (math.log takes ints of any size)
    return math.log(q.numerator) - math.log(q.denominator - q.numerator)


def tilted_mean(blocks: Mapping[Fraction, int], theta: float) -> float:
    """``E[S_c]`` for ``c = e^theta`` in floats: ``sum_q k_q expit(theta + logit q)``.

    The saddle point of the law: ``P[S = s-1] / P[S = s]`` is about ``e^theta`` near
    ``s = E[S_c]``, which makes a good first guess of where a likelihood ratio crosses
    ``e^eps`` far out in a tail (floats rank only).

    Args:
        blocks: ``{q: k_q}`` with ``0 < q < 1``.
        theta: ``log c``.

    Returns:
        The float mean.

    References:
        Feller, vol. 2, Section XVI.7 (the associated distribution's mean).
    """
    if len(blocks) > MANY:
        ks, gs = _arrays(blocks)
        return float(np.dot(ks, _np_expit(theta + gs)))
    return sum(k * _expit(theta + _logit(q)) for q, k in blocks.items() if k > 0)


def tilted_sd(blocks: Mapping[Fraction, int], c: Fraction) -> float:
    """The standard deviation of ``S_c`` in floats (how far a tilt's precision reaches).

    Args:
        blocks: ``{q: k_q}`` with ``0 < q < 1``.
        c: the tilt, ``> 0``.

    Returns:
        ``sqrt(sum_q k_q q_c (1 - q_c))``.

    References:
        Feller, vol. 2, Section XVI.7 (the associated distribution's variance).
    """
    theta = math.log(c.numerator) - math.log(c.denominator)
    if len(blocks) > MANY:
        ks, gs = _arrays(blocks)
        xs = _np_expit(theta + gs)
        return math.sqrt(float(np.dot(ks, xs * (1.0 - xs))))
    var = 0.0
    for q, k in blocks.items():
        if k > 0:
            x = _expit(theta + _logit(q))
            var += k * x * (1.0 - x)
    return math.sqrt(var)


def tilt_for(blocks: Mapping[Fraction, int], target: float, side: int) -> Fraction:
    """A rational tilt ``c`` whose tilted count has mean near ``target`` (floats steer).

    Solves ``sum_q k_q expit(theta + logit q) = target`` by bisection in floats, rounds
    ``theta`` to a multiple of ``1/THETA_GRID`` and returns a 20-bit rational near
    ``e^theta``, moved to 1 when it falls on the wrong side of 1 for ``side`` (``+1``:
    an upper tilt needs ``c >= 1``; ``-1``: a lower tilt needs ``c <= 1``). Any ``c``
    gives a rigorous enclosure (module doc); this one makes it a tight one.

    Args:
        blocks: ``{q: k_q}`` with ``0 < q < 1``.
        target: the wanted mean (clipped into ``(0, m)``).
        side: ``+1`` or ``-1``.

    Returns:
        ``c > 0`` as an exact Fraction.

    References:
        Feller, vol. 2, Section XVI.7 (the associated distribution's mean).
    """
    many = len(blocks) > MANY
    if many:
        ks, gs = _arrays(blocks)
        items = []
        m = int(ks.sum())
        if m == 0:
            return Fraction(1)
        span = float(np.abs(gs).max()) + math.log(2.0 * m) + 40.0
    else:
        items = [(k, _logit(q)) for q, k in blocks.items() if k > 0]
        m = sum(k for k, _ in items)
        if m == 0:
            return Fraction(1)
        span = max(abs(g) for _, g in items) + math.log(2.0 * m) + 40.0
    goal = min(max(target, 0.5), m - 0.5)
    lo, hi = -span, span
    if many:  # Newton steps inside the bracket first (each a pass over 10^5 records)
        theta = 0.0
        for _ in range(60):
            x = _np_expit(theta + gs)
            f, df = float(np.dot(ks, x)) - goal, float(np.dot(ks, x * (1.0 - x)))
            if f < 0:
                lo = max(lo, theta)
            else:
                hi = min(hi, theta)
            step = f / df if df > 0 else 0.0
            nxt = theta - step
            if not lo < nxt < hi:
                nxt = (lo + hi) / 2
            if abs(nxt - theta) < 1.0 / (64 * THETA_GRID):
                lo = hi = nxt
                break
            theta = nxt
    for _ in range(0 if lo == hi else 200):
        mid = (lo + hi) / 2
        if many:
            below = float(np.dot(ks, _np_expit(mid + gs))) < goal
        else:
            below = sum(k * _expit(mid + g) for k, g in items) < goal
        if below:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1.0 / (4 * THETA_GRID):
            break
    theta = round((lo + hi) / 2 * THETA_GRID) / THETA_GRID
    if theta * side <= 0:
        return Fraction(1)
    t = theta / math.log(2.0)
    i = math.floor(t)
    mant = round(2.0 ** (t - i) * 2**20)
    return Fraction(mant) * Fraction(2) ** (i - 20)


def below_bits(w: WindowLaw, lo: int, hi: int, bits: int) -> bool:
    """Whether the window certifies ``P[lo <= S <= hi] < 2^-bits``.

    Args:
        w: a window of ``S``.
        lo: first count.
        hi: last count.
        bits: the exponent of the bound.

    Returns:
        True when the kept mass plus the defect is below ``2^-bits``.

    References:
        Johansson, Arb (2017) for the ball comparison.
    """
    with ctx.workprec(w.prec):
        bound = (w.kept(lo, hi) + w.defect).upper()
        return bool(bound < arb(2) ** (-bits))


def tilted_blocks(blocks: Mapping[Fraction, int], c: Fraction) -> dict[Fraction, int]:
    """The blocks of ``S_c``: ``{q c / (1 - q + q c): k_q}`` (Lemma 1).

    Args:
        blocks: ``{q: k_q}``.
        c: the tilt, ``> 0``.

    Returns:
        The tilted blocks (the map ``q -> q_c`` is one-to-one).

    References:
        Feller, vol. 2, Section XVI.7.
    """
    u, v = c.numerator, c.denominator
    out: dict[Fraction, int] = {}
    for q, k in blocks.items():
        if k > 0:  # q c / (1 - q + q c) with q = a/b, c = u/v: a u / (v (b - a) + a u)
            a, b = q.numerator, q.denominator
            out[Fraction(a * u, v * (b - a) + a * u)] = k
    return out


def tilt_scale(blocks: Mapping[Fraction, int], c: Fraction, prec: int) -> arb:
    """A ball of ``F = prod_q (1 - q + q c)^(k_q)`` at ``prec`` bits (Lemma 1).

    Args:
        blocks: ``{q: k_q}``.
        c: the tilt.
        prec: working precision in bits.

    Returns:
        The ball (relative radius about ``2^-prec`` times a few).

    References:
        Feller, vol. 2, Section XVI.7.
    """
    with ctx.workprec(prec):
        acc = arb(1)
        for q, k in blocks.items():
            if k > 0:
                acc *= arb_from_fraction(1 - q + q * c) ** k
        return acc


def window_from_poly(poly: arb_poly, m: int, lo: int, defect: arb, prec: int) -> WindowLaw:
    """A :class:`WindowLaw` from a product of kept windows (balls clipped to ``>= 0``).

    Args:
        poly: the kept masses, coefficient ``j`` for the count ``lo + j``.
        m: the largest count.
        lo: the count of the constant coefficient.
        defect: a ball ``[0, D]`` bounding the left-out mass.
        prec: the precision of the balls.

    Returns:
        The window with its prefix sums.

    References:
        Johansson, Arb (2017) for the ball arithmetic.
    """
    zero = arb(0)
    with ctx.workprec(prec):
        vals = []
        for c in poly.coeffs():
            if c > 0:
                vals.append(c)
                continue
            up = c.upper()  # probabilities are nonnegative: clip the ball at 0
            vals.append(arb.union(zero, up) if up > 0 else zero)
        pre = [zero]
        acc = zero
        for v in vals:
            acc += v
            pre.append(acc)
    return WindowLaw(m, lo, tuple(vals), tuple(pre), defect, prec)


def extend_window(w: WindowLaw, ps: Sequence[Fraction]) -> WindowLaw:
    """The window of ``R + sum of Bernoulli(p)`` from a window of ``R`` (Lemma 2).

    Args:
        w: a window of ``R``.
        ps: the further records' probabilities (exact).

    Returns:
        The window of the sum: the kept product with the records' exact law, the same
        defect and precision.

    References:
        Desfontaines et al. (2020), Section 4.1 (the Poisson-binomial count);
        Johansson, Arb (2017) for the ball polynomial product.
    """
    law = [Fraction(1)]
    for q in ps:  # the exact law of the few further records
        nxt = [Fraction(0)] * (len(law) + 1)
        for s, x in enumerate(law):
            nxt[s] += x * (1 - q)
            nxt[s + 1] += x * q
        law = nxt
    with ctx.workprec(w.prec):
        e = arb_poly([arb_from_fraction(x) for x in law])
        poly = arb_poly(list(w.vals)) * e
    return window_from_poly(poly, w.m + len(ps), w.lo, w.defect, w.prec)


@dataclass(frozen=True)
class TiltedLaw:
    """Masses of ``S`` on one side of a reference count ``r``, by a tilted window.

    ``upper``: ``c >= 1`` and ranges with ``lo >= r``; else ``c <= 1`` and ranges with
    ``hi <= r`` (the corollary of the module doc). ``cum`` holds running sums of the
    weighted kept masses ``u_s = c^(r-s) kept_s`` over ``s`` from ``first`` outward
    (suffix sums upward for an upper tilt, prefix sums downward for a lower one).
    """

    m: int
    r: int
    upper: bool
    first: int  # the weighted window covers first..last
    last: int
    u: tuple[arb, ...]  # u[j] = c^(r-s) kept_s for s = first + j
    cum: tuple[arb, ...]  # upper: cum[j] = sum_{i >= j} u[i]; lower: sum_{i <= j} u[i]
    scale: arb  # F c^(-r)
    defect: arb  # [0, D]
    prec: int

    @classmethod
    def of(cls, w: WindowLaw, c: Fraction, scale_f: arb, r: int, upper: bool) -> TiltedLaw:
        """The tilted law from a window ``w`` of ``S_c`` and the ball ``F``.

        Args:
            w: a window of the tilted count ``S_c``.
            c: the tilt (``>= 1`` for ``upper``, ``<= 1`` otherwise).
            scale_f: a ball of ``F = prod_q Z_q^(k_q)``.
            r: the reference count.
            upper: which side of ``r`` the ranges lie on.

        Returns:
            The :class:`TiltedLaw`.

        References:
            Feller, vol. 2, Section XVI.7 (Lemma 1 of this module).
        """
        if (upper and c < 1) or (not upper and c > 1):
            raise ValueError("an upper tilt needs c >= 1, a lower one c <= 1")
        top = w.lo + len(w.vals) - 1
        with ctx.workprec(w.prec):
            cb = arb_from_fraction(c)
            scale = scale_f / cb**r if r >= 0 else scale_f * cb ** (-r)
            u: list[arb] = []
            if upper:
                first, last = max(r, w.lo), top
                if first <= last:
                    step = 1 / cb
                    wt = step ** (first - r)
                    for s in range(first, last + 1):
                        u.append(w.vals[s - w.lo] * wt)
                        wt *= step
                cum = [arb(0)] * (len(u) + 1)
                acc = arb(0)
                for j in range(len(u) - 1, -1, -1):
                    acc += u[j]
                    cum[j] = acc
            else:
                first, last = w.lo, min(r, top)
                if first <= last:
                    down: list[arb] = []
                    wt = cb ** (r - last)
                    for s in range(last, first - 1, -1):
                        down.append(w.vals[s - w.lo] * wt)
                        wt *= cb
                    u = down[::-1]
                cum = [arb(0)]
                acc = arb(0)
                for x in u:
                    acc += x
                    cum.append(acc)
        return cls(w.m, r, upper, first, last, tuple(u), tuple(cum), scale, w.defect, w.prec)

    def _kept(self, lo: int, hi: int) -> arb:
        a, b = max(lo, self.first), min(hi, self.last)
        if a > b:
            return arb(0)
        i, j = a - self.first, b - self.first
        if j - i < 64:
            acc = arb(0)
            for x in self.u[i : j + 1]:
                acc += x
            return acc
        if self.upper:  # suffix sums: the far end is the small one
            return self.cum[i] - self.cum[j + 1]
        return self.cum[j + 1] - self.cum[i]

    def mass(self, lo: int, hi: int) -> arb:
        """``P[lo <= S <= hi]`` enclosed as :meth:`~pdpsym.core.count_law_balls.WindowLaw.mass`
        does, for a range on this tilt's side of ``r`` (a range on the wrong side raises
        ValueError): ``F c^(-r) (K_w + [0, D])``, its lower end clipped at 0, by
        :func:`~pdpsym.core.count_law_balls.range_mass` (Feller, vol. 2, Section XVI.7; Lemma 1
        and its corollary in the module doc)."""
        lo, hi = max(lo, 0), min(hi, self.m)
        if lo > hi:
            return arb(0)
        if (self.upper and lo < self.r) or (not self.upper and hi > self.r):
            raise ValueError("a range on the wrong side of the tilt's reference count")
        with ctx.workprec(self.prec):
            return range_mass(self._kept(lo, hi), self.defect, self.scale, cap=False)

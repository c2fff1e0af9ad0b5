"""Certified laws of counts as arb balls: binomial windows and Poisson-binomial products.

A law on ``0..m`` is held as a :class:`WindowLaw`: balls ``vals`` of the exact masses of a
window ``lo..lo+len(vals)-1`` of *kept* weights, and a certified ``defect``: for every set
``A`` of outputs, ``P[S in A]`` lies in ``kept(A) + [0, defect]``.

Why that is rigorous. A binomial block ``f = P[Bin(k, q) = .]`` is log-concave, so beyond
an index where the ratio ``r = f(s+1)/f(s) < 1`` its tail is at most ``f(s) r/(1-r)``
(geometric series); :func:`binomial_window` keeps the window where that bound is above
``tol`` and returns the sum of the two bounds. For a product of blocks
``true_j = kept_j + dropped_j`` with ``dropped_j >= 0`` of mass ``d_j``, so
``prod true_j - prod kept_j`` is a nonnegative measure of mass ``1 - prod(1 - d_j) <= sum d_j``.
The ``arb_poly`` product of the kept windows contains ``prod kept_j`` coefficientwise.

Windows keep the dynamic range of the coefficients to about ``2^-prec``, so ``arb_poly``
products stay fast (a full product of ``10^5``-degree blocks spans ``10^-47000`` and its
block-scaled product is quadratic); only the masses near the mode survive, the rest is in
the defect.

References: Desfontaines et al. 2020, Section 4.1 (the counting law) and the proof of
Theorem 3 (the window over ``N``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction

from flint import arb, arb_poly, ctx

from pdpsym.core.balls import arb_from_fraction

__all__ = [
    "BALL_ZERO",
    "WindowLaw",
    "ball_poly",
    "ball_sum",
    "ball_union",
    "binomial_balls",
    "exp_ball",
    "binomial_window",
    "trim_tails",
    "trimmed_product",
    "geometric_poly",
    "poisson_binomial_window",
    "range_mass",
    "tree_window",
    "workprec",
]

#: above this many distinct probabilities a law's product tree is truncated at every
#: level (:func:`tree_window`); at or below it the windows are multiplied whole, as before
MANY_BLOCKS = 64


BALL_ZERO = arb(0)  # the exact zero ball (arb values are immutable)


@contextmanager
def workprec(prec: int) -> Iterator[None]:
    """Run a block at ``prec`` bits of arb precision, restoring the previous precision.

    The previous precision is restored on exit, whether the block ends normally or by an
    exception (python-flint's ``ctx.workprec``).

    Args:
        prec: working precision in bits.

    Yields:
        Nothing; the block runs at ``prec`` bits.

    References:
        python-flint docs, ``flint.ctx.workprec``.
    """
    with ctx.workprec(prec):
        yield


def binomial_window(m: int, q: Fraction, tol: Fraction) -> tuple[int, list[arb], arb]:
    """The kept window of ``Bin(m, q)`` at the current precision.

    Args:
        m: number of trials.
        q: success probability in ``[0, 1]``.
        tol: each side's left-out mass is certified below this.

    Returns:
        ``(lo, [w_lo .. w_hi], bound)``: balls of ``w_N = P[Bin(m, q) = N]`` on a window
        around the mode, and a ball whose upper end bounds the mass outside it.

    References:
        Desfontaines et al. 2020, proof of Theorem 3 (the weights of ``N``).
    """
    if q == 0 or m == 0:
        return 0, [arb(1)], arb(0)
    if q == 1:
        return m, [arb(1)], arb(0)
    mode = min(m, math.floor((m + 1) * q))
    w0 = (
        arb(math.comb(m, mode))
        * arb_from_fraction(q) ** mode
        * arb_from_fraction(1 - q) ** (m - mode)
    )
    odds = q / (1 - q)
    tol_b = arb_from_fraction(tol)
    right, left = [w0], []
    hi, rest_hi = mode, arb(0)
    while hi < m:
        r = Fraction(m - hi, hi + 1) * odds  # w_{j+1} / w_j, decreasing in j
        if r < 1:
            bound = right[-1] * arb_from_fraction(r / (1 - r))
            if bound < tol_b:
                rest_hi = bound
                break
        right.append(right[-1] * arb_from_fraction(r))
        hi += 1
    lo, rest_lo, w = mode, arb(0), w0
    while lo > 0:
        s = Fraction(lo, m - lo + 1) / odds  # w_{j-1} / w_j, decreasing as j decreases
        if s < 1:
            bound = w * arb_from_fraction(s / (1 - s))
            if bound < tol_b:
                rest_lo = bound
                break
        w = w * arb_from_fraction(s)
        left.append(w)
        lo -= 1
    return lo, [*reversed(left), *right], rest_lo + rest_hi


def geometric_poly(p: Fraction, tol: Fraction) -> tuple[arb_poly, int, Fraction]:
    """The two-sided geometric pmf cut to ``[-K, K]`` (Definition 19 of Desfontaines et al.).

    Args:
        p: the geometric parameter, ``P[G = k] = (1-p)/(1+p) p^|k|``.
        tol: the cut mass is at most this.

    Returns:
        ``(G', K, tau)``: the cut pmf as a polynomial (coefficient ``k + K`` is
        ``P[G = k]``), ``K``, and the exact cut mass ``tau <= tol``.

    References:
        Desfontaines et al. 2020, Section 5.2, Definition 19.
    """
    K = 0
    while 2 * p ** (K + 1) / (1 + p) > tol:
        K += 1
    c = (1 - p) / (1 + p)
    poly = arb_poly([arb_from_fraction(c * p ** abs(k)) for k in range(-K, K + 1)])
    return poly, K, 2 * p ** (K + 1) / (1 + p)


def range_mass(kept: arb, defect: arb, scale: arb | None = None, cap: bool = True) -> arb:
    """The ball ``[max(0, lower(s K)), upper(s (K + D))]`` of a range's mass from its kept
    part ``K`` and the defect ``[0, D]`` (``s`` = ``scale``, 1 when None), capped at 1
    when ``cap`` (a probability): the dropped mass is non-negative and at most ``D``.

    Args:
        kept: a ball of the kept mass ``K``.
        defect: the defect ball ``[0, D]``.
        scale: a positive factor ``s`` (a tilt's ``F c^(-r)``), or None.
        cap: whether the upper end is capped at 1.

    Returns:
        The enclosure, as one ball.

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval
        arithmetic", IEEE Trans. Computers 66 (2017).
    """
    s = arb(1) if scale is None else scale
    low = (s * kept).lower()
    up = (s * (kept + defect)).upper()
    low = low if low > 0 else arb(0)
    up = up if not cap or up < 1 else arb(1)
    return arb.union(low, up)


@dataclass(frozen=True)
class WindowLaw:
    """A certified law on ``0..m``: kept balls on a window, and a defect (see module doc).

    ``pre[j]`` is a ball of ``sum_{i < j} vals[i]`` (``pre[0] = 0``), so a range sum costs
    two lookups.
    """

    m: int
    lo: int
    vals: tuple[arb, ...]
    pre: tuple[arb, ...]
    defect: arb  # a ball [0, D]
    prec: int

    def kept(self, lo: int, hi: int) -> arb:
        """A ball of the kept mass on ``lo..hi`` (0 when the range misses the window)."""
        a = max(lo, self.lo) - self.lo
        b = min(hi, self.lo + len(self.vals) - 1) - self.lo
        if a > b:
            return arb(0)
        with ctx.workprec(self.prec):
            if b - a < 8:
                acc = arb(0)
                for v in self.vals[a : b + 1]:
                    acc += v
                return acc
            return self.pre[b + 1] - self.pre[a]

    def mass(self, lo: int, hi: int) -> arb:
        """A ball containing ``P[lo <= S <= hi]``.

        Args:
            lo: first output (clipped to 0).
            hi: last output (clipped to ``m``).

        Returns:
            The kept mass plus the defect ``[0, D]``, intersected with ``[0, 1]``.
        """
        lo, hi = max(lo, 0), min(hi, self.m)
        if lo > hi:
            return arb(0)
        with ctx.workprec(self.prec):
            return range_mass(self.kept(lo, hi), self.defect)


@functools.lru_cache(maxsize=256)
def _window_poly(k: int, q: Fraction, prec: int) -> tuple[int, arb_poly, arb]:
    with ctx.workprec(prec):
        lo, vals, rest = binomial_window(k, q, Fraction(1, 2 ** (prec + 8)))
        return lo, arb_poly(vals), rest


def _window_law(m: int, offset: int, law: arb_poly, defect: arb, prec: int) -> WindowLaw:
    """The :class:`WindowLaw` of a window's polynomial: its coefficients clipped to be
    nonnegative, their prefix sums, and the defect's upper end as ``[0, d]``."""
    vals = []
    for c in law.coeffs():
        low, up = c.lower(), c.upper()
        low = low if low > 0 else arb(0)  # probabilities are nonnegative
        vals.append(arb.union(low, up) if up >= low else arb(0))
    pre = [arb(0)]
    acc = arb(0)
    for v in vals:
        acc += v
        pre.append(acc)
    d = defect.upper()
    return WindowLaw(m, offset, tuple(vals), tuple(pre), arb.union(arb(0), d), prec)


def poisson_binomial_window(blocks: Mapping[Fraction, int], prec: int) -> WindowLaw:
    """The law of ``S = sum of Bin(k_q, q)`` over the blocks, as a :class:`WindowLaw`.

    Args:
        blocks: ``{q: k_q}``, ``k_q`` independent Bernoulli(q) records for each ``q``.
        prec: bits of the balls; each block's left-out mass is below ``2^-(prec+8)``.

    Returns:
        The kept product of the binomial windows (an ``arb_poly`` product tree) and the
        defect: the sum of the blocks' left-out masses.

    References:
        Desfontaines et al. 2020, Section 4.1 (``S`` is Poisson binomial).
    """
    m = sum(blocks.values())
    if len(blocks) > MANY_BLOCKS:
        return tree_window(blocks, prec)
    with ctx.workprec(prec):
        parts = [_window_poly(k, q, prec) for q, k in sorted(blocks.items()) if k > 0]
        if not parts:
            parts = [(0, arb_poly([arb(1)]), arb(0))]
        offset = sum(lo for lo, _, _ in parts)
        defect = arb(0)
        for _, _, rest in parts:
            defect += rest
        polys = [poly for _, poly, _ in parts]
        while len(polys) > 1:
            nxt = [polys[i] * polys[i + 1] for i in range(0, len(polys) - 1, 2)]
            if len(polys) % 2:
                nxt.append(polys[-1])
            polys = nxt
        return _window_law(m, offset, polys[0], defect, prec)


def trim_tails(poly: arb_poly, budget: arb) -> tuple[int, arb_poly, arb]:
    """Drop leading and trailing coefficients whose upper ends sum to at most ``budget``
    (one coefficient is always kept).

    Args:
        poly: a ball polynomial of non-negative coefficients (a law's masses).
        budget: the most mass that may be dropped.

    Returns:
        ``(first kept index, kept poly, dropped bound)``.

    References:
        Johansson, Arb documentation, ``arb_poly`` (ball coefficients).
    """
    cs = poly.coeffs()
    a, b = 0, len(cs) - 1
    dropped = arb(0)
    while a < b:
        nxt = dropped + cs[a].upper()
        if not nxt <= budget:
            break
        dropped, a = nxt, a + 1
    while b > a:
        nxt = dropped + cs[b].upper()
        if not nxt <= budget:
            break
        dropped, b = nxt, b - 1
    if a == 0 and b == len(cs) - 1:
        return 0, poly, dropped
    return a, arb_poly(cs[a : b + 1]), dropped


def trimmed_product(
    nodes: Sequence[tuple[int, arb_poly]], budget: arb, short: int = 32
) -> tuple[int, arb_poly, arb]:
    """The product of offset ball polynomials by a balanced tree, each product longer than
    ``short`` trimmed of tail mass at most ``budget`` (:func:`trim_tails`; the lemma of
    :func:`tree_window` bounds what the dropped tails cost the product).

    Args:
        nodes: ``(offset, poly)`` pairs, each standing for ``z^offset poly`` (at least one).
        budget: the most mass one trim may drop.
        short: products of at most this many coefficients keep every coefficient.

    Returns:
        ``(offset, poly, dropped)``: the kept product and the sum of the dropped bounds.

    References:
        Johansson, Arb documentation, ``arb_poly_mullow`` (ball products).
    """
    level = list(nodes)
    dropped = arb(0)
    while len(level) > 1:
        nxt = []
        for i in range(0, len(level) - 1, 2):
            (la, pa), (lb, pb) = level[i], level[i + 1]
            poly = pa * pb
            if poly.length() > short:
                cut, poly, lost = trim_tails(poly, budget)
                dropped += lost
                la += cut
            nxt.append((la + lb, poly))
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    offset, top = level[0]
    return offset, top, dropped


def tree_window(blocks: Mapping[Fraction, int], prec: int) -> WindowLaw:
    """:func:`poisson_binomial_window` for many distinct ``p``: a product tree truncated at
    every level.

    **Lemma (truncated products).** Let ``true_j = kept_j + dropped_j`` with
    ``dropped_j >= 0`` of mass at most ``d_j`` (each ``true_j`` a law, mass 1). Then
    ``true_1 * true_2 = kept_1 * kept_2 + R`` with ``R >= 0`` of mass at most
    ``d_1 + d_2``. If a ball polynomial ``P`` contains ``kept_1 * kept_2`` coefficientwise
    and ``P'`` is ``P`` without some leading and trailing coefficients whose upper ends
    sum to ``u``, then ``P'`` contains the product's kept part on its positions and the
    rest, nonnegative, has mass at most ``d_1 + d_2 + u``. *Proof.* ``R`` collects the
    cross terms, products of nonnegative measures, of mass
    ``1 - (1 - d_1)(1 - d_2) <= d_1 + d_2``; the dropped coefficients are nonnegative
    numbers each at most its ball's upper end.

    Each node may drop ``2^-(prec+8)`` divided by the number of blocks, so the defect is
    at most the leaves' left-out masses plus ``2^-(prec+8)``; without truncation the
    windows of ``10^5`` single records multiply into a ``10^5``-degree polynomial whose
    coefficients span ``10^-47000``.

    Args:
        blocks: ``{q: k_q}``, ``k_q`` independent Bernoulli(q) records for each ``q``.
        prec: bits of the balls.

    Returns:
        The :class:`WindowLaw` of the sum.

    References:
        Desfontaines et al. 2020, Section 4.1 (``S`` is Poisson binomial); Johansson,
        Arb (2017) for the ball products.
    """
    m = sum(blocks.values())
    items = sorted(((q, k) for q, k in blocks.items() if k > 0), key=lambda x: (float(x[0]), x[0]))
    with ctx.workprec(prec):
        budget = arb(2) ** (-(prec + 8)) / max(len(items), 1)
        nodes: list[tuple[int, arb_poly]] = []
        defect = arb(0)
        for q, k in items:
            if k == 1:
                b = arb(q.numerator) / q.denominator  # a ball of q; 1 - b contains 1 - q
                nodes.append((0, arb_poly([1 - b, b])))
            else:
                lo, poly, rest = _window_poly(k, q, prec)
                nodes.append((lo, poly))
                defect += rest
        if not nodes:
            nodes = [(0, arb_poly([arb(1)]))]
        offset, top, dropped = trimmed_product(nodes, budget)
        return _window_law(m, offset, top, defect + dropped, prec)


def ball_sum(vals: Sequence[arb]) -> arb:
    """A ball containing the sum of ``vals``, at the current working precision.

    Args:
        vals: arb balls.

    Returns:
        An arb ball containing their sum (the exact zero ball for no values).

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic",
        IEEE Trans. Computers 66(8), 2017.
    """
    acc = arb(0)
    for v in vals:
        acc += v
    return acc


def ball_union(lo: arb, hi: arb) -> arb:
    """The smallest ball containing both ``lo`` and ``hi`` (an interval ``[lo, hi]``).

    Args:
        lo: a ball (an exact point for a lower end).
        hi: a ball (an exact point for an upper end).

    Returns:
        An arb ball containing both balls (rounded outward to a midpoint-radius form).

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic",
        IEEE Trans. Computers 66(8), 2017; Moore, Kearfott, Cloud, Introduction to Interval
        Analysis, SIAM 2009, Ch. 2 (interval hull).
    """
    return arb.union(lo, hi)


def exp_ball(x: Fraction, prec: int) -> arb:
    """A ball containing ``e^x`` at ``prec`` bits (precision restored on exit).

    Args:
        x: the exponent, an exact rational.
        prec: working precision in bits.

    Returns:
        An arb ball containing ``e^x``.

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic",
        IEEE Trans. Computers 66(8), 2017; python-flint docs, ``arb.exp``.
    """
    with ctx.workprec(prec):
        return arb_from_fraction(x).exp()


def binomial_balls(m: int, p: Fraction) -> list[arb]:
    """Balls of ``P[Bin(m, p) = s]`` for ``s = 0..m`` at the current precision.

    Args:
        m: number of trials.
        p: success probability in ``(0, 1)``.

    Returns:
        Rigorous balls by the ratio recurrence from the mode (its value by log-gamma).

    References:
        Desfontaines et al. 2020, Section 4.1 (the binomial count of i.i.d. records).
    """
    pa, qa = arb_from_fraction(p), arb_from_fraction(1 - p)
    mode = min(m, int((m + 1) * p))
    logf = (
        arb(m + 1).lgamma()
        - arb(mode + 1).lgamma()
        - arb(m - mode + 1).lgamma()
        + mode * pa.log()
        + (m - mode) * qa.log()
    )
    vals: list[arb] = [BALL_ZERO] * (m + 1)
    vals[mode] = logf.exp()
    ratio = pa / qa
    for s in range(mode, m):  # f(s+1) = f(s) p (m-s) / ((1-p)(s+1))
        vals[s + 1] = vals[s] * ratio * (m - s) / (s + 1)
    for s in range(mode, 0, -1):  # f(s-1) = f(s) (1-p) s / (p (m-s+1))
        vals[s - 1] = vals[s] * s / (ratio * (m - s + 1))
    return vals


def ball_poly(coeffs: Sequence[Fraction]) -> arb_poly:
    """The polynomial ``sum_k coeffs[k] z^k`` with ball coefficients.

    Args:
        coeffs: exact rational coefficients, constant term first.

    Returns:
        An ``arb_poly`` whose ``k``-th coefficient is a ball containing ``coeffs[k]``, at
        the current working precision.

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic",
        IEEE Trans. Computers 66(8), 2017; python-flint docs, ``arb_poly``.
    """
    return arb_poly([arb_from_fraction(c) for c in coeffs])

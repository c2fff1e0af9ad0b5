"""A Poisson-binomial law without some of its records, certified from a window of the whole.

Every target of a population of independent Bernoulli records has its own leave-one-out
law ``F / (1 - q + q z)`` (``F`` the generating polynomial of the whole population). With
``10^5`` distinct ``q`` a window per target (a product tree each) is out of reach; one
window of ``F`` divided by one linear factor costs a pass over the window.

**Lemma (division by a record).** Let ``h >= 0`` be the law of a count (mass 1) and
``f = h / (1 - q + q z)`` the law of that count without one Bernoulli(q) record
(``0 < q < 1``), so ``h(s) = (1 - q) f(s) + q f(s - 1)``. Suppose balls ``phi_in(s)``,
``s`` in a range ``I``, with ``h(s) = x(s) + e(s)``, ``x(s)`` in ``phi_in(s)``,
``sum_I |e(s)| <= S`` and ``h`` of mass at most ``O`` outside ``I``. Run

* for ``q <= 1/2`` forward: ``phi(lo - 1) = 0``, ``phi(s) = (phi_in(s) - q phi(s-1)) / (1-q)``
  for ``s`` in ``I``;
* for ``q > 1/2`` backward: ``phi(hi) = 0``, ``phi(s-1) = (phi_in(s) - (1-q) phi(s)) / q``
  for ``s`` from ``hi`` down to ``lo``.

Then for every computed ``s``, ``|f(s) - phi*(s)| <= 2 O + 2 S`` (``phi*`` the recursion
run on the exact ``x``, inside the balls), and ``f`` has mass at most ``2 O`` outside the
computed range. *Proof.* Both terms of ``h(s)`` are nonnegative, so ``f(s) <= h(s)/(1-q)``
and ``f(s-1) <= h(s)/q``: each at most ``2 h`` at the corresponding position on the side
where the recursion starts (which bounds the starting error and the mass outside). The
error obeys the recursion with ``e`` as input and ratio ``q/(1-q) <= 1`` (forward) or
``(1-q)/q < 1`` (backward), so ``|err(s)| <= 2 |e(s)| + |err(s -/+ 1)|``: summed, at most
``2 S`` plus the starting error ``2 O``.

Applied to a :class:`~pdpsym.core.count_law_balls.WindowLaw` (``S = O = D``, its defect) and then
repeatedly, ``k`` divisions give a pointwise bound ``E`` and outside mass ``2^k D``.
:func:`divided_window` turns the result back into a window: ``kept(s) = max(0, x(s) - E)``
lies in a ball, and ``0 <= true(s) - kept(s) <= 2 E`` on the range, so the defect is
``2 E |range| + 2^k D``. A window of ``10^5`` records at 256 bits has ``D`` near
``2^-262``; a division over ``6000`` counts keeps the defect below ``2^-230``.

The divisions are stable because the direction follows ``q``: errors never grow by more
than the ratio 1 a step (a forward division by ``q > 1/2`` would multiply them by
``(q/(1-q))^6000``).

References: Desfontaines et al. (2020), Section 4.1 (the peers' count of a target);
Knuth, TAOCP vol. 2, Section 4.6.1 (synthetic division); Johansson, Arb (2017) for the
ball arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from pdpsym.core.balls import Ball, BallPoly, arb_from_fraction, working_precision
from pdpsym.core.count_law_balls import WindowLaw
from pdpsym.core.tails import window_from_poly

__all__ = ["Divided", "divide", "divided_window", "point_ball"]


@dataclass(frozen=True)
class Divided:
    """Balls ``vals`` on counts ``lo..lo+len-1`` with ``|true(s) - x(s)| <= err`` for some
    ``x(s)`` in ``vals``, the true law of mass at most ``outside`` elsewhere (see the
    module doc); ``m`` is the largest count."""

    m: int
    lo: int
    vals: tuple[Ball, ...]
    err: Ball  # an exact upper bound (a ball's upper end)
    outside: Ball
    prec: int

    def at(self, s: int) -> Ball:
        """A ball containing the true mass at ``s`` (``[0, outside]`` off the range).

        Args:
            s: the count.

        Returns:
            The enclosure.
        """
        with working_precision(self.prec):
            j = s - self.lo
            if s < 0 or s > self.m:
                return Ball(0)
            if 0 <= j < len(self.vals):
                v = self.vals[j]
                low = v.lower() - self.err
                up = v.upper() + self.err
                return Ball.union(low if low > 0 else Ball(0), up)
            return Ball.union(Ball(0), self.outside)


def point_ball(w: WindowLaw, s: int) -> Ball:
    """A ball containing ``P[S = s]`` from a window: its kept ball plus ``[0, D]``.

    Args:
        w: the window.
        s: the count.

    Returns:
        The enclosure (``[0, D]`` off the window, 0 outside ``0..m``).

    References:
        Johansson, Arb (2017) for the ball arithmetic.
    """
    if s < 0 or s > w.m:
        return Ball(0)
    with working_precision(w.prec):
        j = s - w.lo
        d = w.defect.upper()
        if 0 <= j < len(w.vals):
            v = w.vals[j]
            low = v.lower()
            return Ball.union(low if low > 0 else Ball(0), v.upper() + d)
        return Ball.union(Ball(0), d)


def divide(w: WindowLaw, qs: Sequence[Fraction]) -> Divided:
    """The law of the window's count without one record of each ``q`` in ``qs``
    (the module's lemma, once per record).

    Args:
        w: a window of the whole count (``m >= len(qs)``).
        qs: the records' probabilities, each strictly between 0 and 1.

    Returns:
        The :class:`Divided` balls with their pointwise error bound.

    References:
        Knuth, TAOCP vol. 2, Section 4.6.1 (synthetic division); the module's lemma.
    """
    with working_precision(w.prec):
        d = w.defect.upper()
        vals = list(w.vals)
        lo = w.lo
        s_err, out, err = d, d, Ball(0)
        for q in qs:
            qb, rb = arb_from_fraction(q), arb_from_fraction(1 - q)
            n = len(vals)
            res = [Ball(0)] * n
            if 2 * q <= 1:
                prev = Ball(0)
                for j in range(n):
                    prev = (vals[j] - qb * prev) / rb
                    res[j] = prev
            else:
                nxt = Ball(0)
                for j in range(n - 1, -1, -1):
                    nxt = (vals[j] - rb * nxt) / qb
                    res[j] = nxt
                lo -= 1
            err = (2 * out + 2 * s_err).upper()
            out = (2 * out).upper()
            s_err = (err * n).upper()
            vals = res
        m = w.m - len(qs)
        # counts outside 0..m hold exactly 0
        a = max(0, -lo)
        b = min(len(vals), m - lo + 1)
        vals = vals[a:b]
        lo += a
        return Divided(m, lo, tuple(vals), err, out, w.prec)


def divided_window(w: WindowLaw, qs: Sequence[Fraction]) -> WindowLaw:
    """A :class:`~pdpsym.core.count_law_balls.WindowLaw` of the count without the records ``qs``.

    Args:
        w: a window of the whole count.
        qs: the removed records' probabilities.

    Returns:
        The window ``kept(s) = max(0, x(s) - E)`` with defect ``2 E |range| + outside``
        (the module doc).

    References:
        The module's lemma; Desfontaines et al. (2020), Section 4.1.
    """
    dv = divide(w, qs)
    with working_precision(w.prec):
        zero = Ball(0)
        kept = []
        for v in dv.vals:
            low, up = v.lower() - dv.err, v.upper() - dv.err
            low = low if low > 0 else zero
            up = up if up > 0 else zero
            kept.append(Ball.union(low, up))
        defect = (2 * dv.err * len(kept) + dv.outside).upper()

        poly = BallPoly(kept) if kept else BallPoly([zero])
    return window_from_poly(poly, dv.m, dv.lo, Ball.union(zero, defect), w.prec)

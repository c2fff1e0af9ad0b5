"""Cao et al.'s temporal leakage in arb balls, in the log domain, at every scale of eps.

:mod:`pdpsym.loss.temporal` computes ``e^{BPL_t}`` exactly when every ``e^{eps_t}`` is
rational. Otherwise the leakage is carried here as a ball of ``BPL_t`` itself, and each
step's increment ``L(alpha) = ln max_c r_c(e^alpha)``, with
``r_c(u) = (q (u - 1) + 1) / (d (u - 1) + 1)``, is evaluated in the form that keeps the
ball tight where ``alpha`` lies (every form is exact algebra; only the rounding differs):

* ``alpha < 2^-10``: ``x = expm1(alpha)`` and ``L = log1p(max_c (q - d) x / (d x + 1))``
  (no cancellation in ``u - 1`` for a tiny ``alpha``; ``x`` is used twice, but
  ``d x < 2^-10`` keeps the widening below ``2^-9`` a step);
* ``alpha > 64``: ``y = e^-alpha`` and ``r_c = (1 - q)/(1 - d) + ((q - d)/(1 - d)) /
  (d + (1 - d) y)`` (``d > 0``), ``ln r_c = alpha + ln(q + (1 - q) y)`` (``d = 0``): ``e^alpha``
  is never formed, so an ``alpha`` of ``10^9999`` needs no more bits than ``1``;
* otherwise ``u = e^alpha`` and ``r_c = q/d + (1 - q/d)/(d (u - 1) + 1)`` (``d > 0``) or
  ``q (u - 1) + 1``, ``u`` used once.

The map ``alpha -> L(alpha)`` is increasing and 1-Lipschitz, so a ball's radius grows by
rounding only. ``TPL_t = BPL_t + FPL_t - eps_t`` is a sum of balls with small absolute
radii (no cancellation of large numbers).

The supremum (TKDE Theorem 10) is likewise ``ln(1 + x*)`` with ``x* = u* - 1`` the
positive root of ``d x^2 + (1 + d - q w) x - (w - 1) = 0`` (``w = e^eps``), written
``2 (w - 1) / (B + sqrt(B^2 + 4 d (w - 1)))`` when ``B = 1 + d - q w > 0`` and
``(-B + sqrt(B^2 + 4 d (w - 1))) / (2 d)`` otherwise (no cancellation either way), or, for
``eps > 64``, ``eps + ln((q + (d - 1) y + sqrt((q + (d - 1) y)^2 + 4 d (1 - q) y)) / (2 d))``
with ``y = e^-eps``; ``d = 0``: ``x* = (w - 1) / (1 - q w)`` when ``q w < 1``.

References:
    Cao, Yoshikawa, Xiao, Xiong, IEEE TKDE 31(7), 2019, Theorem 4 and Theorem 10;
    Moore, Kearfott, Cloud, Introduction to Interval Analysis (2009), Sec. 5.1 (the
    dependency problem); Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed.,
    Sec. 1.8 (cancellation; the stable quadratic formula).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pdpsym.core.balls import Ball, to_ball, working_precision
from pdpsym.core.certify import decide_sign
from pdpsym.core.eps import Eps
from pdpsym.loss.temporal import Pair, TemporalChain, check_eps, exp_bounds

#: below this ``alpha`` the increment is computed from ``expm1``
SMALL = 2.0**-10
#: above this ``alpha`` it is computed from ``e^-alpha``
LARGE = 64.0


@dataclass(frozen=True)
class Terms:
    """One candidate ``(q, d)``'s constants as balls at one precision (d = 0: the ``a2``,
    ``b2``, ``a1``, ``b1`` are None)."""

    q: Any
    d: Any
    qd: Any  # q - d
    a1: Any  # q / d
    b1: Any  # 1 - q / d
    a2: Any  # (1 - q) / (1 - d)
    b2: Any  # (q - d) / (1 - d)
    one_q: Any  # 1 - q

    @classmethod
    def of(cls, c: Pair) -> Terms:
        """The constants of ``c`` at the working precision."""
        q, d = c
        if d == 0:
            return cls(to_ball(q), to_ball(d), to_ball(q), None, None, None, None, to_ball(1 - q))
        return cls(
            to_ball(q),
            to_ball(d),
            to_ball(q - d),
            to_ball(q / d),
            to_ball(1 - q / d),
            to_ball((1 - q) / (1 - d)),
            to_ball((q - d) / (1 - d)),
            to_ball(1 - q),
        )


def log_increment(terms: Sequence[Terms], alpha: Ball) -> Ball:
    """``L(alpha) = ln max_c r_c(e^alpha)`` as a ball (0 with no candidate).

    Args:
        terms: the candidates' constants (:class:`Terms`) at the working precision.
        alpha: the previous step's leakage, a ball ``>= 0``.

    Returns:
        The ball of ``L(alpha)``, by the form the module docstring gives for ``alpha``'s
        size.

    References:
        Cao et al., TKDE 2019, Theorem 4.
    """
    if not terms:
        return to_ball(0)
    m = float(alpha.mid())
    best: Any = None
    if m < SMALL:
        x = alpha.expm1()
        for t in terms:
            g = t.qd * x / (t.d * x + 1)
            best = g if best is None else best.max(g)
        return best.log1p()
    if m > LARGE:
        y = (-alpha).exp()
        for t in terms:
            v = (
                alpha + (t.q + t.one_q * y).log()
                if t.a1 is None
                else (t.a2 + t.b2 / (t.d + (1 - t.d) * y)).log()
            )
            best = v if best is None else best.max(v)
        return best
    x = alpha.exp() - 1
    for t in terms:
        r = t.q * x + 1 if t.a1 is None else t.a1 + t.b1 / (t.d * x + 1)
        best = r if best is None else best.max(r)
    return best.log()


def log_bounds(
    tc: TemporalChain, eps: Sequence[Eps], prec: int
) -> tuple[list[Ball], list[Ball], list[Ball]]:
    """``BPL_t``, ``FPL_t`` and ``TPL_t`` for ``t = 1..T`` as balls.

    Args:
        tc: the chain's laws.
        eps: one value per step, each ``> 0``.
        prec: the working precision in bits.

    Returns:
        Three lists of balls. When every ``e^{eps_t}`` is rational they are the logs of
        the exact rationals of :func:`pdpsym.loss.temporal.exp_bounds`.

    Raises:
        InputError: ``eps``, of the wrong length or with a value ``<= 0``.

    References:
        Cao et al., TKDE 2019, Eq. (9)-(11) and Theorem 4.
    """
    T = tc.length
    check_eps(eps, T)
    if all(e.exact_exp() is not None for e in eps):
        b, f = exp_bounds(tc, eps, prec)
        with working_precision(prec):
            ws = [e.exact_exp() for e in eps]
            return (
                [to_ball(x).log() for x in b],
                [to_ball(y).log() for y in f],
                [to_ball(x * y / w).log() for x, y, w in zip(b, f, ws, strict=True)],  # type: ignore[operator]
            )
    with working_precision(prec):
        balls = {e: e.arb(prec) for e in set(eps)}

        def terms(c: tuple[Pair, ...]) -> list[Terms]:
            key = ("terms", id(c), prec)
            if key not in tc.cache:
                tc.cache[key] = [Terms.of(x) for x in c]
            return tc.cache[key]  # type: ignore[no-any-return]

        bpl = [balls[eps[0]]]
        for t in range(1, T):
            bpl.append(balls[eps[t]] + log_increment(terms(tc.backward[t]), bpl[-1]))
        fpl = [balls[eps[T - 1]]]
        for t in range(T - 2, -1, -1):
            fpl.append(balls[eps[t]] + log_increment(terms(tc.forward[t]), fpl[-1]))
        fpl.reverse()
        tpl = [x + y - balls[e] for x, y, e in zip(bpl, fpl, eps, strict=True)]
    return bpl, fpl, tpl


def _bounded_d0(q: Fraction, eps: Eps) -> bool:
    """Whether ``q e^eps < 1`` (decided exactly or by balls at rising precision)."""
    w = eps.exact_exp()
    if w is not None:
        return q * w < 1

    def gap(p: int) -> Any:  # the sign of 1 - q e^eps is that of ln(1/q) - eps
        with working_precision(p):
            return -(eps.arb(p) + to_ball(q).log())

    # q e^eps = 1 needs e^eps = 1/q rational, decided above: the balls separate
    return decide_sign(gap, "1 - q e^eps") > 0


def log_fixed_point(c: Pair, eps: Eps, prec: int) -> Ball | None:
    """One candidate's ``sup_T`` of the leakage, ``ln u*`` (TKDE Theorem 10), or None when
    the leakage grows without bound (``d = 0`` and ``q e^eps >= 1``).

    Args:
        c: the candidate ``(q, d)``.
        eps: the per-step ``eps``.
        prec: the working precision in bits.

    Returns:
        The ball of ``ln u*``, or None.

    References:
        Cao et al., TKDE 2019, Theorem 10.
    """
    q, d = c
    if d == 0 and not _bounded_d0(q, eps):
        return None
    with working_precision(prec):
        e = eps.arb(prec)
        qb, db = to_ball(q), to_ball(d)
        if float(e.mid()) > LARGE:
            y = (-e).exp()
            if d == 0:  # ln(w (1 - q) / (1 - q w)) with q w < 1 far below: q tiny
                return e + to_ball(1 - q).log() - (-(e + qb.log()).exp()).log1p()
            s = qb + (db - 1) * y
            return e + ((s + (s * s + 4 * db * (1 - qb) * y).sqrt()) / (2 * db)).log()
        wm1 = e.expm1()
        if d == 0:
            return (wm1 / (to_ball(1 - q) - qb * wm1)).log1p()
        B = to_ball(1 + d - q) - qb * wm1
        root = (B * B + 4 * db * wm1).sqrt()
        x = 2 * wm1 / (B + root) if B > 0 else (root - B) / (2 * db)
        return x.log1p()


def log_supremum(cands: Sequence[Pair], eps: Eps, prec: int) -> Ball | None:
    """``sup_T BPL_T`` (or of FPL) for one homogeneous matrix: the largest fixed point.

    Args:
        cands: the matrix's candidates.
        eps: the per-step ``eps``.
        prec: the working precision in bits.

    Returns:
        The ball of the supremum (``eps`` with no candidate), or None when unbounded.

    References:
        Cao et al., TKDE 2019, Theorem 10 and Algorithm 2.
    """
    best: Any = None
    with working_precision(prec):
        for c in cands:
            v = log_fixed_point(c, eps, prec)
            if v is None:
                return None
            best = v if best is None else best.max(v)
        return eps.arb(prec) if best is None else best


__all__ = [
    "LARGE",
    "SMALL",
    "Terms",
    "log_bounds",
    "log_fixed_point",
    "log_increment",
    "log_supremum",
]

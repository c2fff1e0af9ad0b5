"""Privacy budgets that keep Cao et al.'s temporal leakage at most ``alpha``.

Three answers, each certified by bisection with decided comparisons (arb balls at rising
precision, never a float):

* :func:`largest_constant_eps`: the largest ``eps`` such that releasing with ``eps`` at
  every one of the chain's ``T`` steps keeps ``TPL_t <= alpha`` for every ``t``. Every
  ``TPL_t`` grows with ``eps`` (each ``L`` is increasing and 1-Lipschitz) and
  ``TPL_t(eps) >= eps``, so the answer lies in ``(0, alpha]`` and the set of ``eps`` that
  meet ``alpha`` is an interval from 0: bisection keeps ``lo`` (certified to meet) and
  ``hi`` (certified to fail).
* :func:`quantified_allocation`: Cao et al.'s allocation by quantification (TKDE Sec. 6,
  Algorithm 3; their ``allocEspByQuantify``): ``eps_1 = a_B``, ``eps_t = a_B - L_B(a_B)``
  for ``1 < t < T``, ``eps_T = a_F`` with ``a_F = alpha - L_B(a_B)``, where ``a_B`` solves
  ``a_B + L_F(alpha - L_B(a_B)) = alpha``. Then ``BPL_t = a_B`` and ``FPL_t = a_F`` for
  every ``t``, so ``TPL_t = alpha`` at every ``t`` (in the middle ``a_F + L_B(a_B)``, at
  ``t = 1`` ``FPL_1 = L_F(a_F) + a_B``, at ``t = T`` ``BPL_T = L_B(a_B) + a_F``). The left side minus ``alpha`` rises with ``a_B`` (slope ``1 - L_F' L_B' >= 0``),
  is ``L_F(alpha) - alpha <= 0`` at 0 and ``>= 0`` at ``alpha``. Homogeneous chains only
  (one backward and one forward matrix).
* :func:`upper_bound_allocation`: their allocation by the upper bound (TKDE Sec. 6,
  ``allocEspByUpperBound``): the constant ``eps`` whose supremum over every ``T``,
  ``sup BPL + sup FPL - eps`` (Theorem 10), equals ``alpha``.

References:
    Cao, Yoshikawa, Xiao, Xiong, IEEE TKDE 31(7), 2019, Sec. 6 (privacy budget
    allocation), Theorem 10; ICDE 2017, Sec. V.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pdpsym.core.balls import Ball, to_ball, working_precision
from pdpsym.core.certify import MAX_PREC
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError, Undecided
from pdpsym.loss.temporal import TemporalChain
from pdpsym.loss.temporal_balls import Terms, log_bounds, log_increment, log_supremum

#: the relative width of a budget's enclosure
REL_WIDTH = Fraction(1, 10**12)


def tpl_balls(tc: TemporalChain, eps: Sequence[Eps], prec: int) -> list[Ball]:
    """``TPL_t = BPL_t + FPL_t - eps_t`` for every ``t``, as balls.

    Args:
        tc: the chain's laws.
        eps: one value per step.
        prec: the working precision in bits.

    Returns:
        ``T`` balls.

    References:
        Cao et al., TKDE 2019, Eq. (11) (``TPL = BPL + FPL - PL_0``).
    """
    return log_bounds(tc, eps, prec)[2]


def _decide(holds_of: Callable[[int], int | None], what: str) -> bool:
    """Whether a property holds, from ``holds_of(prec)`` (True/False, or None while
    the balls cannot tell) at precision doubled from 128 bits."""
    prec = 128
    while prec <= MAX_PREC:
        verdict = holds_of(prec)
        if verdict is not None:
            return bool(verdict)
        prec *= 2
    raise Undecided(what, MAX_PREC)


#: bisection steps from ``(0, alpha]`` down to REL_WIDTH (for progress bars)
STEPS = 42

Tick = Callable[[], None] | None


def _bisect(
    meets: Callable[[Fraction], bool], lo: Fraction, hi: Fraction, on_step: Tick = None
) -> tuple[Fraction, Fraction]:
    """Shrink ``[lo, hi]`` (``lo`` meets, ``hi`` does not) to relative width REL_WIDTH."""
    while hi - lo > REL_WIDTH * hi:
        if on_step is not None:
            on_step()
        mid = (lo + hi) / 2
        if meets(mid):
            lo = mid
        else:
            hi = mid
    return lo, hi


def _check_alpha(alpha: Fraction) -> None:
    if alpha <= 0:
        raise InputError("budget", f"no eps > 0 keeps the leakage at most {alpha} (it must be > 0)")


def largest_constant_eps(
    tc: TemporalChain, alpha: Fraction, on_step: Tick = None
) -> tuple[Fraction, Fraction]:
    """The largest constant per-step ``eps`` with ``TPL_t <= alpha`` for every ``t``.

    Args:
        tc: the chain's laws (``T`` steps).
        alpha: the budget, ``> 0``.
        on_step: called once per bisection step (progress).

    Returns:
        ``(lo, hi)``: rationals with ``lo <= eps* <= hi`` and ``hi - lo <= 1e-12 hi``
        (``lo = hi = alpha`` when no step carries correlation: then ``TPL_t = eps``).

    Raises:
        InputError: ``budget``, when ``alpha <= 0`` (no ``eps > 0`` meets it).
        Undecided: when ``TPL`` sits on ``alpha`` closer than the precision budget.

    References:
        Cao et al., TKDE 2019, Sec. 6 (budget allocation); their Eq. (9)-(11).
    """
    _check_alpha(alpha)
    if not any(tc.backward) and not any(tc.forward):
        return alpha, alpha
    T = tc.length

    def meets(e: Fraction) -> bool:
        eps = [Eps.of(e)] * T

        def verdict(prec: int) -> int | None:
            balls = tpl_balls(tc, eps, prec)
            with working_precision(prec):
                a = to_ball(alpha)
                if all(b < a for b in balls):
                    return 1
                if any(b > a for b in balls):
                    return 0
            return None

        return _decide(verdict, f"TPL at eps = {e} against the budget {alpha}")

    return _bisect(meets, Fraction(0), alpha, on_step)


@dataclass(frozen=True)
class Allocation:
    """Cao et al.'s per-step budgets: ``first`` at ``t = 1``, ``middle`` for ``1 < t < T``,
    ``last`` at ``t = T``, each a ball (certified enclosure)."""

    first: Ball
    middle: Ball
    last: Ball


def _L(cands: Any, alpha: Ball, prec: int) -> Ball:
    with working_precision(prec):
        return log_increment([Terms.of(c) for c in cands], alpha)


def quantified_allocation(tc: TemporalChain, alpha: Fraction, on_step: Tick = None) -> Allocation:
    """Cao et al.'s allocation by quantification for a homogeneous chain (module docstring).

    Args:
        tc: the chain's laws (homogeneous: one transition matrix, stationary start).
        alpha: the budget, ``> 0``.
        on_step: called once per bisection step (progress).

    Returns:
        The :class:`Allocation` (for ``T = 1``, every field is ``alpha``).

    Raises:
        InputError: ``budget`` for ``alpha <= 0``; ``MODEL`` for a chain that is not
            homogeneous.

    References:
        Cao et al., TKDE 2019, Sec. 6, Algorithm 3 (allocation by quantification).
    """
    _check_alpha(alpha)
    if not tc.homogeneous:
        raise InputError("MODEL", f"Cao et al.'s allocation needs a homogeneous chain: {tc.why}")
    if tc.length == 1:
        a = to_ball(alpha)
        return Allocation(a, a, a)
    assert tc.steady is not None  # homogeneous
    LB, LF = tc.steady

    def meets(a_b: Fraction) -> bool:  # h(a_B) < 0: a_B is below the root
        def verdict(prec: int) -> int | None:
            with working_precision(prec):
                ab, a = to_ball(a_b), to_ball(alpha)
                h = ab + _L(LF, a - _L(LB, ab, prec), prec) - a
                return 1 if h < 0 else 0 if h >= 0 else None

        return _decide(verdict, f"Cao et al.'s allocation equation at a_B = {a_b}")

    lo, hi = _bisect(meets, Fraction(0), alpha, on_step)
    prec = 256
    with working_precision(prec):
        lo_b, hi_b, a = to_ball(lo), to_ball(hi), to_ball(alpha)
        first = lo_b.union(hi_b)
        middle = (lo_b - _L(LB, lo_b, prec)).union(hi_b - _L(LB, hi_b, prec))
        last = (a - _L(LB, hi_b, prec)).union(a - _L(LB, lo_b, prec))
    return Allocation(first, middle, last)


def upper_bound_allocation(
    tc: TemporalChain, alpha: Fraction, on_step: Tick = None
) -> tuple[Fraction, Fraction] | None:
    """The constant ``eps`` whose TPL supremum over every ``T`` equals ``alpha``.

    Args:
        tc: the chain's laws (homogeneous).
        alpha: the budget, ``> 0``.
        on_step: called once per bisection step (progress).

    Returns:
        ``(lo, hi)`` enclosing it (relative width ``<= 1e-12``), or None when the
        supremum is unbounded for every ``eps > 0`` (a candidate with ``q = 1, d = 0``).

    Raises:
        InputError: ``budget`` for ``alpha <= 0``; ``MODEL`` for a chain that is not
            homogeneous.

    References:
        Cao et al., TKDE 2019, Theorem 10 and Sec. 6 (allocation by the upper bound).
    """
    _check_alpha(alpha)
    if not tc.homogeneous:
        raise InputError("MODEL", f"the supremum needs a homogeneous chain: {tc.why}")
    assert tc.steady is not None  # homogeneous
    LB, LF = tc.steady
    if not LB and not LF:
        return alpha, alpha
    if any(c == (1, 0) for c in LB + LF):
        return None

    def meets(e: Fraction) -> bool:
        eps = Eps.of(e)

        def verdict(prec: int) -> int | None:
            ub, uf = log_supremum(LB, eps, prec), log_supremum(LF, eps, prec)
            if ub is None or uf is None:
                return 0
            with working_precision(prec):
                tpl = ub + uf - eps.arb(prec)
                a = to_ball(alpha)
                return 1 if tpl < a else 0 if tpl > a else None

        return _decide(verdict, f"the TPL supremum at eps = {e} against the budget {alpha}")

    return _bisect(meets, Fraction(0), alpha, on_step)


__all__ = [
    "REL_WIDTH",
    "STEPS",
    "Allocation",
    "largest_constant_eps",
    "quantified_allocation",
    "tpl_balls",
    "upper_bound_allocation",
]

"""The exact temporal leakage of one mechanism released at every step of a Markov chain.

One person's values ``x_1..x_T`` follow a Markov chain; at every step the same mechanism
releases ``r_t`` from ``x_t`` alone (randomized response, or geometric noise on the value).
The leakage about ``x_t`` is Cao et al.'s quantity for the mechanism actually used,
computed exactly (it is the Pufferfish / ``np`` leakage of ``pdpsym audit`` on the
stream with target ``x_t``):

* ``BPL_t = max_{a != b} max_r ln P(r_1..r_t | x_t = a) / P(r_1..r_t | x_t = b)``;
* ``FPL_t``: the same over ``r_t..r_T``;
* ``TPL_t``: the same over ``r_1..r_T``,

``a`` and ``b`` ranging over the values with positive probability at ``t``. Given ``x_t``
the past reports, the report at ``t`` and the future reports are independent (the Markov
property), so for one pair ``(a, b)``::

    P(r | a) / P(r | b) = [phi(a) / phi(b)] [pi_t(b) / pi_t(a)]   (past,   phi(s) = P(r_<t, x_t = s))
                        * R(r_t | a) / R(r_t | b)                 (own report)
                        * [beta(a) / beta(b)]                     (future, beta(s) = P(r_>t | x_t = s))

and the three factors range independently, so each one's maximum is taken apart and
``TPL_t`` is the largest product over pairs. It is at most ``BPL_t + FPL_t - eps`` (Cao
et al.'s equality), with equality when one pair attains both sides' maxima.

**Each side's maximum is exact.** ``phi`` and ``beta`` are carried by linear maps, one per
report; the largest ratio of two coordinates over every report sequence is attained at an
extreme ray of the cone the reachable vectors generate (:mod:`pdpsym.audit.rr_report_cones`:
a mediant argument, extreme rays kept as primitive integer vectors, decided exactly). One
forward and one backward sweep give every ``t`` (each step's rays are those of the images
of the previous step's rays).

**Geometric and Laplace noise have finitely many reports that matter.** Integer values
``v_s`` and ``y = v + Z`` with ``P(Z = z) ∝ alpha^|z|`` (Laplace: real ``y``, density
``∝ alpha^|y - v|`` with ``alpha = e^{-1/lam}``, the same argument): the vector
``(alpha^|y - v_s|)_s`` is, for ``v_j <= y <= v_{j+1}``, ``alpha^y A + alpha^-y B`` with ``A = (alpha^-v_s [s <= j])`` and
``B = (alpha^v_s [s > j])``; its two coefficients' ratio ``alpha^-2y`` is monotone in ``y``,
so it is a non-negative combination of the vectors at ``y = v_j`` and ``y = v_{j+1}``; below
``v_min`` and above ``v_max`` it is a multiple of the vector at the end. Every likelihood
is linear in each step's vector, and a ratio of two linear functions over a cone is
largest at a generator, so the supremum over all outputs is the maximum over reports
``y in {v_s}``: the mechanism acts as the report matrix ``R(o | s) = alpha^|v_o - v_s|``
(the common factor ``(1 - alpha)/(1 + alpha)`` changes no ratio). Laplace entries are
powers of ``e^{-1/lam}``, not rationals: two states are computed in balls
(:func:`binary_stream_balls`).

References:
    Cao, Yoshikawa, Xiao, Xiong, ICDE 2017, Definitions 3-5 (BPL, FPL, TPL); TKDE 2019,
    Sec. 3; Song, Wang, Chaudhuri, SIGMOD 2017 (Pufferfish on Markov chains); Rabiner
    (1989), forward-backward recursions; Rockafellar, Convex Analysis (1970), Section 18;
    Ghosh, Roughgarden, Sundararajan (2012), the geometric mechanism.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pdpsym.audit.rr_report_cones import extreme_rays, image_rays, max_ratio
from pdpsym.core.balls import to_ball, working_precision
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.models.markov import MarkovChain

Row = tuple[Fraction, ...]
Ratios = dict[tuple[int, int], Fraction]


class TooManyRays(Exception):
    """A cone carried more extreme rays than :func:`stream_ray_cap`."""


def stream_ray_cap(j: int, k: int) -> int:
    """The most extreme rays a cone may carry after ``j`` steps of a ``k``-state stream.

    Linear in ``j`` and with no ceiling, so that :func:`stream_work` (which counts this
    many rays at every step) bounds the work of every run it lets start: on three states
    the rays grew by one or two a step on every chain measured (TKDE Fig. 4's matrix with
    randomized response: ``2 j + 1`` rays after ``j`` steps), on four states more slowly.
    A run whose cone outgrows the cap stops (an error naming the mechanism).

    Args:
        j: the steps taken.
        k: the number of states.

    Returns:
        ``2 (j + k) + 64``.

    References:
        Rockafellar (1970), Section 18 (the rays of a finitely generated cone).
    """
    return 2 * (j + k) + 64


@dataclass(frozen=True)
class StreamMechanism:
    """A mechanism applied to every record on its own: ``report[o][s]`` is ``R(o | s)`` up
    to a positive factor per report ``o`` (which moves no likelihood ratio)."""

    kind: str
    report: tuple[Row, ...]
    eps: Eps

    def own(self, a: int, b: int) -> Fraction:
        """``max_o R(o | a) / R(o | b)``: the report's own largest ratio."""
        return max(r[a] / r[b] for r in self.report)


def randomized_response(keep: Fraction, k: int) -> StreamMechanism:
    """Randomized response on ``k`` values: ``keep`` the truth, else a uniform other value.

    Args:
        keep: the probability of the true report, in ``(0, 1)``.
        k: the number of values (``>= 2``).

    Returns:
        The mechanism; its ``eps`` is ``ln max(keep / o, o / keep)``, ``o = (1 - keep)/(k - 1)``.

    Raises:
        InputError: ``keep`` outside ``(0, 1)`` or equal to ``1/k`` (``eps = 0``).

    References:
        Warner (1965); Kairouz, Oh, Viswanath (2016), k-ary randomized response.
    """
    if not 0 < keep < 1:
        raise InputError("keep", "must lie in (0, 1) for a finite eps")
    other = (1 - keep) / (k - 1)
    if other == keep:
        raise InputError("keep", f"keep = 1/{k} releases nothing (eps = 0)")
    rows = tuple(tuple(keep if o == s else other for s in range(k)) for o in range(k))
    return StreamMechanism("randomized-response", rows, Eps.log(max(keep / other, other / keep)))


def geometric(alpha: Fraction, states: Sequence[Fraction]) -> StreamMechanism:
    """Two-sided geometric noise on each record's integer value (module docstring).

    Args:
        alpha: the noise parameter, in ``(0, 1)``.
        states: the integer state values.

    Returns:
        The mechanism as a report matrix over ``y in {v_s}``; its ``eps`` is
        ``(v_max - v_min) ln(1/alpha)``.

    Raises:
        InputError: ``alpha`` outside ``(0, 1)``; ``states`` not integers.

    References:
        Ghosh, Roughgarden, Sundararajan, "Universally utility-maximizing privacy
        mechanisms", STOC 2009.
    """
    if not 0 < alpha < 1:
        raise InputError("alpha", "must lie in (0, 1)")
    if any(v.denominator != 1 for v in states):
        raise InputError("states", "geometric noise needs integer state values")
    rows = tuple(tuple(alpha ** int(abs(vo - vs)) for vs in states) for vo in states)
    span = int(max(states) - min(states))
    return StreamMechanism("geometric", rows, Eps.log((1 / alpha) ** span))


def _integer(mats: list[list[list[Fraction]]]) -> list[list[list[int]]]:
    den = math.lcm(*(x.denominator for g in mats for row in g for x in row))
    return [[[int(x * den) for x in row] for row in g] for g in mats]


def _ratios(rays: Sequence[tuple[int, ...]], live: Sequence[int]) -> Ratios:
    out: Ratios = {}
    for a in live:
        for b in live:
            if a != b:
                r = max_ratio(rays, a, b)
                assert r is not None  # every live value has positive mass (R > 0)
                out[(a, b)] = r
    return out


def _sweep(
    start: Sequence[Fraction],
    steps: Sequence[list[list[list[Fraction]]]],
    live: Sequence[Sequence[int]],
    tick: Callable[[], None] | None,
) -> list[Ratios]:
    """The largest ratios after each of ``0..len(steps)`` steps (rays carried along)."""
    rays = extreme_rays(_integer([[list(start)]])[0])
    out = [_ratios(rays, live[0])]
    for j, mats in enumerate(steps, 1):
        rays = image_rays(rays, _integer(mats))
        if len(rays) > stream_ray_cap(j, len(start)):
            raise TooManyRays(len(rays))
        out.append(_ratios(rays, live[j]))
        if tick is not None:
            tick()
    return out


@dataclass(frozen=True)
class StreamLeakage:
    """``e^{BPL_t}``, ``e^{FPL_t}`` and ``e^{TPL_t}`` of a mechanism, exact, ``t = 1..T``
    (0-based lists), with the pair ``(a, b)`` (state indices) attaining each TPL."""

    bpl: tuple[Fraction, ...]
    fpl: tuple[Fraction, ...]
    tpl: tuple[Fraction, ...]
    tpl_pair: tuple[tuple[int, int], ...]


def stream_work(chain: MarkovChain, mech: StreamMechanism) -> int:
    """The estimated steps of :func:`stream_leakage`: two sweeps, each step mapping every
    carried ray through ``k`` report maps of ``k^2`` products of numbers that grow by
    ``bits`` a step (two rays for two states, :func:`stream_ray_cap` for more: the most a
    run may carry, so the estimate is an upper one where the rays grow slower; an LP per
    image from four states), then ``k^2`` ratios per ray. The unit is the project's (a step
    about a microsecond of CPU); the fit, to measured CPU seconds, was taken in units of
    ``1/(3 10^7)`` s, hence the division by 30: two states,
    ``T = 1000`` in 1.5 s; three states (TKDE Fig. 4's matrix, randomized response, ``2 j
    + 1`` rays), ``T = 100, 200, 400`` in 0.68, 4.2 and 38 s (estimates 2.6e7, 1.3e8 and
    8.5e8 steps against measured 2.0e7, 1.3e8 and 1.1e9; a chain whose cone keeps three
    rays is over-estimated up to 20x); four states (one LP per image, its cost growing
    with the rays: a factor ``1 + (j // 8)^3`` at step ``j``), ``T = 15`` and ``30`` in
    2.9 and 80 s (estimates 8.3e7 and 2.6e9 against 8.7e7 and 2.4e9).

    Args:
        chain: the chain.
        mech: the mechanism.

    Returns:
        The estimate (about one exact operation on numbers of a few words per unit).

    References:
        Knuth, TAOCP vol. 2 (multi-precision multiplication).
    """
    dens = [x.denominator for P in chain.matrices for row in P for x in row]
    dens += [x.denominator for row in mech.report for x in row]
    bits = max(1, math.lcm(*dens).bit_length()) * 2
    k, T = chain.k, chain.length
    per_image = k * k + 10 + (5000 if k > 3 else 0)
    scale = 4 if k == 3 else 1  # the exact hull's share on three states, measured
    total = 0
    for j in range(1, T + 1):
        rays = 2 if k == 2 else stream_ray_cap(j, k)
        lp = 1 + (j // 8) ** 3 if k > 3 else 1  # the LPs grow with the rays, measured
        total += rays * (k * per_image + k * k) * (1 + j * bits // 256) * lp
    return -(-2 * total * scale // 30)  # 3 10^7 fitted units a second -> 10^6


def stream_leakage(
    chain: MarkovChain, mech: StreamMechanism, tick: Callable[[], None] | None = None
) -> StreamLeakage:
    """The exact BPL, FPL and TPL of ``mech`` released at every step (module docstring).

    Args:
        chain: one person's values over time.
        mech: the mechanism applied to each record.
        tick: called once per step of each sweep (progress).

    Returns:
        The :class:`StreamLeakage`.

    Raises:
        InputError: ``mechanism``, when its report matrix is not over the chain's states
            or a cone has more extreme rays than the exact programme carries.

    References:
        Cao et al., ICDE 2017, Definitions 3-5; Rockafellar (1970), Section 18.
    """
    k, T = chain.k, chain.length
    if len(mech.report) != k or any(len(r) != k for r in mech.report):
        raise InputError(
            "mechanism", f"the mechanism reports over {len(mech.report)} values, the chain has {k}"
        )
    laws = [tuple(chain.initial_law)]
    for t in range(T - 1):
        P, pi = chain.matrix(t), laws[-1]
        laws.append(tuple(sum((pi[s] * P[s][j] for s in range(k)), Fraction(0)) for j in range(k)))
    live = [[s for s in range(k) if laws[t][s] > 0] for t in range(T)]
    R = mech.report
    # phi'(u) = sum_s phi(s) R(o|s) P[s][u]: one map per report o
    fsteps = [
        [[[R[o][s] * chain.matrix(t)[s][u] for s in range(k)] for u in range(k)] for o in range(k)]
        for t in range(T - 1)
    ]
    # beta(s) = sum_u P[s][u] R(o|u) beta'(u)
    bsteps = [
        [[[chain.matrix(t)[s][u] * R[o][u] for u in range(k)] for s in range(k)] for o in range(k)]
        for t in range(T - 2, -1, -1)
    ]
    try:
        past = _sweep(laws[0], fsteps, live, tick)
        future = _sweep([Fraction(1)] * k, bsteps, live[::-1], tick)[::-1]
    except TooManyRays as err:
        raise InputError(
            "mechanism",
            f"a cone of report laws has {err.args[0]} extreme rays, over the limit of the "
            "exact programme",
        ) from None
    bpl, fpl, tpl, where = [], [], [], []
    for t in range(T):
        pi = laws[t]
        best_b = best_f = best_t = Fraction(0)
        pair = (live[t][0], live[t][0])
        for a in live[t]:
            for b in live[t]:
                if a == b:
                    continue
                p = past[t][(a, b)] * pi[b] / pi[a] * mech.own(a, b)
                f = mech.own(a, b) * future[t][(a, b)]
                whole = p * future[t][(a, b)]
                best_b, best_f = max(best_b, p), max(best_f, f)
                if whole > best_t:
                    best_t, pair = whole, (a, b)
        if len(live[t]) == 1:  # one possible value: nothing to tell apart
            best_b = best_f = best_t = Fraction(1)
        bpl.append(best_b)
        fpl.append(best_f)
        tpl.append(best_t)
        where.append(pair)
    return StreamLeakage(tuple(bpl), tuple(fpl), tuple(tpl), tuple(where))


@dataclass(frozen=True)
class LaplaceStream:
    """Laplace noise of scale ``lam`` added to each record's value of a two-state chain;
    ``eps = |v_1 - v_0| / lam`` per step (computed by :func:`binary_stream_balls`)."""

    lam: Fraction
    eps: Eps
    kind: str = "laplace"


def laplace(lam: Fraction, states: Sequence[Fraction]) -> LaplaceStream:
    """Laplace noise on each value of a two-state chain.

    Args:
        lam: the scale, ``> 0``.
        states: the two state values.

    Returns:
        The mechanism, ``eps = |v_1 - v_0| / lam``.

    Raises:
        InputError: ``lam <= 0``; ``states`` not two values.

    References:
        Dwork, McSherry, Nissim, Smith (2006), the Laplace mechanism.
    """
    if lam <= 0:
        raise InputError("lam", "must be > 0")
    if len(states) != 2:
        raise InputError("states", "Laplace noise on each value is computed on two-state chains")
    return LaplaceStream(lam, Eps.of(abs(states[1] - states[0]) / lam))


# --- Laplace noise on a two-state chain: certified balls ---------------------------------


def _mobius(a: Fraction, b: Fraction, c: Fraction, d: Fraction, x: Any) -> Any:
    """``(a x + b) / (c x + d)`` for a ball ``x > 0``, with ``x`` used once (no
    dependency widening): ``a/c + (b - a d / c) / (c x + d)``, or ``(a x + b) / d``."""
    if c == 0:
        return (to_ball(a) * x + to_ball(b)) / to_ball(d)
    return to_ball(a / c) + to_ball(b - a * d / c) / (to_ball(c) * x + to_ball(d))


def binary_stream_balls(chain: MarkovChain, eps: Eps, prec: int) -> tuple[list[Any], ...]:
    """``e^{BPL_t}``, ``e^{FPL_t}``, ``e^{TPL_t}`` as balls for a symmetric binary report on
    a two-state chain: ``R(o | s)`` proportional to ``e^{eps}`` when ``o = s`` and 1
    otherwise (Laplace noise of scale ``lam`` on values ``v_0, v_1`` reduces to it with
    ``eps = |v_1 - v_0| / lam``, the module docstring's argument; randomized response
    with ``e^eps = keep / (1 - keep)``).

    The past ratio ``rho = phi(0) / phi(1)`` moves by ``rho' = M(c_o rho)`` with
    ``M(x) = (P00 x + P10) / (P01 x + P11)``, monotone (the sign of ``det P``), and
    ``c_o`` in ``{e^eps, e^-eps}``; so the largest and smallest ``rho'`` are ``M`` at the
    extreme products, found without comparing (the monotone direction is the exact sign
    of ``det P``). The future ratio moves by ``(P00 x + P01) / (P10 x + P11)`` the same way
    (Rabiner's backward recursion; :mod:`pdpsym.audit.rr_reports` does this in
    Fractions). Every ball encloses the exact extreme.

    Args:
        chain: a two-state chain whose marginals are positive at every step.
        eps: the report's ``eps``.
        prec: the working precision in bits.

    Returns:
        Three lists of balls (``t = 1..T``).

    Raises:
        InputError: ``MODEL``, for a chain of other than two states or a step where a
            state has probability 0.

    References:
        Cao et al., ICDE 2017, Definitions 3-5; Rabiner (1989); Dwork, McSherry, Nissim,
        Smith (2006), the Laplace mechanism.
    """
    if chain.k != 2:
        raise InputError("MODEL", "Laplace noise on each value is computed on two-state chains")
    T = chain.length
    laws = [tuple(chain.initial_law)]
    for t in range(T - 1):
        P, pi = chain.matrix(t), laws[-1]
        laws.append(tuple(sum((pi[s] * P[s][j] for s in range(2)), Fraction(0)) for j in range(2)))
    if any(0 in law for law in laws):
        raise InputError(
            "MODEL", "Laplace noise needs both states possible at every step (a marginal is 0)"
        )
    with working_precision(prec):
        W = eps.arb_exp(prec)
        hi = lo = to_ball(laws[0][0] / laws[0][1])
        past = [(hi, lo)]
        for t in range(T - 1):
            P = chain.matrix(t)
            m = functools.partial(_mobius, P[0][0], P[1][0], P[0][1], P[1][1])
            up = P[0][0] * P[1][1] - P[0][1] * P[1][0] >= 0
            hi, lo = (m(W * hi), m(lo / W)) if up else (m(lo / W), m(W * hi))
            past.append((hi, lo))
        hi = lo = to_ball(1)
        future = [(hi, lo)]
        for t in range(T - 2, -1, -1):
            P = chain.matrix(t)
            n = functools.partial(_mobius, P[0][0], P[0][1], P[1][0], P[1][1])
            up = P[0][0] * P[1][1] - P[0][1] * P[1][0] >= 0
            hi, lo = (n(W * hi), n(lo / W)) if up else (n(lo / W), n(W * hi))
            future.append((hi, lo))
        future.reverse()
        bpl, fpl, tpl = [], [], []
        for t in range(T):
            r = to_ball(laws[t][1] / laws[t][0])
            p01, p10 = past[t][0] * r * W, W / (past[t][1] * r)
            f01, f10 = future[t][0], 1 / future[t][1]
            bpl.append(p01.max(p10))
            fpl.append((W * f01).max(W * f10))
            tpl.append((p01 * f01).max(p10 * f10))
    return bpl, fpl, tpl


__all__ = [
    "LaplaceStream",
    "StreamLeakage",
    "binary_stream_balls",
    "StreamMechanism",
    "geometric",
    "laplace",
    "randomized_response",
    "stream_leakage",
    "stream_work",
]

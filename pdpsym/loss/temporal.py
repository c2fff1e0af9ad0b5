"""Temporal privacy leakage of a stream of releases (Cao, Yoshikawa, Xiao, Xiong).

One person's value ``x_t`` follows a Markov chain over ``t = 1..T``; at every step an
``eps_t``-DP mechanism releases ``r_t`` from ``x_t``. The adversary knows the chain. Cao et
al. (ICDE 2017, Sec. III-IV; TKDE 2019, Sec. 4) bound the leakage about ``x_t``:

* backward, from ``r_1..r_t``: ``BPL_1 = eps_1``, ``BPL_t = L_B(BPL_{t-1}) + eps_t``;
* forward, from ``r_t..r_T``: ``FPL_T = eps_T``, ``FPL_t = L_F(FPL_{t+1}) + eps_t``;
* temporal, from ``r_1..r_T``: ``TPL_t = BPL_t + FPL_t - eps_t``,

with ``L(alpha)`` the largest log-ratio ``ln sum_i q_i y_i / sum_i d_i y_i`` over two rows
``q != d`` of the step's matrix (rows are the values of ``x_t``: the backward matrix
``P(x_{t-1} | x_t)``, the forward one ``P(x_{t+1} | x_t)``) and over vectors ``y > 0`` with
``y_i <= e^alpha y_j`` (the previous step's leakage). Their Theorem 4 (TKDE; ICDE
Theorem 5) gives the closed form: the optimum puts ``y_i = e^alpha`` on a set ``S`` and 1
elsewhere, so, with ``q_S = sum_{i in S} q_i`` and ``u = e^alpha``::

    e^{L(alpha)} = max over (q, d, S) of (q_S (u - 1) + 1) / (d_S (u - 1) + 1)

and ``S`` is a prefix of the coordinates with ``q_i > d_i`` sorted by ``q_i / d_i``
descending (adding ``i`` raises the ratio iff ``q_i / d_i`` exceeds it). The candidates
``(q_S, d_S)`` are exact rationals; the value grows with ``q_S`` and falls with ``d_S``
(for ``u > 1``), so only the Pareto front is kept (:func:`lf_candidates`).

**Exact values.** Every ``e^{BPL_t}`` is a rational function of the ``e^{eps_t}``: a
rational when every ``eps_t`` is ``ln`` of a rational, computed here
(:func:`exp_bounds`). Any other ``eps`` goes to arb balls in the log domain
(:mod:`pdpsym.loss.temporal_balls`); the map ``alpha -> L(alpha)`` is 1-Lipschitz (its
derivative is ``u (q - d) / ((q(u-1)+1)(d(u-1)+1)) <= 1``), so the radius grows only by
rounding along the chain.

**The supremum over T (TKDE Theorem 10).** For one homogeneous matrix each candidate's
map ``alpha -> ln r(alpha) + eps`` has one positive fixed point ``u*``: with ``w = e^eps``
and ``d > 0``, ``d u^2 + (1 - d - q w) u - w (1 - q) = 0``, so
``u* = (q w + d - 1 + sqrt((q w + d - 1)^2 + 4 d w (1 - q))) / (2 d)``; with ``d = 0``,
``u* = w (1 - q) / (1 - q w)`` when ``q w < 1``, and no fixed point (unbounded growth)
otherwise (computed in :mod:`pdpsym.loss.temporal_balls`). ``BPL_t`` increases with ``t`` towards the largest candidate's fixed point
(the maximum of monotone maps; below every fixed point each map is above the identity),
so the supremum is the largest ``u*`` (``eps`` when there is no candidate: the rows are
equal, no correlation).

References:
    Cao, Yoshikawa, Xiao, Xiong, "Quantifying Differential Privacy under Temporal
    Correlations", ICDE 2017, Sec. III-IV; "Quantifying Differential Privacy in Continuous
    Data Release under Temporal Correlations", IEEE TKDE 31(7), 2019, Sec. 4-6 (Theorem 4,
    Algorithm 1, Theorem 10, Sec. 6 budget allocation); Charnes, Cooper (1962), linear
    fractional programming.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import permutations
from typing import Any

from pdpsym.core.balls import Ball, to_ball, working_precision
from pdpsym.core.certify import MAX_PREC, ball_decimal
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError, Undecided
from pdpsym.models.markov import MarkovChain

Pair = tuple[Fraction, Fraction]
Law = tuple[Fraction, ...]


def lf_candidates(rows: Sequence[Sequence[Fraction]]) -> tuple[Pair, ...]:
    """The ``(q_S, d_S)`` candidates of TKDE Theorem 4 for one matrix, Pareto-pruned.

    Args:
        rows: the rows compared (one per value of ``x_t`` with positive probability).

    Returns:
        The candidates ``(q_S, d_S)`` (exact), none dominated by another (``q' >= q``
        and ``d' <= d``), sorted by ``q`` descending; empty when all rows are equal.

    References:
        Cao et al., TKDE 2019, Theorem 4 and Corollary 2 (the closed form of the linear
        fractional program); Charnes, Cooper (1962).

    Examples:
        The matrix of Cao et al.'s running example, by hand: rows (0.8, 0.2) and (0, 1)
        give ``S = {0}`` for the first over the second and ``S = {1}`` the other way:

        >>> F = Fraction
        >>> lf_candidates([[F(4, 5), F(1, 5)], [F(0), F(1)]])
        ((Fraction(1, 1), Fraction(1, 5)), (Fraction(4, 5), Fraction(0, 1)))
    """
    found: list[Pair] = []
    n = len(rows)
    for i, j in permutations(range(n), 2):
        q, d = rows[i], rows[j]
        idx = [c for c in range(len(q)) if q[c] > d[c]]

        def before(a: int, b: int, q: Sequence[Fraction] = q, d: Sequence[Fraction] = d) -> int:
            x, y = q[a] * d[b], q[b] * d[a]  # q_a/d_a vs q_b/d_b (d >= 0): cross products
            return -1 if x > y else 1 if x < y else 0

        idx.sort(key=functools.cmp_to_key(before))
        qs = ds = Fraction(0)
        for c in idx:
            qs, ds = qs + q[c], ds + d[c]
            found.append((qs, ds))
    found.sort(key=lambda p: (-p[0], p[1]))
    front: list[Pair] = []
    for q_s, d_s in found:
        if not front or d_s < front[-1][1]:
            front.append((q_s, d_s))
    return tuple(front)


def ratio(c: Pair, u: Fraction) -> Fraction:
    """``(q (u - 1) + 1) / (d (u - 1) + 1)``: one candidate's ``e^{L}`` at ``u = e^alpha``.

    Args:
        c: the candidate ``(q_S, d_S)``.
        u: ``e^alpha``, exact.

    Returns:
        The ratio, exact.

    References:
        Cao et al., TKDE 2019, Theorem 4.
    """
    x = u - 1
    return (c[0] * x + 1) / (c[1] * x + 1)


def incremental(cands: Sequence[Pair], u: Fraction) -> Fraction:
    """``e^{L(alpha)}`` at ``u = e^alpha``: the largest candidate ratio (1 with none), exact.

    Args:
        cands: the candidates of :func:`lf_candidates`.
        u: ``e^alpha``, a Fraction (the maximum decided exactly).

    Returns:
        ``e^{L(alpha)}``.

    References:
        Cao et al., TKDE 2019, Theorem 4 (the maximum over pairs of rows).
    """
    return max((ratio(c, u) for c in cands), default=Fraction(1))


@dataclass(frozen=True)
class TemporalChain:
    """The laws Cao et al.'s bounds use, from one Markov chain of ``T`` records.

    ``marginals[t]`` is the law of ``x_{t+1}`` (0-based ``t``); ``backward[t]`` the
    candidates of ``P(x_{t} | x_{t+1})`` (Bayes from the chain's own law, rows of the
    values with positive probability at ``t + 1``; ``backward[0]`` is empty);
    ``forward[t]`` those of ``P(x_{t+2} | x_{t+1})`` (``forward[T-1]`` is empty).
    ``homogeneous`` says whether one matrix serves every step and the initial law is
    stationary (then the marginal, the backward matrix and both candidate sets are the
    same at every step and Theorem 10 applies); ``why`` says why not. ``steady`` holds
    the backward and forward candidates of that one step (from the matrix and the
    stationary law, whatever ``T``), for the supremum and the allocations.
    """

    length: int
    marginals: tuple[Law, ...]
    backward: tuple[tuple[Pair, ...], ...]
    forward: tuple[tuple[Pair, ...], ...]
    homogeneous: bool
    why: str | None
    steady: tuple[tuple[Pair, ...], tuple[Pair, ...]] | None = None
    #: engines' per-precision data for the candidate tuples this chain holds (by id and
    #: precision; the chain keeps the tuples alive, so an id is not reused)
    cache: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    #: the candidates as balls, by (id of a candidate tuple this chain holds, precision)

    @classmethod
    def of(cls, chain: MarkovChain) -> TemporalChain:
        """The marginals and both directions' candidates of a chain.

        Args:
            chain: the Markov chain (rows of its matrices are from-states).

        Returns:
            The :class:`TemporalChain`.

        References:
            Cao et al., TKDE 2019, Sec. 3.2 (backward and forward correlations; the
            backward matrix by Bayes' rule from the forward one and the marginals).
        """
        T, k = chain.length, chain.k
        laws: list[Law] = [tuple(chain.initial_law)]
        for t in range(T - 1):
            P, pi = chain.matrix(t), laws[-1]
            laws.append(
                tuple(sum((pi[s] * P[s][j] for s in range(k)), Fraction(0)) for j in range(k))
            )
        memo: dict[tuple[Any, ...], tuple[Pair, ...]] = {}

        def cands(rows: tuple[tuple[Fraction, ...], ...]) -> tuple[Pair, ...]:
            if rows not in memo:
                memo[rows] = lf_candidates(rows)
            return memo[rows]

        back: list[tuple[Pair, ...]] = [()]
        fwd: list[tuple[Pair, ...]] = []
        for t in range(T):
            live = [s for s in range(k) if laws[t][s] > 0]
            if t + 1 < T:
                P = chain.matrix(t)
                fwd.append(cands(tuple(tuple(P[s]) for s in live)))
            if t > 0:
                P, prev = chain.matrix(t - 1), laws[t - 1]
                rows = tuple(tuple(prev[i] * P[i][j] / laws[t][j] for i in range(k)) for j in live)
                back.append(cands(rows))
        fwd.append(())
        why, steady = None, None
        P, pi = chain.matrix(0), laws[0]
        after = tuple(sum((pi[s] * P[s][j] for s in range(k)), Fraction(0)) for j in range(k))
        if len(set(chain.matrices)) != 1:
            why = "the chain has one transition matrix per step (not homogeneous)"
        elif after != pi:
            why = "the start is not stationary: P(x_t-1 | x_t) changes with t"
        else:
            live = [s for s in range(k) if pi[s] > 0]
            rows = tuple(tuple(pi[i] * P[i][j] / pi[j] for i in range(k)) for j in live)
            steady = (cands(rows), cands(tuple(tuple(P[s]) for s in live)))
        return cls(T, tuple(laws), tuple(back), tuple(fwd), why is None, why, steady)


def exp_bounds(
    tc: TemporalChain, eps: Sequence[Eps], prec: int = 0
) -> tuple[list[Fraction], list[Fraction]]:
    """``e^{BPL_t}`` and ``e^{FPL_t}`` for ``t = 1..T`` (0-based lists), exactly, when every
    ``e^{eps_t}`` is rational (:func:`pdpsym.loss.temporal_balls.log_bounds` covers every
    ``eps``, in balls).

    Args:
        tc: the chain's laws.
        eps: ``eps_t`` for every step (``T`` values, each > 0, ``e^{eps_t}`` rational).
        prec: unused (kept so both engines take the same arguments).

    Returns:
        Two lists of Fractions.

    Raises:
        InputError: ``eps``, of the wrong length, with a value ``<= 0``, or with an
            irrational ``e^{eps_t}``.

    References:
        Cao et al., TKDE 2019, Eq. (9)-(10) (the recursions) and Theorem 4.
    """
    T = tc.length
    check_eps(eps, T)
    w = [e.exact_exp() for e in eps]
    if any(x is None for x in w):
        raise InputError("eps", "exact values need every e^eps rational (eps = ln q)")
    ws = [x for x in w if x is not None]
    b = [ws[0]]
    for t in range(1, T):
        b.append(ws[t] * incremental(tc.backward[t], b[-1]))
    f = [ws[T - 1]]
    for t in range(T - 2, -1, -1):
        f.append(ws[t] * incremental(tc.forward[t], f[-1]))
    f.reverse()
    return b, f


def unbounded_reason(cands: Sequence[Pair], eps: Eps, direction: str) -> str:
    """Why the supremum is infinite: the candidate with ``d = 0`` and ``q e^eps >= 1``.

    Args:
        cands: the matrix's candidates.
        eps: the per-step ``eps``.
        direction: ``"backward"`` or ``"forward"``.

    Returns:
        A one-line reason.

    References:
        Cao et al., TKDE 2019, Theorem 10 (case ``d = 0``, ``eps >= ln 1/q``).
    """
    q = max((c[0] for c in cands if c[1] == 0), default=Fraction(1))
    return (
        f"the {direction} matrix has two rows with q_S = {q} and d_S = 0, and "
        f"q_S e^eps >= 1: the leakage grows without bound (TKDE Theorem 10)"
    )


def log_ball(u: Fraction | Ball, prec: int) -> Ball:
    """``ln u`` as a ball (the leakage from ``e^{leakage}``).

    Args:
        u: a positive Fraction or ball.
        prec: the working precision in bits.

    Returns:
        The ball of ``ln u``.

    References:
        Johansson, Arb (2017).
    """
    with working_precision(prec):
        return (to_ball(u) if isinstance(u, Fraction) else u).log()


def certified(
    values_of: Any, digits: int, start_prec: int = 128, max_prec: int = MAX_PREC
) -> list[dict[str, Any]]:
    """Certified decimals of balls computed at rising precision until all of them certify.

    Args:
        values_of: a function from a precision in bits to a list of balls.
        digits: significant digits wanted.
        start_prec: the first precision.
        max_prec: the last precision tried.

    Returns:
        One ``{"decimal", "enclosure"}`` per ball.

    Raises:
        Undecided: when ``max_prec`` bits do not fix the digits.

    References:
        Ziv (1991), precision raised until the rounding is certain.
    """
    prec = max(start_prec, int(digits * 3.33) + 64)
    while True:
        balls = values_of(prec)
        out = [ball_decimal(b, digits) for b in balls]
        if all(o is not None for o in out):
            return [o for o in out if o is not None]
        if prec * 2 > max_prec:
            raise Undecided("the temporal leakage's digits", prec)
        prec *= 2


def check_eps(eps: Sequence[Eps], length: int) -> None:
    """Refuse an ``eps`` list of the wrong length or with a value ``<= 0`` (field ``eps``).

    Args:
        eps: one value per step.
        length: ``T``.

    Returns:
        None.

    References:
        Cao et al., TKDE 2019, Sec. 3 (an ``eps_t``-DP release at every ``t``).
    """
    if len(eps) != length:
        raise InputError("eps", f"{len(eps)} values for {length} steps (give one, or one per step)")
    for t, e in enumerate(eps):
        if (
            e.w == 1
            or (e.exponent is not None and e.exponent <= 0)
            or (e.w is not None and e.w < 1)
        ):
            raise InputError("eps", f"eps_{t + 1} = {e} must be > 0")


__all__ = [
    "TemporalChain",
    "certified",
    "check_eps",
    "exp_bounds",
    "incremental",
    "lf_candidates",
    "log_ball",
    "ratio",
    "unbounded_reason",
]

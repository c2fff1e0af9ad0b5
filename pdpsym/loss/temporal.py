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
rational when every ``eps_t`` is ``ln`` of a rational (then it is kept as a Fraction), else
an arb ball at the working precision, the maximum over the candidates taken as the ball
of the maximum (``arb.max``, no decision needed). The map ``alpha -> L(alpha)`` is
1-Lipschitz (its derivative is ``u (q - d) / ((q(u-1)+1)(d(u-1)+1)) <= 1``), so the radius
grows at most additively along the chain.

**The supremum over T (TKDE Theorem 10).** For one homogeneous matrix each candidate's
map ``alpha -> ln r(alpha) + eps`` has one positive fixed point ``u*``: with ``w = e^eps``
and ``d > 0``, ``d u^2 + (1 - d - q w) u - w (1 - q) = 0``, so
``u* = (q w + d - 1 + sqrt((q w + d - 1)^2 + 4 d w (1 - q))) / (2 d)``; with ``d = 0``,
``u* = w (1 - q) / (1 - q w)`` when ``q w < 1``, and no fixed point (unbounded growth)
otherwise. ``BPL_t`` increases with ``t`` towards the largest candidate's fixed point
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
from pdpsym.core.certify import MAX_PREC, ball_decimal, decide_sign
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError, Undecided
from pdpsym.models.markov import MarkovChain

Pair = tuple[Fraction, Fraction]
Law = tuple[Fraction, ...]
#: e^{leakage}: a Fraction when every e^eps is rational, else a Ball (mixed arithmetic)
Value = Any


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


def ratio(c: Pair, u: Value) -> Value:
    """``(q (u - 1) + 1) / (d (u - 1) + 1)``: one candidate's ``e^{L}`` at ``u = e^alpha``.

    Args:
        c: the candidate ``(q_S, d_S)``.
        u: ``e^alpha``, a Fraction (exact) or a ball.

    Returns:
        The ratio, of ``u``'s type. A ball ``u`` is used once
        (:func:`ball_terms`), so the ball's radius is not inflated by the dependency
        of the numerator and the denominator on ``u``.

    References:
        Cao et al., TKDE 2019, Theorem 4.
    """
    if isinstance(u, Fraction):
        x = u - 1
        return (c[0] * x + 1) / (c[1] * x + 1)
    return _ratio_ball(ball_terms(c), u)


def ball_terms(c: Pair) -> tuple[Any, Any, Any]:
    """A candidate rewritten for balls: ``r = A + B / (d x + 1)`` with ``A = q / d`` and
    ``B = 1 - q / d`` (``d > 0``), or ``r = q x + 1`` (``d = 0``: ``(q, None, None)``),
    ``x = u - 1`` appearing once (interval arithmetic evaluates a single-use expression
    of a monotone map without overestimation beyond rounding).

    Args:
        c: the candidate ``(q, d)``.

    Returns:
        ``(A, B, d)`` as balls, or ``(q, None, None)``.

    References:
        Moore, Kearfott, Cloud, Introduction to Interval Analysis (2009), Sec. 5.1 (the
        dependency problem; single-use expressions).
    """
    q, d = c
    if d == 0:
        return to_ball(q), None, None
    return to_ball(q / d), to_ball(1 - q / d), to_ball(d)


def _ratio_ball(terms: tuple[Any, Any, Any], u: Any) -> Any:
    a, b, d = terms
    if b is None:
        return a * (u - 1) + 1
    return a + b / (d * (u - 1) + 1)


def incremental(cands: Sequence[Pair], u: Value, balls: Sequence[Any] | None = None) -> Value:
    """``e^{L(alpha)}`` at ``u = e^alpha``: the largest candidate ratio (1 with none).

    Args:
        cands: the candidates of :func:`lf_candidates`.
        u: ``e^alpha``: a Fraction (the maximum decided exactly) or a ball (the ball of
            the maximum, ``arb.max``).
        balls: the candidates' :func:`ball_terms` (with a ball ``u``).

    Returns:
        ``e^{L(alpha)}``.

    References:
        Cao et al., TKDE 2019, Theorem 4 (the maximum over pairs of rows).
    """
    if isinstance(u, Fraction):
        return max((ratio(c, u) for c in cands), default=Fraction(1))
    best: Any = None
    for k, c in enumerate(cands):
        v = _ratio_ball(balls[k] if balls is not None else ball_terms(c), u)
        best = v if best is None else best.max(v)
    return to_ball(1) if best is None else best


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
    #: the candidates as balls, by (id of a candidate tuple this chain holds, precision)
    balls: dict[tuple[int, int], list[Any]] = field(default_factory=dict, compare=False, repr=False)

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


def _exps(eps: Sequence[Eps], prec: int) -> list[Value]:
    exact = [e.exact_exp() for e in eps]
    if all(w is not None for w in exact):
        return [w for w in exact if w is not None]
    seen: dict[Eps, Any] = {}  # a constant eps is enclosed once
    for e in eps:
        if e not in seen:
            seen[e] = e.arb_exp(prec)
    return [seen[e] for e in eps]


def _balls(tc: TemporalChain, cands: tuple[Pair, ...], prec: int) -> list[Any]:
    key = (id(cands), prec)  # the chain holds the tuple, so its id is not reused
    if key not in tc.balls:
        tc.balls[key] = [ball_terms(c) for c in cands]
    return tc.balls[key]


def exp_bounds(tc: TemporalChain, eps: Sequence[Eps], prec: int) -> tuple[list[Value], list[Value]]:
    """``e^{BPL_t}`` and ``e^{FPL_t}`` for ``t = 1..T`` (0-based lists).

    Args:
        tc: the chain's laws.
        eps: ``eps_t`` for every step (``T`` values, each > 0).
        prec: the working precision in bits (used when some ``e^{eps_t}`` is not
            rational).

    Returns:
        Two lists of Fractions (every ``e^{eps_t}`` rational) or of balls.

    Raises:
        InputError: ``eps``, of the wrong length or with a value ``<= 0``.

    References:
        Cao et al., TKDE 2019, Eq. (9)-(10) (the recursions) and Theorem 4.
    """
    T = tc.length
    check_eps(eps, T)
    with working_precision(prec):
        w = _exps(eps, prec)
        exact = isinstance(w[0], Fraction)
        b: list[Value] = [w[0]]
        for t in range(1, T):
            c = tc.backward[t]
            b.append(w[t] * incremental(c, b[-1], None if exact else _balls(tc, c, prec)))
        f: list[Value] = [w[T - 1]]
        for t in range(T - 2, -1, -1):
            c = tc.forward[t]
            f.append(w[t] * incremental(c, f[-1], None if exact else _balls(tc, c, prec)))
        f.reverse()
    return b, f


def fixed_point(c: Pair, eps: Eps, prec: int) -> Value | None:
    """One candidate's fixed point ``u* = e^{sup}`` of ``u -> e^eps r(u)`` (TKDE Theorem 10).

    Args:
        c: the candidate ``(q, d)``.
        eps: the per-step ``eps`` (the same at every step).
        prec: the working precision in bits.

    Returns:
        ``u*`` (a Fraction when ``d = 0`` and ``e^eps`` is rational, else a ball), or None
        when there is none (``d = 0`` and ``q e^eps >= 1``: the leakage grows without
        bound).

    References:
        Cao et al., TKDE 2019, Theorem 10 (the cases ``d != 0``, ``d = 0, eps < ln 1/q``
        and ``d = 0, eps >= ln 1/q``).
    """
    q, d = c
    w_exact = eps.exact_exp()
    if d == 0:
        if w_exact is not None:
            if q * w_exact >= 1:
                return None
            return w_exact * (1 - q) / (1 - q * w_exact)

        def gap(p: int) -> Any:
            with working_precision(p):
                return 1 - to_ball(q) * eps.arb_exp(p)

        if decide_sign(gap, "1 - q e^eps", exact_zero=True) <= 0:
            return None
        with working_precision(prec):
            w = eps.arb_exp(prec)
            return w * (1 - to_ball(q)) / (1 - to_ball(q) * w)
    with working_precision(prec):
        w = eps.arb_exp(prec) if w_exact is None else to_ball(w_exact)
        qb, db = to_ball(q), to_ball(d)
        b = qb * w + db - 1
        return (b + (b * b + 4 * db * w * (1 - qb)).sqrt()) / (2 * db)


def exp_supremum(cands: Sequence[Pair], eps: Eps, prec: int) -> Value | None:
    """``e^{sup_T BPL_T}`` (or of FPL) for one homogeneous matrix: the largest fixed point.

    Args:
        cands: the matrix's candidates.
        eps: the per-step ``eps``.
        prec: the working precision in bits.

    Returns:
        ``e^{sup}`` (``e^eps`` with no candidate), or None when unbounded.

    References:
        Cao et al., TKDE 2019, Theorem 10 and Algorithm 2 (the supremum is the largest
        fixed point over the candidates).
    """
    best: Any = None
    with working_precision(prec):
        for c in cands:
            u = fixed_point(c, eps, prec)
            if u is None:
                return None
            ub = u if not isinstance(u, Fraction) else to_ball(u)
            best = ub if best is None else best.max(ub)
        if best is None:
            w = eps.exact_exp()
            return w if w is not None else eps.arb_exp(prec)
        return best


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


def log_ball(u: Value, prec: int) -> Ball:
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
    "exp_supremum",
    "fixed_point",
    "incremental",
    "lf_candidates",
    "ball_terms",
    "log_ball",
    "ratio",
    "unbounded_reason",
]

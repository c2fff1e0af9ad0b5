"""Chains with a running count, every target at once: ball values at the extreme outputs
and a float64 screen, with a proven error bound, of every other output.

A :class:`CountChain` is a Markov chain of ``T`` records over ``k`` states whose record
``t`` in state ``s`` adds the non-negative integer ``c_t(s)`` to a count ``S`` (some
records may be fixed to one state). For a target ``t`` and a state ``a`` let
``J_{t,a}(z) = sum_c P(S = c, x_t = a, fixed) z^c = F_t(a, z) B_t(a, z)`` (prefix and
suffix generating functions). Li et al.'s Eq. 2 for the Laplace mechanism of rate
``rho`` (``q = e^{-rho}``) needs, at every output ``j = 0..N`` (``N`` the span), the
mixtures ``M_a(j) = sum_c J_a[c] q^{|j - c|}`` and the value

    V_t = max_{a != b} max_j  ln (M_a(j) / J_a(1)) - ln (M_b(j) / J_b(1)).

**Extremes by evaluation.** ``M_a(0) = J_a(q)`` and ``M_a(N) = q^N J_a(1/q)``, and a
generating function evaluated at a point is the dynamic programme run on numbers:
:func:`extreme_values` encloses ``F_t(a, x)`` and ``B_t(a, x)`` for ``x = q, 1, 1/q``
and every ``t`` in ``O(T k^2)`` ball operations, all terms non-negative.

**Interior by a proven float screen.** :func:`interior_screen` runs the same programme
on count vectors in float64 (each step rescaled by a power of two, which is exact), the
laws by direct convolution and the mixtures by the two first-order recurrences. Every
quantity is a sum of products of non-negative numbers, so as long as no operation
underflows (checked: every non-zero value stays above ``2^-960`` and every multiplier
above ``2^-60``, so each product is a normal number) each computed value is the exact
one times ``e^eta`` with ``|eta| <= d u'``, ``u' = -ln(1 - 2^-53)``, where ``d`` counts
the roundings on the value's longest path (Higham, *Accuracy and Stability of Numerical
Algorithms*, 2nd ed., Sec. 3.1, Lemma 3.1; a fused multiply-add only rounds less). The
screen returns, for each target, the largest float ratio over interior outputs and the
proven factor ``1 + kappa`` that bounds its error, so a caller can prove that no
interior output beats a certified lower end: the comparison is made on ratios with
``+, *, /`` only (no library ``log`` or ``exp`` in the proof).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from flint import arb, ctx

from pdpsym.core.certify import arb_from_fraction, ball_endpoints

#: non-zero float values must stay at or above this (products with multipliers of at
#: least ``2^-60`` are then normal numbers)
GUARD = 2.0**-960
#: the smallest multiplier (transition probability, kernel ratio) the screen accepts
MIN_FACTOR = 2.0**-60
_U = 2.0**-53

Matrix = tuple[tuple[Fraction, ...], ...]


@dataclass(frozen=True)
class CountChain:
    """A chain of ``len(table)`` records: initial weights, transition matrices (one, or
    one per step; rows are from-states), each record's integer contributions
    ``table[t][s]``, and the records fixed to one state (``fixed[t] = s``).

    The weights need not be normalized (each target's law is normalized by its own
    total).
    """

    initial: tuple[Fraction, ...]
    matrices: tuple[Matrix, ...]
    table: tuple[tuple[int, ...], ...]
    fixed: Mapping[int, int] = field(default_factory=dict)

    @property
    def length(self) -> int:
        """``T``, the number of records."""
        return len(self.table)

    @property
    def k(self) -> int:
        """The number of states."""
        return len(self.initial)

    @property
    def span(self) -> int:
        """``N``, the largest count."""
        return sum(max(row) for row in self.table)

    def matrix(self, step: int) -> Matrix:
        """The matrix of the step ``x_{step+1} -> x_{step+2}`` (0-based)."""
        return self.matrices[0] if len(self.matrices) == 1 else self.matrices[step]

    def allowed(self, t: int, s: int) -> bool:
        """Whether record ``t`` may be in state ``s``."""
        return self.fixed.get(t, s) == s


# --- balls at the extremes ---------------------------------------------------------------


def extreme_values(
    chain: CountChain, positions: Sequence[int], rate: Fraction, prec: int
) -> dict[int, list[tuple[Any, Any, Any]]]:
    """Balls of ``(J_{t,a}(q), J_{t,a}(1), J_{t,a}(1/q))`` for every target ``t`` in
    ``positions`` and state ``a`` (``q = e^{-rate}``), by one forward and one backward
    pass of the chain on numbers.

    Args:
        chain: the chain.
        positions: the target records (0-based).
        rate: the Laplace rate in count units (``1/b``).
        prec: working precision in bits.

    Returns:
        position -> one triple of balls per state (exact zeros for impossible states).

    References:
        Li et al. (2019), Section 3.2, Eq. 2; Rabiner, "A tutorial on hidden Markov
        models", Proc. IEEE 77(2), 1989 (forward-backward).
    """
    T, k = chain.length, chain.k
    want = set(positions)
    with ctx.workprec(prec):
        q = (-arb_from_fraction(rate)).exp()
        xs = (q, arb(1), 1 / q)
        pows: dict[tuple[int, int], Any] = {}

        def xpow(i: int, c: int) -> Any:
            key = (i, c)
            if key not in pows:
                pows[key] = xs[i] ** c
            return pows[key]

        mats = [[[arb_from_fraction(p) for p in row] for row in m] for m in chain.matrices]

        def mat(step: int) -> list[list[Any]]:
            return mats[0] if len(mats) == 1 else mats[step]

        zero = arb(0)
        # backward: B_t(s) = sum_{s'} P[s][s'] x^{c_{t+1}(s')} B_{t+1}(s')  (masked at t+1)
        back: dict[int, list[list[Any]]] = {}
        cur = [[arb(1)] * k for _ in range(3)]
        if T - 1 in want:
            back[T - 1] = cur
        first = min(want) if want else T
        for t in range(T - 2, first - 1, -1):
            a = mat(t)
            row = chain.table[t + 1]
            nxt = []
            for i in range(3):
                v = [
                    cur[i][s2] * xpow(i, row[s2]) if chain.allowed(t + 1, s2) else zero
                    for s2 in range(k)
                ]
                nxt.append([_dot(a[s], v) for s in range(k)])
            cur = nxt
            if t in want:
                back[t] = cur
        # forward: F_t(s') = x^{c_t(s')} sum_s P[s][s'] F_{t-1}(s)  (masked at t)
        init = [arb_from_fraction(p) for p in chain.initial]
        row = chain.table[0]
        fwd = [
            [init[s] * xpow(i, row[s]) if chain.allowed(0, s) else zero for s in range(k)]
            for i in range(3)
        ]
        out: dict[int, list[tuple[Any, Any, Any]]] = {}
        last = max(want) if want else -1
        for t in range(last + 1):
            if t > 0:
                a = mat(t - 1)
                row = chain.table[t]
                fwd = [
                    [
                        _dot([a[s][s2] for s in range(k)], fwd[i]) * xpow(i, row[s2])
                        if chain.allowed(t, s2)
                        else zero
                        for s2 in range(k)
                    ]
                    for i in range(3)
                ]
            if t in want:
                b = back[t]
                out[t] = [
                    (fwd[0][s] * b[0][s], fwd[1][s] * b[1][s], fwd[2][s] * b[2][s])
                    for s in range(k)
                ]
        return out


def _dot(weights: Sequence[Any], values: Sequence[Any]) -> Any:
    acc = None
    for w, v in zip(weights, values, strict=True):
        if w.is_zero() or v.is_zero():
            continue
        term = w * v
        acc = term if acc is None else acc + term
    return arb(0) if acc is None else acc


def extreme_log_ratio(triples: Sequence[tuple[Any, Any, Any]], prec: int) -> Any:
    """A ball of ``max_{a != b} max_{j in {0, N}} ln(M_a(j)/J_a(1)) - ln(M_b(j)/J_b(1))``
    over the possible states (None when fewer than two are possible, or a ball is not
    usable).

    Args:
        triples: the balls of :func:`extreme_values` for one target.
        prec: working precision in bits.

    Returns:
        The ball (the max of balls: it holds the max of any values they hold), or None.

    References:
        Li et al. (2019), Section 3.2, Eq. 2 (the sup over outputs, at the extremes).
    """
    with ctx.workprec(prec):
        logs = []
        for jq, j1, jinv in triples:
            if j1.is_zero():
                continue
            if not (j1 > 0 and jq > 0 and jinv > 0):
                return None
            n = j1.log()
            logs.append((jq.log() - n, jinv.log() - n))
        if len(logs) < 2:
            return None
        best = None
        for a in range(len(logs)):
            for b in range(len(logs)):
                if a == b:
                    continue
                for end in (0, 1):
                    ball = logs[a][end] - logs[b][end]
                    best = ball if best is None else best.max(ball)
        if best is None or not best.is_finite():
            return None
        return best


# --- the float screen of the interior ---------------------------------------------------


@dataclass(frozen=True)
class Screen:
    """Per target: the largest float ratio ``max_a R_a(j) / min_b R_b(j)`` over interior
    outputs ``0 < j < N`` (``R_a(j) = M_a(j)/J_a(1)``), None when the screen cannot vouch
    for it (a value left the checked range), and ``kappa``: every true ordered-pair ratio
    at an interior output is below ``top * (1 + kappa)`` computed in floats."""

    top: dict[int, float | None]
    kappa: float


def interior_screen(chain: CountChain, positions: Sequence[int], rate: Fraction) -> Screen:
    """The float64 screen of every interior output of every target (see the module doc).

    Args:
        chain: the chain.
        positions: the target records (0-based).
        rate: the Laplace rate in count units.

    Returns:
        The :class:`Screen`.

    References:
        Li et al. (2019), Section 3.2, Eq. 2; Higham, Accuracy and Stability of Numerical
        Algorithms (2002), Sec. 3.1 (the rounding-error counter).
    """
    T, k, N = chain.length, chain.k, chain.span
    want = sorted(set(positions))
    # rounding counts on the longest path (see the module doc): a converted probability
    # 1; a step of the chain k + 1 (a product, then k - 1 additions in any order); a
    # convolution term 1 and at most N additions; the kernel ratio q 3 (the ball's
    # midpoint, then its float); a recurrence step 5 (q, a product, an addition)
    d_fb = 2 + T * (k + 1)
    d_j = d_fb + N + 1
    d_m = d_j + 5 * (N + 1) + 8
    d_n = d_j + N + 1
    m = 2 * (d_m + d_n + 1) + 1
    kappa = 3.0 * m * _U + 16 * _U
    none: dict[int, float | None] = dict.fromkeys(want)
    if not want or N < 2 or m * _U > 1e-4:
        return Screen(none, kappa)
    with ctx.workprec(64):
        q_ball = (-arb_from_fraction(rate)).exp()
        q = float(q_ball.mid())
    mats = [np.array([[float(p) for p in row] for row in mm]) for mm in chain.matrices]
    positive = [x for mm in mats for x in mm.ravel() if x > 0]
    init = np.array([float(p) for p in chain.initial])
    if not q >= MIN_FACTOR or min(positive, default=1.0) < MIN_FACTOR:
        return Screen(none, kappa)
    if any(0 < x < MIN_FACTOR for x in init):
        return Screen(none, kappa)
    table = np.array(chain.table, dtype=np.int64)
    masks = np.ones((T, k))
    for t, s in chain.fixed.items():
        masks[t] = 0.0
        masks[t, s] = 1.0
    ok = True

    def shifted(vec: Any, row: Any) -> Any:
        out = np.zeros((k, N + 1))
        for s in range(k):
            c = int(row[s])
            out[s, c:] = vec[s, : N + 1 - c]
        return out

    def rescale(vec: Any) -> Any:
        nonlocal ok
        top = float(vec.max())
        if top <= 0:
            return vec
        vec = np.ldexp(vec, -math.frexp(top)[1])
        if float(np.min(vec, where=vec > 0, initial=1.0)) < GUARD:
            ok = False
        return vec

    def mat(step: int) -> Any:
        return mats[0] if len(mats) == 1 else mats[step]

    back: dict[int, Any] = {}
    cur = np.zeros((k, N + 1))
    cur[:, 0] = 1.0
    if T - 1 in want:
        back[T - 1] = cur
    for t in range(T - 2, want[0] - 1, -1):
        nxt = shifted(cur * masks[t + 1][:, None], table[t + 1])
        cur = rescale(mat(t) @ nxt)
        if t in want:
            back[t] = cur
    start = np.zeros((k, N + 1))
    start[:, 0] = init * masks[0]
    fwd = rescale(shifted(start, table[0]))
    laws = np.zeros((N + 1, len(want) * k))  # column i * k + s: target i, state s
    col = 0
    for t in range(want[-1] + 1):
        if t > 0:
            fwd = rescale(shifted(mat(t - 1).T @ fwd, table[t]) * masks[t][:, None])
        if t in back:
            b = back.pop(t)
            for s in range(k):
                f_row, b_row = fwd[s], b[s]
                f_top, b_top = float(f_row.max()), float(b_row.max())
                if f_top > 0 and b_top > 0:
                    f_low = float(np.min(f_row, where=f_row > 0, initial=1.0))
                    b_low = float(np.min(b_row, where=b_row > 0, initial=1.0))
                    if math.frexp(f_low)[1] + math.frexp(b_low)[1] < -1000:
                        ok = False
                    f_len = int(np.flatnonzero(f_row)[-1]) + 1
                    b_len = int(np.flatnonzero(b_row)[-1]) + 1
                    law = np.convolve(f_row[:f_len], b_row[:b_len])
                    laws[: min(N + 1, law.size), col] = law[: N + 1]
                col += 1
    if not ok:
        return Screen(none, kappa)
    norms = laws.sum(axis=0)
    left = np.empty_like(laws)
    acc = np.zeros(laws.shape[1])
    for c in range(N + 1):
        np.multiply(acc, q, out=acc)
        acc += laws[c]
        left[c] = acc
    right = np.empty_like(laws)
    acc = np.zeros(laws.shape[1])
    right[N] = 0.0
    for c in range(N - 1, -1, -1):
        acc += laws[c + 1]
        np.multiply(acc, q, out=acc)
        right[c] = acc
    for arr in (left, right):
        if float(np.min(arr, where=arr > 0, initial=1.0)) < GUARD:
            return Screen(none, kappa)
    mix = (left + right)[1:N]
    tops: dict[int, float | None] = {}
    for i, t in enumerate(want):
        cols = slice(i * k, (i + 1) * k)
        live = norms[cols] > 0
        if int(live.sum()) < 2:
            tops[t] = None
            continue
        ratio = mix[:, cols][:, live] / norms[cols][live]
        tops[t] = float((ratio.max(axis=1) / ratio.min(axis=1)).max())
    return Screen(tops, kappa)


def interior_below(screen: Screen, position: int, lower: Fraction) -> bool:
    """True when it is proven that no interior output of the target exceeds ``lower``
    (a certified lower end of the extremes' value): ``top (1 + kappa) < e^lower``.

    Args:
        screen: the :class:`Screen`.
        position: the target record.
        lower: an exact lower bound of the target's value at the extremes.

    Returns:
        Whether the interior is proven below ``lower`` (False: undecided here).

    References:
        Higham (2002), Sec. 3.1; Johansson, Arb (2017) for the threshold ``e^lower``.
    """
    top = screen.top.get(position)
    if top is None or not math.isfinite(top):
        return False
    with ctx.workprec(64):
        thr_ball = arb_from_fraction(lower).exp()
        if not thr_ball.is_finite():
            return False
        thr_lo, _ = ball_endpoints(thr_ball)
    thr = float(thr_lo)
    if not math.isfinite(thr) or thr <= 0:
        return False
    thr = math.nextafter(math.nextafter(thr, 0.0), 0.0)  # the float conversion rounds
    return top * (1.0 + screen.kappa) < thr


__all__ = [
    "GUARD",
    "MIN_FACTOR",
    "CountChain",
    "Screen",
    "extreme_log_ratio",
    "extreme_values",
    "interior_below",
    "interior_screen",
]

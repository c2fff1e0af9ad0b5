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

**Interior** outputs are screened in float64 with proven error bounds by
:mod:`pdpsym.loss.chain_float_screen`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pdpsym.core.balls import Ball, arb_from_fraction, working_precision
from pdpsym.models.counts import RecordTable

Matrix = tuple[tuple[Fraction, ...], ...]


@dataclass(frozen=True)
class CountChain(RecordTable):
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
    def k(self) -> int:
        """The number of states."""
        return len(self.initial)

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
    with working_precision(prec):
        q = (-arb_from_fraction(rate)).exp()
        xs = (q, Ball(1), 1 / q)
        pows: dict[tuple[int, int], Any] = {}

        def xpow(i: int, c: int) -> Any:
            key = (i, c)
            if key not in pows:
                pows[key] = xs[i] ** c
            return pows[key]

        mats = [[[arb_from_fraction(p) for p in row] for row in m] for m in chain.matrices]

        def mat(step: int) -> list[list[Any]]:
            return mats[0] if len(mats) == 1 else mats[step]

        zero = Ball(0)
        # backward: B_t(s) = sum_{s'} P[s][s'] x^{c_{t+1}(s')} B_{t+1}(s')  (masked at t+1)
        back: dict[int, list[list[Any]]] = {}
        cur = [[Ball(1)] * k for _ in range(3)]
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
    return Ball(0) if acc is None else acc


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
    with working_precision(prec):
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


def pair_log_ratios(
    triples: Sequence[tuple[Any, Any, Any]], prec: int
) -> dict[tuple[int, int, int], Any] | None:
    """Balls of ``ln(M_a(j)/J_a(1)) - ln(M_b(j)/J_b(1))`` at ``j = 0`` (end 0) and
    ``j = N`` (end 1) for every ordered pair of possible states.

    Args:
        triples: the balls of :func:`extreme_values` for one target.
        prec: working precision in bits.

    Returns:
        ``(a, b, end) -> ball``, or None when a ball is not usable.

    References:
        Li et al. (2019), Section 3.2, Eq. 2 (the ratio at the extreme outputs).
    """
    with working_precision(prec):
        logs: dict[int, tuple[Any, Any]] = {}
        for s, (jq, j1, jinv) in enumerate(triples):
            if j1.is_zero():
                continue
            if not (j1 > 0 and jq > 0 and jinv > 0):
                return None
            n = j1.log()
            logs[s] = (jq.log() - n, jinv.log() - n)
        out = {}
        for a in logs:
            for b in logs:
                if a != b:
                    for end in (0, 1):
                        ball = logs[a][end] - logs[b][end]
                        if not ball.is_finite():
                            return None
                        out[a, b, end] = ball
        return out


__all__ = [
    "CountChain",
    "extreme_log_ratio",
    "extreme_values",
    "pair_log_ratios",
]

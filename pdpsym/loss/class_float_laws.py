"""Float laws of a binary chain family at given entries, with a proven error bound.

For the interval classes of :mod:`pdpsym.loss.class_box_bounds`: at one or several points
(entries of the transition rows, and of the initial law when it is an interval), every
target's Laplace mixtures ``N_a(r)`` and totals ``D_a`` of the unnormalized count laws,
and their derivatives in the log entries, all in float64. Every quantity is a sum of
products of non-negative floats, so each computed value is the exact one times
``e^theta`` plus ``alpha``: ``|theta| <= d u'`` (Higham, *Accuracy and Stability of
Numerical Algorithms*, 2nd ed., Sec. 3.1, Lemma 3.1; ``d`` the roundings on the value's
longest path, ``u' = -ln(1 - 2^-53)``: :func:`eta_bound`) and ``alpha`` the absolute
error of underflows (at most ``2^-1022`` per operation, Higham Sec. 2.2, which also
covers flushing to zero), carried as L1 norms: a forward step spreads the slack of
``F`` by at most the largest row sum of the step's matrix (``sum_{s'} sum_c |sum_s
alpha[s][c] P[s][s']| <= max_s sum_{s'} P[s][s'] |alpha|_1``), a backward step likewise
the largest over states of ``B``'s, a rescaling by ``2^-e`` scales it, a convolution adds
``|alpha_F|_1 |B|_1 + |alpha_B|_1 |F|_1`` (the true norms at most twice the computed ones
plus the slack), and a mixture passes on its law's (the kernel is at most 1) plus its
recurrences' own. :class:`PointLaws` holds each value's slack next to it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from pdpsym.core.balls import arb_from_fraction, ball_endpoints, working_precision
from pdpsym.models.counts import RecordTable

#: an upper bound of -ln(1 - 2^-53)
U_PRIME = 1.12e-16
#: a bound on one operation's absolute error from underflow (gradual or flushed to zero)
TINY = 2.0**-1022
#: the smallest nonzero entry
MIN_ENTRY = 2.0**-50
#: the smallest q
MIN_Q = 2.0**-60
LN2 = math.log(2.0)

Interval = tuple[Fraction, Fraction]


@dataclass(frozen=True)
class ChainShape(RecordTable):
    """The fixed part of a binary chain family: length, contributions, start.

    Args:
        table: per record, the integer contributions ``c_t(s)`` of its two states.
        start: ``"stationary"``, ``"interval"`` (the third parameter is the initial law's
            ``P(x_1 = 1)``) or ``"fixed"``.
        initial: the fixed initial law (``start == "fixed"``).
    """

    table: tuple[tuple[int, ...], ...]
    start: str
    initial: tuple[Fraction, Fraction] = (Fraction(1, 2), Fraction(1, 2))


@dataclass
class PointLaws:
    """One point's laws: per (target, assignment index, state) the mixtures ``N`` (a
    float array over outputs), the total ``D``, the power of two ``E`` they are scaled
    by (true = float * 2^E), and with derivatives ``dN``, ``dD`` (per entry)."""

    N: dict[tuple[int, int, int], np.ndarray] = field(default_factory=dict)
    D: dict[tuple[int, int, int], float] = field(default_factory=dict)
    E: dict[tuple[int, int], int] = field(default_factory=dict)
    dN: dict[tuple[int, int, int], np.ndarray] = field(default_factory=dict)
    dD: dict[tuple[int, int, int], np.ndarray] = field(default_factory=dict)
    #: absolute slack (underflow) of ``N`` and ``D``, and per derivative of ``dN``, ``dD``
    A: dict[tuple[int, int, int], float] = field(default_factory=dict)
    dA: dict[tuple[int, int, int], np.ndarray] = field(default_factory=dict)
    ok: bool = True


def rate_q(rate: Fraction) -> tuple[float, float]:
    """``q = e^{-rate}`` as a float and a proven bound on ``|ln(q_float / q)|``.

    Args:
        rate: ``1/lambda`` in count units, a rational ``> 0``.

    Returns:
        ``(q, rho)``.

    References:
        Johansson, "Arb", IEEE Trans. Computers 66(8), 2017 (the ball of ``e^{-rate}``).
    """
    if rate > 1000:  # e^-rate is below every positive float (e^-745): no float q, as below
        return 0.0, math.inf  # (its ball's ends would be fractions of 2^(10^k) bits)
    with working_precision(128):
        ball = (-arb_from_fraction(rate)).exp()
        lo, hi = ball_endpoints(ball)
        qf = float(ball.mid())
        if lo <= 0 or qf <= 0:
            return qf, math.inf
        err = max(abs(Fraction(qf) - lo), abs(hi - Fraction(qf))) / lo
        return qf, float(err) * 1.01 + 1e-300


def _entries_float(entries: Sequence[Fraction]) -> list[float] | None:
    out = [float(e) for e in entries]
    if any(0 < v < MIN_ENTRY for v in out):
        return None
    return out


def evaluate_many(
    shape: ChainShape,
    points: Sequence[tuple[Sequence[Fraction], Sequence[int]]],
    positions: Sequence[int],
    assignments: Sequence[Mapping[int, int]],
    q: float,
) -> list[PointLaws]:
    """Mixtures and totals of every target at several points at once (floats, proven
    error; module docstring), with derivatives in ``ln e_j`` for each point's listed
    entries.

    Each point is a group of channels run side by side: its values, and one channel per
    derivative (``d/d ln e_j`` of a product over steps adds, at each step, the term whose
    factor is ``e_j``: the derivative channel's step is ``P^T dF + (P masked to e_j)^T F``,
    forward and backward alike).

    Args:
        shape: the chain's fixed part.
        points: per point, its entries (``P00, P01, P10, P11`` and, for an interval
            start, ``I0, I1``) and the entry indices to differentiate in.
        positions: the targets (0-based positions).
        assignments: the known records' states, one mapping per assignment.
        q: ``e^{-rate}`` as a float.

    Returns:
        One point's values per point (``ok`` False where a guard failed).

    References:
        Li et al. (2019), Sec. III, Eq. 2 (the laws); Higham (2002), Sec. 3.1, Lemma 3.1
        (the error of sums of products of non-negative floats).
    """
    out = [PointLaws() for _ in points]
    T, n = shape.length, shape.span
    mats: list[np.ndarray] = []
    extra: list[np.ndarray] = []
    src: list[int] = []
    inits: list[list[float]] = []
    group: list[int] = []
    deriv_of: list[int] = []
    for g, (entries, dv) in enumerate(points):
        ef = _entries_float(entries)
        if ef is None or q < MIN_Q:
            out[g].ok = False
            ef = [0.5] * len(entries)
        P = np.array(ef[:4]).reshape(2, 2)
        if shape.start == "stationary":
            init, idx = [ef[2], ef[1]], [2, 1]
        elif shape.start == "interval":
            init, idx = [ef[4], ef[5]], [4, 5]
        else:
            init, idx = [float(shape.initial[0]), float(shape.initial[1])], [-1, -1]
        base = len(mats)
        mats.append(P)
        extra.append(np.zeros((2, 2)))
        src.append(base)
        inits.append(init)
        group.append(g)
        deriv_of.append(-1)
        for jj, j in enumerate(dv):
            mask = np.zeros((2, 2))
            if j < 4:
                mask[j // 2, j % 2] = P[j // 2, j % 2]
            mats.append(P)
            extra.append(mask)
            src.append(base)
            inits.append([init[s] if idx[s] == j else 0.0 for s in range(2)])
            group.append(g)
            deriv_of.append(jj)
    C = len(mats)
    Pm = np.array(mats)  # (C, 2, 2)
    Qm = np.array(extra)
    srcs = np.array(src)
    is_base = np.array([d < 0 for d in deriv_of])
    base_of = np.array([s for s in src])
    pos_set = sorted(set(positions))
    last, first = max(pos_set), min(pos_set)
    tables = shape.table
    # absolute slack: every operation's underflow errs by at most TINY; L1 norms of the
    # slack are carried through the steps (rows bound how a step spreads them)
    row_p = Pm.sum(axis=2).max(axis=1)
    row_q = Qm.sum(axis=2).max(axis=1)
    step_new = 8.0 * 2 * (n + 1) * TINY

    def shift_mask(G: np.ndarray, t: int, ok: list[bool]) -> np.ndarray:
        H = np.zeros_like(G)
        for s in range(2):
            if not ok[s]:
                continue
            c = tables[t][s]
            if c == 0:
                H[:, s] = G[:, s]
            else:
                H[:, s, c:] = G[:, s, : n + 1 - c]
        return H

    def rescale(G: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        tops = G[is_base].reshape(int(is_base.sum()), -1).max(axis=1)
        e_base = np.zeros(len(tops), dtype=np.int64)
        pos = tops > 0
        e_base[pos] = np.frexp(tops[pos])[1]
        e_base = np.minimum(e_base, 2)
        e_all = np.zeros(C, dtype=np.int64)
        e_all[is_base] = e_base
        e_all = e_all[base_of]
        return G * np.ldexp(1.0, -e_all)[:, None, None], e_all

    for ai, fixed in enumerate(assignments):
        oks = [[(t not in fixed or fixed[t] == s) for s in range(2)] for t in range(T)]
        F = np.zeros((C, 2, n + 1))
        for c in range(C):
            for s in range(2):
                if oks[0][s]:
                    F[c, s, tables[0][s]] = inits[c][s]
        EF = np.zeros(C, dtype=np.int64)
        AF = np.zeros(C)  # L1 over states and counts of the forward vector's slack
        fw: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        for t in range(last + 1):
            if t > 0:
                G = np.einsum("cst,csn->ctn", Pm, F) + np.einsum("cst,csn->ctn", Qm, F[srcs])
                F, e = rescale(shift_mask(G, t, oks[t]))
                EF = EF + e
                AF = (row_p * AF + row_q * AF[srcs] + step_new) * np.ldexp(1.0, -e)
            if t in pos_set:
                fw[t] = (F, EF.copy(), AF.copy())
        B = np.zeros((C, 2, n + 1))
        B[is_base, :, 0] = 1.0
        EB = np.zeros(C, dtype=np.int64)
        AB = np.zeros(C)  # the largest over states of the L1 over counts of B's slack
        bw: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        if T - 1 in pos_set:
            bw[T - 1] = (B, EB.copy(), AB.copy())
        for t in range(T - 2, first - 1, -1):
            nxt = shift_mask(B, t + 1, oks[t + 1])
            B, e = rescale(
                np.einsum("cst,ctn->csn", Pm, nxt) + np.einsum("cst,ctn->csn", Qm, nxt[srcs])
            )
            EB = EB + e
            AB = (row_p * AB + row_q * AB[srcs] + step_new) * np.ldexp(1.0, -e)
            if t in pos_set:
                bw[t] = (B, EB.copy(), AB.copy())
        rows: list[np.ndarray] = []
        keys: list[tuple[int, int, int, int]] = []
        slack: list[float] = []
        conv_new = (n + 1) ** 2 * TINY
        for p in pos_set:
            Fp, ef_, af = fw[p]
            Bp, eb_, ab = bw[p]
            for c in range(C):
                g, jj = group[c], deriv_of[c]
                b0 = base_of[c]
                if jj < 0:
                    out[g].E[(p, ai)] = int(ef_[c] + eb_[c])
                for a in range(2):
                    if not Fp[b0, a].any() or not Bp[b0, a].any():
                        continue
                    # |alpha * beta|_1 <= |alpha|_1 |beta|_1 for convolutions; the true
                    # vectors' L1 norms are at most twice the computed ones plus the slack
                    if jj < 0:
                        rows.append(np.convolve(Fp[c, a], Bp[c, a])[: n + 1])
                        f1, b1 = float(Fp[c, a].sum()), float(Bp[c, a].sum())
                        slack.append(2 * (af[c] * (b1 + ab[c]) + ab[c] * (f1 + af[c])) + conv_new)
                    else:
                        rows.append(
                            np.convolve(Fp[c, a], Bp[b0, a])[: n + 1]
                            + np.convolve(Fp[b0, a], Bp[c, a])[: n + 1]
                        )
                        df1, db1 = float(Fp[c, a].sum()), float(Bp[c, a].sum())
                        f01, b01 = float(Fp[b0, a].sum()), float(Bp[b0, a].sum())
                        slack.append(
                            2 * (af[c] * (b01 + ab[b0]) + ab[b0] * (df1 + af[c]))
                            + 2 * (af[b0] * (db1 + ab[c]) + ab[c] * (f01 + af[b0]))
                            + 2 * conv_new
                        )
                    keys.append((g, p, a, jj))
        if not rows:
            continue
        X = np.array(rows)
        L = np.zeros_like(X)
        acc = np.zeros(X.shape[0])
        for c in range(n + 1):
            acc = acc * q + X[:, c]
            L[:, c] = acc
        R = np.zeros_like(X)
        acc = np.zeros(X.shape[0])
        for c in range(n - 1, -1, -1):
            acc = (acc + X[:, c + 1]) * q
            R[:, c] = acc
        M = L + R
        tot = X.sum(axis=1)
        nds = {g: len(points[g][1]) for g in range(len(points))}
        # a mixture's kernel is at most 1: the law's slack passes on, plus the
        # recurrences' own underflows (2 (N + 1) products, N + 1 for the total)
        mix_new = 4 * (n + 2) * TINY
        for row, (g, p, a, jj) in enumerate(keys):
            pt = out[g]
            key = (p, ai, a)
            if jj < 0:
                pt.N[key] = M[row]
                pt.D[key] = float(tot[row])
                pt.A[key] = slack[row] + mix_new
                if nds[g]:
                    pt.dN[key] = np.zeros((nds[g], n + 1))
                    pt.dD[key] = np.zeros(nds[g])
                    pt.dA[key] = np.zeros(nds[g])
            else:
                pt.dN[key][jj] = M[row]
                pt.dD[key][jj] = tot[row]
                pt.dA[key][jj] = slack[row] + mix_new
    return out


def eta_bound(shape: ChainShape, rho_q: float) -> float:
    """The proven bound on ``|ln(computed / exact)|`` of every mixture, total and
    derivative of :func:`evaluate` (the roundings on a longest path: ``4 (T + 2)`` in the
    forward and backward passes with the entries' own roundings, ``8 (N + 2)`` in the
    convolution, the sums and the recurrences; ``N + 1`` factors of ``q``).

    Args:
        shape: the chain's fixed part.
        rho_q: the bound on ``|ln(q_float / q)|`` (:func:`rate_q`).

    Returns:
        ``eta``.

    References:
        Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed. (2002), Sec. 3.1,
        Lemma 3.1.
    """
    T, n = shape.length, shape.span
    return (16 * (T + 2) + 8 * (n + 2)) * U_PRIME + (n + 1) * rho_q


__all__ = [
    "LN2",
    "U_PRIME",
    "ChainShape",
    "PointLaws",
    "eta_bound",
    "evaluate_many",
    "rate_q",
]

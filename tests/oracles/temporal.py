"""Independent references for the temporal leakage tests (no pdpsym code is used here).

* A float port of Cao et al.'s MATLAB (the public repository yangcao888/TPL, files
  ``calcPLbyThm.m``, ``tools/theorem10.m``, ``findSup.m``, ``tools/sortRatioM1M2_DES.m``,
  ``tools/plotTPL.m``): the iterative elimination of TKDE Theorem 4 / Algorithm 1, the
  supremum of Theorem 10, and the BPL/FPL/TPL recursions, line for line in numpy
  float64.
* A brute force of the exact leakage of a mechanism released at every step: every state
  path, every report sequence, likelihoods summed in Fractions, Cao et al.'s
  Definitions 3-5 applied literally.
* A high-precision (mpmath) port of the closed form, for the budget enclosures.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction

import mpmath
import numpy as np


def _pairs(n: int) -> list[tuple[int, int]]:
    # VChooseK(1:n, 2) then fliplr: (i, j) for i < j, then (j, i)
    p = list(itertools.combinations(range(n), 2))
    return p + [(j, i) for i, j in p]


def cao_L(TM: Sequence[Sequence[float]], a: float) -> float:
    """calcPLbyThm.m: L(a) by Theorem 4 (the elimination loop), float64."""
    TM = np.asarray(TM, dtype=float)
    pairs = _pairs(TM.shape[0])
    QM = np.array([TM[i] for i, _ in pairs])
    DM = np.array([TM[j] for _, j in pairs])
    ind = QM > DM
    QM, DM = QM * ind, DM * ind
    while True:
        remain = ind.sum()
        val = (QM.sum(1) * (math.exp(a) - 1) + 1) / (DM.sum(1) * (math.exp(a) - 1) + 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            new = (QM / DM) > val[:, None]  # 0/0 is NaN (false), q/0 is inf (true)
        if remain == new.sum():
            break
        idx = new != ind
        QM[idx] = 0
        DM[idx] = 0
        ind = new
    return math.log(val.max())


def cao_theorem10(q: float, d: float, e: float) -> float:
    """tools/theorem10.m."""
    if abs(q - d) < np.finfo(float).eps:
        return e
    if d != 0:
        b = d + q * math.exp(e) - 1
        return math.log((math.sqrt(4 * d * math.exp(e) * (1 - q) + b * b) + b) / (2 * d))
    if q != 1 and e <= math.log(1 / q):
        return math.log(((1 - q) * math.exp(e)) / (1 - q * math.exp(e)))
    return math.inf


def cao_sup(TM: Sequence[Sequence[float]], e: float) -> float:
    """findSup.m: the largest Theorem 10 value over every prefix of every pair."""
    TM = np.asarray(TM, dtype=float)
    pairs = _pairs(TM.shape[0])
    best = -1.0
    found = False
    for i, j in pairs:
        q, d = TM[i], TM[j]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = q / d
        # sortRatioM1M2_DES: descending by q./d, NaN last
        order = sorted(range(len(q)), key=lambda c: (math.isnan(ratio[c]), -ratio[c]))
        qs, ds = np.cumsum(q[order]), np.cumsum(d[order])
        for c, col in enumerate(order):
            if q[col] > d[col]:
                found = True
                best = max(best, cao_theorem10(qs[c], ds[c], e))
    return best if found else e


def cao_tpl(
    eps: Sequence[float],
    TM_B: Sequence[Sequence[Sequence[float]]],
    TM_F: Sequence[Sequence[Sequence[float]]],
) -> tuple[list[float], list[float], list[float]]:
    """tools/plotTPL.m with one matrix per step: ``TM_B[t]`` is P(x_t-1 | x_t) used at
    step t (0-based, t >= 1), ``TM_F[t]`` is P(x_t+1 | x_t) used at step t (t <= T-2)."""
    T = len(eps)
    bpl, fpl = [0.0] * T, [0.0] * T
    bpl[0], fpl[T - 1] = eps[0], eps[T - 1]
    for t in range(1, T):
        bpl[t] = (cao_L(TM_B[t], bpl[t - 1]) if len(TM_B[t]) > 1 else 0.0) + eps[t]
    for t in range(T - 2, -1, -1):
        fpl[t] = (cao_L(TM_F[t], fpl[t + 1]) if len(TM_F[t]) > 1 else 0.0) + eps[t]
    return bpl, fpl, [b + f - e for b, f, e in zip(bpl, fpl, eps, strict=True)]


# --- Bayes, by hand ---------------------------------------------------------------------


def marginals(
    init: Sequence[Fraction], P: Sequence[Sequence[Fraction]], T: int
) -> list[list[Fraction]]:
    """pi_t = pi_1 P^(t-1), exactly."""
    out = [list(init)]
    k = len(init)
    for _ in range(T - 1):
        out.append([sum((out[-1][s] * P[s][j] for s in range(k)), Fraction(0)) for j in range(k)])
    return out


def backward_rows(pi_prev, pi_t, P) -> list[list[Fraction]]:
    """P(x_t-1 = i | x_t = j) = pi_t-1(i) P(i, j) / pi_t(j), rows j with pi_t(j) > 0."""
    k = len(pi_t)
    return [[pi_prev[i] * P[i][j] / pi_t[j] for i in range(k)] for j in range(k) if pi_t[j] > 0]


# --- brute force of a mechanism's exact leakage ----------------------------------------


def brute_stream(
    init: Sequence[Fraction],
    P: Sequence[Sequence[Fraction]],
    T: int,
    R: dict[object, Sequence[Fraction]],
) -> tuple[list[Fraction], list[Fraction], list[Fraction]]:
    """e^BPL_t, e^FPL_t, e^TPL_t of the mechanism R (report -> R(report | s) per state s)
    released at every step: every path, every report sequence, in Fractions."""
    k = len(init)
    reports = list(R)
    paths = []
    for x in itertools.product(range(k), repeat=T):
        p = init[x[0]]
        for t in range(T - 1):
            p *= P[x[t]][x[t + 1]]
        if p:
            paths.append((x, p))
    pi = marginals(init, P, T)
    bpl, fpl, tpl = [], [], []
    for t in range(T):
        live = [s for s in range(k) if pi[t][s] > 0]
        best = {"b": Fraction(1), "f": Fraction(1), "t": Fraction(1)}
        for key, lo, hi in (("b", 0, t + 1), ("f", t, T), ("t", 0, T)):
            for r in itertools.product(reports, repeat=hi - lo):
                like = dict.fromkeys(live, Fraction(0))
                for x, p in paths:
                    w = p
                    for j, o in enumerate(r):
                        w *= R[o][x[lo + j]]
                    like[x[t]] += w
                for a in live:
                    for b in live:
                        if a != b:
                            v = (like[a] / pi[t][a]) / (like[b] / pi[t][b])
                            best[key] = max(best[key], v)
        bpl.append(best["b"])
        fpl.append(best["f"])
        tpl.append(best["t"])
    return bpl, fpl, tpl


def rr_matrix(keep: Fraction, k: int) -> dict[object, list[Fraction]]:
    """Randomized response as report -> [R(report | s) for s]."""
    other = (1 - keep) / (k - 1)
    return {o: [keep if o == s else other for s in range(k)] for o in range(k)}


# --- mpmath closed form (budgets) -------------------------------------------------------


def mp_tpl(eps: Sequence[object], TM_B, TM_F, dps: int = 60) -> list[object]:
    """TPL_t by the closed form, every subset of coordinates tried (no sorting), in mpmath."""
    with mpmath.workdps(dps):

        def L(TM, a):
            u = mpmath.e**a
            best = mpmath.mpf(1)
            n = len(TM)
            for i, j in itertools.permutations(range(n), 2):
                q, d = TM[i], TM[j]
                for size in range(1, len(q) + 1):
                    for S in itertools.combinations(range(len(q)), size):
                        qs = sum(mpmath.mpf(q[c].numerator) / q[c].denominator for c in S)
                        ds = sum(mpmath.mpf(d[c].numerator) / d[c].denominator for c in S)
                        best = max(best, (qs * (u - 1) + 1) / (ds * (u - 1) + 1))
            return mpmath.log(best)

        T = len(eps)
        e = [
            mpmath.mpf(x)
            if not isinstance(x, Fraction)
            else mpmath.mpf(x.numerator) / x.denominator
            for x in eps
        ]
        b, f = [e[0]] + [None] * (T - 1), [None] * (T - 1) + [e[T - 1]]
        for t in range(1, T):
            b[t] = L(TM_B[t], b[t - 1]) + e[t]
        for t in range(T - 2, -1, -1):
            f[t] = L(TM_F[t], f[t + 1]) + e[t]
        return [b[t] + f[t] - e[t] for t in range(T)]


def mp_sup(TM, e, dps: int = 80):
    """findSup.m / theorem10.m in mpmath: the largest Theorem 10 value over every subset
    of every pair (None: unbounded)."""
    with mpmath.workdps(dps):
        e = mpmath.mpf(e.numerator) / e.denominator if isinstance(e, Fraction) else mpmath.mpf(e)
        w = mpmath.e**e
        best = None
        n = len(TM)
        for i, j in itertools.permutations(range(n), 2):
            q, d = TM[i], TM[j]
            for size in range(1, len(q) + 1):
                for S in itertools.combinations(range(len(q)), size):
                    if not all(q[c] > d[c] for c in S):
                        continue
                    qs = sum(mpmath.mpf(q[c].numerator) / q[c].denominator for c in S)
                    ds = sum(mpmath.mpf(d[c].numerator) / d[c].denominator for c in S)
                    if ds == 0:
                        if qs * w >= 1:
                            return None
                        v = mpmath.log((1 - qs) * w / (1 - qs * w))
                    else:
                        b = ds + qs * w - 1
                        v = mpmath.log((mpmath.sqrt(4 * ds * w * (1 - qs) + b * b) + b) / (2 * ds))
                    best = v if best is None else max(best, v)
        return e if best is None else best

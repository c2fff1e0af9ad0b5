"""Noise scales of the baselines for correlated records: group DP and the Markov Quilt
Mechanism (Song, Wang, Chaudhuri, "Pufferfish privacy mechanisms for correlated data",
SIGMOD 2017, Sec. 4-5).

**Group DP.** Records split into mutually independent groups; a Laplace scale
``Delta_G / eps`` with ``Delta_G`` the largest group sensitivity (the sum of the group's
per-record sensitivities) gives eps-DP for the whole group. For an ergodic chain the
group is all T records.

**MQM (MQMExact).** For a record ``X_i`` a *Markov quilt* is a set ``X_Q`` that separates
the nearby records ``X_N`` (containing ``X_i``) from the remote ones. Its max-influence
is::

    e(X_Q | X_i) = max_{s != s'} max_{x_Q} ln P(X_Q = x_Q | X_i = s) / P(X_Q = x_Q | X_i = s')

and MQM releases ``F(X) + L sigma_max Z`` with ``Z ~ Lap(1)``, ``L`` the query's
per-record sensitivity, ``sigma_i = min_Q card(X_N) / (eps - e(X_Q | X_i))`` over quilts
with ``e < eps``, and ``sigma_max = max_i sigma_i``. For a chain ``x_1..x_T`` the
quilts of ``x_i`` are ``{x_{i-a}, x_{i+b}}`` (``card N = a + b - 1``), ``{x_{i+b}}``
(``card N = i + b - 1``), ``{x_{i-a}}`` (``card N = T - i + a``) and the empty quilt
(``card N = T``, ``e = 0``). Given ``X_i``, ``x_{i-a}`` and ``x_{i+b}`` are independent,
so ``e = max_{s != s'} (e_L(s, s') + e_R(s, s'))`` with::

    e_R(s, s') = max_y ln P^b[s, y] / P^b[s', y]
    e_L(s, s') = max_w ln (P^a[w, s] / q_i(s)) / (P^a[w, s'] / q_i(s'))

(Bayes' rule; ``q_i`` is the law of ``x_i``). Conventions: rows of ``P`` are
from-states; the initial law is the model's (stationary or given). For a symmetric
binary chain with stay probability ``p`` (``r = 2p - 1``, stationary start) each term is
``ln((1 + r^d)/(1 - r^d))``.

Quilts are ranked in float64 (logs of matrix powers); the chosen quilt's influence is
then recomputed exactly (a rational ``R`` with ``e = ln R``), so the reported scale
``L card / (eps - ln R)`` is an exact expression, certified on output.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy

from pdpsym.core.errors import InputError
from pdpsym.core.numbers import to_sympy
from pdpsym.models.counts import CountModel
from pdpsym.models.markov import MarkovChain, Matrix


@dataclass(frozen=True)
class BaselineScale:
    """A baseline's Laplace scale as an exact expression, and how it was chosen."""

    name: str
    scale: sympy.Expr
    detail: dict[str, object]


def sensitivity(model: MarkovChain) -> Fraction:
    """``L``: the largest change of the sum query when one record of the chain changes.

    Args:
        model: the Markov chain; its states are the records' (exact) values.

    Returns:
        ``max(states) - min(states)`` as a Fraction.

    References:
        Song, Wang, Chaudhuri (2017), "Pufferfish privacy mechanisms for correlated
        data", Section 4 (MQM's per-record sensitivity ``L``).
    """
    return max(model.states) - min(model.states)


def group_dp_scale(model: CountModel, eps: Fraction) -> BaselineScale:
    """Group DP: the largest group sensitivity over ``eps`` (the sum query).

    The groups are the model's mutually independent groups (a chain: runs linked by
    dependent steps; independent records: singletons); a group's sensitivity is the sum
    of its records' sensitivities (``max - min`` of each record's values).

    Args:
        model: a structured model.
        eps: the privacy parameter (> 0).

    Returns:
        The scale, exactly.

    References:
        Li et al., Remark 1 (the group-DP bound); Song et al., Sec. 2.
    """
    if eps <= 0:
        raise InputError("eps", "must be > 0")
    contrib = model.contributions(None)
    span = {
        name: Fraction(max(row), contrib.scale)
        for name, row in zip(model.variables, contrib.table, strict=True)
    }
    best = max(model.dependence_groups(), key=lambda g: sum(span[v] for v in g))
    sens = sum((span[v] for v in best), Fraction(0))
    return BaselineScale("group-dp", to_sympy(sens / eps), {"group_size": len(best)})


def _power(m: Matrix, e: int) -> list[list[Fraction]]:
    k = len(m)
    result = [[Fraction(int(i == j)) for j in range(k)] for i in range(k)]
    base = [list(r) for r in m]
    while e:
        if e & 1:
            result = [
                [sum((result[i][t] * base[t][j] for t in range(k)), Fraction(0)) for j in range(k)]
                for i in range(k)
            ]
        base = [
            [sum((base[i][t] * base[t][j] for t in range(k)), Fraction(0)) for j in range(k)]
            for i in range(k)
        ]
        e >>= 1
    return result


def _marginal(model: MarkovChain, i: int) -> list[Fraction]:
    """The exact law of ``x_i`` (1-based)."""
    p = _power(model.matrices[0], i - 1)
    k = model.k
    return [sum((model.initial_law[s] * p[s][j] for s in range(k)), Fraction(0)) for j in range(k)]


def _ratio_right(pb: list[list[Fraction]], s: int, s2: int) -> Fraction | None:
    best: Fraction | None = None
    for y in range(len(pb)):
        if pb[s2][y] == 0:
            if pb[s][y] != 0:
                return None
            continue
        r = pb[s][y] / pb[s2][y]
        best = r if best is None or r > best else best
    return best


def _ratio_left(pa: list[list[Fraction]], q: list[Fraction], s: int, s2: int) -> Fraction | None:
    best: Fraction | None = None
    for w in range(len(pa)):
        num, den = pa[w][s] * q[s2], pa[w][s2] * q[s]
        if den == 0:
            if num != 0:
                return None
            continue
        r = num / den
        best = r if best is None or r > best else best
    return best


def mqm_exact_scale(
    model: MarkovChain, eps: Fraction, max_distance: int | None = None
) -> BaselineScale:
    """MQMExact's Laplace scale ``L sigma_max`` for a time-homogeneous chain.

    Args:
        model: the chain (one transition matrix).
        eps: the privacy parameter (> 0).
        max_distance: the largest quilt distance ``a``, ``b`` searched (default: up to
            the first distance whose influence is below 1e-17 in floats, at most T).

    Returns:
        The scale as an exact expression, with the chosen node and quilt.

    References:
        Song, Wang, Chaudhuri (SIGMOD 2017), Algorithm 2 (MQM) and Sec. 5 (chains).
    """
    if eps <= 0:
        raise InputError("eps", "must be > 0")
    if len(model.matrices) != 1:
        raise InputError("model", "MQM here needs one time-homogeneous transition matrix")
    T, k = model.length, model.k
    P = np.array([[float(x) for x in row] for row in model.matrices[0]])
    init = np.array([float(x) for x in model.initial_law])
    eps_f = float(eps)
    # powers P^d, d = 1..D, until every influence term is negligible
    limit = T if max_distance is None else min(T, max_distance)
    with np.errstate(divide="ignore", invalid="ignore"):
        pows = [np.eye(k)]
        terms_r: list[np.ndarray] = [np.full((k, k), np.inf)]  # index 0 unused
        logs: list[np.ndarray] = [np.zeros((k, k))]
        for d in range(1, limit + 1):
            pows.append(pows[-1] @ P)
            lp = np.log(pows[-1])
            logs.append(lp)
            # e_R[s, s'] = max_y lp[s, y] - lp[s', y]
            diff = lp[:, None, :] - lp[None, :, :]
            diff = np.where(np.isnan(diff), -np.inf, diff)
            terms_r.append(diff.max(axis=2))
            off = ~np.eye(k, dtype=bool)
            if max_distance is None and d > 1 and np.all(np.abs(terms_r[-1][off]) < 1e-17):
                break
        D = len(pows) - 1
        marg = [init]
        for _ in range(T - 1):
            marg.append(marg[-1] @ P)
        off = ~np.eye(k, dtype=bool)
        best_i: tuple[float, int, int | None, int | None] | None = None  # (sigma, i, a, b)
        logs_arr = np.stack(logs[1 : D + 1])  # (D, k, k): ln P^a[w, s]
        right_e = np.stack([np.where(off, terms_r[b], -np.inf).max() for b in range(1, D + 1)])
        cache: dict[bytes, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        for i in range(1, T + 1):
            lq = np.log(marg[i - 1])
            key = lq.tobytes() if not model.stationary else b"stationary"
            if key not in cache:
                # e_L[a][s, s'] = max_w (lp[w, s] - lq[s]) - (lp[w, s'] - lq[s'])
                lp = logs_arr - lq[None, None, :]
                dd = lp[:, :, :, None] - lp[:, :, None, :]
                dd = np.where(np.isnan(dd), -np.inf, dd).max(axis=1)  # (D, k, k)
                left_e = np.where(off[None], dd, -np.inf).max(axis=(1, 2))
                tot = np.where(
                    off[None, None], dd[:, None] + np.stack(terms_r[1 : D + 1])[None], -np.inf
                ).max(axis=(2, 3))
                aa = np.arange(1, D + 1)[:, None]
                bb = np.arange(1, D + 1)[None, :]
                with np.errstate(divide="ignore"):
                    sig = np.where(tot < eps_f, (aa + bb - 1) / (eps_f - tot), np.inf)
                cache = (
                    {key: (left_e, sig, dd)}
                    if len(cache) > 8
                    else {**cache, key: (left_e, sig, dd)}
                )
            left_e, sig, _ = cache[key]
            cands: list[tuple[float, int | None, int | None]] = [(float(T), None, None)]
            amax, bmax = min(D, i - 1), min(D, T - i)
            if amax:
                e = left_e[:amax]
                with np.errstate(divide="ignore"):
                    sl = np.where(e < eps_f, (T - i + np.arange(1, amax + 1)) / (eps_f - e), np.inf)
                ja = int(np.argmin(sl))
                if math.isfinite(sl[ja]):
                    cands.append((float(sl[ja]), ja + 1, None))
            if bmax:
                e = right_e[:bmax]
                with np.errstate(divide="ignore"):
                    sr = np.where(e < eps_f, (i + np.arange(1, bmax + 1) - 1) / (eps_f - e), np.inf)
                jb = int(np.argmin(sr))
                if math.isfinite(sr[jb]):
                    cands.append((float(sr[jb]), None, jb + 1))
            if amax and bmax:
                sub = sig[:amax, :bmax]
                j = np.unravel_index(np.argmin(sub), sub.shape)
                if math.isfinite(sub[j]):
                    cands.append((float(sub[j]), int(j[0]) + 1, int(j[1]) + 1))
            sigma, a, b = min(cands, key=lambda c: c[0])
            if best_i is None or sigma > best_i[0]:
                best_i = (sigma, i, a, b)
    assert best_i is not None
    _, i, a, b = best_i
    L = sensitivity(model)
    if a is None and b is None:
        card, R = T, Fraction(1)
    else:
        pa = _power(model.matrices[0], a) if a else None
        pb = _power(model.matrices[0], b) if b else None
        q = _marginal(model, i) if a else None
        best: Fraction | None = None
        for s in range(k):
            for s2 in range(k):
                if s == s2:
                    continue
                r = Fraction(1)
                if pa is not None and q is not None:
                    rl = _ratio_left(pa, q, s, s2)
                    if rl is None:
                        r = Fraction(-1)
                    else:
                        r *= rl
                if pb is not None and r > 0:
                    rr = _ratio_right(pb, s, s2)
                    r = Fraction(-1) if rr is None else r * rr
                if r > 0 and (best is None or r > best):
                    best = r
        assert best is not None
        R = best
        card = a + b - 1 if (a and b) else (T - i + a if a else i + (b or 0) - 1)
    scale = to_sympy(L * card) / (to_sympy(eps) - sympy.log(to_sympy(R)))
    return BaselineScale(
        "mqm-exact", scale, {"node": model.variables[i - 1], "a": a, "b": b, "card_N": card}
    )


__all__ = ["BaselineScale", "group_dp_scale", "mqm_exact_scale", "sensitivity"]

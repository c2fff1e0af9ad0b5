"""MQMExact over a finite class of stationary chains (Song, Wang, Chaudhuri, SIGMOD 2017,
Algorithm 2 with Pufferfish's class ``Theta``).

For a class, a quilt's max-influence is the max over the class::

    e_Theta(X_Q | X_i) = max_{theta in Theta} e_theta(X_Q | X_i),

and MQM's ``sigma_i = min_Q card(X_N) / (eps - e_Theta(X_Q | X_i))`` over the quilts with
``e_Theta < eps``; the scale is ``L max_i sigma_i``. The quilts and influences are those of
:mod:`pdpsym.mechanisms.mqm` (a chain's quilts ``{x_{i-a}, x_{i+b}}``, ``{x_{i+b}}``,
``{x_{i-a}}`` and the empty one). Every member here starts from its stationary law, so
the influences do not depend on ``i`` (``q_i = pi``). As in the single-law code, quilts
are ranked in float64 and the chosen quilt's class influence is then recomputed exactly,
``R = max_theta R_theta`` (rationals, compared exactly), so the scale
``L card / (eps - ln R)`` is an exact expression. The empty quilt is a candidate at every
record with ``sigma = T / eps`` (all T records nearby, no influence).

For a chain whose rows are intervals, :func:`class_pi_min` gives MQMApprox's ``pi_min``
over the whole class, exactly (its min sits at a combination of the rows' polytopes'
vertices; the proof is in its docstring).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import sympy

from pdpsym.core.compare import compare
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import to_sympy
from pdpsym.mechanisms.mqm import BaselineScale, mqm_approx_applies, sensitivity
from pdpsym.models.interval_chain_k import row_vertices, tree_weights
from pdpsym.models.interval_rows import Interval
from pdpsym.models.markov import MarkovChain, Matrix

#: the most vertex combinations :func:`class_pi_min` enumerates
PI_MIN_COMBINATIONS = 4096


def _power(m: Matrix, e: int) -> list[list[Fraction]]:
    k = len(m)
    out = [[Fraction(int(i == j)) for j in range(k)] for i in range(k)]
    for _ in range(e):
        out = [
            [sum((out[i][t] * m[t][j] for t in range(k)), Fraction(0)) for j in range(k)]
            for i in range(k)
        ]
    return out


def influence_ratio(model: MarkovChain, a: int | None, b: int | None) -> Fraction | None:
    """``R`` with ``e(X_Q | X_i) = ln R`` for the quilt ``{x_{i-a}, x_{i+b}}`` of a
    stationary chain (``a`` or ``b`` None: that side is absent), exactly; None when it is
    infinite.

    Args:
        model: a chain started from its stationary law.
        a: the distance upstream, or None.
        b: the distance downstream, or None.

    Returns:
        ``max_{s != s'} [max_w P^a[w,s] pi(s') / (P^a[w,s'] pi(s))] [max_y P^b[s,y] /
        P^b[s',y]]``, or None.

    References:
        Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 5 (the influence of a chain's quilt).
    """
    k, P, q = model.k, model.matrices[0], model.initial_law
    pa = _power(P, a) if a else None
    pb = _power(P, b) if b else None
    best: Fraction | None = Fraction(0)
    for s in range(k):
        for s2 in range(k):
            if s == s2:
                continue
            r = Fraction(1)
            for side in ((pa, "left"), (pb, "right")):
                mat, kind = side
                if mat is None:
                    continue
                top: Fraction | None = None
                for w in range(k):
                    if kind == "left":
                        num, den = mat[w][s] * q[s2], mat[w][s2] * q[s]
                    else:
                        num, den = mat[s][w], mat[s2][w]
                    if den == 0:
                        if num != 0:
                            return None
                        continue
                    top = num / den if top is None or num / den > top else top
                r *= top if top is not None else Fraction(1)
            if best is not None and r > best:
                best = r
    return best


def mqm_exact_class_scale(
    models: Sequence[MarkovChain], eps: Fraction, max_distance: int | None = None
) -> BaselineScale:
    """MQMExact's scale for a finite class of stationary chains of the same records.

    Args:
        models: the members (one transition matrix each, stationary starts, the same
            length and states).
        eps: the privacy parameter (> 0).
        max_distance: the largest quilt distance (default: up to the first at which every
            member's influence is below 1e-17 in floats, at most T - 1).

    Returns:
        The scale as an exact expression, with the node and quilt chosen.

    References:
        Song, Wang, Chaudhuri (SIGMOD 2017), Algorithm 2 and Sec. 5 (a class ``Theta``).
    """
    if eps <= 0:
        raise InputError("eps", "must be > 0")
    first = models[0]
    T = first.length
    for m in models:
        if mqm_approx_applies(m) is not None:
            raise InputError("model", "MQMExact over a class here needs stationary chains")
        if m.length != T or m.states != first.states:
            raise InputError("model", "the members must share their records and states")
    eps_f = float(eps)
    limit = T - 1 if max_distance is None else min(T - 1, max_distance)
    left = np.full(max(limit, 0), -np.inf)
    right = np.full(max(limit, 0), -np.inf)
    tot = np.full((max(limit, 0), max(limit, 0)), -np.inf)
    D = 0
    with np.errstate(divide="ignore", invalid="ignore"):
        for m in models:
            k = m.k
            P = np.array([[float(x) for x in row] for row in m.matrices[0]])
            lq = np.log(np.array([float(x) for x in m.initial_law]))
            off = ~np.eye(k, dtype=bool)
            pw = np.eye(k)
            dd_all, tr_all = [], []
            for d in range(1, limit + 1):
                pw = pw @ P
                lp = np.log(pw)
                diff = lp[:, None, :] - lp[None, :, :]
                tr = np.where(np.isnan(diff), -np.inf, diff).max(axis=2)
                la = lp - lq[None, :]
                dl = la[:, :, None] - la[:, None, :]
                dl = np.where(np.isnan(dl), -np.inf, dl).max(axis=0)
                dd_all.append(np.where(off, dl, -np.inf))
                tr_all.append(np.where(off, tr, -np.inf))
                if max_distance is None and d > 1 and np.all(np.abs(tr[off]) < 1e-17):
                    break
            Dm = len(dd_all)
            D = max(D, Dm)
            for j in range(Dm):
                left[j] = max(left[j], float(dd_all[j].max()))
                right[j] = max(right[j], float(tr_all[j].max()))
            dd = np.stack(dd_all)
            tr = np.stack(tr_all)
            pair = (dd[:, None] + tr[None, :]).reshape(Dm, Dm, -1).max(axis=2)
            tot[:Dm, :Dm] = np.maximum(tot[:Dm, :Dm], pair)
    D = min(D, limit)
    best: tuple[float, int, int | None, int | None] | None = None
    t = np.arange(1, D + 1, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        sig = np.where(
            tot[:D, :D] < eps_f, (t[:, None] + t[None, :] - 1) / (eps_f - tot[:D, :D]), np.inf
        )
        for i in range(1, T + 1):
            cands: list[tuple[float, int | None, int | None]] = [(T / eps_f, None, None)]
            A, B = min(D, i - 1), min(D, T - i)
            if A:
                sl = np.where(left[:A] < eps_f, (T - i + t[:A]) / (eps_f - left[:A]), np.inf)
                ja = int(np.argmin(sl))
                if math.isfinite(sl[ja]):
                    cands.append((float(sl[ja]), ja + 1, None))
            if B:
                sr = np.where(right[:B] < eps_f, (i + t[:B] - 1) / (eps_f - right[:B]), np.inf)
                jb = int(np.argmin(sr))
                if math.isfinite(sr[jb]):
                    cands.append((float(sr[jb]), None, jb + 1))
            if A and B:
                sub = sig[:A, :B]
                ja2, jb2 = (int(v) for v in np.unravel_index(np.argmin(sub), sub.shape))
                if math.isfinite(sub[ja2, jb2]):
                    cands.append((float(sub[ja2, jb2]), ja2 + 1, jb2 + 1))
            sigma, a, b = min(cands, key=lambda c: c[0])
            if best is None or sigma > best[0]:
                best = (sigma, i, a, b)
    assert best is not None
    _, i, a, b = best
    L = sensitivity(first)
    if a is None and b is None:
        card, R = T, Fraction(1)
    else:
        ratios = [influence_ratio(m, a, b) for m in models]
        card = a + b - 1 if (a and b) else (T - i + a if a else i + (b or 0) - 1)
        if any(r is None for r in ratios):
            card, R, a, b = T, Fraction(1), None, None
        else:
            R = max(r for r in ratios if r is not None)
            if compare(sympy.log(to_sympy(R)), to_sympy(eps)).sign >= 0:  # the empty quilt
                card, R, a, b = T, Fraction(1), None, None
    scale = to_sympy(L * card) / (to_sympy(eps) - sympy.log(to_sympy(R)))
    return BaselineScale(
        "mqm-exact",
        scale,
        {"node": first.variables[i - 1], "a": a, "b": b, "card_N": card},
    )


def class_pi_min(
    rows: Sequence[Sequence[Interval]], limit: int = PI_MIN_COMBINATIONS
) -> tuple[Fraction, int] | None:
    """``pi_min`` over every stationary chain whose transition rows lie in interval rows
    (each row any stochastic row of its polytope ``{lo <= r <= hi, sum r = 1}``), exactly:
    the min over the combinations of the rows' polytopes' vertices.

    **Why the vertices suffice.** By the Markov chain tree theorem ``pi_j = w_j / sum_m
    w_m``, ``w_m`` the sum over the spanning trees directed to ``m`` of the products of
    their edges' entries; a tree has one edge out of every state but its root, so each
    ``w_m`` is affine in each row ``r_s`` (the others fixed), and so is ``sum_m w_m``,
    which is positive for every member (the class has a unique stationary law for each:
    checked when it is read). As a function of one row, ``pi_j`` is then linear-fractional
    with a positive denominator on that row's polytope: quasi-concave, so its min over the
    polytope is at a vertex. Start from a minimizer of ``pi_j`` over the product of the
    polytopes (compact, ``pi_j`` continuous) and move one row at a time to a vertex of its
    polytope where ``pi_j`` is no larger: the end is a combination of vertices attaining
    the min. The min over ``j`` of these is the class's ``pi_min``.

    Args:
        rows: the ``k`` interval rows of the transition matrix (each admitting a law).
        limit: the most combinations enumerated.

    Returns:
        ``(pi_min, combinations)``, or None when there are more than ``limit``
        combinations.

    References:
        Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 5.1 (``pi_min`` over a class); Leighton
        and Rivest, MIT/LCS/TM-249 (1983) (the tree theorem).
    """
    per = [row_vertices(r) for r in rows]
    n = 1
    for v in per:
        n *= len(v)
    if n > limit:
        return None
    best: Fraction | None = None
    for combo in itertools.product(*per):
        w = tree_weights(combo)
        low = min(w) / sum(w, Fraction(0))
        best = low if best is None or low < best else best
    assert best is not None
    return best, n


__all__ = ["PI_MIN_COMBINATIONS", "class_pi_min", "influence_ratio", "mqm_exact_class_scale"]

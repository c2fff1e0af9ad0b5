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

**MQMApprox** (Song et al., Sec. 5.1, the bound on the max-influence of a chain's quilt
from its eigengap). It applies to a chain with one transition matrix ``P`` whose initial
law is a stationary law ``pi`` with every ``pi(x) > 0`` (then every ``x_i`` has law
``pi``); no reversibility is needed. With the time reversal
``P*(x, y) = pi(y) P(y, x) / pi(x)``, ``P P*`` is self-adjoint and positive semidefinite
in ``L2(pi)``, so its eigenvalues are ``1 = l_1 >= l_2 >= ... >= 0``; the eigengap is
``g = (1 - l_2) / 2`` and ``pi_min = min_x pi(x)``. The bound::

    |P^t(x, y) / pi(y) - 1| <= Delta(t) = exp(-g t) / pi_min

holds because ``P^t(x, y)/pi(y) - 1 = <f_x - 1, P^t (f_y - 1)>_pi`` with
``f_x = 1_x / pi(x)``; ``P`` maps ``1^perp`` into itself with norm ``sqrt(l_2)``, and
``||f_x - 1||^2 = (1 - pi(x)) / pi(x) <= 1/pi_min``, so the product is at most
``l_2^{t/2} / pi_min <= exp(-t (1 - l_2) / 2) / pi_min``. When ``Delta(t) < 1``, each
ratio of ``e_R`` and of ``e_L`` above lies in ``[(1 - Delta)/(1 + Delta), (1 + Delta)/(1 -
Delta)]``, so with ``l(t) = ln((1 + Delta(t)) / (1 - Delta(t)))`` the paper's bound on the
influence of ``{x_{i-a}, x_{i+b}}`` is ``2 l(a) + l(b)`` (the upstream term counted twice,
as in the paper; a one-sided quilt drops the missing term). MQMApprox's scale is then
``L max_i min_Q card(N) / (eps - bound(Q))`` over the same quilts as MQMExact (quilts
with ``Delta >= 1`` or ``bound >= eps`` are not usable; the empty quilt always is), so
it is never below MQMExact's (each usable quilt's bound is at least its exact influence).
Distances up to ``min(T - 1, max_distance)`` are searched (default 1024): leaving quilts
out can only raise the scale, which stays private.

``l_2`` is exact: ``tr(P P*) - 1`` for two states, the largest root of
``charpoly(P P*) / (x - 1)`` (a sympy algebraic number) otherwise. Floats rank the
quilts and the nodes; every candidate within the screening margin of the best is decided
exactly (:func:`pdpsym.core.compare.screen_then_decide`), and a quilt whose usability
floats cannot settle (``Delta`` within ``1e-9`` of 1, or ``eps - bound`` below ``1e-9 eps``)
is left out (its scale would exceed ``10^9 card / eps >= T / eps``, the empty quilt's).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy

from pdpsym.core.certify import certify
from pdpsym.core.compare import compare, decided_min, screen_then_decide
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str, to_sympy
from pdpsym.models.counts import CountModel
from pdpsym.models.markov import MarkovChain, Matrix
from pdpsym.models.model_objects import chain_of


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
    if not model.has_values:
        raise InputError("values", 'the states are names without values: the sum needs "values"')
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
    model: MarkovChain,
    eps: Fraction,
    max_distance: int | None = None,
    sensitivity_value: Fraction | None = None,
) -> BaselineScale:
    """MQMExact's Laplace scale ``L sigma_max`` for a time-homogeneous chain.

    Args:
        model: the chain (one transition matrix).
        eps: the privacy parameter (> 0).
        max_distance: the largest quilt distance ``a``, ``b`` searched (default: up to
            the first distance whose influence is below 1e-17 in floats, at most T).
        sensitivity_value: the query's ``L`` (default: the sum's, :func:`sensitivity`;
            the histogram's is 2: one record moves two bins by one).

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
                with np.errstate(divide="ignore", over="ignore"):  # past the floats: inf
                    sig = np.where(tot < eps_f, (aa + bb - 1) / (eps_f - tot), np.inf)
                cache = (
                    {key: (left_e, sig, dd)}
                    if len(cache) > 8
                    else {**cache, key: (left_e, sig, dd)}
                )
            left_e, sig, _ = cache[key]
            # the empty quilt: all T records nearby, influence 0: sigma = T / eps
            cands: list[tuple[float, int | None, int | None]] = [(T / eps_f, None, None)]
            amax, bmax = min(D, i - 1), min(D, T - i)
            if amax:
                e = left_e[:amax]
                with np.errstate(divide="ignore", over="ignore"):
                    sl = np.where(e < eps_f, (T - i + np.arange(1, amax + 1)) / (eps_f - e), np.inf)
                ja = int(np.argmin(sl))
                if math.isfinite(sl[ja]):
                    cands.append((float(sl[ja]), ja + 1, None))
            if bmax:
                e = right_e[:bmax]
                with np.errstate(divide="ignore", over="ignore"):
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
    L = sensitivity(model) if sensitivity_value is None else sensitivity_value
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


#: the largest quilt distance MQMApprox searches by default
APPROX_MAX_DISTANCE = 1024


def mqm_approx_applies(model: CountModel) -> str | None:
    """Why MQMApprox does not apply to ``model``, or None when it does.

    Args:
        model: a structured model.

    Returns:
        None for a chain with one transition matrix started from a stationary law with
        every state's probability > 0; otherwise a one-line reason.

    References:
        Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 5.1 (MQMApprox: stationary chains).
    """
    chain = chain_of(model)
    if chain is None:
        return "MQMApprox is for Markov chains"
    model = chain
    if len(model.matrices) != 1:
        return "MQMApprox needs one time-homogeneous transition matrix"
    P, q = model.matrices[0], model.initial_law
    k = model.k
    if any(sum((q[s] * P[s][j] for s in range(k)), Fraction(0)) != q[j] for j in range(k)):
        return "MQMApprox needs a stationary chain (the initial law is not stationary)"
    if min(q) <= 0:
        return "MQMApprox needs every state to have stationary probability > 0"
    return None


def eigengap(model: MarkovChain) -> sympy.Expr:
    """``g = (1 - l_2) / 2``, ``l_2`` the second largest eigenvalue of ``P P*``, exactly.

    Args:
        model: a chain to which MQMApprox applies (:func:`mqm_approx_applies`).

    Returns:
        ``g`` as an exact sympy number (rational for two states, else algebraic).

    References:
        Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 5.1 (the eigengap of ``P P*``, ``P*`` the
        time reversal); Fill, Ann. Appl. Probab. 1 (1991) (multiplicative reversiblization).
    """
    reason = mqm_approx_applies(model)
    if reason is not None:
        raise InputError("model", reason)
    P, pi, k = model.matrices[0], model.initial_law, model.k
    rev = [[pi[y] * P[y][x] / pi[x] for y in range(k)] for x in range(k)]
    prod = [
        [sum((P[x][z] * rev[z][y] for z in range(k)), Fraction(0)) for y in range(k)]
        for x in range(k)
    ]
    if k == 2:
        lam2: sympy.Expr = to_sympy(prod[0][0] + prod[1][1] - 1)
    else:
        x = sympy.Symbol("x")
        mat = sympy.Matrix([[to_sympy(v) for v in row] for row in prod])
        rest = sympy.Poly(mat.charpoly(x).as_expr(), x).quo(sympy.Poly(x - 1, x))
        lam2 = sympy.real_roots(rest)[-1]  # sorted exactly by isolating intervals
    return (1 - lam2) / 2


def _approx_term(g: sympy.Expr, pi_min: Fraction, t: int) -> sympy.Expr:
    z = sympy.exp(-g * t)
    pm = to_sympy(pi_min)
    return sympy.log((pm + z) / (pm - z))


def mqm_approx_scale(
    model: MarkovChain,
    eps: Fraction,
    max_distance: int | None = None,
    sensitivity_value: Fraction | None = None,
    *,
    pi_min: Fraction | None = None,
    gap: sympy.Expr | None = None,
) -> BaselineScale:
    """MQMApprox's Laplace scale ``L sigma_max`` for a stationary chain, exactly.

    Args:
        model: a chain to which MQMApprox applies (:func:`mqm_approx_applies`).
        eps: the privacy parameter (> 0).
        max_distance: the largest quilt distance searched (default 1024; at most T - 1).
        sensitivity_value: the query's ``L`` (default: the sum's, :func:`sensitivity`).
        pi_min: for a class of chains (Song et al., Sec. 5.1: ``pi_min`` and the eigengap
            taken over the class), the class's smallest stationary probability; default
            the model's own.
        gap: the class's smallest eigengap (default the model's own).

    Returns:
        The scale as an exact expression, with the chosen node and quilt, ``pi_min`` and
        the eigengap.

    References:
        Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 5.1 (MQMApprox) and Algorithm 2 (MQM).
    """
    if eps <= 0:
        raise InputError("eps", "must be > 0")
    reason = mqm_approx_applies(model)
    if reason is not None:
        raise InputError("model", reason)
    if max_distance is not None and max_distance < 1:
        raise InputError("max_distance", "must be >= 1")
    T = model.length
    if pi_min is None:
        pi_min = min(model.initial_law)
    g = eigengap(model) if gap is None else gap
    D = min(T - 1, APPROX_MAX_DISTANCE if max_distance is None else max_distance)
    eps_f, g_f, pm_f = float(eps), float(g), float(pi_min)
    tol = 1e-9
    t = np.arange(1, D + 1, dtype=float)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        delta = np.exp(-g_f * t) / pm_f
        ok = delta < 1 - tol
        ell = np.where(
            ok, np.log1p(np.where(ok, delta, 0.0)) - np.log1p(-np.where(ok, delta, 0.0)), np.inf
        )

        def scale_of(card: np.ndarray, bound: np.ndarray) -> np.ndarray:
            den = eps_f - bound
            # relative to eps: a quilt left out has scale > card / (tol eps) >= T / eps,
            # the empty quilt's (an absolute 1e-9 left out every quilt once eps < 1e-9)
            return np.where(den > tol * eps_f, card / den, np.inf)

        # interior quilts {x_{i-a}, x_{i+b}}: S[a-1, b-1]; rectangle minima by prefix mins
        S = M = np.zeros((0, 0))
        if D:
            S = scale_of(t[:, None] + t[None, :] - 1, 2 * ell[:, None] + ell[None, :])
            M = np.minimum.accumulate(np.minimum.accumulate(S, axis=0), axis=1)
        left_s_bound, right_s_bound = 2 * ell, ell

    Key = tuple[int, int | None, int | None]  # (card N, a, b)

    def node_float(i: int) -> float:
        """Node i's float minimum over its quilts (the empty one included)."""
        A, B = min(D, i - 1), min(D, T - i)
        best = T / eps_f
        with np.errstate(divide="ignore", invalid="ignore"):
            if A and B:
                best = min(best, float(M[A - 1, B - 1]))
            if A:
                best = min(best, float(scale_of(T - i + t[:A], left_s_bound[:A]).min()))
            if B:
                best = min(best, float(scale_of(i + t[:B] - 1, right_s_bound[:B]).min()))
        return best

    sigma = np.array([node_float(i) for i in range(1, T + 1)])

    interior: dict[tuple[int, int, float], list[Key]] = {}

    def near_quilts(i: int) -> list[Key]:
        """Node i's quilts whose float scale is within the screening margin of its min
        (a quilt whose float scale is infinite, its bound not below ε, is never one; the
        empty quilt always is when ``T / ε`` passes the float range)."""
        top = float(sigma[i - 1])
        cut = top + 1e-7 * (1 + abs(top))
        # a quilt's scale is at least card / eps >= max(a, b) / eps: farther ones are out
        cmax = int(cut * eps_f) + 2 if math.isfinite(cut * eps_f) else D
        A, B = min(D, i - 1, cmax), min(D, T - i, cmax)
        out: list[Key] = []
        if T / eps_f <= cut:
            out.append((T, None, None))
        with np.errstate(divide="ignore", invalid="ignore"):
            if A and B:
                if (A, B, cut) not in interior:  # the middle nodes share one rectangle
                    interior[(A, B, cut)] = [
                        (int(a0) + int(b0) + 1, int(a0) + 1, int(b0) + 1)
                        for a0, b0 in np.argwhere(np.isfinite(S[:A, :B]) & (S[:A, :B] <= cut))
                    ]
                out += interior[(A, B, cut)]
            if A:
                sl = scale_of(T - i + t[:A], left_s_bound[:A])
                near = np.flatnonzero(np.isfinite(sl) & (sl <= cut))
                out += [(T - i + int(j) + 1, int(j) + 1, None) for j in near]
            if B:
                sr = scale_of(i + t[:B] - 1, right_s_bound[:B])
                near = np.flatnonzero(np.isfinite(sr) & (sr <= cut))
                out += [(i + int(j), None, int(j) + 1) for j in near]
        return out

    L = sensitivity(model) if sensitivity_value is None else sensitivity_value
    terms: dict[int, sympy.Expr] = {}

    def term(d: int) -> sympy.Expr:
        if d not in terms:
            terms[d] = _approx_term(g, pi_min, d)
        return terms[d]

    exact_cache: dict[Key, sympy.Expr] = {}

    def exact(key: Key) -> sympy.Expr:
        if key not in exact_cache:
            card, a, b = key
            bound = (2 * term(a) if a else sympy.Integer(0)) + (term(b) if b else 0)
            exact_cache[key] = to_sympy(L * card) / (to_sympy(eps) - bound)
        return exact_cache[key]

    def cmp(x: sympy.Expr, y: sympy.Expr) -> int:
        return compare(x, y).sign

    node_best: dict[int, tuple[Key, sympy.Expr]] = {}
    near_cache: dict[int, frozenset[Key]] = {}

    def near_of(i: int) -> frozenset[Key]:
        if i not in near_cache:
            near_cache[i] = frozenset(near_quilts(i))
        return near_cache[i]

    by_set: dict[frozenset[Key], tuple[Key, sympy.Expr]] = {}

    def node_exact(idx: int) -> sympy.Expr:
        keys = near_of(idx + 1)
        if keys not in by_set:
            ordered = sorted(keys, key=lambda k: (k[0], k[1] or 0, k[2] or 0))
            j, v = decided_min([exact(k) for k in ordered], cmp)
            by_set[keys] = (ordered[j], v)
        node_best[idx] = by_set[keys]
        return by_set[keys][1]

    idx, scale, _ = screen_then_decide(sigma, node_exact, cmp, key_of=lambda j: near_of(j + 1))
    (card, a, b), _ = node_best.get(idx, by_set[near_of(idx + 1)])
    return BaselineScale(
        "mqm-approx",
        scale,
        {
            "node": model.variables[idx],
            "a": a,
            "b": b,
            "card_N": card,
            "pi_min": fraction_str(pi_min),
            "eigengap": certify(g, 15).decimal,
        },
    )


__all__ = [
    "APPROX_MAX_DISTANCE",
    "BaselineScale",
    "eigengap",
    "group_dp_scale",
    "mqm_approx_applies",
    "mqm_approx_scale",
    "mqm_exact_scale",
    "sensitivity",
]

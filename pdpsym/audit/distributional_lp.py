"""The certified linear programs of distributional DP (Desfontaines et al. Definition 4).

One block (a known value) of :func:`pdpsym.audit.distributional.distributional_dp` is a
linear program over the simulators, ``δ_LP`` below. It is answered by a certified pair,
never by a solver's word: a simulator whose objective is evaluated exactly in rationals
(an upper end) and dual weights whose objective is evaluated exactly (a lower end, by weak
duality). The solver (HiGHS, in floats) only proposes them. Laplace noise (a continuous
output) is enclosed between two finite LPs (:func:`laplace_lp_data`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pdpsym.core.compare import proposal_float
from pdpsym.core.errors import Undecided
from pdpsym.core.exp_polynomials import ExpPoly
from pdpsym.core.exp_sqrt_sums import ratio_enclosure
from pdpsym.loss.laplace_mixture import laplace_mixture_at

# **One LP shape.** For a block with groups ``g`` (the values ``a``), rests ``r``, laws
# ``π_g`` of the rest, and output masses ``m1_g(k)``, ``m2_g(k)`` at finitely many output
# points ``k``::
#
#     δ_LP(t; m1, m2) = min_ζ max_g max( Σ_k (m1_g(k) - t S_g(k))_+ , Σ_k (S_g(k) - t m2_g(k))_+ )
#
# over probability vectors ``ζ_r`` (``S_g = Σ_r π_g(r) ζ_r``). It is non-decreasing in
# ``m1`` and non-increasing in ``m2``. With ``m1 = m2 = P_g`` (finite outputs) it *is*
# ``δ*_B̂(e^ε)``, the smallest δ of Definition 4 with (ε, δ)-indistinguishability.
#
# **Laplace noise, lower bound (post-processing).** Cut the line at nodes
# ``c_0 < ... < c_K`` that include every query value. Reporting only the cell of the
# output is a post-processing, which never increases a hockey-stick divergence and
# maps a simulator to a simulator: δ_LP with the cell masses (``m1`` rounded down,
# ``m2`` up) is a lower bound.
#
# **Laplace noise, upper bound (exponential splines).** Between two nodes every output
# density is ``α e^{-o/λ} + β e^{o/λ}``; take simulators of that form on each cell too,
# continuous at the nodes, so each is fixed by its values at the nodes. For such an
# ``f`` on ``[c, d]``, ``f ≥ 0`` on the cell iff ``f(c) ≥ 0`` and ``f(d) ≥ 0`` (with
# coefficients of opposite signs ``f`` is monotone), and ``∫_c^d f = λ tanh(w/2λ)
# (f(c) + f(d))`` (``w = d - c``; beyond the extreme nodes everything is a multiple of
# one exponential, ``∫ = λ f(c)``). The hockey stick ``∫ (p_g - t s_g)_+`` is at most
# ``∫ h`` for the spline ``h`` through ``max(0, p_g - t s_g)`` at the nodes (``h`` and
# ``h - (p_g - t s_g)`` are such functions, non-negative at both ends). With
# ``ζ_r(k) = ω_k s_r(c_k)`` and node masses ``m_g(k) = ω_k p_g(c_k)`` (``ω_k`` the two
# half-cell weights ``λ tanh(w/2λ)``) that bound is δ_LP of the node masses (``m1``
# rounded up, ``m2`` down): an upper bound attained by an explicit simulator.
#
# **Certificates.** Floats (HiGHS) only find a candidate: a simulator ``ζ`` for the
# upper bound, whose objective is then evaluated exactly in rationals, and the LP's
# dual for the lower bound (weak duality: for ``u_g(k) ∈ [0, α_g]``,
# ``v_g(k) ∈ [0, β_g]``, ``Σ_g α_g + β_g ≤ 1``,
# ``Σ_{g,k} u m1 - t v m2 - Σ_r max_k Σ_g π_g(r) (t u_g(k) - v_g(k)) ≤ δ_LP``), also
# evaluated exactly. A bad float answer only widens the enclosure.

Matrix = tuple[tuple[Fraction, ...], ...]


@dataclass(frozen=True)
class LPData:
    """One block's LP at one discretization: ``π[g][r]``, ``m1[g][k]``, ``m2[g][k]``.

    ``π[g]`` is the law of the rest ``D_{-i}`` in group ``g`` (a value of the target);
    ``m1[g]`` and ``m2[g]`` are the output masses of that group entering the two
    hockey sticks of δ_LP (equal for a finite mechanism; rounded apart for Laplace
    noise, :func:`laplace_lp_data`).

    References:
        Desfontaines et al., Section 2.1, Definition 4.
    """

    pi: Matrix
    m1: Matrix
    m2: Matrix


def _grid(x: float) -> Fraction:
    """A float candidate as the rational it is (candidates only; never a reported number)."""
    if not x > 0 or x == float("inf"):  # nan, negative, zero, overflow
        return Fraction(0)
    return Fraction(x)


def _scale(column: Sequence[Fraction]) -> Fraction:
    """A power of two near the largest mass of one output point (1 if all vanish)."""
    top = max(column, default=Fraction(0))
    if not top:
        return Fraction(1)
    e = top.numerator.bit_length() - top.denominator.bit_length()
    return Fraction(2) ** e


class Candidate:
    """HiGHS' answer to one δ_LP: the simulator ``ζ[r][k]`` and the dual weights.

    A candidate only: its float ``value`` ranks, and ``zeta`` and ``dual`` are certified
    by :func:`simulator_delta`, :func:`simulator_ratio` and :func:`dual_bound`.

    Args:
        data: the block's ``π`` and output masses.
        t: ``e^ε``, a float.
        with_dual: also read the dual weights ``(α, β, u, v)``.

    Attributes:
        ok: whether HiGHS solved the LP.
        value: its float optimum (``inf`` when not ``ok``).
        zeta: the simulator, one probability vector per rest (exact rationals), as
            proposed: the one whose δ is evaluated.
        dual: the dual weights, rational (empty lists without ``with_dual``).

    References:
        Desfontaines et al., Section 2.1, Definition 4.
    """

    def __init__(self, data: LPData, t: float, with_dual: bool = True) -> None:
        import numpy as np  # noqa: PLC0415 (numpy and scipy load only for this notion)
        from scipy.optimize import linprog  # noqa: PLC0415
        from scipy.sparse import coo_matrix  # noqa: PLC0415

        self.ok, self._data, self.value = False, data, float("inf")
        self.zeta: list[list[Fraction]] = []
        self.dual: tuple[list[Fraction], list[Fraction], list[list[Fraction]], list[list[Fraction]]]
        self.dual = ([], [], [], [])
        if not (math.isfinite(t) and t > 0):  # no float LP to propose from (e^ε overflows)
            return
        # each output point's unknowns are scaled by a power of two near its masses, so
        # that HiGHS sees numbers near 1 however small the masses (far tails, small λ)
        G, R, K = len(data.pi), len(data.pi[0]), len(data.m1[0])
        sig = [
            _scale([*(data.m1[g][k] for g in range(G)), *(data.m2[g][k] for g in range(G))])
            for k in range(K)
        ]
        pi = np.array([[float(x) for x in row] for row in data.pi])
        m1 = np.array([[float(x / sig[k]) for k, x in enumerate(row)] for row in data.m1])
        m2 = np.array([[float(x / sig[k]) for k, x in enumerate(row)] for row in data.m2])
        fsig = [float(x) for x in sig]
        nz, ne = R * K, G * K
        n = nz + 2 * ne + 1
        rows: list[int] = []
        cols: list[int] = []
        vals: list[float] = []
        b = np.zeros(2 * ne + 2 * G)
        row = 0
        for g in range(G):
            for k in range(K):
                for r in range(R):
                    if pi[g, r]:
                        rows += [row, row + 1]
                        cols += [r * K + k, r * K + k]
                        vals += [-t * pi[g, r], pi[g, r]]
                rows += [row, row + 1]
                cols += [nz + g * K + k, nz + ne + g * K + k]
                vals += [-1.0, -1.0]
                b[row], b[row + 1] = -m1[g, k], t * m2[g, k]
                row += 2
        for g in range(G):
            for k in range(K):
                rows += [row, row + 1]
                cols += [nz + g * K + k, nz + ne + g * K + k]
                vals += [fsig[k], fsig[k]]
            rows += [row, row + 1]
            cols += [n - 1, n - 1]
            vals += [-1.0, -1.0]
            row += 2
        a_ub = coo_matrix((vals, (rows, cols)), shape=(row, n)).tocsr()
        eq_rows = [r for r in range(R) for _ in range(K)]
        eq_cols = list(range(nz))
        eq_vals = [fsig[k] for _ in range(R) for k in range(K)]
        a_eq = coo_matrix((eq_vals, (eq_rows, eq_cols)), shape=(R, n)).tocsr()
        c = np.zeros(n)
        c[-1] = 1.0
        tol = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}
        res = linprog(c, A_ub=a_ub, b_ub=b, A_eq=a_eq, b_eq=np.ones(R), method="highs", options=tol)
        self.ok = bool(res.status == 0)
        self.value = float(res.fun) if self.ok else float("inf")
        if not self.ok:
            return
        x = res.x
        for r in range(R):
            z = [_grid(float(v)) * sig[k] for k, v in enumerate(x[r * K : (r + 1) * K])]
            total = sum(z, Fraction(0))
            self.zeta.append([v / total for v in z] if total else [Fraction(1, K)] * K)
        if with_dual:
            marg = -np.asarray(res.ineqlin.marginals)
            u = [[_grid(float(marg[2 * (g * K + k)])) / sig[k] for k in range(K)] for g in range(G)]
            v = [
                [_grid(float(marg[2 * (g * K + k) + 1])) / sig[k] for k in range(K)]
                for g in range(G)
            ]
            alpha = [_grid(float(marg[2 * ne + 2 * g])) for g in range(G)]
            beta = [_grid(float(marg[2 * ne + 2 * g + 1])) for g in range(G)]
            self.dual = (alpha, beta, u, v)

    @functools.cached_property
    def supported(self) -> list[list[Fraction]]:
        """``zeta`` with no mass where a group of the rest has none (only the δ = 0
        paths ask for it, so it is built on first use)."""
        return _supported(self._data, self.zeta)


def _supported(data: LPData, zeta: Sequence[Sequence[Fraction]]) -> list[list[Fraction]]:
    """``zeta`` with the mass on outputs that some group of the rest never shows set to
    0, exactly, and renormalized. Needed for a finite ratio at δ = 0, but not for δ: a
    float optimum may put real mass there when δ > 0, and removing it can move δ far
    from the optimum."""
    G, K = len(data.pi), len(data.m1[0])
    out = []
    for r, row in enumerate(zeta):
        z = [
            Fraction(0) if any(data.pi[g][r] and not data.m2[g][k] for g in range(G)) else v
            for k, v in enumerate(row)
        ]
        total = sum(z, Fraction(0))
        out.append([v / total for v in z] if total else [Fraction(1, K)] * K)
    return out


def _sim_laws(data: LPData, zeta: Sequence[Sequence[Fraction]]) -> list[list[Fraction]]:
    K = len(data.m1[0])
    return [
        [sum((p * zeta[r][k] for r, p in enumerate(pis) if p), Fraction(0)) for k in range(K)]
        for pis in data.pi
    ]


def simulator_delta(data: LPData, t: Fraction, zeta: Sequence[Sequence[Fraction]]) -> Fraction:
    """The LP objective of one simulator, exactly: an upper bound on ``δ_LP(t)``.

    Args:
        data: the block's ``π`` and output masses.
        t: ``e^ε``, rational.
        zeta: one probability vector over the output points per rest (each sums to 1).

    Returns:
        ``max_g max(Σ_k (m1 - t S)_+, Σ_k (S - t m2)_+)``.

    References:
        Desfontaines et al., Section 2.1, Definition 4 (the simulator); Lemma 1 (the
        hockey stick).
    """
    worst = Fraction(0)
    for g, s in enumerate(_sim_laws(data, zeta)):
        one = sum(
            (max(Fraction(0), a - t * b) for a, b in zip(data.m1[g], s, strict=True)), Fraction(0)
        )
        two = sum(
            (max(Fraction(0), b - t * a) for a, b in zip(data.m2[g], s, strict=True)), Fraction(0)
        )
        worst = max(worst, one, two)
    return worst


def simulator_ratio(data: LPData, zeta: Sequence[Sequence[Fraction]]) -> Fraction | None:
    """The smallest ``t`` at which one simulator meets δ = 0 (None: no ``t`` does).

    Args:
        data: the block's ``π`` and output masses.
        zeta: one probability vector over the output points per rest.

    Returns:
        ``max_{g,k} max(m1/S, S/m2)`` exactly, at least 1.

    References:
        Desfontaines et al., Section 2.1, Definition 4.
    """
    worst = Fraction(1)
    for g, s in enumerate(_sim_laws(data, zeta)):
        for a, b, c in zip(data.m1[g], data.m2[g], s, strict=True):
            if (a and not c) or (c and not b):
                return None
            if a:
                worst = max(worst, a / c)
            if c:
                worst = max(worst, c / b)
    return worst


def dual_bound(
    data: LPData,
    t: Fraction,
    dual: tuple[Sequence[Fraction], Sequence[Fraction], Matrix | Any, Matrix | Any],
) -> Fraction:
    """A lower bound on ``δ_LP(t)`` from any dual weights (weak duality), exactly.

    The weights are first made feasible: ``α, β ≥ 0`` scaled to ``Σ α + β ≤ 1``, then
    ``u`` clipped to ``[0, α_g]`` and ``v`` to ``[0, β_g]``.

    Args:
        data: the block's ``π`` and output masses.
        t: ``e^ε``, rational.
        dual: ``(α, β, u, v)`` candidates (any values).

    Returns:
        ``Σ_{g,k} (u m1 - t v m2) - Σ_r max_k Σ_g π_g(r) (t u - v)``.

    References:
        Desfontaines et al., Section 2.1, Definition 4; LP weak duality (Dantzig,
        Linear Programming and Extensions, 1963).
    """
    alpha, beta, u, v = dual
    alpha = [max(Fraction(0), a) for a in alpha]
    beta = [max(Fraction(0), b) for b in beta]
    total = sum(alpha, Fraction(0)) + sum(beta, Fraction(0))
    if total > 1:
        alpha = [a / total for a in alpha]
        beta = [b / total for b in beta]
    G, K = len(data.m1), len(data.m1[0])
    uu = [[min(max(Fraction(0), u[g][k]), alpha[g]) for k in range(K)] for g in range(G)]
    vv = [[min(max(Fraction(0), v[g][k]), beta[g]) for k in range(K)] for g in range(G)]
    value = Fraction(0)
    for g in range(G):
        for k in range(K):
            value += uu[g][k] * data.m1[g][k] - t * vv[g][k] * data.m2[g][k]
    for r in range(len(data.pi[0])):
        value -= max(
            sum(
                (data.pi[g][r] * (t * uu[g][k] - vv[g][k]) for g in range(G) if data.pi[g][r]),
                Fraction(0),
            )
            for k in range(K)
        )
    return value


_PREC = 96  # bits of the balls the output masses are enclosed in


def _tanh_half(w: Fraction, lam: Fraction) -> tuple[Fraction, Fraction]:
    """``tanh(w / 2λ) = (1 - e^{-w/λ}) / (1 + e^{-w/λ})``, enclosed."""
    e = ExpPoly({-w / lam: Fraction(1)})
    one = ExpPoly.constant(1)
    return ratio_enclosure(one - e, one + e, _PREC)


def laplace_lp_data(
    pi: Matrix, centres: Sequence[Mapping[Fraction, Fraction]], lam: Fraction, n: int
) -> tuple[LPData, LPData]:
    """The two finite LPs that enclose a block's δ under Laplace noise.

    ``centres[g]`` is the law of the query value for group ``g``. The nodes are every
    query value and ``n - 1`` more, evenly spaced, in each gap between two of them.

    Args:
        pi: ``π[g][r]``, the law of the rest in each group.
        centres: the law of the query value in each group.
        lam: the Laplace scale λ.
        n: the cells per gap between consecutive query values.

    Returns:
        ``(lower, upper)``: the cell-mass LP (a post-processing: its δ_LP is a lower
        bound) and the node-mass LP of exponential-spline simulators (an upper bound);
        masses rounded outward.

    References:
        Desfontaines et al., Section 2.1, Definition 4; Li et al. (2019), Section 3.2,
        Eq. 2 (the Laplace mixtures).
    """
    points = sorted({v for c in centres for v in c})
    nodes = [
        a + (b - a) * Fraction(j, n)
        for a, b in zip(points, points[1:], strict=False)
        for j in range(n)
    ]
    nodes.append(points[-1])
    tau: dict[Fraction, tuple[Fraction, Fraction]] = {}
    for a, b in zip(nodes, nodes[1:], strict=False):
        if b - a not in tau:
            tau[b - a] = _tanh_half(b - a, lam)
    one = ExpPoly.constant(1)
    dens = [
        [ratio_enclosure(laplace_mixture_at(c, lam, x), one, _PREC) for x in nodes] for c in centres
    ]  # 2λ times the density
    half = Fraction(1, 2)
    lo_cells: list[tuple[Fraction, ...]] = []
    hi_cells: list[tuple[Fraction, ...]] = []
    lo_nodes: list[tuple[Fraction, ...]] = []
    hi_nodes: list[tuple[Fraction, ...]] = []
    K = len(nodes)
    for d in dens:
        cl, ch = [half * d[0][0]], [half * d[0][1]]
        for k in range(K - 1):
            t0, t1 = tau[nodes[k + 1] - nodes[k]]
            cl.append(half * t0 * (d[k][0] + d[k + 1][0]))
            ch.append(half * t1 * (d[k][1] + d[k + 1][1]))
        cl.append(half * d[-1][0])
        ch.append(half * d[-1][1])
        nl, nh = [], []
        for k in range(K):
            wl = (Fraction(1), Fraction(1)) if k == 0 else tau[nodes[k] - nodes[k - 1]]
            wr = (Fraction(1), Fraction(1)) if k == K - 1 else tau[nodes[k + 1] - nodes[k]]
            nl.append(half * (wl[0] + wr[0]) * d[k][0])
            nh.append(half * (wl[1] + wr[1]) * d[k][1])
        lo_cells.append(tuple(cl))
        hi_cells.append(tuple(ch))
        lo_nodes.append(tuple(nl))
        hi_nodes.append(tuple(nh))
    return (
        LPData(pi, tuple(lo_cells), tuple(hi_cells)),
        LPData(pi, tuple(hi_nodes), tuple(lo_nodes)),
    )


def _float_threshold(data: LPData, target: float, lo: float, hi: float, steps: int) -> float:
    """Float bisection (candidates only) for the smallest ``t`` with ``δ_LP(t) <= target``
    in ``[lo, hi]`` (``hi`` assumed to satisfy it)."""
    for _ in range(steps):
        mid = math.sqrt(lo) * math.sqrt(hi)  # lo * hi may overflow
        if Candidate(data, mid, with_dual=False).value <= target:
            hi = mid
        else:
            lo = mid
    return hi


def _repairs(data: LPData, zeta: list[list[Fraction]], t: Fraction) -> list[list[list[Fraction]]]:
    """The candidate and its mixtures with a simulator that is positive wherever some
    group's masses are: a float solver rounds the small values a large ``t`` asks for
    to 0, which would make the exact ratio infinite."""
    G, K = len(data.pi), len(data.m1[0])
    ref = []
    for r in range(len(data.pi[0])):
        row = [
            sum((data.pi[g][r] * data.m1[g][k] for g in range(G)), Fraction(0)) for k in range(K)
        ]
        for k in range(K):
            if any(data.pi[g][r] and not data.m2[g][k] for g in range(G)):
                row[k] = Fraction(0)
        total = sum(row, Fraction(0))
        ref.append([x / total for x in row] if total else row)
    out = [zeta]
    for eta in (Fraction(1, 10**12), 1 / (t * 10**3), 1 / (t * 10), Fraction(1, 10**6)):
        if 0 < eta < 1:
            out.append(
                [
                    [(1 - eta) * a + eta * b for a, b in zip(z, rr, strict=True)]
                    for z, rr in zip(zeta, ref, strict=True)
                ]
            )
    return out


def threshold(
    low: LPData, up: LPData, delta: Fraction
) -> tuple[Fraction, Fraction, list[list[Fraction]]]:
    """``lo <= t*(δ) <= hi`` for one block (``t*(δ)`` the smallest ``e^ε`` with
    ``δ*(ε) <= δ``), and the simulator ``ζ`` that proves the upper end.

    The upper end is a rational ``t`` at which an explicit simulator meets δ on ``up``
    (:func:`simulator_delta`; at δ = 0 its exact ratio, :func:`simulator_ratio`); the
    lower end is a rational ``t`` at which dual weights prove ``δ_LP > δ`` on ``low``
    (:func:`dual_bound`), else 1. Floats only propose both.

    Args:
        low: the LP whose δ_LP is a lower bound (the cell masses, or the exact masses).
        up: the LP whose δ_LP is an upper bound (the node masses, or the exact masses).
        delta: δ, a rational in ``[0, 1)``.

    Returns:
        ``(lo, hi, ζ)``: the enclosure of ``t*(δ)`` and the simulator (one probability
        vector over the output points per rest) that meets δ at ``t = hi``.

    Raises:
        Undecided: no simulator was found or certified.

    References:
        Desfontaines et al., Section 2.1, Definition 4; LP weak duality (Dantzig,
        Linear Programming and Extensions, 1963).
    """
    target = float(delta) + 1e-13
    at_one = Candidate(up, 1.0, with_dual=False)
    if at_one.ok and simulator_delta(up, Fraction(1), at_one.zeta) <= delta:
        return Fraction(1), Fraction(1), at_one.zeta  # ε = 0 works, by a simulator
    # upper end: an explicit simulator meeting δ at a rational t
    hi_f = 2.0
    while Candidate(up, hi_f, with_dual=False).value > target:
        hi_f *= 2
        if hi_f > 2.0**64:
            raise Undecided("distributional DP epsilon (no simulator found)", 0)
    t_up = _float_threshold(up, target, 1.0, hi_f, 34)
    upper: Fraction | None = None
    zeta: list[list[Fraction]] = []
    for bump in (1e-12, 1e-9, 1e-6, 1e-3):
        t = _grid(t_up * (1 + bump))
        cand = Candidate(up, float(t), with_dual=False)
        if not cand.ok:
            continue
        if delta == 0:
            best = None
            for z in _repairs(up, cand.supported, t):
                r = simulator_ratio(up, z)
                if r is not None and (best is None or r < best[0]):
                    best = (r, z)
            if best is not None:
                upper, zeta = best
                break
        elif simulator_delta(up, t, cand.zeta) <= delta:
            upper, zeta = t, cand.zeta
            break
    if upper is None:
        raise Undecided("distributional DP epsilon (simulator not certified)", 0)
    # lower end: dual weights proving δ_LP > δ at a rational t
    lower = Fraction(1)
    if Candidate(low, 1.0, with_dual=False).value > target:
        t_low = _float_threshold(low, target, 1.0, max(hi_f, proposal_float(upper)), 34)
        for bump in (1e-12, 1e-9, 1e-6, 1e-3, 1e-1):
            t = max(Fraction(1), _grid(t_low * (1 - bump)))
            cand = Candidate(low, float(t))
            if cand.ok and dual_bound(low, t, cand.dual) > delta:
                lower = t
                break
    return lower, upper, zeta

"""Certified upper bounds of Li et al.'s Eq. 2 over a box of binary Markov chains.

A member of an interval class of binary chains is given by the rows ``(1 - x, x)`` of its
transition matrix (and, when it is an interval, of its initial law). For a target ``i``,
a known assignment and a value ``a``, the unnormalized count law is
``J_a(c) = sum_paths [S = c, x_i = a] init(x_1) prod_t P[x_t][x_{t+1}]``: a polynomial
with **non-negative coefficients** in the entries ``e`` of the rows (a stationary start
is ``pi_s = A_s / (A_0 + A_1)`` with ``A_0 = P[1][0]``, ``A_1 = P[0][1]``: the
normalizer cancels in Eq. 2's ratio of conditional laws, so ``init = (P[1][0], P[0][1])``
is used, again a monomial in the entries). So are the Laplace mixtures
``N_a(r) = sum_c J_a(c) q^{|r - c|}`` and the totals ``D_a = J_a(1)``.

**Log-convexity.** In the coordinates ``u = ln e`` each of them is a sum of exponentials
of linear forms of ``u``, so ``ln N_a(r)`` and ``ln D_a`` are convex in ``u`` (Boyd and
Vandenberghe, Convex Optimization, 2004, Sec. 3.1.5, log-sum-exp) and increasing in
every coordinate. Eq. 2's term for the ordered pair ``(a, b)`` at output ``r`` is the
difference of convex functions::

    f = [ln N_a(r) + ln D_b] - [ln D_a + ln N_b(r)] = C_1 - C_2.

With ``g`` the gradient of ``C_2`` at the box's centre ``u_m``, convexity gives
``C_2(u) >= C_2(u_m) + g . (u - u_m)``, so ``f(u) <= C_1(u) - g . (u - u_m) - C_2(u_m)``,
a **convex** function of ``u``, whose sup over a polytope is taken at a vertex.

**The polytope.** A row ``(1 - x, x)``, ``x`` in ``[a, b]``, is the arc
``u(x) = (ln(1 - x), ln x)``: the boundary of the convex set ``e^{u_0} + e^{u_1} <= 1``.
Its tangent at ``x`` is ``(1 - x) u_0 + x u_1 = x ln x + (1 - x) ln(1 - x)`` (Gibbs'
inequality puts the whole arc on one side), so the arc from ``u(a)`` to ``u(b)`` lies in
the triangle of ``u(a)``, ``u(b)`` and the tangents' intersection ``V``::

    V_0 = (b c_a - a c_b) / (b - a),  V_1 = ((1 - a) c_b - (1 - b) c_a) / (b - a),
    c_x = x ln x + (1 - x) ln(1 - x).

A box of rows is in the product of the triangles, whose vertices are the tuples of
triangle vertices (3 per free row). At ``V`` the entries ``e^{V}`` are replaced by rational
upper bounds (the convex bound is increasing in the entries' part ``C_1``) and the linear
term uses enclosures of ``V``'s coordinates. The bound's excess over the sup of ``f`` is
of the second order in the box's width (the curvature of ``C_2``, and the triangles'
height, ``O(w^2)``), so a branch and bound on it converges. A row that may be 0 or 1 (an
end of its interval is 0 or 1) has no finite ``u(a)``: such a box is bounded with the
monotone bound ``C_2(u) >= C_2(w)``, ``w`` the lower corner of the entries (first order).

**Floats with a proven error.** Every quantity above is a sum of products of
non-negative floats: the forward-backward on count vectors (each step rescaled by a
power of two, exact), the convolutions ``F * B``, the mixture recurrences
``L(c) = q L(c - 1) + J(c)`` and the gradients (``e d/de`` of a polynomial with
non-negative coefficients has non-negative coefficients). Each computed value is
``x e^theta + alpha`` with ``x`` the exact one, ``|theta| <= d u'`` (``d`` the roundings
on its longest path, ``u' = -ln(1 - 2^-53)``; Higham, *Accuracy and Stability of
Numerical Algorithms*, 2nd ed., Sec. 3.1, Lemma 3.1, and Sec. 2.2 for underflow) and
``alpha`` the underflows' absolute error, at most ``2^-1022`` per operation. The
``alpha`` are carried as L1 norms (:mod:`pdpsym.loss.class_float_laws`): a step spreads them by
at most its largest row sum, a rescaling scales them, a convolution of vectors adds
``|alpha_F|_1 |B|_1 + |alpha_B|_1 |F|_1``, a mixture (kernel at most 1) passes on its
law's. Every logarithm is then taken of the value minus (lower end) or plus (upper end)
its slack, rounded outward (:func:`pdpsym.core.balls.float_log_bounds`, proven), so a
tail far below float range costs digits, never soundness (a value below its slack has
no finite lower log: the box's bound is ``+inf``). ``q = e^{-rate}`` carries its own
proven relative error (from a ball), and the final sums get a slack of ``64 u`` times
the sum of the absolute values of their terms (at most 16 terms, each addition erring
by ``u`` relatively to that sum).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from pdpsym.core.balls import (
    Ball,
    arb_from_fraction,
    ball_endpoints,
    float_log_bounds,
    working_precision,
)
from pdpsym.core.numbers import float_above
from pdpsym.loss.class_float_laws import (
    LN2,
    ChainShape,
    PointLaws,
    eta_bound,
    evaluate_many,
    rate_q,
)

Interval = tuple[Fraction, Fraction]


@dataclass(frozen=True)
class RowVertices:
    """One free row's triangle (or its lower corner): the vertices' rational entries,
    whether each is a member row, enclosures of their ``u`` coordinates, and the
    centre's."""

    entries: tuple[tuple[Fraction, Fraction], ...]
    member: tuple[bool, ...]
    u: tuple[tuple[Interval, Interval], ...]
    centre: tuple[Fraction, Fraction]
    u_centre: tuple[Interval, Interval] | None
    corner: tuple[Fraction, Fraction]
    touches: bool


def _c(x: Fraction, prec: int) -> Ball:
    if x in (0, 1):
        return Ball(0)
    xa = arb_from_fraction(x)
    return xa * xa.log() + (1 - xa) * (1 - xa).log()


def row_vertices(a: Fraction, b: Fraction) -> RowVertices:
    """The triangle of the arc ``x in [a, b]`` (module docstring), exactly bounded.

    Args:
        a: the lower end of the row's parameter.
        b: the upper end (``> a``).

    Returns:
        The :class:`RowVertices`.

    References:
        Boyd and Vandenberghe (2004), Sec. 3.1.3 (a convex set lies on one side of each
        supporting line) and Sec. 3.1.5 (log-sum-exp is convex).
    """
    m = (a + b) / 2
    touches = a == 0 or b == 1
    prec = 96 + 2 * max((b - a).denominator.bit_length(), (b - a).numerator.bit_length())
    for _ in range(6):
        with working_precision(prec):
            ca, cb = _c(a, prec), _c(b, prec)
            fa, fb = arb_from_fraction(a), arb_from_fraction(b)
            w = fb - fa
            v0 = (fb * ca - fa * cb) / w
            v1 = ((1 - fa) * cb - (1 - fb) * ca) / w
            e0, e1 = ball_endpoints(v0.exp())[1], ball_endpoints(v1.exp())[1]
            u0, u1 = ball_endpoints(v0), ball_endpoints(v1)
            if u0[1] - u0[0] < Fraction(1, 2**60) and u1[1] - u1[0] < Fraction(1, 2**60):
                break
        prec *= 2

    def logs(x: Fraction) -> tuple[Interval, Interval]:
        with working_precision(prec):
            return (
                ball_endpoints(arb_from_fraction(1 - x).log()),
                ball_endpoints(arb_from_fraction(x).log()),
            )

    verts = [(1 - a, a), (1 - b, b), (_frac_up(e0), _frac_up(e1))]
    us: list[tuple[Interval, Interval]] = []
    for x in (a, b):
        us.append(logs(x) if 0 < x < 1 else ((Fraction(0), Fraction(0)),) * 2)
    us.append((u0, u1))
    return RowVertices(
        tuple(verts),
        (True, True, False),
        tuple(us),
        (1 - m, m),
        None if touches else logs(m),
        (1 - b, a),
        touches,
    )


def _frac_up(x: Fraction) -> Fraction:
    """A shorter rational ``>= x`` (60 bits after the leading one)."""
    if x <= 0:
        return x
    e = x.numerator.bit_length() - x.denominator.bit_length()
    scale = Fraction(2) ** (60 - e)
    return Fraction(math.ceil(x * scale)) / scale


@dataclass(frozen=True)
class BoxBound:
    """A box's bound: per target, a proven upper bound of Eq. 2 over the box (``inf``
    when a guard failed) and a float estimate at the centre; per member vertex (a tuple
    of row parameters), float estimates (they rank candidates, never decide)."""

    upper: dict[int, float]
    centre: dict[int, float]
    vertices: dict[tuple[Fraction, ...], dict[int, float]]


def _estimates(pt: PointLaws, positions: Sequence[int], n_assign: int) -> dict[int, float]:
    """Float estimates of every target's Eq. 2 at a point (they rank candidates, never
    decide): per target, the max over assignments, ordered pairs and outputs of
    ``ln N_a - ln D_a + ln D_b - ln N_b``, all in one vectorized pass."""
    out = {p: -math.inf for p in positions}
    keys = [k for k in pt.N if pt.D[k] > 0]
    if not keys:
        return out
    at = {k: i for i, k in enumerate(keys)}
    ia: list[int] = []
    ib: list[int] = []
    owner: list[int] = []
    for p in positions:
        for ai in range(n_assign):
            for a, b in ((0, 1), (1, 0)):
                ka, kb = (p, ai, a), (p, ai, b)
                if ka in at and kb in at:
                    ia.append(at[ka])
                    ib.append(at[kb])
                    owner.append(p)
    if not ia:
        return out
    with np.errstate(divide="ignore", invalid="ignore"):
        ln_n = np.log(np.array([pt.N[k] for k in keys]))
        ln_d = np.log(np.array([pt.D[k] for k in keys]))
        ja, jb = np.array(ia), np.array(ib)
        v = ln_n[ja] - ln_d[ja][:, None] + ln_d[jb][:, None] - ln_n[jb]
        best = np.max(v, axis=1)
    for p, b in zip(owner, best.tolist(), strict=True):
        if b > out[p]:
            out[p] = b
    return out


def box_bound(
    shape: ChainShape,
    box: Sequence[Interval],
    positions: Sequence[int],
    assignments: Sequence[Mapping[int, int]],
    rate: Fraction,
) -> BoxBound:
    """Proven upper bounds of every target's Eq. 2 over a box of member chains.

    Args:
        shape: the chain's fixed part.
        box: per row (``x_0``, ``x_1`` and, for an interval start, ``y``) its interval.
        positions: the targets (0-based).
        assignments: the known records' states (one mapping per assignment; Eq. 2 is the
            max over them).
        rate: ``1/lambda`` in count units.

    Returns:
        The :class:`BoxBound`.

    References:
        Li et al. (2019), Sec. III, Eq. 2; the bound is the module docstring's
        (log-convexity, a difference of convex functions bounded by linearizing the
        concave part: Horst and Thoai, "DC programming: overview", JOTA 103 (1999)).
    """
    q, rho = rate_q(rate)
    eta = eta_bound(shape, rho)
    rows: list[RowVertices | None] = []
    for a, b in box:
        rows.append(None if a == b else row_vertices(a, b))
    fallback = any(r is not None and r.touches for r in rows)
    centre_entries: list[Fraction] = []
    corner_entries: list[Fraction] = []
    dv: list[int] = []
    for j, ((a, _), rv) in enumerate(zip(box, rows, strict=True)):
        if rv is None:
            centre_entries += [1 - a, a]
            corner_entries += [1 - a, a]
        else:
            centre_entries += list(rv.centre)
            corner_entries += list(rv.corner)
            dv += [2 * j, 2 * j + 1]
    inf = {p: math.inf for p in positions}
    choices = [range(1) if rv is None else range(3) for rv in rows]
    combos = list(itertools.product(*choices))
    vert_entries: list[list[Fraction]] = []
    for combo in combos:
        entries: list[Fraction] = []
        for j, (ci, rv) in enumerate(zip(combo, rows, strict=True)):
            entries += [1 - box[j][0], box[j][0]] if rv is None else list(rv.entries[ci])
        vert_entries.append(entries)
    pts = [(centre_entries, () if fallback else dv)] + [(e, ()) for e in vert_entries]
    if fallback:
        pts.append((corner_entries, ()))
    evals = evaluate_many(shape, pts, positions, assignments, q)
    centre = evals[0]
    ref = evals[-1] if fallback else centre
    est = _estimates(centre, positions, len(assignments))
    if not centre.ok or not ref.ok:
        return BoxBound(inf, est, {})
    upper = {p: -math.inf for p in positions}
    member_est: dict[tuple[Fraction, ...], dict[int, float]] = {}
    # the reference point's part, per (target, assignment, ordered pair): the lower
    # bound of C_2 there and the gradient of C_2 (per derivative entry and output)
    ref_logs_n, ref_logs_d = _logs(ref, lower=True)
    terms: list[
        tuple[int, int, int, int, np.ndarray, tuple[np.ndarray, np.ndarray] | None, float]
    ] = []
    for p in positions:
        for ai in range(len(assignments)):
            for sa, sb in ((0, 1), (1, 0)):
                ka, kb = (p, ai, sa), (p, ai, sb)
                if ka not in centre.N or kb not in centre.N:
                    continue  # not both values possible anywhere in the box
                if centre.D[ka] <= 0 or centre.D[kb] <= 0:
                    continue
                if ka not in ref.N or kb not in ref.N or ref.D[ka] <= 0:
                    upper[p] = math.inf  # the corner loses a value: no finite bound
                    continue
                e_ref = ref.E[(p, ai)] * LN2
                c2 = ref_logs_d[ka] + ref_logs_n[kb] + 2 * e_ref - 2 * eta
                g = None
                if not fallback and dv:
                    g = _gradient_bounds(ref, ka, kb, eta)
                terms.append((p, ai, sa, sb, c2, g, e_ref))
    term_keys = [t[:4] for t in terms]
    n1 = shape.span + 1
    c2_all = np.array([t[4] for t in terms]) if terms else np.zeros((0, n1))
    e_ref_all = np.array([t[6] for t in terms])
    g_lo_all = g_hi_all = None
    if terms and terms[0][5] is not None:
        g_lo_all = np.array([t[5][0] for t in terms])  # type: ignore[index]
        g_hi_all = np.array([t[5][1] for t in terms])  # type: ignore[index]
    for combo, pt in zip(combos, evals[1 : 1 + len(combos)], strict=True):
        is_member = True
        theta: list[Fraction] = []
        for j, (ci, rv) in enumerate(zip(combo, rows, strict=True)):
            if rv is None:
                theta.append(box[j][0])
            else:
                is_member = is_member and rv.member[ci]
                theta.append(rv.entries[ci][1])
        if not pt.ok:
            return BoxBound(inf, est, member_est)
        if is_member:
            member_est[tuple(theta)] = _estimates(pt, positions, len(assignments))
        # the linear term's coordinates: delta = u_m - v per derivative entry
        dhi: list[float] = []
        if not fallback:
            for ci, rv in zip(combo, rows, strict=True):
                if rv is None:
                    continue
                assert rv.u_centre is not None
                for col in range(2):
                    um, vv = rv.u_centre[col], rv.u[ci][col]
                    dhi.append(float_above(um[1] - vv[0]))
        dhi_a = np.array(dhi)[:, None] if dhi else np.zeros((0, 1))
        logs_n, logs_d = _logs(pt, lower=False)
        # every term at once (K terms, one row each); a term whose value is impossible at
        # this vertex is left out (its term is -inf)
        rows_k = [
            k
            for k, (p, ai, sa, sb) in enumerate(term_keys)
            if (p, ai, sa) in pt.N and (p, ai, sb) in pt.N
        ]
        if not rows_k:
            continue
        sel = np.array(rows_k)
        c1 = np.array([logs_n[(term_keys[k][0], term_keys[k][1], term_keys[k][2])] for k in rows_k])
        d_b = np.array(
            [logs_d[(term_keys[k][0], term_keys[k][1], term_keys[k][3])] for k in rows_k]
        )
        e_v = np.array([pt.E[(term_keys[k][0], term_keys[k][1])] * LN2 for k in rows_k])
        c1 = c1 + d_b[:, None] + 2 * e_v[:, None] + 2 * eta
        c2, e_ref = c2_all[sel], e_ref_all[sel]
        if g_lo_all is not None and g_hi_all is not None:
            # the largest g . delta over g in [g_lo, g_hi] (g >= 0) and delta <= dhi
            d3 = dhi_a[None, :, :]
            with np.errstate(invalid="ignore"):
                gl = np.where(d3 >= 0, g_hi_all[sel] * d3, g_lo_all[sel] * d3)
            gl = np.where(d3 == 0, 0.0, gl)
            lin = gl.sum(axis=1)
            absl = np.abs(gl).sum(axis=1)
        else:
            lin = absl = np.zeros_like(c1)
        with np.errstate(invalid="ignore"):
            val = c1 + lin - c2
            slack = (
                64
                * 2.0**-53
                * (np.abs(c1) + absl + np.abs(c2) + 4 * (np.abs(e_v) + np.abs(e_ref))[:, None])
            )
            tot = val + slack
        tot = np.where(np.isnan(tot), math.inf, tot)
        for k, m in zip(rows_k, np.max(tot, axis=1).tolist(), strict=True):
            p = term_keys[k][0]
            if m > upper[p]:
                upper[p] = m
    return BoxBound(upper, est, member_est)


def _gradient_bounds(
    pt: PointLaws, ka: tuple[int, int, int], kb: tuple[int, int, int], eta: float
) -> tuple[np.ndarray, np.ndarray]:
    """Bounds ``[g_lo, g_hi]`` (per derivative entry and output) of the gradient of
    ``C_2 = ln D_a + ln N_b(r)`` in the log entries: ``dD_a / D_a + dN_b / N_b``, each
    value within ``e^{+-eta}`` of the computed one up to its absolute slack, and the
    float divisions and sum within 4 roundings."""
    grow, shrink = math.exp(eta) * (1 + 2.0**-50), math.exp(-eta) * (1 - 2.0**-50)
    with np.errstate(divide="ignore", invalid="ignore"):
        d_lo = max(pt.D[ka] - pt.A[ka], 0.0) * shrink
        d_hi = (pt.D[ka] + pt.A[ka]) * grow
        dd_lo = np.maximum(pt.dD[ka] - pt.dA[ka], 0.0) * shrink
        dd_hi = (pt.dD[ka] + pt.dA[ka]) * grow
        n_lo = np.maximum(pt.N[kb] - pt.A[kb], 0.0) * shrink
        n_hi = (pt.N[kb] + pt.A[kb]) * grow
        dn_lo = np.maximum(pt.dN[kb] - pt.dA[kb][:, None], 0.0) * shrink
        dn_hi = (pt.dN[kb] + pt.dA[kb][:, None]) * grow
        hi = (np.where(d_lo > 0, dd_hi / d_lo, np.inf)[:, None]) + np.where(
            n_lo[None, :] > 0, dn_hi / n_lo[None, :], np.inf
        )
        lo = (dd_lo / d_hi)[:, None] + dn_lo / n_hi[None, :]
    return lo * (1 - 2.0**-50), np.where(np.isnan(hi), np.inf, hi) * (1 + 2.0**-50)


def _logs(
    pt: PointLaws, lower: bool
) -> tuple[dict[tuple[int, int, int], np.ndarray], dict[tuple[int, int, int], float]]:
    """Proven log bounds (lower or upper ends) of every mixture array and total of a
    point, from one vectorized call, with each value's absolute slack taken off (lower)
    or added (upper), rounded outward."""
    keys = list(pt.N)
    if not keys:
        return {}, {}
    n1 = len(pt.N[keys[0]])
    vals = np.concatenate([pt.N[k] for k in keys] + [np.array([pt.D[k] for k in keys])])
    slack = np.concatenate(
        [np.full(n1, pt.A[k]) for k in keys] + [np.array([pt.A[k] for k in keys])]
    ) * (1 + 2.0**-50)
    if lower:
        flat = np.nextafter(vals - slack, -np.inf)
    else:
        flat = np.nextafter(vals + slack, np.inf)
    out = np.full(flat.shape, -np.inf)
    pos = flat > 0
    if pos.any():
        lo, hi = float_log_bounds(flat[pos])
        out[pos] = lo if lower else hi
    logs_n = {k: out[i * n1 : (i + 1) * n1] for i, k in enumerate(keys)}
    base = len(keys) * n1
    logs_d = {k: float(out[base + i]) for i, k in enumerate(keys)}
    return logs_n, logs_d


__all__ = [
    "BoxBound",
    "box_bound",
    "RowVertices",
    "row_vertices",
]

"""Proven upper bounds of Li et al.'s Eq. 2 over a sub-box of a k-state interval chain.

On a sub-box every transition entry (and initial probability) lies in an exact interval
(:meth:`~pdpsym.models.interval_chain_k.IntervalChainK.entries`; the stationary law by the
Markov chain tree theorem, ``pi_j = w_j / sum w`` with ``w`` increasing in every entry).
The forward-backward pass of the count law (prefix ``alpha_t(s, c)``, suffix
``beta_t(s, c)``, Li et al. Sec. IV) multiplies and adds **non-negative** numbers only, so
it runs twice, once on the lower ends and once on the upper ends, and encloses every
joint ``J(a, c) = P(x_i = a, x_K = v, S = c)`` of every member in the sub-box.

Eq. 2 for the pair ``(a, b)`` is the sup over ``y`` of ``log (N_a(y) / D_a) (D_b /
N_b(y))`` with ``N_a(y) = sum_c J(a, c) e^{-|y - c| r}`` and ``D_a = sum_c J(a, c)``; by
the breakpoint lemma (between two consecutive counts the ratio is a Moebius function of
``e^{2 r y}``, so monotone; beyond the last it is constant) the sup is a max over the
integer counts ``y``. Each factor is bounded by the interval ends (numerators up,
denominators down).

**Rounding.** Float64 in round-to-nearest. Every quantity is a sum of products of
non-negative numbers, so each computed value is the true one times ``(1 + theta)``,
``|theta| <= gamma_n = n u / (1 - n u)`` (``u = 2^-53``, ``n`` the roundings on its
longest path; Higham, Accuracy and Stability, Lemma 3.1 and Sec. 3.1), provided no
operation underflows. Underflow is excluded: lower ends below ``floor`` are set to 0 and
upper ends below it raised to it (both sound), and kernel values below ``2^-200`` likewise,
where ``floor^(2T + 1) 2^-200 >= 2^-1000``: every non-zero product then stays in the normal
range. ``n`` is taken at twice the longest path, and the bound is widened by ``gamma_n``
on each side. A non-finite result gives no bound (``inf``).

References:
    Li et al. (2019), Sec. III, Eq. 2 and Sec. IV (the breakpoint lemma); Higham,
    Accuracy and Stability of Numerical Algorithms, 2nd ed. (2002), Ch. 3; Moore, Kearfott,
    Cloud, Introduction to Interval Analysis (2009), Ch. 5.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from pdpsym.loss.class_kstate_meanvalue import MeanValue, entry_bounds
from pdpsym.models.interval_chain_k import Box, IntervalChainK

_U = 2.0**-53
_KERNEL_FLOOR = 2.0**-200


@dataclass(frozen=True)
class KShape:
    """What the passes need of the chain besides the sub-box: the contributions table
    ``c_t(s)``, the count rate ``1 / (lambda D)``, the targets' positions and the known
    records' assignments (position -> state)."""

    table: tuple[tuple[int, ...], ...]
    rate: float
    targets: tuple[int, ...]
    assignments: tuple[dict[int, int], ...]


def _joints(
    p: np.ndarray,
    init: np.ndarray,
    shape: KShape,
    assign: dict[int, int],
    span: int,
    dvars: Sequence[tuple[int, int]] = (),
) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray]]:
    """``J(a, c)`` per target position (rows ``a``), by one forward and one backward pass,
    and its derivatives in the entries ``dvars`` (``(s, s')`` a transition entry,
    ``(-1, s)`` an initial probability): arrays ``[var, a, c]``. The derivative of a
    polynomial with non-negative coefficients has non-negative coefficients, so these
    passes too multiply and add non-negative numbers only."""
    T = len(shape.table)
    k = p.shape[0]
    n = span + 1
    m = len(dvars)

    def mask(t: int, a: np.ndarray) -> np.ndarray:
        if t in assign:
            keep = np.zeros_like(a)
            keep[..., assign[t], :] = a[..., assign[t], :]
            return keep
        return a

    def shifted(a: np.ndarray, t: int) -> np.ndarray:
        out = np.zeros_like(a)
        for s in range(k):
            c = shape.table[t][s]
            out[..., s, c:] = a[..., s, : n - c]
        return out

    a0 = np.zeros((k, n))
    a0[:, 0] = init
    da0 = np.zeros((m, k, n))
    for v, (u, w) in enumerate(dvars):
        if u < 0:
            da0[v, w, 0] = 1.0
    alpha = [mask(0, shifted(a0, 0))]
    dalpha = [mask(0, shifted(da0, 0))]
    pt = p.T
    for t in range(1, T):
        prev, dprev = alpha[-1], dalpha[-1]
        nxt = pt @ prev
        dn = np.matmul(pt, dprev)
        for v, (u, w) in enumerate(dvars):
            if u >= 0:
                dn[v, w] += prev[u]
        alpha.append(mask(t, shifted(nxt, t)))
        dalpha.append(mask(t, shifted(dn, t)))
    beta: list[np.ndarray] = [np.zeros((k, n))] * T
    dbeta: list[np.ndarray] = [np.zeros((m, k, n))] * T
    b = np.zeros((k, n))
    b[:, 0] = 1.0
    db = np.zeros((m, k, n))
    beta[T - 1], dbeta[T - 1] = b, db
    for t in range(T - 2, -1, -1):
        g = mask(t + 1, shifted(b, t + 1))
        dg = mask(t + 1, shifted(db, t + 1))
        b = p @ g
        db = np.matmul(p, dg)
        for v, (u, w) in enumerate(dvars):
            if u >= 0:
                db[v, u] += g[w]
        beta[t], dbeta[t] = b, db
    out, dout = {}, {}
    lag = np.subtract.outer(np.arange(n), np.arange(n))
    below = lag >= 0
    lag = np.where(below, lag, 0)
    for i in shape.targets:
        # conv(x, y)[:n] = Toeplitz(y) @ x: sums of non-negative products, as np.convolve
        a_t = np.where(below, alpha[i][:, lag], 0.0)  # [s, c, c1] = alpha[s][c - c1]
        b_t = np.where(below, beta[i][:, lag], 0.0)
        out[i] = np.einsum("scd,sd->sc", b_t, alpha[i])
        dout[i] = np.einsum("scd,vsd->vsc", b_t, dalpha[i]) + np.einsum(
            "scd,vsd->vsc", a_t, dbeta[i]
        )
    return out, dout


def _kernel(rate: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``e^{-|y - c| rate}`` over counts, as lower and upper float ends (with underflow
    excluded: tiny values to 0 below and to :data:`_KERNEL_FLOOR` above)."""
    d = np.abs(np.subtract.outer(np.arange(n), np.arange(n))).astype(float)
    k = np.exp(-rate * d)
    lo = k * (1 - 4 * _U)
    hi = k * (1 + 4 * _U)
    lo[lo < _KERNEL_FLOOR] = 0.0
    hi[hi < _KERNEL_FLOOR] = _KERNEL_FLOOR
    return lo, hi


def _clip(p_lo: np.ndarray, p_hi: np.ndarray, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """Lower ends below ``floor`` to 0, positive upper ends below it up to it (sound)."""
    return np.where(p_lo < floor, 0.0, p_lo), np.where((p_hi > 0) & (p_hi < floor), floor, p_hi)


def _pair_terms(
    j_lo: np.ndarray, j_hi: np.ndarray, k_lo: np.ndarray, k_hi: np.ndarray, g: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(N_lo, N_hi, D_lo, D_hi)``: the kernel sums ``[a, y]`` and the totals ``[a]`` (or
    with a leading variable axis for derivatives), widened by ``gamma``."""
    return (
        (j_lo @ k_lo.T) * (1 - g),
        (j_hi @ k_hi.T) * (1 + g),
        j_lo.sum(axis=-1) * (1 - g),
        j_hi.sum(axis=-1) * (1 + g),
    )


def box_upper(cls: IntervalChainK, shape: KShape, box: Box) -> dict[int, float] | None:
    """A proven upper bound of Eq. 2 over every member in a sub-box, per target position.

    Two bounds, the smaller taken per output ``y``: the interval ends' quotient (first
    order in the sub-box's width), and the mean-value form ``f(c) + sum_j r_j
    max |d f / d theta_j|`` around a member ``c`` inside the sub-box (the feasible part of
    the sub-box is convex, so the segment from ``c`` stays in it), with ``f`` Eq. 2's
    log-ratio at ``y`` and its derivatives enclosed from the entries' derivatives (a free
    coordinate ``theta_j`` of a row moves ``r_j`` up and ``r_{k-1}`` down: the chain
    rule's difference); a stationary initial law's entries are taken as free variables in
    their enclosures (sound, first order). Second order in the width otherwise.

    Args:
        cls: the class.
        shape: the contributions, rate, targets and known assignments.
        box: the sub-box (a point gives a float estimate of the member's value).

    Returns:
        Per target position, an upper bound (``inf`` when none is found, ``-inf`` when no
        member has two values of positive probability given the known records); None when
        the sub-box holds no member.

    References:
        Li et al. (2019), Sec. III, Eq. 2; Higham (2002), Lemma 3.1; Moore, Kearfott,
        Cloud (2009), Sec. 6.4 (the mean-value form).
    """
    ends = entry_bounds(cls, box)
    if ends is None:
        return None
    T = len(shape.table)
    k = cls.k
    span = sum(max(r) for r in shape.table)
    n = span + 1
    floor = 2.0 ** (-800 / (2 * T + 1))
    p_lo, p_hi = _clip(ends[0], ends[1], floor)
    i_lo, i_hi = _clip(ends[2], ends[3], floor)
    k_lo, k_hi = _kernel(shape.rate, n)
    steps = 2 * (2 * T * (k + 1) + 2 * n + 16)
    g = steps * _U / (1 - steps * _U)
    wide = any(a < b for a, b in box)
    mvf = MeanValue.build(cls, box, lambda lo, hi: _clip(lo, hi, floor)) if wide else None
    dvars = mvf.dvars if mvf is not None else []
    best = dict.fromkeys(shape.targets, -math.inf)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for assign in shape.assignments:
            j_lo, dj_lo = _joints(p_lo, i_lo, shape, assign, span, dvars)
            j_hi, dj_hi = _joints(p_hi, i_hi, shape, assign, span, dvars)
            if mvf is not None:
                jc_lo, _ = _joints(mvf.cp_lo, mvf.ci_lo, shape, assign, span)
                jc_hi, _ = _joints(mvf.cp_hi, mvf.ci_hi, shape, assign, span)
            for i in shape.targets:
                n_lo, n_hi, d_lo, d_hi = _pair_terms(j_lo[i], j_hi[i], k_lo, k_hi, g)
                if mvf is not None:
                    c_n_lo, c_n_hi, c_d_lo, c_d_hi = _pair_terms(jc_lo[i], jc_hi[i], k_lo, k_hi, g)
                    dn_lo, dn_hi, dd_lo, dd_hi = _pair_terms(dj_lo[i], dj_hi[i], k_lo, k_hi, g)
                live = [a for a in range(k) if d_hi[a] > 0]
                if len(live) < 2:
                    continue
                if np.any(d_lo[live] <= 0) or not np.all(n_lo[live] > 0):
                    best[i] = math.inf
                    continue
                pairs = [(a, b) for a in live for b in live if a != b]
                A = np.array([a for a, _ in pairs])
                B = np.array([b for _, b in pairs])
                # every pair (a, b) at once: arrays [pair, y] (and [var, pair, y])
                r = (n_hi[A] / d_lo[A, None]) * (d_hi[B, None] / n_lo[B]) * (1 + 8 * _U)
                logs = np.log(r)
                if mvf is not None:
                    fc = np.log(
                        (c_n_hi[A] / c_d_lo[A, None]) * (c_d_hi[B, None] / c_n_lo[B]) * (1 + 8 * _U)
                    )
                    # d f = dN_a/N_a - dD_a/D_a - dN_b/N_b + dD_b/D_b, each enclosed
                    t1 = (dn_lo[:, A] / n_hi[A], dn_hi[:, A] / n_lo[A])
                    t2 = (dd_lo[:, A] / d_hi[A], dd_hi[:, A] / d_lo[A])
                    t3 = (dn_lo[:, B] / n_hi[B], dn_hi[:, B] / n_lo[B])
                    t4 = (dd_lo[:, B] / d_hi[B], dd_hi[:, B] / d_lo[B])
                    glo = t1[0] - t2[1][..., None] - t3[1] + t4[0][..., None]
                    ghi = t1[1] - t2[0][..., None] - t3[0] + t4[1][..., None]
                    mag = np.abs(t1[0]) + np.abs(t1[1]) + np.abs(t3[0]) + np.abs(t3[1])
                    mag = mag + (np.abs(t2[0]) + np.abs(t2[1]))[..., None]
                    mag = mag + (np.abs(t4[0]) + np.abs(t4[1]))[..., None]
                    glo = glo - 8 * _U * mag
                    ghi = ghi + 8 * _U * mag
                    mv = fc + np.abs(fc) * 8 * _U + mvf.correction(glo, ghi)
                    logs = np.where(np.isfinite(mv), np.minimum(logs, mv), logs)
                top = float(np.max(logs))
                if not math.isfinite(top):
                    best[i] = math.inf
                    continue
                best[i] = max(best[i], math.nextafter(top + 4 * _U * abs(top), math.inf))
    return best


def point_estimate(
    cls: IntervalChainK, shape: KShape, theta: Sequence[Fraction]
) -> dict[int, float]:
    """A float estimate of a member's Eq. 2 per target (to rank candidates only).

    Args:
        cls: the class.
        shape: the passes' shape.
        theta: the member's parameters.

    Returns:
        Per target position, the bound of the point sub-box (an estimate a few roundings
        above the value).

    References:
        Li et al. (2019), Sec. III, Eq. 2.
    """
    out = box_upper(cls, shape, tuple((v, v) for v in theta))
    assert out is not None
    return out


__all__ = ["KShape", "box_upper", "point_estimate"]

"""Certified WHG values in batch, near float64 speed (Li et al. Sec. V: Eq. 2, Eq. 9-11).

Every node's Eq. 2 value and chain-rule value, each as a rigorous enclosure, without a
Python object per candidate. It applies to a binary table (every domain ``{0, 1}``) of
full support, with the sum query, ``n / lambda <= 600`` and a count total below 2^53;
:func:`batch_applies` says whether it does. Elsewhere the per-node exact engine
(:func:`pdpsym.papers.li2019.whg.whg_from_distribution`) runs.

**Eq. 2.** For target ``i`` the integer count table is folded, one other tuple at a
time, into ``m[a, cfg, s]``: the count of ``x_i = a`` with the other tuples in the states
of ``cfg`` (known 0, known 1, or unknown) and the unknowns summing to ``s``. With
``t = r - k`` (``k`` the known sum) the density at every breakpoint is
``D[a, cfg, t] = sum_s m[a, cfg, s] e^{-|a + s - t|/lambda}`` (breakpoint lemma: the sup
of Eq. 2 over r is attained at ``t`` in ``0..n``), and the node's value is
``max |ln R|`` over its configurations and ``t``, with
``R = D[0] P(1, cfg) / (D[1] P(0, cfg))``.

**Rounding bound.** The counts are integers below 2^53, so exact in float64. Each
``e^{-d/lambda}`` is the float nearest an arb enclosure, within relative ``2u``
(``u = 2^-53``). An inner product of ``m`` non-negative terms computed in floating point,
in any order and with or without FMA, is within ``gamma_m = m u / (1 - m u)`` of its
exact value (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., Sec. 3.1),
so each density is within ``eta = (1 + 2u)(1 + gamma_n) - 1``; two products and a
quotient add ``u`` each. Hence ``ln R`` lies in ``ln fl(R) + [ln f_lo, ln f_hi]`` with
``f_lo = (1 - eta)(1 - u) / ((1 + eta)(1 + u)^2)`` and
``f_hi = (1 + eta)(1 + u) / ((1 - eta)(1 - u)^2)``. The max and min of ``fl(R)`` per node
are found in float64 (the same bound holds for every candidate, so the float winner's
bound encloses the true extreme), and their logs are enclosed by
:func:`pdpsym.core.balls.float_log_bounds` (float64, a proved bound). No value can
underflow: every exponential is at least ``e^-600``.

**Edges (Eq. 9-10).** ``W_ij`` for the edge from ``A(i, K)`` (``j`` in ``K``) holds, for
every context ``c`` of ``K - {j}``, ``ln (N_1(c) T_0(c)) / (N_0(c) T_1(c))`` (right tail)
with ``N_a = P(a, x_j = 0, c) + P(a, x_j = 1, c) e^{1/lambda}`` and ``T_a = P(a, c)``,
or ``ln (N'_0 T_1) / (N'_1 T_0)`` with ``e^{-1/lambda}`` (left tail). The marginal counts
are the ``s``-sums of the same tensor. The same bound applies with ``eta = (1+2u)(1+u)^2 - 1``.

**Chain rule (Eq. 11, Theorem 2).** ``C(i, K) = min_j max(|C(i, K+j) + max W|,
|C(i, K+j) + min W|)`` in interval arithmetic, each rounded sum moved one ulp outward.

A value is printed to ``digits`` significant digits only when both ends of its enclosure
round to the same decimal; otherwise (and when the enclosure holds 0) the caller
computes that value with the exact engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from pdpsym.core.balls import Ball, arb_from_fraction, float_log_bounds, to_ball, working_precision
from pdpsym.core.exp_polynomials import exp_ball
from pdpsym.core.parallel import ordered_map
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.joint import JointDistribution
from pdpsym.papers.li2019.edges import EdgeReading
from pdpsym.papers.li2019.whg.node_masks import local_masks, popcounts

U = Fraction(1, 2**53)


MAX_EXPONENT = 600  # n / lambda; e^-600 is far from float64's subnormals


MAX_BATCH_DIGITS = 13  # the enclosures are about 1e-14 wide


MAX_BATCH_N = 14  # 3^14 configurations x 15 sums: about 3 GB of float64 arrays


def batch_applies(model: JointDistribution, lam: Fraction, query: LinearQuery) -> bool:
    """Whether :func:`batch_whg` covers this instance (see the module docstring).

    Args:
        model: the joint distribution.
        lam: the Laplace scale, > 0.
        query: the linear query.

    Returns:
        True when every domain is ``{0, 1}``, the query is the sum, ``n / lam <= 600``, the
        counts are int64, all positive (full support) and total below 2^53.

    References:
        Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., Section 3.1 (the
        rounding bound these conditions keep valid); the values are Li et al. (2019),
        Section IV-A, Eq. 2 and Section V, Eq. 9-11.
    """
    if any(tuple(d) != (0, 1) for d in model.domains):
        return False
    if any(query.weight(v) != 1 for v in model.variables):
        return False
    if Fraction(model.n) / Fraction(lam) > MAX_EXPONENT:
        return False
    C = model.counts
    return bool(C.dtype == np.int64 and (C > 0).all() and int(C.sum()) < 2**53)


def _gamma(m: int) -> Fraction:
    return m * U / (1 - m * U)


def _log_factors(eta: Fraction) -> tuple[float, float]:
    """Floats ``(l, h)`` with ``l <= ln f_lo`` and ``h >= ln f_hi`` (module docstring)."""
    f_lo = (1 - eta) * (1 - U) / ((1 + eta) * (1 + U) ** 2)
    f_hi = (1 + eta) * (1 + U) / ((1 - eta) * (1 - U) ** 2)
    with working_precision(128):
        lo = arb_from_fraction(f_lo).log()
        hi = arb_from_fraction(f_hi).log()
        return _down(float(lo.lower())), _up(float(hi.upper()))


def _exp_floats(exponents: list[Fraction]) -> np.ndarray:
    """The floats nearest ``e^q``: within relative ``2u`` (arb at 128 bits, then one
    rounding to nearest)."""
    out = []
    with working_precision(128):
        for q in exponents:
            b = exp_ball(q, 128)
            assert b.rad() < b.mid() * 2.0**-100
            out.append(float(b.mid()))
    return np.array(out)


def _down(x: Any) -> Any:
    return np.nextafter(x, -np.inf)


def _up(x: Any) -> Any:
    return np.nextafter(x, np.inf)


@dataclass(frozen=True)
class _Groups:
    """Configurations of ``m`` ternary axes grouped by their known set."""

    order: np.ndarray
    starts: np.ndarray
    local: np.ndarray  # the local mask of each group, ascending

    @classmethod
    def of(cls, m: int) -> _Groups:
        lm = local_masks(m)
        order = np.argsort(lm, kind="stable")
        s = lm[order]
        starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
        return cls(order, starts, s[starts])

    def full(self, axes: list[int]) -> np.ndarray:
        """The full bitmask (over all tuples) of each group; axis ``k`` is tuple ``axes[k]``."""
        out = np.zeros(len(self.local), dtype=np.int64)
        for k, v in enumerate(axes):
            out |= ((self.local >> k) & 1) << v
        return out

    def max(self, x: np.ndarray) -> np.ndarray:
        return np.maximum.reduceat(x[self.order], self.starts)

    def min(self, x: np.ndarray) -> np.ndarray:
        return np.minimum.reduceat(x[self.order], self.starts)


def ternary(counts: np.ndarray) -> np.ndarray:
    """``m[cfg, s]`` over every tuple: shape ``(3,)*n + (n + 1,)``; state 0/1 = known
    value, 2 = unknown, ``s`` = the sum of the unknowns. Exact for integer counts; the same
    code folds float tables.

    Args:
        counts: the table of a binary model, one axis of length 2 per tuple.

    Returns:
        The folded array, of the counts' dtype.

    References:
        Li et al. (2019), Section IV-A, Eq. 2 (the mixture over the unknowns' sum that the
        array tabulates for every adversary at once).
    """
    n = counts.ndim
    A = counts[..., None]
    for k in range(n):
        head, S = A.shape[:k], A.shape[-1]
        a0 = A[(slice(None),) * k + (0,)]
        a1 = A[(slice(None),) * k + (1,)]
        out = np.zeros((*head, 3, *a0.shape[k:-1], S + 1), dtype=A.dtype)
        pre: tuple[Any, ...] = (slice(None),) * k
        out[(*pre, 0, Ellipsis, slice(0, S))] = a0
        out[(*pre, 1, Ellipsis, slice(0, S))] = a1
        out[(*pre, 2, Ellipsis, slice(0, S))] = a0
        out[(*pre, 2, Ellipsis, slice(1, S + 1))] += a1  # an unknown tuple adds its value
        A = out
    return A


@dataclass(frozen=True)
class BatchWHG:
    """Enclosures ``[lo, hi]`` of every node's Eq. 2 value and chain value.

    Arrays have shape ``(n, 2^n)``: entry ``[i, K]`` is the node ``A(x_i, K)`` for a
    bitmask ``K`` of known tuples (bit ``i`` never set; those entries are NaN).
    """

    n: int
    eq2_lo: np.ndarray
    eq2_hi: np.ndarray
    chain_lo: np.ndarray
    chain_hi: np.ndarray
    #: ``edges[i][j]``: enclosures ``(max lo, max hi, min lo, min hi)`` of ``W_ij`` for the
    #: edge out of ``A(x_i, K)``, each an array over the child mask ``K``
    edges: list[dict[int, list[np.ndarray]]]
    counts_mass: np.ndarray  # P(cfg) over all tuples (state 2 = marginalized), exact
    lam: Fraction
    readings: tuple[EdgeReading, ...]
    bottom: Any  # Fraction (Theorem 4) or an array of layer-1 Eq. 2 enclosures


@dataclass(frozen=True)
class _Shared:
    """What every target's computation reads: the densities of every configuration and
    the rigorous constants (built once per process)."""

    n: int
    dens: np.ndarray  # D[a, t, cfg...]: shape (2, n + 1) + (3,) * n
    massf: np.ndarray
    e_right: float
    e_left: float
    eq2_f: tuple[float, float]
    edge_f: tuple[float, float]
    g_eq2: _Groups
    g_edge: _Groups
    readings: tuple[EdgeReading, ...]
    bottom: tuple[float, float]


def _shared(counts: np.ndarray, lam: Fraction, reading: EdgeReading) -> _Shared:
    n = counts.ndim
    # e^{-d/lambda}, d = 0..n+1, and e^{+-1/lambda}
    E_d = _exp_floats([Fraction(-d) / lam for d in range(n + 2)])
    e_right, e_left = _exp_floats([1 / lam, -1 / lam])
    d_idx = np.abs(np.arange(2)[:, None, None] + np.arange(n + 1)[None, :, None] - np.arange(n + 1))
    E = E_d[d_idx]  # E[a, s, t]
    # folded in float64 directly: every entry is a sum of counts, an integer below 2^53
    full_tensor = ternary(counts.astype(np.float64))
    flat = full_tensor.reshape(-1, n + 1)
    # the densities of every configuration, for x_i = 0 and x_i = 1 (E differs by a)
    # (one BLAS product, breakpoints first so the long axis is last: several times faster
    # than configurations first; the rounding bound holds for any summation order)
    dens = (np.concatenate([E[0].T, E[1].T]) @ flat.T).reshape((2, n + 1) + (3,) * n)
    return _Shared(
        n,
        dens,
        ternary_mass(counts).astype(np.float64),  # P(cfg), exact (integers below 2^53)
        float(e_right),
        float(e_left),
        _log_factors((1 + 2 * U) * (1 + _gamma(n + 1)) - 1),
        _log_factors((1 + 2 * U) * (1 + U) ** 2 - 1),
        _Groups.of(n - 1),
        _Groups.of(n - 2),
        (EdgeReading.RIGHT, EdgeReading.LEFT) if reading is EdgeReading.BOTH else (reading,),
        _fraction_bounds(1 / lam),  # Theorem 4: Delta_i / lambda, Delta_i = 1
    )


_SHARED: dict[tuple[bytes, Fraction, EdgeReading], _Shared] = {}


def _target_task(
    task: tuple[np.ndarray, Fraction, EdgeReading, bool, int],
) -> tuple[np.ndarray, ...]:
    """One target's enclosures in a worker process (the shared arrays built once there)."""
    counts, lam, reading, bottom_eq2, i = task
    key = (counts.tobytes(), lam, reading)
    if key not in _SHARED:
        _SHARED.clear()  # one model at a time per worker
        _SHARED[key] = _shared(counts, lam, reading)
    return _target(_SHARED[key], i, bottom_eq2)


def _target(sh: _Shared, i: int, bottom_eq2: bool) -> tuple[np.ndarray, ...]:
    """``(eq2 lo, eq2 hi, chain lo, chain hi, W)`` of target ``i`` over all masks; ``W``
    stacks ``(max lo, max hi, min lo, min hi)`` of every ``W_ij`` as ``(n, 4, 2^n)``."""
    n, size = sh.n, 1 << sh.n
    others = [v for v in range(n) if v != i]
    pre: tuple[Any, ...] = (slice(None),) * i
    # views with x_i known: D[a][t, cfg of the others]
    D0, D1 = sh.dens[(0, slice(None), *pre, 0)], sh.dens[(1, slice(None), *pre, 1)]
    m0, m1 = sh.massf[(*pre, 0)], sh.massf[(*pre, 1)]
    R = ((D0 * m1) / (D1 * m0)).reshape(n + 1, -1)
    masks = sh.g_eq2.full(others)
    hi_lo, hi_hi = float_log_bounds(sh.g_eq2.max(R.max(axis=0)))
    lo_lo, lo_hi = float_log_bounds(sh.g_eq2.min(R.min(axis=0)))
    (eq2_l, eq2_h), (edge_l, edge_h) = sh.eq2_f, sh.edge_f
    e_lo, e_hi = np.full(size, np.nan), np.full(size, np.nan)
    # max |ln R| = max(max ln R, -min ln R)
    e_lo[masks] = np.maximum(_down(hi_lo + eq2_l), -_up(lo_hi + eq2_h))
    e_hi[masks] = np.maximum(_up(hi_hi + eq2_h), -_down(lo_lo + eq2_l))
    # edges: W extremes for every (child mask, j), as enclosures
    P = np.stack([sh.massf[(*pre, 0)], sh.massf[(*pre, 1)]])
    W = np.full((n, 4, size), np.nan)
    for p, j in enumerate(others):
        X0 = np.take(P, 0, axis=p + 1).reshape(2, -1)
        X1 = np.take(P, 1, axis=p + 1).reshape(2, -1)
        T = np.take(P, 2, axis=p + 1).reshape(2, -1)
        ratios = []
        for rd in sh.readings:
            if rd is EdgeReading.RIGHT:
                N = X0 + X1 * sh.e_right
                ratios.append((N[1] * T[0]) / (N[0] * T[1]))
            else:
                N = X0 + X1 * sh.e_left
                ratios.append((N[0] * T[1]) / (N[1] * T[0]))
        a_lo, a_hi = float_log_bounds(sh.g_edge.max(np.maximum.reduce(ratios)))
        c_lo, c_hi = float_log_bounds(sh.g_edge.min(np.minimum.reduce(ratios)))
        child_masks = sh.g_edge.full([v for v in others if v != j]) | (1 << j)
        W[j, :, child_masks] = np.stack(
            [_down(a_lo + edge_l), _up(a_hi + edge_h), _down(c_lo + edge_l), _up(c_hi + edge_h)],
            axis=1,
        )
    # the chain rule, layer by layer from layer 1 (every other tuple known)
    Clo, Chi = np.full(size, np.nan), np.full(size, np.nan)
    full_others = (size - 1) & ~(1 << i)
    if bottom_eq2:
        Clo[full_others], Chi[full_others] = e_lo[full_others], e_hi[full_others]
    else:
        Clo[full_others], Chi[full_others] = sh.bottom
    pop = popcounts(n)
    for known in range(n - 2, -1, -1):
        K = np.flatnonzero((pop == known) & ((np.arange(size) >> i) & 1 == 0))
        best_lo = np.full(len(K), np.inf)
        best_hi = np.full(len(K), np.inf)
        for j in others:
            sel = (K >> j) & 1 == 0
            child = K[sel] | (1 << j)
            c_lo, c_hi = Clo[child], Chi[child]
            wmax_lo, wmax_hi, wmin_lo, wmin_hi = W[j][:, child]
            s1_lo, s1_hi = _abs(_down(c_lo + wmax_lo), _up(c_hi + wmax_hi))
            s2_lo, s2_hi = _abs(_down(c_lo + wmin_lo), _up(c_hi + wmin_hi))
            best_lo[sel] = np.minimum(best_lo[sel], np.maximum(s1_lo, s2_lo))
            best_hi[sel] = np.minimum(best_hi[sel], np.maximum(s1_hi, s2_hi))
        Clo[K], Chi[K] = best_lo, best_hi
    return e_lo, e_hi, Clo, Chi, W


def batch_whg(
    model: JointDistribution,
    lam: Fraction,
    reading: EdgeReading = EdgeReading.RIGHT,
    bottom_eq2: bool = False,
    progress: Any = None,
    jobs: int = 1,
    scheduler: str | None = None,
) -> BatchWHG:
    """Every node's certified enclosures; requires :func:`batch_applies`.

    With ``jobs > 1`` or a Dask ``scheduler`` the targets run in worker processes, each
    of which builds the shared tensor once; the enclosures are the same.

    Args:
        model: a binary, full-support joint distribution (see :func:`batch_applies`).
        lam: the Laplace scale, > 0.
        reading: which tail Eq. 9 is read as; ``BOTH`` puts both tails in ``W_ij``.
        bottom_eq2: layer 1 by Eq. 2 (True) or by Theorem 4 as printed, ``1/lam`` (False).
        progress: None, or an object whose ``update`` is called with ``2^(n-1)`` (the nodes
            of one target) as each target is done.
        jobs: the number of worker processes (1: in this process).
        scheduler: a Dask scheduler address, or None.

    Returns:
        A :class:`BatchWHG`: float64 enclosures ``[lo, hi]`` certified to contain every
        node's exact Eq. 2 value and chain value, and the enclosures of each edge's
        ``max W_ij`` and ``min W_ij``.

    References:
        Li et al. (2019), Section IV-A, Eq. 2; Section V-B, Theorem 2, Eq. 9-11 (rebuilt
        reading of the edge values); Section V-C, Theorems 4-5, Eq. 14; Section V-D,
        Algorithm 1. Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed.,
        Section 3.1 (the rounding bound).
    """
    n, lam = model.n, Fraction(lam)
    counts = model.counts

    def done(_k: int) -> None:
        if progress is not None:
            progress.update(1 << (n - 1))

    if jobs <= 1 and scheduler is None:
        sh = _shared(counts, lam, reading)
        rows = []
        for i in range(n):
            rows.append(_target(sh, i, bottom_eq2))
            done(i)
    else:
        if scheduler is None:  # forked workers inherit the tensor instead of rebuilding it
            _SHARED.clear()
            _SHARED[(counts.tobytes(), lam, reading)] = _shared(counts, lam, reading)
        tasks = [(counts, lam, reading, bottom_eq2, i) for i in range(n)]
        try:
            rows = ordered_map(_target_task, tasks, jobs, on_done=done, scheduler=scheduler)
        finally:
            _SHARED.clear()
    readings = (EdgeReading.RIGHT, EdgeReading.LEFT) if reading is EdgeReading.BOTH else (reading,)
    return BatchWHG(
        n,
        np.stack([r[0] for r in rows]),
        np.stack([r[1] for r in rows]),
        np.stack([r[2] for r in rows]),
        np.stack([r[3] for r in rows]),
        [{j: list(r[4][j]) for j in range(n) if j != i} for i, r in enumerate(rows)],
        ternary_mass(counts),
        lam,
        readings,
        None if bottom_eq2 else 1 / lam,
    )


def ternary_mass(counts: np.ndarray) -> np.ndarray:
    """``P(cfg)`` over every tuple, shape ``(3,)*n`` (state 2 = marginalized), exact.

    Args:
        counts: the integer table of a binary model, one axis of length 2 per tuple.

    Returns:
        The counts of every configuration (known 0, known 1, or marginalized per tuple), in
        the counts' dtype (exact for integers).

    References:
        Li et al. (2019), Section IV-A, Eq. 2 (the prior ``theta(x_i, x_K)`` of each
        adversary is one entry).
    """
    A = counts
    for k in range(counts.ndim):
        pre: tuple[Any, ...] = (slice(None),) * k
        a0, a1 = A[(*pre, 0)], A[(*pre, 1)]
        A = np.stack([a0, a1, a0 + a1], axis=k)
    return A


def eq2_ball(counts: np.ndarray, lam: Fraction, i: int, K: int, prec: int) -> Ball:
    """A ball of the Eq. 2 value of ``A(x_i, K)`` (``K`` a bitmask of known tuples) at
    ``prec`` bits, for an instance of :func:`batch_applies`: for a value whose float
    enclosure does not fix its digits, far cheaper than the exact engine.

    The node's counts are folded into ``m[a, cfg, s]`` (integers: ``x_i = a``, the known
    tuples in configuration ``cfg``, the unknown ones summing to ``s``); the densities
    at the breakpoints ``t = 0..n`` are ranked in float64 (exponentials within ``2u``, so
    every ratio within ``1e-13`` relative) and only the candidates within ``1e-12`` of the
    largest or smallest ratio are evaluated in arb: the others cannot be the extreme.

    Args:
        counts: the integer count table, shape ``(2,) * n``, full support.
        lam: the Laplace scale.
        i: the target tuple.
        K: the bitmask of the known tuples (bit ``i`` clear).
        prec: bits of working precision.

    Returns:
        A ball holding ``max |ln R|`` over the node's configurations and breakpoints.

    References:
        Li et al. (2019), Section IV, Eq. 2 (and the breakpoint lemma of the module
        docstring).
    """
    n = counts.ndim
    known = [v for v in range(n) if K >> v & 1]
    unknown = [v for v in range(n) if v != i and not K >> v & 1]
    A = np.transpose(counts, [i, *known, *unknown]).reshape(2, 1 << len(known), -1)
    pop = popcounts(len(unknown))
    m = np.stack([A[:, :, pop == s].sum(axis=2) for s in range(len(unknown) + 1)], axis=2)
    d = np.abs(
        np.arange(2)[:, None, None] + np.arange(m.shape[2])[None, :, None] - np.arange(n + 1)
    )
    Ef = _exp_floats([Fraction(-k) / lam for k in range(n + 2)])[d]  # E[a, s, t]
    mf = m.astype(np.float64)  # integers below 2^53: exact
    mass = mf.sum(axis=2)
    R = (mf[0] @ Ef[0]) * mass[1][:, None] / ((mf[1] @ Ef[1]) * mass[0][:, None])
    top, bottom = R.max(), R.min()
    cands = [(1, c, t) for c, t in zip(*np.nonzero(R >= top * (1 - 1e-12)), strict=True)]
    cands += [(-1, c, t) for c, t in zip(*np.nonzero(R <= bottom * (1 + 1e-12)), strict=True)]
    e = [exp_ball(Fraction(-k) / lam, prec) for k in range(n + 2)]
    out: Ball | None = None
    with working_precision(prec):
        for sign, c, t in cands:
            dens = []
            for a in (0, 1):
                total = to_ball(0)
                for s_ in range(m.shape[2]):
                    total += to_ball(int(m[a, c, s_])) * e[int(d[a, s_, t])]
                dens.append(total)
            ratio = dens[0] * to_ball(int(m[1, c].sum())) / (dens[1] * to_ball(int(m[0, c].sum())))
            v = ratio.log() if sign > 0 else -ratio.log()
            out = v if out is None else out.max(v)
    assert out is not None
    return out


class ChainRefiner:
    """A chain value to any precision, for the nodes whose float enclosure is too wide.

    The chain rule is evaluated in arb balls (interval semantics, so no comparison has to
    be decided): ``min`` over the children, ``max(|c + max W|, |c + min W|)``, the extremes
    of ``W`` over contexts. The float enclosures prune it: a child whose float step
    enclosure lies above another child's, or a context whose float ratio lies below the
    best one's, cannot be the extreme and is skipped. ``bottom_ball(i, prec)`` gives the
    layer-1 value when the bottom rule is Eq. 2.
    """

    def __init__(self, b: BatchWHG, bottom_ball: Any = None) -> None:
        self.b, self.bottom_ball = b, bottom_ball
        self.memo: dict[tuple[int, int, int], Ball] = {}
        self.lfac = _log_factors((1 + 2 * U) * (1 + U) ** 2 - 1)

    def chain(self, i: int, K: int, prec: int) -> Ball:
        """A ball enclosing the chain value of ``A(x_i, K)`` at ``prec`` bits (memoized)."""
        key = (i, K, prec)
        if key not in self.memo:
            self.memo[key] = self._chain(i, K, prec)
        return self.memo[key]

    def _chain(self, i: int, K: int, prec: int) -> Ball:
        b, n = self.b, self.b.n
        full_others = ((1 << n) - 1) & ~(1 << i)
        if K == full_others:
            if b.bottom is None:
                return self.bottom_ball(i, prec)
            q = Fraction(b.bottom)
            return arb_from_fraction(q)
        cands = []
        for j in range(n):
            if j == i or K >> j & 1:
                continue
            child = K | (1 << j)
            c_lo, c_hi = b.chain_lo[i, child], b.chain_hi[i, child]
            wmax_lo, wmax_hi, wmin_lo, wmin_hi = (t[child] for t in b.edges[i][j])
            s1 = _abs(_down(c_lo + wmax_lo), _up(c_hi + wmax_hi))
            s2 = _abs(_down(c_lo + wmin_lo), _up(c_hi + wmin_hi))
            cands.append((j, max(s1[0], s2[0]), max(s1[1], s2[1])))
        top = min(hi for _, _, hi in cands)
        out: Ball | None = None
        with working_precision(prec):
            for j, lo, _ in cands:
                if lo > top:
                    continue  # provably not the minimum
                child = K | (1 << j)
                c = self.chain(i, child, prec)
                wmax, wmin = self.edge(i, child, j, prec)
                step = abs(c + wmax).max(abs(c + wmin))
                out = step if out is None else out.min(step)
        assert out is not None
        return out

    def edge(self, i: int, child: int, j: int, prec: int) -> tuple[Ball, Ball]:
        """Balls of ``max W_ij`` and ``min W_ij`` for the edge out of ``A(x_i, child)``."""
        b, n = self.b, self.b.n
        # the contexts: configurations with tuples of child - {j} known, the rest marginalized
        idx: list[Any] = []
        for v in range(n):
            if v == i:
                idx.append(slice(None))
            elif v == j:
                idx.append(slice(None))
            elif child >> v & 1:
                idx.append(slice(0, 2))
            else:
                idx.append(2)
        P = b.counts_mass[tuple(idx)]  # axes: the tuples i, j and child - {j}, in order
        kept = [v for v in range(n) if isinstance(idx[v], slice)]
        P = np.moveaxis(P, (kept.index(i), kept.index(j)), (0, 1)).reshape(3, 3, -1)
        vals: dict[int, list[Ball]] = {1: [], -1: []}
        floats = []
        for rd in b.readings:
            ef = float(np.exp(float(1 / b.lam if rd is EdgeReading.RIGHT else -1 / b.lam)))
            N = P[:2, 0, :] + P[:2, 1, :] * ef
            T = P[:2, 2, :]
            r = (N[1] * T[0]) / (N[0] * T[1])
            floats.append(r if rd is EdgeReading.RIGHT else 1 / r)
        F = np.concatenate(floats)
        # float ratios carry a relative error far below 1e-12: keep every near candidate
        keep_hi = np.flatnonzero(F >= F.max() * (1 - 1e-12))
        keep_lo = np.flatnonzero(F <= F.min() * (1 + 1e-12))
        m = P.shape[2]
        with working_precision(prec):
            for sign, keep in ((1, keep_hi), (-1, keep_lo)):
                for k in keep.tolist():
                    rd, c = b.readings[k // m], k % m
                    q = 1 / b.lam if rd is EdgeReading.RIGHT else -1 / b.lam
                    e = exp_ball(q, prec)
                    cnt = [[to_ball(int(P[a, x, c])) for x in range(3)] for a in range(2)]
                    N0 = cnt[0][0] + cnt[0][1] * e
                    N1 = cnt[1][0] + cnt[1][1] * e
                    d = (N1 * cnt[0][2]).log() - (N0 * cnt[1][2]).log()
                    vals[sign].append(d if rd is EdgeReading.RIGHT else -d)
            w_max: Ball = vals[1][0]
            for ball in vals[1][1:]:
                w_max = w_max.max(ball)
            w_min: Ball = vals[-1][0]
            for ball in vals[-1][1:]:
                w_min = w_min.min(ball)
        return w_max, w_min


def _abs(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The enclosure of ``|x|`` for ``x`` in ``[lo, hi]``."""
    a_lo = np.where(lo >= 0, lo, np.where(hi <= 0, -hi, 0.0))
    a_hi = np.maximum(np.abs(lo), np.abs(hi))
    return a_lo, a_hi


def _fraction_bounds(q: Fraction) -> tuple[float, float]:
    f = float(q)
    lo = f if Fraction(f) <= q else float(_down(f))
    hi = f if Fraction(f) >= q else float(_up(f))
    return lo, hi

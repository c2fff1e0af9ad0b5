"""The mean-value form of Eq. 2's log-ratio over a sub-box of a k-state interval chain.

For a member ``c`` inside the sub-box and any member ``theta`` in it (the feasible part of
the sub-box is convex: the segment between them stays in it),
``f(theta) <= f(c) + sum_rows max_{v} sum_q max(G_lo,q delta_q, G_hi,q delta_q)``, where
``G`` encloses the gradient of ``f`` in the row's free coordinates over the sub-box and
``v`` runs over the vertices of the row's polytope clipped to the sub-box
(``delta = v - c``): the bracket is convex in ``delta``, so its max over the clipped
polytope is at a vertex. The free coordinate ``theta_q`` of a row moves the entry ``r_q``
up and ``r_{k-1}`` down (``G_q = d f/d r_q - d f/d r_{k-1}``); with a stationary initial
law, ``pi`` moves too: ``d pi_j / d P_e = (d w_j R_j - w_j d R_j) / W^2`` by the Markov
chain tree theorem (``pi_j = w_j / W``, ``R_j = W - w_j``; every ``w`` and ``d w`` is a
polynomial with non-negative coefficients, enclosed by its values at the entries' ends).
Second order in the sub-box's width.

References:
    Moore, Kearfott, Cloud, Introduction to Interval Analysis (2009), Sec. 6.4 (the
    mean-value form); Leighton and Rivest (1983), the Markov chain tree theorem; Li et al.
    (2019), Sec. III, Eq. 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from pdpsym.core.numbers import float_above, float_below
from pdpsym.models.interval_chain_k import (
    Box,
    IntervalChainK,
    monomial_sum,
    row_vertices,
    tree_monomials,
    tree_weights,
)

_U = 2.0**-53


def _slope(
    monos: list[tuple[tuple[int, int], ...]], e: tuple[int, int], p: list[list[Fraction]]
) -> Fraction:
    """``d/d P_e`` of a sum of monomials (each edge at most once), at ``p``."""
    return monomial_sum([tuple(x for x in m if x != e) for m in monos if e in m], p)


def stationary_slopes(
    lo: list[list[Fraction]], hi: list[list[Fraction]], u: int, q: int
) -> tuple[list[Fraction], list[Fraction]] | None:
    """Enclosures of ``d pi_j / d theta`` for the free coordinate ``q`` of row ``u``
    (``P[u][q]`` up, ``P[u][k-1]`` down) over the entry box ``[lo, hi]``.

    Args:
        lo: the transition entries' lower ends.
        hi: their upper ends.
        u: the row.
        q: the free coordinate (``< k - 1``).

    Returns:
        ``(lower ends, upper ends)`` per state ``j``, exact; None when ``W`` may vanish.

    References:
        Leighton and Rivest (1983); Levin, Peres, Wilmer (2009), Sec. 1.5.
    """
    k = len(lo)
    trees = tree_monomials(k)
    w_lo = tree_weights(lo)
    w_hi = tree_weights(hi)
    big_lo, big_hi = sum(w_lo), sum(w_hi)
    if big_lo <= 0:
        return None
    out_lo, out_hi = [], []
    slopes = {
        e: ([_slope(t, e, lo) for t in trees], [_slope(t, e, hi) for t in trees])
        for e in ((u, q), (u, k - 1))
    }
    for j in range(k):
        ends = []
        for e in ((u, q), (u, k - 1)):
            dw_lo, dw_hi = slopes[e]
            r_lo, r_hi = big_lo - w_lo[j], big_hi - w_hi[j]
            dr_lo, dr_hi = sum(dw_lo) - dw_lo[j], sum(dw_hi) - dw_hi[j]
            n_lo = dw_lo[j] * r_lo - w_hi[j] * dr_hi
            n_hi = dw_hi[j] * r_hi - w_lo[j] * dr_lo
            ends.append(
                (
                    n_lo / (big_hi**2 if n_lo >= 0 else big_lo**2),
                    n_hi / (big_lo**2 if n_hi >= 0 else big_hi**2),
                )
            )
        (a_lo, a_hi), (b_lo, b_hi) = ends
        out_lo.append(a_lo - b_hi)
        out_hi.append(a_hi - b_lo)
    return out_lo, out_hi


def entry_bounds(
    cls: IntervalChainK, box: Box
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """Float lower and upper ends of the transition entries and the initial law over a
    sub-box (outward rounded), or None when the sub-box holds no member.

    Args:
        cls: the class.
        box: a sub-box of its parameter box.

    Returns:
        ``(P_lo, P_hi, init_lo, init_hi)``.

    References:
        Leighton and Rivest (1983), the Markov chain tree theorem (the stationary law).
    """
    ent = cls.entries(box)
    if ent is None:
        return None
    k = cls.k
    rows = ent[:k]
    p_lo = np.array([[float_below(a) for a, _ in r] for r in rows])
    p_hi = np.array([[float_above(b) for _, b in r] for r in rows])
    if cls.initial == "stationary":
        w_lo = tree_weights([[a for a, _ in r] for r in rows])
        w_hi = tree_weights([[b for _, b in r] for r in rows])
        init_lo, init_hi = [], []
        for j in range(k):
            rest_lo = sum(w_lo) - w_lo[j]
            rest_hi = sum(w_hi) - w_hi[j]
            d_lo = w_lo[j] + rest_hi
            d_hi = w_hi[j] + rest_lo
            init_lo.append(float_below(w_lo[j] / d_lo) if d_lo > 0 else 0.0)
            init_hi.append(min(float_above(w_hi[j] / d_hi), 1.0) if d_hi > 0 else 1.0)
        i_lo, i_hi = np.array(init_lo), np.array(init_hi)
    elif isinstance(cls.initial[0], tuple):
        i_lo = np.array([float_below(a) for a, _ in ent[k]])
        i_hi = np.array([float_above(b) for _, b in ent[k]])
    else:
        i_lo = np.array([float_below(p) for p in cls.initial])  # type: ignore[arg-type]
        i_hi = np.array([float_above(p) for p in cls.initial])  # type: ignore[arg-type]
    return p_lo, p_hi, i_lo, i_hi


@dataclass
class MeanValue:
    """The mean-value form's data on one sub-box (module docstring)."""

    k: int
    dvars: list[tuple[int, int]]
    cp_lo: np.ndarray
    cp_hi: np.ndarray
    ci_lo: np.ndarray
    ci_hi: np.ndarray
    #: per row with width: (its variable row index u, the vertices' deltas [v, q])
    rows: list[tuple[int, np.ndarray]]
    #: per (u, q) of the transition rows: (d pi lo, d pi hi) per state, for "stationary"
    dpi: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]

    @classmethod
    def build(cls_, chain: IntervalChainK, box: Box, clip: object) -> MeanValue | None:
        """The form's data on a sub-box with width (None when it has no member, or when a
        stationary law's tree weights may vanish in it).

        Args:
            chain: the class.
            box: the sub-box.
            clip: a function clipping ``(lo, hi)`` float ends (the underflow guard).

        Returns:
            The :class:`MeanValue`, or None.
        """
        k = chain.k
        ent = chain.entries(box)
        if ent is None:
            return None
        centre = chain.centre(box)
        ends = entry_bounds(chain, tuple((v, v) for v in centre))
        assert ends is not None
        cp_lo, cp_hi = clip(ends[0], ends[1])  # type: ignore[operator]
        ci_lo, ci_hi = clip(ends[2], ends[3])  # type: ignore[operator]
        stationary = chain.initial == "stationary"
        dvars: list[tuple[int, int]] = []
        rows: list[tuple[int, np.ndarray]] = []
        for j, row in enumerate(ent):
            free = box[j * (k - 1) : (j + 1) * (k - 1)]
            if all(a == b for a, b in free):
                continue
            u = -1 if j == k else j
            dvars += [(u, e) for e in range(k)]
            c = centre[j * (k - 1) : (j + 1) * (k - 1)]
            deltas = [[float(v[q] - c[q]) for q in range(k - 1)] for v in row_vertices(row)]
            rows.append((u, np.array(deltas)))
        dpi: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        if stationary and rows:
            dvars += [(-1, e) for e in range(k)]
            lo = [[a for a, _ in r] for r in ent[:k]]
            hi = [[b for _, b in r] for r in ent[:k]]
            for u, _ in rows:
                for q in range(k - 1):
                    sl = stationary_slopes(lo, hi, u, q)
                    if sl is None:
                        return None
                    dpi[(u, q)] = (
                        np.array([float_below(x) for x in sl[0]]),
                        np.array([float_above(x) for x in sl[1]]),
                    )
        return cls_(k, dvars, cp_lo, cp_hi, ci_lo, ci_hi, rows, dpi)

    def correction(self, glo: np.ndarray, ghi: np.ndarray) -> np.ndarray:
        """``sum_rows max_v sum_q max(G_lo delta, G_hi delta)`` per output ``y``, rounded up.

        Args:
            glo: lower ends of ``d f / d entry`` per variable of :attr:`dvars`,
                ``[var, ...]`` (any trailing axes: pairs, outputs ``y``).
            ghi: their upper ends.

        Returns:
            The correction per ``y`` (non-negative).
        """
        k = self.k
        at = {v: i for i, v in enumerate(self.dvars)}
        total = np.zeros(glo.shape[1:])
        for u, deltas in self.rows:
            g_lo, g_hi, mags = [], [], []
            for q in range(k - 1):
                x, z = at[(u, q)], at[(u, k - 1)]
                lo = glo[x] - ghi[z]
                hi = ghi[x] - glo[z]
                mag = np.abs(glo[x]) + np.abs(ghi[x]) + np.abs(glo[z]) + np.abs(ghi[z])
                if (u, q) in self.dpi:
                    p_lo, p_hi = self.dpi[(u, q)]
                    for j in range(k):
                        y = at[(-1, j)]
                        prods = [
                            glo[y] * p_lo[j],
                            glo[y] * p_hi[j],
                            ghi[y] * p_lo[j],
                            ghi[y] * p_hi[j],
                        ]
                        lo = lo + np.minimum.reduce(prods)
                        hi = hi + np.maximum.reduce(prods)
                        mag = mag + (np.abs(glo[y]) + np.abs(ghi[y])) * (
                            abs(p_lo[j]) + abs(p_hi[j])
                        )
                g_lo.append(lo - 8 * _U * mag)
                g_hi.append(hi + 8 * _U * mag)
                mags.append(mag)
            best = None
            for d in deltas:
                acc = np.zeros_like(total)
                err = np.zeros_like(total)
                for q in range(k - 1):
                    acc += np.maximum(g_lo[q] * d[q], g_hi[q] * d[q])
                    err += (np.abs(g_lo[q]) + np.abs(g_hi[q]) + mags[q]) * abs(d[q])
                val = acc + 16 * _U * err + 8 * _U * np.abs(acc)
                best = val if best is None else np.maximum(best, val)
            if best is not None:
                total += np.maximum(best, 0.0)
        return total * (1 + 4 * (len(self.rows) + 2) * _U)


__all__ = ["MeanValue", "entry_bounds", "stationary_slopes"]

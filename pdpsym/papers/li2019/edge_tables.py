"""Every ``W_ij`` of a model at once (Li et al. Sec. V-B, Eq. 9-10), vectorized over the
count tables, as used by the WHG: :class:`EdgeValue` (one located element of ``W_ij``) and
:class:`EdgeTables` (the decided extremes of every edge).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np

from pdpsym.core.balls import Ball, to_ball, working_precision
from pdpsym.core.certify import separate
from pdpsym.core.compare import (
    SCREEN_MARGIN,
    float_array,
    screen_then_decide,
    screenable_float,
)
from pdpsym.core.exp_polynomials import ExpPoly, LogRatio, exp_ball
from pdpsym.loss.laplace_mixture import log_mixture_floats
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.joint import JointDistribution
from pdpsym.papers.li2019.edges import (
    TAILS,
    EdgeReading,
    Impact,
)


class EdgeValue:
    """One element of ``W_ij`` located in the count tables of :class:`EdgeTables`.

    It keeps the two count rows ``M[a, ., c]`` and ``M[b, ., c]`` it is made of. Its arb
    ball is computed from them with cached exponentials; the exact :class:`Impact` (and
    its text) is built only when asked for, since a WHG needs the exact form of the few
    edges that its chain values actually use.
    """

    __slots__ = ("_tables", "_loc", "_rows", "_impact", "_ball", "_text", "_precise")

    def __init__(
        self,
        tables: EdgeTables,
        loc: tuple[int, int, int, int, int, int, int],
        rows: tuple[list[int], list[int]],
    ) -> None:
        self._tables, self._loc, self._rows = tables, loc, rows  # loc: (i, child, j, r, a, b, c)
        self._impact: Impact | None = None
        self._ball: Ball | None = None
        self._text: str | None = None
        self._precise: dict[int, Ball] | None = None

    @property
    def impact(self) -> Impact:
        """The exact :class:`Impact` of this element of ``W_ij`` (built on first use, then cached)."""
        if self._impact is None:
            self._impact = self._tables._impact_at(self._loc, self._rows)
        return self._impact

    @property
    def value(self) -> LogRatio:
        """The exact value ``d_j`` of this element, a LogRatio."""
        return self.impact.value

    def ball(self, prec: int) -> Ball:
        """An arb ball enclosing ``d_j`` at ``prec`` bits (cached per precision)."""
        if prec == BALL_PREC:
            if self._ball is None:
                self._ball = self._tables._ball_at(self._loc, self._rows, prec)
            return self._ball
        if self._precise is None:
            self._precise = {}
        if prec not in self._precise:  # raised precisions (wide balls at extreme scales)
            self._precise[prec] = self._tables._ball_at(self._loc, self._rows, prec)
        return self._precise[prec]

    def text(self) -> str:
        """Exact text of one term: ``log(num/den)`` with integer coefficients, or the
        rational/monomial form in parentheses."""
        if self._text is None:
            v = self.value
            if v.monomial_ratio() is not None:
                t = v.exact_text()  # e.g. "log(2) + 1": one term, so parenthesized
                self._text = f"({t})" if " + " in t or " - " in t or t.startswith("-") else t
            else:
                num, den = v.num.text(), v.den.text()
                if len(v.num.terms) > 1:
                    num = f"({num})"
                if len(v.den.terms) > 1 or not (den.isdigit() or den == "E"):
                    den = f"({den})"
                self._text = f"log({num}/{den})"
        return self._text

    def same_as(self, other: EdgeValue) -> bool:
        """True when ``other`` is the same element (the same location in the count tables)."""
        return self._loc == other._loc


#: precision (bits) of the cached balls of edge values and chain values
BALL_PREC = 128


class EdgeTables:
    """The extremes of every ``W_ij`` of a model, from integer marginal counts.

    The impact of Eq. 9 only needs ``th(x_j | x_i, x_{K-{j}})``, i.e. the marginal counts
    of the tuples ``{i} + K``. The marginals of every subset are computed once, each
    from a marginal one tuple larger; the impacts of all edges whose tuple sets have the
    same shape are then ranked in one float64 computation. The maximum and minimum of
    each ``W_ij`` (all that Theorem 2 needs, Eq. 11) are the float winners when no other
    candidate is within :data:`~pdpsym.core.compare.SCREEN_MARGIN`; otherwise the
    near-ties are decided exactly (by balls, then exp-polynomial signs). Impacts are built
    from integer counts: ``ln sum_x M[a,x,c] T_b e^{w x/lam} / sum_x M[b,x,c] T_a e^{w x/lam}``
    with ``T_a = sum_x M[a,x,c]``: the same value as :func:`impact`.
    """

    def __init__(
        self,
        model: JointDistribution,
        lam: Fraction,
        query: LinearQuery,
        reading: EdgeReading = EdgeReading.RIGHT,
    ) -> None:
        self.model, self.lam, self.query, self.reading = model, Fraction(lam), query, reading
        self.readings = TAILS if reading is EdgeReading.BOTH else (reading,)
        n = model.n
        full = (1 << n) - 1
        self._marg: dict[int, np.ndarray] = {full: model.counts}
        for mask in sorted(range(full), key=lambda m: -bin(m).count("1")):
            missing = ~mask & full
            v = (missing & -missing).bit_length() - 1
            parent = mask | (1 << v)
            axis = bin(parent & ((1 << v) - 1)).count("1")
            self._marg[mask] = self._marg[parent].sum(axis=axis)
        names = model.variables
        self._wx = [
            [query.weight(v) * x for x in model.domain(v)] for v in names
        ]  # w_v x per value
        self._pairs = [
            np.array([[a > b for b in wx] for a in wx], dtype=bool).reshape(len(wx), len(wx))
            for wx in self._wx
        ]
        self._expo: dict[tuple[int, int], list[Fraction]] = {}
        self._shifted: dict[tuple[int, int], list[Fraction]] = {}
        self._extremes: dict[tuple[int, int, int], tuple[EdgeValue, EdgeValue] | None] = {}
        self._rank_all()

    # -- ranking ---------------------------------------------------------------------------

    def _rank_all(self) -> None:
        n = self.model.n
        groups: dict[tuple[int, ...], list[int]] = {}
        for S in range(1 << n):
            if bin(S).count("1") >= 2:
                groups.setdefault(tuple(self._marg[S].shape), []).append(S)
        for shape, subsets in groups.items():
            stacked = np.stack([self._marg[S] for S in subsets])
            members = np.array([[v for v in range(n) if S >> v & 1] for S in subsets])
            for pi, pj in itertools.permutations(range(len(shape)), 2):
                self._rank_group(stacked, members, subsets, pi, pj)

    def _rank_group(
        self, stacked: np.ndarray, members: np.ndarray, subsets: list[int], pi: int, pj: int
    ) -> None:
        G = len(subsets)
        s = stacked.ndim - 1
        rest = [p for p in range(s) if p not in (pi, pj)]
        M = np.transpose(stacked, [0, pi + 1, pj + 1, *(p + 1 for p in rest)])
        d_i, d_j = M.shape[1], M.shape[2]
        M = M.reshape(G, d_i, d_j, -1)
        T = M.sum(axis=2)  # (G, d_i, ctx)
        vi, vj = members[:, pi], members[:, pj]
        # ordered pairs w_i a > w_i b, compared exactly (not in floats)
        pairs = np.stack([self._pairs[int(i)] for i in vi])  # (G, d_i, d_i)
        ok = (T > 0)[:, :, None, :] & (T > 0)[:, None, :, :] & pairs[:, :, :, None]
        okF = np.stack([ok] * len(self.readings), axis=1).reshape(G, -1)
        any_ok: np.ndarray = np.asarray(okF.any(axis=1), dtype=bool)
        F, scale = self._screen_floats(M, T, vj)
        if F is None:  # out of float range: every candidate is decided exactly
            F = np.zeros(okF.shape)
            scale = np.full(G, np.inf)
        hi_f = np.where(okF, F, -np.inf)
        lo_f = np.where(okF, F, np.inf)
        hi_idx, lo_idx = hi_f.argmax(axis=1), lo_f.argmin(axis=1)
        top_v = hi_f[np.arange(G), hi_idx]
        bot_v = lo_f[np.arange(G), lo_idx]
        with np.errstate(invalid="ignore", over="ignore"):
            tol_hi = SCREEN_MARGIN * (1 + np.abs(top_v) + scale)
            tol_lo = SCREEN_MARGIN * (1 + np.abs(bot_v) + scale)
            n_hi = (hi_f >= (top_v - tol_hi)[:, None]).sum(axis=1)
            n_lo = (lo_f <= (bot_v + tol_lo)[:, None]).sum(axis=1)
        # a valid candidate whose float is not finite cannot be ranked (never dropped)
        unranked: np.ndarray = np.asarray(
            (okF & ~np.isfinite(F)).any(axis=1) | ~np.isfinite(tol_hi + tol_lo), dtype=bool
        )
        shape = (len(self.readings), d_i, d_i, M.shape[3])
        for g, S in enumerate(subsets):
            i, j = int(vi[g]), int(vj[g])
            key = (i, S & ~(1 << i), j)
            if not any_ok[g]:
                self._extremes[key] = None
                continue
            Mg = M[g]
            if unranked[g]:
                hi = self._decide(key, shape, F[g], okF[g], np.inf, Mg, 1)
                lo = self._decide(key, shape, -F[g], okF[g], np.inf, Mg, -1)
                self._extremes[key] = (hi, lo)
                continue
            hi = self._locate(key, shape, int(hi_idx[g]), Mg)
            lo = self._locate(key, shape, int(lo_idx[g]), Mg)
            if n_hi[g] > 1:
                hi = self._decide(key, shape, F[g], okF[g], float(scale[g]), Mg, 1)
            if n_lo[g] > 1:
                lo = self._decide(key, shape, -F[g], okF[g], float(scale[g]), Mg, -1)
            self._extremes[key] = (hi, lo)

    def _screen_floats(
        self, M: np.ndarray, T: np.ndarray, vj: np.ndarray
    ) -> tuple[np.ndarray | None, np.ndarray]:
        """Float64 impacts of every candidate of each group (readings, a, b, ctx) and the
        magnitude of their intermediates per group (:data:`~pdpsym.core.compare.SCREEN_MARGIN`);
        ``(None, _)`` when counts or exponents are out of float range."""
        G = M.shape[0]
        lam = screenable_float(self.lam)
        Mf, Tf = float_array(M), float_array(T)
        wx = [[screenable_float(v) for v in self._wx[int(j)]] for j in vj]
        if lam is None or Mf is None or Tf is None or any(None in row for row in wx):
            return None, np.full(G, np.inf)
        floats = []
        with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
            logM = np.log(Mf)
            logT = np.log(Tf)
            for rd in self.readings:
                sgn = 1.0 if rd is EdgeReading.RIGHT else -1.0
                ex = sgn * np.array(wx, dtype=float) / lam
                L = log_mixture_floats(logM, ex[:, None, :, None], axis=2) - logT
                if sgn > 0:
                    d = L[:, :, None, :] - L[:, None, :, :]
                else:
                    d = L[:, None, :, :] - L[:, :, None, :]
                floats.append(d)
            mag_ex = np.abs(np.array(wx, dtype=float) / lam).max(axis=1)
            mag_m = np.where(np.isfinite(logM), np.abs(logM), 0.0).reshape(G, -1).max(axis=1)
            mag_t = np.where(np.isfinite(logT), np.abs(logT), 0.0).reshape(G, -1).max(axis=1)
        F = np.stack(floats, axis=1).reshape(G, -1)  # (G, reading*a*b*ctx)
        return F, mag_ex + mag_m + mag_t

    def _locate(
        self, key: tuple[int, int, int], shape: tuple[int, ...], flat: int, M: np.ndarray
    ) -> EdgeValue:
        r, a, b, c = (int(x) for x in np.unravel_index(flat, shape))
        return EdgeValue(self, (*key, r, a, b, c), (M[a, :, c].tolist(), M[b, :, c].tolist()))

    def _decide(
        self,
        key: tuple[int, int, int],
        shape: tuple[int, ...],
        scores: np.ndarray,
        valid: np.ndarray,
        scale: float,
        M: np.ndarray,
        direction: int,
    ) -> EdgeValue:
        """The exact extreme among the candidates within the screening margin."""
        _, best, _ = screen_then_decide(
            scores,
            lambda flat: self._locate(key, shape, flat, M),
            lambda x, y: direction * compare_edges(x, y),
            valid=valid,
            scale=scale,
        )
        return best

    # -- one element -------------------------------------------------------------------------

    def _impact_at(
        self, loc: tuple[int, int, int, int, int, int, int], rows: tuple[list[int], list[int]]
    ) -> Impact:
        i, child, j, r, a, b, c = loc
        rd = self.readings[r]
        sgn = 1 if rd is EdgeReading.RIGHT else -1
        ma, mb = rows
        Ta, Tb = sum(ma), sum(mb)
        g = math.gcd(*ma, *mb) * math.gcd(Ta, Tb)  # a common factor of every coefficient
        expo = self._exponents(j, sgn)

        def mgf(row: list[int], factor: int) -> ExpPoly:
            acc: dict[Fraction, int] = {}
            for e, m in zip(expo, row, strict=True):
                if m:
                    acc[e] = acc.get(e, 0) + m * factor // g
            return ExpPoly.trusted({e: Fraction(q) for e, q in acc.items() if q})

        num, den = mgf(ma, Tb), mgf(mb, Ta)
        value = LogRatio(num, den) if sgn == 1 else LogRatio(den, num)
        names = self.model.variables
        ctx = [v for v in range(self.model.n) if (child >> v & 1) and v != j]
        ctx_domains = [self.model.domain(names[v]) for v in ctx]
        idx = np.unravel_index(c, [len(d) for d in ctx_domains]) if ctx else ()
        context = tuple(
            (names[v], dom[int(k)]) for v, dom, k in zip(ctx, ctx_domains, idx, strict=True)
        )
        dom_i = self.model.domain(names[i])
        return Impact(names[i], names[j], dom_i[a], dom_i[b], context, value, rd)

    def _exponents(self, j: int, sgn: int) -> list[Fraction]:
        key = (j, sgn)
        if key not in self._expo:
            self._expo[key] = [sgn * v / self.lam for v in self._wx[j]]
        return self._expo[key]

    def _shifted_exponents(self, j: int, sgn: int) -> list[Fraction]:
        """The exponents less their max when they are large: the common factor e^{-max}
        cancels in ln num - ln den and keeps every ball finite (lambda = 1e-40)."""
        key = (j, sgn)
        if key not in self._shifted:
            expo = self._exponents(j, sgn)
            top = max(expo)
            big = abs(top) > 256 or abs(min(expo)) > 256
            self._shifted[key] = [e - top for e in expo] if big else expo
        return self._shifted[key]

    def _ball_at(
        self,
        loc: tuple[int, int, int, int, int, int, int],
        rows: tuple[list[int], list[int]],
        prec: int,
    ) -> Ball:
        j, r = loc[2], loc[3]
        sgn = 1 if self.readings[r] is EdgeReading.RIGHT else -1
        ma, mb = rows
        Ta, Tb = sum(ma), sum(mb)
        with working_precision(prec):
            E = [exp_ball(e, prec) for e in self._shifted_exponents(j, sgn)]
            num = sum((to_ball(m * Tb) * e for m, e in zip(ma, E, strict=True) if m), to_ball(0))
            den = sum((to_ball(m * Ta) * e for m, e in zip(mb, E, strict=True) if m), to_ball(0))
            return num.log() - den.log() if sgn == 1 else den.log() - num.log()

    # -- public --------------------------------------------------------------------------------

    def extremes(self, i: int, child: int, j: int) -> tuple[EdgeValue, EdgeValue] | None:
        """``(max W_ij, min W_ij)`` for the edge ``A(i, child) -> A(i, child - {j})``
        (bitmasks over the model's tuples); None when ``W_ij`` is empty."""
        return self._extremes[(i, child, j)]


def compare_edges(x: EdgeValue, y: EdgeValue) -> int:
    """Decided sign of ``x - y``: ball separation, else the exact exp-polynomial sign.

    Args:
        x: an element of some ``W_ij``.
        y: another.

    Returns:
        -1, 0 or 1, the exact sign of ``x - y`` (balls at rising precision, then the exact
        zero test; 0 at once for the same element).

    References:
        Johansson, Arb (2017) (ball arithmetic) and the Lindemann-Weierstrass theorem (the
        exact test); the values are Li et al. (2019), Section V-B, Eq. 9 impacts.
    """
    if x.same_as(y):
        return 0
    bx, by = x.ball(BALL_PREC), y.ball(BALL_PREC)
    if bx < by:
        return -1
    if bx > by:
        return 1
    return separate(x.ball, y.ball, BALL_PREC) or x.value.exact_compare(y.value)

"""WHG edges: the impact d_j (Eq. 9), the set W_ij (Eq. 10), the Theorem 2 step (Eq. 11)
and the increment ratio q_ij (Eq. 12-13) of Li et al. Section V-B, computed exactly.

The equations are lost from the seed text; this module implements the readings of
our reading of the lost Eq. 9-13. For the edge from ``A(i, K)`` to its ancestor
``A(i, K - {j})``, a context ``x_{K-{j}}`` and an ordered target pair ``x_i^a > x_i^b``
(ordered by ``w_i x_i``, the paper's reduction ``x' = w x`` of a linear query to a sum)::

    right tail (r -> +inf):  d_j = ln  sum_xj th(xj|a,ctx) e^{ w_j xj/lam} / sum_xj th(xj|b,ctx) e^{ w_j xj/lam}
    left tail  (r -> -inf):  d_j = ln  sum_xj th(xj|b,ctx) e^{-w_j xj/lam} / sum_xj th(xj|a,ctx) e^{-w_j xj/lam}

Both are the extra log-ratio that *not* knowing ``x_j`` adds in the tail where the pair
``(a, b)`` (right) or ``(b, a)`` (left) leaks; with this orientation a positive
correlation gives ``d > 0`` in both readings. The reading is :class:`EdgeReading`.

- (10) ``W_ij`` = every ``d_j`` over ordered pairs and compatible contexts
  (both ``(a, ctx)`` and ``(b, ctx)`` of positive probability). Reading ``BOTH`` puts the
  impacts of both tails in ``W_ij`` (tested as a correction; see docs/whg.md).
- (11) Theorem 2 step: ``|PL(A(i,K)) + w_ij|`` with ``w_ij`` the element of ``W_ij`` that
  makes it largest (so ``max(|PL + max W|, |PL + min W|)``).
- (12-13) ``q = (lam / Delta_j) d_j`` at that element; ``w = q Delta_j / lam``.

Every ``d_j`` is a :class:`~pdpsym.core.expoly.LogRatio` and every sum of them is one
too (``ln a/b + ln c/d = ln ac/bd``), so every comparison here is exact.
Lemma 3 (Appendix B) and the conditional Pearson sign under ``th(. | x_{K-{j}})`` are here
as well, since Theorem 3 is stated in their terms.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

import numpy as np
import sympy
from flint import arb, ctx

from pdpsym.core.certify import Certified, certify, separate
from pdpsym.core.compare import (
    SCREEN_MARGIN,
    decided_max,
    decided_min,
    float_array,
    screen_then_decide,
    screenable_float,
)
from pdpsym.core.expoly import ExpPoly, LogRatio, ScaledLog, exp_ball
from pdpsym.core.numbers import fraction_str
from pdpsym.loss.laplace_mixture import log_mixture_floats
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.joint import JointDistribution


class EdgeReading(Enum):
    """Which tail limit Eq. 9 is read as."""

    RIGHT = "right"
    LEFT = "left"
    BOTH = "both"  # W_ij holds the impacts of both tails (a candidate correction)


#: the two single-tail readings (one impact each)
TAILS = (EdgeReading.RIGHT, EdgeReading.LEFT)


def rational_log(q: Fraction) -> LogRatio:
    """The rational ``q`` as ``ln(e^q / 1)``."""
    return LogRatio.of_rational(q)


def log_sum(a: LogRatio, b: LogRatio) -> LogRatio:
    """``ln(a) + ln(b)`` as one LogRatio, normalized to keep the polynomials small."""
    return LogRatio(a.num * b.num, a.den * b.den).normalized()


def log_abs_sum(a: LogRatio, b: LogRatio) -> LogRatio:
    """``|a + b|`` exactly."""
    return abs(log_sum(a, b))


def _log_cmp(x: LogRatio, y: LogRatio) -> int:
    return x.exact_compare(y)


def log_max(values: Sequence[LogRatio]) -> LogRatio:
    return decided_max(values, _log_cmp)[1]


def log_min(values: Sequence[LogRatio]) -> LogRatio:
    return decided_min(values, _log_cmp)[1]


@dataclass(frozen=True)
class Impact:
    """One element of ``W_ij``: ``d_j(x_i^a, x_i^b)`` in the context ``x_{K-{j}}``."""

    target: str
    j: str
    x_a: Fraction
    x_b: Fraction
    context: tuple[tuple[str, Fraction], ...]
    value: LogRatio
    reading: EdgeReading

    def as_json(self, digits: int = 30) -> dict[str, Any]:
        return {
            "target": self.target,
            "j": self.j,
            "x_a": fraction_str(self.x_a),
            "x_b": fraction_str(self.x_b),
            "context": {k: fraction_str(v) for k, v in self.context},
            "d": certify(self.value, digits).as_json(),
            "reading": self.reading.value,
        }


def _conditional_of_j(
    model: JointDistribution, target: str, j: str, x_i: Fraction, context: dict[str, Fraction]
) -> dict[Fraction, Fraction] | None:
    """``th(x_j | x_i, ctx)`` as value -> probability (None when the event has probability 0)."""
    names = [target, j, *context]
    marg = model.marginal(names)
    given = {target: x_i, **context}
    if marg.prob(given) == 0:
        return None
    cond = marg.conditional(given)
    return {row[0]: p for row, p in cond.probs.items()}


def impact(
    model: JointDistribution,
    target: str,
    j: str,
    x_a: Fraction,
    x_b: Fraction,
    context: dict[str, Fraction],
    lam: Fraction,
    query: LinearQuery,
    reading: EdgeReading = EdgeReading.RIGHT,
) -> LogRatio | None:
    """Eq. 9 for one ordered pair and context (None when the pair is not compatible)."""
    if reading is EdgeReading.BOTH:
        raise ValueError("one impact has one tail; BOTH is a reading of the set W_ij")
    ta = _conditional_of_j(model, target, j, Fraction(x_a), context)
    tb = _conditional_of_j(model, target, j, Fraction(x_b), context)
    if ta is None or tb is None:
        return None
    wj = query.weight(j)
    sgn = 1 if reading is EdgeReading.RIGHT else -1

    def mgf(theta: dict[Fraction, Fraction]) -> ExpPoly:
        return ExpPoly({sgn * wj * x / Fraction(lam): p for x, p in theta.items()})

    if reading is EdgeReading.RIGHT:
        return LogRatio(mgf(ta), mgf(tb))
    return LogRatio(mgf(tb), mgf(ta))


def ordered_pairs(
    model: JointDistribution, target: str, query: LinearQuery
) -> list[tuple[Fraction, Fraction]]:
    """Target pairs ``(a, b)`` with ``w_i a > w_i b`` (the reduction to a sum)."""
    w = query.weight(target)
    dom = model.domain(target)
    return [(a, b) for a in dom for b in dom if w * a > w * b]


def impact_set(
    model: JointDistribution,
    target: str,
    known: Sequence[str],
    j: str,
    lam: Fraction,
    query: LinearQuery,
    reading: EdgeReading = EdgeReading.RIGHT,
) -> list[Impact]:
    """Eq. 10: ``W_ij`` for the edge ``A(i, K) -> A(i, K - {j})`` (``j`` in ``known``)."""
    if j not in known:
        raise ValueError(f"{j} is not known")
    if reading is EdgeReading.BOTH:
        return [
            *impact_set(model, target, known, j, lam, query, EdgeReading.RIGHT),
            *impact_set(model, target, known, j, lam, query, EdgeReading.LEFT),
        ]
    ctx_names = [k for k in known if k != j]
    out = []
    for values in itertools.product(*(model.domain(k) for k in ctx_names)):
        ctx = dict(zip(ctx_names, values, strict=True))
        for a, b in ordered_pairs(model, target, query):
            d = impact(model, target, j, a, b, ctx, Fraction(lam), query, reading)
            if d is not None:
                out.append(Impact(target, j, a, b, tuple(ctx.items()), d, reading))
    return out


@dataclass(frozen=True)
class Step:
    """Theorem 2 (Eq. 11): the ancestor value ``|PL + w|`` and the chosen ``w`` in ``W_ij``."""

    value: LogRatio
    edge: Impact | None  # None when W_ij is empty (no compatible pair)


def theorem2_step(child: LogRatio, W: Sequence[Impact]) -> Step:
    """``max over w in W of |child + w|`` (Eq. 11); the child's value when W is empty."""
    if not W:
        return Step(child, None)
    # the float extremes go first (a good first guess), then every element is compared
    # exactly: the first exact maximum (minimum) after the guess is kept
    hi = max(W, key=lambda e: float(e.value))
    lo = min(W, key=lambda e: float(e.value))
    hi = decided_max([hi, *W], _impact_cmp)[1]
    lo = decided_min([lo, *W], _impact_cmp)[1]
    a, b = log_abs_sum(child, hi.value), log_abs_sum(child, lo.value)
    return Step(a, hi) if a.exact_compare(b) >= 0 else Step(b, lo)


def _impact_cmp(x: Impact, y: Impact) -> int:
    return x.value.exact_compare(y.value)


@dataclass(frozen=True)
class IncrementRatio(ScaledLog):
    """Eq. 13: ``q = (lam / Delta_j) d_j``, kept as the factor and the exact log
    (``sympy``, ``arb`` and ``compare_rational`` from :class:`~pdpsym.core.expoly.ScaledLog`)."""

    factor: Fraction  # lam / Delta_j, positive
    d: LogRatio

    def scaled_log(self) -> LogRatio:
        return self.d

    def sign(self) -> int:
        return self.d.sign()

    def compare(self, q: Fraction) -> int:
        """Exact sign of ``q_ij - q``."""
        return self.compare_rational(q)

    def certified(self, digits: int = 30) -> Certified:
        return certify(self.sympy(), digits)


def increment_ratio(
    d: LogRatio, model: JointDistribution, j: str, lam: Fraction, query: LinearQuery
) -> IncrementRatio | None:
    """Eq. 13 (None when ``Delta_j = 0``: no edge to normalize)."""
    delta = query.sensitivity(model, j)
    if delta == 0:
        return None
    return IncrementRatio(Fraction(lam) / delta, d)


# --- correlation: Pearson under th(. | x_{K-{j}}) and Lemma 3 -----------------------------


def conditional_pair(
    model: JointDistribution, target: str, j: str, context: dict[str, Fraction]
) -> JointDistribution | None:
    """``th(x_i, x_j | x_{K-{j}})`` (None when the context has probability 0)."""
    marg = model.marginal([target, j, *context])
    if context and marg.prob(context) == 0:
        return None
    return marg.conditional(context) if context else marg


def conditional_pearson_sign(
    model: JointDistribution,
    target: str,
    j: str,
    context: dict[str, Fraction],
    query: LinearQuery | None = None,
) -> int:
    """sign of rho(w_i x_i, w_j x_j) under ``th(. | ctx)`` (weights 1 for the sum)."""
    pair = conditional_pair(model, target, j, context)
    if pair is None:
        raise ValueError("context of probability 0")
    s = pair.pearson_sign(target, j)
    if query is not None:
        wi, wj = query.weight(target), query.weight(j)
        s *= ((wi > 0) - (wi < 0)) * ((wj > 0) - (wj < 0))
    return s


def lemma3_sides(pair: JointDistribution, target: str, j: str) -> tuple[int, int]:
    """Lemma 3 for binary ``x_i``: (sign rho, sign(E[x_j | high] - E[x_j | low]))."""
    lo, hi = min(pair.domain(target)), max(pair.domain(target))
    rho = pair.pearson_sign(target, j)
    marg = pair.marginal([target])
    if marg.prob({target: lo}) == 0 or marg.prob({target: hi}) == 0:
        return rho, 0
    e_hi = pair.conditional({target: hi}).expectation(j)
    e_lo = pair.conditional({target: lo}).expectation(j)
    diff = e_hi - e_lo
    return rho, (diff > 0) - (diff < 0)


def lemma3_symbolic() -> bool:
    """Symbolic proof: ``cov = p(1-p)(h-l)(m_h - m_l)`` for binary ``x_i in {l, h}``.

    With ``P(x_i = h) = p`` and conditional means ``m_h, m_l`` of ``x_j``,
    ``E[x_i x_j] = p h m_h + (1-p) l m_l`` and ``E[x_i] E[x_j] = (p h + (1-p) l)(p m_h + (1-p) m_l)``.
    Since ``p(1-p) > 0`` (both values possible) and ``h > l``, sign(cov) = sign(m_h - m_l).
    """
    p, h, l, mh, ml = sympy.symbols("p h l m_h m_l")
    cov = p * h * mh + (1 - p) * l * ml - (p * h + (1 - p) * l) * (p * mh + (1 - p) * ml)
    return sympy.expand(cov - p * (1 - p) * (h - l) * (mh - ml)) == 0


def contexts(model: JointDistribution, names: Sequence[str]) -> list[dict[str, Fraction]]:
    """Every assignment of ``names`` with positive probability."""
    out = []
    for values in itertools.product(*(model.domain(k) for k in names)):
        ctx = dict(zip(names, values, strict=True))
        if not ctx or model.prob(ctx) > 0:
            out.append(ctx)
    return out


# --- every W_ij of a model at once (vectorized; used by the WHG) ---------------------------


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
        self._ball: arb | None = None
        self._text: str | None = None
        self._precise: dict[int, arb] | None = None

    @property
    def impact(self) -> Impact:
        if self._impact is None:
            self._impact = self._tables._impact_at(self._loc, self._rows)
        return self._impact

    @property
    def value(self) -> LogRatio:
        return self.impact.value

    def ball(self, prec: int) -> arb:
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
            return ExpPoly._clean({e: Fraction(q) for e, q in acc.items() if q})

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
    ) -> arb:
        j, r = loc[2], loc[3]
        sgn = 1 if self.readings[r] is EdgeReading.RIGHT else -1
        ma, mb = rows
        Ta, Tb = sum(ma), sum(mb)
        with ctx.workprec(prec):
            E = [exp_ball(e, prec) for e in self._shifted_exponents(j, sgn)]
            num = sum((arb(m * Tb) * e for m, e in zip(ma, E, strict=True) if m), arb(0))
            den = sum((arb(m * Ta) * e for m, e in zip(mb, E, strict=True) if m), arb(0))
            return num.log() - den.log() if sgn == 1 else den.log() - num.log()

    # -- public --------------------------------------------------------------------------------

    def extremes(self, i: int, child: int, j: int) -> tuple[EdgeValue, EdgeValue] | None:
        """``(max W_ij, min W_ij)`` for the edge ``A(i, child) -> A(i, child - {j})``
        (bitmasks over the model's tuples); None when ``W_ij`` is empty."""
        return self._extremes[(i, child, j)]


def compare_edges(x: EdgeValue, y: EdgeValue) -> int:
    """Decided sign of ``x - y``: ball separation, else the exact exp-polynomial sign."""
    if x.same_as(y):
        return 0
    bx, by = x.ball(BALL_PREC), y.ball(BALL_PREC)
    if bx < by:
        return -1
    if bx > by:
        return 1
    return separate(x.ball, y.ball, BALL_PREC) or x.value.exact_compare(y.value)

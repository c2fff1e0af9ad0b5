"""WHG edges: the impact d_j (Eq. 9), the set W_ij (Eq. 10), the Theorem 2 step (Eq. 11)
and the increment ratio q_ij (Eq. 12-13) of Li et al. Section V-B, computed exactly.

The equations are lost from the seed text; this module implements the readings of
li2019-rebuilt.md ("Eq. 9-13"). For the edge from ``A(i, K)`` to its ancestor
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

Every ``d_j`` is a :class:`~pdpsym.exact.expoly.LogRatio` and every sum of them is one
too (``ln a/b + ln c/d = ln ac/bd``), so every comparison here is exact.
Lemma 3 (Appendix B) and the conditional Pearson sign under ``th(. | x_{K-{j}})`` are here
as well, since Theorem 3 is stated in their terms.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

import numpy as np
import sympy

from pdpsym.exact.certify import Certified, certify
from pdpsym.exact.compare import screen_then_decide
from pdpsym.exact.expoly import ExpPoly, LogRatio
from pdpsym.exact.numbers import fraction_str
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.discrete import JointDistribution


class EdgeReading(Enum):
    """Which tail limit Eq. 9 is read as."""

    RIGHT = "right"
    LEFT = "left"
    BOTH = "both"  # W_ij holds the impacts of both tails (a candidate correction)


#: the two single-tail readings (one impact each)
TAILS = (EdgeReading.RIGHT, EdgeReading.LEFT)


def rational_log(q: Fraction) -> LogRatio:
    """The rational ``q`` as ``ln(e^q / 1)``."""
    return LogRatio(ExpPoly({Fraction(q): Fraction(1)}), ExpPoly.constant(1))


def log_sum(a: LogRatio, b: LogRatio) -> LogRatio:
    """``ln(a) + ln(b)`` as one LogRatio, normalized to keep the polynomials small."""
    return LogRatio(a.num * b.num, a.den * b.den).normalized()


def log_abs_sum(a: LogRatio, b: LogRatio) -> LogRatio:
    """``|a + b|`` exactly."""
    return abs(log_sum(a, b))


def log_max(values: Sequence[LogRatio]) -> LogRatio:
    best = values[0]
    for v in values[1:]:
        if v.exact_compare(best) > 0:
            best = v
    return best


def log_min(values: Sequence[LogRatio]) -> LogRatio:
    best = values[0]
    for v in values[1:]:
        if v.exact_compare(best) < 0:
            best = v
    return best


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
    hi = max(W, key=lambda e: float(e.value))
    lo = min(W, key=lambda e: float(e.value))
    # floats only pick candidates; the extremes are then confirmed exactly
    hi = _exact_extreme(W, hi, 1)
    lo = _exact_extreme(W, lo, -1)
    a, b = log_abs_sum(child, hi.value), log_abs_sum(child, lo.value)
    return Step(a, hi) if a.exact_compare(b) >= 0 else Step(b, lo)


def _exact_extreme(W: Sequence[Impact], guess: Impact, direction: int) -> Impact:
    best = guess
    for e in W:
        if e.value.exact_compare(best.value) * direction > 0:
            best = e
    return best


@dataclass(frozen=True)
class IncrementRatio:
    """Eq. 13: ``q = (lam / Delta_j) d_j``, kept as the factor and the exact log."""

    factor: Fraction  # lam / Delta_j
    d: LogRatio

    def sign(self) -> int:
        return self.d.sign()

    def compare(self, q: Fraction) -> int:
        """Exact sign of ``q_ij - q``."""
        from pdpsym.pdp.leakage import compare_log_ratio_rational

        return compare_log_ratio_rational(self.d, Fraction(q) / self.factor)

    def sympy(self) -> sympy.Expr:
        f = self.factor
        return sympy.Rational(f.numerator, f.denominator) * self.d.sympy()

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


class EdgeTables:
    """The extremes of every ``W_ij`` of a model, from integer marginal counts.

    The impact of Eq. 9 only needs ``th(x_j | x_i, x_{K-{j}})``, i.e. the marginal counts
    of the tuples ``{i} + K``. The marginals of every subset are computed once, each
    from a marginal one tuple larger, so the ``n (n-1) 2^(n-2)`` edges of a WHG cost a
    few numpy reductions each. Candidates are ranked in float64 and the maximum and
    minimum of ``W_ij`` (all Theorem 2 needs, Eq. 11) are decided exactly among the
    near-ties (:func:`pdpsym.exact.compare.screen_then_decide`). Impacts are built from
    integer counts: ``ln sum_x M[a,x,c] T_b e^{w x/lam} / sum_x M[b,x,c] T_a e^{w x/lam}``
    (``T_a = sum_x M[a,x,c]``), the same value as :func:`impact`.
    """

    def __init__(
        self,
        model: JointDistribution,
        lam: Fraction,
        query: LinearQuery,
        reading: EdgeReading = EdgeReading.RIGHT,
    ) -> None:
        self.model, self.lam, self.query, self.reading = model, Fraction(lam), query, reading
        n = model.n
        full = (1 << n) - 1
        self._marg: dict[int, np.ndarray] = {full: model.counts}
        for mask in sorted(range(full), key=lambda m: -bin(m).count("1")):
            missing = ~mask & full
            v = (missing & -missing).bit_length() - 1
            parent = mask | (1 << v)
            axis = bin(parent & ((1 << v) - 1)).count("1")
            self._marg[mask] = self._marg[parent].sum(axis=axis)
        self._pairs = {}
        for t, name in enumerate(model.variables):
            w = query.weight(name)
            dom = model.domain(name)
            self._pairs[t] = np.array(
                [[w * a > w * b for b in dom] for a in dom], dtype=bool
            ).reshape(len(dom), len(dom))

    def _table(self, i: int, j: int, child: int) -> tuple[np.ndarray, list[int]]:
        """Counts ``M[a, x_j, ctx]`` for ``{i} + child`` and the context tuples (model order)."""
        S = child | (1 << i)
        order = [v for v in range(self.model.n) if S >> v & 1]
        ctx = [v for v in order if v not in (i, j)]
        M = np.transpose(
            self._marg[S], [order.index(i), order.index(j)] + [order.index(c) for c in ctx]
        )
        d_i, d_j = M.shape[0], M.shape[1]
        return M.reshape(d_i, d_j, -1), ctx

    def extremes(self, i: int, child: int, j: int) -> tuple[Impact, Impact] | None:
        """``(max W_ij, min W_ij)`` for the edge ``A(i, child) -> A(i, child - {j})``
        (bitmasks over the model's tuples); None when ``W_ij`` is empty."""
        M, ctx = self._table(i, j, child)
        Mf = M.astype(float)
        T = M.sum(axis=1)
        Tf = T.astype(float)
        xj = self.model.domain(self.model.variables[j])
        wj = self.query.weight(self.model.variables[j])
        pairs = self._pairs[i]
        ok = (T > 0)[:, None, :] & (T > 0)[None, :, :] & pairs[:, :, None]
        if not ok.any():
            return None
        readings = TAILS if self.reading is EdgeReading.BOTH else (self.reading,)
        floats, index = [], []
        with np.errstate(divide="ignore", invalid="ignore"):
            logM = np.log(Mf)
            logT = np.log(Tf)
            for rd in readings:
                sgn = 1 if rd is EdgeReading.RIGHT else -1
                ex = np.array([float(sgn * wj * x / self.lam) for x in xj])
                terms = logM + ex[None, :, None]
                top = np.max(np.where(np.isfinite(terms), terms, -np.inf), axis=1)
                top = np.where(np.isfinite(top), top, 0.0)
                L = top + np.log(np.exp(terms - top[:, None, :]).sum(axis=1)) - logT
                d = L[:, None, :] - L[None, :, :] if sgn == 1 else L[None, :, :] - L[:, None, :]
                floats.append(np.where(ok, d, np.nan))
                index.append(rd)
        F = np.stack(floats)  # (reading, a, b, ctx)
        shape = F.shape
        names = self.model.variables
        ctx_domains = [self.model.domain(names[c]) for c in ctx]

        def exact_of(flat: int) -> Impact:
            r, a, b, c = (int(x) for x in np.unravel_index(flat, shape))
            rd = index[r]
            sgn = 1 if rd is EdgeReading.RIGHT else -1
            Ta, Tb = int(T[a, c]), int(T[b, c])

            def mgf(row: int, factor: int) -> ExpPoly:
                acc: dict[Fraction, Fraction] = {}
                for x, m in zip(xj, M[row, :, c].tolist(), strict=True):
                    if m:
                        e = sgn * wj * x / self.lam
                        acc[e] = acc.get(e, Fraction(0)) + int(m) * factor
                return ExpPoly._clean({e: v for e, v in acc.items() if v})

            value = (
                LogRatio(mgf(a, Tb), mgf(b, Ta)) if sgn == 1 else LogRatio(mgf(b, Ta), mgf(a, Tb))
            )
            idx = np.unravel_index(c, [len(d) for d in ctx_domains]) if ctx else ()
            context = tuple(
                (names[v], dom[int(k)]) for v, dom, k in zip(ctx, ctx_domains, idx, strict=True)
            )
            dom_i = self.model.domain(names[i])
            return Impact(names[i], names[j], dom_i[a], dom_i[b], context, value, rd)

        finite = np.where(np.isnan(F), -np.inf, F)
        _, hi, _ = screen_then_decide(finite, exact_of, _cmp_impacts)
        neg = np.where(np.isnan(F), -np.inf, -F)
        _, lo, _ = screen_then_decide(neg, exact_of, lambda x, y: _cmp_impacts(y, x))
        return hi, lo


def _cmp_impacts(x: Impact, y: Impact) -> int:
    return x.value.exact_compare(y.value)

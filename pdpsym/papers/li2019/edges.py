"""WHG edges: the impact d_j (Eq. 9), the set W_ij (Eq. 10), the Theorem 2 step (Eq. 11)
and the increment ratio q_ij (Eq. 12-13) of Li et al. Section V-B, computed exactly.

This module implements Eq. 9-13 as we read them (the equations are reconstructed from
the surrounding text of Sec. V-B; see docs/whg.md). For the edge from ``A(i, K)`` to its ancestor
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

Every ``d_j`` is a :class:`~pdpsym.core.exp_polynomials.LogRatio` and every sum of them is one
too (``ln a/b + ln c/d = ln ac/bd``), so every comparison here is exact.
Lemma 3 (Appendix B) and the conditional Pearson sign under ``th(. | x_{K-{j}})``, in
whose terms Theorem 3 is stated, are in :mod:`pdpsym.papers.li2019.correlation`; every
``W_ij`` of a model at once is :mod:`pdpsym.papers.li2019.edge_tables`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

from pdpsym.core.certify import Certified, certify
from pdpsym.core.compare import (
    decided_max,
    decided_min,
)
from pdpsym.core.exp_polynomials import ExpPoly, LogRatio, ScaledLog
from pdpsym.core.numbers import fraction_str
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
    """The rational ``q`` as ``ln(e^q / 1)``.

    Args:
        q: a rational.

    Returns:
        The exact LogRatio whose value is ``q`` (so it can be added to and compared with
        other log-ratios).

    References:
        Johansson, Arb (2017), for deciding signs of exponential polynomials; the values
        compared are Li et al. (2019) Eq. 9-11 edge and node values (Section V).
    """
    return LogRatio.of_rational(q)


def log_sum(a: LogRatio, b: LogRatio) -> LogRatio:
    """``ln(a) + ln(b)`` as one LogRatio, normalized to keep the polynomials small.

    Args:
        a: a log-ratio ``ln(num/den)``.
        b: another.

    Returns:
        The exact LogRatio ``ln(a.num b.num / (a.den b.den))``, normalized (exponents shifted,
        coefficients integral; same value).

    References:
        Johansson, Arb (2017), for deciding signs of exponential polynomials; the values
        compared are Li et al. (2019) Eq. 9-11 edge and node values (Section V).
    """
    return LogRatio(a.num * b.num, a.den * b.den).normalized()


def log_abs_sum(a: LogRatio, b: LogRatio) -> LogRatio:
    """``|a + b|`` exactly.

    Args:
        a: a log-ratio.
        b: another.

    Returns:
        The exact LogRatio of ``|a + b|`` (the sign decided exactly).

    References:
        Li et al. (2019), Section V-B, Theorem 2, Eq. 11 (the step ``|PL + w|``).
    """
    return abs(log_sum(a, b))


def _log_cmp(x: LogRatio, y: LogRatio) -> int:
    return x.exact_compare(y)


def log_max(values: Sequence[LogRatio]) -> LogRatio:
    """The largest of ``values``, every comparison decided exactly.

    Args:
        values: a non-empty sequence of log-ratios.

    Returns:
        The first maximal element, as given (exact).

    References:
        Johansson, Arb (2017), for deciding signs of exponential polynomials; the values
        compared are Li et al. (2019) Eq. 9-11 edge and node values (Section V).
    """
    return decided_max(values, _log_cmp)[1]


def log_min(values: Sequence[LogRatio]) -> LogRatio:
    """The smallest of ``values``: :func:`log_max` the other way round.

    Args:
        values: as for :func:`log_max`.

    Returns:
        The first minimal element, as given (exact).

    References:
        As for :func:`log_max`.
    """
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
        """The impact as JSON-ready plain objects: the pair, the context, its reading and ``d``
        certified to ``digits`` significant digits.
        """
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
    """Eq. 9 for one ordered pair and context (None when the pair is not compatible).

    Right tail: ``d_j = ln sum_xj th(xj|a,ctx) e^(w_j xj/lam) / sum_xj th(xj|b,ctx)
    e^(w_j xj/lam)``; left tail: the same with ``-w_j`` and ``a``, ``b`` swapped.

    Args:
        model: the joint distribution ``theta`` of the tuples.
        target: the name of the target tuple ``i``.
        j: the name of the tuple whose knowledge the edge removes.
        x_a: the larger target value of the ordered pair (by ``w_i x_i``).
        x_b: the smaller one.
        context: the values of ``x_{K-{j}}``, by name.
        lam: the Laplace scale, > 0.
        query: the linear query (``w_j`` enters the exponents).
        reading: ``EdgeReading.RIGHT`` or ``EdgeReading.LEFT``; ``BOTH`` is a reading of the
            set ``W_ij``, not of one impact (a ValueError).

    Returns:
        The exact ``d_j`` as a LogRatio of two exponential polynomials, or None when
        ``(x_a, ctx)`` or ``(x_b, ctx)`` has probability 0.

    References:
        Li et al. (2019), Section V-B, Eq. 9 (rebuilt reading: the printed equation is
        lost; read as the limit, as the output goes to +infinity (right tail) or -infinity
        (left tail), of the extra log-ratio that not knowing x_j adds).
    """
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
    """Target pairs ``(a, b)`` with ``w_i a > w_i b`` (the reduction to a sum).

    Args:
        model: the joint distribution (for the target's domain).
        target: the name of the target tuple.
        query: the linear query (the sign of ``w_i`` orders the pairs; ``w_i = 0`` gives
            none).

    Returns:
        Every ordered pair of the target's domain, in domain order.

    References:
        Li et al. (2019), Section V-B, Eq. 10 (the pairs over which ``W_ij`` ranges; the
        ordering ``x_i^a > x_i^b`` is our reading of the lost equation) and Section III-A3
        (the reduction ``x' = w x``).
    """
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
    """Eq. 10: ``W_ij`` for the edge ``A(i, K) -> A(i, K - {j})`` (``j`` in ``known``).

    Args:
        model: the joint distribution ``theta`` of the tuples.
        target: the name of the target tuple ``i``.
        known: the known tuples ``K`` of the child node.
        j: the known tuple the edge removes (a ValueError when not in ``known``).
        lam: the Laplace scale, > 0.
        query: the linear query.
        reading: which tail Eq. 9 is read as; ``BOTH`` returns the right-tail impacts
            followed by the left-tail ones.

    Returns:
        One :class:`Impact` per ordered pair and compatible context (exact values), in
        context then pair order; empty when no pair is compatible.

    References:
        Li et al. (2019), Section V-B, Eq. 10 (rebuilt reading: every ordered pair
        ``x_i^a > x_i^b`` and every context), with each element from Eq. 9.
    """
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
    """``max over w in W of |child + w|`` (Eq. 11); the child's value when W is empty.

    Args:
        child: the exact leakage ``PL(A(i, K))`` of the child node.
        W: the elements of ``W_ij`` (from :func:`impact_set`).

    Returns:
        A :class:`Step`: the exact ancestor value ``max(|PL + max W|, |PL + min W|)`` and the
        chosen element (None when W is empty).

    References:
        Li et al. (2019), Section V-B, Theorem 2, Eq. 11 (rebuilt reading: ``w_ij`` is the
        element of ``W_ij`` that makes ``|PL + w|`` largest).
    """
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
    (``sympy``, ``arb`` and ``compare_rational`` from :class:`~pdpsym.core.exp_polynomials.ScaledLog`)."""

    factor: Fraction  # lam / Delta_j, positive
    d: LogRatio

    def scaled_log(self) -> LogRatio:
        """The log-ratio ``d_j`` that ``factor`` scales."""
        return self.d

    def sign(self) -> int:
        """The exact sign of ``q`` (that of ``d_j``, the factor being positive)."""
        return self.d.sign()

    def compare(self, q: Fraction) -> int:
        """Exact sign of ``q_ij - q``."""
        return self.compare_rational(q)

    def certified(self, digits: int = 30) -> Certified:
        """``q`` certified to ``digits`` significant digits."""
        return certify(self.sympy(), digits)


def increment_ratio(
    d: LogRatio, model: JointDistribution, j: str, lam: Fraction, query: LinearQuery
) -> IncrementRatio | None:
    """Eq. 13 (None when ``Delta_j = 0``: no edge to normalize).

    Args:
        d: the edge's impact ``d_j`` at the maximizing pair.
        model: the joint distribution (for ``x_j``'s domain).
        j: the name of the tuple the edge removes.
        lam: the Laplace scale, > 0.
        query: the linear query; ``Delta_j = |w_j| (max X_j - min X_j)``.

    Returns:
        The exact :class:`IncrementRatio` ``q = (lam / Delta_j) d``, or None when
        ``Delta_j = 0``.

    References:
        Li et al. (2019), Section V-B, Eq. 12-13 (rebuilt reading: ``w_ij = q_ij Delta_j /
        lambda``), the increment ratio of Theorem 3.
    """
    delta = query.sensitivity(model, j)
    if delta == 0:
        return None
    return IncrementRatio(Fraction(lam) / delta, d)


def contexts(model: JointDistribution, names: Sequence[str]) -> list[dict[str, Fraction]]:
    """Every assignment of ``names`` with positive probability.

    Args:
        model: the joint distribution.
        names: the variables to assign (empty gives the one empty assignment).

    Returns:
        The assignments, as dicts from name to value, in domain (row-major) order.

    References:
        Li et al. (2019), Section V-B, Eq. 10 (the contexts ``x_{K-{j}}`` over which
        ``W_ij`` ranges).
    """
    out = []
    for values in itertools.product(*(model.domain(k) for k in names)):
        ctx = dict(zip(names, values, strict=True))
        if not ctx or model.prob(ctx) > 0:
            out.append(ctx)
    return out

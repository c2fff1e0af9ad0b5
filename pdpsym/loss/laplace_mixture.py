"""The sup over outputs of the log ratio of two Laplace mixtures, exactly.

Both Li et al. Eq. 2 (the conditional density ``p(r | x_i, x_K)`` is a mixture of Laplace
densities centred at the query values of the unknown tuples) and Liu et al.'s
dependence coefficient (Sec. VI-B, Eq. 14 rebuilt) take

    sup_r  ln  sum_s w1(s) e^{-|r - s|/b}  /  sum_s w2(s) e^{-|r - s|/b}.

**Breakpoint lemma** (``proofs/breakpoint_lemma.py``): between consecutive support points
the ratio is ``(A e^{r/b} + B e^{-r/b}) / (C e^{r/b} + D e^{-r/b})``, monotone, and beyond
the extreme points it is constant (the tails), so the sup is a max over the support
points (and the two tails, which equal the extreme points' values). At a rational ``r``
each value is a :class:`~pdpsym.core.exp_polynomials.LogRatio` of two exponential polynomials
with rational data, compared exactly.

Floats only rank: :func:`log_mixture_floats` is the float64 log of a mixture (one
log-sum-exp), and :func:`decided_sup` decides every near-tie, and every candidate the
floats cannot rank, exactly (:func:`pdpsym.core.compare.screen_then_decide`).

>>> w1 = {Fraction(0): Fraction(3, 5), Fraction(1): Fraction(2, 5)}
>>> w2 = {Fraction(1): Fraction(2, 5), Fraction(2): Fraction(3, 5)}
>>> value, where = laplace_mixture_sup(w1, w2, Fraction(1))
>>> value.exact_text(), where
('log((2*E + 3*exp(2))/(3 + 2*E))', '-inf')
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from pdpsym.core.compare import screen_then_decide
from pdpsym.core.errors import InputError
from pdpsym.core.exp_polynomials import ExpPoly, LogRatio

#: a mixture's weights: centre -> weight (unnormalized allowed); the package's one
#: definition of it
Weights = Mapping[Fraction, Fraction]


def laplace_mixture_at(
    weights: Weights | Mapping[int, int], b: Fraction, r: Fraction | int
) -> ExpPoly:
    """``2b`` times the density at ``r`` of ``Σ_s w(s) Lap(s, b)``: ``Σ_s w(s) e^{-|r - s|/b}``.

    Weights may be unnormalized; terms of equal distance ``|r - s|`` are merged, zero
    weights dropped. Integer inputs stay integers until the one division by ``b``.

    Args:
        weights: centre ``s`` -> exact weight ``w(s)`` (Fractions, or ints in scaled
            integer units).
        b: the Laplace scale, an exact rational ``> 0``.
        r: the output, an exact rational.

    Returns:
        The exact :class:`~pdpsym.core.exp_polynomials.ExpPoly` ``Σ_d c_d e^{-d/b}``.

    References:
        Li et al. (2019), Section IV-A, Eq. 2 (the conditional density
        ``p(r | x_i, x_K)`` as a Laplace mixture).
    """
    # group by distance |r - s| in the inputs' own arithmetic (ints stay ints: Eq. 2 works
    # in scaled integer units), then one division per distinct distance
    by_distance: dict[Any, Any] = {}
    for s, w in weights.items():
        if w:
            d = abs(r - s)
            by_distance[d] = by_distance.get(d, 0) + w
    b = Fraction(b)
    p, q = b.numerator, b.denominator
    # distinct distances give distinct exponents: no further merging
    return ExpPoly.trusted(
        {
            (Fraction(-d * q, p) if isinstance(d, int) else -Fraction(d) / b): Fraction(c)
            for d, c in by_distance.items()
            if c
        }
    )


def laplace_mixture_tail(weights: Weights | Mapping[int, int], b: Fraction, sign: int) -> ExpPoly:
    """The tail coefficient: the mixture is ``e^{-|r|/b}`` times it as ``r → sign · ∞``.

    Beyond the extreme centres ``e^{-|r-s|/b} = e^{-|r|/b} e^{sign · s/b}``, so the
    coefficient is ``Σ_s w(s) e^{sign · s/b}``.

    Args:
        weights: centre ``s`` -> exact weight ``w(s)``.
        b: the Laplace scale, an exact rational ``> 0``.
        sign: ``+1`` for the right tail, ``-1`` for the left.

    Returns:
        The exact :class:`~pdpsym.core.exp_polynomials.ExpPoly` ``Σ_s w(s) e^{sign · s/b}``.

    References:
        Li et al. (2019), Section IV-A, Eq. 2 (the sup over r, approached on the tails).
    """
    return ExpPoly((sign * s / b, w) for s, w in weights.items() if w != 0)


def log_mixture_floats(log_weights: np.ndarray, exponents: np.ndarray, axis: int) -> np.ndarray:
    """``ln Σ_s e^{log_weights + exponents}`` along ``axis`` in float64 (log-sum-exp).

    ``-inf`` weights are absent terms; at least one term must be present (a mixture with
    none gives nan). For ranking only: never a reported value.

    Args:
        log_weights: the logs of the weights.
        exponents: the exponents ``-|r - s|/b`` (broadcast against ``log_weights``).
        axis: the axis that runs over the centres ``s``.

    Returns:
        The float64 logs of the mixtures.

    References:
        Blanchard, Higham, Higham, "Accurately computing the log-sum-exp and softmax
        functions" (2021).
    """
    terms = log_weights + exponents
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        top = terms.max(axis=axis)
        # a mixture with no term at all gives nan (never a valid candidate)
        return top + np.log(np.exp(terms - np.expand_dims(top, axis)).sum(axis=axis))


@dataclass(frozen=True)
class MixtureCandidate:
    """ln(mixture1/mixture2) at one output: r (a rational) or a tail (tail = +1 or -1).

    The exact LogRatio is built only when asked for; the float is for screening only.
    """

    w1: Mapping[Fraction, Fraction]
    w2: Mapping[Fraction, Fraction]
    b: Fraction
    r: Fraction | None
    tail: int = 0

    @property
    def where(self) -> str:
        """Where the candidate sits: ``"r=<value>"``, ``"+inf"`` or ``"-inf"``."""
        return f"r={self.r}" if self.r is not None else ("+inf" if self.tail > 0 else "-inf")

    def _exponents(self, w: Mapping[Fraction, Fraction]) -> list[tuple[Fraction, Fraction]]:
        if self.r is None:
            return [(self.tail * s / self.b, c) for s, c in w.items() if c]
        return [(-abs(self.r - s) / self.b, c) for s, c in w.items() if c]

    def screen(self) -> tuple[float, float]:
        """The float value and the magnitude of its intermediates (nan, inf when they are
        out of float range: the candidate is then decided exactly)."""
        try:
            parts = [
                [(float(a), math.log(float(c))) for a, c in self._exponents(w)]
                for w in (self.w1, self.w2)
            ]
        except (OverflowError, ValueError):
            return math.nan, math.inf
        logs = [
            float(log_mixture_floats(np.array([c for _, c in p]), np.array([a for a, _ in p]), 0))
            for p in parts
        ]
        scale = max(abs(x) for p in parts for pair in p for x in pair)
        return logs[0] - logs[1], scale

    def exact(self) -> LogRatio:
        """The exact log-ratio at this candidate.

        Returns:
            :class:`~pdpsym.core.exp_polynomials.LogRatio` of the two mixtures at ``r`` (or of their
            tail coefficients on a tail).
        """
        if self.r is None:
            return LogRatio(
                laplace_mixture_tail(self.w1, self.b, self.tail),
                laplace_mixture_tail(self.w2, self.b, self.tail),
            )
        return LogRatio(
            laplace_mixture_at(self.w1, self.b, self.r), laplace_mixture_at(self.w2, self.b, self.r)
        )


def mixture_candidates(
    w1: Mapping[Fraction, Fraction], w2: Mapping[Fraction, Fraction], b: Fraction
) -> list[MixtureCandidate]:
    """The candidates for the sup over r: both tails and every support point.

    By the breakpoint lemma the log-ratio of two Laplace mixtures is monotone between
    consecutive support points and constant beyond the extreme ones, so its sup over
    ``r`` is attained among these.

    Args:
        w1: the numerator mixture's centre -> weight.
        w2: the denominator mixture's centre -> weight.
        b: the Laplace scale, ``> 0``.

    Returns:
        The two tail candidates, then one per support point of ``w1`` or ``w2`` in
        increasing order.

    Raises:
        InputError: (field ``b``) when ``b ≤ 0``.

    References:
        Li et al. (2019), Section IV-A, Eq. 2 (the project's breakpoint lemma gives the
        finite candidate set).
    """
    if b <= 0:
        raise InputError("b", "Laplace scale must be > 0")
    cands = [MixtureCandidate(w1, w2, b, None, 1), MixtureCandidate(w1, w2, b, None, -1)]
    cands += [MixtureCandidate(w1, w2, b, s) for s in sorted(set(w1) | set(w2))]
    return cands


def decided_sup(cands: Sequence[MixtureCandidate]) -> tuple[LogRatio, int]:
    """The exact max over candidates: floats rank, every near-tie is decided exactly.

    Args:
        cands: the candidates (at least one).

    Returns:
        ``(the maximal LogRatio, its index in cands)``; the value is exact
        (:class:`~pdpsym.core.exp_polynomials.LogRatio`), decided by exact comparison where the
        floats cannot separate candidates.

    References:
        Li et al. (2019), Section IV-A, Eq. 2; Johansson, Arb (2017) for the certified
        comparisons.
    """
    screened = [c.screen() for c in cands]
    floats = np.array([v for v, _ in screened])
    scale = max((s for _, s in screened), default=0.0)
    idx, best, _ = screen_then_decide(
        floats,
        lambda k: cands[k].exact(),
        lambda x, y: x.exact_compare(y),
        valid=np.ones(len(cands), dtype=bool),
        scale=scale,
    )
    return best, idx


def laplace_mixture_sup(
    w1: Mapping[Fraction, Fraction], w2: Mapping[Fraction, Fraction], b: Fraction
) -> tuple[LogRatio, str]:
    """``sup_r ln(mixture1(r)/mixture2(r))``, exactly, and where it is attained.

    Args:
        w1: the numerator mixture's centre -> exact weight (unnormalized allowed).
        w2: the denominator mixture's centre -> exact weight.
        b: the common Laplace scale, an exact rational ``> 0``.

    Returns:
        ``(value, where)``: the exact :class:`~pdpsym.core.exp_polynomials.LogRatio` and the
        location ``"r=<s>"``, ``"+inf"`` or ``"-inf"``.

    Raises:
        InputError: (field ``b``) when ``b ≤ 0``.

    References:
        Li et al. (2019), Section IV-A, Eq. 2 (the leakage of one pair ``x_i, x_i'`` at
        one ``x_K``); Liu et al. (2016), Section VI-B (the dependence coefficient
        ``ρ_ij`` takes the same sup).
    """
    cands = mixture_candidates(w1, w2, b)
    best, idx = decided_sup(cands)
    return best, cands[idx].where


__all__ = [
    "MixtureCandidate",
    "decided_sup",
    "laplace_mixture_at",
    "laplace_mixture_sup",
    "laplace_mixture_tail",
    "log_mixture_floats",
    "mixture_candidates",
]

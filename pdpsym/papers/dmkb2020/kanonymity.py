"""Theorem 5 of DMKB20 (Section 4.3): k-anonymity of a three-valued histogram.

The theorem (as printed) gives ``(eps, delta)`` from the thresholding bound of Theorem 4
with ``k = T + 1`` in ``r``, ``delta_0 = 2 f(T, n-1, lam)/(1-r)`` and ``eps`` from
``P[X/Y >= eps_c] <= delta`` (``X, Y ~ Bin(n-1, 2 lam)``). Its proof chains a rare value
through ``⊥`` to another value; :func:`theorem5_corrected` makes that chaining explicit
(``(2 eps', (1 + e^eps') delta')``, not ``2 delta'``). Both are readings the claim
dmkb2020.thm5 checks against the exact ``delta`` of the mechanism.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import sympy

from pdpsym.core.compare import compare
from pdpsym.core.eps import Eps
from pdpsym.papers.dmkb2020 import counting as pc
from pdpsym.papers.dmkb2020 import thresholding as pt


def thresholding_delta(n: int, lam: Fraction, T: int) -> Fraction | None:
    """Theorem 4's ``delta' = f(T, n-1, lam)/(1-r)`` with ``k = T + 1`` in ``r``.

    ``r = lam(n-1)/((1-lam)k)``, as Theorem 5 prints it.

    Args:
        n: the number of records.
        lam: the λ of Theorem 5 (a bound on the rare values' probability).
        T: the threshold (k = T + 1).

    Returns:
        δ' as an exact Fraction, or None when ``r >= 1`` or ``delta' >= 1``.

    References:
        Desfontaines et al., Section 4.3, Theorem 5; Section 4.2, Theorem 4.
    """
    r = lam * (n - 1) / ((1 - lam) * (T + 1))
    if r >= 1:
        return None
    x = pt.f(T, n - 1, lam) / (1 - r)
    return x if x < 1 else None


def theorem5_printed(
    n: int, lam: Fraction, T: int, delta: Fraction | None = None
) -> tuple[Fraction, Eps] | None:
    """Theorem 5 as printed (k = T + 1 in r, X/Y read as printed); ``None`` if inapplicable.

    ``delta_0 = 2 delta'`` and ε is twice the larger of Theorem 4's ε and ``eps_c``, a
    rational 10^-6 above the largest level v of X/Y with ``P[X/Y >= v] > delta`` (so
    ``P[X/Y >= eps_c] <= delta``; X, Y independent ``Bin(n-1, 2 lam)``, ``x/0 = ∞``).

    Args:
        n: the number of records.
        lam: the λ of Theorem 5.
        T: the threshold (k = T + 1).
        delta: δ (None: δ_0).

    Returns:
        ``(delta, eps)`` with δ an exact Fraction and ε an exact
        :class:`~pdpsym.core.eps.Eps`, or None when the theorem does not apply.

    References:
        Desfontaines et al., Section 4.3, Theorem 5 and Definition 16 (k-anonymity
        mechanism).
    """
    x = thresholding_delta(n, lam, T)
    if x is None:
        return None
    delta0 = 2 * x
    d = delta0 if delta is None else delta
    # smallest ratio level c with P[X/Y >= c'] <= d for all c' > c (X, Y ~ Bin(n-1, 2 lam))
    m, q = n - 1, 2 * lam
    pm = [pt.f(s, m, q) for s in range(m + 1)]
    levels: dict[Fraction | None, Fraction] = {}
    for xx in range(m + 1):
        for yy in range(m + 1):
            key = None if yy == 0 else Fraction(xx, yy)  # None: x/0 = oo
            levels[key] = levels.get(key, Fraction(0)) + pm[xx] * pm[yy]
    mass = levels.pop(None, Fraction(0))
    if mass > d:
        return None
    finite: dict[Fraction, Fraction] = {k: v for k, v in levels.items() if k is not None}
    eps_c = None
    for v in sorted(finite, reverse=True):
        if mass + finite[v] > d:
            eps_c = v + Fraction(1, 10**6)
            break
        mass += finite[v]
    if eps_c is None:
        eps_c = Fraction(0)
    # eps = 2 max(-ln(1 - x), eps_c): compare e^{2 eps_c} with 1/(1-x)^2
    c0 = 1 / (1 - x) ** 2
    if (
        compare(
            sympy.exp(2 * sympy.Rational(eps_c.numerator, eps_c.denominator)),
            sympy.Rational(c0.numerator, c0.denominator),
        ).sign
        > 0
    ):
        return d, Eps.of(2 * eps_c)
    return d, Eps.from_exp(c0)


def theorem5_corrected(n: int, lam: Fraction, T: int) -> tuple[Fraction, Eps] | None:
    """The proof's argument with the chaining made explicit (a reading, checked exactly).

    ``t`` vs ``⊥``: a rare ``t`` is Theorem 4's thresholding (``eps' = eps_0``,
    ``delta' = x = f(T,n-1,lam)/(1-r)``); a common ``t`` is a post-processed count, bounded by
    the blanket curve at ``eps'``. Chaining ``t ~ ⊥ ~ t2`` gives ``(2 eps', (1 + e^eps') delta')``
    (not ``2 delta'``). Here ``eps' = eps_0``, so ``e^eps' = 1/(1-x)`` is rational. This is
    the corrected reading of the printed statement (an erratum).

    Args:
        n: the number of records.
        lam: the λ of Theorem 5.
        T: the threshold (k = T + 1).

    Returns:
        ``(delta, eps)``, δ an exact Fraction and ε an exact
        :class:`~pdpsym.core.eps.Eps` (``e^ε`` rational), or None when inapplicable.

    References:
        Desfontaines et al., Section 4.3, Theorem 5 (its proof), with Theorem 4 and
        Theorem 3's blanket bound (Section 4.1).
    """
    x = thresholding_delta(n, lam, T)
    if x is None:
        return None
    c = 1 / (1 - x)
    blanket = _blanket(n, lam, c)
    d1 = max(x, blanket)
    return (1 + c) * d1, Eps.from_exp(c * c)


@functools.lru_cache(maxsize=256)
def _blanket(n: int, lam: Fraction, c: Fraction) -> Fraction:
    v = pc.blanket_delta(n, lam, Eps.from_exp(c))
    assert isinstance(v, Fraction)
    return v

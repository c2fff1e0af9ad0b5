"""The worst target of the thresholding mechanism when the attacker knows some records.

``M_T`` over independent Bernoulli(p_i) records (Desfontaines et al., Definition 15); the
attacker knows ``|B|`` records, whose number of ones ``b`` has the exact law ``w_b`` (their
Poisson binomial). Definition 13 (with Theorem 1) gives target ``i`` the curve
``sum_b w_b delta_b(f_i)`` in each direction, ``f_i`` the law of its unknown peers' count.
This module extends :mod:`pdpsym.mechanisms.population` (Lemmas A-C, notation ``c = e^eps
>= 1``, ``L_t(f) = P_f[S >= t-1] - c P_f[S >= t]``, ``t(f)`` a law's threshold) from one
``L_t`` to the weighted sums, and finds the few targets that can be worst.

**The curves as weighted sums.** A known count ``b`` shifts the outputs: direction ``1,0``
has ``delta_b = max_{t >= u_b} L_t(f)`` with ``u_b = T + 1 - b`` (outputs ``k > T``; ``⊥``
never counts for ``c >= 1``), so by the unimodality of ``L_t`` in ``t`` it is
``L_{max(u_b, t(f))}(f)``. Direction ``0,1`` is direction ``1,0`` of the mirrored count
``f'`` (``p -> 1 - p``, ``m`` peers) with ``⊥`` and the outputs up to ``u`` telescoping:
``delta_b = max(0, L_{min(U_b, t(f'))}(f'))`` with ``U_b = m - T + b + 1``.

**Lemma D (the sums are maxima of linear functionals).** With ``τ`` ranging over
``{t(F) - 1, t(F)}`` (Lemma A: every target's threshold is one of them),
``sum_b w_b delta_b^{1,0}(f_i) = max_τ sum_b w_b L_{max(u_b, τ)}(f_i)`` and
``sum_b w_b delta_b^{0,1}(f_i) = max(0, max_{τ, β} sum_{b >= β} w_b L_{min(U_b, τ)}(f'_i))``
over ``β = 0..|B|``. *Proof.* Every term on the right is at most its ``delta_b`` (``L_t`` is
unimodal in ``t`` with its top at ``t(f)``, and the positive part is at least the value
and at least 0), so the right side is at most the left; at ``τ = t(f_i)`` the first is an
equality, and for the second at ``τ = t(f'_i)`` the terms ``L_{min(U_b, τ)}`` grow with
``b`` (``U_b`` grows, ``L_t`` rises up to ``t(f')``), so the positive ones are those with
``b >= β`` for some ``β``: an equality again.

**Lemma E (one sign change).** Let ``Λ(f) = sum_b w_b L_{t_b}(f)`` (weights ``w_b >= 0``),
``μ(r) = sum {w_b : t_b = r + 1}`` and ``a(r) = μ(r + 1) - c μ(r)``. If ``a`` is ``>= 0``
up to some ``r*`` and ``<= 0`` after it, then, with ``g_k`` as in Lemma C,
``D(g_k) = sum_r a(r) g_k(r) >= 0`` implies ``D(g_{k+1}) >= 0``, and the step
``v_k -> v_{k+1}`` lowers ``Λ`` iff ``D(g_k) >= 0``: ``Λ(f_{v_k})`` rises then falls in
``k`` and its top is found by bisection. *Proof.* Summing Lemma B over ``b``,
``Λ(f_i) - Λ(f_j) = (p_j - p_i) D(g)``. Lemma C's proof gives ``g_{k+1} = ρ g_k`` with ``ρ``
nonincreasing on the common support ``0..m-1`` (likelihood-ratio order); so
``D(g_{k+1}) = sum_r a(r) g_k(r) (ρ(r) - ρ(r*)) + ρ(r*) D(g_k)``, and every term of the first
sum is ``>= 0`` (both factors ``>= 0`` for ``r < r*``, both ``<= 0`` for ``r > r*``).

When ``μ`` is log-concave with no inner zeros, ``μ(r + 1) / μ(r)`` falls and ``a`` changes
sign once; so does ``a`` whenever ``μ`` has at most two masses (``τ >= T`` in direction
``1,0``), but not always (the lump ``P[B >= T + 1 - τ]`` at ``τ - 1`` can break it). So the sign
pattern of each ``a`` is checked exactly (``|B| + 3`` decided comparisons); if one fails,
:func:`candidate_values_known` returns None and every distinct target is computed. The
values found (at most ``2 + 2 (|B| + 1)``) are the only ones that can be worst, each then
computed exactly: a proof, not a float, dominates the others.

References: Desfontaines et al. (2020), Section 3.3, Definition 13; Section 3.4,
Theorem 1; Section 4.2, Definition 15; Shanthikumar and Yao (1991) and Karlin, "Total
Positivity" (1968), Chapter 1 (a single sign change against a likelihood-ratio order).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from pdpsym.core.eps import Eps
from pdpsym.mechanisms.count_law import CountLaw
from pdpsym.mechanisms.divergence import ratio_exceeds_exp
from pdpsym.mechanisms.population import bisect_first_true, search_sides

__all__ = ["candidate_values_known", "functionals", "single_crossing"]

#: a weighted sum of ``L_t``: ``(w_b, t_b)`` pairs with ``w_b > 0``
Pairs = tuple[tuple[Fraction, int], ...]


def _sign(x: Fraction, y: Fraction, eps: Eps) -> int:
    """The sign of ``x - e^eps y`` for rationals ``x, y >= 0``, decided exactly (for an
    irrational ``e^eps`` a zero needs ``x = y = 0``, Lindemann)."""
    if x == 0 and y == 0:
        return 0
    if y == 0:
        return 1
    if x == 0:
        return -1
    c = eps.exact_exp()
    if c is not None:
        d = x - c * y
        return (d > 0) - (d < 0)
    return 1 if ratio_exceeds_exp(x / y, eps) else -1


def single_crossing(pairs: Pairs, eps: Eps) -> bool:
    """Whether ``a(r) = μ(r + 1) - e^eps μ(r)`` is ``>= 0`` then ``<= 0`` (Lemma E).

    Args:
        pairs: the ``(w_b, t_b)`` of ``Λ = sum_b w_b L_{t_b}``.
        eps: ε.

    Returns:
        True when Lemma E's hypothesis holds, decided exactly.

    References:
        The module's Lemma E; Desfontaines et al. (2020), Section 4.2.
    """
    mu: dict[int, Fraction] = {}
    for w, t in pairs:
        mu[t - 1] = mu.get(t - 1, Fraction(0)) + w
    if not mu:
        return True
    lo, hi = min(mu), max(mu)
    seen_negative = False
    for r in range(lo - 1, hi + 1):
        s = _sign(mu.get(r + 1, Fraction(0)), mu.get(r, Fraction(0)), eps)
        if s < 0:
            seen_negative = True
        elif s > 0 and seen_negative:
            return False
    return True


def functionals(
    weights: Sequence[Fraction], T: int, m: int, up: int, down: int
) -> tuple[list[Pairs], list[Pairs]]:
    """The linear functionals of Lemma D, in each side's own coordinates.

    Args:
        weights: ``w_b = P[b ones among the known records]``, ``b = 0..|B|``.
        T: the threshold of ``M_T``.
        m: a target's unknown peers.
        up: ``t(F)`` of direction ``1,0``.
        down: ``t(F')`` of the mirrored count (direction ``0,1``).

    Returns:
        ``(ups, downs)``: the pairs ``(w_b, max(T + 1 - b, τ))`` for both ``τ``, and
        ``(w_b, min(m - T + b + 1, τ))`` over ``b >= β`` for both ``τ`` and every ``β``
        (empty sums left out).

    References:
        The module's Lemma D; Desfontaines et al. (2020), Definitions 13 and 15.
    """
    bs = [(b, w) for b, w in enumerate(weights) if w > 0]
    ups = [tuple((w, max(T + 1 - b, tau)) for b, w in bs) for tau in (up - 1, up)]
    downs = []
    for tau in (down - 1, down):
        for beta in range(len(weights)):
            pairs = tuple((w, min(m - T + b + 1, tau)) for b, w in bs if b >= beta)
            if pairs and pairs not in downs:
                downs.append(pairs)
    return ups, downs


def candidate_values_known(
    unknown: Sequence[Fraction],
    weights: Sequence[Fraction],
    T: int,
    eps: Eps,
    law: CountLaw | None = None,
) -> tuple[list[Fraction], dict[str, int]] | None:
    """The values of ``p`` among which the worst target of ``M_T``'s PPK curve lies.

    Args:
        unknown: the unknown records' probabilities (at least two distinct values, each
            strictly inside (0, 1)).
        weights: the exact law of the known records' number of ones.
        T: the threshold.
        eps: ε (``e^eps >= 1``).
        law: the whole unknown count's law (large populations; built when None).

    Returns:
        ``(values, thresholds)``: the candidate values (Lemmas D and E) and the
        thresholds ``t(F)`` of both directions (``"1,0"``, and ``"0,1"`` of the mirrored
        count) as starting guesses; None when some functional's sign pattern fails
        Lemma E (then every distinct target must be examined).

    References:
        Desfontaines et al. (2020), Section 4.2, Definitions 13 and 15; the module's
        Lemmas D and E; :mod:`pdpsym.mechanisms.population`, Lemmas A-C.
    """
    up_side, down_side, mirrored = search_sides(unknown, eps, law)
    m = len(unknown) - 1
    ups, downs = functionals(weights, T, m, up_side.threshold, down_side.threshold)
    if not all(single_crossing(p, eps) for p in ups + downs):
        return None
    out: set[Fraction] = set()
    for side, family, flip in ((up_side, ups, False), (down_side, downs, mirrored)):
        k_max = len(side.values) - 1
        for pairs in family:

            def falls(k: int, pairs: Pairs = pairs, side: object = side) -> bool:
                return side.falls_weighted(k, pairs)  # type: ignore[attr-defined, no-any-return]

            v = side.values[bisect_first_true(0, k_max, falls)]
            out.add(1 - v if flip else v)
    thresholds = {"1,0": up_side.threshold, "0,1": down_side.threshold}
    return sorted(out, key=lambda q: (float(q), q)), thresholds

"""Histograms and the k-anonymity mechanism M_k (DMKB20 Corollary 1, Definition 16).

Records are i.i.d. over values ``0..K-1`` with probabilities ``probs``. The target changes
its value from ``k`` to ``k2``; the other ``m = n - 1`` records give counts whose only part
that differs between the two hypotheses is ``(N_k, N_k2)`` (the rest is
``m - N_k - N_k2``), a trinomial law. The histogram (Corollary 1) releases every count;
``M_k`` (Definition 16) replaces each count below ``k_anon`` by ``⊥``. The exact curve is
``sum_o max(0, P[o | k] - e^eps P[o | k2])`` over the joint outputs of the two counts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from math import comb

import sympy

from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.mechanisms.divergence import ratio_exceeds_exp


def trinomial(m: int, pa: Fraction, pb: Fraction) -> dict[tuple[int, int], Fraction]:
    """The trinomial law ``P[(N_a, N_b) = (x, y)]`` of two value counts over ``m`` records.

    Each record independently takes value ``a`` with probability ``pa``, ``b`` with
    probability ``pb`` and any other value with ``1 - pa - pb``.

    Args:
        m: the number of records, ``≥ 0``.
        pa: the exact probability of value ``a``.
        pb: the exact probability of value ``b`` (``pa + pb ≤ 1``, not checked).

    Returns:
        ``{(x, y): probability}`` for every ``x + y ≤ m``, exact Fractions.

    References:
        Desfontaines et al. (2020), Section 4.1, Corollary 1 (the histogram's counts are
        multinomial).
    """
    pr = 1 - pa - pb
    out: dict[tuple[int, int], Fraction] = {}
    for x in range(m + 1):
        for y in range(m + 1 - x):
            out[(x, y)] = comb(m, x) * comb(m - x, y) * pa**x * pb**y * pr ** (m - x - y)
    return out


def pair_delta(outputs: dict[object, tuple[Fraction, Fraction]], eps: Eps) -> Fraction | sympy.Expr:
    """Exact hockey-stick ``δ(ε) = Σ_o max(0, P[o] - e^ε Q[o])`` of a paired output law.

    Args:
        outputs: ``{output: (P[o], Q[o])}``, exact masses of the two hypotheses.
        eps: ε (an :class:`~pdpsym.core.eps.Eps` or a rational).

    Returns:
        ``A - e^ε B`` with ``A, B`` the exact masses of the outputs where the ratio
        exceeds ``e^ε``: a Fraction when ``e^ε`` is rational, else a sympy expression.

    References:
        Desfontaines et al. (2020), Section 3.1, Lemma 1 (δ as the PLRV's excess, summed
        over the outputs).
    """
    eps = Eps.of(eps)
    a = Fraction(0)
    b = Fraction(0)
    for pm, qm in outputs.values():
        if pm == 0:
            continue
        if qm == 0 or ratio_exceeds_exp(pm / qm, eps):
            a += pm
            b += qm
    return eps.affine(a, b)


def view_pair_law(
    n: int, probs: Sequence[Fraction], k: int, k2: int, view: Callable[[int, int], object]
) -> dict[object, tuple[Fraction, Fraction]]:
    """The released view's law under both hypotheses: the target holds ``k``, or ``k2``.

    The ``n - 1`` other records' counts ``(N_k, N_k2)`` are trinomial; the target adds
    one to the first count (hypothesis ``k``) or to the second (``k2``), and ``view``
    maps the two counts to what the mechanism releases.

    Args:
        n: the number of records (the target included), ``≥ 1``.
        probs: the exact probability of each value ``0..K-1``.
        k: the target's value under the first hypothesis.
        k2: the target's value under the second hypothesis.
        view: ``(count of k, count of k2) -> released output``.

    Returns:
        ``{output: (P[o | k], P[o | k2])}``, exact Fractions.

    References:
        Desfontaines et al. (2020), Section 4.1, Corollary 1 (histogram) and Section 4.3,
        Definition 16 (the k-anonymity mechanism M_k).
    """
    tri = trinomial(n - 1, Fraction(probs[k]), Fraction(probs[k2]))
    outputs: dict[object, tuple[Fraction, Fraction]] = {}
    for (x, y), w in tri.items():
        for which, (cx, cy) in ((0, (x + 1, y)), (1, (x, y + 1))):
            o = view(cx, cy)
            pm, qm = outputs.get(o, (Fraction(0), Fraction(0)))
            outputs[o] = (pm + w, qm) if which == 0 else (pm, qm + w)
    return outputs


def histogram_delta(
    n: int, probs: Sequence[Fraction], k: int, k2: int, eps: Eps
) -> Fraction | sympy.Expr:
    """Exact ``δ(ε)`` of the full histogram when the target's value is ``k`` rather than ``k2``.

    The ``n - 1`` other records are i.i.d. over values ``0..K-1``; only the pair of counts
    ``(N_k, N_k2)`` differs in law between the two hypotheses, so the hockey-stick sum
    ``Σ_o max(0, P[o | k] - e^ε P[o | k2])`` is taken over that pair (one direction).

    Args:
        n: the number of records (the target included), ``≥ 1``.
        probs: the exact probability of each value ``0..K-1`` (summing to 1).
        k: the target's value under the first hypothesis.
        k2: the target's value under the second hypothesis (``≠ k``).
        eps: ε (an :class:`~pdpsym.core.eps.Eps` or a rational).

    Returns:
        ``A - e^ε B`` with exact masses ``A, B``: a Fraction when ``e^ε`` is rational,
        else a sympy expression.

    References:
        Desfontaines et al. (2020), Section 4.1, Corollary 1; Section 3.1, Lemma 1.
    """
    return pair_delta(view_pair_law(n, probs, k, k2, lambda x, y: (x, y)), eps)


def kanon3_delta(
    n: int, probs: dict[str, Fraction], t: str, t2: str, T: int, eps: Eps
) -> Fraction | sympy.Expr:
    """Theorem 5's k-anonymity mechanism on three values ``a``, ``b``, ``⊥``: exact ``δ(ε)``.

    Counts of ``a`` and ``b`` are released iff they exceed ``T`` (a k-anonymity mechanism
    with ``k = T + 1``, Definition 16); the count of ``⊥`` (absent records) is never
    released. The ``n - 1`` other records are i.i.d. with law ``probs``; the result is the
    one-direction hockey-stick sum for ``D(i) = t`` against ``D(i) = t2``.

    Args:
        n: the number of records (the target included), ``≥ 1``.
        probs: the exact probability of each of ``"a"``, ``"b"``, ``"⊥"`` (summing to 1).
        t: the target's value under the first hypothesis (one of the three names).
        t2: the target's value under the second hypothesis (another of them).
        T: the threshold: a count is released iff it is ``> T``.
        eps: ε (an :class:`~pdpsym.core.eps.Eps` or a rational).

    Returns:
        ``A - e^ε B`` with exact masses ``A, B``: a Fraction when ``e^ε`` is rational,
        else a sympy expression.

    References:
        Desfontaines et al. (2020), Section 4.3, Definition 16 and Theorem 5; Section 3.1,
        Lemma 1.
    """
    names = ("a", "b", "⊥")
    if t not in names or t2 not in names:
        raise InputError("t", "values are 'a', 'b' and '⊥'")
    if t == t2:
        raise InputError("t2", "the two values must differ")
    third = next(v for v in names if v not in (t, t2))
    order = [t, t2, third]

    def view(cx: int, cy: int) -> object:
        counts = {t: cx, t2: cy, third: n - cx - cy}
        return tuple(counts[v] if counts[v] > T else "⊥" for v in ("a", "b"))

    return pair_delta(view_pair_law(n, [probs[v] for v in order], 0, 1, view), eps)

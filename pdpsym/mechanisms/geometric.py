"""The two-sided geometric distribution (DMKB20 Definition 19) and its convolution with a count.

``P[G = k] = (1-p)/(1+p) p^{|k|}`` for all integers ``k`` (``0 < p < 1``). Figure 6 adds
``G`` to the noiseless count ``S + D(i)`` (``S ~ Bin(m, q)``) and compares the two laws
``S + G`` (``D(i) = 0``) and ``S + 1 + G`` (``D(i) = 1``).

Exactness on an infinite output space. For ``o >= m + 1`` every term has ``o - s - 1 >= 0``,
so ``P1(o) = P0(o) / p``; for ``o <= 0``, ``P1(o) = p P0(o)``. The privacy-curve summands
on each tail therefore have a constant sign and geometric sums in closed form:
``sum_{o >= m+1} P1(o) = c/(1-p) sum_s P[S=s] p^{m-s}`` and
``sum_{o <= 0} P0(o) = c/(1-p) sum_s P[S=s] p^{s}`` with ``c = (1-p)/(1+p)``. The middle
``o = 1..m`` is finite, so ``delta(eps) = A - e^eps B`` with rational ``A, B``.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from pdpsym.core.compare import decided_max
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.mechanisms.count_law import CountLaw
from pdpsym.mechanisms.divergence import ratio_exceeds_exp


def geometric_pmf(k: int, p: Fraction) -> Fraction:
    """``P[G = k] = (1-p)/(1+p) · p^{|k|}``, the two-sided geometric law.

    Args:
        k: the integer outcome.
        p: the parameter, an exact rational in (0, 1) (not checked here).

    Returns:
        The exact probability as a Fraction.

    References:
        Desfontaines et al. (2020), Section 5.2, Definition 19.
    """
    return (1 - p) / (1 + p) * p ** abs(k)


def geometric_total_mass() -> sympy.Expr:
    """The total mass ``Σ_{k ∈ Z} (1-p)/(1+p) p^{|k|}`` for a symbolic ``0 < p < 1``.

    The sum over ``k ≥ 1`` is taken by sympy and its ``|p| < 1`` branch kept, so the
    result proves that Definition 19 is a probability law.

    Returns:
        The simplified sympy expression (it simplifies to ``1``).

    References:
        Desfontaines et al. (2020), Section 5.2, Definition 19.
    """
    p = sympy.Symbol("p", positive=True)
    k = sympy.Symbol("k", integer=True, positive=True)
    tail = sympy.summation(p**k, (k, 1, sympy.oo))
    tail = tail.args[0][0] if isinstance(tail, sympy.Piecewise) else tail  # |p| < 1 branch
    return sympy.simplify((1 - p) / (1 + p) * (1 + 2 * tail))


def _conv(law: CountLaw, p: Fraction, o: int, shift: int) -> Fraction:
    pmf = law.exact_pmf()
    return sum((w * geometric_pmf(o - s - shift, p) for s, w in enumerate(pmf)), Fraction(0))


def convolution_total(law: CountLaw, p: Fraction) -> Fraction:
    """The total mass of ``S + G``, by the closed-form tails (exactly 1 for a valid input).

    The two infinite tails ``o ≥ m + 1`` and ``o ≤ 0`` are summed as geometric series in
    closed form; the middle ``o = 1..m`` term by term.

    Args:
        law: the law of the count ``S`` on ``0..m`` (a small, exact
            :class:`~pdpsym.mechanisms.counting.CountLaw`).
        p: the geometric parameter, an exact rational in (0, 1).

    Returns:
        The exact total mass as a Fraction.

    References:
        Desfontaines et al. (2020), Section 5.2, Definition 19 and Figure 6.
    """
    m, pmf, c = law.m, law.exact_pmf(), (1 - p) / (1 + p)
    upper = c / (1 - p) * sum((w * p ** (m + 1 - s) for s, w in enumerate(pmf)), Fraction(0))
    lower = c / (1 - p) * sum((w * p**s for s, w in enumerate(pmf)), Fraction(0))
    middle = sum((_conv(law, p, o, 0) for o in range(1, m + 1)), Fraction(0))
    return upper + lower + middle


def convolution_delta(law: CountLaw, p: Fraction, eps: Eps) -> Fraction | sympy.Expr:
    """Exact ``δ(ε)`` of the count plus two-sided geometric noise, worst of both directions.

    Compares ``S + 1 + G`` (``D(i) = 1``) with ``S + G`` (``D(i) = 0``) in both orders:
    ``δ(ε) = max over directions of Σ_o max(0, P(o) - e^ε Q(o))``. The middle outputs
    ``o = 1..m`` are decided one by one; on each infinite tail the ratio is the constant
    ``1/p`` (or ``p``) and its geometric sum is taken in closed form. Only the tail whose
    ratio is ``1/p`` is added, which is right for ``ε ≥ 0``.

    Args:
        law: the law of the peers' count ``S`` on ``0..m`` (an exact
            :class:`~pdpsym.mechanisms.counting.CountLaw`).
        p: the geometric parameter, an exact rational in (0, 1).
        eps: ε (an :class:`~pdpsym.core.eps.Eps` or a rational), ``≥ 0``.

    Returns:
        The exact ``A - e^ε B`` with rational ``A, B``: a Fraction when ``e^ε`` is
        rational, else a sympy expression.

    References:
        Desfontaines et al. (2020), Section 3.1, Lemma 1 (δ as a hockey-stick sum) and
        Section 5.2, Definition 19 and Figure 6.
    """
    eps = _nonnegative(Eps.of(eps))
    m, pmf, c = law.m, law.exact_pmf(), (1 - p) / (1 + p)
    hi_tail_1 = c / (1 - p) * sum((w * p ** (m - s) for s, w in enumerate(pmf)), Fraction(0))
    lo_tail_0 = c / (1 - p) * sum((w * p**s for s, w in enumerate(pmf)), Fraction(0))
    best: list[tuple[Fraction, Fraction]] = []
    for direction in ((1, 0), (0, 1)):
        a = b = Fraction(0)
        for o in range(1, m + 1):
            x = _conv(law, p, o, direction[0])
            y = _conv(law, p, o, direction[1])
            if x > 0 and (y == 0 or ratio_exceeds_exp(x / y, eps)):
                a, b = a + x, b + y
        if ratio_exceeds_exp(1 / p, eps):  # the tail where the ratio is 1/p
            if direction == (1, 0):  # o >= m+1: P1 = P0/p
                a, b = a + hi_tail_1, b + p * hi_tail_1
            else:  # o <= 0: P0 = P1/p
                a, b = a + lo_tail_0, b + p * lo_tail_0
        best.append((a, b))
    vals = [_value(a, b, eps) for a, b in best]
    return decided_max(vals)[1]


def geometric_delta(p: Fraction, eps: Eps) -> Fraction | sympy.Expr:
    """``δ(ε)`` of ``G + 1`` against ``G``: ``max(0, 1 - e^ε p) / (1 + p)``.

    On outputs ``o ≥ 1`` the likelihood ratio is ``1/p``; the formula keeps only that
    region, which is right for ``ε ≥ 0`` (for ``ε < ln p`` the region ``o ≤ 0``, of ratio
    ``p``, would also count).

    Args:
        p: the geometric parameter, an exact rational in (0, 1).
        eps: ε (an :class:`~pdpsym.core.eps.Eps` or a rational), ``≥ 0``.

    Returns:
        ``Fraction(0)`` when ``1/p ≤ e^ε``; otherwise ``(1 - e^ε p)/(1 + p)`` exactly (a
        Fraction when ``e^ε`` is rational, else a sympy expression).

    References:
        Desfontaines et al. (2020), Section 5.2, Definition 19; Section 3.1, Lemma 1.
    """
    eps = _nonnegative(Eps.of(eps))
    if not ratio_exceeds_exp(1 / p, eps):
        return Fraction(0)
    return _value(1 / (1 + p), p / (1 + p), eps)


def _nonnegative(eps: Eps) -> Eps:
    # both formulas keep only the tail whose ratio is 1/p, which is the whole of δ only
    # when ε ≥ 0 (for ε < 0 the other outputs count too)
    if (eps.exponent is not None and eps.exponent < 0) or (eps.w is not None and eps.w < 1):
        raise InputError("eps", "must be >= 0")
    return eps


def _value(a: Fraction, b: Fraction, eps: Eps) -> Fraction | sympy.Expr:
    return eps.affine(a, b)

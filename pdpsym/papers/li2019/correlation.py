"""Correlation under ``th(. | x_{K-{j}})`` (Li et al. Sec. V-B): the conditional pair, the
conditional Pearson sign and Lemma 3 (Appendix B), in whose terms Theorem 3 is stated.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from pdpsym.models.joint import JointDistribution


def conditional_pair(
    model: JointDistribution, target: str, j: str, context: dict[str, Fraction]
) -> JointDistribution | None:
    """``th(x_i, x_j | x_{K-{j}})`` (None when the context has probability 0).

    Args:
        model: the joint distribution ``theta`` of the tuples.
        target: the name of the target tuple ``i``.
        j: the name of the tuple ``j`` whose knowledge the edge removes.
        context: the values of the other known tuples ``x_{K-{j}}``, by name (empty for
            none).

    Returns:
        The exact joint law of ``(x_i, x_j)`` given the context (their marginal when the
        context is empty), or None when the context has probability 0.

    References:
        Li et al. (2019), Section III-A2 and Section V-B (the conditional distribution under
        which the correlation coefficient of an edge is taken).
    """
    marg = model.marginal([target, j, *context])
    if context and marg.prob(context) == 0:
        return None
    return marg.conditional(context) if context else marg


def conditional_pearson_sign(
    model: JointDistribution, target: str, j: str, context: dict[str, Fraction]
) -> int:
    """sign of rho(x_i, x_j) under ``th(. | ctx)`` (the sum query: weights 1).

    Args:
        model: the joint distribution ``theta`` of the tuples.
        target: the name of the target tuple ``i``.
        j: the name of the other tuple ``j``.
        context: the values of ``x_{K-{j}}``, by name; it must have positive probability
            (else a ValueError).

    Returns:
        -1, 0 or 1: the exact sign of the conditional Pearson coefficient of the pair (0
        also when either variable is constant).

    References:
        Li et al. (2019), Section III-A2 (conditional correlation coefficient).
    """
    pair = conditional_pair(model, target, j, context)
    if pair is None:
        raise ValueError("context of probability 0")
    return pair.pearson_sign(target, j)


def lemma3_sides(pair: JointDistribution, target: str, j: str) -> tuple[int, int]:
    """Lemma 3 for binary ``x_i``: (sign rho, sign(E[x_j | high] - E[x_j | low])).

    Args:
        pair: the (conditional) joint law of ``x_i`` and ``x_j``.
        target: the name of ``x_i``; its domain's min and max are the "low" and "high"
            values (Lemma 3 is about a binary ``x_i``).
        j: the name of ``x_j``.

    Returns:
        ``(sign of the Pearson coefficient, sign of the difference of the conditional means
        of x_j)``, each -1, 0 or 1, exactly; the second is 0 when the low or the high value
        has probability 0.

    References:
        Li et al. (2019), Appendix B, Lemma 3.
    """
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
    ``E[x_i x_j] = p h m_h + (1-p) l m_l`` and
    ``E[x_i] E[x_j] = (p h + (1-p) l)(p m_h + (1-p) m_l)``.
    Since ``p(1-p) > 0`` (both values possible) and ``h > l``, sign(cov) = sign(m_h - m_l).

    Returns:
        True when sympy expands the difference of the two covariance forms to 0.

    References:
        Li et al. (2019), Appendix B, Lemma 3.
    """
    p, h, l, mh, ml = sympy.symbols("p h l m_h m_l")
    cov = p * h * mh + (1 - p) * l * ml - (p * h + (1 - p) * l) * (p * mh + (1 - p) * ml)
    return sympy.expand(cov - p * (1 - p) * (h - l) * (mh - ml)) == 0

"""Rényi's divergence of order α, exactly: finite laws, two Laplace laws, the sup over pairs.

``D_α(P || Q) = 1/(α-1) ln E_Q[(P/Q)^α] = 1/(α-1) ln Σ_o P(o)^α Q(o)^(1-α)`` (α > 1):

* :func:`renyi_divergence`: two finite laws (a rational under the log for an integer α,
  a sum of rational powers otherwise; ``oo`` when ``P`` charges an output ``Q`` does not);
* :func:`laplace_renyi`: two Laplace laws of one scale, in closed form;
* :func:`sup_renyi`: the largest over many pairs, every comparison decided (an integer
  α compares the rational moments exactly).

Rényi DP (:class:`pdpsym.audit.registry.RenyiDP`) is the sup of these over classic DP's
pairs.

References:
    Mironov (2017), "Rényi Differential Privacy", Definitions 3-4 and Table 2.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.core.compare import decided_max


def integer_moment(p: Mapping[Any, Any], q: Mapping[Any, Any], k: int) -> Fraction | None:
    """``E_Q[(P/Q)^k] = Σ_o P(o)^k / Q(o)^(k-1)`` for an integer order, exactly.

    Args:
        p: the first law, ``{output: probability}``.
        q: the second law.
        k: the order, an integer above 1.

    Returns:
        The rational moment; None when some ``P(o) > 0 = Q(o)`` (the divergence is ``oo``).

    References:
        Mironov (2017), Definition 3 (``D_α = ln E_Q[(P/Q)^α] / (α - 1)``).
    """
    total = Fraction(0)
    for o, po in p.items():
        po, qo = Fraction(po), Fraction(q.get(o, 0))
        if po and not qo:
            return None
        if po:
            total += po**k / qo ** (k - 1)
    return total


def renyi_divergence(p: Mapping[Any, Any], q: Mapping[Any, Any], alpha: Fraction) -> sympy.Expr:
    """Rényi's divergence ``D_α(P || Q)`` of two finite laws, exactly.

    ``E_Q[(P/Q)^α] = Σ_o P(o)^α Q(o)^(1-α)``: a rational for an integer α, a sum of
    rational powers (exact, enclosed by :mod:`pdpsym.core.certify`) otherwise; ``oo``
    when some output has ``P(o) > 0 = Q(o)``.

    Args:
        p: the first law, ``{output: probability}`` (Fractions).
        q: the second law.
        alpha: the order, a Fraction above 1.

    Returns:
        ``ln(Σ_o P(o)^α Q(o)^(1-α)) / (α - 1)``, a sympy expression or ``oo``.

    References:
        Mironov (2017), Definition 3.
    """
    a = sympy.Rational(alpha.numerator, alpha.denominator)
    if alpha.denominator == 1:
        total = integer_moment(p, q, alpha.numerator)
        if total is None:
            return sympy.oo
        return sympy.log(sympy.Rational(total.numerator, total.denominator)) / (a - 1)
    terms = []
    for o, po in p.items():
        po, qo = Fraction(po), Fraction(q.get(o, 0))
        if po and not qo:
            return sympy.oo
        if po:
            rp = sympy.Rational(po.numerator, po.denominator)
            rq = sympy.Rational(qo.numerator, qo.denominator)
            terms.append(rp**a * rq ** (1 - a))
    return sympy.log(sympy.Add(*terms)) / (a - 1)


def laplace_renyi(shift: Fraction, lam: Fraction, alpha: Fraction) -> sympy.Expr:
    """``D_α`` of two Laplace laws of scale λ whose centres are ``shift`` apart.

    With ``t = shift/λ``: ``1/(α-1) ln(α/(2α-1) e^((α-1)t) + (α-1)/(2α-1) e^(-αt))``,
    increasing in ``t``; the sup over classic DP's pairs of Laplace noise on a linear
    query is at the sensitivity ``Δ_i``.

    Args:
        shift: the distance between the centres (``|f(D) - f(D_{i→b})|``).
        lam: the Laplace scale λ.
        alpha: the order, a Fraction above 1.

    Returns:
        The exact expression (0 when ``shift`` is 0).

    References:
        Mironov (2017), Table 2 (the Laplace mechanism, sensitivity 1, scale λ).
    """
    a = sympy.Rational(alpha.numerator, alpha.denominator)
    t = sympy.Rational(shift.numerator, shift.denominator) / sympy.Rational(
        lam.numerator, lam.denominator
    )
    if t == 0:
        return sympy.Integer(0)
    inner = a / (2 * a - 1) * sympy.exp((a - 1) * t) + (a - 1) / (2 * a - 1) * sympy.exp(-a * t)
    return sympy.log(inner) / (a - 1)


def sup_renyi(
    pairs: Iterable[tuple[Mapping[str, Any], Mapping[Any, Any], Mapping[Any, Any]]],
    order: Fraction,
) -> tuple[sympy.Expr, Mapping[str, Any] | None]:
    """The sup of ``D_α`` over finite pairs, every comparison decided.

    Pairs with the same multiset of ``(P(o), Q(o))`` have the same divergence and are
    computed once; an integer α compares the rationals under the log exactly.

    Args:
        pairs: ``(where, P, Q)`` for every pair the notion compares.
        order: α, a Fraction above 1.

    Returns:
        ``(ε(α), where)`` of the first pair attaining it (``(0, None)`` with no pair).

    References:
        Mironov (2017), Definitions 3-4; Desfontaines et al. (2020), Section 2.1 (the
        pairs of classic DP).
    """
    seen: dict[tuple[tuple[Fraction, Fraction], ...], Mapping[str, Any]] = {}
    for where, p, q in pairs:
        key = tuple(sorted((Fraction(v), Fraction(q.get(o, 0))) for o, v in p.items() if v))
        seen.setdefault(key, where)
    if not seen:
        return sympy.Integer(0), None
    keys = list(seen)
    laws = [(dict(enumerate(p for p, _ in k)), dict(enumerate(q for _, q in k))) for k in keys]
    if order.denominator == 1:  # rational moments: the largest one decides, exactly
        moments = [integer_moment(p, q, order.numerator) for p, q in laws]
        if any(m is None for m in moments):
            return sympy.oo, seen[keys[moments.index(None)]]
        best = max(range(len(moments)), key=lambda j: moments[j])  # type: ignore[arg-type,return-value]
        return renyi_divergence(*laws[best], order), seen[keys[best]]
    values = [renyi_divergence(p, q, order) for p, q in laws]
    if any(v is sympy.oo for v in values):
        return sympy.oo, seen[keys[values.index(sympy.oo)]]
    best, value = decided_max(values)
    return value, seen[keys[best]]


__all__ = ["integer_moment", "laplace_renyi", "renyi_divergence", "sup_renyi"]

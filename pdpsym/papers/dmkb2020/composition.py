"""Sequential composition under partial knowledge (Desfontaines et al. Sec. 5.1).

* Definition 17: ``Dep_{i,a,b}(O1, O2 | B̂) = L^{M2}_{i,a,b}(O2, (B̂, M1(D)=O1)) - L^{M2}_{i,a,b}(O2, B̂)``
  with the printed convention ``±∞ - x = ±∞ for all x``.
* Definition 18: ``M1, M2`` are (μ, ν)-bounded dependent if for all θ, i, a, b, B̂:
  ``E_{θ|D(i)=a,B̂; O1~M1(D), O2~M2(D)}[max(0, 1 - e^{μ - Dep})] ≤ ν``.
* Theorem 6 (printed): ``L^M(O, B̂) = 2·Dep + L^{M1}(O1, B̂) + L^{M2}(O2, B̂)`` for
  ``M = (M1, M2)``, and the corollary ``(2μ + ε1 + ε2, δ1 + δ2 + ν)``.
  The chain rule gives ``L^M = Dep + L^{M1} + L^{M2}`` (factor 1), and the proof itself
  uses ``ε = ε1 + ε2 + μ``.
* Subadditivity of ``f(x) = max(0, 1 - e^x)`` (proof of Theorem 6).

All PLRVs here are carried as exact likelihood ratios ``e^L`` (a Fraction, or ``None`` for
``+∞``; ``0`` for ``-∞``), so every identity is checked in rational arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.core.eps import ExpRatio, ratio_of
from pdpsym.core.exp_polynomials import ExpPoly
from pdpsym.loss.exp_linear import WLin
from pdpsym.loss.plrv import Eps, default_targets, m_value
from pdpsym.mechanisms.finite import Mechanism, compose, output_pmf
from pdpsym.models.scenario import Scenario

Ratio = ExpRatio  # e^L; None = +∞


class InfConvention(Enum):
    """How ``∞ - ∞`` is read in Definition 17."""

    PRINTED = "printed"  # ±∞ - x = ±∞ for all x, infinite x included
    CANCEL = "cancel"  # equal infinities cancel: ∞ - ∞ = 0 (extended-real otherwise)
    # as CANCEL, and Dep := 0 where (B̂, M1(D)=O1) is incompatible with D(i)=b: Definition 17
    # asks B̂ to be compatible with a and b, so Dep is read as defined only there (where
    # L^{M1} = +∞ already, so the value of Dep cannot matter to Theorem 6)
    COMPATIBLE = "compatible"


_ratio = ratio_of  # 0/0 never occurs on the support


@dataclass(frozen=True)
class PLRVTerms:
    """For one output ``(O1, O2)``: the ratios ``e^L`` of M, M1, M2, and of M2 given M1=O1."""

    joint: Ratio
    first: Ratio
    second: Ratio
    second_given_first: Ratio
    prob: Fraction
    first_compatible: bool = True  # P[M1 = O1 | D(i)=b, B̂] > 0  # P[(O1,O2) | D(i)=a, B̂]


def plrv_terms(
    scenario: Scenario,
    m1: Mechanism,
    m2: Mechanism,
    i: int,
    a: Any,
    b: Any,
    bhat: Any,
) -> dict[tuple[Any, Any], PLRVTerms]:
    """Every PLRV appearing in Theorem 6, on the support of ``M(D) | D(i)=a, B̂``.

    For ``M = (M1, M2)`` and each output ``(O1, O2)`` with positive probability given
    ``D(i) = a`` and B̂: the ratios ``e^L`` of M, M1, M2 and of M2 given ``M1 = O1``.

    Args:
        scenario: the finite scenario (θ and the partial knowledge B).
        m1: the first mechanism.
        m2: the second mechanism (run with independent coins).
        i: the target record.
        a: the value of D(i) in the numerator.
        b: the value of D(i) in the denominator.
        bhat: the value B̂ of the partial knowledge, compatible with a.

    Returns:
        A dict ``(O1, O2)`` -> :class:`PLRVTerms` (exact ratios, None for +∞, and the
        output's probability given a).

    References:
        Desfontaines et al., Section 5.1, Theorem 6 and Definition 17; Section 3.1,
        Definition 11 (PLRV for partial knowledge).
    """
    m = compose(m1, m2)
    pa = output_pmf(scenario, m, i, a, bhat)
    pb = output_pmf(scenario, m, i, b, bhat)
    pa1, pb1 = output_pmf(scenario, m1, i, a, bhat), output_pmf(scenario, m1, i, b, bhat)
    pa2, pb2 = output_pmf(scenario, m2, i, a, bhat), output_pmf(scenario, m2, i, b, bhat)
    out = {}
    for o, p in pa.items():
        if not p:
            continue
        o1, o2 = o  # type: ignore[misc]
        qa = p / pa1[o1]
        # P[M2=O2 | M1=O1, b, B̂]; conditioning on a null event is read as probability 0
        qb = pb.get(o, Fraction(0)) / pb1[o1] if pb1.get(o1) else Fraction(0)
        out[o] = PLRVTerms(
            joint=_ratio(p, pb.get(o, Fraction(0))),
            first=_ratio(pa1[o1], pb1.get(o1, Fraction(0))),
            second=_ratio(pa2[o2], pb2.get(o2, Fraction(0))),
            second_given_first=_ratio(qa, qb),
            prob=p,
            first_compatible=bool(pb1.get(o1)),
        )
    return out


def dep_ratio(t: PLRVTerms, convention: InfConvention = InfConvention.PRINTED) -> Ratio:
    """``e^{Dep}`` (Definition 17). On the support of ``a`` no ratio is 0, only +∞ occurs.

    Args:
        t: the PLRV terms of one output (from :func:`plrv_terms`).
        convention: how ``∞ - ∞`` is read (printed ``±∞ - x = ±∞``, cancelling, or
            cancelling and defined only where compatible).

    Returns:
        The exact ratio ``e^{Dep}``: a Fraction (0 for -∞), or None for +∞.

    References:
        Desfontaines et al., Section 5.1, Definition 17 (dependency of M2 on M1).
    """
    if convention is InfConvention.COMPATIBLE and not t.first_compatible:
        return Fraction(1)
    if t.second_given_first is None:
        if convention is not InfConvention.PRINTED and t.second is None:
            return Fraction(1)
        return None
    if t.second is None:
        return Fraction(0)  # finite - ∞ = -∞
    return t.second_given_first / t.second


def theorem6_identity_holds(t: PLRVTerms, factor: int) -> bool:
    """``L = factor·Dep + L1 + L2`` in ratio form ``e^L = (e^Dep)^factor e^L1 e^L2``.

    ``factor = 2`` is the identity as printed; the chain rule gives ``factor = 1``.

    Args:
        t: the PLRV terms of one output (from :func:`plrv_terms`).
        factor: the coefficient of Dep (2 as printed, 1 by the chain rule).

    Returns:
        True iff the identity holds exactly at this output (infinite terms: both sides
        +∞).

    References:
        Desfontaines et al., Section 5.1, Theorem 6 (the PLRV identity of the composed
        mechanism).
    """
    dep = dep_ratio(t, InfConvention.PRINTED)
    if t.joint is None or t.first is None or t.second is None or dep is None:
        # an infinite term: both sides must be +∞ (no -∞ on the support of a)
        rhs_inf = t.first is None or t.second is None or dep is None
        return (t.joint is None) == rhs_inf
    if dep == 0:
        return t.joint == 0
    return t.joint == dep**factor * t.first * t.second


def bounded_dependence_nu(
    scenario: Scenario,
    m1: Mechanism,
    m2: Mechanism,
    mu: Eps,
    convention: InfConvention = InfConvention.PRINTED,
    targets: list[int] | None = None,
) -> tuple[WLin, dict[str, str] | None]:
    """Smallest ν for which ``M1, M2`` are (μ, ν)-bounded dependent (Definition 18).

    The maximum over targets i, values a ≠ b and B̂ compatible with both of
    ``E[max(0, 1 - e^{μ - Dep})]``.

    Args:
        scenario: the finite scenario (θ and the partial knowledge B).
        m1: the first mechanism.
        m2: the second mechanism.
        mu: μ.
        convention: how ``∞ - ∞`` is read in Dep.
        targets: the target records (None: the default targets of the scenario).

    Returns:
        ``(nu, witness)``: ν exactly, as a :class:`~pdpsym.loss.exp_linear.WLin`
        ``c0 + c1·e^μ``, and the maximizing ``(i, a, b, B̂)`` (None when ν = 0 is not
        exceeded).

    References:
        Desfontaines et al., Section 5.1, Definitions 17-18.
    """
    best, wit = WLin.const(0, mu), None
    for i in default_targets(scenario) if targets is None else targets:
        vals = scenario.record_values(i)
        for a in vals:
            for b in vals:
                if a == b:
                    continue
                for bhat in scenario.knowledge_values():
                    if not (scenario.compatible(i, a, bhat) and scenario.compatible(i, b, bhat)):
                        continue
                    total = WLin.const(0, mu)
                    for t in plrv_terms(scenario, m1, m2, i, a, b, bhat).values():
                        total = total + m_value(dep_ratio(t, convention), mu).scale(t.prob)
                    if total.exact_compare(best) > 0:
                        best = total
                        wit = {"i": str(i), "a": repr(a), "b": repr(b), "B": repr(bhat)}
    return best, wit


# --- subadditivity of f(x) = max(0, 1 - e^x) -------------------------------------------------


def subadditivity_proof() -> dict[str, str]:
    """A sympy proof of ``f(x+y) ≤ f(x) + f(y)`` for ``f(x) = max(0, 1 - e^x)``.

    Case x > 0 (y > 0 symmetric): f(x) = 0 and ``1 - e^{x+y} ≤ 1 - e^y`` since
    ``e^y (e^x - 1) > 0``; max(0, .) is monotone. Case x, y ≤ 0: f(x)+f(y)-f(x+y)
    ``= (1 - e^x)(1 - e^y) ≥ 0`` (and f(x+y) = 1 - e^{x+y} there).

    Returns:
        The two cases' derivations as text, case name -> identity.

    Raises:
        AssertionError: a step of the derivation does not simplify as stated.

    References:
        Desfontaines et al., Section 5.1, proof of Theorem 6 (f is subadditive).
    """
    x, y = sympy.symbols("x y", real=True)
    u, v = sympy.symbols("u v", positive=True)  # u = e^x, v = e^y
    # case x > 0: (1 - e^y) - (1 - e^{x+y}) = e^y (e^x - 1): factor and sign with u > 1
    d1 = sympy.factor((1 - v) - (1 - u * v))
    if sympy.simplify(d1 - v * (u - 1)) != 0:
        raise AssertionError("case x > 0 failed")
    # case x, y <= 0: all three max() are the second branch (u, v, uv <= 1)
    d2 = sympy.factor((1 - u) + (1 - v) - (1 - u * v))
    if sympy.simplify(d2 - (1 - u) * (1 - v)) != 0:
        raise AssertionError("case x, y <= 0 failed")
    return {
        "x>0": f"(1-e^y)-(1-e^(x+y)) = {sympy.sstr(d1)} with u=e^x>1, v=e^y>0",
        "x,y<=0": f"f(x)+f(y)-f(x+y) = {sympy.sstr(d2)} with u,v in (0,1]",
    }


def subadditivity_gap(x: Fraction, y: Fraction) -> int:
    """Exact sign of ``f(x) + f(y) - f(x + y)`` at rational points (should be ≥ 0).

    Args:
        x: an exact rational.
        y: an exact rational.

    Returns:
        -1, 0 or 1, decided exactly (exponential polynomials).

    References:
        Desfontaines et al., Section 5.1, proof of Theorem 6 (f(x) = max(0, 1 - e^x)).
    """

    def f(t: Fraction) -> ExpPoly:
        # max(0, 1 - e^t) = 1 - e^t iff t <= 0
        if t >= 0:  # f(0) = 0 too; {0: 1, t: -1} would collide at t = 0
            return ExpPoly()
        return ExpPoly({Fraction(0): Fraction(1), t: Fraction(-1)})

    return (f(x) + f(y) - f(x + y)).sign()

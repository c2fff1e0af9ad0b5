"""lmm2016.thm6 -- Liu et al. 2016 (dependent differential privacy), Section IV-C, Theorem 6.

Claim (convex combination). If ``A_1`` and ``A_2`` have dependent-DP levels ``γ_1``,
``γ_2`` (Definition 4, ``γ = e^ε``), the mechanism ``A_p`` that runs ``A_1`` with
probability ``p`` and ``A_2`` otherwise has level at most ``max(γ_1, γ_2)``.

Argument. With ``P_t = A_t(D)``, ``Q_t = A_t(D')`` and slacks ``γ_t Q_t - P_t >= 0``, let
``m = max(γ_1, γ_2)``.
1. ``m (p Q_1 + (1-p) Q_2) - (p P_1 + (1-p) P_2)
   = p (slack_1 + (m - γ_1) Q_1) + (1-p)(slack_2 + (m - γ_2) Q_2)`` identically (checked
   symbolically for both cases of which level is the larger).
2. Every term is nonnegative (``p ∈ [0, 1]``, ``m - γ_t >= 0``), so
   ``P(A_p(D) = o) <= m P(A_p(D') = o)``.
3. The identity is linear in the laws, so every reading of the neighbours carries it.
The 50-digit spot check: ``P_t = γ_t Q_t u_t``, ``u_t ∈ [0, 1]``, random ``p``.
"""

from __future__ import annotations

import sympy as sp
from spot import holds_at_random_points, nonnegative_rational, run, unit_rational

CLAIM = "lmm2016.thm6"


def main() -> bool:
    """Theorem 6; True when every step holds."""
    g1, g2, q1, q2, s1, s2 = sp.symbols("gamma1 gamma2 Q1 Q2 slack1 slack2", nonnegative=True)
    p = sp.Symbol("p", nonnegative=True)
    e1, e2 = sp.symbols("e1 e2", nonnegative=True)  # m - γ1, m - γ2 >= 0
    for m in (g1, g2):
        P1, P2 = g1 * q1 - s1, g2 * q2 - s2
        gap = m * (p * q1 + (1 - p) * q2) - (p * P1 + (1 - p) * P2)
        want = p * (s1 + (m - g1) * q1) + (1 - p) * (s2 + (m - g2) * q2)
        assert sp.expand(gap - want) == 0, "step 1"
        one_minus_p = sp.Symbol("one_minus_p", nonnegative=True)
        assert (p * (s1 + e1 * q1) + one_minus_p * (s2 + e2 * q2)).is_nonnegative, "step 2"
    u1, u2 = sp.symbols("u1 u2")
    lhs = p * g1 * q1 * u1 + (1 - p) * g2 * q2 * u2
    rhs = sp.Max(g1, g2) * (p * q1 + (1 - p) * q2)
    draws = [(x, nonnegative_rational) for x in (g1, g2, q1, q2)]
    draws += [(x, unit_rational) for x in (p, u1, u2)]
    return holds_at_random_points(lhs, rhs, draws, "<=", points=12)


if __name__ == "__main__":
    run(CLAIM, main)

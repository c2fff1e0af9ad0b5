"""lmm2016.thm3 -- Liu et al. 2016 (dependent differential privacy), Section IV-C, Theorem 3.

Claim (sequential composition). Two mechanisms with independent coins and dependent-DP
levels ``γ_1``, ``γ_2`` (Definition 4, ``γ = e^ε``) run together have level at most
``γ_1 γ_2`` (``ε_1 + ε_2``), under Definition 4's dependent neighbours.

Argument. Independent coins give the pair law ``P(A_1(D) = o_1, A_2(D) = o_2) = P_1 P_2``
(and ``Q_1 Q_2`` on ``D'``); the slacks ``γ_t Q_t - P_t`` are nonnegative.
1. ``γ_1 γ_2 Q_1 Q_2 - P_1 P_2 = γ_2 Q_2 slack_1 + P_1 slack_2`` identically (checked
   symbolically).
2. Both terms are nonnegative (``P_1`` is a probability), so the pair's ratio is at most
   ``γ_1 γ_2`` at every output pair.
(The product of the laws is not linear in them, so this argument does not carry the
conditional Eq. 11-12 reading, where the theorem can fail; the claim is proved under
Definition 4's neighbours.)
The 50-digit spot check: ``P_t = γ_t Q_t u_t``, ``u_t ∈ [0, 1]``.
"""

from __future__ import annotations

import sympy as sp
from spot import holds_at_random_points, nonnegative_rational, run, unit_rational

CLAIM = "lmm2016.thm3"


def main() -> bool:
    """Theorem 3; True when every step holds."""
    g1, g2, q1, q2, s1, s2 = sp.symbols("gamma1 gamma2 Q1 Q2 slack1 slack2", nonnegative=True)
    P1, P2 = g1 * q1 - s1, g2 * q2 - s2
    assert sp.expand(g1 * g2 * q1 * q2 - P1 * P2 - (g2 * q2 * s1 + P1 * s2)) == 0, "step 1"
    p1 = sp.Symbol("P1", nonnegative=True)
    assert (g2 * q2 * s1 + p1 * s2).is_nonnegative, "step 2"
    u1, u2 = sp.symbols("u1 u2")
    draws = [(x, nonnegative_rational) for x in (g1, g2, q1, q2)]
    draws += [(x, unit_rational) for x in (u1, u2)]
    lhs = g1 * q1 * u1 * g2 * q2 * u2
    return holds_at_random_points(lhs, g1 * g2 * q1 * q2, draws, "<=", points=12)


if __name__ == "__main__":
    run(CLAIM, main)

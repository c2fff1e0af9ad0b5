"""Liu, Chakraborty, Mittal, Theorems 3, 5 and 6 (dependent DP composes), proved with sympy.

Definition 4 as the checkers read it: ``γ(A) = max over dependent neighbouring databases
(D, D') and outputs o of P(A(D)=o) / P(A(D')=o)`` (``γ = e^ε``). A mechanism's level is
at most ``γ`` iff every *slack* ``γ Q_s - P_s`` is nonnegative, ``P = A(D)``,
``Q = A(D')``. Each theorem is a statement about finite sums of nonnegative terms:

* Theorem 5 (post-processing): ``γ Σ_s B(o|s) Q_s - Σ_s B(o|s) P_s = Σ_s B(o|s) slack_s``,
  a sum of nonnegative terms, so ``γ(B∘A) <= γ(A)``. The identity is linear in the laws,
  so it also holds when ``P`` and ``Q`` are mixtures over databases with common weights
  (the conditional reading of Eq. 11-12): exchanging the finite sums is checked too.
* Theorem 6 (convex combination): ``max(γ1, γ2)(p Q1 + (1-p) Q2) - (p P1 + (1-p) P2)
  = p (slack1 + (m - γ1) Q1) + (1-p)(slack2 + (m - γ2) Q2)`` with ``m = max(γ1, γ2)``,
  every term nonnegative; linear in the laws, so every reading carries it.
* Theorem 3 (sequential composition, independent coins, Definition 4's neighbours):
  ``γ1 γ2 Q1 Q2 - P1 P2 = γ2 Q2 slack1 + P1 slack2``, nonnegative, so
  ``γ(A1, A2) <= γ(A1) γ(A2)``. (The product of the laws is not linear in them, so
  this argument does not carry the conditional reading, where the checker finds the
  theorem fails.)

Each identity is checked symbolically and at 50 digits on random points.
"""

from __future__ import annotations

import sympy as sp

from pdpsym.proofs.spot_check import (
    holds_at_random_points,
    nonnegative_rational,
    positive_rational,
    unit_rational,
)

STEPS_THM5 = (
    "Theorem 5: with slack_s = γ Q_s - P_s >= 0 (γ(A) <= γ), γ Σ_s B(o|s) Q_s - Σ_s B(o|s) P_s "
    "= Σ_s B(o|s) slack_s, every summand nonnegative (sympy, symbolic sum over N outputs); "
    "the same for laws mixed over databases (sums exchanged); 50-digit spot check"
)
STEPS_THM6 = (
    "Theorem 6: with m = max(γ1, γ2), m Q_p - P_p = p (slack1 + (m-γ1) Q1) + (1-p) (slack2 + "
    "(m-γ2) Q2), every term nonnegative for p in [0, 1] (sympy); linear in the laws, so "
    "every reading; 50-digit spot check"
)
STEPS_THM3 = (
    "Theorem 3: independent coins give the pair law P1 P2; γ1 γ2 Q1 Q2 - P1 P2 = γ2 Q2 slack1 "
    "+ P1 slack2 >= 0 (sympy), so γ(A1, A2) <= γ(A1) γ(A2) under Definition 4's neighbours; "
    "50-digit spot check"
)


def theorem5() -> bool:
    """Post-processing: γ(B∘A) <= γ(A) (Liu et al., Sec. IV-C, Theorem 5)."""
    s, k, N, K = sp.symbols("s k N K", integer=True, positive=True)
    B, Q, S = (sp.IndexedBase(x, nonnegative=True) for x in ("B", "Q", "slack"))
    g = sp.Symbol("gamma", positive=True)
    P = g * Q[s] - S[s]  # P_s written through its slack
    gap = g * sp.Sum(B[s] * Q[s], (s, 1, N)) - sp.Sum(B[s] * P, (s, 1, N))
    assert sp.simplify((gap - sp.Sum(B[s] * S[s], (s, 1, N))).expand()) == 0, "identity"
    assert (B[s] * S[s]).is_nonnegative, "summand sign"
    # mixtures over databases with common weights w_k: the sums exchange
    w, A = sp.IndexedBase("w", nonnegative=True), sp.IndexedBase("A", nonnegative=True)
    # Σ_s B_s Σ_k w_k A_{k,s} = Σ_k w_k Σ_s B_s A_{k,s}: a finite rectangular double sum
    # may be taken in either order
    term = B[s] * w[k] * A[k, s]
    assert sp.Sum(term, (k, 1, K), (s, 1, N)).reorder((0, 1)) == sp.Sum(
        term, (s, 1, N), (k, 1, K)
    ), "exchange"
    # spot check on 3 outputs: P_s = γ Q_s u_s with u_s in [0, 1] (so that γ(A) <= γ)
    b, q, u = sp.symbols("b1:4"), sp.symbols("q1:4"), sp.symbols("u1:4")
    lhs = sum(bi * g * qi * ui for bi, qi, ui in zip(b, q, u, strict=True))
    rhs = g * sum(bi * qi for bi, qi in zip(b, q, strict=True))
    draws = [(g, positive_rational)] + [(x, nonnegative_rational) for x in (*b, *q)]
    draws += [(x, unit_rational) for x in u]
    return holds_at_random_points(lhs, rhs, draws, "<=")


def theorem6() -> bool:
    """Convex combination: γ(A_p) <= max(γ1, γ2) (Liu et al., Sec. IV-C, Theorem 6)."""
    g1, g2, q1, q2, s1, s2 = sp.symbols("gamma1 gamma2 Q1 Q2 slack1 slack2", nonnegative=True)
    p = sp.Symbol("p", nonnegative=True)
    for m, (d1, d2) in ((g1, (0, g1 - g2)), (g2, (g2 - g1, 0))):  # m = the larger level
        e1, e2 = sp.symbols("e1 e2", nonnegative=True)  # m - γ1, m - γ2 >= 0
        P1, P2 = g1 * q1 - s1, g2 * q2 - s2
        gap = m * (p * q1 + (1 - p) * q2) - (p * P1 + (1 - p) * P2)
        want = p * (s1 + (m - g1) * q1) + (1 - p) * (s2 + (m - g2) * q2)
        assert sp.expand(gap - want) == 0, "identity"
        assert sp.expand((m - g1) - d1) == 0 and sp.expand((m - g2) - d2) == 0
        rewritten = p * (s1 + e1 * q1) + sp.Symbol("one_minus_p", nonnegative=True) * (s2 + e2 * q2)
        assert rewritten.is_nonnegative, "term signs"
    u1, u2 = sp.symbols("u1 u2")  # P_t = γ_t Q_t u_t, u_t in [0, 1]
    lhs = p * g1 * q1 * u1 + (1 - p) * g2 * q2 * u2
    rhs = sp.Max(g1, g2) * (p * q1 + (1 - p) * q2)
    draws = [(x, nonnegative_rational) for x in (g1, g2, q1, q2)]
    draws += [(x, unit_rational) for x in (p, u1, u2)]
    return holds_at_random_points(lhs, rhs, draws, "<=")


def theorem3() -> bool:
    """Sequential composition: γ(A1, A2) <= γ(A1) γ(A2) (Liu et al., Sec. IV-C, Theorem 3)."""
    g1, g2, q1, q2, s1, s2 = sp.symbols("gamma1 gamma2 Q1 Q2 slack1 slack2", nonnegative=True)
    P1, P2 = g1 * q1 - s1, g2 * q2 - s2
    gap = g1 * g2 * q1 * q2 - P1 * P2
    assert sp.expand(gap - (g2 * q2 * s1 + P1 * s2)) == 0, "identity"
    p1 = sp.Symbol("P1", nonnegative=True)  # P1 is a probability
    assert (g2 * q2 * s1 + p1 * s2).is_nonnegative, "term signs"
    u1, u2 = sp.symbols("u1 u2")  # P_t = γ_t Q_t u_t, u_t in [0, 1]
    draws = [(x, nonnegative_rational) for x in (g1, g2, q1, q2)]
    draws += [(x, unit_rational) for x in (u1, u2)]
    lhs = g1 * q1 * u1 * g2 * q2 * u2
    return holds_at_random_points(lhs, g1 * g2 * q1 * q2, draws, "<=")


def main() -> bool:
    """Theorems 3, 5 and 6 of Liu et al.; True when every step holds."""
    return theorem5() and theorem6() and theorem3()


if __name__ == "__main__":
    print("DDP composition:", "proved" if main() else "FAILED")

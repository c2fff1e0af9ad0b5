"""lmm2016.thm5 -- Liu et al. 2016 (dependent differential privacy), Section IV-C, Theorem 5.

Claim (post-processing). If a mechanism ``A`` has dependent-DP level ``γ(A) <= γ``
(Definition 4: ``γ(A) = max over dependent neighbouring databases (D, D') and outputs o
of P(A(D) = o) / P(A(D') = o)``, ``γ = e^ε``), then for any randomized map ``B``,
``γ(B ∘ A) <= γ``.

Argument. Write ``P = A(D)``, ``Q = A(D')``; ``γ(A) <= γ`` means every slack
``γ Q_s - P_s`` is nonnegative.
1. ``γ Σ_s B(o|s) Q_s - Σ_s B(o|s) P_s = Σ_s B(o|s) (γ Q_s - P_s)``: an identity (indexed
   sums over ``N`` outputs, checked symbolically), a sum of nonnegative terms.
2. So ``P(B(A(D)) = o) <= γ P(B(A(D')) = o)`` for every ``o`` and pair: ``γ(B ∘ A) <= γ``.
3. The identity is linear in the laws, so it also holds when ``P`` and ``Q`` are mixtures
   over databases with common weights (the conditional reading of Eq. 11-12): a finite
   rectangular double sum may be taken in either order (checked symbolically).
The 50-digit spot check: 3 outputs, ``P_s = γ Q_s u_s`` with ``u_s ∈ [0, 1]``.
"""

from __future__ import annotations

import sympy as sp
from spot import holds_at_random_points, nonnegative_rational, positive_rational, run, unit_rational

CLAIM = "lmm2016.thm5"


def main() -> bool:
    """Theorem 5; True when every step holds."""
    s, k, N, K = sp.symbols("s k N K", integer=True, positive=True)
    B, Q, S = (sp.IndexedBase(x, nonnegative=True) for x in ("B", "Q", "slack"))
    g = sp.Symbol("gamma", positive=True)
    P = g * Q[s] - S[s]
    gap = g * sp.Sum(B[s] * Q[s], (s, 1, N)) - sp.Sum(B[s] * P, (s, 1, N))
    assert sp.simplify((gap - sp.Sum(B[s] * S[s], (s, 1, N))).expand()) == 0, "step 1"
    assert (B[s] * S[s]).is_nonnegative, "step 1: signs"
    w, A = sp.IndexedBase("w", nonnegative=True), sp.IndexedBase("A", nonnegative=True)
    term = B[s] * w[k] * A[k, s]
    swapped = sp.Sum(term, (k, 1, K), (s, 1, N)).reorder((0, 1))
    assert swapped == sp.Sum(term, (s, 1, N), (k, 1, K)), "step 3: exchange"
    b, q, u = sp.symbols("b1:4"), sp.symbols("q1:4"), sp.symbols("u1:4")
    lhs = sum(bi * g * qi * ui for bi, qi, ui in zip(b, q, u, strict=True))
    rhs = g * sum(bi * qi for bi, qi in zip(b, q, strict=True))
    draws = [(g, positive_rational)] + [(x, nonnegative_rational) for x in (*b, *q)]
    draws += [(x, unit_rational) for x in u]
    return holds_at_random_points(lhs, rhs, draws, "<=", points=12)


if __name__ == "__main__":
    run(CLAIM, main)

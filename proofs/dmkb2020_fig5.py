"""dmkb2020.fig5 -- Desfontaines et al. 2020 (DP with partial knowledge), Section 5.2, Figure 5.

Claim. For counting queries, Theorem 3's closed-form
``ε(|B|) = max(sqrt(14 ln(1/δ) / (λ (n - |B| - 1))), 27 / (λ (n - |B| - 1)))`` grows with
the number ``|B|`` of records the attacker knows (``n = 10^5``, ``λ = 0.05``,
``δ = 10^-10``); post-processing with Laplace noise of scale 2 (pure ``1/2``-DP on a
sensitivity-1 count) caps the guarantee at ``min(ε(|B|), 1/2)``, and the cap binds from
``|B| = 74211`` on.

Argument.
1. ``N = n - |B| - 1`` sits in both denominators: ``d/dN`` of each branch is negative
   (sympy), so ``ε`` strictly increases in ``|B|``.
2. ``ε > 1/2`` iff ``14 ln(1/δ)/(λN) > 1/4`` or ``27/(λN) > 1/2``, i.e.
   ``N < 56 ln(10^10)/λ = 11200 ln 10 ≈ 25788.99`` or ``N < 1080``. So the cap binds
   exactly when ``N <= 25788``, i.e. ``|B| >= n - 1 - 25788 = 74211``.
   ``floor(11200 ln 10) = 25788`` is decided at 50 digits (``ln 10`` is irrational, so
   ``11200 ln 10`` is not an integer).
3. Cross-check at the crossing: ``ε(74210) <= 1/2 < ε(74211)`` and monotone steps at
   ``|B| ∈ {0, 74210, 74211, 50000, n - 3}``, each decided exactly (squares of rationals
   against ``ln 10`` at 50 digits, with margin).
"""

from __future__ import annotations

import mpmath
import sympy as sp
from spot import DIGITS, run

CLAIM = "dmkb2020.fig5"
n, LAM, LOG_INV_DELTA = 100000, sp.Rational(1, 20), 10 * sp.log(10)
CAP = sp.Rational(1, 2)


def eps(known: int) -> sp.Expr:
    """Theorem 3's closed form at ``|B| = known``."""
    N = n - known - 1
    return sp.Max(sp.sqrt(14 * LOG_INV_DELTA / (LAM * N)), 27 / (LAM * N))


def decided(a: sp.Expr, b: sp.Expr) -> int:
    """The sign of ``a - b`` at 50 digits, required clear of 10^-40 (never 0 here)."""
    with mpmath.workdps(DIGITS):
        v = sp.N(a - b, DIGITS)
    assert abs(v) > sp.Rational(1, 10**40), "too close to decide"
    return 1 if v > 0 else -1


def main() -> bool:
    """Figure 5; True when every step holds."""
    N, lam, L = sp.symbols("N lambda L", positive=True)
    for branch in (sp.sqrt(14 * L / (lam * N)), 27 / (lam * N)):
        assert sp.simplify(sp.diff(branch, N)).is_negative, "step 1: decreasing in N"
    bound = 56 * LOG_INV_DELTA / LAM  # sqrt(14 L/(lam N)) > 1/2 iff N < 56 L / lam
    assert sp.simplify(bound - 11200 * sp.log(10)) == 0
    floor = int(sp.floor(sp.N(bound, DIGITS)))
    assert decided(bound, floor) > 0 and decided(floor + 1, bound) > 0, "floor decided"
    assert floor == 25788 and 27 / (LAM * floor) < CAP, "the sqrt branch decides"
    crossing = n - 1 - floor
    assert crossing == 74211
    assert decided(eps(crossing), CAP) > 0 and decided(CAP, eps(crossing - 1)) > 0, "crossing"
    for k in (0, crossing - 1, crossing, n // 2, n - 3):
        assert decided(eps(k + 1), eps(k)) > 0, f"monotone at {k}"
    return True


if __name__ == "__main__":
    run(CLAIM, main)

"""li2019.ex5 -- Li et al. 2019 (prior differential privacy), Section VI-B, Example 5.

Claim. For the bivariate Gaussian with ``Σ = [[1, ρ], [ρ, 1]]`` and the sum query,
``PL(A(1, {})) = (1 + ρ) Δ_1 / λ`` and ``PL(A(1, {2})) = Δ_1 / λ``; the weak adversary
leaks more exactly when ``ρ > 0``.

Argument.
1. ``A(1, {})``: Corollary 2 (``li2019_cor2.py``) gives ``c = (σ_11 + σ_12)/σ_11 = 1 + ρ``,
   positive on ``(-1, 1)``, so ``PL = |1 + ρ| Δ_1/λ = (1 + ρ) Δ_1/λ`` (checked with sympy,
   writing ``ρ = r - 1``, ``r > 0``).
2. ``A(1, {2})``: nothing is unknown, ``E[f | x_1, x_2] = x_1 + x_2``, ``c = 1``,
   ``PL = Δ_1/λ``.
3. ``(1 + ρ) - 1 = ρ``: on ``(-1, 1)`` the weak value is larger iff ``ρ > 0``
   (``solveset``).
4. Exact instances ``ρ = ±1/2``: Lemma 1's gain ``Σ_21/Σ_11`` gives ``c = 3/2`` and
   ``1/2``; the 50-digit check of Eq. 19's log-ratio (Lemma 2's kernel with
   ``s² = 1 - ρ²``) approaches ``c Δ_1/λ`` far in the right tail and stays below it.
   A 50-digit spot check at random ``ρ ∈ (-1, 1)`` and ``t`` (``Δ_1 = λ = 1``) checks
   ``|ln h(t - c)/h(t)| <= c``.
"""

from __future__ import annotations

import mpmath
import sympy as sp
from li2019_lemma2 import log_h
from spot import DIGITS, holds_at_random_points, rational, run

CLAIM = "li2019.ex5"


def main() -> bool:
    """Example 5; True when every step holds."""
    rho = sp.Symbol("rho", real=True)
    delta, lam = sp.symbols("Delta lambda", positive=True)
    r = sp.Symbol("r", positive=True)
    sig = sp.Matrix([[1, rho], [rho, 1]])
    c_weak = (sig[0, 0] + sig[0, 1]) / sig[0, 0]
    assert sp.simplify(sp.Abs(c_weak).subs(rho, r - 1) * delta / lam - r * delta / lam) == 0
    c_strong = sp.Integer(1)
    assert sp.simplify(sp.Abs(c_strong) * delta / lam - delta / lam) == 0, "step 2"
    order = sp.solveset(sp.simplify(c_weak - c_strong) > 0, rho, sp.Interval.open(-1, 1))
    assert order == sp.Interval.open(0, 1), "step 3"
    # spot check: |ln h(t - c) - ln h(t)| <= c = 1 + rho (Lemma 2's kernel, s^2 = 1 - rho^2)
    t = sp.Symbol("t")
    s = sp.sqrt(1 - rho**2)

    def h(z: sp.Expr) -> sp.Expr:
        a, b = z / s - s, -z / s - s
        return sp.exp(-z) * sp.erfc(-a / sp.sqrt(2)) + sp.exp(z) * sp.erfc(-b / sp.sqrt(2))

    lhs = sp.Abs(sp.log(h(t - (1 + rho)) / h(t)))
    draws = [(rho, lambda rng: sp.Rational(rng.randint(-39, 39), 40)), (t, rational)]
    assert holds_at_random_points(lhs, 1 + rho, draws, "<=", points=12), "spot check"
    for q in (sp.Rational(1, 2), sp.Rational(-1, 2)):
        c = 1 + sig[1, 0].subs(rho, q) / sig[0, 0]
        assert c == 1 + q, "step 4: coefficient"
        with mpmath.workdps(DIGITS):
            s2, d = 1 - mpmath.mpf(q.p) ** 2 / q.q**2, mpmath.mpf(int(c.p)) / int(c.q)
            far = log_h(mpmath.mpf(60) - d, s2, mpmath.mpf(1)) - log_h(mpmath.mpf(60), s2, 1)
            assert abs(far - d) < mpmath.mpf(10) ** -12, "tail"
            for k in range(-10, 11):
                t = mpmath.mpf(k) / 2
                gap = d - abs(log_h(t - d, s2, 1) - log_h(t, s2, 1))
                assert gap > mpmath.mpf(10) ** -40, "never above, with margin"
    return True


if __name__ == "__main__":
    run(CLAIM, main)

"""dmkb2020.def19 -- Desfontaines et al. 2020 (DP with partial knowledge), Section 5.2,
Definition 19 and Figure 6.

Claim. The two-sided geometric law ``G(k) = (1-α)/(1+α) α^{|k|}`` (``k ∈ Z``, ``0 < α < 1``)
is a probability law, and adding it to a count is post-processing that can only help: for
a target whose ``m`` peers count ``S ~ Bin(m, q)``, the noisy count ``a + S + G`` has a
``δ(ε)`` (both directions) at most that of the noiseless count ``a + S`` and at most that
of the noise alone (``G + 1`` against ``G``).

Argument.
1. ``Σ_{k ∈ Z} (1-α)/(1+α) α^{|k|} = (1-α)/(1+α) (1 + 2 α/(1-α)) = 1`` (sympy sums the
   geometric series for symbolic ``0 < α < 1``).
2. Both bounds are instances of the data-processing inequality for the hockey-stick
   divergence: ``a + S + G`` is a post-processing of ``a + S`` (add independent ``G``) and
   of ``a + G`` (add independent ``S``), and ``max(0, Σ_x K(y|x)(P_x - e^ε Q_x)) <=
   Σ_x K(y|x) max(0, P_x - e^ε Q_x)``.
3. Exhaustive exact check (the checker's grid ``m ∈ {4, 9}``, ``q ∈ {1/2, 1/10}``,
   ``α ∈ {1/2, 3/4}``, ``ε ∈ {0, 1/2}``). Write ``P_a(k) = Σ_s b(s) G(k - a - s)``.
   For ``k >= m + 1`` every ``k - a - s >= 0``, so ``P_1/P_0 = 1/α`` is constant and the
   tail mass is a geometric series ``c K_a α^{m+1}/(1-α)``; for ``k <= 0``, ``P_1/P_0 = α``
   and the tail mass is ``c L_a/(1-α)``; the window ``1..m`` is summed term by term. Every
   value is ``X - e^{ε} Y`` with rational ``X, Y``: each ``max(0, ·)`` and each final
   comparison is decided exactly (zero iff ``X = Y = 0``, ``e^{1/2}`` being irrational;
   otherwise a 50-digit value clear of 10^-40). The total mass of the convolution is
   exactly 1 in every case.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import mpmath
import sympy as sp
from spot import DIGITS, run

CLAIM = "dmkb2020.def19"
F = Fraction
Value = tuple[Fraction, Fraction]  # X - e^eps Y


def positive(x: Fraction, y: Fraction, eps: Fraction) -> int:
    """The exact sign of ``x - e^eps y``."""
    if y == 0 or eps == 0:
        v = x - y
        return (v > 0) - (v < 0)
    with mpmath.workdps(DIGITS):
        val = mpmath.mpf(x.numerator) / x.denominator - mpmath.exp(
            mpmath.mpf(eps.numerator) / eps.denominator
        ) * (mpmath.mpf(y.numerator) / y.denominator)
        if x == 0 and y == 0:
            return 0
        assert abs(val) > mpmath.mpf(10) ** -40, "too close to 0"
        return 1 if val > 0 else -1


def delta(weights: dict[int, Fraction], alpha: Fraction, eps: Fraction, noise: bool) -> Value:
    """``δ(ε)``, worst direction, of ``a + S (+ G)`` with ``S ~ weights``; exact ``X - e^ε Y``."""
    c = (1 - alpha) / (1 + alpha)
    top = max(weights)
    best: Value | None = None
    for a in (0, 1):
        x_sum, y_sum = F(0), F(0)

        def mass(shift: int, k: int) -> Fraction:
            if not noise:
                return weights.get(k - shift, F(0))
            return sum((w * c * alpha ** abs(k - shift - s) for s, w in weights.items()), F(0))

        for k in range(1, top + 1) if noise else range(0, top + 2):
            px, qy = mass(a, k), mass(1 - a, k)
            if positive(px, qy, eps) > 0:
                x_sum, y_sum = x_sum + px, y_sum + qy
        if noise:  # the two geometric tails: k >= top + 1 and k <= 0
            for first, ratio_step in ((top + 1, alpha), (0, alpha)):
                px, qy = mass(a, first), mass(1 - a, first)
                if positive(px, qy, eps) > 0:  # the ratio is constant along the tail
                    x_sum, y_sum = x_sum + px / (1 - ratio_step), y_sum + qy / (1 - ratio_step)
        if best is None or positive(x_sum - best[0], y_sum - best[1], eps) > 0:
            best = (x_sum, y_sum)
    assert best is not None
    return best


def total_mass(weights: dict[int, Fraction], alpha: Fraction) -> Fraction:
    """The total mass of ``S + G``: the window plus the two closed-form tails."""
    c = (1 - alpha) / (1 + alpha)
    top = max(weights)

    def mass(k: int) -> Fraction:
        return sum((w * c * alpha ** abs(k - s) for s, w in weights.items()), F(0))

    return (
        sum((mass(k) for k in range(1, top + 1)), F(0))
        + mass(top + 1) / (1 - alpha)
        + mass(0) / (1 - alpha)
    )


def main() -> bool:
    """Definition 19 and the convolution bounds; True when every step holds."""
    p = sp.Symbol("alpha", positive=True)
    k = sp.Symbol("k", integer=True, positive=True)
    tail = sp.summation(p**k, (k, 1, sp.oo))
    tail = tail.args[0][0] if isinstance(tail, sp.Piecewise) else tail  # the |alpha| < 1 branch
    assert sp.simplify(tail - p / (1 - p)) == 0, "step 1: the geometric series"
    assert sp.simplify((1 - p) / (1 + p) * (1 + 2 * tail)) == 1, "step 1: total mass"
    grid = itertools.product((4, 9), (F(1, 2), F(1, 10)), (F(1, 2), F(3, 4)), (F(0), F(1, 2)))
    cases = 0
    for m, q, alpha, eps in grid:
        b = {s: comb(m, s) * q**s * (1 - q) ** (m - s) for s in range(m + 1)}
        assert total_mass(b, alpha) == 1, "the convolution is a probability law"
        conv = delta(b, alpha, eps, noise=True)
        for bound in (delta(b, alpha, eps, noise=False), delta({0: F(1)}, alpha, eps, noise=True)):
            assert positive(bound[0] - conv[0], bound[1] - conv[1], eps) >= 0, (m, q, alpha, eps)
        cases += 1
    return cases == 16


if __name__ == "__main__":
    run(CLAIM, main)

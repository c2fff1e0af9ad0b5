"""li2019.thm1 -- Li et al. 2019 (prior differential privacy), Section IV-A, Theorem 1.

Claim. When the tuples are independent, every adversary ``A(i, K)`` has the Eq. 2
leakage ``PL = Δ_i / λ`` (the sensitivity of the query in ``x_i`` over ``λ``): what the
adversary knows does not matter.

Argument (linear query ``f = w_i x_i + w_K x_K + w_U x_U``).
1. Independence: ``θ(x_U | x_i, x_K) = θ(x_U)``, so ``p(r | x_i)`` and ``p(r | x_i')``
   are mixtures with the same weights ``π_s`` over support points shifted by
   ``a = w_i x_i`` and ``b = w_i x_i'``.
2. Pairing the terms, the Laplace step ``|r - b| - |r - a| <= |a - b|`` bounds the ratio
   by ``e^{|a - b|/λ}`` (50-digit spot check on random 3-point mixtures).
3. Beyond the support (``|r - s| = r - s`` for every support point) each term of
   ``p(r | x_i)`` is ``e^{(a - b)/λ}`` times its partner, so the ratio of the sums equals
   ``e^{(a - b)/λ}`` exactly (an indexed sum over ``N`` terms: the common sum cancels);
   the left tail gives ``e^{(b - a)/λ}``. The bound is attained.
4. With independent tuples every value of ``x_i`` is compatible with every ``x_K`` (a
   product of positive marginals), so the sup over pairs is ``max |w_i (x_i - x_i')| / λ
   = Δ_i / λ`` for every ``K``.
"""

from __future__ import annotations

import itertools

import sympy as sp
from spot import holds_at_random_points, positive_rational, rational, run

CLAIM = "li2019.thm1"


def main() -> bool:
    """Theorem 1; True when every step holds."""
    t0 = sp.Symbol("t0", real=True)
    u, v = sp.symbols("u v", nonnegative=True)
    for r0, a0, b0 in itertools.permutations((t0, t0 + u, t0 + u + v)):
        slack = sp.Abs(a0 - b0) - (sp.Abs(r0 - b0) - sp.Abs(r0 - a0))
        assert sp.simplify(slack).is_nonnegative, "step 2: triangle inequality"
    s, N = sp.symbols("s N", integer=True, positive=True)
    pi, f = sp.IndexedBase("pi", positive=True), sp.IndexedBase("f", real=True)
    a, b, c = sp.symbols("a b c", real=True)  # w_i x_i, w_i x_i', w_K x_K
    r, lam = sp.Symbol("r", real=True), sp.Symbol("lam", positive=True)

    def right_term(shift: sp.Expr) -> sp.Expr:
        return pi[s] * sp.exp(-(r - shift - c - f[s]) / lam)

    def left_term(shift: sp.Expr) -> sp.Expr:
        return pi[s] * sp.exp((r - shift - c - f[s]) / lam)

    assert sp.simplify(right_term(a) / right_term(b) - sp.exp((a - b) / lam)) == 0, "step 3"
    common = sp.Sum(right_term(a), (s, 1, N)) - sp.exp((a - b) / lam) * sp.Sum(
        right_term(b), (s, 1, N)
    )
    assert sp.simplify(common) == 0, "step 3: right tail"
    common = sp.Sum(left_term(a), (s, 1, N)) - sp.exp((b - a) / lam) * sp.Sum(
        left_term(b), (s, 1, N)
    )
    assert sp.simplify(common) == 0, "step 3: left tail"
    ws, fs = list(sp.symbols("w1:4")), list(sp.symbols("f1:4"))

    def mixture(shift: sp.Expr) -> sp.Expr:
        return sum(
            w * sp.exp(-sp.Abs(r - shift - c - x) / lam) for w, x in zip(ws, fs, strict=True)
        )

    draws = [(x, positive_rational) for x in ws] + [(x, rational) for x in [*fs, a, b, c, r]]
    draws.append((lam, positive_rational))
    bound = holds_at_random_points(
        mixture(a), sp.exp(sp.Abs(a - b) / lam) * mixture(b), draws, "<="
    )
    # attained: at r beyond every support point the log-ratio is (a - b)/lam
    far = 100 + sum(sp.Abs(x) for x in [*fs, a, b, c])
    attained = holds_at_random_points(
        sp.log(mixture(a) / mixture(b)).subs(r, far), (a - b) / lam, draws[:-2] + draws[-1:]
    )
    return bound and attained


if __name__ == "__main__":
    run(CLAIM, main)

"""li2019.thm3.1 -- Li et al. 2019 (prior differential privacy), Section V, Theorem 3(1).

Claim. The increment ratio ``q = λ d_j / Δ_j`` of Theorem 3 lies in ``[-1, 1]``, where
(Eq. 9) ``d_j = ln [Σ_x θ_a(x) e^{w_j x/λ} / Σ_x θ_b(x) e^{w_j x/λ}]`` with ``θ_a, θ_b``
the laws of ``x_j`` given the two values of ``x_i`` (and the context), ``x`` ranging over
a domain of width ``Δ_j / |w_j|``.

Argument.
1. Every ``e^{w_j x/λ}`` lies in ``[m, m R]`` with ``R = e^{Δ_j/λ}`` (``m`` the value at
   the end of the domain where it is smallest).
2. An average lies between the extremes: write ``e_x = m + up_x = m R - down_x`` with
   ``up_x, down_x >= 0``; then ``Σ θ_a e_x - m Σ θ_a = Σ θ_a up_x >= 0`` and
   ``m R Σ θ_b - Σ θ_b e_x = Σ θ_b down_x >= 0`` (indexed sums over ``N`` values, checked
   symbolically). With ``Σ θ = 1`` the numerator is ``>= m`` and the denominator
   ``<= m R``, so ``d_j >= -Δ_j/λ``; exchanging ``a`` and ``b`` gives ``d_j <= Δ_j/λ``.
3. Hence ``|q| = λ |d_j| / Δ_j <= 1``.
The 50-digit spot check draws random laws on three points of a random domain, random
weight ``w_j`` and ``λ``, and checks ``|d_j| <= |w_j| width / λ``, with equality for point
masses at the two ends of the domain (so the bound is sharp).
"""

from __future__ import annotations

import sympy as sp
from spot import holds_at_random_points, positive_rational, rational, run

CLAIM = "li2019.thm3.1"


def main() -> bool:
    """Theorem 3(1); True when every step holds."""
    x, N = sp.symbols("x N", integer=True, positive=True)
    ta = sp.IndexedBase("theta_a", nonnegative=True)
    tb = sp.IndexedBase("theta_b", nonnegative=True)
    up, down = sp.IndexedBase("up", nonnegative=True), sp.IndexedBase("down", nonnegative=True)
    m, R = sp.Symbol("m", positive=True), sp.Symbol("R", positive=True)
    num = sp.Sum(ta[x] * (m + up[x]), (x, 1, N)).expand()
    den = sp.Sum(tb[x] * (m * R - down[x]), (x, 1, N)).expand()
    sa, sb = sp.Sum(ta[x], (x, 1, N)), sp.Sum(tb[x], (x, 1, N))
    lower = sp.simplify((num - m * sa - sp.Sum(ta[x] * up[x], (x, 1, N))).expand())
    upper = sp.simplify((m * R * sb - den - sp.Sum(tb[x] * down[x], (x, 1, N))).expand())
    assert lower == 0 and upper == 0, "step 2: the averages"
    assert (ta[x] * up[x]).is_nonnegative and (tb[x] * down[x]).is_nonnegative, "step 2: signs"
    p1, p2 = list(sp.symbols("p1:4")), list(sp.symbols("q1:4"))
    lo, wd, w, lam = sp.symbols("lo width weight lam")
    xs = [lo, lo + wd / 2, lo + wd]

    def avg(ps: list[sp.Symbol]) -> sp.Expr:
        return sum(p * sp.exp(w * xv / lam) for p, xv in zip(ps, xs, strict=True)) / sum(ps)

    d = sp.log(avg(p1) / avg(p2))
    draws = [(v, lambda rng: sp.Rational(rng.randint(1, 40), 40)) for v in p1 + p2]
    draws += [(lo, rational), (wd, positive_rational), (w, rational), (lam, positive_rational)]
    bound = sp.Abs(w) * wd / lam
    inside = holds_at_random_points(sp.Abs(d), bound, draws, "<=", points=12)
    # sharp: point masses at the two ends of the domain attain the bound
    ends = {p1[0]: 0, p1[1]: 0, p1[2]: 1, p2[0]: 1, p2[1]: 0, p2[2]: 0}
    return inside and holds_at_random_points(sp.Abs(d.subs(ends)), bound, draws[6:])


if __name__ == "__main__":
    run(CLAIM, main)

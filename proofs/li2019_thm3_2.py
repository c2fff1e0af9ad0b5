"""li2019.thm3.2 -- Li et al. 2019 (prior differential privacy), Section V, Theorem 3(2).

Claim. For the sum query with binary domains, the increment ratio ``q`` of Theorem 3 has
the sign of the correlation ``ρ`` of ``x_i`` and ``x_j``: ``sign(q) = sign(ρ)``.

Argument. ``x_i ∈ {lo, hi}`` (the pair ``a = hi``, ``b = lo``), ``x_j ∈ {l, h = l + g}``,
``g > 0``, ``t_x = θ(x_j = h | x_i = x, context)``.
1. Right tail (Eq. 9): ``d = ln N/D`` with ``N - D = (t_a - t_b)(e^{h/λ} - e^{l/λ})``;
   left tail: ``d = ln Σθ_b e^{-x/λ} / Σθ_a e^{-x/λ}`` with
   ``N - D = (t_a - t_b)(e^{-l/λ} - e^{-h/λ})``.
2. ``e^{h/λ} - e^{l/λ} = e^{l/λ}(e^u - 1)`` and ``e^{-l/λ} - e^{-h/λ} = e^{-l/λ}(1 -
   e^{-u})`` with ``u = g/λ > 0``; ``e^u - 1 = ∫_0^u e^t dt > 0`` and
   ``1 - e^{-u} = ∫_0^u e^{-t} dt > 0``. With ``N, D > 0``: ``sign(d) = sign(t_a - t_b)``.
3. The conditional means are ``m_x = l + t_x g``, so ``sign(t_a - t_b) = sign(m_a - m_b)``.
4. Lemma 3: ``cov = p(1-p)(hi - lo)(m_a - m_b)``, with ``p(1-p) > 0`` when both values of
   ``x_i`` are possible: ``sign(ρ) = sign(m_a - m_b)``.
5. ``q = λ d / Δ_j`` with ``Δ_j = g > 0`` has the sign of ``d``.
The 50-digit spot check: ``d (t_a - t_b) >= 0`` at random points.
"""

from __future__ import annotations

import sympy as sp
from spot import holds_at_random_points, positive_rational, rational, run

CLAIM = "li2019.thm3.2"


def main() -> bool:
    """Theorem 3(2); True when every step holds."""
    ta, tb = sp.symbols("t_a t_b", nonnegative=True)
    l_, lo = sp.symbols("l lo", real=True)
    g, gi, lam = sp.symbols("g g_i lam", positive=True)
    h, hi = l_ + g, lo + gi
    right = [(1 - t) * sp.exp(l_ / lam) + t * sp.exp(h / lam) for t in (ta, tb)]
    diff = right[0] - right[1] - (ta - tb) * (sp.exp(h / lam) - sp.exp(l_ / lam))
    assert sp.simplify(diff) == 0, "step 1: right tail"
    left = [(1 - t) * sp.exp(-l_ / lam) + t * sp.exp(-h / lam) for t in (tb, ta)]
    diff = left[0] - left[1] - (ta - tb) * (sp.exp(-l_ / lam) - sp.exp(-h / lam))
    assert sp.simplify(diff) == 0, "step 1: left tail"
    gap_r = sp.exp(h / lam) - sp.exp(l_ / lam) - sp.exp(l_ / lam) * (sp.exp(g / lam) - 1)
    gap_l = sp.exp(-l_ / lam) - sp.exp(-h / lam) - sp.exp(-l_ / lam) * (1 - sp.exp(-g / lam))
    assert sp.simplify(gap_r) == 0 and sp.simplify(gap_l) == 0, "step 2: factors"
    u, t = sp.Symbol("u", positive=True), sp.Symbol("t", real=True)
    for gap, integrand in ((sp.exp(u) - 1, sp.exp(t)), (1 - sp.exp(-u), sp.exp(-t))):
        assert sp.simplify(sp.integrate(integrand, (t, 0, u)) - gap) == 0, "step 2: integral"
        assert integrand.is_positive, "step 2: positive integrand"
    m = {x: l_ + x * g for x in (ta, tb)}
    assert sp.expand(m[ta] - m[tb] - (ta - tb) * g) == 0, "step 3"
    p = sp.Symbol("p", positive=True)
    cov = (
        p * hi * m[ta]
        + (1 - p) * lo * m[tb]
        - (p * hi + (1 - p) * lo) * (p * m[ta] + (1 - p) * m[tb])
    )
    assert sp.expand(cov - p * (1 - p) * gi * (m[ta] - m[tb])) == 0, "step 4: Lemma 3"
    d = sp.log(right[0] / right[1])
    draws = [(ta, lambda rng: sp.Rational(rng.randint(0, 40), 40))]
    draws += [(tb, lambda rng: sp.Rational(rng.randint(0, 40), 40))]
    draws += [(l_, rational), (g, positive_rational), (lam, positive_rational)]
    return holds_at_random_points(-d * (ta - tb), sp.Integer(0), draws, "<=", points=12)


if __name__ == "__main__":
    run(CLAIM, main)

"""li2019.remark1 -- Li et al. 2019 (prior differential privacy), Section IV-A, Remark 1, Eq. 4.

Claim. Whatever the joint distribution, the Eq. 2 leakage of ``A(i, K)`` is at most the
group-DP bound ``PL <= D/λ`` with ``D = Σ over {i} ∪ U of Δ_k`` (``U`` the unknown
tuples, ``Δ_k`` the sensitivity of the query in ``x_k``).

Argument (Eq. 2: ``p(r | x_i, x_K) = Σ_s π_s e^{-|r - s|/λ} / (2λ)`` over the support
points ``s = f(x)`` of the databases compatible with ``(x_i, x_K)``).
1. Laplace step: ``|r - b| - |r - a| <= |a - b|`` for all reals (triangle inequality),
   checked on each of the six orderings of ``r, a, b`` with nonnegative gaps; hence
   ``e^{-|r - a|/λ} <= e^{|a - b|/λ} e^{-|r - b|/λ}``.
2. Two databases sharing ``x_K`` differ only in ``{i} ∪ U``, so ``|f(x) - f(x')| <= D``:
   each term of ``p(r | x_i)`` is at most ``e^{D/λ}`` times the smallest term ``m`` of
   ``p(r | x_i')``.
3. A mixture is at least its smallest term: ``Σ π'_s L_s - m = Σ π'_s (L_s - m) >= 0``
   when ``Σ π'_s = 1`` (an indexed sum over ``N`` terms, checked symbolically).
4. So ``p(r | x_i) <= e^{D/λ} p(r | x_i')`` for every ``r``: ``PL <= D/λ``.
The 50-digit spot check draws random 3-point mixtures (D = the diameter of all support
points) and random ``r``.
"""

from __future__ import annotations

import itertools

import sympy as sp
from spot import holds_at_random_points, positive_rational, rational, run

CLAIM = "li2019.remark1"


def triangle_step() -> bool:
    """``|r - b| - |r - a| <= |a - b|`` on every ordering of ``r, a, b``."""
    t0 = sp.Symbol("t0", real=True)
    u, v = sp.symbols("u v", nonnegative=True)
    for r, a, b in itertools.permutations((t0, t0 + u, t0 + u + v)):
        slack = sp.Abs(a - b) - (sp.Abs(r - b) - sp.Abs(r - a))
        if not sp.simplify(slack).is_nonnegative:
            return False
    return True


def mixture_at_least_its_minimum() -> bool:
    """``Σ π_s L_s - m Σ π_s = Σ π_s (L_s - m)``, every term nonnegative."""
    s, N = sp.symbols("s N", integer=True, positive=True)
    pi, gap = sp.IndexedBase("pi", nonnegative=True), sp.IndexedBase("g", nonnegative=True)
    m = sp.Symbol("m", positive=True)
    mixture = sp.Sum(pi[s] * (m + gap[s]), (s, 1, N)).expand()
    lhs = mixture - m * sp.Sum(pi[s], (s, 1, N))
    same = sp.simplify((lhs - sp.Sum(pi[s] * gap[s], (s, 1, N))).expand()) == 0
    return bool(same and (pi[s] * gap[s]).is_nonnegative)


def main() -> bool:
    """Remark 1 (Eq. 4); True when every step holds."""
    assert triangle_step(), "step 1: triangle inequality"
    assert mixture_at_least_its_minimum(), "step 3: a mixture is at least its minimum"
    r, lam = sp.Symbol("r"), sp.Symbol("lam", positive=True)
    ws, vs = list(sp.symbols("w1:4")), list(sp.symbols("v1:4"))
    ss, ts = list(sp.symbols("s1:4")), list(sp.symbols("t1:4"))
    num = sum(w * sp.exp(-sp.Abs(r - s) / lam) for w, s in zip(ws, ss, strict=True))
    den = sum(v * sp.exp(-sp.Abs(r - t) / lam) for v, t in zip(vs, ts, strict=True))
    D = sp.Max(*ss, *ts) - sp.Min(*ss, *ts)
    draws = [(x, positive_rational) for x in ws + vs] + [(x, rational) for x in ss + ts + [r]]
    draws.append((lam, positive_rational))
    return holds_at_random_points(num / sum(ws), sp.exp(D / lam) * den / sum(vs), draws, "<=")


if __name__ == "__main__":
    run(CLAIM, main)

"""li2019.breakpoints -- Li et al. 2019 (prior differential privacy), Section IV-A, Eq. 2.

Claim (the breakpoint lemma, this project's reading of the sup over ``r`` in Eq. 2). For
fixed ``(x_i, x_K)`` the output density is the Laplace mixture
``p(r) = Σ_s π_s e^{-|r - s|/λ} / (2λ)`` over the support points ``s`` of the query. For
two such mixtures ``p, p'`` the ratio ``p(r)/p'(r)`` is monotone between consecutive
points of the union of their supports and constant beyond the extreme points, so
``sup_r ln p(r)/p'(r)`` is a maximum over the support points.

Argument.
1. On an interval ``[t_k, t_{k+1}]`` with no support point inside, a term with ``s <= r``
   is ``π e^{s/λ} e^{-r/λ}`` and one with ``s >= r`` is ``π e^{-s/λ} e^{r/λ}``: both
   densities have the form ``A e^{r/λ} + B e^{-r/λ}`` with ``A, B >= 0``.
2. ``d/dr [(A e^{r/λ} + B e^{-r/λ}) / (C e^{r/λ} + D e^{-r/λ})]
   = 2 (AD - BC) / (λ (C e^{r/λ} + D e^{-r/λ})^2)``: its sign does not depend on ``r``,
   so on each interval the ratio is monotone and its sup is at an end point.
3. Beyond the extreme points one exponential survives in both densities (``A = C = 0``
   to the right, ``B = D = 0`` to the left): the ratio is constant there.
Each step is checked symbolically; the 50-digit spot check draws random mixtures and a
random ``r`` and checks ``ln p(r)/p'(r) <= max over the support points``.
"""

from __future__ import annotations

import sympy as sp
from spot import holds_at_random_points, positive_rational, rational, run

CLAIM = "li2019.breakpoints"


def main() -> bool:
    """The breakpoint lemma; True when every step holds."""
    r, lam = sp.symbols("r lambda", positive=True)
    A, B, C, D = sp.symbols("A B C D", nonnegative=True)
    # step 1: a mixture on a support-free interval has the A/B form
    s_left, s_right = sp.symbols("s_left s_right", real=True)  # s_left <= r <= s_right
    pl, pr = sp.symbols("pi_l pi_r", nonnegative=True)
    mixture = pl * sp.exp(-(r - s_left) / lam) + pr * sp.exp(-(s_right - r) / lam)
    form = pr * sp.exp(-s_right / lam) * sp.exp(r / lam) + pl * sp.exp(s_left / lam) * sp.exp(
        -r / lam
    )
    assert sp.simplify(sp.expand(mixture - form)) == 0, "step 1"
    # step 2: the derivative of the ratio has the sign of AD - BC, whatever r
    u = sp.exp(r / lam)
    ratio = (A * u + B / u) / (C * u + D / u)
    claimed = 2 * (A * D - B * C) / (lam * (C * u + D / u) ** 2)
    assert sp.simplify(sp.diff(ratio, r) - claimed) == 0, "step 2"
    # step 3: beyond the extreme points the ratio is constant
    assert sp.diff(sp.simplify((B / u) / (D / u)), r) == 0, "step 3 (right)"
    assert sp.diff(sp.simplify((A * u) / (C * u)), r) == 0, "step 3 (left)"
    # spot check: two 3-point mixtures, r random: the ratio is below its max at the supports
    x = sp.Symbol("x")
    ws, vs = sp.symbols("w1:4"), sp.symbols("v1:4")
    ss, ts = sp.symbols("s1:4"), sp.symbols("t1:4")

    def log_ratio(at: sp.Expr) -> sp.Expr:
        num = sum(w * sp.exp(-sp.Abs(at - s) / lam) for w, s in zip(ws, ss, strict=True))
        den = sum(v * sp.exp(-sp.Abs(at - t) / lam) for v, t in zip(vs, ts, strict=True))
        return sp.log(num / den)

    best = sp.Max(*(log_ratio(s) for s in (*ss, *ts)))
    draws = [(y, positive_rational) for y in (*ws, *vs, lam)]
    draws += [(y, rational) for y in (*ss, *ts, x)]
    return holds_at_random_points(log_ratio(x), best, draws, "<=", points=12)


if __name__ == "__main__":
    run(CLAIM, main)

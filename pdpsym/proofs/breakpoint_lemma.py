"""Breakpoint lemma (Li et al. Eq. 2, as this project reads it), proved with sympy.

Claim: for a fixed ``(x_i, x_K)`` the output density is the mixture
``p(r) = sum_s pi(s) e^{-|r - s|/lambda} / (2 lambda)`` over the support points ``s`` of
``f``. For two such mixtures ``p, p'`` the ratio ``p(r)/p'(r)`` is monotone between
consecutive points of the union of their supports and constant beyond its extreme
points. Hence ``sup_r ln p/p'`` is a max over the union of the supports.

Steps checked symbolically:

1. On an interval ``[t_k, t_{k+1}]`` free of support points in its interior, every term
   is ``pi e^{s/l} e^{-r/l}`` (``s <= r``) or ``pi e^{-s/l} e^{r/l}`` (``s >= r``), so both
   densities have the form ``A e^{r/l} + B e^{-r/l}`` with ``A, B >= 0``.
2. ``d/dr [(A e^{r/l} + B e^{-r/l}) / (C e^{r/l} + D e^{-r/l})]
   = 2 (A D - B C) / (l (C e^{r/l} + D e^{-r/l})^2)``: its sign does not depend on ``r``,
   so the ratio is monotone on the interval and its sup is at an end point.
3. Beyond the extreme points only one exponential survives (``A = C = 0`` to the right,
   ``B = D = 0`` to the left): the ratio is constant, equal to its value at the extreme
   point.
"""

from __future__ import annotations

import sympy as sp


def main() -> bool:
    r, lam = sp.symbols("r lambda", positive=True)
    A, B, C, D = sp.symbols("A B C D", nonnegative=True)

    # Step 1: a mixture over support points on an interval [t0, t1] has the A/B form.
    t0, t1 = sp.symbols("t0 t1", real=True)
    s_left, s_right = sp.symbols("s_left s_right", real=True)  # s_left <= t0 < r < t1 <= s_right
    pl, pr = sp.symbols("pi_l pi_r", nonnegative=True)
    mixture = pl * sp.exp(-(r - s_left) / lam) + pr * sp.exp(-(s_right - r) / lam)
    form = (pr * sp.exp(-s_right / lam)) * sp.exp(r / lam) + (pl * sp.exp(s_left / lam)) * sp.exp(
        -r / lam
    )
    assert sp.simplify(sp.expand(mixture - form)) == 0, "step 1 failed"

    # Step 2: the derivative of the ratio has the sign of A D - B C, independent of r.
    u = sp.exp(r / lam)
    ratio = (A * u + B / u) / (C * u + D / u)
    deriv = sp.diff(ratio, r)
    claimed = 2 * (A * D - B * C) / (lam * (C * u + D / u) ** 2)
    assert sp.simplify(deriv - claimed) == 0, "step 2 failed"

    # Step 3: beyond the extreme points the ratio is constant.
    right = (B / u) / (D / u)
    left = (A * u) / (C * u)
    assert sp.diff(sp.simplify(right), r) == 0 and sp.diff(sp.simplify(left), r) == 0, "step 3"
    return True


if __name__ == "__main__":
    print("breakpoint lemma:", "proved" if main() else "FAILED")

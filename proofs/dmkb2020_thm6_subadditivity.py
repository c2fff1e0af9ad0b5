"""dmkb2020.thm6.subadditivity -- Desfontaines et al. 2020, Section 5.1, proof of Theorem 6.

Claim. ``f(x) = max(0, 1 - e^x)`` is subadditive: ``f(x + y) <= f(x) + f(y)`` for all
real ``x, y``.

Argument (``u = e^x``, ``v = e^y``).
1. ``x > 0`` (``y > 0`` is symmetric): ``f(x) = 0``, and
   ``(1 - e^y) - (1 - e^{x+y}) = v (u - 1) > 0`` since ``u > 1``; as ``max(0, ·)`` is
   monotone, ``f(x + y) <= f(y) = f(x) + f(y)``.
2. ``x, y <= 0``: all three maxima take their second branch (``u, v, uv <= 1``), and
   ``f(x) + f(y) - f(x + y) = (1 - u)(1 - v) >= 0``.
Both identities are checked with sympy (``factor``). Cross-check, exact: on every pair of
the grid of quarters in ``[-2, 2]`` the sign of ``f(x) + f(y) - f(x + y)`` is
``>= 0``; each value is a Laurent polynomial in ``w = e^{1/4}`` with integer coefficients
(``1 - w^j >= 0`` iff ``j <= 0`` decides each ``max``), zero iff every coefficient
vanishes (``w`` is transcendental), else its 50-digit value clears 10^-40. Then a
50-digit spot check at seeded random rational ``x, y`` in ``[-9, 9]``.
"""

from __future__ import annotations

import itertools

import mpmath
import sympy as sp
from spot import DIGITS, holds_at_random_points, rational, run

CLAIM = "dmkb2020.thm6.subadditivity"


def f_poly(j: int) -> dict[int, int]:
    """``f(j/4)`` as a Laurent polynomial in ``w = e^{1/4}``: exponent -> coefficient."""
    return {0: 1, j: -1} if j < 0 else {}  # 1 - w^j when j < 0; 0 when j >= 0 (j = 0: 1 - 1)


def gap_sign(i: int, j: int) -> int:
    """The exact sign of ``f(i/4) + f(j/4) - f((i + j)/4)``."""
    poly: dict[int, int] = {}
    for term, s in ((f_poly(i), 1), (f_poly(j), 1), (f_poly(i + j), -1)):
        for k, c in term.items():
            poly[k] = poly.get(k, 0) + s * c
    poly = {k: c for k, c in poly.items() if c}
    if not poly:
        return 0
    with mpmath.workdps(DIGITS):
        w = mpmath.exp(mpmath.mpf(1) / 4)
        value = sum(c * w**k for k, c in poly.items())
        assert abs(value) > mpmath.mpf(10) ** -40, "too close to 0 to decide"
        return 1 if value > 0 else -1


def main() -> bool:
    """Subadditivity of f; True when every step holds."""
    u, v = sp.symbols("u v", positive=True)
    d1 = sp.factor((1 - v) - (1 - u * v))
    assert sp.simplify(d1 - v * (u - 1)) == 0, "step 1"
    d2 = sp.factor((1 - u) + (1 - v) - (1 - u * v))
    assert sp.simplify(d2 - (1 - u) * (1 - v)) == 0, "step 2"
    pts = range(-8, 9)
    assert all(gap_sign(i, j) >= 0 for i, j in itertools.product(pts, pts)), "grid"
    x, y = sp.symbols("x y", real=True)

    def f(z: sp.Expr) -> sp.Expr:
        return sp.Max(0, 1 - sp.exp(z))

    draws = [(x, rational), (y, rational)]
    return holds_at_random_points(f(x + y), f(x) + f(y), draws, "<=", points=16)


if __name__ == "__main__":
    run(CLAIM, main)

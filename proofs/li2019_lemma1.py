"""li2019.lemma1 -- Li et al. 2019 (prior differential privacy), Section VI, Lemma 1.

Claim (Gaussian conditioning). For a multivariate Gaussian ``x ~ N(μ, Σ)`` split into the
unknown block ``U`` and the given block ``A = {i} ∪ K``:
``x_U | x_A ~ N(μ_U + Σ_UA Σ_AA^{-1} (x_A - μ_A), Σ_UU - Σ_UA Σ_AA^{-1} Σ_AU)``.

Argument, with matrix symbols of symbolic sizes (``u`` unknowns, ``a`` given). Write
``C = Σ_AA`` (positive definite), the gain ``G = Σ_UA C^{-1}`` and the Schur complement
``P = Σ_UU - G C G^T``, so that ``Σ_UU = P + G C G^T``, ``Σ_UA = G C``, ``Σ_AU = C G^T``.
1. ``Σ = [[I, G], [0, I]] · diag(P, C) · [[I, 0], [G^T, I]]``, so ``det Σ = det P det C``
   (the outer factors are unit triangular).
2. The block inverse ``[[P^-1, -P^-1 G], [-G^T P^-1, C^-1 + G^T P^-1 G]]`` times ``Σ`` is
   the identity.
3. ``x^T Σ^-1 x = (x_U - G x_A)^T P^-1 (x_U - G x_A) + x_A^T C^-1 x_A`` (centred ``x``).
So the centred joint density factors into the ``N(G x_A, P)`` density of ``x_U`` and the
``N(0, C)`` density of ``x_A``: the conditional law is as claimed.
The 50-digit spot check compares the gain and Schur complement with the
precision-matrix route (``Λ = Σ^{-1}``: ``P = Λ_UU^{-1}``, ``G = -Λ_UU^{-1} Λ_UA``) on
random positive definite 3x3 covariances ``M M^T + I``.
"""

from __future__ import annotations

import random

import mpmath
import sympy as sp
from spot import DIGITS, run

CLAIM = "li2019.lemma1"


def zero(expr: sp.Expr) -> bool:
    """Whether a (matrix) expression simplifies to zero."""
    e = sp.simplify(sp.expand(expr))
    return bool(isinstance(e, sp.ZeroMatrix) or e == 0)


def blocks() -> tuple[sp.Expr, ...]:
    """The sizes and the blocks ``P, C, G`` as matrix symbols."""
    u, a = sp.symbols("u a", integer=True, positive=True)
    return u, a, sp.MatrixSymbol("P", u, u), sp.MatrixSymbol("C", a, a), sp.MatrixSymbol("G", u, a)


def spot_check(points: int = 6, seed: int = 2019) -> bool:
    """Random PD 3x3 covariances, U = {0}, A = {1, 2}: Schur route = precision route."""
    rng = random.Random(seed)
    with mpmath.workdps(DIGITS):
        tol = mpmath.mpf(10) ** -40
        for _ in range(points):
            M = mpmath.matrix(
                [[mpmath.mpf(rng.randint(-9, 9)) / 4 for _ in range(3)] for _ in range(3)]
            )
            S = M * M.T + mpmath.eye(3)
            Saa = mpmath.matrix([[S[1, 1], S[1, 2]], [S[2, 1], S[2, 2]]])
            Sua = mpmath.matrix([[S[0, 1], S[0, 2]]])
            gain = Sua * Saa**-1
            schur = S[0, 0] - (gain * Sua.T)[0, 0]
            prec = S**-1
            if abs(1 / prec[0, 0] - schur) > tol:
                return False
            if any(abs(-prec[0, k] / prec[0, 0] - gain[0, k - 1]) > tol for k in (1, 2)):
                return False
    return True


def main() -> bool:
    """Lemma 1; True when every step holds."""
    u, a, P, C, G = blocks()
    Z = sp.ZeroMatrix
    suu, sua, sau = P + G * C * G.T, G * C, C * G.T
    left = sp.BlockMatrix([[sp.Identity(u), G], [Z(a, u), sp.Identity(a)]])
    mid = sp.BlockMatrix([[P, Z(u, a)], [Z(a, u), C]])
    right = sp.BlockMatrix([[sp.Identity(u), Z(u, a)], [G.T, sp.Identity(a)]])
    prod = sp.block_collapse(left * mid * right)
    want = [[suu, sua], [sau, C]]
    assert all(zero(prod.blocks[r, c] - want[r][c]) for r in (0, 1) for c in (0, 1)), "step 1"
    Pi, Ci = P.I, C.I
    inv = [[Pi, -Pi * G], [-G.T * Pi, Ci + G.T * Pi * G]]
    for r, c in ((0, 0), (0, 1), (1, 0), (1, 1)):
        block = want[r][0] * inv[0][c] + want[r][1] * inv[1][c]
        assert zero(block - sp.Identity(u if r == 0 else a) if r == c else block), "step 2"
    xu, xa = sp.MatrixSymbol("x_U", u, 1), sp.MatrixSymbol("x_A", a, 1)
    quad = (
        xu.T * inv[0][0] * xu
        + xu.T * inv[0][1] * xa
        + xa.T * inv[1][0] * xu
        + xa.T * inv[1][1] * xa
    )
    split = (xu - G * xa).T * Pi * (xu - G * xa) + xa.T * Ci * xa
    assert zero(quad - split), "step 3"
    return spot_check()


if __name__ == "__main__":
    run(CLAIM, main)

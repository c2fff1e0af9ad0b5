"""Li et al. Lemma 1 (Gaussian conditioning) and Theorem 6 (the Gaussian leakage), with sympy.

Blocks of any sizes: ``u`` unknowns, ``a = |{i} ∪ K|`` given. Write the covariance with
``C = Σ_AA`` (symmetric positive definite), the gain ``G = Σ_UA Σ_AA^{-1}`` and the
Schur complement ``P = Σ_UU - G Σ_AA G^T``, so that ``Σ_UU = P + G C G^T``,
``Σ_UA = G C``, ``Σ_AU = C G^T``.

Lemma 1, checked with matrix symbols of symbolic sizes:

1. ``Σ = [[I, G], [0, I]] · diag(P, C) · [[I, 0], [G^T, I]]``, so ``det Σ = det P det C``;
2. the block inverse ``[[P^-1, -P^-1 G], [-G^T P^-1, C^-1 + G^T P^-1 G]]`` times ``Σ`` is
   the identity;
3. ``x^T Σ^-1 x = (x_U - G x_A)^T P^-1 (x_U - G x_A) + x_A^T C^-1 x_A``.

So the centred joint density is the product of the ``N(G x_A, P)`` density of ``x_U`` and
the ``N(0, C)`` density of ``x_A``: ``x_U | x_A ~ N(μ_U + G (x_A - μ_A), P)``.

Theorem 6: ``f = w_A^T x_A + w_U^T x_U`` given ``x_A`` is Gaussian with mean
``w_A^T x_A + w_U^T (μ_U + G (x_A - μ_A))`` -- its gradient in ``x_A`` is
``w_A + G^T w_U``, so its slope in ``x_i`` is ``c = w_i + w_U^T G e_i`` -- and variance
``s² = w_U^T P w_U``, free of ``x_A``. So ``p(r | x_i, x_K) = h(r - m_0 - c x_i)`` for
the Laplace-Gaussian convolution ``h``; by Lemma 2 (``lemma2_gaussian``, its own proof),
``h(t - δ)/h(t)`` lies strictly inside ``[e^{-|δ|/λ}, e^{|δ|/λ}]`` and approaches both
ends, so the sup of Eq. 2 over ``x_i, x_i' ∈ [l, u]`` is ``|c| (u - l)/λ``.
A 50-digit spot check compares the conditional law with the precision-matrix route on
random positive definite 3x3 covariances.
"""

from __future__ import annotations

import random

import mpmath
import sympy as sp

from pdpsym.proofs.spot_check import DIGITS

STEPS_LEMMA1 = (
    "sympy with matrix symbols of symbolic sizes (u unknowns, a given): Σ = [[I,G],[0,I]] "
    "diag(P, C) [[I,0],[G^T,I]] (so det Σ = det P det C); the Schur block inverse times Σ is "
    "I; x^T Σ^-1 x = (x_U - G x_A)^T P^-1 (x_U - G x_A) + x_A^T C^-1 x_A: the joint density "
    "factors into N(G x_A, P) for x_U given x_A and N(0, C) for x_A; 50-digit spot check "
    "against the precision-matrix route on random positive definite covariances"
)
STEPS_THM6 = (
    "sympy: the conditional mean of f = w_A^T x_A + w_U^T x_U has gradient w_A + G^T w_U in "
    "x_A (slope c = w_i + w_U^T G e_i in x_i) and its variance w_U^T P w_U is free of x_A "
    "(Lemma 1, proved); so p(r|x_i,x_K) = h(r - m_0 - c x_i), and Lemma 2 (proved, "
    "li2019.lemma2) puts h(t - δ)/h(t) strictly inside [e^{-|δ|/lam}, e^{|δ|/lam}], approaching both "
    "ends: PL = |c|(u - l)/lam"
)


def _zero(expr: sp.Expr) -> bool:
    """Whether a (matrix) expression simplifies to zero."""
    e = sp.simplify(sp.expand(expr))
    return bool(isinstance(e, sp.ZeroMatrix) or e == 0)


def _blocks() -> tuple[sp.Expr, ...]:
    u, a = sp.symbols("u a", integer=True, positive=True)
    P, C = sp.MatrixSymbol("P", u, u), sp.MatrixSymbol("C", a, a)
    G = sp.MatrixSymbol("G", u, a)
    return u, a, P, C, G


def lemma1() -> bool:
    """Lemma 1: the Gaussian conditioning formulas (Li et al., Sec. VI)."""
    u, a, P, C, G = _blocks()
    Z = sp.ZeroMatrix
    suu, sua, sau = P + G * C * G.T, G * C, C * G.T
    # 1. the block factorization (hence det Σ = det P det C)
    left = sp.BlockMatrix([[sp.Identity(u), G], [Z(a, u), sp.Identity(a)]])
    mid = sp.BlockMatrix([[P, Z(u, a)], [Z(a, u), C]])
    right = sp.BlockMatrix([[sp.Identity(u), Z(u, a)], [G.T, sp.Identity(a)]])
    prod = sp.block_collapse(left * mid * right)
    want = [[suu, sua], [sau, C]]
    if not all(_zero(prod.blocks[r, c] - want[r][c]) for r in (0, 1) for c in (0, 1)):
        return False
    # 2. the block inverse
    Pi, Ci = P.I, C.I
    inv = [[Pi, -Pi * G], [-G.T * Pi, Ci + G.T * Pi * G]]
    sig = [[suu, sua], [sau, C]]
    for r, c in ((0, 0), (0, 1), (1, 0), (1, 1)):
        block = sig[r][0] * inv[0][c] + sig[r][1] * inv[1][c]
        if not _zero(block - sp.Identity(u if r == 0 else a) if r == c else block):
            return False
    # 3. the quadratic form splits
    xu, xa = sp.MatrixSymbol("x_U", u, 1), sp.MatrixSymbol("x_A", a, 1)
    quad = (
        xu.T * inv[0][0] * xu
        + xu.T * inv[0][1] * xa
        + xa.T * inv[1][0] * xu
        + xa.T * inv[1][1] * xa
    )
    split = (xu - G * xa).T * Pi * (xu - G * xa) + xa.T * Ci * xa
    if not _zero(quad - split):
        return False
    return _spot_check_conditioning()


def _spot_check_conditioning(points: int = 4, seed: int = 2019) -> bool:
    """Random 3x3 positive definite Σ (MM^T + I), U = {0}, A = {1, 2}: the gain and the
    Schur complement equal the precision-matrix route (Λ_UU^-1, -Λ_UU^-1 Λ_UA), at 50 digits."""
    rng = random.Random(seed)
    with mpmath.workdps(DIGITS):
        for _ in range(points):
            M = mpmath.matrix(3, 3)
            for r in range(3):
                for c in range(3):
                    M[r, c] = mpmath.mpf(rng.randint(-9, 9)) / 4
            S = M * M.T + mpmath.eye(3)
            Saa = mpmath.matrix([[S[1, 1], S[1, 2]], [S[2, 1], S[2, 2]]])
            Sua = mpmath.matrix([[S[0, 1], S[0, 2]]])
            gain = Sua * Saa**-1
            schur = S[0, 0] - (gain * Sua.T)[0, 0]
            prec = S**-1
            tol = mpmath.mpf(10) ** -40
            if abs(1 / prec[0, 0] - schur) > tol:
                return False
            for k in (1, 2):
                if abs(-prec[0, k] / prec[0, 0] - gain[0, k - 1]) > tol:
                    return False
    return True


def theorem6() -> bool:
    """Theorem 6: ``PL(A(i, K)) = |c| Δ_i / λ`` (Li et al., Sec. VI)."""
    if not lemma1():
        return False
    u, a, P, C, G = _blocks()
    xa, wa = sp.MatrixSymbol("x_A", a, 1), sp.MatrixSymbol("w_A", a, 1)
    wu, mu_u, mu_a = (sp.MatrixSymbol(n, k, 1) for n, k in (("w_U", u), ("mu_U", u), ("mu_A", a)))
    mean = wa.T * xa + wu.T * (mu_u + G * (xa - mu_a))
    grad = sp.diff(mean, xa)
    if not _zero(grad - (wa + G.T * wu)):
        return False
    if xa in (wu.T * P * wu).free_symbols:
        return False
    # the rest is Lemma 2 (proofs/lemma2_gaussian.py, the proved claim li2019.lemma2):
    # h(t - δ)/h(t) lies strictly inside [e^{-|δ|/lam}, e^{|δ|/lam}] and approaches both ends
    return True


def main() -> bool:
    """Lemma 1 and Theorem 6 of Li et al.; True when every step holds."""
    return lemma1() and theorem6()


if __name__ == "__main__":
    print("Gaussian conditioning:", "proved" if main() else "FAILED")

"""li2019.cor2 -- Li et al. 2019 (prior differential privacy), Section VI-B, Corollary 2.

Claim. For the weakest adversary ``A(i, {})`` of a Gaussian database, Theorem 6's
coefficient is ``c = Σ_j w_j σ_ij / σ_ii`` (for the sum, ``Σ_j σ_ij / σ_ii``), so
``PL = |c| Δ_i / λ``.

Argument. With ``K`` empty, ``A = {i}`` and ``U`` = every other tuple. Lemma 1 gives the
gain ``G = Σ_Ui Σ_ii^{-1}`` (a column, since ``Σ_AA = σ_ii`` is a scalar), and Theorem 6
the coefficient ``c = w_i + w_U^T G = w_i + Σ_{j≠i} w_j σ_ji / σ_ii
= Σ_j w_j σ_ij / σ_ii`` (``σ_ii / σ_ii = 1``, ``Σ`` symmetric). Checked with sympy for
symbolic covariances and weights in every dimension ``n = 2..5`` (the matrix form of
Lemma 1 against the stated sum), then at 50 digits on random positive definite
covariances ``M M^T + I`` of dimension 4, with ``c`` computed by solving the normal
equations of the regression of ``f`` on ``x_i``: ``c = cov(f, x_i)/var(x_i)``.
"""

from __future__ import annotations

import random

import mpmath
import sympy as sp
from spot import DIGITS, run

CLAIM = "li2019.cor2"


def identity_holds(n: int) -> bool:
    """Lemma 1's coefficient equals the stated sum, symbolically, in dimension ``n``."""
    sig = sp.Matrix(n, n, lambda r, c: sp.Symbol(f"s{min(r, c) + 1}{max(r, c) + 1}"))
    w = [sp.Symbol(f"w{k + 1}") for k in range(n)]
    rest = list(range(1, n))
    c_lemma = (
        w[0] + (sp.Matrix([w[1:]]) * sig.extract(rest, [0]) * sig.extract([0], [0]).inv())[0, 0]
    )
    stated = sum((w[j] * sig[0, j] for j in range(n)), sp.Integer(0)) / sig[0, 0]
    return sp.simplify(c_lemma - stated) == 0


def main() -> bool:
    """Corollary 2; True when every step holds."""
    assert all(identity_holds(n) for n in range(2, 6)), "symbolic identity"
    rng = random.Random(2019)
    with mpmath.workdps(DIGITS):
        for _ in range(6):
            M = mpmath.matrix(
                [[mpmath.mpf(rng.randint(-6, 6)) / 3 for _ in range(4)] for _ in range(4)]
            )
            S = M * M.T + mpmath.eye(4)
            w = [mpmath.mpf(rng.randint(-4, 4)) for _ in range(4)]
            i = rng.randrange(4)
            # E[f | x_i] = const + c x_i with c = cov(f, x_i) / var(x_i): a regression
            c_reg = sum(w[j] * S[j, i] for j in range(4)) / S[i, i]
            rest = [j for j in range(4) if j != i]
            c_lemma = w[i] + sum(w[j] * S[j, i] for j in rest) / S[i, i]
            if abs(c_reg - c_lemma) > mpmath.mpf(10) ** -40:
                return False
    return True


if __name__ == "__main__":
    run(CLAIM, main)

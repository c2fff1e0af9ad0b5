"""li2019.thm6 -- Li et al. 2019 (prior differential privacy), Section VI-B, Theorem 6.

Claim (as rebuilt). For a multivariate Gaussian database, a linear query
``f = w_A^T x_A + w_U^T x_U`` (``A = {i} ∪ K`` given, ``U`` unknown) and Laplace noise of
scale ``λ``, the adversary ``A(i, K)`` with ``x_i ∈ [l, u]`` has the Eq. 2 leakage
``PL = |c| (u - l) / λ``, where ``c`` is the coefficient of ``x_i`` in ``E[f | x_i, x_K]``;
for the sum query this is the printed ``|c| Δ_i / λ``.

Argument.
1. Lemma 1 (``li2019_lemma1.py``, re-run here): ``x_U | x_A ~ N(μ_U + G (x_A - μ_A), P)``
   with ``G = Σ_UA Σ_AA^{-1}`` and ``P`` the Schur complement.
2. Hence ``f | x_A`` is Gaussian with mean ``w_A^T x_A + w_U^T (μ_U + G (x_A - μ_A))``,
   whose gradient in ``x_A`` is ``w_A + G^T w_U`` (checked with matrix symbols), so its
   slope in ``x_i`` is ``c = w_i + w_U^T G e_i``, and with variance ``s² = w_U^T P w_U``,
   free of ``x_A``.
3. The output density is therefore ``p(r | x_i, x_K) = κ h(r - m_0 - c x_i)`` with ``h``
   the Laplace-Gaussian kernel of Lemma 2 (``li2019_lemma2.py``), whose ratio
   ``h(t - δ)/h(t)`` lies strictly inside ``[e^{-|δ|/λ}, e^{|δ|/λ}]`` and approaches both
   ends in the tails. With ``δ = c (x_i - x_i')`` the sup over ``r`` and over
   ``x_i, x_i' ∈ [l, u]`` is ``|c| (u - l)/λ``.
Exact instance (the checker's weighted case): ``Σ = [[1, 1/2], [1/2, 1]]``, ``x1 ∈ [0, 1]``,
``K`` empty: ``w = (2, 1)`` gives ``c = 5/2`` and ``PL = 5/2``; ``w = (0, 1)`` gives
``c = 1/2`` and ``PL = 1/2`` although ``Δ_1 = 0``. A 50-digit evaluation of the Eq. 19
log-ratio far in the right tail comes within 10^-12 of ``c (u - l)/λ`` and stays below it
on a grid.
"""

from __future__ import annotations

import mpmath
import sympy as sp
from li2019_lemma1 import blocks, zero
from li2019_lemma1 import main as lemma1
from li2019_lemma2 import log_h
from spot import DIGITS, run

CLAIM = "li2019.thm6"


def coefficient(cov: list[list[sp.Rational]], w: list[sp.Rational]) -> tuple[sp.Expr, sp.Expr]:
    """``c`` and ``s²`` for target 0, K empty: Lemma 1 with A = {0}, U = the rest."""
    S = sp.Matrix(cov)
    rest = list(range(1, S.rows))
    G = S.extract(rest, [0]) * S.extract([0], [0]).inv()
    P = S.extract(rest, rest) - G * S.extract([0], rest)
    wu = sp.Matrix(w[1:])
    return w[0] + (wu.T * G)[0, 0], (wu.T * P * wu)[0, 0]


def main() -> bool:
    """Theorem 6; True when every step holds."""
    assert lemma1(), "step 1: Lemma 1"
    u, a, P, C, G = blocks()
    xa, wa = sp.MatrixSymbol("x_A", a, 1), sp.MatrixSymbol("w_A", a, 1)
    wu, mu_u, mu_a = (sp.MatrixSymbol(n, k, 1) for n, k in (("w_U", u), ("mu_U", u), ("mu_A", a)))
    mean = wa.T * xa + wu.T * (mu_u + G * (xa - mu_a))
    assert zero(sp.diff(mean, xa) - (wa + G.T * wu)), "step 2: gradient"
    assert xa not in (wu.T * P * wu).free_symbols, "step 2: variance free of x_A"
    R = sp.Rational
    cov = [[R(1), R(1, 2)], [R(1, 2), R(1)]]
    lam, width = R(1), R(1)
    for w, want in (([R(2), R(1)], R(5, 2)), ([R(0), R(1)], R(1, 2))):
        c, s2 = coefficient(cov, w)
        assert c == want and s2 == R(3, 4) * w[1] ** 2, f"instance c = {c}"
        pl = abs(c) * width / lam
        with mpmath.workdps(DIGITS):
            sv, lv, d = mpmath.mpf(3) / 4, mpmath.mpf(1), mpmath.mpf(int(c.p)) / int(c.q)
            # Eq. 19 for x_i = u vs l: ln h(t - c(u - l)) - ln h(t); far right -> c (u - l)/lam
            far = log_h(mpmath.mpf(60) - d, sv, lv) - log_h(mpmath.mpf(60), sv, lv)
            assert abs(far - float(pl)) < mpmath.mpf(10) ** -12, "tail approaches |c|(u-l)/lam"
            for k in range(-20, 21):
                lr = log_h(mpmath.mpf(k) / 2 - d, sv, lv) - log_h(mpmath.mpf(k) / 2, sv, lv)
                gap = mpmath.mpf(int(pl.p)) / int(pl.q) - abs(lr)
                assert gap > mpmath.mpf(10) ** -40, "never above, with margin"
    return True


if __name__ == "__main__":
    run(CLAIM, main)

"""li2019.lemma2 -- Li et al. 2019 (prior differential privacy), Section VI-B, Lemma 2.

Claim (as this project rebuilds it; the printed formula is lost). For ``s, λ > 0`` let
``h(t) = e^{-t/λ} Φ(t/s - s/λ) + e^{t/λ} Φ(-t/s - s/λ)``. Then
(0) ``N(0, s²) * Laplace(λ)`` has density ``e^{s²/(2λ²)} / (2λ) · h(t)``;
(1) for ``δ ≠ 0``: ``e^{-|δ|/λ} < h(t - δ)/h(t) < e^{|δ|/λ}``;
(2) the ratio tends to ``e^{δ/λ}`` as ``t -> +∞`` and to ``e^{-δ/λ}`` as ``t -> -∞``
    (approached, never reached);
(3) for ``s = 0`` (pure Laplace, ``h(t) = e^{-|t|/λ}``) the ends are attained.

Argument (``t`` real, ``s, λ > 0`` symbolic; ``a = t/s - s/λ``, ``b = -t/s - s/λ``).
0. Completing the square, ``φ_s(y) e^{y/λ} = e^{s²/(2λ²)} φ_s(y - s²/λ)``: the
   antiderivatives ``G_-(y) = e^{s²/(2λ²)} e^{-t/λ} Φ(y/s - s/λ)/(2λ)`` and
   ``G_+(y) = -e^{s²/(2λ²)} e^{t/λ} Φ(-y/s - s/λ)/(2λ)`` differentiate to the two halves
   of the convolution integrand (checked symbolically), vanish at ``∓∞``, and their
   values at ``y = t`` add up to the closed form.
1. ``φ(a) = e^{2t/λ} φ(b)``; hence ``d/dt [e^{t/λ} h] = (2/λ) e^{2t/λ} Φ(b) > 0`` and
   ``d/dt [e^{-t/λ} h] = -(2/λ) e^{-2t/λ} Φ(a) < 0``: ``ln h + t/λ`` strictly increases and
   ``ln h - t/λ`` strictly decreases, which is (1).
2. ``h`` is even. Mills: ``M(x) = φ(x)/x - Φ(-x)`` has ``M' = -φ(x)/x² < 0`` and
   ``M(+∞) = 0``, so ``Φ(-x) < φ(x)/x``; then ``0 < e^{2t/λ} Φ(b) < φ(a)/(-b) -> 0`` and
   ``e^{t/λ} h = Φ(a) + e^{2t/λ} Φ(b) -> 1``: ``ln h(t) + t/λ -> 0``, giving (2).
3. ``s = 0``: ``|t| - |t - δ| ∈ [-|δ|, |δ|]``, equal to ``±|δ|`` once ``|t| >= |δ|``
   (exact rationals).
Spot checks at 50 digits: (1) at seeded random ``(s, λ, δ, t)``; the bounds of (1) on a grid of ``(s², λ, δ, t)`` (``t`` within ``6 s`` of 0), each with a
margin above 10^-40; the tails of (2); a quadrature of the convolution integral against
the closed form.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy as sp
from spot import DIGITS, holds_at_random_points, positive_rational, rational, run

CLAIM = "li2019.lemma2"
t = sp.Symbol("t", real=True)
y = sp.Symbol("y", real=True)
x = sp.Symbol("x", positive=True)
s, lam = sp.symbols("s lambda", positive=True)


def Phi(z: sp.Expr) -> sp.Expr:
    """The standard normal distribution function."""
    return sp.erfc(-z / sp.sqrt(2)) / 2


def phi(z: sp.Expr) -> sp.Expr:
    """The standard normal density."""
    return sp.exp(-(z**2) / 2) / sp.sqrt(2 * sp.pi)


A = t / s - s / lam
B = -t / s - s / lam
H = sp.exp(-t / lam) * Phi(A) + sp.exp(t / lam) * Phi(B)


def zero(expr: sp.Expr) -> bool:
    """Whether an erf/exp expression simplifies to 0."""
    e = sp.expand(sp.powsimp(sp.expand(expr.rewrite(sp.erf))))
    return sp.simplify(e) == 0


def convolution() -> None:
    """(0): the two antiderivatives."""
    phi_s = sp.exp(-(y**2) / (2 * s**2)) / (s * sp.sqrt(2 * sp.pi))
    k = sp.exp(s**2 / (2 * lam**2)) / (2 * lam)
    g_minus = k * sp.exp(-t / lam) * Phi(y / s - s / lam)
    g_plus = -k * sp.exp(t / lam) * Phi(-y / s - s / lam)
    assert zero(sp.diff(g_minus, y) - phi_s * sp.exp(-(t - y) / lam) / (2 * lam)), "left half"
    assert zero(sp.diff(g_plus, y) - phi_s * sp.exp((t - y) / lam) / (2 * lam)), "right half"
    assert sp.limit(g_minus, y, -sp.oo) == 0 and sp.limit(g_plus, y, sp.oo) == 0, "ends"
    assert zero(g_minus.subs(y, t) - g_plus.subs(y, t) - k * H), "closed form"


def monotonicity() -> None:
    """(1): the exact derivative identities."""
    assert zero(phi(A) - sp.exp(2 * t / lam) * phi(B)), "phi(a) = e^{2t/lam} phi(b)"
    assert zero(sp.diff(sp.exp(t / lam) * H, t) - 2 / lam * sp.exp(2 * t / lam) * Phi(B))
    assert zero(sp.diff(sp.exp(-t / lam) * H, t) + 2 / lam * sp.exp(-2 * t / lam) * Phi(A))


def tails() -> None:
    """(2): symmetry, the Mills ratio inequality, the limit."""
    assert zero(H.subs(t, -t) - H), "h is even"
    mills = phi(x) / x - Phi(-x)
    assert zero(sp.diff(mills, x) + phi(x) / x**2), "M'(x) = -phi(x)/x^2"
    assert sp.limit(mills, x, sp.oo) == 0, "M(+inf) = 0"
    assert sp.limit(phi(A) / (t / s + s / lam), t, sp.oo) == 0, "vanishing term"
    assert sp.limit(Phi(A), t, sp.oo) == 1, "Phi(a) -> 1"


def log_h(tv: mpmath.mpf, s2: mpmath.mpf, lv: mpmath.mpf) -> mpmath.mpf:
    """``ln h(t)`` at the working precision."""
    sq = mpmath.sqrt(s2)
    a, b = tv / sq - sq / lv, -tv / sq - sq / lv
    return mpmath.log(mpmath.exp(-tv / lv) * mpmath.ncdf(a) + mpmath.exp(tv / lv) * mpmath.ncdf(b))


def numeric_checks() -> int:
    """(1) on a grid and (2) far out, at 50 digits; a quadrature of (0)."""
    checked = 0
    with mpmath.workdps(DIGITS):
        tol = mpmath.mpf(10) ** -40
        for s2 in (mpmath.mpf(1) / 100, mpmath.mpf(1), mpmath.mpf(25)):
            for lv in (mpmath.mpf(1) / 2, mpmath.mpf(3)):
                for dv in (mpmath.mpf(1) / 10, mpmath.mpf(-2)):
                    bound = abs(dv) / lv
                    for k in range(-12, 13, 2):  # t in units of s: the gap stays above 10^-40
                        tv = k * mpmath.sqrt(s2) / 2
                        lr = log_h(tv - dv, s2, lv) - log_h(tv, s2, lv)
                        assert bound - abs(lr) > tol, ("inside", s2, lv, dv, k)
                        checked += 1
                    far = (mpmath.sqrt(s2) + 1) * (25 + (mpmath.sqrt(s2) + 1) / lv) + 2 * abs(dv)
                    for sg in (1, -1):
                        lr = log_h(sg * far - dv, s2, lv) - log_h(sg * far, s2, lv)
                        assert abs(lr - sg * dv / lv) < mpmath.mpf(10) ** -12, ("tail", s2, lv)
                        checked += 1
        for s2, lv, tv in ((1, 1, 0), (mpmath.mpf(1) / 4, 2, 3), (4, mpmath.mpf(1) / 2, -1)):
            sv = mpmath.sqrt(s2)

            def f(yy: mpmath.mpf, sv: mpmath.mpf = sv, lv: object = lv, tv: int = tv) -> mpmath.mpf:
                return mpmath.npdf(yy, 0, sv) * mpmath.exp(-abs(tv - yy) / lv) / (2 * lv)

            num = mpmath.quad(f, [-mpmath.inf, tv, mpmath.inf])
            closed = (
                mpmath.exp(s2 / (2 * lv**2)) / (2 * lv) * mpmath.exp(log_h(mpmath.mpf(tv), s2, lv))
            )
            assert abs(num - closed) < tol, ("quadrature", s2, lv, tv)
    return checked


def degenerate() -> None:
    """(3): s = 0, exact rationals."""
    for lv in (Fraction(1, 2), Fraction(2)):
        for dv in (Fraction(1, 3), Fraction(-3)):
            for k in range(-30, 31):
                tq = Fraction(k, 4)
                lr = (abs(tq) - abs(tq - dv)) / lv
                assert abs(lr) <= abs(dv) / lv, "s = 0 bound"
                if abs(tq) >= abs(dv) and tq * dv > 0:
                    assert abs(lr) == abs(dv) / lv, "s = 0 end attained"


def main() -> bool:
    """Lemma 2 (rebuilt); True when every step holds."""
    convolution()
    monotonicity()
    tails()
    degenerate()
    d = sp.Symbol("delta", real=True)
    lhs = sp.Abs(sp.log(H.subs(t, t - d) / H))
    draws = [(s, lambda rng: sp.Rational(rng.randint(1, 80), 40)), (lam, positive_rational)]
    draws += [(d, rational), (t, lambda rng: sp.Rational(rng.randint(-120, 120), 40))]
    assert holds_at_random_points(lhs, sp.Abs(d) / lam, draws, "<=", points=12), "spot check"
    return numeric_checks() > 0


if __name__ == "__main__":
    run(CLAIM, main)

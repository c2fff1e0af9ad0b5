"""Lemma 2 of Li et al. (Section VI-B), rebuilt, derived and checked.

Statement (our reading of Li et al. Lemma 2). For s > 0, lam > 0 let

    h(t) = e^{-t/lam} Phi(t/s - s/lam) + e^{t/lam} Phi(-t/s - s/lam).

(0) Convolution: N(0, s^2) * Laplace(lam) has density e^{s^2/(2 lam^2)} / (2 lam) h(t).
(1) ln h(t) + t/lam is strictly increasing and ln h(t) - t/lam strictly decreasing, so
    for delta != 0:  e^{-|delta|/lam} < h(t - delta)/h(t) < e^{|delta|/lam}.
(2) ln h(t) + t/lam -> 0 as t -> +inf, and h(-t) = h(t); hence the ratio tends to
    e^{delta/lam} as t -> +inf and to e^{-delta/lam} as t -> -inf (approached, never reached).
(3) s = 0: h(t) = e^{-|t|/lam}; the ratio lies in [e^{-|delta|/lam}, e^{|delta|/lam}] and the
    ends are attained for |t| >= |delta| (triangle inequality).

What is SYMBOLIC (sympy, with t real and s, lam > 0 symbolic):
  * (0) the two half-line integrals are computed by sympy and their sum equals the closed form;
  * (1) the exact derivative identities
        d/dt [e^{t/lam} h(t)]  =  (2/lam) e^{2t/lam} Phi(b)   > 0,
        d/dt [e^{-t/lam} h(t)] = -(2/lam) e^{-2t/lam} Phi(a)  < 0,
    with a = t/s - s/lam, b = -t/s - s/lam (they rest on phi(a) = e^{2t/lam} phi(b));
    positivity of Phi is the only fact used;
  * (2) the symmetry h(-t) = h(t); the identity e^{2t/lam} phi(b) = phi(a); the Mills ratio
    inequality Phi(-x) < phi(x)/x (x > 0) via M(x) = phi(x)/x - Phi(-x), M' = -phi(x)/x^2 < 0,
    M(+inf) = 0; then 0 < e^{2t/lam} Phi(b) < phi(a)/(-b) -> 0 (a sympy limit), so
    e^{t/lam} h(t) = Phi(a) + e^{2t/lam} Phi(b) -> 1.
What is CERTIFIED NUMERIC (python-flint arb balls, rigorous error bounds):
  * the bounds of (1) at a grid of (s, lam, delta, t), each decided by ball separation;
  * the tail limits of (2): at |t| far out, |ln ratio| is within 1e-12 of |delta|/lam;
  * the s = 0 case of (3) is exact rational arithmetic.
A high-precision (50 digit) mpmath quadrature of the convolution integral is compared with
the closed form as a further, non-certified, sanity check.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy as sp

from pdpsym.core.balls import Ball as arb  # flint's ball type, through core (rule 2)
from pdpsym.core.balls import working_precision

t = sp.Symbol("t", real=True)
y = sp.Symbol("y", real=True)
x = sp.Symbol("x", positive=True)
s, lam = sp.symbols("s lambda", positive=True)


def Phi(z: sp.Expr) -> sp.Expr:
    return sp.erfc(-z / sp.sqrt(2)) / 2


def phi(z: sp.Expr) -> sp.Expr:
    return sp.exp(-(z**2) / 2) / sp.sqrt(2 * sp.pi)


A = t / s - s / lam
B = -t / s - s / lam
H = sp.exp(-t / lam) * Phi(A) + sp.exp(t / lam) * Phi(B)


def _zero(expr: sp.Expr) -> bool:
    e = sp.expand(sp.powsimp(sp.expand(expr.rewrite(sp.erf))))
    return sp.simplify(e) == 0


def check_convolution() -> None:
    """(0): sympy integrates the two halves of the convolution integral."""
    phi_s = sp.exp(-(y**2) / (2 * s**2)) / (s * sp.sqrt(2 * sp.pi))
    left = sp.integrate(phi_s * sp.exp(-(t - y) / lam) / (2 * lam), (y, -sp.oo, t))
    right = sp.integrate(phi_s * sp.exp((t - y) / lam) / (2 * lam), (y, t, sp.oo))
    closed = sp.exp(s**2 / (2 * lam**2)) / (2 * lam) * H
    assert _zero(left + right - closed), "convolution closed form"


def check_monotonicity() -> None:
    """(1): exact derivative identities."""
    assert _zero(phi(A) - sp.exp(2 * t / lam) * phi(B)), "phi(a) = e^{2t/lam} phi(b)"
    d_plus = sp.diff(sp.exp(t / lam) * H, t) - 2 / lam * sp.exp(2 * t / lam) * Phi(B)
    assert _zero(d_plus), "d/dt e^{t/lam} h"
    d_minus = sp.diff(sp.exp(-t / lam) * H, t) + 2 / lam * sp.exp(-2 * t / lam) * Phi(A)
    assert _zero(d_minus), "d/dt e^{-t/lam} h"


def check_tails() -> None:
    """(2): symmetry, the Mills ratio inequality, and the limit."""
    assert _zero(H.subs(t, -t) - H), "h is even"
    mills = phi(x) / x - Phi(-x)
    assert _zero(sp.diff(mills, x) + phi(x) / x**2), "M'(x) = -phi(x)/x^2"
    assert sp.limit(mills, x, sp.oo) == 0, "M(+inf) = 0"
    # upper bound of the vanishing term: phi(a)/(-b), with -b = t/s + s/lam > 0 for t > 0
    assert sp.limit(phi(A) / (t / s + s / lam), t, sp.oo) == 0
    assert sp.limit(Phi(A), t, sp.oo) == 1


# --- certified numeric checks (arb) ---------------------------------------------------------


def _log_h(tv: arb, s2: Fraction, lv: Fraction) -> arb:
    sa = arb(s2.numerator) / s2.denominator
    la = arb(lv.numerator) / lv.denominator
    sq = sa.sqrt()
    a = tv / sq - sq / la
    b = -tv / sq - sq / la
    r2 = arb(2).sqrt()
    return ((-tv / la).exp() * (-a / r2).erfc() / 2 + (tv / la).exp() * (-b / r2).erfc() / 2).log()


def check_bounds_certified() -> int:
    """(1) and (2) on a grid, every inequality decided by arb ball separation."""
    checked = 0
    for s2 in (Fraction(1, 100), Fraction(1), Fraction(25)):
        for lv in (Fraction(1, 2), Fraction(3)):
            for dv in (Fraction(1, 10), Fraction(1), Fraction(-2)):
                bound = abs(dv) / lv
                for k in range(-20, 21):
                    tq = Fraction(k, 2)
                    prec = 128
                    while True:
                        with working_precision(prec):
                            tv = arb(tq.numerator) / tq.denominator
                            dd = arb(dv.numerator) / dv.denominator
                            lr = _log_h(tv - dd, s2, lv) - _log_h(tv, s2, lv)
                            bb = arb(bound.numerator) / bound.denominator
                            below = (lr < bb) and (lr > -bb)
                        if below or prec > 4096:
                            break
                        prec *= 2
                    assert below, f"bound fails at s2={s2}, lam={lv}, delta={dv}, t={tq}"
                    checked += 1
                # tails: far enough out that the Gaussian factor is below e^{-200}
                sf = Fraction(int(float(s2) ** 0.5) + 1)
                far = sf * (25 + sf / lv) + 2 * abs(dv)
                with working_precision(256):
                    for sign in (1, -1):
                        tv = arb(sign * far.numerator) / far.denominator
                        dd = arb(dv.numerator) / dv.denominator
                        lr = _log_h(tv - dd, s2, lv) - _log_h(tv, s2, lv)
                        target = sign * dv / lv
                        gap = abs(lr - arb(target.numerator) / target.denominator)
                        assert gap < arb("1e-12"), f"tail limit at t={sign * far}"
                        checked += 1
    return checked


def check_degenerate() -> int:
    """(3): s = 0, exact rational arithmetic."""
    checked = 0
    for lv in (Fraction(1, 2), Fraction(2)):
        for dv in (Fraction(1, 3), Fraction(-3)):
            for k in range(-30, 31):
                tq = Fraction(k, 4)
                lr = (abs(tq) - abs(tq - dv)) / lv
                assert abs(lr) <= abs(dv) / lv
                if abs(tq) >= abs(dv) and tq * dv > 0:
                    assert abs(lr) == abs(dv) / lv  # an end is attained
                checked += 1
    return checked


def check_quadrature() -> None:
    """Sanity: mpmath quadrature (50 digits) of the convolution against the closed form."""
    with mpmath.workdps(50):
        _quadrature_at_working_precision()


def _quadrature_at_working_precision() -> None:
    for s2, lv, tv in ((1, 1, 0), (mpmath.mpf(1) / 4, 2, 3), (4, mpmath.mpf(1) / 2, -1)):
        sv = mpmath.sqrt(s2)

        def f(yy: mpmath.mpf, sv: mpmath.mpf = sv, lv: int = lv, tv: int = tv) -> mpmath.mpf:
            return mpmath.npdf(yy, 0, sv) * mpmath.exp(-abs(tv - yy) / lv) / (2 * lv)

        num = mpmath.quad(f, [-mpmath.inf, tv, mpmath.inf])
        a = tv / sv - sv / lv
        b = -tv / sv - sv / lv
        closed = (
            mpmath.exp(s2 / (2 * lv**2))
            / (2 * lv)
            * (mpmath.exp(-tv / lv) * mpmath.ncdf(a) + mpmath.exp(tv / lv) * mpmath.ncdf(b))
        )
        assert abs(num - closed) < mpmath.mpf(10) ** -40, (s2, lv, tv)


def main() -> bool:
    check_convolution()
    check_monotonicity()
    check_tails()
    n = check_bounds_certified()
    m = check_degenerate()
    check_quadrature()
    print(f"Lemma 2: symbolic parts proved; {n} certified arb checks; {m} exact s=0 checks")
    return True


if __name__ == "__main__":
    main()

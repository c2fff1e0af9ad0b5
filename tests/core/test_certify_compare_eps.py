"""The one-kernel helpers of pdpsym.core and the shared Laplace-mixture sup.

Expected values come from hand derivations (stated next to each) or from an mpmath brute
force written here, never from the code under test.
"""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest
from flint import arb, ctx

from pdpsym.core.certify import certify, decide_sign, refine
from pdpsym.core.compare import decided_argmax, decided_argmin, decided_max
from pdpsym.core.eps import Eps, ratio_log, ratio_max, ratio_of
from pdpsym.core.errors import Undecided
from pdpsym.core.exp_polynomials import ExpPoly, LogRatio
from pdpsym.loss.laplace_mixture import laplace_mixture_sup

F = Fraction


def _cmp(x: int, y: int) -> int:
    return (x > y) - (x < y)


def test_decided_max_and_min_keep_the_first_extreme() -> None:
    values = [1, 5, 2, 5, 0, 0]  # hand: first 5 at index 1, first 0 at index 4
    assert decided_argmax(values, _cmp) == 1
    assert decided_argmin(values, _cmp) == 4
    assert decided_max([F(1, 3), F(1, 2)]) == (1, F(1, 2))
    with pytest.raises(ValueError):
        decided_argmax([], _cmp)


def test_decide_sign_and_refine() -> None:
    third = F(1, 3)

    def ball(prec: int) -> arb:
        with ctx.workprec(prec):
            return arb(1) / 3 - arb(third.numerator) / third.denominator

    # 1/3 - 1/3 is 0 but never an exact ball: undecided, never a guess
    with pytest.raises(Undecided):
        decide_sign(ball, "zero", 64, 256)

    def tiny(prec: int) -> arb:  # 2^-100 > 0, separated once prec exceeds ~100 bits
        with ctx.workprec(prec):
            return arb(1) + arb(2) ** -100 - 1

    assert decide_sign(tiny, "tiny") == 1
    assert decide_sign(lambda prec: arb(0), "exact zero", exact_zero=True) == 0
    seen: list[int] = []

    def counted(prec: int) -> arb:
        seen.append(prec)
        return arb(0)

    refine(counted, lambda b: False, 64, 512)
    assert seen == [64, 128, 256, 512]  # doubling, up to and including the cap


def test_exp_poly_signs_at_huge_exponents() -> None:
    a = F(10**400)
    # hand: e^a - 3 e^(a-1) = e^a (1 - 3/e) < 0 since e < 3
    assert ExpPoly({a: 1, a - 1: -3}).sign() == -1
    # hand: e^a dominates 10^100 for a = 10^400
    assert ExpPoly({a: 1, 0: -(10**100)}).sign() == 1
    assert ExpPoly({-a: 1, 0: F(-1, 10**100)}).sign() == -1


def test_log_ratio_certified_at_huge_scale() -> None:
    # hand: ln(e^(10^400) + 1) = 10^400 + ln(1 + e^(-10^400)) = 10^400 to any digits
    v = LogRatio(ExpPoly({F(10**400): 1, 0: 1}), ExpPoly.constant(1))
    assert certify(v, 20).decimal == "1.0000000000000000000e+400"
    assert LogRatio.of_rational(F(3, 2)).as_rational() == F(3, 2)


def test_eps_bounds_and_ratios() -> None:
    # hand: ln(2^1000) = 693.1..., so eps = 700 exceeds it and eps = 690 does not
    x = F(2**1000)
    assert Eps.of(700).exp_sign_bound(x) == -1
    assert Eps.of(690).exp_sign_bound(x) == 1
    assert Eps.of(693).exp_sign_bound(x) == 0  # too close for the bit-length bounds
    assert Eps.log(3).exp_sign_bound(F(2)) == -1
    assert Eps.log(2).affine(F(1), F(1, 4)) == F(1, 2)  # 1 - 2/4
    assert ratio_of(F(1), F(0)) is None and ratio_of(F(0), F(0)) == 0
    assert ratio_max(F(2), F(3)) == 3 and ratio_max(None, F(1)) is None
    assert str(ratio_log(None)) == "oo" and str(ratio_log(F(2))) == "log(2)"


def _mixture_sup_bruteforce(
    w1: dict[Fraction, Fraction], w2: dict[Fraction, Fraction], b: Fraction
) -> mpmath.mpf:
    """sup over a fine grid of r (and far tails) of ln(mix1/mix2), in mpmath."""
    pts = sorted(set(w1) | set(w2))
    lo, hi = pts[0] - 20, pts[-1] + 20
    grid = [lo + (hi - lo) * F(k, 2000) for k in range(2001)] + pts
    with mpmath.workdps(40):

        def mix(w: dict[Fraction, Fraction], r: Fraction) -> mpmath.mpf:
            return mpmath.fsum(
                mpmath.mpf(c.numerator)
                / c.denominator
                * mpmath.exp(-abs(mpmath.mpf((r - s).numerator) / (r - s).denominator) / b)
                for s, c in w.items()
            )

        return max(mpmath.log(mix(w1, r) / mix(w2, r)) for r in grid)


def test_laplace_mixture_sup_matches_a_brute_force() -> None:
    rng = random.Random(7)
    for _ in range(5):
        pts = sorted({F(rng.randint(-4, 4)) for _ in range(3)})
        w1 = {s: F(rng.randint(1, 5)) for s in pts}
        w2 = {s: F(rng.randint(1, 5)) for s in pts}
        b = F(rng.randint(1, 4), rng.randint(1, 3))
        value, _ = laplace_mixture_sup(w1, w2, b)
        cert = certify(value, 15)
        bf = _mixture_sup_bruteforce(w1, w2, mpmath.mpf(b.numerator) / b.denominator)
        # the grid contains every support point, where the sup is attained
        assert abs(float(cert.decimal) - float(bf)) < 1e-12

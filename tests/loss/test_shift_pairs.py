"""The ball δ(ε) of a count law against its translate under Laplace noise
(pdpsym.loss.shift_pairs), against references written here: a Fraction Poisson-binomial
law with mpmath quadrature of the hockey stick (n <= 12), and a float64 divide-and-conquer
law with the hockey stick summed on a fine grid (n = 1000)."""

from __future__ import annotations

import math
import random
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest

from pdpsym.core.certify import certify
from pdpsym.core.eps import Eps
from pdpsym.loss.shift_pairs import BallCountLaw, ShiftDelta, ShiftPair, shift_delta_ball


def fraction_law(records: list[tuple[tuple[int, ...], tuple[F, ...]]]) -> dict[int, F]:
    """The exact law of the summed contributions, one record at a time (brute force)."""
    law = {0: F(1)}
    for cs, ps in records:
        nxt: dict[int, F] = {}
        for s, w in law.items():
            for c, p in zip(cs, ps, strict=True):
                if p:
                    nxt[s + c] = nxt.get(s + c, F(0)) + w * p
        law = nxt
    return law


def mp_delta(law: dict[int, F], shift: int, scale: F, eps: F) -> mpmath.mpf:
    """δ(ε) = ∫ (p - e^ε q)_+ by mpmath quadrature between the centres and the sign
    changes (found by bisection), at 30 digits: the definition itself."""
    with mpmath.workdps(30):
        return _mp_delta(law, shift, scale, eps)


def _mp_delta(law: dict[int, F], shift: int, scale: F, eps: F) -> mpmath.mpf:
    lam = mpmath.mpf(scale.numerator) / scale.denominator
    big = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator)
    pts = [(s, mpmath.mpf(w.numerator) / w.denominator) for s, w in law.items()]

    def g(r: mpmath.mpf) -> mpmath.mpf:
        p = sum(w * mpmath.exp(-abs(r - s) / lam) for s, w in pts)
        q = sum(w * mpmath.exp(-abs(r - s - shift) / lam) for s, w in pts)
        return (p - big * q) / (2 * lam)

    centres = sorted({s for s, _ in pts} | {s + shift for s, _ in pts})
    knots = [mpmath.mpf(c) for c in centres]
    # a sign change of g between two centres is single (module docstring); find it
    cuts = list(knots)
    for x, y in zip(knots, knots[1:], strict=False):
        if g(x) * g(y) < 0:
            cuts.append(mpmath.findroot(g, (x, y), solver="bisect", tol=mpmath.mpf(10) ** -25))
    cuts.sort()
    total = mpmath.mpf(0)
    for x, y in zip(cuts, cuts[1:], strict=False):
        mid = (x + y) / 2
        if g(mid) > 0:
            total += mpmath.quad(g, [x, y])
    # tails: g is a multiple of e^{±r/λ} there, its integral in closed form
    lo, hi = cuts[0], cuts[-1]
    total += max(g(lo), 0) * lam + max(g(hi), 0) * lam
    return total


def records_of(ps: list[F]) -> list[tuple[tuple[int, ...], tuple[F, ...]]]:
    return [((0, 1), (1 - p, p)) for p in ps]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_small_against_fraction_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 12)
    # distinct p_i, a p of 0 or 1 sometimes (a record that only shifts the count)
    ps = [F(rng.randint(1, 999), 1000) for _ in range(n)]
    if seed == 2:
        ps[0], ps[-1] = F(0), F(1)
    recs = records_of(ps)
    law = BallCountLaw(recs)
    exact = fraction_law(recs)
    for shift, scale, eps in [(1, F(2), F(1, 4)), (-1, F(2), F(0)), (2, F(1, 3), F(1, 10))]:
        want = mp_delta(exact, shift, scale, eps)
        got = ShiftPair(law, shift, scale, {}).delta(eps).value
        c = certify(got, 15)
        assert float(c.enclosure[0]) <= float(want) * (1 + 1e-14) + 1e-300
        assert float(c.enclosure[1]) >= float(want) * (1 - 1e-14)
        assert abs(float(c.decimal) - float(want)) <= 1e-13 * float(want)


def test_non_binary_records_against_brute_force() -> None:
    # records with three values, gaps and a zero probability (contributions as in a query)
    recs = [
        ((0, 1, 3), (F(1, 2), F(1, 4), F(1, 4))),
        ((0, 2), (F(1, 3), F(2, 3))),
        ((-1, 0, 1), (F(1, 5), F(3, 5), F(1, 5))),
        ((0, 1, 5), (F(1, 7), F(0), F(6, 7))),
    ]
    law = BallCountLaw(recs)
    exact = fraction_law(recs)
    # the law's own positions start at its offset; a translation does not change δ
    for shift in (2, -3):
        want = mp_delta(exact, shift, F(3, 2), F(1, 5))
        got = certify(ShiftDelta(law, shift, F(3, 2), Eps(F(1, 5))), 15)
        assert abs(float(got.decimal) - float(want)) <= 1e-13 * float(want)


def test_zero_at_and_above_the_shift_over_the_scale() -> None:
    # hand derivation (module docstring): p <= e^{|D|/Λ} q, equality on a tail
    law = BallCountLaw(records_of([F(1, 3), F(2, 7), F(5, 9)]))
    pair = ShiftPair(law, 2, F(4), {"a": 0})
    assert pair.epsilon_zero().value == F(1, 2)
    assert pair.epsilon_zero().where == {"a": 0, "output": "-inf"}
    assert ShiftPair(law, -2, F(4), {}).epsilon_zero().where == {"output": "+inf"}
    assert pair.delta(F(1, 2)).value == 0
    assert pair.delta(Eps.log(2)).value == 0  # ln 2 > 1/2
    assert isinstance(pair.delta(Eps.log(F(3, 2))).value, ShiftDelta)  # ln 1.5 < 1/2
    # and δ > 0 just below: the tail beyond the support has positive mass
    assert shift_delta_ball(law, 2, F(4), Eps(F(49, 100)), 64) > 0


def test_symmetric_law_ties_both_directions() -> None:
    # every p = 1/2: the law is symmetric, so K vs K+1 and K+1 vs K (K vs K-1) have the
    # same curve (reflection r -> -r); they compare equal without balls
    law = BallCountLaw(records_of([F(1, 2)] * 9))
    assert law.symmetric
    a = ShiftDelta(law, 1, F(2), Eps(F(1, 4)))
    b = ShiftDelta(law, -1, F(2), Eps(F(1, 4)))
    assert a == b and hash(a) == hash(b) and a.exact_compare(b) == 0
    # p and 1 - p pair up: symmetric too; a lone p breaks it
    assert BallCountLaw(records_of([F(1, 3), F(2, 3)])).symmetric
    assert not BallCountLaw(records_of([F(1, 3), F(1, 3)])).symmetric


def float_tree_law(ps: np.ndarray) -> np.ndarray:
    """The Poisson-binomial law by divide and conquer in float64 (np.convolve)."""
    polys = [np.array([1 - p, p]) for p in ps]
    while len(polys) > 1:
        nxt = [np.convolve(polys[i], polys[i + 1]) for i in range(0, len(polys) - 1, 2)]
        if len(polys) % 2:
            nxt.append(polys[-1])
        polys = nxt
    return polys[0]


def float_delta(law: np.ndarray, shift: int, lam: float, eps: float) -> float:
    """δ(ε) by the trapezoid rule on a grid of 100 points per unit over the law's bulk
    (masses below 1e-25 left out, the tails 40 λ beyond it): about 1e-6 relative error."""
    s = np.nonzero(law > 1e-25)[0]
    w = law[s]
    lo, hi = s[0] - 40 * lam, s[-1] + max(shift, 0) + 40 * lam
    r = np.linspace(lo, hi, int((hi - lo) * 100) + 1)
    p = np.exp(-np.abs(r[:, None] - s[None, :]) / lam) @ w
    q = np.exp(-np.abs(r[:, None] - s[None, :] - shift) / lam) @ w
    g = np.maximum(p - math.exp(eps) * q, 0) / (2 * lam)
    return float(((g[1:] + g[:-1]) / 2 * np.diff(r)).sum())  # the trapezoid rule


def test_thousand_records_against_float_divide_and_conquer() -> None:
    rng = np.random.default_rng(5)
    ps = rng.permutation(np.arange(1, 1001)) / 1001.0  # 1000 distinct p_i
    fr = [F(int(round(p * 1001)), 1001) for p in ps]
    law = BallCountLaw(records_of(fr))
    ref = float_tree_law(np.array([float(p) for p in fr]))
    got = certify(ShiftDelta(law, 1, F(2), Eps(F(1, 20))), 12)
    want = float_delta(ref, 1, 2.0, 0.05)
    assert abs(float(got.decimal) - want) <= 1e-5 * want

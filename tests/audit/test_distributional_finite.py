"""Distributional DP of a finite mechanism: the certified enclosure is tight.

Source (hand derivation): x1, x2 independent fair bits, the count x1 + x2, target x1.
The simulator sees x2, which says nothing about x1, so every simulator gives one law S
under both values of x1; the mechanism's laws are M_0 = (1/2, 1/2, 0) and
M_1 = (0, 1/2, 1/2) on the outputs 0, 1, 2. With t = e^eps and, by symmetry,
S = (p, 1 - 2p, p): H_t(M_0 || S) = (1/2 - t p)_+ + (1/2 - t (1 - 2p))_+ and
H_t(S || M_0) = p + (1 - 2p - t/2)_+. At eps = 0 both are TV distances and the triangle
inequality through S gives delta >= TV(M_0, M_1)/2 = 1/4, met by p = 1/4. At eps = 1/2
the two balance at p = 1/(2(1 + t)) (where every bracketed term but 1/2 - t p is
negative), so delta = 1/(2(1 + e^(1/2))).

Before the fix this file goes with, the explicit simulator's mass on outputs a group never
shows was removed before its delta was evaluated, and the upper ends were 1/3 and 1/2.
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath

import pdpsym as ps
from pdpsym.core.eps import Eps
from pdpsym.mechanisms import discrete
from pdpsym.mechanisms.laplace import laplace


def test_distributional_delta_of_the_count_of_two_fair_bits_is_the_hand_value() -> None:
    m = ps.JointDistribution.from_rows(
        ["x1", "x2"], [[0, 0, "1/4"], [0, 1, "1/4"], [1, 0, "1/4"], [1, 1, "1/4"]]
    )
    r = ps.audit.audit(m, discrete.count(), "x1", [], ["0", "1/2"], notions=["distributional-dp"])
    (_, at_zero, _), (_, at_half, _) = r["distributional-dp"].delta_at_epsilon
    assert at_zero == F(1, 4) or (at_zero.lo <= F(1, 4) <= at_zero.hi)
    with mpmath.workdps(40):
        exact = 1 / (2 * (1 + mpmath.exp(mpmath.mpf(1) / 2)))
        lo = mpmath.mpf(at_half.lo.numerator) / at_half.lo.denominator
        hi = mpmath.mpf(at_half.hi.numerator) / at_half.hi.denominator
        assert lo <= exact <= hi
        assert hi - lo < mpmath.mpf(10) ** -9


def test_distributional_delta_at_an_epsilon_beyond_the_float_range_is_exactly_zero() -> None:
    # Hand derivation (the doctest of pdpsym.audit.distributional): randomized response
    # with keep 3/4 on two uniform independent bits has e^eps = 2 at delta = 0, and delta
    # is non-increasing in eps, so delta(1000) = 0 exactly. e^1000 overflows a float: the
    # float LP must only propose, never crash (a fuzz input did, OverflowError).
    m = ps.JointDistribution.from_rows(
        ["x1", "x2"], [[0, 0, "1/4"], [0, 1, "1/4"], [1, 0, "1/4"], [1, 1, "1/4"]]
    )
    rr = discrete.randomized_response("3/4", m.domains)
    r = ps.audit.audit(m, rr, "x1", [], ["1000"], notions=["distributional-dp"])
    ((_, at_1000, _),) = r["distributional-dp"].delta_at_epsilon
    assert at_1000 == 0


def test_distributional_laplace_with_a_huge_ratio_is_enclosed_not_crashed() -> None:
    # lambda = 1/1000 on a 0/1 record: e^(1/lambda) = e^1000 overflows floats (a fuzz
    # input crashed here). Hand bound: the simulator Sim(x2) = M(0, x2) is within a factor
    # e^(|0 - 1| / lambda) = e^1000 of M(a, x2) at every output, so eps(0) <= 1000 and the
    # certified lower end can be no larger; the enclosures must be ordered and in range.
    m = ps.JointDistribution.from_rows(
        ["x1", "x2"], [[0, 0, "2/10"], [0, 1, "4/10"], [1, 0, "1/10"], [1, 1, "3/10"]]
    )
    r = ps.audit.audit(
        m, laplace(F(1, 1000)), "x1", [], [Eps.log(2)], F(1, 10), notions=["distributional-dp"]
    )
    res = r["distributional-dp"]
    assert 0 <= res.epsilon.lo <= res.epsilon.hi
    assert res.epsilon.lo <= 1000
    ((_, at_ln2, _),) = res.delta_at_epsilon
    d_lo, d_hi = (at_ln2, at_ln2) if isinstance(at_ln2, F) else (at_ln2.lo, at_ln2.hi)
    assert 0 <= d_lo <= d_hi <= 1

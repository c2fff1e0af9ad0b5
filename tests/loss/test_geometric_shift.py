"""The hockey stick of a count law against its translate under two-sided geometric noise
in balls (pdpsym.loss.geometric_shift) against a brute force written here: every
database's output law summed over the integers (mpmath, 50 digits; with α <= 1/2 the
outputs beyond 130 of the counts weigh below 2^-120)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.core.balls import ball_endpoints
from pdpsym.core.eps import Eps
from pdpsym.loss.geometric_shift import geometric_shift_delta_ball
from pdpsym.loss.shift_pairs import BallCountLaw

mpmath.mp.dps = 50


def mq(q: Fraction) -> mpmath.mpf:
    return mpmath.mpf(q.numerator) / q.denominator


def brute(ps: list[Fraction], shift: int, alpha: Fraction, eps: Fraction) -> mpmath.mpf:
    """Σ_t (P(t) - e^ε Q(t))_+ over t in [-130, n + 130], every database listed."""
    a = mq(alpha)
    law: dict[int, mpmath.mpf] = {}
    for xs in itertools.product((0, 1), repeat=len(ps)):
        w = mpmath.mpf(1)
        for x, p in zip(xs, ps, strict=True):
            w *= mq(p) if x else 1 - mq(p)
        law[sum(xs)] = law.get(sum(xs), mpmath.mpf(0)) + w
    c = (1 - a) / (1 + a)
    te = mpmath.exp(mq(eps))
    total = mpmath.mpf(0)
    for t in range(-130, len(ps) + 130):
        p = c * sum(w * a ** abs(t - s) for s, w in law.items())
        q = c * sum(w * a ** abs(t - s - shift) for s, w in law.items())
        total += max(mpmath.mpf(0), p - te * q)
    return total


@settings(max_examples=8, deadline=None)
@given(
    ps=st.lists(st.fractions(Fraction(1, 50), Fraction(49, 50)), min_size=1, max_size=4),
    shift=st.sampled_from([-2, -1, 1, 2]),
    alpha=st.sampled_from([Fraction(1, 2), Fraction(1, 3)]),
    eps=st.sampled_from([Fraction(0), Fraction(1, 8), Fraction(1, 2)]),
)
def test_against_every_database(
    ps: list[Fraction], shift: int, alpha: Fraction, eps: Fraction
) -> None:
    law = BallCountLaw([((0, 1), (1 - p, p)) for p in ps])
    ball = geometric_shift_delta_ball(law, shift, alpha, Eps.of(eps), 128)
    ref = brute(ps, shift, alpha, eps)
    lo, hi = (mq(x) for x in ball_endpoints(ball))
    tol = mpmath.mpf(10) ** -30
    assert lo - tol <= ref <= hi + tol
    assert hi - lo < mpmath.mpf(10) ** -25  # and the ball is narrow


def test_zero_from_the_shift_on() -> None:
    # hand derivation: P <= α^-|D| Q everywhere, so δ = 0 once e^ε >= 2^2 (α = 1/2, D = 2)
    law = BallCountLaw([((0, 1), (Fraction(1, 3), Fraction(2, 3)))] * 3)
    ball = geometric_shift_delta_ball(law, 2, Fraction(1, 2), Eps.log(4), 128)
    assert ball_endpoints(ball)[1] < Fraction(1, 10**30)


@pytest.mark.parametrize("shift", [1, -1])
def test_total_variation_is_symmetric(shift: int) -> None:
    # TV(P, Q) = TV(Q, P): the two directions at ε = 0 agree (hand: δ(0) is the TV)
    law = BallCountLaw(
        [((0, 1), (Fraction(1, 3), Fraction(2, 3))), ((0, 1), (Fraction(1, 5), Fraction(4, 5)))]
    )
    a = geometric_shift_delta_ball(law, shift, Fraction(1, 2), Eps.of(0), 128)
    b = geometric_shift_delta_ball(law, -shift, Fraction(1, 2), Eps.of(0), 128)
    assert a.overlaps(b)

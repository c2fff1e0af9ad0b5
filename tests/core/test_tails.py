"""pdpsym.core.tails: exponential tilting (Lemma 1) and window extension (Lemma 2),
against the exact Poisson-binomial law computed here with Fractions."""

from __future__ import annotations

from fractions import Fraction as F

from hypothesis import given
from hypothesis import strategies as st
from oracles import poisson_binomial as pb

from pdpsym.core.balls import ball_endpoints
from pdpsym.core.count_law_balls import poisson_binomial_window
from pdpsym.core.tails import (
    TiltedLaw,
    below_bits,
    extend_window,
    tilt_for,
    tilt_scale,
    tilted_blocks,
    tilted_mean,
    tilted_sd,
)

# probabilities from the ordinary to the extreme (2^-40: five such records make a mass
# of 2^-200, beyond a 192-bit window)
POOL = [F(1, 2), F(1, 3), F(2, 3), F(1, 10), F(9, 10), F(1, 1000), F(1, 2**40), 1 - F(1, 2**40)]


def _records(blocks: dict[F, int]) -> list[F]:
    return [q for q, k in blocks.items() for _ in range(k)]


def _contains(ball: object, x: F) -> bool:
    lo, hi = ball_endpoints(ball)  # type: ignore[arg-type]
    return lo <= x <= hi


@st.composite
def blocks_st(draw: st.DrawFn, max_records: int = 8) -> dict[F, int]:
    qs = draw(st.lists(st.sampled_from(POOL), min_size=1, max_size=3, unique=True))
    out: dict[F, int] = {}
    for q in qs:
        out[q] = draw(st.integers(1, max(1, max_records // len(qs))))
    return out


@given(
    blocks=blocks_st(),
    c=st.fractions(min_value=F(1, 1000), max_value=F(10**6), max_denominator=1000),
    data=st.data(),
)
def test_tilted_mass_encloses_the_exact_mass_for_any_tilt(
    blocks: dict[F, int], c: F, data: st.DataObject
) -> None:
    # Lemma 1's corollary: any c > 0 on the right side of 1 gives a valid enclosure
    ps = _records(blocks)
    m, pmf = len(ps), pb.pmf(ps)
    upper = c >= 1
    r = data.draw(st.integers(0, m))
    if upper:  # r <= lo <= hi <= m
        lo = data.draw(st.integers(r, m))
        hi = data.draw(st.integers(lo, m))
    else:  # 0 <= lo <= hi <= r
        hi = data.draw(st.integers(0, r))
        lo = data.draw(st.integers(0, hi))
    w = poisson_binomial_window(tilted_blocks(blocks, c), 128)
    t = TiltedLaw.of(w, c, tilt_scale(blocks, c, 128), r, upper)
    assert _contains(t.mass(lo, hi), sum(pmf[lo : hi + 1], F(0)))


@given(blocks=blocks_st(), data=st.data())
def test_steered_tilt_gives_the_tail_to_full_relative_precision(
    blocks: dict[F, int], data: st.DataObject
) -> None:
    # with c from tilt_for, a tail mass however small comes with a relative radius
    # near 2^-prec (here: below 2^-100 at 256 bits)
    ps = _records(blocks)
    m, pmf = len(ps), pb.pmf(ps)
    r = data.draw(st.integers(0, m))
    upper = data.draw(st.booleans())
    c = tilt_for(blocks, float(r), 1 if upper else -1)
    assert (c >= 1) if upper else (c <= 1)
    lo, hi = (r, m) if upper else (0, r)
    w = poisson_binomial_window(tilted_blocks(blocks, c), 256)
    ball = TiltedLaw.of(w, c, tilt_scale(blocks, c, 256), r, upper).mass(lo, hi)
    exact = sum(pmf[lo : hi + 1], F(0))
    a, b = ball_endpoints(ball)
    assert a <= exact <= b
    assert b - a <= exact * F(1, 2**100)


@given(base=blocks_st(max_records=6), extra=st.lists(st.sampled_from(POOL), max_size=3))
def test_extended_window_encloses_the_sum_law(base: dict[F, int], extra: list[F]) -> None:
    # Lemma 2: a window of R times the exact law of further records is a window of the sum
    pmf = pb.pmf(_records(base) + extra)
    w = extend_window(poisson_binomial_window(base, 128), extra)
    assert w.m == len(pmf) - 1
    for lo in range(len(pmf)):
        for hi in range(lo, len(pmf)):
            assert _contains(w.mass(lo, hi), sum(pmf[lo : hi + 1], F(0)))


def test_below_bits_is_a_certified_upper_bound() -> None:
    # P[S = 8] = (2^-40)^5 (1/2)^3 = 2^-203 for 5 records of 2^-40 and 3 of 1/2 (by hand)
    blocks = {F(1, 2**40): 5, F(1, 2): 3}
    w = poisson_binomial_window(blocks, 256)
    assert below_bits(w, 8, 8, 192)
    assert not below_bits(w, 0, 3, 192)  # P[S <= 3] >= P[no 2^-40 record is 1] ~ 1


def test_tilted_mean_is_the_mean_at_zero_tilt() -> None:
    # theta = 0: E[S] = sum k q = 3/2 + 2/3 (by hand)
    assert abs(tilted_mean({F(1, 2): 3, F(1, 3): 2}, 0.0) - (1.5 + 2 / 3)) < 1e-12


def test_tilted_sd_at_no_tilt_is_the_binomial_sd() -> None:
    # c = 1: Bin(4, 1/2) has variance 4 * 1/2 * 1/2 = 1 (by hand)
    assert abs(tilted_sd({F(1, 2): 4}, F(1)) - 1.0) < 1e-12

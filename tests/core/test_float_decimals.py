"""Certified decimals from float enclosures (core.decimals.certified_decimal) and balls
(core.balls). Source: core.decimals.fixed_digits, the Fraction rule that certify itself
uses (exact rational rounding), and hand-derived cases."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.core.balls import float_log_bounds, to_ball, working_precision
from pdpsym.core.decimals import certified_decimal, fixed_digits

finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300)


@settings(max_examples=400)
@given(finite, st.floats(min_value=0, max_value=1e-9), st.integers(1, 15))
def test_float_rule_equals_the_fraction_rule(x: float, rel: float, digits: int) -> None:
    """Law: the float fast path prints exactly what the exact Fraction rule prints."""
    lo, hi = sorted((x, x + abs(x) * rel))
    got = certified_decimal(lo, hi, digits)
    want = fixed_digits(Fraction(lo), Fraction(hi), digits) if lo != 0 or hi != 0 else None
    if want is None:
        assert got is None
    else:
        assert got == {"decimal": want[0], "enclosure": list(want[1])}


def test_by_hand() -> None:
    # 0.1 is 0.1000000000000000055511151231257827... (exact binary value): 3 digits "0.100",
    # enclosure to 6 digits [0.100000, 0.100001]
    assert certified_decimal(0.1, 0.1, 3) == {
        "decimal": "0.100",
        "enclosure": ["0.100000", "0.100001"],
    }
    assert certified_decimal(0.0, 1.0, 3) is None  # holds 0
    assert certified_decimal(1.0, 2.0, 3) is None  # does not fix 3 digits


def test_log_bounds_enclose() -> None:
    # source: math.log is within an ulp or two; the enclosure must hold it up to that
    xs = [1e-300, 0.5, 1.0, 2.0, 3.0, 1e300]
    import numpy as np

    lo, hi = float_log_bounds(np.array(xs))
    for x, a, b in zip(xs, lo, hi, strict=True):
        assert a <= b and a <= math.log(x) + 1e-15 * abs(math.log(x)) + 1e-300
        assert b >= math.log(x) - 1e-15 * abs(math.log(x)) - 1e-300


def test_working_precision_restores() -> None:
    from flint import ctx  # the test reads flint's own state

    before = ctx.prec
    with working_precision(300):
        assert ctx.prec == 300
        third = to_ball(Fraction(1, 3))
    assert ctx.prec == before
    assert third.overlaps(to_ball(Fraction(1, 3))) and float(third.rad()) < 1e-80


positive = st.floats(min_value=5e-324, max_value=1.7976931348623157e308)
near_one = st.floats(min_value=0.7, max_value=1.6)


@settings(max_examples=300)
@given(st.lists(st.one_of(positive, near_one, st.just(1.0)), min_size=1, max_size=40))
def test_log_bounds_hold_the_arb_logarithm(xs: list[float]) -> None:
    """Law: ``lo <= ln x <= hi`` against arb's logarithm at 200 bits (independent of the
    vectorized float64 method), and the enclosure is at most a few dozen ulps wide."""
    import numpy as np
    from flint import arb, ctx  # the oracle: arb's own log, far more precise

    lo, hi = float_log_bounds(np.array(xs))
    with ctx.workprec(200):
        for x, a, b in zip(xs, lo.tolist(), hi.tolist(), strict=True):
            g = arb(x).log()
            assert arb(a) <= g and g <= arb(b), (x, a, b)
            if x >= 2.3e-308:
                assert b - a <= 40 * np.spacing(abs(float(g.mid()))) + 1e-300


def test_log_bounds_at_the_table_edges() -> None:
    # the reduction's boundaries (3/4, 1, 3/2, powers of two) and their neighbours;
    # source: arb at 200 bits, as above
    import numpy as np
    from flint import arb, ctx  # the oracle

    pts = [0.75, 1.0, 1.5, 2.0, 0.5, 1 + 1 / 128, 1 - 1 / 256, 1.25, 0.875, 1e-300, 1e300]
    xs = [y for p in pts for y in (np.nextafter(p, 0), p, np.nextafter(p, 2 * p))]
    lo, hi = float_log_bounds(np.array(xs))
    with ctx.workprec(200):
        for x, a, b in zip(xs, lo.tolist(), hi.tolist(), strict=True):
            g = arb(float(x)).log()
            assert arb(a) <= g and g <= arb(b), (x, a, b)

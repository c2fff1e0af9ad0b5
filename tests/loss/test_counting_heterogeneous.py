"""The counting query over many heterogeneous records: grouped binomial blocks and the
monotone-ratio search, against a Fraction brute force written here; the CLI refuses
work above --max-work instead of running silently; the certified window of a
Poisson-binomial law against binomial closed forms written here."""

from __future__ import annotations

import contextlib
import io
from fractions import Fraction as F
from math import comb
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracles import poisson_binomial as pb

from pdpsym.app.cli import main
from pdpsym.core import count_law_balls
from pdpsym.core.balls import ball_endpoints
from pdpsym.core.certify import certify
from pdpsym.core.eps import Eps
from pdpsym.mechanisms.counting import counting_delta, first_true, last_true


def test_large_heterogeneous_count_matches_brute_force() -> None:
    # Brute force: the target is one record with p = 1/3 (or 1/2); the others' count S
    # has the exact convolution below; at e^eps = 2, delta_{1,0} = Σ_o max(0,
    # P[S = o-1] - 2 P[S = o]) and delta_{0,1} the mirror; the answer is the max over
    # both directions and both distinct targets. 402 records take the large-law path.
    ps = [F(1, 3)] * 201 + [F(1, 2)] * 201
    best = F(0)
    for t in (F(1, 3), F(1, 2)):
        others = list(ps)
        others.remove(t)
        s = pb.pmf(others)
        m = len(others)

        def at(k: int, s: list[F] = s, m: int = m) -> F:
            return s[k] if 0 <= k <= m else F(0)

        d10 = sum((max(F(0), at(o - 1) - 2 * at(o)) for o in range(m + 2)), F(0))
        d01 = sum((max(F(0), at(o) - 2 * at(o - 1)) for o in range(m + 2)), F(0))
        best = max(best, d10, d01)
    got = counting_delta(ps, Eps.log(2)).value
    assert certify(got, 20).decimal == certify(best, 20).decimal


@pytest.mark.slow  # 4 s; the large-law path is in the default suite just above
def test_seven_distinct_p_match_brute_force() -> None:
    # Brute force: 7 distinct p over 406 records (the windowed large-law path), the
    # Fraction convolution above, e^eps = 3/2, both directions and every distinct target.
    values = [F(1, 10), F(1, 5), F(3, 10), F(2, 5), F(1, 2), F(3, 5), F(7, 10)]
    ps = [values[k % 7] for k in range(406)]
    best = F(0)
    for t in values:
        others = list(ps)
        others.remove(t)
        s = pb.pmf(others)
        m = len(others)

        def at(k: int, s: list[F] = s, m: int = m) -> F:
            return s[k] if 0 <= k <= m else F(0)

        c = F(3, 2)
        d10 = sum((max(F(0), at(o - 1) - c * at(o)) for o in range(m + 2)), F(0))
        d01 = sum((max(F(0), at(o) - c * at(o - 1)) for o in range(m + 2)), F(0))
        best = max(best, d10, d01)
    got = counting_delta(ps, Eps.log(F(3, 2))).value
    assert certify(got, 20).decimal == certify(best, 20).decimal


def test_window_of_one_block_is_the_binomial_closed_form() -> None:
    # Hand closed form: P[Bin(500, 1/3) = s] = C(500, s) (1/3)^s (2/3)^(500-s); the window
    # ball plus the defect [0, D] must contain it, for points and for a tail range.
    m, q = 500, F(1, 3)
    law = count_law_balls.poisson_binomial_window({q: m}, 256)

    def exact(lo: int, hi: int) -> F:
        return sum((comb(m, s) * q**s * (1 - q) ** (m - s) for s in range(lo, hi + 1)), F(0))

    for lo, hi in ((0, 0), (120, 120), (166, 166), (200, 500), (0, 166), (300, 500)):
        a, b = ball_endpoints(law.mass(lo, hi))
        assert a <= exact(lo, hi) <= b
    # and the defect is tiny: the ball of the mode's mass certifies 60 digits
    a, b = ball_endpoints(law.mass(166, 166))
    assert b - a < F(1, 10**60)


def test_two_blocks_against_binomial_convolution() -> None:
    # Hand closed form: S = Bin(300, 1/4) + Bin(200, 3/4); P[S = s] = Σ_j C(300, j)
    # (1/4)^j (3/4)^(300-j) C(200, s-j) (3/4)^(s-j) (1/4)^(200-s+j), written here.
    def f(k: int, q: F, s: int) -> F:
        return comb(k, s) * q**s * (1 - q) ** (k - s) if 0 <= s <= k else F(0)

    law = count_law_balls.poisson_binomial_window({F(1, 4): 300, F(3, 4): 200}, 256)
    for s in (150, 225, 300, 380):
        want = sum((f(300, F(1, 4), j) * f(200, F(3, 4), s - j) for j in range(s + 1)), F(0))
        a, b = ball_endpoints(law.mass(s, s))
        assert a <= want <= b


def test_cli_refuses_heterogeneous_work_above_the_limit(tmp_path: Path) -> None:
    # 10^4 records with 7 distinct p under a --max-work of 1000: refused before the work
    f = tmp_path / "p.txt"
    values = ["1/10", "1/5", "3/10", "2/5", "1/2", "3/5", "7/10"]
    f.write_text("\n".join(values[k % 7] for k in range(10_000)) + "\n")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["counting", "--p-values", str(f), "--eps", "1/10", "--max-work", "1000"])
    assert code == 2
    assert "--max-work" in err.getvalue() and out.getvalue() == ""


@given(
    lo=st.integers(-50, 50),
    width=st.integers(0, 200),
    cut=st.integers(0, 200),
    guess=st.one_of(st.none(), st.integers(-80, 300)),
)
def test_monotone_boundary_search_from_any_guess(
    lo: int, width: int, cut: int, guess: int | None
) -> None:
    # Law: for pred false on [lo, b) and true on [b, hi] (hi always true), first_true is b
    # from any guess (in range or not); last_true mirrors it (true then false).
    hi = lo + width
    b = lo + min(cut, width)
    assert first_true(lo, hi, lambda x: x >= b, guess) == b
    assert last_true(lo, hi, lambda x: x <= b, guess) == b

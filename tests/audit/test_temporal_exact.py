"""The exact temporal leakage of a mechanism on every step (:mod:`pdpsym.audit.temporal_exact`)
against a brute force written here (every path, every report sequence, Fractions), the
audit of the same chain and mechanism (``np`` with target ``x_t``), and Cao et al.'s
bound (randomized response on two states attains it; nothing exceeds it)."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.temporal import brute_stream, rr_matrix

from pdpsym.audit import audit
from pdpsym.audit import temporal_exact as te
from pdpsym.core.balls import working_precision
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.loss import temporal as tp
from pdpsym.loss.temporal_balls import log_bounds
from pdpsym.mechanisms.discrete import randomized_response
from pdpsym.models.markov import MarkovChain

TKDE = [["1/10", "1/5", "7/10"], ["3/10", "3/10", "2/5"], ["1/2", "3/10", "1/5"]]


def _chain(init, P, T):
    k = len(P)
    return MarkovChain([str(s) for s in range(k)], T, init, P)


CASES = [
    (["1/2", "1/2"], [["4/5", "1/5"], ["0", "1"]], 5, F(3, 4)),
    (["1/3", "2/3"], [["9/10", "1/10"], ["3/10", "7/10"]], 5, F(1, 5)),
    (["1", "0", "0"], TKDE, 3, F(3, 5)),  # support grows from one value
    (
        ["1/2", "1/4", "1/4"],
        [["1/2", "1/2", "0"], ["0", "1/2", "1/2"], ["1", "0", "0"]],
        3,
        F(1, 2),
    ),
]


@pytest.mark.parametrize(("init", "P", "T", "keep"), CASES)
def test_randomized_response_equals_the_brute_force(init, P, T, keep) -> None:
    chain = _chain(init, P, T)
    got = te.stream_leakage(chain, te.randomized_response(keep, chain.k))
    Pf = [[F(x) for x in row] for row in P]
    want = brute_stream([F(x) for x in init], Pf, T, rr_matrix(keep, chain.k))
    assert (list(got.bpl), list(got.fpl), list(got.tpl)) == want


def test_geometric_noise_equals_a_brute_force_over_an_integer_window() -> None:
    # outputs y from v_min - 2 to v_max + 2 (beyond the grid {v_s} the module reduces to),
    # R(y | s) = alpha^|y - v_s| (the common normalizer cancels in every ratio)
    states, alpha, T = [F(0), F(1), F(3)], F(1, 2), 3
    P = [[F(1, 2), F(1, 4), F(1, 4)], [F(1, 10), F(4, 5), F(1, 10)], [F(1, 3), F(1, 3), F(1, 3)]]
    init = [F(1, 2), F(1, 4), F(1, 4)]
    R = {y: [alpha ** abs(y - int(v)) for v in states] for y in range(-2, 6)}
    want = brute_stream(init, P, T, R)
    chain = MarkovChain(["0", "1", "3"], T, init, P)
    mech = te.geometric(alpha, chain.states)
    got = te.stream_leakage(chain, mech)
    assert (list(got.bpl), list(got.fpl), list(got.tpl)) == want
    assert mech.eps == Eps.log(8)  # span 3, alpha 1/2: (1/alpha)^3


@pytest.mark.parametrize(
    ("init", "P", "T", "keep"),
    [
        (["1/2", "1/2"], [["4/5", "1/5"], ["0", "1"]], 10, F(3, 4)),
        ("stationary", TKDE, 6, F(3, 5)),
        (["1/2", "1/4", "1/4"], TKDE, 5, F(1, 5)),
    ],
)
def test_tpl_equals_the_audit_of_the_same_chain(init, P, T, keep) -> None:
    chain = _chain(init, P, T)
    got = te.stream_leakage(chain, te.randomized_response(keep, chain.k))
    rr = randomized_response(keep, [chain.domain(v) for v in chain.variables])
    for t, name in enumerate(chain.variables):
        if T > 6 and t not in (0, T // 2, T - 1):
            continue
        eps = audit(chain, rr, target=name, notions=["np"]).results[0].epsilon
        assert eps.func.__name__ == "log"
        assert F(str(eps.args[0])) == got.tpl[t], name


def test_the_issue_numbers() -> None:
    # issue: on [[4/5, 1/5], [0, 1]], T = 10, keep 3/4: log(17689838439/1953125) at x1
    chain = _chain(["1/2", "1/2"], [["4/5", "1/5"], ["0", "1"]], 10)
    got = te.stream_leakage(chain, te.randomized_response(F(3, 4), 2))
    assert got.tpl[0] == F(17689838439, 1953125)
    # TKDE Fig. 4's matrix, 3-state randomized response at keep 3/5 (eps = ln 3), eight
    # releases: the forward leakage is 1.9714 where the bound says 2.0641
    chain = _chain("stationary", TKDE, 8)
    mech = te.randomized_response(F(3, 5), 3)
    got = te.stream_leakage(chain, mech)
    _, f = tp.exp_bounds(tp.TemporalChain.of(chain), [mech.eps] * 8, 64)
    assert round(math.log(got.fpl[0]), 4) == 1.9714
    assert round(math.log(f[0]), 4) == 2.0641


@st.composite
def _two_state(draw):
    # a positively correlated chain (P00 >= P10, det P >= 0), entries in (0, 1)
    hi = draw(st.integers(1, 9))
    lo = draw(st.integers(1, hi))
    P = [[F(hi, 10), 1 - F(hi, 10)], [F(lo, 10), 1 - F(lo, 10)]]
    keep = F(draw(st.integers(1, 19).filter(lambda x: x != 10)), 20)
    return P, draw(st.integers(2, 9)), keep


@settings(max_examples=40, deadline=None)
@given(case=_two_state(), a=st.integers(1, 9))
def test_two_state_randomized_response_attains_the_bound(case, a) -> None:
    # on two values randomized response attains Cao et al.'s bound on a positively
    # correlated chain: BPL, FPL and TPL all equal, exact Fractions (e^eps rational),
    # with a stationary start; from any start the forward side (which does not see it)
    P, T, keep = case
    mech = te.randomized_response(keep, 2)
    w = mech.eps.exact_exp()
    chain = MarkovChain(["0", "1"], T, "stationary", P)
    got = te.stream_leakage(chain, mech)
    b, f = tp.exp_bounds(tp.TemporalChain.of(chain), [mech.eps] * T, 64)
    assert list(got.bpl) == b and list(got.fpl) == f
    assert list(got.tpl) == [x * y / w for x, y in zip(b, f, strict=True)]
    chain = MarkovChain(["0", "1"], T, [F(a, 10), 1 - F(a, 10)], P)
    got = te.stream_leakage(chain, mech)
    _, f = tp.exp_bounds(tp.TemporalChain.of(chain), [mech.eps] * T, 64)
    assert list(got.fpl) == f


def test_a_negatively_correlated_chain_stays_below_the_bound() -> None:
    # det P < 0: the report ratios flip at every step, the bound's two extremes are not
    # both reachable; found by a random search, the values by the brute force here
    P = [[F(1, 10), F(9, 10)], [F(7, 10), F(3, 10)]]
    init, T, keep = [F(1, 10), F(9, 10)], 4, F(17, 20)
    chain = MarkovChain(["0", "1"], T, init, P)
    mech = te.randomized_response(keep, 2)
    _, fpl, _ = brute_stream(init, P, T, rr_matrix(keep, 2))
    got = te.stream_leakage(chain, mech)
    _, f = tp.exp_bounds(tp.TemporalChain.of(chain), [mech.eps] * T, 64)
    assert list(got.fpl) == fpl
    assert fpl[0] < f[0]


@st.composite
def _three_state(draw):
    def row():
        w = draw(st.lists(st.integers(0, 5), min_size=3, max_size=3).filter(any))
        return [F(x, sum(w)) for x in w]

    return (
        row(),
        [row() for _ in range(3)],
        draw(st.integers(2, 6)),
        F(draw(st.integers(1, 19)), 20),
    )


@settings(max_examples=25, deadline=None)
@given(case=_three_state())
def test_no_mechanism_exceeds_the_bound(case) -> None:
    init, P, T, keep = case
    if keep == F(1, 3):
        return
    chain = MarkovChain(["0", "1", "2"], T, init, P)
    mech = te.randomized_response(keep, 3)
    got = te.stream_leakage(chain, mech)
    tc = tp.TemporalChain.of(chain)
    b, f = tp.exp_bounds(tc, [mech.eps] * T, 64)
    w = mech.eps.exact_exp()
    for t in range(T):
        assert got.bpl[t] <= b[t] and got.fpl[t] <= f[t] and got.tpl[t] <= b[t] * f[t] / w


def test_bad_mechanisms() -> None:
    with pytest.raises(InputError, match="keep"):
        te.randomized_response(F(1), 2)
    with pytest.raises(InputError, match="eps = 0"):
        te.randomized_response(F(1, 3), 3)
    with pytest.raises(InputError, match="alpha"):
        te.geometric(F(1), [F(0), F(1)])
    with pytest.raises(InputError, match="integer"):
        te.geometric(F(1, 2), [F(0), F(1, 2)])
    chain = _chain(["1/2", "1/2"], [["1/2", "1/2"], ["1/2", "1/2"]], 3)
    with pytest.raises(InputError, match="reports over 3 values"):
        te.stream_leakage(chain, te.randomized_response(F(1, 2), 3))


# --- Laplace noise on each value of a two-state chain (balls) -------------------------


def _laplace_brute(init, P, T, v, lam, outputs, dps=30):
    """max over the given output sequences of P(y | x_t = a) / P(y | x_t = b), every t
    and both pairs, the Laplace densities e^(-|y - v_s| / lam) in mpmath (the common
    1/(2 lam) cancels)."""
    with mpmath.workdps(dps):
        paths = []
        for x in itertools.product(range(2), repeat=T):
            p = mpmath.mpf(init[x[0]].numerator) / init[x[0]].denominator
            for t in range(T - 1):
                q = P[x[t]][x[t + 1]]
                p *= mpmath.mpf(q.numerator) / q.denominator
            if p:
                paths.append((x, p))
        best = [mpmath.mpf(1)] * T
        for y in outputs:
            dens = [[mpmath.e ** (-abs(mpmath.mpf(yy) - vs) / lam) for vs in v] for yy in y]
            for t in range(T):
                like = [mpmath.mpf(0), mpmath.mpf(0)]
                for x, p in paths:
                    w = p
                    for j in range(T):
                        w *= dens[j][x[j]]
                    like[x[t]] += w
                pi = [sum(p for x, p in paths if x[t] == s) for s in range(2)]
                r = (like[0] / pi[0]) / (like[1] / pi[1])
                best[t] = max(best[t], r, 1 / r)
        return best


def test_laplace_tpl_equals_a_brute_force_and_no_output_beats_the_grid() -> None:
    init = [F(1, 3), F(2, 3)]
    P = [[F(4, 5), F(1, 5)], [F(3, 10), F(7, 10)]]
    T, v, lam = 4, (0, 1), mpmath.mpf(1) / 2
    chain = MarkovChain(["0", "1"], T, init, P)
    mech = te.laplace(F(1, 2), chain.states)
    assert mech.eps == Eps.of(2)
    _, _, tpl = te.binary_stream_balls(chain, mech.eps, 128)
    grid = list(itertools.product([-1, 0, 0.5, 1, 2], repeat=T))
    want = _laplace_brute(init, P, T, v, lam, grid)
    rng = random.Random(20261128)
    rand = [[rng.uniform(-3, 4) for _ in range(T)] for _ in range(150)]
    worst = _laplace_brute(init, P, T, v, lam, rand)
    with mpmath.workdps(30):  # outside [v_0, v_1] an output acts as the end: ties
        for t in range(T):
            assert abs(float(tpl[t].mid()) - float(want[t])) < 1e-12 * float(want[t])
            assert worst[t] <= want[t] * (1 + mpmath.mpf(10) ** -25)


def test_the_binary_balls_enclose_the_exact_randomized_response() -> None:
    # two algorithms: the Möbius extremes in balls against the cones in Fractions
    for init, P in [
        (["1/2", "1/2"], [["4/5", "1/5"], ["1/10", "9/10"]]),
        (["1/10", "9/10"], [["1/10", "9/10"], ["7/10", "3/10"]]),
        (["1/2", "1/2"], [["1/2", "1/2"], ["0", "1"]]),
    ]:
        chain = _chain(init, P, 7)
        ex = te.stream_leakage(chain, te.randomized_response(F(3, 4), 2))
        balls = te.binary_stream_balls(chain, Eps.log(3), 128)
        for got, want in zip(balls, (ex.bpl, ex.fpl, ex.tpl), strict=True):
            for g, w in zip(got, want, strict=True):
                assert float(g.mid()) == pytest.approx(float(w), rel=1e-30) and g.rad() < 1e-25


def test_laplace_attains_the_bound_on_a_positively_correlated_stationary_chain() -> None:
    chain = MarkovChain(["0", "1"], 6, "stationary", [["9/10", "1/10"], ["1/10", "9/10"]])
    mech = te.laplace(F(2), chain.states)  # eps = 1/2
    b, f, w = te.binary_stream_balls(chain, mech.eps, 128)
    bb, fb, wb = log_bounds(tp.TemporalChain.of(chain), [mech.eps] * 6, 128)
    with working_precision(128):
        for x, y in zip(b + f + w, bb + fb + wb, strict=True):
            assert (x.log() - y).abs_upper() < 1e-25


def test_laplace_refusals() -> None:
    with pytest.raises(InputError, match="two-state"):
        te.laplace(F(1), [F(0), F(1), F(2)])
    with pytest.raises(InputError, match="lam"):
        te.laplace(F(0), [F(0), F(1)])
    chain = _chain(["1", "0"], [["1/2", "1/2"], ["1/2", "1/2"]], 3)
    with pytest.raises(InputError, match="marginal is 0"):
        te.binary_stream_balls(chain, Eps.of(1), 64)

"""Cao et al.'s temporal leakage bounds (:mod:`pdpsym.loss.temporal`) against a float
port of the authors' own MATLAB (``oracles.temporal``: calcPLbyThm, theorem10, findSup,
plotTPL) on their two published matrices, a brute force over every subset of
coordinates (the linear-fractional program's vertices, in Fractions), Bayes' rule written
here for the backward matrices, and an mpmath port for the budgets."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.temporal import backward_rows, cao_sup, cao_tpl, marginals, mp_sup, mp_tpl

from pdpsym.core.balls import working_precision
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.loss import temporal as tp
from pdpsym.loss import temporal_budget as tb
from pdpsym.loss.temporal_balls import log_bounds as tb_log_bounds
from pdpsym.loss.temporal_balls import log_supremum
from pdpsym.models.markov import MarkovChain

# ICDE 2017 Example / Fig. 3 and the MATLAB's testFindSup cases: the 2x2 matrix
ICDE = [[F(4, 5), F(1, 5)], [F(0), F(1)]]
# TKDE 2019 Fig. 4 (the MATLAB's testPlotLFunc.m: TM=[0.1 0.2 0.7; 0.3 0.3 0.4; 0.5 0.3 0.2])
TKDE = [[F(1, 10), F(1, 5), F(7, 10)], [F(3, 10), F(3, 10), F(2, 5)], [F(1, 2), F(3, 10), F(1, 5)]]


ICDE_STAT = [["9/10", "1/10"], ["1/5", "4/5"]]


def _fl(m):
    return [[float(x) for x in row] for row in m]


def _same_matrix_chain(M, T: int) -> tp.TemporalChain:
    """M serving as both the backward and the forward matrix at every step (Cao et al.'s
    setting: the adversary is given P^B and P^F)."""
    c = tp.lf_candidates(M)
    k = len(M)
    law = tuple(F(1, k) for _ in range(k))
    back, fwd = ((),) + (c,) * (T - 1), (c,) * (T - 1) + ((),)
    return tp.TemporalChain(T, (law,) * T, back, fwd, True, None, (c, c))


def _floats(tc, eps):
    b, f, w = tb_log_bounds(tc, eps, 128)
    return [float(x.mid()) for x in b], [float(x.mid()) for x in f], [float(x.mid()) for x in w]


@pytest.mark.parametrize("M", [ICDE, TKDE], ids=["icde-2x2", "tkde-fig4-3x3"])
@pytest.mark.parametrize("eps", [Eps.of(F(1, 10)), Eps.log(3), Eps.of(1)], ids=["0.1", "ln3", "1"])
def test_bounds_equal_the_port_of_cao_et_al_matlab(M, eps) -> None:
    T = 30
    got = _floats(_same_matrix_chain(M, T), [eps] * T)
    e = float(eps.arb(64).mid())
    want = cao_tpl([e] * T, [_fl(M)] * T, [_fl(M)] * T)  # the authors' algorithm, ported
    for g, w in zip(got, want, strict=True):
        assert g == pytest.approx(w, rel=1e-12, abs=1e-12)


def test_the_icde_example_at_eps_point_one_by_hand() -> None:
    # by hand: candidates (q, d) = (1, 1/5) [row 2 over row 1, S = {2}] and (4/5, 0)
    # [row 1 over row 2, S = {1}]; at u = e^0.1, 4/5 (u - 1) + 1 > u / (u/5 + 4/5)
    assert tp.lf_candidates(ICDE) == ((F(1), F(1, 5)), (F(4, 5), F(0)))
    lb, _, _ = _floats(_same_matrix_chain(ICDE, 3), [Eps.of(F(1, 10))] * 3)
    u = math.exp(0.1)
    assert lb[1] == pytest.approx(math.log(0.8 * (u - 1) + 1) + 0.1, rel=1e-15)


@pytest.mark.parametrize("M", [ICDE, TKDE], ids=["icde-2x2", "tkde-fig4-3x3"])
@pytest.mark.parametrize("e", ["1/10", "1/2", "1"])
def test_supremum_equals_the_port_of_find_sup(M, e) -> None:
    eps = Eps.of(F(e))
    u = log_supremum(tp.lf_candidates(M), eps, 128)
    want = cao_sup(_fl(M), float(F(e)))  # findSup.m / theorem10.m, ported
    if math.isinf(want):
        assert u is None
    else:
        assert float(u.mid()) == pytest.approx(want, rel=1e-12)


def test_supremum_unbounded_when_q_e_eps_reaches_one() -> None:
    # Theorem 10, d = 0: (4/5) e^eps >= 1 iff eps >= ln(5/4); at eps = ln 3 unbounded
    c = tp.lf_candidates(ICDE)
    assert log_supremum(c, Eps.log(3), 64) is None
    assert log_supremum(c, Eps.log(F(5, 4)), 64) is None  # the boundary: q e^eps = 1
    # just below: finite; by hand at w = 6/5 the d = 0 candidate gives w (1 - q) / (1 - q w)
    # = (6/25) / (1/25) = 6, the other (2/5 + sqrt(4/25)) / (2/5) = 2
    u = log_supremum(c, Eps.log(F(6, 5)), 64)
    assert u is not None and abs(float(u.mid()) - math.log(6)) < 1e-15 and u.rad() < 1e-15
    assert "grows without bound" in tp.unbounded_reason(c, Eps.log(3), "backward")


def test_supremum_is_the_limit_of_the_recursion() -> None:
    # iterate the port 3000 steps (eps = 1/10): BPL rises to the fixed point
    eps = Eps.of(F(1, 10))
    c = tp.lf_candidates(TKDE)
    sup = float(log_supremum(c, eps, 128).mid())
    b, _, _ = cao_tpl([0.1] * 3000, [_fl(TKDE)] * 3000, [_fl(TKDE)] * 3000)
    assert all(x <= sup + 1e-12 for x in b)
    assert b[-1] == pytest.approx(sup, rel=1e-12)


def test_backward_matrices_by_bayes_on_a_non_stationary_chain() -> None:
    init = [F(1, 2), F(1, 4), F(1, 4)]
    P = [[F(1, 2), F(1, 4), F(1, 4)], [F(1, 10), F(4, 5), F(1, 10)], [F(1, 3), F(1, 3), F(1, 3)]]
    T = 8
    chain = MarkovChain(["0", "1", "2"], T, init, P)
    tc = tp.TemporalChain.of(chain)
    assert not tc.homogeneous and "stationary" in (tc.why or "")
    pi = marginals(init, P, T)  # Bayes written here
    TM_B = [None] + [_fl(backward_rows(pi[t - 1], pi[t], P)) for t in range(1, T)]
    eps = [Eps.of(F(1, 10)), Eps.log(2), Eps.of(F(1, 2))] * 2 + [Eps.of(1), Eps.log(3)]
    got = _floats(tc, eps)
    want = cao_tpl([float(e.arb(64).mid()) for e in eps], TM_B, [_fl(P)] * T)
    for g, w in zip(got, want, strict=True):
        assert g == pytest.approx(w, rel=1e-12)


def test_the_issue_example_is_exact() -> None:
    # [[4/5, 1/5], [0, 1]], T = 10, eps = ln 3 a step: FPL_1 = log(17689838439/1953125)
    # (the audit's np leakage of randomized response at keep 3/4 on x1; 1953125 = 5^9)
    chain = MarkovChain(["0", "1"], 10, ["1/2", "1/2"], [["4/5", "1/5"], ["0", "1"]])
    _, f = tp.exp_bounds(tp.TemporalChain.of(chain), [Eps.log(3)] * 10, 64)
    assert f[0] == F(17689838439, 1953125)
    # and by the recursion by hand: e^FPL_9 = 3 (4/5 * 2 + 1) = 39/5
    assert f[8] == F(39, 5)


@st.composite
def _rows(draw):
    k = draw(st.integers(2, 4))
    n = draw(st.integers(2, 4))
    rows = []
    for _ in range(n):
        w = draw(st.lists(st.integers(0, 6), min_size=k, max_size=k).filter(any))
        rows.append([F(x, sum(w)) for x in w])
    return rows


@settings(max_examples=60, deadline=None)
@given(rows=_rows(), u=st.fractions(F(1), F(50)))
def test_candidates_give_the_max_over_every_subset(rows, u) -> None:
    # the linear-fractional program's vertices, by brute force over every subset S
    want = F(1)
    for i, j in itertools.permutations(range(len(rows)), 2):
        for r in range(1, len(rows[0]) + 1):
            for S in itertools.combinations(range(len(rows[0])), r):
                qs, ds = sum(rows[i][c] for c in S), sum(rows[j][c] for c in S)
                want = max(want, (qs * (u - 1) + 1) / (ds * (u - 1) + 1))
    assert tp.incremental(tp.lf_candidates(rows), u) == want


def test_eps_checks() -> None:
    with pytest.raises(InputError, match="3 values for 4 steps"):
        tp.check_eps([Eps.of(1)] * 3, 4)
    with pytest.raises(InputError, match="must be > 0"):
        tp.check_eps([Eps.of(1), Eps.of(0)], 2)


# --- budgets ---------------------------------------------------------------------------


def test_largest_constant_eps_brackets_the_budget() -> None:
    T, alpha = 6, F(2)
    chain = MarkovChain(["0", "1", "2"], T, "stationary", TKDE)
    tc = tp.TemporalChain.of(chain)
    lo, hi = tb.largest_constant_eps(tc, alpha)
    assert 0 < lo < hi and hi - lo <= hi * F(1, 10**12)
    pi = [chain.initial_law] * T
    TM_B = [None] + [backward_rows(pi[0], pi[0], TKDE)] * (T - 1)
    with mpmath.workdps(60):  # the closed form over every subset, in mpmath
        at_lo = max(mp_tpl([lo] * T, TM_B, [TKDE] * T))
        at_hi = max(mp_tpl([hi] * T, TM_B, [TKDE] * T))
        assert at_lo <= 2 <= at_hi


def test_no_correlation_gives_the_budget_itself() -> None:
    chain = MarkovChain(["0", "1"], 5, "stationary", [["1/2", "1/2"], ["1/2", "1/2"]])
    assert tb.largest_constant_eps(tp.TemporalChain.of(chain), F(1)) == (F(1), F(1))


def test_a_budget_no_eps_meets() -> None:
    tc = tp.TemporalChain.of(MarkovChain(["0", "1"], 5, "stationary", ICDE_STAT))
    with pytest.raises(InputError, match="budget"):
        tb.largest_constant_eps(tc, F(0))


def test_quantified_allocation_makes_every_tpl_alpha() -> None:
    # Cao et al.'s allocation by quantification: BPL_t = a_B and FPL_t = a_F throughout,
    # so TPL_t = alpha at every t (by hand: TPL_1 = FPL_1 = L_F(a_F) + a_B = alpha,
    # TPL_T = BPL_T = L_B(a_B) + a_F = alpha); checked by the mpmath port at the midpoints
    T, alpha = 7, F(1)
    chain = MarkovChain(["0", "1", "2"], T, "stationary", TKDE)
    tc = tp.TemporalChain.of(chain)
    a = tb.quantified_allocation(tc, alpha)
    mids = [a.first.mid()] + [a.middle.mid()] * (T - 2) + [a.last.mid()]
    pi = chain.initial_law
    TM_B = [None] + [backward_rows(pi, pi, TKDE)] * (T - 1)
    with mpmath.workdps(40):
        eps = [mpmath.mpf(float(x)) for x in mids]
        tpl = mp_tpl(eps, TM_B, [TKDE] * T)
        for t in range(T):
            assert abs(tpl[t] - 1) < 1e-9


def test_upper_bound_allocation_meets_the_supremum() -> None:
    chain = MarkovChain(["0", "1", "2"], 5, "stationary", TKDE)
    tc = tp.TemporalChain.of(chain)
    lo, hi = tb.upper_bound_allocation(tc, F(1))
    e = float(lo)
    # the port of findSup: sup_B + sup_F - e = 1 at the allocation
    pi = chain.initial_law
    sup_b = cao_sup(_fl(backward_rows(pi, pi, TKDE)), e)
    sup_f = cao_sup(_fl(TKDE), e)
    assert sup_b + sup_f - e == pytest.approx(1, rel=1e-10)


def test_upper_bound_allocation_is_none_for_a_deterministic_pair() -> None:
    # rows (1, 0) and (0, 1): q = 1, d = 0, so q e^eps >= 1 for every eps > 0
    tc = _same_matrix_chain([[F(1), F(0)], [F(0), F(1)]], 5)
    assert tb.upper_bound_allocation(tc, F(1)) is None


def test_balls_stay_tight_along_a_long_chain() -> None:
    # the ratio is evaluated with u used once: at 128 bits, 600 steps of a 3-state chain
    # keep a radius near the rounding (the two-occurrence form grew 1.7x a step and gave
    # a NaN after 650 steps); the values themselves are checked against the port above
    chain = MarkovChain(["0", "1", "2"], 600, ["1", "0", "0"], TKDE)
    b, f, w = tb_log_bounds(tp.TemporalChain.of(chain), [Eps.of(F(1, 3))] * 600, 128)
    assert all(x.rad() < 1e-30 for x in b + f + w)


@pytest.mark.parametrize("e", [F(1, 10**30), F(1, 10), F(100), F(300)], ids=str)
def test_log_domain_balls_at_every_scale_of_eps(e) -> None:
    # tiny eps (expm1 form), moderate, and large (the e^-alpha form), against the
    # closed form over every subset in mpmath at 80 digits
    T = 6
    chain = MarkovChain(["0", "1", "2"], T, "stationary", TKDE)
    tc = tp.TemporalChain.of(chain)
    _, _, got = tb_log_bounds(tc, [Eps.of(e)] * T, 256)
    pi = chain.initial_law
    TM_B = [None] + [backward_rows(pi, pi, TKDE)] * (T - 1)
    with mpmath.workdps(80):
        want = mp_tpl([e] * T, TM_B, [TKDE] * T, 80)
        for g, w in zip(got, want, strict=True):
            assert abs(mpmath.mpf(g.mid().str(40, radius=False)) / w - 1) < mpmath.mpf(10) ** -30
    sup = log_supremum(tc.steady[1], Eps.of(e), 256)
    with mpmath.workdps(80):
        w = mp_sup(TKDE, e)
        assert abs(mpmath.mpf(sup.mid().str(40, radius=False)) / w - 1) < mpmath.mpf(10) ** -30


def test_a_huge_eps_needs_no_huge_precision() -> None:
    # by hand: one candidate (9/10, 1/10) and L(alpha) -> ln 9 as alpha grows, so
    # BPL_2 - eps = ln 9 up to e^-eps (eps = 2^200, exact in binary; 512 bits hold
    # 2^200 + ln 9 to 300 bits)
    chain = MarkovChain(["0", "1"], 3, "stationary", [["9/10", "1/10"], ["1/10", "9/10"]])
    tc = tp.TemporalChain.of(chain)
    eps = Eps.of(F(2) ** 200)
    b, _, _ = tb_log_bounds(tc, [eps] * 3, 512)
    with working_precision(512):
        gap = b[1] - eps.arb(512)
        assert abs(float(gap.mid()) - math.log(9)) < 1e-15 and gap.rad() < 1e-30
    # eps = 10^9999: every value certified to its relative precision (e^eps is never formed)
    b, f, w = tb_log_bounds(tc, [Eps.of(F(10) ** 9999)] * 3, 128)
    assert all(x.rad() < x.mid().abs_lower() * 1e-30 for x in b + f + w)


def test_a_tiny_eps_needs_no_huge_precision() -> None:
    # eps = 10^-9999 at 128 bits: by hand, L(alpha) = ln(1 + (q - d) x / (d x + 1)) with
    # x = e^alpha - 1, so L(alpha) = (q - d) alpha (1 + O(alpha)); one candidate
    # (9/10, 1/10): BPL_2 = eps (1 + 4/5) (1 + O(eps)) = 1.8e-9999
    chain = MarkovChain(["0", "1"], 3, "stationary", [["9/10", "1/10"], ["1/10", "9/10"]])
    b, _, _ = tb_log_bounds(tp.TemporalChain.of(chain), [Eps.of(F(1, 10**9999))] * 3, 128)
    with working_precision(128):
        ratio = b[1] * (10**9999)
        assert abs(float(ratio.mid()) - 1.8) < 1e-15 and ratio.rad() < 1e-30


@pytest.mark.slow
def test_a_long_non_stationary_budget_against_the_mpmath_port() -> None:
    # T = 1000 from a point start (every backward matrix different): the constant-eps
    # budget's enclosure brackets alpha = 1 by the mpmath closed form over every subset,
    # with the backward matrices by Bayes written in oracles.temporal (about 20 s)
    T = 1000
    init = [F(1), F(0), F(0)]
    chain = MarkovChain(["0", "1", "2"], T, init, TKDE)
    lo, hi = tb.largest_constant_eps(tp.TemporalChain.of(chain), F(1))
    pi = marginals(init, TKDE, T)
    TM_B = [None] + [backward_rows(pi[t - 1], pi[t], TKDE) for t in range(1, T)]
    TM_F = [[TKDE[s] for s in range(3) if pi[t][s] > 0] for t in range(T)]
    with mpmath.workdps(30):
        assert max(mp_tpl([lo] * T, TM_B, TM_F, 30)) <= 1 <= max(mp_tpl([hi] * T, TM_B, TM_F, 30))

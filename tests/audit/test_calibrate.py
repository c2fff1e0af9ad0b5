"""MQM against its closed form for symmetric binary chains; calibration's bracket."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from fuzz_cases import TWO_NODE_NETWORK

from pdpsym.audit.calibrate import calibrate
from pdpsym.audit.calibration import NotApplicable
from pdpsym.core.certify import certify
from pdpsym.loss.count_leakage import structured_leakage
from pdpsym.mechanisms.mqm import (
    eigengap,
    group_dp_scale,
    mqm_approx_applies,
    mqm_approx_scale,
    mqm_exact_scale,
    sensitivity,
)
from pdpsym.models.markov import MarkovChain
from pdpsym.models.model_objects import structured_from_object
from pdpsym.models.product import ProductModel


def _closed_form(T: int, stay: Fraction, eps: float) -> float:
    """Song et al.'s MQM scale for a symmetric binary stationary chain, written out:
    max over nodes of the min over quilts of card(N) / (eps - e), with
    e = ln((1+r^a)/(1-r^a)) + ln((1+r^b)/(1-r^b)), r = 2 stay - 1 (one-sided quilts
    drop a term; card N = a + b - 1, i + b - 1, T - i + a, or T for no quilt)."""
    with mpmath.workdps(40):
        r = mpmath.mpf(2 * stay.numerator - stay.denominator) / stay.denominator

        def e(d):
            return mpmath.log((1 + r**d) / (1 - r**d))

        worst = mpmath.mpf(0)
        for i in range(1, T + 1):
            best = mpmath.mpf(T)
            for a in [None, *range(1, i)]:
                for b in [None, *range(1, T - i + 1)]:
                    infl = (e(a) if a else 0) + (e(b) if b else 0)
                    if a is None and b is None:
                        continue
                    if infl >= eps:
                        continue
                    card = a + b - 1 if a and b else (T - i + a if a else i + b - 1)
                    best = min(best, card / (eps - infl))
            worst = max(worst, best)
        return float(worst)


@pytest.mark.parametrize(
    ("T", "stay", "eps"),
    [(12, Fraction(3, 4), 1.0), (20, Fraction(9, 10), 1.0), (15, Fraction(2, 3), 0.5)],
)
def test_mqm_exact_equals_the_symmetric_chain_closed_form(T, stay, eps):
    m = MarkovChain(["0", "1"], T, "stationary", [[stay, 1 - stay], [1 - stay, stay]])
    got = float(certify(mqm_exact_scale(m, Fraction(eps)).scale, 15).decimal)
    assert got == pytest.approx(_closed_form(T, stay, eps), rel=1e-12)


def test_mqm_at_the_issue_example():
    """Symmetric chain, T = 100, stay 9/10, eps = 1: about 31.74 (the closed form above
    gives 31.7377886164...); group DP gives T / eps = 100."""
    m = MarkovChain(["0", "1"], 100, "stationary", [["9/10", "1/10"], ["1/10", "9/10"]])
    assert certify(mqm_exact_scale(m, Fraction(1)).scale, 6).decimal == "31.7378"
    assert group_dp_scale(m, Fraction(1)).scale == 100


def test_calibration_brackets_the_smallest_scale():
    """[lo, hi]: at hi every target meets eps and at lo one does not (checked here by
    separate leakage runs), and the width is at most 1e-12 hi."""
    m = MarkovChain(["0", "1"], 10, "stationary", [["4/5", "1/5"], ["1/5", "4/5"]])
    cal = calibrate(m, Fraction(1), baselines=False)
    assert cal.hi - cal.lo <= cal.hi / 10**12
    at_hi = structured_leakage(m, list(m.variables), (), cal.hi, digits=25, exact=False)
    assert all(r.value.hi <= 1 for r in at_hi)
    at_lo = structured_leakage(m, [cal.worst_target], (), cal.lo, digits=25, exact=False)
    assert at_lo[0].value.lo > 1


def test_calibration_of_independent_records_is_the_dp_scale():
    """Independent 0/1 records: Eq. 2 of the sum is exactly 1/lambda (the Laplace
    mechanism's DP loss, hand derivation: the conditional laws are shifts by 1), so the
    smallest scale for eps is 1/eps."""
    m = ProductModel.bernoulli(["1/3", "1/2", "1/5"])
    cal = calibrate(m, Fraction(1, 2))
    assert cal.lo <= 2 <= cal.hi
    (gdp,) = cal.baselines
    assert gdp.name == "group-dp" and gdp.scale == 2


def test_geometric_needs_integer_values():
    m = MarkovChain(["0", "1/2"], 3, "stationary", [["1/2", "1/2"], ["1/2", "1/2"]])
    with pytest.raises(ValueError, match="mechanism"):
        calibrate(m, Fraction(1), mechanism="geometric")
    assert math.isfinite(1.0)


def _approx_brute(T: int, g: mpmath.mpf, pi_min: mpmath.mpf, eps: mpmath.mpf) -> mpmath.mpf:
    """MQMApprox's sigma_max from Song et al.'s Sec. 5.1 bound, every quilt enumerated in
    mpmath: Delta(t) = exp(-g t) / pi_min, l(t) = ln((1 + Delta)/(1 - Delta)), the bound
    of {x_{i-a}, x_{i+b}} is 2 l(a) + l(b) (a one-sided quilt drops a term), usable when
    below eps; the max over nodes of the min over usable quilts of card / (eps - bound)."""

    def ell(d):
        delta = mpmath.exp(-g * d) / pi_min
        return mpmath.log((1 + delta) / (1 - delta)) if delta < 1 else mpmath.inf

    worst = mpmath.mpf(0)
    for i in range(1, T + 1):
        best = mpmath.mpf(T) / eps
        for a in [None, *range(1, i)]:
            for b in [None, *range(1, T - i + 1)]:
                if a is None and b is None:
                    continue
                bound = (2 * ell(a) if a else 0) + (ell(b) if b else 0)
                if bound < eps:
                    card = a + b - 1 if a and b else (T - i + a if a else i + b - 1)
                    best = min(best, card / (eps - bound))
        worst = max(worst, best)
    return worst


def _approx_closed_form(T: int, stay: Fraction, eps: float) -> float:
    """MQMApprox for a symmetric binary stationary chain, derived by hand: P is symmetric,
    so pi = (1/2, 1/2), the time reversal P* = P and P P* = P^2, whose eigenvalues are
    1 and r^2 (r = 2 stay - 1); the eigengap is g = (1 - r^2) / 2 and pi_min = 1/2, so
    Delta(t) = 2 exp(-g t) and l(t) = ln((1 + Delta)/(1 - Delta)) (usable when Delta < 1).
    The bound of {x_{i-a}, x_{i+b}} is 2 l(a) + l(b) (one-sided quilts drop a term); the
    scale is the max over nodes of the min over quilts of card(N) / (eps - bound)."""
    with mpmath.workdps(40):
        r = mpmath.mpf(2 * stay.numerator - stay.denominator) / stay.denominator
        return float(_approx_brute(T, (1 - r**2) / 2, mpmath.mpf(1) / 2, mpmath.mpf(eps)))


@pytest.mark.parametrize(
    ("T", "stay", "eps"),
    [(40, Fraction(9, 10), 1.0), (30, Fraction(1, 2), 1.0), (25, Fraction(3, 5), 2.0)],
)
def test_mqm_approx_equals_the_symmetric_chain_closed_form(T, stay, eps):
    m = MarkovChain(["0", "1"], T, "stationary", [[stay, 1 - stay], [1 - stay, stay]])
    res = mqm_approx_scale(m, Fraction(eps))
    assert float(certify(res.scale, 15).decimal) == pytest.approx(
        _approx_closed_form(T, stay, eps), rel=1e-12
    )
    # the eigengap by hand: (1 - (2 stay - 1)^2) / 2
    r = 2 * stay - 1
    assert eigengap(m) == (1 - r * r) / 2


def test_mqm_approx_of_the_issue_example():
    """T = 100, stay 9/10: g = (1 - 0.64)/2 = 0.18; the closed form above gives
    54.8349125583808 (above MQMExact's 31.74: the approximate bound is looser)."""
    m = MarkovChain(["0", "1"], 100, "stationary", [["9/10", "1/10"], ["1/10", "9/10"]])
    assert certify(mqm_approx_scale(m, Fraction(1)).scale, 12).decimal == "54.8349125584"


def test_mqm_approx_below_the_float_range_is_the_empty_quilt():
    # hand: T = 4, stay 9/10 (g = 0.18, pi_min = 1/2): every quilt's bound is at least
    # log((1/2 + e^-0.54) / (1/2 - e^-0.54)), far above ε = 10^-320, so only the empty
    # quilt applies: L T / ε = 4 x 10^320 (L = 1, the sum). T / ε passes the float
    # range; the screen let in the quilts above ε (the log of a negative: an error)
    m = MarkovChain(["0", "1"], 4, "stationary", [["9/10", "1/10"], ["1/10", "9/10"]])
    res = mqm_approx_scale(m, Fraction(1, 10**320))
    assert res.scale == 4 * 10**320 and res.detail["card_N"] == 4


def test_mqm_approx_keeps_a_quilt_whose_bound_is_within_1e_9_of_a_tiny_eps():
    """At eps = 10^-10 the best quilt of the middle nodes, {x_{i-1}, x_{i+1}} (card 1),
    has eps - bound = 5 x 10^-11: its scale 2 x 10^10 beats every other quilt (the next,
    card 2 or 3 with eps - bound about eps / 3 to 2 eps / 3, give 2.4 x 10^10 and more).
    The gap is chosen by hand so that 3 l(1) = eps - d exactly: l(1) = (eps - d)/3 means
    Delta(1) = tanh((eps - d)/6), so g = -ln(pi_min tanh((eps - d)/6)). A float screen
    that drops quilts with eps - bound under an absolute 10^-9 returned 2.4 x 10^10."""
    eps, d, pm = Fraction(1, 10**10), Fraction(5, 10**11), Fraction(1, 2)
    g = -sympy.log(sympy.Rational(pm) * sympy.tanh(sympy.Rational(eps - d) / 6))
    m = MarkovChain(["0", "1"], 5, "stationary", [["1/2", "1/2"], ["1/2", "1/2"]])
    res = mqm_approx_scale(m, eps, pi_min=pm, gap=g)
    with mpmath.workdps(60):
        gm = -mpmath.log(mpmath.mpf(1) / 2 * mpmath.tanh(mpmath.mpf(5) / 6 / 10**11))
        want = _approx_brute(5, gm, mpmath.mpf(1) / 2, mpmath.mpf(10) ** -10)
        assert mpmath.almosteq(want, mpmath.mpf(2 * 10**10), rel_eps=mpmath.mpf(10) ** -12)
        got = mpmath.mpf(str(certify(res.scale, 30).decimal))
        assert mpmath.almosteq(got, want, rel_eps=mpmath.mpf(10) ** -25)


CHAINS = [
    (["0", "1"], [["2/3", "1/3"], ["1/4", "3/4"]]),
    (["0", "1"], [["19/20", "1/20"], ["1/10", "9/10"]]),
    (["0", "1", "2"], [["1/2", "1/3", "1/6"], ["1/4", "1/2", "1/4"], ["1/5", "3/10", "1/2"]]),
    (["0", "1", "2"], [["9/10", "1/10", "0"], ["1/20", "9/10", "1/20"], ["0", "1/5", "4/5"]]),
    # four states: l_2 is a root of an irreducible cubic (a sympy CRootOf)
    (
        ["0", "1", "2", "3"],
        [
            ["1/2", "1/4", "1/8", "1/8"],
            ["1/10", "3/5", "1/5", "1/10"],
            ["1/7", "1/7", "4/7", "1/7"],
            ["1/3", "0", "1/6", "1/2"],
        ],
    ),
]


@pytest.mark.parametrize(("states", "matrix"), CHAINS)
@pytest.mark.parametrize("T", [15, 60])
def test_mqm_approx_is_never_below_mqm_exact(states, matrix, T):
    """Each usable quilt's approximate bound is at least its exact max-influence (Song et
    al., Sec. 5.1), so MQMApprox's scale is at least MQMExact's; both below T / eps."""
    m = MarkovChain(states, T, "stationary", matrix)
    approx = certify(mqm_approx_scale(m, Fraction(1)).scale, 20)
    exact = certify(mqm_exact_scale(m, Fraction(1)).scale, 20)
    assert Fraction(approx.enclosure[0]) >= Fraction(exact.enclosure[1])
    assert Fraction(approx.enclosure[1]) <= T * sensitivity(m) + Fraction(1, 10**15)


@pytest.mark.parametrize(("states", "matrix"), CHAINS)
def test_mqm_approx_eigengap_matches_numpy(states, matrix):
    """The exact second eigenvalue of P P* (rational, radical or CRootOf) against numpy's
    eigenvalues of the same matrix built in floats (an independent computation)."""
    m = MarkovChain(states, 5, "stationary", matrix)
    k = len(states)
    P = np.array([[float(Fraction(x)) for x in row] for row in matrix])
    pi = [float(p) for p in m.initial_law]
    rev = np.array([[pi[y] * P[y][x] / pi[x] for y in range(k)] for x in range(k)])
    lam = sorted(np.linalg.eigvals(P @ rev).real)[-2]
    assert float(certify(eigengap(m), 15).decimal) == pytest.approx((1 - lam) / 2, rel=1e-10)


def test_mqm_approx_refuses_a_chain_that_is_not_stationary():
    m = MarkovChain(["0", "1"], 6, ["1", "0"], [["1/2", "1/2"], ["1/2", "1/2"]])
    assert "stationary" in (mqm_approx_applies(m) or "")
    cal = calibrate(m, Fraction(1))
    (na,) = [b for b in cal.baselines if b.name == "mqm-approx"]
    assert isinstance(na, NotApplicable) and "stationary" in na.reason
    assert na.as_json(15) == {"name": "mqm-approx", "applicable": False, "reason": na.reason}
    with pytest.raises(ValueError, match="model"):
        mqm_approx_scale(m, Fraction(1))


def test_calibration_at_an_epsilon_of_seven_hundred_digits():
    """eps = 10^700 on a two-node network: the scale sought is about 10^-700, whose
    1/lambda needs more bits than the balls' old precision cap (2048), so the leakage
    failed with "mixture balls not finite" (a fuzz input at 5000 digits found it). Hand
    derivation: the sum x1 + x2 changes by 1 with x1 given x2, so the leakage is
    1/lambda + c with |c| <= ln 3 (the CPT's ratio 3/4 : 1/4); the smallest scale is then
    10^-700 (1 + c 10^-700 + ...), and the 1e-12-wide enclosure must hold 10^-700."""
    m = structured_from_object(TWO_NODE_NETWORK)
    cal = calibrate(m, Fraction(10**700), known=("x2",), targets=("x1",), baselines=False)
    target = Fraction(1, 10**700)
    assert cal.lo <= target * (1 + Fraction(1, 10**50))
    assert target * (1 - Fraction(1, 10**50)) <= cal.hi
    assert cal.hi - cal.lo <= cal.hi / 10**12


def test_a_target_the_query_does_not_depend_on_is_refused_not_searched_forever() -> None:
    # x1 -> x2 -> x3, x2 known: by the chain rule of the network the count of x3 in
    # state 2 is independent of x1 given x2 (d-separation), so x1 leaks 0 at every
    # scale and no smallest scale exists; the halving search ran forever (fuzz seed
    # 20261129) and now stops 2^-40 below the safe scale
    import pdpsym as ps  # the loader, as a user calls it
    from pdpsym.audit.calibration import MAX_HALVINGS  # the constant the message names
    from pdpsym.core.errors import InputError  # the error a user sees

    net = ps.load_model("tests/data/network3.json").count_query(["x3"], "2")
    with pytest.raises(InputError, match=f"2\\^-{MAX_HALVINGS} of the safe scale") as err:
        ps.calibrate(net, Fraction(1), known=["x2"], targets=["x1"], baselines=False)
    assert err.value.field == "eps"

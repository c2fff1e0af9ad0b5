"""MQM against its closed form for symmetric binary chains; calibration's bracket."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

from pdpsym.audit.calibrate import calibrate
from pdpsym.core.certify import certify
from pdpsym.loss.structured import structured_leakage
from pdpsym.mechanisms.mqm import group_dp_scale, mqm_exact_scale
from pdpsym.models.markov import MarkovChain
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

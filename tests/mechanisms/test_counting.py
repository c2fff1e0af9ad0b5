"""The counting query's exact curve against brute-force enumeration of all 2^n databases."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pdpsym.mechanisms.count_law as count_law
import pdpsym.mechanisms.counting as mc
from pdpsym.core.certify import certify
from pdpsym.core.compare import compare
from pdpsym.core.eps import Eps
from pdpsym.mechanisms.count_law import CountLaw
from pdpsym.mechanisms.counting import counting_delta, counting_delta_fast

probs = st.fractions(min_value=Fraction(1, 20), max_value=Fraction(19, 20), max_denominator=20)


def brute_counting_delta(ps: list[Fraction], c: Fraction) -> Fraction:
    """max over targets and directions of sum_o max(0, P - c Q), by enumerating databases."""
    n = len(ps)
    best = Fraction(0)
    for i in range(n):
        law: dict[int, dict[int, Fraction]] = {0: {}, 1: {}}
        for db in itertools.product((0, 1), repeat=n):
            w = Fraction(1)
            for j, d in enumerate(db):
                if j != i:
                    w *= ps[j] if d else 1 - ps[j]
            law[db[i]][sum(db)] = law[db[i]].get(sum(db), Fraction(0)) + w
        for a, b in ((0, 1), (1, 0)):
            d = sum(
                (
                    max(Fraction(0), law[a].get(o, Fraction(0)) - c * law[b].get(o, Fraction(0)))
                    for o in range(n + 1)
                ),
                Fraction(0),
            )
            best = max(best, d)
    return best


@given(st.lists(probs, min_size=1, max_size=6), st.sampled_from([1, Fraction(11, 10), 2, 5]))
def test_counting_matches_enumeration(ps: list[Fraction], c: Fraction) -> None:
    got = counting_delta(ps, Eps.from_exp(Fraction(c))).value
    assert got == brute_counting_delta(ps, Fraction(c))


@given(st.integers(0, 30), probs, st.sampled_from([Fraction(0), Fraction(1, 7), Fraction(3, 2)]))
def test_fast_path_matches_generic(m: int, p: Fraction, e: Fraction) -> None:
    law = CountLaw.homogeneous(m, p)
    fast = counting_delta_fast(law, Eps.of(e))
    generic = mc.counting_curve(law, Eps.of(e))
    gen = max((h.value() for h in generic.values()), key=lambda v: float(certify(v, 20).decimal))
    assert certify(fast, 25).decimal == certify(gen, 25).decimal


def test_irrational_eps_is_certified() -> None:
    # e^{1/3} is irrational: signs are decided by arb balls and the value is A - e^eps B
    v = counting_delta([Fraction(1, 3)] * 5, Eps.of(Fraction(1, 3))).value
    assert "exp(1/3)" in certify(v, 20).exact
    lo = counting_delta([Fraction(1, 3)] * 5, Eps.from_exp(Fraction(13, 10))).value  # < e^{1/3}
    hi = counting_delta([Fraction(1, 3)] * 5, Eps.from_exp(Fraction(14, 10))).value  # > e^{1/3}
    assert compare(hi, v).sign <= 0 <= compare(lo, v).sign


def test_arb_path_matches_exact_path(monkeypatch: pytest.MonkeyPatch) -> None:
    ps = [Fraction(1, 3), Fraction(1, 2), Fraction(3, 5), Fraction(1, 7)] * 5
    eps = Eps.of(Fraction(1, 5))
    exact = counting_delta(ps, eps)
    monkeypatch.setattr(count_law, "EXACT_LIMIT", 0)  # force arb balls (product tree)
    balls = counting_delta(ps, eps)
    assert certify(exact.value, 25).decimal == certify(balls.value, 25).decimal
    law_h = CountLaw((Fraction(1, 10),) * 30)  # a fresh law: homogeneous ratio recurrence
    # Independent source: mpmath at 50 digits, S ~ Bin(30, 1/10) for the other records,
    # delta = max over both orders of sum_o max(0, P(o) - e^eps Q(o)) with P = law of S + 1,
    # Q = law of S (the hockey-stick form of Lemma 1).
    with mpmath.workdps(50):
        pm = [
            mpmath.binomial(30, k) * mpmath.mpf("0.1") ** k * mpmath.mpf("0.9") ** (30 - k)
            for k in range(31)
        ]
        P, Q, E = dict(enumerate(pm, start=1)), dict(enumerate(pm)), mpmath.exp(mpmath.mpf(1) / 5)
        outs = set(P) | set(Q)
        brute = max(
            mpmath.fsum(max(0, P.get(o, 0) - E * Q.get(o, 0)) for o in outs),
            mpmath.fsum(max(0, Q.get(o, 0) - E * P.get(o, 0)) for o in outs),
        )
        assert certify(counting_delta_fast(law_h, eps), 25).decimal == mpmath.nstr(brute, 25)


def test_known_records_are_dropped() -> None:
    eps = Eps.of(Fraction(1, 2))
    a = mc.counting_delta_homogeneous(12, Fraction(1, 4), eps, known=5)
    b = mc.counting_delta_homogeneous(7, Fraction(1, 4), eps)
    assert certify(a, 20).decimal == certify(b, 20).decimal


@pytest.mark.slow
def test_large_n_certified() -> None:
    v = mc.counting_delta_homogeneous(100000, Fraction(1, 10), Eps.of(Fraction(1, 20)))
    c = certify(v, 15)
    assert c.decimal and float(c.enclosure[0]) <= float(c.enclosure[1])


def test_prop7_at_eps_is_the_printed_formula_and_both_readings_differ_only_in_the_power() -> None:
    import sympy as sp

    from pdpsym.papers.dmkb2020 import counting as pcount

    p, n, eps = Fraction(2, 5), 100, Fraction(1, 2)
    mu2, mu3 = p * (1 - p), p * (1 - p) * abs(1 - 2 * p)
    d2 = sp.Rational(5, 4) * sp.exp(-(sp.Rational(eps) ** 2) * n * sp.Rational(mu2) / 2)
    for reading, power in (
        (pcount.Prop7Reading.PRINTED, 3),
        (pcount.Prop7Reading.BERRY_ESSEEN, sp.Rational(3, 2)),
    ):
        r = pcount.prop7_at_eps([p] * n, eps, reading)
        want = (
            sp.Rational(112, 100)
            * sp.Rational(mu3)
            / (sp.sqrt(n) * sp.Rational(mu2) ** power)
            * (1 + sp.exp(sp.Rational(eps)))
            + d2
        )
        assert sp.simplify(r.delta - want) == 0 and sp.simplify(r.delta2 - d2) == 0


def test_theorem3_closed_form_only_in_its_range() -> None:
    from pdpsym.papers.dmkb2020 import counting as pcount

    assert pcount.theorem3_closed_form_delta(10, Fraction(3, 10), Fraction(1)) is None  # 27 > 2.7
    d = pcount.theorem3_closed_form_delta(1000, Fraction(3, 10), Fraction(1))
    assert d is not None and abs(float(d) - math.exp(-0.3 * 999 / 14)) < 1e-12
    assert pcount.theorem3_closed_form_delta(1000, Fraction(3, 10), Fraction(2)) is None


def test_prop7_printed_mu3_fails_at_half_and_the_absolute_moment_holds() -> None:
    """dmkb2020.prop7 erratum: at p_i = 1/2 the printed mu_3 = p(1-p)|1-2p| is 0, so the
    bound is delta_2 alone, below the exact delta (n = 1000, eps = 1); with the absolute
    third moment E|X-p|^3 = p(1-p)(p^2+(1-p)^2) it holds."""
    from pdpsym.mechanisms.counting import counting_delta_homogeneous
    from pdpsym.papers.dmkb2020 import counting as pcount

    n, p, eps = 1000, Fraction(1, 2), Fraction(1)
    exact = counting_delta_homogeneous(n, p, Eps.of(eps))
    printed = pcount.prop7_at_eps([p] * n, eps, pcount.Prop7Reading.PRINTED)
    absolute = pcount.prop7_at_eps(
        [p] * n, eps, pcount.Prop7Reading.PRINTED, pcount.Mu3Reading.ABSOLUTE
    )
    assert printed.mu3 == 0 and absolute.mu3 == Fraction(1, 8)
    assert compare(exact, printed.delta).sign > 0
    assert compare(exact, absolute.delta).sign < 0

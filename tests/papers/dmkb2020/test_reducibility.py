"""Θ-reducibility, Theorem 2 and the Proposition 6 maps (Desfontaines et al. Sec. 3.5)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy
from hypothesis import given
from hypothesis import strategies as st

from pdpsym.loss.plrv import Eps, apkdp_delta, ppkdp_delta
from pdpsym.mechanisms.finite import BOTTOM, deterministic
from pdpsym.models.scenario import Scenario
from pdpsym.papers.dmkb2020.reducibility import (
    QuadraticForm,
    check_map,
    is_reducible,
    prop6_symbolic,
)

probs = st.fractions(min_value=Fraction(1, 10), max_value=Fraction(9, 10), max_denominator=10)


def test_prop6_printed_maps() -> None:
    printed = prop6_symbolic(QuadraticForm.PRINTED)
    for name in ("counting", "linear", "arithmetic", "geometric", "harmonic"):
        assert printed[name]["identity"] == "holds", name
        assert printed[name]["left_inverse"] == "holds", name
    assert printed["quadratic"]["identity"] == "fails"
    fixed = prop6_symbolic(QuadraticForm.CORRECTED, only=["quadratic"])
    assert fixed["quadratic"]["identity"] == "holds"
    assert fixed["quadratic"]["left_inverse"] == "holds"


def _quadratic_instance(form: QuadraticForm) -> bool:
    n = 2
    recs = [{Fraction(1): Fraction(1, 2), Fraction(2): Fraction(1, 2)}] * n
    scn = Scenario.independent(recs, known=[1])
    mech = deterministic(lambda d: sympy.sqrt(sum(sympy.Rational(x) ** 2 for x in d) / n))

    def phi(o, b1, b2):  # type: ignore[no-untyped-def]
        s = sum(sympy.Rational(y) ** 2 - sympy.Rational(x) ** 2 for x, y in zip(b1, b2))
        if form is QuadraticForm.PRINTED:
            return sympy.sqrt(n * o**2 + s / n)
        return sympy.sqrt(o**2 + s / n)

    ok, _ = check_map(scn, mech, 0, phi, key=lambda o: sympy.Rational(o**2))
    return ok


def test_quadratic_map_on_instance() -> None:
    assert not _quadratic_instance(QuadraticForm.PRINTED)
    assert _quadratic_instance(QuadraticForm.CORRECTED)


@given(st.lists(probs, min_size=3, max_size=3))
def test_counting_is_reducible_and_theorem2(ps: list[Fraction]) -> None:
    scn = Scenario.bernoulli(ps, known=[2])
    count = deterministic(lambda d: sum(d))
    assert is_reducible(scn, count, 0)
    ok, _ = check_map(scn, count, 0, lambda o, b1, b2: o - sum(b1) + sum(b2))
    assert ok
    for eps in (Eps.log(2), Eps.of(Fraction(1, 3))):
        assert apkdp_delta(scn, count, eps, [0]).delta == ppkdp_delta(scn, count, eps, [0]).delta


def test_thresholding_is_not_reducible() -> None:
    scn = Scenario.bernoulli([Fraction(1, 2), Fraction(1, 3)], known=[1])
    mech = deterministic(lambda d: sum(d) if sum(d) >= 2 else BOTTOM)
    assert not is_reducible(scn, mech, 0)
    eps = Eps.log(2)
    assert apkdp_delta(scn, mech, eps).delta != ppkdp_delta(scn, mech, eps).delta


def test_theorem2_exhaustive_small_class() -> None:
    dbs = list(itertools.product((0, 1), repeat=2))
    scn = Scenario.bernoulli([Fraction(1, 3), Fraction(1, 4)], known=[1])
    reducible = 0
    for outs in itertools.product((0, 1, 2), repeat=4):
        table = dict(zip(dbs, outs, strict=True))
        mech = deterministic(lambda d, t=table: t[d])
        if is_reducible(scn, mech, 0):
            reducible += 1
            eps = Eps.of(Fraction(1, 2))
            assert apkdp_delta(scn, mech, eps, [0]).delta == ppkdp_delta(scn, mech, eps, [0]).delta
    assert reducible > 0

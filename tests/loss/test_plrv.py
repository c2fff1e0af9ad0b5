"""PLRV, APK/PPK, Lemma 1 and Theorem 1 on exact finite scenarios (Desfontaines et al. Sec. 3)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from pdpsym.core.certify import certify
from pdpsym.core.errors import InputError
from pdpsym.loss.exp_linear import WLin
from pdpsym.loss.plrv import (
    Eps,
    Knowledge,
    apk,
    apkdp_by_indistinguishability,
    apkdp_delta,
    hockey_stick,
    is_pkdp,
    plrv,
    plrv_expectation,
    ppk,
    ppk_via_apk,
    ppkdp_delta,
    sup_over_sets,
)
from pdpsym.mechanisms.finite import (
    BOTTOM,
    Scenario,
    deterministic,
    random_mechanism,
    random_scenario,
)

EPS = [Eps.of(0), Eps.log(2), Eps.log(Fraction(3, 2)), Eps.of(Fraction(1, 2)), Eps.of(1)]

pmf_weights = st.lists(st.integers(0, 4), min_size=3, max_size=3).filter(lambda w: sum(w) > 0)


def _pmf(w: list[int]) -> dict[int, Fraction]:
    t = sum(w)
    return {k: Fraction(v, t) for k, v in enumerate(w) if v}


def test_hockey_stick_known_values() -> None:
    p = {0: Fraction(1, 2), 1: Fraction(1, 2)}
    q = {0: Fraction(1, 4), 1: Fraction(3, 4)}
    # max(0, 1/2 - 2/4) + max(0, 1/2 - 2·3/4) = 0 at e^ε = 2; = 1/4 at ε = 0
    assert hockey_stick(p, q, Eps.log(2)).rational() == 0
    assert hockey_stick(p, q, Eps.of(0)).rational() == Fraction(1, 4)
    # disjoint supports: δ = 1 for every ε
    assert hockey_stick({0: Fraction(1)}, {1: Fraction(1)}, Eps.of(5)).rational() == 1
    assert plrv(p, q, 0) == sympy.log(2)
    assert plrv({0: Fraction(1)}, {1: Fraction(1)}, 0) == sympy.oo


def test_transcendental_epsilon_is_exact_and_certified() -> None:
    p = {0: Fraction(3, 4), 1: Fraction(1, 4)}
    q = {0: Fraction(1, 4), 1: Fraction(3, 4)}
    d = hockey_stick(p, q, Eps.of(Fraction(1, 2)))  # 3/4 - e^(1/2)/4
    assert d.rational() is None
    assert (d.c0, d.c1) == (Fraction(3, 4), Fraction(-1, 4))
    c = certify(d, 20)
    assert c.decimal.startswith("0.3378196823")
    assert d.sign() == 1


@given(pmf_weights, pmf_weights, st.sampled_from(EPS))
def test_lemma1_sets_equal_expectation(wp: list[int], wq: list[int], eps: Eps) -> None:
    p, q = _pmf(wp), _pmf(wq)
    assert sup_over_sets(p, q, eps) == hockey_stick(p, q, eps) == plrv_expectation(p, q, eps)


@given(st.integers(0, 10**6), st.sampled_from(EPS))
def test_theorem1_identity_and_order(seed: int, eps: Eps) -> None:
    rng = random.Random(seed)
    scn = random_scenario(rng)
    mech, _ = random_mechanism(rng, scn.n)
    for i in range(scn.n):
        if not scn.fully_compatible(i):
            continue
        for a, b in ((0, 1), (1, 0)):
            assert ppk(scn, mech, i, a, b, eps) == ppk_via_apk(scn, mech, i, a, b, eps)
    assert ppkdp_delta(scn, mech, eps).delta.exact_compare(apkdp_delta(scn, mech, eps).delta) <= 0


@given(st.integers(0, 10**6))
def test_definition12_two_forms(seed: int) -> None:
    rng = random.Random(seed)
    scn = random_scenario(rng, n=2)
    mech, _ = random_mechanism(rng, 2)
    eps = Eps.log(2)
    d = apkdp_delta(scn, mech, eps).delta.rational()
    assert d is not None
    for delta in {Fraction(0), d, max(Fraction(0), d - Fraction(1, 100)), Fraction(1)}:
        assert is_pkdp(scn, mech, eps, delta) == apkdp_by_indistinguishability(
            scn, mech, eps, delta
        )


def test_strict_example_thresholding() -> None:
    # two voters, B = D(1); output the count only if it reaches 2: B̂ = 1 reveals D(0)
    scn = Scenario.bernoulli([Fraction(1, 2), Fraction(1, 3)], known=[1])
    mech = deterministic(lambda d: sum(d) if sum(d) >= 2 else BOTTOM)
    eps = Eps.log(2)
    assert apk(scn, mech, 0, 1, 0, (1,), eps).rational() == 1
    assert apk(scn, mech, 0, 1, 0, (0,), eps).rational() == 0
    assert ppk(scn, mech, 0, 1, 0, eps).rational() == Fraction(1, 3)
    assert is_pkdp(scn, mech, eps, Fraction(1, 3), Knowledge.PASSIVE)
    assert not is_pkdp(scn, mech, eps, Fraction(1, 3))
    assert not is_pkdp(scn, mech, eps, Fraction(1, 4), Knowledge.PASSIVE)


def test_delta_zero_equivalence_boundary() -> None:
    scn = Scenario.bernoulli([Fraction(1, 2), Fraction(1, 3), Fraction(1, 4)], known=[2])

    def mech(d):  # type: ignore[no-untyped-def]
        # randomized response on D(0): the largest PLRV is ln 2
        return {d[0]: Fraction(2, 3), 1 - d[0]: Fraction(1, 3)}

    for w, zero in ((Fraction(2), True), (Fraction(199, 100), False)):
        a = apkdp_delta(scn, mech, Eps.log(w)).delta.sign() == 0
        p = ppkdp_delta(scn, mech, Eps.log(w)).delta.sign() == 0
        assert a == p == zero


def test_wlin_mixed_eps_refused() -> None:
    with pytest.raises(ValueError):
        _ = WLin.const(1, Eps.of(1)) + WLin.const(1, Eps.log(2))


def test_scenario_input_errors() -> None:
    with pytest.raises(InputError):
        Scenario.bernoulli([Fraction(3, 2)])
    with pytest.raises(InputError):
        Scenario.from_joint({((0,), ()): Fraction(1, 2)})
    with pytest.raises(InputError):
        Scenario.from_joint({((0,), ()): Fraction(3, 2), ((1,), ()): Fraction(-1, 2)})
    with pytest.raises(InputError):
        Scenario.from_joint({((0,), ()): 0.5, ((1,), ()): 0.5})  # floats are not exact
    scn = Scenario.bernoulli([Fraction(1, 2), Fraction(1, 2)], known=[1])
    with pytest.raises(InputError):
        scn.conditional(0, 2)


def test_exhaustive_two_voter_mechanisms_theorem1() -> None:
    """Every deterministic M: {0,1}² → {0,1} with B = D(1): PPK = E[APK], δ_P ≤ δ_A."""
    dbs = list(itertools.product((0, 1), repeat=2))
    scn = Scenario.bernoulli([Fraction(1, 2), Fraction(1, 3)], known=[1])
    for outs in itertools.product((0, 1), repeat=4):
        table = dict(zip(dbs, outs, strict=True))
        mech = deterministic(lambda d, t=table: t[d])
        for eps in (Eps.log(2), Eps.of(Fraction(1, 2))):
            assert ppk(scn, mech, 0, 0, 1, eps) == ppk_via_apk(scn, mech, 0, 0, 1, eps)
            assert (
                ppkdp_delta(scn, mech, eps).delta.exact_compare(apkdp_delta(scn, mech, eps).delta)
                <= 0
            )

"""Dep, (μ,ν)-bounded dependence, Theorem 6, Proposition 9, Examples 8-9 (Sec. 5.1)."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from pdpsym.loss.plrv import Eps, apkdp_delta
from pdpsym.mechanisms.finite import (
    Scenario,
    compose,
    deterministic,
    random_mechanism,
    random_scenario,
)
from pdpsym.papers.dmkb2020.composition import (
    InfConvention,
    bounded_dependence_nu,
    plrv_terms,
    subadditivity_gap,
    subadditivity_proof,
    theorem6_identity_holds,
)

quarters = st.integers(-40, 40).map(lambda k: Fraction(k, 4))


def test_subadditivity_proof_runs() -> None:
    proof = subadditivity_proof()
    assert set(proof) == {"x>0", "x,y<=0"}


@given(quarters, quarters)
def test_subadditivity_exact(x: Fraction, y: Fraction) -> None:
    assert subadditivity_gap(x, y) >= 0


def test_subadditivity_gap_detects_equality_and_positivity() -> None:
    assert subadditivity_gap(Fraction(-2), Fraction(0)) == 0
    assert subadditivity_gap(Fraction(-1), Fraction(-1)) == 1


@given(st.integers(0, 10**6))
def test_theorem6_chain_rule_factor_one(seed: int) -> None:
    rng = random.Random(seed)
    scn = random_scenario(rng)
    m1, _ = random_mechanism(rng, scn.n, outputs=(0, 1, 2))
    m2, _ = random_mechanism(rng, scn.n, outputs=(0, 1, 2))
    for i in range(scn.n):
        if not scn.fully_compatible(i):
            continue
        for bhat in scn.knowledge_values():
            for t in plrv_terms(scn, m1, m2, i, 0, 1, bhat).values():
                assert theorem6_identity_holds(t, 1)


def test_theorem6_printed_factor_two_fails() -> None:
    scn = Scenario.bernoulli([Fraction(1, 2), Fraction(1, 2)])
    both = deterministic(lambda d: d[0] * d[1])  # AND, as found by the ordered search
    t = plrv_terms(scn, both, both, 0, 0, 1, ())[(0, 0)]
    assert (t.joint, t.first, t.second, t.second_given_first) == (2, 2, 2, 1)
    assert theorem6_identity_holds(t, 1)
    assert not theorem6_identity_holds(t, 2)


@given(st.integers(0, 10**6), st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(2)]))
def test_corrected_corollary(seed: int, wm: Fraction) -> None:
    rng = random.Random(seed)
    scn = random_scenario(rng, n=2)
    m1, _ = random_mechanism(rng, 2, outputs=(0, 1))
    m2, _ = random_mechanism(rng, 2, outputs=(0, 1))
    w1, w2 = Fraction(3, 2), Fraction(2)
    d1 = apkdp_delta(scn, m1, Eps.log(w1)).delta.rational()
    d2 = apkdp_delta(scn, m2, Eps.log(w2)).delta.rational()
    nu = bounded_dependence_nu(scn, m1, m2, Eps.log(wm))[0].rational()
    dc = apkdp_delta(scn, compose(m1, m2), Eps.log(w1 * w2 * wm)).delta.rational()
    assert None not in (d1, d2, nu, dc)
    assert dc <= d1 + d2 + nu  # type: ignore[operator]


def test_prop9_xor_counterexample() -> None:
    scn = Scenario.bernoulli([Fraction(1, 2), Fraction(1, 2)])
    m1 = deterministic(lambda d: d[0])
    m2 = deterministic(lambda d: d[0] ^ d[1])  # independent of D(0) unconditionally
    for conv in InfConvention:
        nu, _ = bounded_dependence_nu(scn, m1, m2, Eps.of(0), conv)
        assert nu.rational() == 1


def test_prop9_disjoint_independent_parts() -> None:
    scn = Scenario.bernoulli([Fraction(1, 3), Fraction(1, 2), Fraction(2, 3)], known=[2])
    m1 = deterministic(lambda d: d[0] + d[2])
    m2 = deterministic(lambda d: d[1])
    nu, _ = bounded_dependence_nu(scn, m1, m2, Eps.of(0), InfConvention.COMPATIBLE, [0, 1])
    assert nu.sign() == 0
    # the printed convention charges ∞ - ∞ = ∞: M2 = D(1) is perfectly revealing
    nu_p, _ = bounded_dependence_nu(scn, m1, m2, Eps.of(0), InfConvention.PRINTED, [0, 1])
    assert nu_p.sign() > 0


def _users(alpha: Fraction, beta: Fraction, users: int) -> tuple[Scenario, Fraction]:
    pi1 = beta / (1 - alpha + beta)
    marg = {0: 1 - pi1, 1: pi1}
    cond = {(1, 1): alpha, (1, 0): 1 - alpha, (0, 1): beta, (0, 0): 1 - beta}
    pmf = {(x1, x2): marg[x1] * cond[(x1, x2)] for x1 in (0, 1) for x2 in (0, 1)}
    r = max(max(c / marg[x2], marg[x2] / c) for (_, x2), c in cond.items())
    return Scenario.independent([pmf] * users), r


def test_example9_two_c_fails_with_three_users_and_2mc_holds() -> None:
    m1 = deterministic(lambda d: sum(x[0] for x in d))
    m2 = deterministic(lambda d: sum(x[1] for x in d))
    conv = InfConvention.COMPATIBLE
    scn2, r = _users(Fraction(1, 3), Fraction(2, 3), 2)
    assert bounded_dependence_nu(scn2, m1, m2, Eps.log(r**2), conv, [0])[0].sign() == 0
    scn3, r = _users(Fraction(1, 3), Fraction(2, 3), 3)
    assert r == Fraction(3, 2)
    nu, _ = bounded_dependence_nu(scn3, m1, m2, Eps.log(r**2), conv, [0])
    assert nu.rational() == Fraction(1, 36)
    assert bounded_dependence_nu(scn3, m1, m2, Eps.log(r**4), conv, [0])[0].sign() == 0

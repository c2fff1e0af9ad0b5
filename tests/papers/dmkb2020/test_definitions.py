"""NP, DDP, CDP, IBCDP on finite examples (Desfontaines et al. Sec. 2)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pdpsym.mechanisms.finite import deterministic, random_mechanism, random_scenario
from pdpsym.papers.dmkb2020 import definitions as defs
from pdpsym.papers.dmkb2020.claims_section2 import correct_global, correct_triples


def test_indist_ratio() -> None:
    p = {0: Fraction(1, 3), 1: Fraction(2, 3)}
    q = {0: Fraction(2, 3), 1: Fraction(1, 3)}
    assert defs.indist_ratio(p, q) == 2
    assert defs.indist_ratio(p, {0: Fraction(1)}) is None
    assert defs.indist_ratio(p, p) == 1


@given(st.integers(0, 10**6))
def test_prop1_factor_two(seed: int) -> None:
    rng = random.Random(seed)
    scn = random_scenario(rng)
    mech, _ = random_mechanism(rng, scn.n)
    c, ib = defs.cdp_ratio(scn, mech), defs.cdp_ratio(scn, mech, inference_based=True)
    if c is not None:
        assert ib is not None and ib <= c * c
    if ib is not None:
        assert c is not None and c <= ib * ib


@given(st.integers(0, 10**6))
def test_prop2_independent_records(seed: int) -> None:
    rng = random.Random(seed)
    scn = random_scenario(rng, correlated=False)
    mech, _ = random_mechanism(rng, scn.n)
    assert defs.np_ratio(scn, mech) == defs.cdp_ratio(scn, mech)


def _dup(pairs: int, r: dict[int, Fraction], k: int):  # type: ignore[no-untyped-def]
    return defs.normalized_scenario(
        [r] * pairs, lambda phi: tuple(v for v in phi for _ in range(k))
    )


def test_example2_identity_is_ddp_with_cheating_simulator() -> None:
    scn = _dup(2, {0: Fraction(1, 3), 1: Fraction(2, 3)}, 2)
    ident = deterministic(lambda d: d)

    def sim(i, rest):  # type: ignore[no-untyped-def]
        partner = rest[i] if i % 2 == 0 else rest[i - 1]
        return {rest[:i] + (partner,) + rest[i:]: Fraction(1)}

    assert defs.ddp_ratio_with(scn, ident, sim) == 1
    assert defs.np_ratio(scn, ident) is None


def test_example5_printed_fails_per_triple_holds() -> None:
    r = {0: Fraction(1, 2), 1: Fraction(1, 2)}
    one, two = _dup(1, r, 3), _dup(2, r, 3)
    dom1 = {i: [0, 1, 2] for i in range(3)}
    dom2 = {i: [0, 1, 2] for i in range(6)}
    assert defs.cdp_ratio(one, correct_global, domain=dom1) == 1
    assert defs.cdp_ratio(two, correct_global, domain=dom2) is None
    assert defs.cdp_ratio(two, correct_triples, domain=dom2) == 1


def test_prop4_duplicate_counterexample() -> None:
    scn = _dup(1, {0: Fraction(1, 2), 1: Fraction(1, 2)}, 2)  # acceptable: D = (φ0, φ0)
    m = deterministic(lambda d: d[1])
    assert defs.np_ratio(scn, m, [0]) is None
    assert defs.cdp_ratio(scn, m, targets=[0]) == 1


def test_normalization_must_be_injective() -> None:
    with pytest.raises(ValueError):
        defs.normalized_scenario(
            [{0: Fraction(1, 2), 1: Fraction(1, 2)}] * 2, lambda phi: (phi[0] ^ phi[1],)
        )

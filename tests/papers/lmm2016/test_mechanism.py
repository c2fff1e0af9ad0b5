"""DDP levels of finite and Laplace mechanisms; the baseline mechanism (Theorem 7)."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import joint_tables

from pdpsym.core.errors import InputError
from pdpsym.models.joint import JointDistribution
from pdpsym.models.neighbours import (
    DDPNeighbours,
    DDPReading,
    DependenceReading,
    databases,
    dependence_sets,
    neighbour_pairs,
)
from pdpsym.papers.lmm2016.dependence import exp_of
from pdpsym.papers.lmm2016.laplace import (
    LaplaceMechanism,
    baseline_mechanism,
    global_sensitivity,
    laplace_ddp_epsilon,
    laplace_satisfies,
)
from pdpsym.papers.lmm2016.mechanism import (
    FiniteMechanism,
    finite_ddp_level,
    level_le,
    level_mul,
    mixture,
    on_block,
    post_process,
    sequential,
)

IND = JointDistribution.product({"D1": {"0": "1/2", "1": "1/2"}, "D2": {"0": "1/2", "1": "1/2"}})
SAME = JointDistribution.from_rows(["D1", "D2"], [["0", "0", "1/2"], ["1", "1", "1/2"]])
XOR = JointDistribution.from_rows(
    ["a", "b", "c"], [[0, 0, 0, "1/4"], [0, 1, 1, "1/4"], [1, 0, 1, "1/4"], [1, 1, 0, "1/4"]]
)


def rr(theta, name, keep):
    def fn(v):
        return {v[0]: keep, 1 - v[0]: 1 - keep}

    return on_block(theta, [name], fn)


def test_neighbour_pairs_follow_the_dependence_sets():
    ind = list(neighbour_pairs(IND, dependence_sets(IND)))
    same = list(neighbour_pairs(SAME, dependence_sets(SAME)))
    assert len(ind) == 8  # per tuple: 2 values of the other tuple x 2 ordered pairs
    assert len(same) == 16  # per tuple: every pair with D_i changed, the other free
    inside = list(neighbour_pairs(SAME, dependence_sets(SAME), within_support=True))
    assert {(d, e) for _, d, e in inside} == {
        ((F(0), F(0)), (F(1), F(1))),
        ((F(1), F(1)), (F(0), F(0))),
    }


def _definition3_pairs(theta, sets, support_only):
    """Definition 3 by brute force: every ordered pair (D, D') of the product domain (of
    the support, if asked) with D_i != D'_i and D_k == D'_k for every k outside N_i."""
    dbs = list(itertools.product(*theta.domains))
    if support_only:
        dbs = [d for d in dbs if theta.probs.get(d, 0) > 0]
    index = {name: k for k, name in enumerate(theta.variables)}
    return {
        (name, d, e)
        for name, group in sets.items()
        for d, e in itertools.product(dbs, dbs)
        if d[index[name]] != e[index[name]]
        and all(d[k] == e[k] for k in range(theta.n) if k not in {index[g] for g in group})
    }


def test_ddp_neighbours_pairs_are_definition3_by_brute_force():
    # explicit sets on three bits: N_a = {a}, N_b = {b, c}, N_c = everything
    sets = {"a": ["a"], "b": ["b", "c"], "c": ["c", "a", "b"]}
    every = list(DDPNeighbours(sets=sets).pairs(XOR))
    assert len(every) == len(set(every))  # each pair once
    # by hand: 8 databases x (1 D' for a, 2 for b with c free, 4 for c) = 8 + 16 + 32
    assert [sum(1 for i, _, _ in every if i == k) for k in "abc"] == [8, 16, 32]
    for reading in (DDPReading.NEIGHBOURS, DDPReading.NEIGHBOURS_IN_SUPPORT):
        inside = reading is DDPReading.NEIGHBOURS_IN_SUPPORT
        got = list(DDPNeighbours(reading, sets=sets).pairs(XOR))
        assert set(got) == _definition3_pairs(XOR, sets, inside)
        for how in DependenceReading:  # the sets a dependence reading gives
            nb = DDPNeighbours(reading, how)
            want = _definition3_pairs(XOR, dependence_sets(XOR, how), inside)
            assert set(nb.pairs(XOR)) == want
            assert set(nb.pairs(XOR, target="b")) == {p for p in want if p[0] == "b"}


def test_ddp_neighbours_is_a_value_and_refuses_the_conditional_reading():
    sets = {"a": ["a", "b"], "b": ["b"], "c": ["c"]}
    nb = DDPNeighbours(sets=sets)
    sets["a"].append("c")  # the object keeps its own copy
    assert nb == DDPNeighbours(sets={"b": ("b",), "c": ("c",), "a": ("a", "b")})
    assert hash(nb) == hash(DDPNeighbours(sets={"a": ("a", "b"), "b": ("b",), "c": ("c",)}))
    assert nb != DDPNeighbours() and DDPNeighbours() == DDPNeighbours()
    with pytest.raises(InputError):
        DDPNeighbours(DDPReading.CONDITIONAL).pairs(XOR)
    with pytest.raises(InputError):
        DDPNeighbours(sets={"a": ["a"]}).pairs(XOR, target="b")


def test_randomized_response_level():
    m = rr(IND, "D1", F(3, 4))
    for reading in DDPReading:
        assert finite_ddp_level(m, IND, DDPNeighbours(reading))[0] == 3
    # on the completely dependent pair, two responses add up under every reading
    both = sequential(rr(SAME, "D1", F(3, 4)), rr(SAME, "D2", F(3, 4)))
    for reading in DDPReading:
        assert finite_ddp_level(both, SAME, DDPNeighbours(reading))[0] == 9


def test_deterministic_output_is_unbounded():
    m = FiniteMechanism.from_function(IND, lambda d: {d[0]: 1})
    assert finite_ddp_level(m, IND)[0] is None
    assert level_le(F(5), None) and not level_le(None, F(5))
    assert level_mul(None, F(2)) is None


def test_conditional_reading_composes_badly_on_independent_tuples():
    """Eq. 11-12: D1+D2+D3 and D2+D3 (mod 2) each reveal no tuple; together they reveal D1."""
    bits = JointDistribution.product({f"D{k}": {"0": "1/2", "1": "1/2"} for k in (1, 2, 3)})
    a1 = FiniteMechanism.from_function(bits, lambda d: {int(sum(d)) % 2: 1})
    a2 = FiniteMechanism.from_function(bits, lambda d: {int(d[1] + d[2]) % 2: 1})
    cond = DDPNeighbours(DDPReading.CONDITIONAL)
    assert finite_ddp_level(a1, bits, cond)[0] == 1
    assert finite_ddp_level(a2, bits, cond)[0] == 1
    assert finite_ddp_level(sequential(a1, a2), bits, cond)[0] is None
    # Definition 4 (neighbours) sees each output as unbounded already: no contradiction
    assert finite_ddp_level(a1, bits)[0] is None


def test_bad_mechanisms_are_input_errors():
    with pytest.raises(InputError):
        FiniteMechanism({(F(0),): {0: F(1, 2)}})
    with pytest.raises(InputError):
        LaplaceMechanism({(F(0),): F(0)}, F(0))
    with pytest.raises(InputError):
        baseline_mechanism({d: F(1) for d in databases(IND)}, IND, F(1))
    with pytest.raises(InputError):
        baseline_mechanism({d: d[0] for d in databases(IND)}, IND, F(0))
    with pytest.raises(InputError):
        mixture(rr(IND, "D1", F(1, 2)), rr(IND, "D1", F(1, 2)), F(2))


def test_laplace_neighbours_epsilon_is_rational():
    q = {d: d[0] + d[1] for d in databases(SAME)}
    m = LaplaceMechanism(q, F(1))
    lr, w = laplace_ddp_epsilon(m, SAME, DDPNeighbours(DDPReading.NEIGHBOURS))
    assert lr.as_rational() == 2
    assert w["tuple"] in ("D1", "D2")
    lr2, _ = laplace_ddp_epsilon(m, SAME, DDPNeighbours(DDPReading.CONDITIONAL))
    assert lr2.as_rational() == 2


def test_baseline_on_xor_joint_holds_pairwise_fails():
    q = {d: sum(d) for d in databases(XOR)}
    assert global_sensitivity(q, XOR) == 1
    joint = baseline_mechanism(q, XOR, F(1), DependenceReading.JOINT)
    pair = baseline_mechanism(q, XOR, F(1), DependenceReading.PAIRWISE)
    assert joint.b == 2 and pair.b == 1
    for reading in DDPReading:
        assert laplace_satisfies(joint, XOR, F(1), DDPNeighbours(reading))
    sets = dependence_sets(XOR, DependenceReading.PAIRWISE)
    lr, w = laplace_ddp_epsilon(pair, XOR, DDPNeighbours(DDPReading.CONDITIONAL, sets=sets))
    # the exact value: ln((1 + e^2) / 2) > 1
    assert abs(float(lr) - math.log((1 + math.e**2) / 2)) < 1e-12
    assert lr.exact_compare(exp_of(F(1))) > 0


def _float_cond_eps(m, theta, grid):
    best = 0.0
    for k in range(theta.n):
        vals = sorted({d[k] for d in theta.probs})
        dens = {}
        for v in vals:
            rows = [(d, p) for d, p in theta.probs.items() if d[k] == v]
            z = sum(p for _, p in rows)
            dens[v] = [
                sum(
                    float(p / z) * math.exp(-abs(r - float(m.query[d])) / float(m.b))
                    for d, p in rows
                )
                for r in grid
            ]
        for v1, v2 in itertools.permutations(vals, 2):
            best = max(best, max(math.log(a / b) for a, b in zip(dens[v1], dens[v2])))
    return best


@given(joint_tables(min_n=2, max_n=3, max_domain=2), st.integers(0, 10**6))
def test_baseline_is_eps_ddp_and_matches_a_grid(theta, seed):
    rng = random.Random(seed)
    q = {d: F(rng.randint(-2, 3)) for d in databases(theta)}
    if len(set(q.values())) == 1:
        return
    eps = F(rng.randint(1, 3), rng.randint(1, 2))
    sets = dependence_sets(theta)
    m = baseline_mechanism(q, theta, eps, size=max(len(g) for g in sets.values()))
    for reading in DDPReading:
        assert laplace_satisfies(m, theta, eps, DDPNeighbours(reading, sets=sets))
    lr, _ = laplace_ddp_epsilon(m, theta, DDPNeighbours(DDPReading.CONDITIONAL, sets=sets))
    grid = [x / 4 for x in range(-40, 40)]
    assert _float_cond_eps(m, theta, grid) <= float(lr) + 1e-9


def _random_mech(rng, theta, outputs):
    def pmf(_):
        w = [rng.randint(1, 5) for _ in range(outputs)]
        return {s: F(x, sum(w)) for s, x in enumerate(w)}

    return FiniteMechanism.from_function(theta, pmf)


@given(joint_tables(min_n=2, max_n=3, max_domain=2), st.integers(0, 10**6))
def test_axioms_on_random_finite_mechanisms(theta, seed):
    rng = random.Random(seed)
    a, b = _random_mech(rng, theta, 2), _random_mech(rng, theta, 2)
    post = {0: {"x": F(1, 3), "y": F(2, 3)}, 1: {"x": F(1)}}
    sets = dependence_sets(theta)
    for reading in DDPReading:

        def level(m, reading=reading):
            return finite_ddp_level(m, theta, DDPNeighbours(reading, sets=sets))[0]

        ga, gb = level(a), level(b)
        assert level_le(level(post_process(a, post.__getitem__)), ga)
        assert level_le(level(mixture(a, b, F(2, 5))), max(ga, gb))
        if reading is not DDPReading.CONDITIONAL:  # Theorem 3 holds for Definition 4
            assert level_le(level(sequential(a, b)), level_mul(ga, gb))

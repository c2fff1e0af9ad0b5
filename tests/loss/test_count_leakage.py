"""Structured engines against independent sources: the full-joint-table engine, a
Fraction brute force over all sequences, and the binomial closed form."""

from __future__ import annotations

import itertools
import math
import sys
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.loss import table_leakage as eq2
from pdpsym.loss.count_leakage import leakage_max, structured_leakage
from pdpsym.models.markov import MarkovChain
from pdpsym.models.product import ProductModel


@st.composite
def laws(draw, k):
    """A probability vector of k positive-or-zero rationals summing to 1 (by construction)."""
    parts = [draw(st.integers(0, 6)) for _ in range(k)]
    if sum(parts) == 0:
        parts[draw(st.integers(0, k - 1))] = 1
    s = sum(parts)
    return [Fraction(p, s) for p in parts]


@st.composite
def chains(draw, max_len=8):
    k = draw(st.sampled_from([2, 3]))
    T = draw(st.integers(2, max_len if k == 2 else min(max_len, 5)))
    states = draw(
        st.lists(st.integers(-2, 3), min_size=k, max_size=k, unique=True).map(
            lambda v: [Fraction(x) for x in v]
        )
    )
    init = "stationary" if draw(st.booleans()) else draw(laws(k))
    trans = [draw(laws(k)) for _ in range(k)]
    if init == "stationary":
        # keep the chain irreducible: every entry positive
        trans = [[(p + 1) / (1 + k) for p in row] for row in trans]
    return MarkovChain(states, T, init, trans)


def _known_and_targets(draw, names):
    known = draw(st.lists(st.sampled_from(names), unique=True, max_size=2))
    targets = [v for v in names if v not in known]
    return tuple(v for v in names if v in known), targets


@settings(max_examples=25)
@given(data=st.data())
def test_chain_engine_equals_the_full_joint_table_engine(data):
    """Law: for every small chain, target and known set, Eq. 2 by forward-backward equals
    Eq. 2 on the full joint table (``loss/leakage.leakage`` on ``to_joint()``)."""
    m = data.draw(chains())
    known, targets = _known_and_targets(data.draw, list(m.variables))
    lam = data.draw(st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(3)]))
    table = m.to_joint()
    got = structured_leakage(m, targets, known, lam, digits=12, exact=False)
    for r in got:
        ref = eq2.table_leakage(table, r.target, known, lam)
        assert r.status == ref.status
        if ref.ok:
            c = ref.certified(25)
            lo, hi = Fraction(c.enclosure[0]), Fraction(c.enclosure[1])
            # the two enclosures of the same real must intersect
            assert r.value.lo <= hi and lo <= r.value.hi


@settings(max_examples=15)
@given(data=st.data())
def test_chain_exact_closed_form_equals_the_table_engine(data):
    """Law: the exact closed form of a small chain's leakage equals the table engine's."""
    m = data.draw(chains(max_len=5))
    known, targets = _known_and_targets(data.draw, list(m.variables))
    table = m.to_joint()
    for r in structured_leakage(m, targets[:2], known, 1, digits=10, exact=True):
        ref = eq2.table_leakage(table, r.target, known, 1)
        if ref.ok:
            assert r.value.exact is not None
            assert r.value.exact.exact_compare(ref.require()) == 0


@settings(max_examples=20)
@given(data=st.data())
def test_product_engine_equals_the_full_joint_table_engine(data):
    """Law: independent records (own laws) give the table engine's Eq. 2."""
    n = data.draw(st.integers(2, 6))
    recs = []
    for _ in range(n):
        k = data.draw(st.integers(2, 3))
        vals = data.draw(st.lists(st.integers(-1, 3), min_size=k, max_size=k, unique=True))
        recs.append({"values": vals, "probs": data.draw(laws(k))})
    m = ProductModel(recs)
    known, targets = _known_and_targets(data.draw, list(m.variables))
    table = m.to_joint()
    for r in structured_leakage(m, targets, known, Fraction(1, 2), digits=12, exact=False):
        ref = eq2.table_leakage(table, r.target, known, Fraction(1, 2))
        assert r.status == ref.status
        if ref.ok:
            c = ref.certified(25)
            assert r.value.lo <= Fraction(c.enclosure[1]) and Fraction(c.enclosure[0]) <= r.value.hi


def _brute_law(m: MarkovChain, target: int, a: Fraction, known: dict[int, Fraction]):
    """The law of the sum given x_target = a and x_K, by listing every sequence (Fractions)."""
    law: dict[Fraction, Fraction] = {}
    for seq in itertools.product(m.states, repeat=m.length):
        if seq[target] != a or any(seq[t] != v for t, v in known.items()):
            continue
        idx = [m.states.index(x) for x in seq]
        p = m.initial_law[idx[0]]
        for t in range(m.length - 1):
            p *= m.matrix(t)[idx[t]][idx[t + 1]]
        if p:
            law[sum(seq)] = law.get(sum(seq), Fraction(0)) + p
    total = sum(law.values())
    return {s: p / total for s, p in law.items()} if total else None


@settings(max_examples=25)
@given(data=st.data())
def test_forward_backward_law_equals_the_fraction_brute_force(data):
    """Law: the exact conditional law of the sum equals the brute force over sequences."""
    m = data.draw(chains(max_len=6))
    t = data.draw(st.integers(0, m.length - 1))
    a = data.draw(st.sampled_from(m.states))
    others = [u for u in range(m.length) if u != t]
    kpos = data.draw(st.lists(st.sampled_from(others), unique=True, max_size=2)) if others else []
    known = {u: data.draw(st.sampled_from(m.states)) for u in kpos}
    got = m.query_law(m.variables[t], a, {m.variables[u]: v for u, v in known.items()})
    assert got == _brute_law(m, t, a, known)


def test_product_engine_equals_the_binomial_closed_form():
    """Common p: the law of the sum given x_1 = a is a + Binomial(n - 1, p) (closed form)."""
    n, p = 9, Fraction(3, 10)
    m = ProductModel.bernoulli([p] * n)
    for a in (Fraction(0), Fraction(1)):
        law = m.query_law("x1", a, {})
        expected = {a + j: math.comb(n - 1, j) * p**j * (1 - p) ** (n - 1 - j) for j in range(n)}
        assert law == expected


def test_symmetric_chain_ends_tie_and_the_max_is_in_the_middle():
    """A stationary symmetric chain is reversible: x1 and xT have equal laws, so equal
    leakage (their enclosures coincide); the middle record leaks most (hand argument:
    it has two correlated neighbours)."""
    m = MarkovChain(["0", "1"], 9, "stationary", [["4/5", "1/5"], ["1/5", "4/5"]])
    res = structured_leakage(m, list(m.variables), (), 1, digits=20, exact=True)
    assert res[0].value.exact.exact_compare(res[-1].value.exact) == 0
    best = leakage_max(res)
    assert best.target == "x5"


def test_long_chain_matrix_tree_equals_the_sequential_pass():
    """Law of one target of a 70-record chain with known records: the transfer-matrix
    tree (few targets) gives the same exact law as the sequential forward-backward (many
    targets), which the brute-force law test above checks on short chains."""
    m = MarkovChain(
        ["0", "1", "2"],
        70,
        ["1/2", "1/4", "1/4"],
        [["1/2", "1/4", "1/4"], ["1/10", "8/10", "1/10"], ["1/3", "1/3", "1/3"]],
    )
    known = {"x3": Fraction(1), "x40": Fraction(2)}
    tree = dict(m.target_factors(["x20"], known))["x20"]
    seq = dict(m.target_factors(["x20", "x5", "x50"], known))["x20"]
    for v in m.states:
        assert tree[v][0] * tree[v][1] == seq[v][0] * seq[v][1]


@pytest.mark.parametrize("lam", [Fraction(1, 10**400), Fraction(1, 10**9999)])
def test_chain_engine_at_a_scale_whose_logs_leave_the_float_range(lam):
    """lambda = 10^-400: every mixture value's log is beyond float64 (a fuzz input crashed
    with OverflowError, then the float screen gave up at every precision); 10^-9999: the
    ball of 1/lambda needs 33,000 bits, above the old precision cap (a fuzz input failed
    with "mixture balls not finite"). The balls alone decide it; the table engine's exact
    Eq. 2 on ``to_joint()`` (an independent engine) must lie in the enclosure, and 20
    digits must be certain."""
    m = MarkovChain(
        [Fraction(0), Fraction(1)],
        6,
        "stationary",
        [[Fraction(9, 10), Fraction(1, 10)], [Fraction(1, 10), Fraction(9, 10)]],
    )
    (r,) = structured_leakage(m, ["x1"], ("x2",), lam, digits=20, exact=False)
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # the exact 10^9999 is printed, as the CLI allows
    try:
        c = eq2.table_leakage(m.to_joint(), "x1", ("x2",), lam).certified(25)
    finally:
        sys.set_int_max_str_digits(old)
    lo, hi = Fraction(c.enclosure[0]), Fraction(c.enclosure[1])
    assert r.value.lo <= hi and lo <= r.value.hi
    assert (r.value.hi - r.value.lo) / r.value.lo < Fraction(1, 10**19)

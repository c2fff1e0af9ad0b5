"""The histogram's Eq. 2 leakage against a brute force written here: every sequence of a
small chain and every point of the output grid, in mpmath at 60 digits (not the code
under test), and a random search over real outputs that never beats the grid."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.histogram_chain import histogram_laws

import pdpsym as ps
from pdpsym.loss.histogram import histogram_leakage

mpmath.mp.dps = 60

STICKY = [["3/5", "1/5", "1/5"], ["1/10", "7/10", "1/5"], ["1/4", "1/4", "1/2"]]


def _density(law, y, lam):
    return mpmath.fsum(
        mpmath.mpf(p.numerator)
        / p.denominator
        * mpmath.exp(-sum(abs(mpmath.mpf(yj) - nj) for yj, nj in zip(y, h)) / lam)
        for h, p in law.items()
    )


def _ratio_max(laws, y, lam):
    vals = [_density(law, y, lam) for law in laws.values()]
    return mpmath.log(max(vals) / min(vals))


def _brute(init, mats, T, target, known_names, lam):
    best = None
    for combo in itertools.product(range(3), repeat=len(known_names)):
        laws = histogram_laws(init, mats, T, target, dict(zip(known_names, combo)))
        if len(laws) < 2:
            continue
        for y in itertools.product(range(T + 1), repeat=3):
            r = _ratio_max(laws, y, mpmath.mpf(lam.numerator) / lam.denominator)
            best = r if best is None else max(best, r)
    return best


def _chain(T, init="stationary"):
    return ps.MarkovChain(["a", "b", "c"], T, init, STICKY)


@pytest.mark.parametrize(
    ("T", "target", "known", "lam"),
    [
        (3, 0, [], F(1)),
        (4, 1, [], F(3, 2)),
        (4, 2, [3], F(1, 2)),
        (4, 1, [], F(1, 400)),  # q^8 = e^-3200: the screen runs in logs
        pytest.param(5, 2, [0], F(2), marks=pytest.mark.slow),
    ],
)
def test_equals_brute_force(T, target, known, lam):
    chain = _chain(T)
    init = chain.initial_law
    # expected: every sequence and every grid point, in mpmath (this file)
    want = _brute(init, STICKY, T, target, known, lam)
    names = [f"x{k + 1}" for k in known]
    got = histogram_leakage(chain, [f"x{target + 1}"], names, lam, digits=20)[0].value
    assert got is not None
    assert mpmath.mpf(got.lo.numerator) / got.lo.denominator <= want + mpmath.mpf(10) ** -40
    assert want <= mpmath.mpf(got.hi.numerator) / got.hi.denominator + mpmath.mpf(10) ** -40
    assert got.hi - got.lo < F(1, 10**18)


@pytest.mark.slow
def test_equals_brute_force_t6():
    chain = _chain(6, ["1/2", "1/4", "1/4"])
    want = _brute(chain.initial_law, STICKY, 6, 3, [0], F(1))
    got = histogram_leakage(chain, ["x4"], ["x1"], 1, digits=20)[0].value
    assert got is not None
    assert abs(mpmath.mpf(got.lo.numerator) / got.lo.denominator - want) < mpmath.mpf(10) ** -18


LAWS4 = histogram_laws(_chain(4).initial_law, STICKY, 4, 1, {})
LEAK4 = histogram_leakage(_chain(4), ["x2"], [], F(3, 2), digits=25)[0].value


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.fractions(min_value=-2, max_value=6, max_denominator=97), min_size=3, max_size=3)
)
def test_no_real_output_beats_the_grid(y):
    # the grid lemma: a real output's ratio is at most the grid's max (mpmath, this file)
    r = _ratio_max(LAWS4, [mpmath.mpf(v.numerator) / v.denominator for v in y], mpmath.mpf(1.5))
    assert LEAK4 is not None
    assert r <= mpmath.mpf(LEAK4.hi.numerator) / LEAK4.hi.denominator + mpmath.mpf(10) ** -30


def test_independent_records_with_three_values():
    # three records with their own laws on the values {0, 1, 2}; brute force over the 27
    # databases and every grid point (this file, mpmath)
    recs = [["1/2", "1/4", "1/4"], ["1/5", "3/5", "1/5"], ["1/3", "1/3", "1/3"]]
    model = ps.ProductModel([(["0", "1", "2"], r) for r in recs])
    laws = {}
    for db in itertools.product(range(3), repeat=3):
        p = F(1)
        for r, v in zip(recs, db, strict=True):
            p *= F(r[v])
        law = laws.setdefault(db[0], {})
        h = tuple(db.count(s) for s in range(3))
        law[h] = law.get(h, F(0)) + p / F(recs[0][db[0]])
    lam = mpmath.mpf(3) / 4
    want = max(_ratio_max(laws, y, lam) for y in itertools.product(range(4), repeat=3))
    got = histogram_leakage(model, ["x1"], [], F(3, 4), digits=20)[0].value
    assert got is not None
    assert abs(mpmath.mpf(got.lo.numerator) / got.lo.denominator - want) < mpmath.mpf(10) ** -18


def test_bayesian_network_by_hand():
    # rain -> wet <- sprinkler, three states each (values 0, 1, 2 by index); the joint is
    # the product of the tables, listed here, and the grid searched in mpmath
    cpt_r = ["1/2", "1/3", "1/6"]
    cpt_s = ["1/4", "1/4", "1/2"]
    rows = {}
    for r in range(3):
        for s_ in range(3):
            top = F(1, 2) if r == s_ else F(1, 5)
            rest = (1 - top) / 2
            rows[(r, s_)] = [top if j == r else rest for j in range(3)]
    nodes = [
        {"name": "rain", "states": ["lo", "mid", "hi"], "cpt": cpt_r},
        {"name": "sprinkler", "states": ["lo", "mid", "hi"], "cpt": cpt_s},
        {
            "name": "wet",
            "states": ["lo", "mid", "hi"],
            "parents": ["rain", "sprinkler"],
            "cpt": [[str(p) for p in rows[(r, s_)]] for r in range(3) for s_ in range(3)],
        },
    ]
    net = ps.BayesianNetwork.from_nodes(nodes)
    laws = {}
    for r, s_, w in itertools.product(range(3), repeat=3):
        p = F(cpt_r[r]) * F(cpt_s[s_]) * rows[(r, s_)][w]
        h = tuple((r, s_, w).count(j) for j in range(3))
        law = laws.setdefault(w, {})
        law[h] = law.get(h, F(0)) + p
    laws = {a: {h: p / sum(law.values()) for h, p in law.items()} for a, law in laws.items()}
    want = max(_ratio_max(laws, y, mpmath.mpf(1)) for y in itertools.product(range(4), repeat=3))
    got = histogram_leakage(net, ["wet"], [], 1, digits=20)[0].value
    assert got is not None
    assert abs(mpmath.mpf(got.lo.numerator) / got.lo.denominator - want) < mpmath.mpf(10) ** -18

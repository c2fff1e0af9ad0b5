"""Randomized response on structured models against the full-joint-table audit (the
independent reference: ``audit`` on ``model.to_joint()`` with the same randomized
response, which lists every database and every output), notion by notion."""

from __future__ import annotations

import json
from fractions import Fraction
from unittest import mock

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import pdpsym.audit.rr_reports as srr
from pdpsym.app.cli import main
from pdpsym.audit import audit
from pdpsym.core.eps import Eps
from pdpsym.mechanisms.discrete import randomized_response
from pdpsym.models.markov import MarkovChain
from pdpsym.models.neighbours import DDPReading
from pdpsym.models.product import ProductModel

from .test_sum_mechanisms import figures_of, groups_equal, laws

NOTIONS = ["dp", "apkdp", "ppkdp", "np", "cdp", "dependent-dp"]
KEEPS = [Fraction(1, 3), Fraction(1, 2), Fraction(3, 4), Fraction(1)]


@st.composite
def chains(draw, max_binary=4, max_ternary=3, ks=(2, 3)):
    k = draw(st.sampled_from(ks))
    T = draw(st.integers(2, max_binary if k == 2 else max_ternary))
    states = [
        Fraction(x) for x in draw(st.lists(st.integers(-1, 2), min_size=k, max_size=k, unique=True))
    ]
    if draw(st.booleans()):  # a stationary start: every entry positive (irreducible)
        trans = [[(p + 1) / (1 + k) for p in draw(laws(k))] for _ in range(k)]
        return MarkovChain(states, T, "stationary", trans)
    return MarkovChain(states, T, draw(laws(k)), [draw(laws(k)) for _ in range(k)])


@st.composite
def products(draw):
    recs = []
    for _ in range(draw(st.integers(2, 4))):
        k = draw(st.sampled_from([2, 3]))
        vals = draw(st.lists(st.integers(-1, 2), min_size=k, max_size=k, unique=True))
        recs.append({"values": [str(v) for v in vals], "probs": [str(p) for p in draw(laws(k))]})
    return ProductModel(recs)


def _rr(model, keep):
    return randomized_response(keep, [model.domain(v) for v in model.variables])


def _case(data, model):
    names = list(model.variables)
    target = data.draw(st.sampled_from(names))
    rest = [v for v in names if v != target]
    known = data.draw(st.lists(st.sampled_from(rest), unique=True, max_size=2))
    keep = data.draw(st.sampled_from(KEEPS))
    eps = [Eps.of(data.draw(st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(2)])))]
    delta = data.draw(st.sampled_from([None, Fraction(0), Fraction(1, 10)]))
    return target, known, keep, eps, delta


def _check(model, target, known, keep, eps, delta, groups_equal):
    mech = _rr(model, keep)
    joint = model.to_joint()
    got = audit(model, mech, target, known, eps, delta, NOTIONS)
    ref = audit(joint, mech, target, known, eps, delta, NOTIONS)
    for n in NOTIONS:
        if n == "dependent-dp" and not groups_equal:
            continue
        assert figures_of(got[n]) == figures_of(ref[n]), n
    cond = DDPReading.CONDITIONAL
    cg = audit(model, mech, target, known, eps, delta, ["dependent-dp"], cond)
    cr = audit(joint, mech, target, known, eps, delta, ["dependent-dp"], cond)
    assert figures_of(cg["dependent-dp"]) == figures_of(cr["dependent-dp"])


def _chain_law(data):
    m = data.draw(chains())
    target, *rest = _case(data, m)
    _check(m, target, *rest, groups_equal(m, target))


def _product_law(data):
    m = data.draw(products())
    target, *rest = _case(data, m)
    _check(m, target, *rest, True)


@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_chain_randomized_response_equals_the_full_table_audit(data):
    """Law: on small chains (zeros in the matrices allowed), every notion's ε, δ(ε) and
    ε(δ) for randomized response from the reports around the target equal the table's."""
    _chain_law(data)


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_chain_randomized_response_equals_the_full_table_audit_thorough(data):
    """Law (thorough): the same on more chains."""
    _chain_law(data)


@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_product_randomized_response_is_the_local_one(data):
    """Law: for independent records every notion equals the table's, which is the local
    randomized response on the target (the other reports factor out)."""
    _product_law(data)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_product_randomized_response_is_the_local_one_thorough(data):
    """Law (thorough): the same on more independent records."""
    _product_law(data)


def _eps_equal(a, b):
    if a == sympy.oo or b == sympy.oo:
        return a == b
    return sympy.simplify(sympy.sympify(a) - sympy.sympify(b)) == 0


def _extremes_law(data, max_len):
    m = data.draw(chains(max_binary=max_len, ks=(2,)))
    target, known, keep, _, _ = _case(data, m)
    mech = _rr(m, keep)
    joint = m.to_joint()
    for notions, reading in (
        (["apkdp", "ppkdp"], DDPReading.NEIGHBOURS),
        (["dependent-dp"], DDPReading.CONDITIONAL),
    ):
        with mock.patch.object(srr, "MAX_OUTCOMES", 0):  # force the ε-only programme
            got = audit(m, mech, target, known, [Eps.of(1)], None, notions, reading)
        ref = audit(joint, mech, target, known, [Eps.of(1)], None, notions, reading)
        for n in notions:
            assert _eps_equal(got[n].epsilon, ref[n].epsilon), n
            d = got[n].delta_at_epsilon[0][1]
            if d is not None and d != sympy.oo:  # enclosed between two windows' exact δ
                exact = ref[n].delta_at_epsilon[0][1]
                assert bool(sympy.Rational(d.lo) <= exact) and bool(exact <= sympy.Rational(d.hi))


@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_binary_chain_extremes_give_the_table_epsilon(data):
    """Law: for binary chains of up to 6 records, the ε that the Möbius-map programme
    propagates (max of the past ratio times the target's times the future ratio) equals
    the table audit's ε for apkdp, ppkdp and dependent-dp (conditional)."""
    _extremes_law(data, 6)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_binary_chain_extremes_give_the_table_epsilon_thorough(data):
    """Law (thorough): the same up to 8 records."""
    _extremes_law(data, 8)


def test_symmetric_chain_epsilon_by_hand():
    """T = 2, symmetric stay 3/4, keep 3/4, target x1, nothing known: the output is
    (o1, o2); L = ln R(o1|a)/R(o1|b) + ln beta(a)/beta(b) with
    beta(s) = sum_t P(s,t) R(o2|t). For a = 0, b = 1, o2 = 0: beta = (3/4 3/4 + 1/4 1/4,
    1/4 3/4 + 3/4 1/4) = (5/8, 3/8), so eps = ln 3 + ln 5/3 = ln 5 (hand derivation)."""
    m = MarkovChain(["0", "1"], 2, "stationary", [["3/4", "1/4"], ["1/4", "3/4"]])
    res = audit(m, _rr(m, "3/4"), "x1", [], [], None, ["apkdp"])
    assert sympy.simplify(res["apkdp"].epsilon - sympy.log(5)) == 0


def test_long_chain_reports_epsilon_only_with_the_reason(tmp_path, capsys):
    p, mech = tmp_path / "c.json", tmp_path / "rr.json"
    p.write_text(
        json.dumps(
            {
                "kind": "markov-chain",
                "length": 40,
                "states": ["0", "1"],
                "initial": "stationary",
                "transition": [["9/10", "1/10"], ["1/10", "9/10"]],
            }
        )
    )
    mech.write_text(json.dumps({"kind": "randomized-response", "keep": "3/4"}))
    argv = ["audit", str(p), str(mech), "--target", "x20", "--notions", "apkdp", "--json"]
    assert main([*argv, "--eps", "1"]) == 0
    r = json.loads(capsys.readouterr().out)["notions"]["apkdp"]
    assert r["epsilon"] is not None and "enclosed" in r["note"]
    lo, hi = (Fraction(x) for x in r["delta_at_epsilon"][0]["delta"]["enclosure"])
    assert 0 <= lo <= hi <= 1

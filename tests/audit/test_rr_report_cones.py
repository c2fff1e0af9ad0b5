"""ε of randomized response on chains of three or more states from the extreme rays of
the report cones (:mod:`pdpsym.audit.rr_report_cones`), forced on short chains
(``MAX_OUTCOMES = 0``), against independent references: a brute force written here
(every report vector, its probability by a forward pass in Fractions, Definition 12
applied literally), and the exact listed-segment path of the same module."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from unittest import mock

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import pdpsym.audit.rr_report_windows as srw
import pdpsym.audit.rr_reports as srr
from pdpsym.app.cli import main
from pdpsym.audit import audit
from pdpsym.audit.rr_report_cones import (
    ConeBudget,
    OverBudget,
    chain_max_ratio,
    extreme_rays,
    in_cone,
    propagate,
)
from pdpsym.audit.rr_report_laws import ReportChain
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.mechanisms.discrete import randomized_response
from pdpsym.models.markov import MarkovChain
from pdpsym.models.neighbours import DDPReading

from .test_sum_mechanisms import laws

KEEPS = [Fraction(1, 5), Fraction(1, 2), Fraction(3, 4)]


@st.composite
def chains(draw, k, max_len):
    T = draw(st.integers(2, max_len))
    if draw(st.booleans()):  # every entry positive: a stationary start
        trans = [[(p + 1) / (1 + k) for p in draw(laws(k))] for _ in range(k)]
        return MarkovChain([str(j) for j in range(k)], T, "stationary", trans)
    return MarkovChain(
        [str(j) for j in range(k)], T, draw(laws(k)), [draw(laws(k)) for _ in range(k)]
    )


def _rr(m, keep):
    return randomized_response(keep, [m.domain(v) for v in m.variables])


def _brute_ratio(m, keep, i, known):
    """max over a ≠ b, compatible known values v and report vectors o of
    P(o | x_i = a, x_K = v) / P(o | x_i = b, x_K = v) (None: infinite), by definition:
    P(o, a, v) by a forward pass over the chain clamped at i and K."""
    k, T = m.k, m.length
    other = (1 - keep) / (k - 1)

    def joint(o, clamp):
        f = [m.initial_law[s] if clamp.get(0, s) == s else Fraction(0) for s in range(k)]
        for t in range(T):
            f = [f[s] * (keep if o[t] == s else other) for s in range(k)]
            if t + 1 < T:
                P = m.matrix(t)
                f = [
                    sum((f[s] * P[s][u] for s in range(k)), Fraction(0))
                    if clamp.get(t + 1, u) == u
                    else Fraction(0)
                    for u in range(k)
                ]
        return sum(f, Fraction(0))

    best: Fraction | None = Fraction(1)
    outs = list(itertools.product(range(k), repeat=T))
    for v in itertools.product(range(k), repeat=len(known)):
        probs = {}
        for a in range(k):
            clamp = dict(zip(known, v, strict=True)) | {i: a}
            total = [joint(o, clamp) for o in outs]
            z = sum(total, Fraction(0))
            probs[a] = None if not z else [p / z for p in total]
        for a, b in itertools.permutations(range(k), 2):
            if probs[a] is None or probs[b] is None:
                continue
            for pa, pb in zip(probs[a], probs[b], strict=True):
                if pa and not pb:
                    return None
                if pa and best is not None:
                    best = max(best, pa / pb)
    return best


def _brute_law(data, max_len):
    m = data.draw(chains(3, max_len))
    names = list(m.variables)
    i = data.draw(st.integers(0, m.length - 1))
    rest = [j for j in range(m.length) if j != i]
    known = data.draw(st.lists(st.sampled_from(rest), unique=True, max_size=1)) if rest else []
    keep = data.draw(st.sampled_from(KEEPS))
    with mock.patch.object(srr, "MAX_OUTCOMES", 0):
        got = audit(m, _rr(m, keep), names[i], [names[j] for j in known], [], None, ["apkdp"])
    r = got["apkdp"]
    assert "extreme rays" in r.note
    if r.epsilon is None:  # a cone over its cap of rays: "not computed", and said so
        assert "not computed" in r.note
        return
    want = _brute_ratio(m, keep, i, known)
    if want is None:
        assert r.epsilon == sympy.oo
    else:
        assert (
            sympy.simplify(r.epsilon - sympy.log(sympy.Rational(want.numerator, want.denominator)))
            == 0
        )


@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_three_state_cone_epsilon_equals_the_brute_force(data):
    """Law: on 3-state chains of up to 5 records (zeros in the matrices allowed), APKDP's ε
    from the cones' extreme rays equals the largest ratio over every report vector."""
    _brute_law(data, 5)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_three_state_cone_epsilon_equals_the_brute_force_thorough(data):
    """Law (thorough): the same up to 7 records."""
    _brute_law(data, 7)


def _listed_law(data, k, max_len):
    m = data.draw(chains(k, max_len))
    names = list(m.variables)
    target = data.draw(st.sampled_from(names))
    known = data.draw(
        st.lists(st.sampled_from([v for v in names if v != target]), unique=True, max_size=2)
    )
    keep = data.draw(st.sampled_from(KEEPS))
    mech = _rr(m, keep)
    for notions, reading in (
        (["apkdp", "ppkdp", "np"], DDPReading.NEIGHBOURS),
        (["dependent-dp"], DDPReading.CONDITIONAL),
    ):
        ref = audit(m, mech, target, known, [], None, notions, reading)  # listed segment
        with mock.patch.object(srr, "MAX_OUTCOMES", 0):
            got = audit(m, mech, target, known, [], None, notions, reading)
        for n in notions:
            assert "extreme rays" in got[n].note or got[n].epsilon == sympy.oo, n
            if got[n].epsilon is None:  # a cone over its cap of rays: said so
                assert "not computed" in got[n].note
                continue
            a, b = got[n].epsilon, ref[n].epsilon
            assert a == b or sympy.simplify(a - b) == 0, n


@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_cone_epsilon_equals_the_listed_segment(data):
    """Law: for 3 states (up to 6 records) the cones' ε of apkdp, ppkdp, np and
    dependent-dp (conditional) equals the exact path that lists the segment's reports."""
    _listed_law(data, 3, 6)


@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_four_state_cone_epsilon_equals_the_listed_segment(data):
    """Law: the same for 4 states (the LP-pruned cones), up to 4 records."""
    _listed_law(data, 4, 4)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_cone_epsilon_equals_the_listed_segment_thorough(data):
    """Law (thorough): 3 states up to 7 records, 4 states up to 5."""
    _listed_law(data, 3, 7)
    _listed_law(data, 4, 5)


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_two_state_cone_equals_the_moebius_extremes(data):
    """Law: on binary chains the cone's two extreme rays give the ratio of the Möbius-map
    programme (the existing exact binary path, checked against the table elsewhere)."""
    m = data.draw(chains(2, 12))
    i = data.draw(st.integers(0, m.length - 1))
    keep = data.draw(st.sampled_from(KEEPS))
    ch = ReportChain(m, keep, m.variables[i], [])
    for a, b in ((0, 1), (1, 0)):
        if ch.norms(None, None)[0][a] and ch.norms(None, None)[0][b]:
            assert chain_max_ratio(ch, a, b, None, None, {}) == ch.max_ratio(a, b, None, None)


def test_hull_drops_the_interior_and_collinear_rays():
    """By hand: on the simplex the points of (1,0,0), (0,1,0), (0,0,1) are the vertices;
    (1,1,1) is the centre and (1,1,0) the middle of an edge, so neither is extreme;
    (2,0,0) is the ray of (1,0,0)."""
    got = extreme_rays([(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 1), (1, 1, 0), (2, 0, 0)])
    assert sorted(got) == [(0, 0, 1), (0, 1, 0), (1, 0, 0)]
    # the zero vector (a backward step from unreachable states) generates nothing
    assert extreme_rays([(0, 0, 0), (2, 4, 0)]) == [(1, 2, 0)]


def test_exact_cone_membership_by_hand():
    """By hand: (1,1,1,1) is the sum of the unit vectors; e_1 is not a non-negative
    combination of e_2, e_3, e_4 and (1,1,1,1) - e_1 = (0,1,1,1); (1,2,0,0) is."""
    units = [tuple(int(r == c) for c in range(4)) for r in range(4)]
    assert in_cone((1, 1, 1, 1), units)
    assert not in_cone(units[0], [*units[1:], (0, 1, 1, 1)])
    assert in_cone((1, 2, 0, 0), units[:2])
    got = extreme_rays([*units, (1, 1, 1, 1), (0, 1, 1, 1)])
    assert sorted(got) == sorted(units)


#: docs/examples/chain3x60.json's chain, stationary: its cones keep 3 rays a step
STATIONARY3 = {
    "kind": "markov-chain",
    "states": ["0", "1", "2"],
    "initial": "stationary",
    "transition": [["7/10", "2/10", "1/10"], ["1/10", "8/10", "1/10"], ["1/5", "1/5", "3/5"]],
}


def test_long_three_state_chain_reports_exact_epsilon(tmp_path, capsys):
    """A 3-state chain of 40 records, formerly "not computed": ε is now the exact log of
    a rational from the cones (the note says so) and δ(ε) an enclosure."""
    p, mech = tmp_path / "c.json", tmp_path / "rr.json"
    p.write_text(json.dumps({**STATIONARY3, "length": 40}))
    mech.write_text(json.dumps({"kind": "randomized-response", "keep": "3/4"}))
    argv = ["audit", str(p), str(mech), "--target", "x20", "--notions", "apkdp", "--json"]
    assert main([*argv, "--eps", "1"]) == 0
    r = json.loads(capsys.readouterr().out)["notions"]["apkdp"]
    assert r["epsilon"]["exact"].startswith("log(") and "extreme rays" in r["note"]
    assert r["delta_at_epsilon"][0]["delta"]["enclosure"] and "enclosed" in r["note"]


def test_a_budget_stops_the_propagation_before_the_step_that_passes_it():
    """By hand: from (1, 1, 1) (one ray of 1 bit) with the identity and the swap of the
    first two coordinates, every step keeps the one ray (1, 1, 1) (both maps fix it), and
    each step is charged 1 ray x 3 maps x (3^2 + 10) products x (1 + 1 // 256) = 57
    steps before it runs: a limit of 114 lets two steps run and stops the third."""
    ident = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    swap = [[0, 1, 0], [1, 0, 0], [0, 0, 1]]
    steps = [[ident, swap]] * 3
    assert propagate((1, 1, 1), steps) == [(1, 1, 1)]
    budget = ConeBudget(114)
    assert propagate((1, 1, 1), steps[:2], budget) == [(1, 1, 1)] and budget.spent == 114
    with pytest.raises(OverBudget) as err:
        propagate((1, 1, 1), steps, ConeBudget(114))
    assert err.value.args == (2, 1)  # two steps taken, one ray carried
    with pytest.raises(OverBudget) as err:
        propagate((1, 1, 1), steps, ConeBudget(56))
    assert err.value.args == (0, 1)


GROWING = {  # docs/examples/chain3.json: its cones gain about a ray a step
    "kind": "markov-chain",
    "states": ["0", "1", "2"],
    "initial": ["1/2", "1/4", "1/4"],
    "transition": [["1/2", "1/4", "1/4"], ["1/10", "8/10", "1/10"], ["1/3", "1/3", "1/3"]],
}


def test_the_cones_stop_at_max_work_and_say_so():
    """On a chain whose cones grow, a small ``max_work`` leaves ε uncomputed with a note
    naming the work limit (δ is still enclosed); with no limit the same audit's ε is the
    exact log of a rational from the cones."""
    m = MarkovChain.from_json_object({**GROWING, "length": 60})
    mech = _rr(m, Fraction(3, 5))
    free = audit(m, mech, "x30", (), [Eps.of(1)], None, ["apkdp"])["apkdp"]
    assert "extreme rays" in free.note and free.epsilon is not None
    assert str(free.epsilon).startswith("log(")
    cut = audit(m, mech, "x30", (), [Eps.of(1)], None, ["apkdp"], max_work=10**4)["apkdp"]
    assert cut.epsilon is None and "passed the work limit" in cut.note
    assert cut.delta_at_epsilon[0][1] is not None  # δ enclosed all the same
    with pytest.raises(InputError, match="max_work"):
        audit(m, mech, "x30", (), [Eps.of(1)], None, ["apkdp"], max_work=0)


def test_a_long_three_state_chain_is_estimated_from_the_rays_it_keeps(tmp_path, capsys):
    """``audit`` stops the cones at --max-work, so its estimate assumes the k rays most
    chains keep: a stationary 3-state chain of 1,000 records (3 rays a step, measured) is
    within the default --max-work for apkdp (it takes about 1.5 s); its estimate at the
    most rays that could be carried was 2.8e8 steps, and it was refused."""
    from pdpsym.app.budget import DEFAULT_MAX_WORK  # noqa: PLC0415
    from pdpsym.app.commands import audit_models  # noqa: PLC0415 (the estimate alone)

    m = MarkovChain.from_json_object({**STATIONARY3, "length": 1000})
    mech = _rr(m, Fraction(3, 5))
    args = type("Args", (), {"max_work": None, "ddp_reading": None})()
    _, own, _ = audit_models.check_work(args, m, mech, "x500", (), ["apkdp"], 1, capped=True)
    _, most, _ = audit_models.check_work(args, m, mech, "x500", (), ["apkdp"], 1)
    assert own["apkdp"] < DEFAULT_MAX_WORK < most["apkdp"]


def _window_law(data, k, max_len, outcomes):
    m = data.draw(chains(k, max_len))
    names = list(m.variables)
    target = data.draw(st.sampled_from(names))
    known = data.draw(
        st.lists(st.sampled_from([v for v in names if v != target]), unique=True, max_size=1)
    )
    keep = data.draw(st.sampled_from(KEEPS))
    mech = _rr(m, keep)
    t = Eps.log(2)  # e^ε = 2: every listed δ is rational
    d = Fraction(1, 10)
    for notions, reading in (
        (["apkdp", "ppkdp"], DDPReading.NEIGHBOURS),
        (["dependent-dp"], DDPReading.CONDITIONAL),
    ):
        ref = audit(m, mech, target, known, [t], d, notions, reading)  # the listed segment
        with (
            mock.patch.object(srr, "MAX_OUTCOMES", 0),
            mock.patch.object(srw, "WINDOW_OUTCOMES", outcomes),
        ):
            got = audit(m, mech, target, known, [t], d, notions, reading)
        for n in notions:
            exact = sympy.sympify(ref[n].delta_at_epsilon[0][1])
            enc = got[n].delta_at_epsilon[0][1]
            assert "enclosed" in got[n].note, n
            assert enc.lo <= exact <= enc.hi, n  # exact: e^ε = 2 makes δ rational
            e_exact = ref[n].epsilon_at_delta[1]
            e_enc = got[n].epsilon_at_delta[1]
            if e_enc is None or e_enc == sympy.oo:  # an end infinite: the exact one is
                assert e_enc is None or e_exact == sympy.oo, n  # infinite when both are
                continue
            assert bool(sympy.Rational(e_enc.lo) <= e_exact) and bool(
                e_exact <= sympy.Rational(e_enc.hi)
            ), n


@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_window_enclosures_contain_the_listed_delta(data):
    """Law: with the segment forced unlisted, δ at ε = ln 2 and ε at δ = 1/10 of apkdp,
    ppkdp and dependent-dp (conditional) are enclosed
    between the window's reports and the window with its boundary states, and the
    enclosure contains the exact figures of the listed segment (binary windows of 3
    reports, 3-state windows of 1)."""
    _window_law(data, data.draw(st.sampled_from([2, 3])), 6, 32)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_window_enclosures_contain_the_listed_delta_thorough(data):
    """Law (thorough): the same with wider windows."""
    k = data.draw(st.sampled_from([2, 3]))
    _window_law(data, k, 7, data.draw(st.sampled_from([16, 64, 256])))

"""audit() against brute forces over the definitions, written here in plain Fractions.

Nothing below calls pdpsym's curve, notions or conditioning code to get an expected
value: the brute forces enumerate databases, condition by hand and sum the hockey-stick
``Σ_o max(0, P(o) - t Q(o))`` (Desfontaines et al. Lemma 1) at ``t = e^ε`` rational
(ε = ln q), or take the largest likelihood ratio for δ = 0.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.eq2_leakage import eq2_bruteforce

import pdpsym as ps
from pdpsym.audit import audit
from pdpsym.mechanisms import discrete
from pdpsym.mechanisms.finite import post_process

# --- the brute force ---------------------------------------------------------------------


def joint(model):
    return {tuple(d): p for d, p in model.probs.items() if p}


def cond_out(model, mech, fix):
    """Law of M(D) given D[j] = v for every (j, v) in fix; None if impossible."""
    out, z = {}, F(0)
    for d, p in joint(model).items():
        if all(d[j] == v for j, v in fix):
            z += p
            for o, q in mech(d).items():
                out[o] = out.get(o, F(0)) + p * q
    return None if z == 0 else {o: v / z for o, v in out.items()}


def hockey(P, Q, t):
    return sum((max(F(0), P.get(o, F(0)) - t * Q.get(o, F(0))) for o in set(P) | set(Q)), F(0))


def worst_ratio(pairs):
    best = F(1)
    for P, Q in pairs:
        for o, p in P.items():
            if p and not Q.get(o):
                return None
            if p:
                best = max(best, p / Q[o])
    return best


def apk_pairs(model, mech, i, K):
    vals = sorted({d[i] for d in joint(model)})
    kvals = sorted({tuple(d[k] for k in K) for d in joint(model)})
    for a, b in itertools.permutations(vals, 2):
        for bh in kvals:
            P = cond_out(model, mech, [(i, a), *zip(K, bh)])
            Q = cond_out(model, mech, [(i, b), *zip(K, bh)])
            if P is not None and Q is not None:
                yield P, Q


def ppk_delta(model, mech, i, K, t):
    vals = sorted({d[i] for d in joint(model)})
    kvals = sorted({tuple(d[k] for k in K) for d in joint(model)})
    jt = joint(model)
    best = F(0)
    for a, b in itertools.permutations(vals, 2):
        pa = sum((p for d, p in jt.items() if d[i] == a), F(0))
        tot = F(0)
        for bh in kvals:
            w = sum((p for d, p in jt.items() if d[i] == a and tuple(d[k] for k in K) == bh), F(0))
            if not w:
                continue
            P = cond_out(model, mech, [(i, a), *zip(K, bh)])
            Q = cond_out(model, mech, [(i, b), *zip(K, bh)]) or {}
            tot += w / pa * hockey(P, Q, t)
        best = max(best, tot)
    return best


def dp_pairs(model, mech, i):
    for d in itertools.product(*model.domains):
        for b in model.domains[i]:
            if b != d[i]:
                e = tuple(b if j == i else x for j, x in enumerate(d))
                yield mech(d), mech(e)


def rat(x) -> F:
    # at e^eps = q rational every delta is an exact rational (a sympy Rational)
    assert isinstance(x, sympy.Rational), x
    return F(int(x.p), int(x.q))


def figures(model, mech, target, known, qs):
    a = audit(
        model,
        mech,
        target,
        known,
        eps=[ps.Eps.log(q) for q in qs],
        notions=["dp", "apkdp", "ppkdp"],
    )
    return {r.notion: r for r in a.results}


CORRELATED3 = ps.JointDistribution.from_rows(
    ["x1", "x2", "x3"],
    [
        [0, 0, 0, "1/4"],
        [0, 0, 1, "1/8"],
        [0, 1, 1, "1/8"],
        [1, 1, 1, "1/4"],
        [1, 1, 0, "1/8"],
        [1, 0, 0, "1/8"],
    ],
)


def bernoulli3(p: F) -> ps.JointDistribution:
    rows = []
    for c in itertools.product((0, 1), repeat=3):
        w = F(1)
        for x in c:
            w *= p if x else 1 - p
        rows.append([*c, w])
    return ps.JointDistribution.from_rows(["x1", "x2", "x3"], rows)


def _compare(model, mech, target, known_names, qs=(F(2), F(3, 2))):
    i = model.variables.index(target)
    K = [model.variables.index(k) for k in known_names]
    got = figures(model, mech, target, known_names, qs)
    apk = list(apk_pairs(model, mech, i, K))
    dps = list(dp_pairs(model, mech, i))
    for name, pairs in (("apkdp", apk), ("dp", dps)):
        r = worst_ratio(pairs)
        want = sympy.oo if r is None else sympy.log(sympy.Rational(r.numerator, r.denominator))
        assert got[name].epsilon == want or sympy.simplify(got[name].epsilon - want) == 0, name
        for (_, d, _), q in zip(got[name].delta_at_epsilon, qs, strict=True):
            assert rat(d) == max(hockey(P, Q, q) for P, Q in pairs), (name, q)
    for (_, d, _), q in zip(got["ppkdp"].delta_at_epsilon, qs, strict=True):
        assert rat(d) == ppk_delta(model, mech, i, K, q), ("ppkdp", q)


def test_randomized_response_on_a_correlated_three_record_model() -> None:
    rr = discrete.randomized_response("3/4", CORRELATED3.domains)
    for known in ([], ["x3"], ["x2", "x3"]):
        _compare(CORRELATED3, rr, "x1", known)


def test_thresholding_of_independent_bernoulli_records() -> None:
    m = bernoulli3(F(1, 4))
    thr = discrete.threshold(1)
    _compare(m, thr, "x1", [])
    _compare(m, thr, "x1", ["x2"])


def test_laplace_apkdp_is_eq2_leakage_and_the_mpmath_brute_force() -> None:
    lap = ps.mechanisms.laplace(1)
    a = audit(CORRELATED3, lap, "x1", ["x3"], notions=["apkdp"])
    want = ps.leakage(CORRELATED3, "x1", ["x3"], 1).expression()
    assert sympy.simplify(a["apkdp"].epsilon - want) == 0
    brute = eq2_bruteforce(CORRELATED3, "x1", ("x3",), F(1))
    with mpmath.workdps(40):
        assert abs(mpmath.mpf(str(sympy.N(want, 40))) - brute) < mpmath.mpf(10) ** -20


# --- properties ----------------------------------------------------------------------------


@st.composite
def instances(draw, sizes=(2, 3)):
    """A full-support 2- or 3-record binary model and a random two-output table mechanism."""
    n = draw(st.sampled_from(sizes))
    cells = list(itertools.product((0, 1), repeat=n))
    w = [draw(st.integers(1, 6)) for _ in cells]
    model = ps.JointDistribution.from_rows(
        [f"x{k + 1}" for k in range(n)], [[*c, F(x, sum(w))] for c, x in zip(cells, w)]
    )
    rows = {}
    for c in cells:
        p = F(draw(st.integers(0, 4)), 4)
        rows[tuple(F(x) for x in c)] = {"lo": p, "hi": 1 - p}
    return model, discrete.table(rows)


QS = (F(1), F(3, 2), F(2), F(3))


@settings(max_examples=40, deadline=None)
@given(instances())
def test_apkdp_delta_is_at_least_ppkdp_delta(inst) -> None:
    # Desfontaines et al. Theorem 1: PPK = E[APK] <= max APK
    model, mech = inst
    got = figures(model, mech, "x1", ["x2"], QS)
    for (_, a, _), (_, p, _) in zip(got["apkdp"].delta_at_epsilon, got["ppkdp"].delta_at_epsilon):
        assert rat(a) >= rat(p)


@settings(max_examples=40, deadline=None)
@given(instances())
def test_delta_is_non_increasing_in_epsilon(inst) -> None:
    model, mech = inst
    for r in figures(model, mech, "x1", [], QS).values():
        ds = [rat(d) for _, d, _ in r.delta_at_epsilon]
        assert all(x >= y for x, y in zip(ds, ds[1:]))


@settings(max_examples=30, deadline=None)
@given(instances(), st.integers(0, 4))
def test_post_processing_never_increases_a_notion(inst, k) -> None:
    model, mech = inst
    p = F(k, 4)
    kernel = {"lo": {"A": p, "B": 1 - p}, "hi": {"A": 1 - p, "B": p}}
    post = post_process(mech, lambda o: kernel[o])
    before = figures(model, mech, "x1", ["x2"], QS)
    after = figures(model, post, "x1", ["x2"], QS)
    for name in before:
        for (_, a, _), (_, b, _) in zip(
            before[name].delta_at_epsilon, after[name].delta_at_epsilon
        ):
            assert rat(b) <= rat(a), name


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=2, max_size=2), instances(sizes=(2,)))
def test_apkdp_equals_dp_when_all_other_records_are_known_on_a_product_model(ws, inst) -> None:
    _, mech = inst
    n = 2
    p1, p2 = F(ws[0], 6), F(ws[1], 6)
    model = ps.JointDistribution.from_rows(
        ["x1", "x2"],
        [[a, b, (p1 if a else 1 - p1) * (p2 if b else 1 - p2)] for a in (0, 1) for b in (0, 1)],
    )
    assert n == len(model.variables)
    got = figures(model, mech, "x1", ["x2"], QS)
    assert [rat(d) for _, d, _ in got["apkdp"].delta_at_epsilon] == [
        rat(d) for _, d, _ in got["dp"].delta_at_epsilon
    ]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=2, max_size=2), instances(sizes=(2,)))
def test_dp_bounds_apkdp_for_independent_records_and_no_knowledge(ws, inst) -> None:
    _, mech = inst
    p1, p2 = F(ws[0], 6), F(ws[1], 6)
    model = ps.JointDistribution.from_rows(
        ["x1", "x2"],
        [[a, b, (p1 if a else 1 - p1) * (p2 if b else 1 - p2)] for a in (0, 1) for b in (0, 1)],
    )
    got = figures(model, mech, "x1", [], QS)
    for (_, a, _), (_, d, _) in zip(got["apkdp"].delta_at_epsilon, got["dp"].delta_at_epsilon):
        assert rat(d) >= rat(a)


def test_classic_dp_agrees_with_dp_accounting_on_a_product_model() -> None:
    # Independent records with B = every other record: apkdp = dp (Desfontaines et al.);
    # randomized response on x1 (keep 3/4) then is the two-point pair (3/4, 1/4) vs
    # (1/4, 3/4), whose delta(eps) Google's dp_accounting computes from the two PMFs.
    import math

    import pytest

    pld = pytest.importorskip("dp_accounting.pld.privacy_loss_distribution")
    model = bernoulli3(F(1, 3))
    rr = discrete.randomized_response("3/4", model.domains)
    eps = F(1, 2)
    a = audit(model, rr, "x1", ["x2", "x3"], eps=[eps], notions=["dp", "apkdp"])
    ours = [float(sympy.N(r.delta_at_epsilon[0][1], 30)) for r in a.results]
    peer = pld.from_two_probability_mass_functions(
        {0: math.log(0.75), 1: math.log(0.25)},
        {0: math.log(0.25), 1: math.log(0.75)},
        pessimistic_estimate=True,
        value_discretization_interval=1e-6,
    )
    theirs = peer.get_delta_for_epsilon(float(eps))
    assert ours[0] == ours[1]  # apkdp = dp here
    assert ours[0] <= theirs * (1 + 1e-12) and theirs - ours[0] <= 1e-4

"""The law-free upper end from dp (:mod:`pdpsym.audit.class_dp_bound`): at random laws
inside random boxes, distributional-dp and ibcdp computed by brute force IN THIS FILE
never exceed the class audit's upper end.

Independent sources: the databases enumerated in Fractions; distributional-dp's best
simulator by a linear programme solved by scipy's ``linprog`` (floats: only the
inequality ``brute force <= upper end`` is tested, with a tolerance); ibcdp's posteriors
given each output in Fractions (hockey sticks in floats, ``e^eps`` by ``math.exp``).
Geometric noise ``alpha = 1/2`` on the count: its outputs beyond the sums' range are
lumped into two tails, where every law's mass has the same shape ``alpha^|t|`` (a
post-processing that a simulator can undo by spreading over the tail in that shape, so
the LP's optimum is unchanged; and the posteriors there equal those at the ends).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from pdpsym.audit.class_audit import LOWER, ClassFigure, ClassNotion
from pdpsym.audit.class_audit_interval import interval_class_audit
from pdpsym.audit.class_dp_bound import ENCLOSED, OPEN, dp_enclosed
from pdpsym.mechanisms.sum_kernels import CountSum, GeometricSum
from pdpsym.models.law_class import IntervalChain, IntervalProduct

ALPHA = F(1, 2)


def _kernel(s, lo, hi):
    """Geometric noise on the integer ``s`` in ``[lo, hi]``: outputs ``lo..hi``, the ends
    lumping the tails (``P(t <= lo) = alpha^(s - lo) / (1 + alpha)``)."""
    c = (1 - ALPHA) / (1 + ALPHA)
    out = {}
    for t in range(lo, hi + 1):
        if t == lo:
            out[t] = ALPHA ** (s - lo) / (1 + ALPHA)
        elif t == hi:
            out[t] = ALPHA ** (hi - s) / (1 + ALPHA)
        else:
            out[t] = c * ALPHA ** abs(t - s)
    if lo == hi:
        out[lo] = F(1)
    return out


def _lp_delta(groups, eps):
    """min over simulators of max over the groups of both hockey sticks: ``groups`` is a
    list of ``(pi, P)`` with ``pi`` the law of the rest and ``P`` the output law."""
    rests = sorted({r for pi, _ in groups for r in pi})
    outs = sorted({t for _, p in groups for t in p})
    nr, no, ng = len(rests), len(outs), len(groups)
    nsim = nr * no
    nvar = nsim + 1 + 2 * ng * no  # Sim, z, y1, y2
    e = math.exp(eps)
    a_ub, b_ub = [], []

    def y(k, a, t):
        return nsim + 1 + (k * ng + a) * no + t

    for a, (pi, p) in enumerate(groups):
        for ti, t in enumerate(outs):
            row = np.zeros(nvar)  # P - e S <= y1
            row[y(0, a, ti)] = -1
            for ri, r in enumerate(rests):
                row[ri * no + ti] = -e * float(pi.get(r, 0))
            a_ub.append(row)
            b_ub.append(-float(p.get(t, 0)))
            row = np.zeros(nvar)  # S - e P <= y2
            row[y(1, a, ti)] = -1
            for ri, r in enumerate(rests):
                row[ri * no + ti] = float(pi.get(r, 0))
            a_ub.append(row)
            b_ub.append(e * float(p.get(t, 0)))
        for k in (0, 1):
            row = np.zeros(nvar)
            row[nsim] = -1
            for ti in range(no):
                row[y(k, a, ti)] = 1
            a_ub.append(row)
            b_ub.append(0.0)
    a_eq = np.zeros((nr, nvar))
    for ri in range(nr):
        a_eq[ri, ri * no : (ri + 1) * no] = 1
    cost = np.zeros(nvar)
    cost[nsim] = 1
    res = linprog(cost, A_ub=np.array(a_ub), b_ub=b_ub, A_eq=a_eq, b_eq=np.ones(nr))
    assert res.status == 0
    return res.fun


def _groups(dbs, i, lo, hi):
    """Per value ``a`` of the target: the law of the rest and the output law."""
    out = {}
    for d, p in dbs.items():
        if not p:
            continue
        pi, law = out.setdefault(d[i], ({}, {}))
        r = d[:i] + d[i + 1 :]
        pi[r] = pi.get(r, F(0)) + p
        for t, q in _kernel(sum(d), lo, hi).items():
            law[t] = law.get(t, F(0)) + p * q
    tot = {a: sum(pi.values()) for a, (pi, _) in out.items()}
    return [
        ({r: q / tot[a] for r, q in pi.items()}, {t: q / tot[a] for t, q in law.items()})
        for a, (pi, law) in out.items()
    ]


def _chain_dbs(T, x0, x1):
    init1 = x0 / (x0 + 1 - x1)  # stationary P(x = 1)
    row = {0: x0, 1: x1}
    out = {}
    for d in itertools.product((0, 1), repeat=T):
        p = init1 if d[0] else 1 - init1
        for s, t in itertools.pairwise(d):
            p *= row[s] if t else 1 - row[s]
        out[d] = p
    return out


def _chain(T, r0, r1):
    return IntervalChain.from_json_object(
        {
            "kind": "interval-markov-chain",
            "length": T,
            "states": ["0", "1"],
            "initial": "stationary",
            "transition": [
                [[str(1 - r0[1]), str(1 - r0[0])], [str(r0[0]), str(r0[1])]],
                [[str(1 - r1[1]), str(1 - r1[0])], [str(r1[0]), str(r1[1])]],
            ],
        }
    )


def _box(draw, lo, hi):
    a = draw(st.integers(lo, hi))
    return F(a, 10), F(min(a + draw(st.integers(0, 3)), hi), 10)


def _inside(draw, box):
    return box[0] + (box[1] - box[0]) * F(draw(st.integers(0, 8)), 8)


@st.composite
def chain_cases(draw):
    T = draw(st.integers(2, 4))
    r0, r1 = _box(draw, 1, 6), _box(draw, 3, 9)
    law = (_inside(draw, r0), _inside(draw, r1))
    return T, r0, r1, law, draw(st.integers(1, T)), draw(st.sampled_from([F(0), F(1, 4)]))


def _upper(fig):
    assert fig.status != LOWER and isinstance(fig.bounds, tuple)
    return fig.bounds[1]


def _chain_check(T, r0, r1, law, target, eps):
    cls = _chain(T, r0, r1)
    mech = GeometricSum(alpha=ALPHA)
    res = interval_class_audit(
        cls, mech, f"x{target}", [], [eps], None, ["distributional-dp"], grid=2
    )
    row = res.notions[0]
    # the law drawn and the box's corners (where the leakage is often largest)
    for theta in [law, *itertools.product(r0, r1)]:
        groups = _groups(_chain_dbs(T, *theta), target - 1, 0, T)
        brute = _lp_delta(groups, float(eps))
        assert brute <= float(_upper(row.delta_at_epsilon[0][1])) + 1e-7, theta
        # ε (δ = 0): at the upper end a simulator meets every ratio (δ of the LP is 0)
        assert _lp_delta(groups, float(_upper(row.epsilon))) <= 1e-7, theta


@settings(max_examples=3, deadline=None)
@given(chain_cases())
def test_distributional_dp_on_a_chain_below_the_upper_end(case):
    _chain_check(*case)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(chain_cases())
def test_distributional_dp_on_a_chain_below_the_upper_end_thorough(case):
    _chain_check(*case)


# --- interval products, a 3-valued target -------------------------------------------


def _product(rows):
    return IntervalProduct.from_json_object(
        {
            "kind": "interval-product",
            "records": [
                {
                    "values": [str(v) for v in range(len(r))],
                    "probs": [[str(a), str(b)] for a, b in r],
                }
                for r in rows
            ],
        }
    )


@st.composite
def product_cases(draw):
    n = draw(st.integers(2, 4))
    rows, law = [], []
    for j in range(n):
        k = 3 if j == 0 else 2
        # a box around a law drawn first: the law is inside by construction
        p = [F(draw(st.integers(1, 6))) for _ in range(k)]
        p = [x / sum(p) for x in p]
        w = [F(draw(st.integers(0, 2)), 10) for _ in range(k)]
        rows.append([(max(x - dw, F(0)), min(x + dw, F(1))) for x, dw in zip(p, w, strict=True)])
        law.append(p)
    return rows, law, draw(st.sampled_from([F(0), F(1, 4), F(1)]))


def _product_dbs(law):
    out = {}
    for d in itertools.product(*(range(len(p)) for p in law)):
        out[d] = math.prod((p[v] for p, v in zip(law, d, strict=True)), start=F(1))
    return out


def _ibcdp(law, eps, lo, hi):
    """ibcdp's δ(eps) and ε (δ = 0) of a product member, target record 0 (no known
    records): the posterior of ``x_0`` given ``M(D) = t`` against the one given
    ``M(D_{0→b}) = t``, every ``b`` and ``t``, both ways."""
    dbs = _product_dbs(law)
    e = math.exp(eps)
    delta, ratio = 0.0, 0.0
    for b in range(len(law[0])):
        for t in range(lo, hi + 1):
            u1 = {a: F(0) for a in range(len(law[0]))}
            u2 = dict(u1)
            for d, p in dbs.items():
                u1[d[0]] += p * _kernel(sum(d), lo, hi)[t]
                u2[d[0]] += p * _kernel(sum(d) - d[0] + b, lo, hi)[t]
            s1, s2 = sum(u1.values()), sum(u2.values())
            post1 = {a: float(u1[a] / s1) for a in u1}
            post2 = {a: float(u2[a] / s2) for a in u2}
            for x, z in ((post1, post2), (post2, post1)):
                delta = max(delta, sum(max(0.0, x[a] - e * z[a]) for a in x))
                ratio = max(ratio, max(math.log(x[a] / z[a]) for a in x if x[a] > 0))
    return delta, ratio


def _product_check(rows, law, eps):
    cls = _product(rows)
    mech = GeometricSum(alpha=ALPHA)
    res = interval_class_audit(cls, mech, "x1", [], [eps], None, ["ibcdp", "distributional-dp"])
    ib, dist = res.notions
    hi = 2 + len(rows) - 1
    delta, ratio = _ibcdp(law, float(eps), 0, hi)
    assert delta <= float(_upper(ib.delta_at_epsilon[0][1])) + 1e-9
    assert ratio <= float(_upper(ib.epsilon)) + 1e-9
    groups = _groups(_product_dbs(law), 0, 0, hi)
    assert _lp_delta(groups, float(eps)) <= float(_upper(dist.delta_at_epsilon[0][1])) + 1e-7
    assert _lp_delta(groups, float(_upper(dist.epsilon))) <= 1e-7


@settings(max_examples=3, deadline=None)
@given(product_cases())
def test_ibcdp_and_distributional_dp_on_a_product_below_the_upper_end(case):
    _product_check(*case)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(product_cases())
def test_ibcdp_and_distributional_dp_on_a_product_below_the_upper_end_thorough(case):
    _product_check(*case)


def test_upper_ends_by_hand():
    # hand derivation: geometric noise alpha = 1/2 on the count, a target of values
    # 0, 1, 2: dp's eps = 2 ln 2 (the shift 2), so distributional-dp's eps is at most
    # 2 ln 2 and ibcdp's at most 4 ln 2; at eps = 1/4 ibcdp's delta is at most
    # 1 - e^{1/4 - 4 ln 2} = 1 - e^{1/4} / 16
    rows = [[(F(1, 4), F(1, 2)), (F(1, 4), F(1, 2)), (F(1, 4), F(1, 4))]]
    rows.append([(F(1, 4), F(3, 4)), (F(1, 4), F(3, 4))])
    cls = _product(rows)
    notions = ["ibcdp", "distributional-dp"]
    res = interval_class_audit(cls, GeometricSum(alpha=ALPHA), "x1", [], [F(1, 4)], None, notions)
    ib, dist = res.notions
    ln2 = math.log(2)
    assert float(ib.delta_at_epsilon[0][1].bounds[1]) == pytest.approx(1 - math.exp(0.25) / 16)
    assert float(ib.delta_at_epsilon[0][1].bounds[0]) < 1 - math.exp(0.25) / 16
    assert float(dist.epsilon.bounds[1]) == pytest.approx(2 * ln2)
    assert float(dist.epsilon.bounds[0]) < 2 * ln2


def test_an_infinite_dp_leaves_the_upper_end_one():
    # hand derivation: the noiseless count's dp has delta(eps) = 1 (two point masses
    # apart): the upper end of ibcdp's delta is 1, the lower end the members' max
    model = {
        "kind": "interval-product",
        "records": [
            {"values": ["0", "1", "2"], "probs": [["1/4", "1/2"], ["1/4", "1/2"], ["1/4", "1/4"]]},
            {"values": ["0", "1"], "probs": [["1/4", "3/4"], ["1/4", "3/4"]]},
        ],
    }
    cls = IntervalProduct.from_json_object(model)
    res = interval_class_audit(cls, CountSum(), "x1", [], [F(1, 4)], None, ["ibcdp"])
    fig = res.notions[0].delta_at_epsilon[0][1]
    assert fig.status == ENCLOSED and fig.bounds[1] == 1 and fig.bounds[0] < 1


def test_an_infinite_dp_eps_gives_an_open_enclosure():
    # hand derivation (dp_enclosed's docstring): dp's eps infinite bounds nothing, so a
    # lower-bound eps becomes [lo, infinity) (OPEN) and a delta's upper end 1; with dp's
    # eps = 1/2, ibcdp's eps is at most 1 and distributional-dp's at most 1/2
    low = ClassFigure((F(1, 10), F(1, 10)), 0, LOWER)
    row = ClassNotion("distributional-dp", low, ((F(1), low),), (F(1, 10), low))
    dp = ClassNotion("dp", ClassFigure("inf", 0), ((F(1), ClassFigure((F(1), F(1)), 0)),), None)
    out = dp_enclosed(row, dp)
    assert out.epsilon.status == OPEN and out.epsilon.bounds == (F(1, 10), F(1, 10))
    assert out.delta_at_epsilon[0][1] == ClassFigure((F(1, 10), F(1)), 0, ENCLOSED)
    assert out.epsilon_at_delta[1].status == OPEN  # no dp figure: no finite upper end
    half = ClassNotion("dp", ClassFigure((F(1, 2), F(1, 2)), 0), ((F(1), low),), None)
    ib = dp_enclosed(ClassNotion("ibcdp", low, (), None), half)
    assert ib.epsilon == ClassFigure((F(1, 10), F(1)), 0, ENCLOSED)
    assert dp_enclosed(row, half).epsilon == ClassFigure((F(1, 10), F(1, 2)), 0, ENCLOSED)

"""audit()'s cdp against a brute force over Desfontaines et al. Definition 5, written here
in plain Fractions: M(D) | D(i)=a against M(D_{i->b}) | D(i)=a, both directions, no
known records; hockey-stick Σ_o max(0, P(o) - t Q(o)) at t = e^ε = 2 (ε = ln 2)."""

from __future__ import annotations

from fractions import Fraction as F

import sympy

import pdpsym as ps
from pdpsym.audit import audit
from pdpsym.core.eps import Eps
from pdpsym.mechanisms import discrete

ROWS = [
    [0, 0, 0, "1/4"],
    [0, 1, 1, "1/8"],
    [1, 1, 1, "3/8"],
    [1, 0, 1, "1/8"],
    [0, 0, 1, "1/8"],
]


def _mix(model, mech, a, b):
    out: dict = {}
    z = sum(F(p) for d, p in model.probs.items() if p and d[0] == a)
    for d, p in model.probs.items():
        if p and d[0] == a:
            for o, q in mech((b, *tuple(d)[1:])).items():
                out[o] = out.get(o, F(0)) + F(p) / z * q
    return out


def _hs(p, q, t):
    return sum((max(F(0), p.get(o, F(0)) - t * q.get(o, F(0))) for o in set(p) | set(q)), F(0))


def test_cdp_on_a_correlated_three_record_model_with_randomized_response() -> None:
    model = ps.JointDistribution.from_rows(["x1", "x2", "x3"], ROWS)
    mech = discrete.randomized_response("3/4", [[0, 1]] * 3)
    pairs = []
    for a in (0, 1):
        for b in (0, 1):
            if a != b:
                p, q = _mix(model, mech, a, a), _mix(model, mech, a, b)
                pairs += [(p, q), (q, p)]
    want_ratio = max(p[o] / q[o] for p, q in pairs for o in p if p[o])
    want_delta = max(_hs(p, q, F(2)) for p, q in pairs)
    r = audit(model, mech, target="x1", eps=[Eps.log(2)], notions=["cdp"])["cdp"]
    assert (
        sympy.simplify(
            r.epsilon - sympy.log(sympy.Rational(want_ratio.numerator, want_ratio.denominator))
        )
        == 0
    )
    ((_, d, _),) = r.delta_at_epsilon
    assert sympy.simplify(d - sympy.Rational(want_delta.numerator, want_delta.denominator)) == 0


def _posterior(model, mech, b, t):
    # P[D(1) = a | output t], the mechanism run on D with D(1) replaced by b (None: as is)
    w: dict = {}
    for d, p in model.probs.items():
        if p:
            db = tuple(d) if b is None else (b, *tuple(d)[1:])
            w[d[0]] = w.get(d[0], F(0)) + F(p) * mech(db).get(t, F(0))
    z = sum(w.values())
    return None if z == 0 else {a: v / z for a, v in w.items()}


def test_ibcdp_on_a_correlated_three_record_model_with_randomized_response() -> None:
    # Desfontaines et al. Definition 6: posteriors of D(i) given M(D)=t and M(D_{i->b})=t
    model = ps.JointDistribution.from_rows(["x1", "x2", "x3"], ROWS)
    mech = discrete.randomized_response("3/4", [[0, 1]] * 3)
    outs = {o for d in model.probs for o in mech(tuple(d))}
    pairs = []
    for b in (0, 1):
        for t in outs:
            p, q = _posterior(model, mech, None, t), _posterior(model, mech, b, t)
            if p is not None and q is not None:
                pairs += [(p, q), (q, p)]
    want_ratio = max(p[o] / q[o] for p, q in pairs for o in p if p[o])
    want_delta = max(_hs(p, q, F(2)) for p, q in pairs)
    r = audit(model, mech, target="x1", eps=[Eps.log(2)], notions=["ibcdp"])["ibcdp"]
    want = sympy.log(sympy.Rational(want_ratio.numerator, want_ratio.denominator))
    assert sympy.simplify(r.epsilon - want) == 0
    ((_, d, _),) = r.delta_at_epsilon
    assert sympy.simplify(d - sympy.Rational(want_delta.numerator, want_delta.denominator)) == 0


def test_dependent_dp_conditional_reading_on_the_correlated_model() -> None:
    # Liu et al. Eq. 11-12 read as the laws of M(D) given D(i) = v1 against D(i) = v2
    from pdpsym.models.neighbours import DDPReading

    model = ps.JointDistribution.from_rows(["x1", "x2", "x3"], ROWS)
    mech = discrete.randomized_response("3/4", [[0, 1]] * 3)
    p, q = _mix(model, mech, 0, 0), _mix(model, mech, 1, 1)
    pairs = [(p, q), (q, p)]
    want_ratio = max(x[o] / y[o] for x, y in pairs for o in x if x[o])
    want_delta = max(_hs(x, y, F(2)) for x, y in pairs)
    r = audit(
        model,
        mech,
        target="x1",
        eps=[Eps.log(2)],
        notions=["dependent-dp"],
        reading=DDPReading.CONDITIONAL,
    )["dependent-dp"]
    want = sympy.log(sympy.Rational(want_ratio.numerator, want_ratio.denominator))
    assert sympy.simplify(r.epsilon - want) == 0
    ((_, d, _),) = r.delta_at_epsilon
    assert sympy.simplify(d - sympy.Rational(want_delta.numerator, want_delta.denominator)) == 0

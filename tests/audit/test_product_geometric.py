"""The ball cases of independent records under two-sided geometric noise
(pdpsym.audit.product_shifts with pdpsym.loss.geometric_shift) against two references:
the full-joint-table engine (``audit`` on ``model.to_joint()`` with
``mechanisms.discrete.geometric``, which lists every database and its lumped output PMF:
independent of the count laws and of the balls) on small models, and the exact geometric
mixtures of the structured engine (the path used up to EXACT_RECORDS records) on 30
records. The ball path is forced on small models by lowering EXACT_RECORDS."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from product_cases import balls_forced, figures, products

from pdpsym.audit import audit
from pdpsym.audit.product_shifts import GEOMETRIC_BALL_NOTE, applies
from pdpsym.core.certify import certify
from pdpsym.core.eps import Eps
from pdpsym.loss.geometric_shift import GeometricShiftDelta
from pdpsym.mechanisms.discrete import geometric
from pdpsym.mechanisms.sum_kernels import GeometricSum
from pdpsym.models.neighbours import DDPReading
from pdpsym.models.product import ProductModel

NOTIONS = ["apkdp", "ppkdp", "np", "cdp"]
HALF = Fraction(1, 2)


@settings(max_examples=10)  # each example audits three ways (a few hundred ms)
@given(model=products(), data=st.data())
def test_against_the_full_joint_table(model: ProductModel, data: st.DataObject) -> None:
    names = list(model.variables)
    target = data.draw(st.sampled_from(names))
    rest = [v for v in names if v != target]
    known = data.draw(st.lists(st.sampled_from(rest), unique=True, max_size=2))
    weights = {v: data.draw(st.integers(-1, 2)) for v in names}
    alpha = data.draw(st.sampled_from([Fraction(1, 3), HALF, Fraction(4, 5)]))
    eps = [Eps.of(data.draw(st.sampled_from([Fraction(0), Fraction(1, 5), Fraction(2)])))]
    joint = model.to_joint()
    # the joint engine's range of f: the extremes of the weighted sum over every database
    lo = sum(min(w * x for x in model.domain(v)) for v, w in weights.items())
    hi = sum(max(w * x for x in model.domain(v)) for v, w in weights.items())
    sm = GeometricSum({v: Fraction(w) for v, w in weights.items()}, alpha=alpha)
    jm = geometric(alpha, int(lo), int(hi), [weights[v] for v in joint.variables])
    got = balls_forced(lambda: audit(model, sm, target, known, eps, None, NOTIONS))
    ref = audit(joint, jm, target, known, eps, None, NOTIONS)
    same = audit(model, sm, target, known, eps, None, NOTIONS)  # the exact mixtures
    for n in NOTIONS:
        g, r = figures(got[n]), figures(ref[n])
        assert g[0] == r[0] and [d for d, _ in g[1]] == [d for d, _ in r[1]], n
        assert g == figures(same[n]), n
    cond = DDPReading.CONDITIONAL
    got_c = balls_forced(lambda: audit(model, sm, target, known, eps, None, ["dependent-dp"], cond))
    ref_c = audit(joint, jm, target, known, eps, None, ["dependent-dp"], cond)
    g, r = figures(got_c["dependent-dp"]), figures(ref_c["dependent-dp"])
    assert g[0] == r[0] and [d for d, _ in g[1]] == [d for d, _ in r[1]]


def thirty() -> ProductModel:
    rng = random.Random(30)
    return ProductModel.bernoulli([Fraction(k, 1000) for k in rng.sample(range(1, 1000), 30)])


@pytest.mark.parametrize("notion", ["apkdp", "ppkdp", "cdp", "np"])
def test_thirty_records_against_the_exact_mixtures(notion: str) -> None:
    # the exact geometric mixtures (the engine up to 50 records) as the reference: the
    # same 25 digits and witnesses, δ below and at ε_0 = ln 2, and ε at a δ
    model = thirty()
    mech = GeometricSum(None, alpha=HALF)
    eps = [Eps.of(Fraction(1, 4)), Eps.log(2)]
    args = (model, mech, "x5", ["x1", "x2"], eps, Fraction(1, 10**6), [notion])
    exact = audit(*args)[notion]
    balls = balls_forced(lambda: audit(*args))[notion]
    assert figures(balls) == figures(exact)
    assert balls.note == GEOMETRIC_BALL_NOTE and exact.note != GEOMETRIC_BALL_NOTE


def test_epsilon_at_delta_zero_is_the_shift_times_ln_one_over_alpha() -> None:
    # hand derivation: a binary target of weight 3 moves the sum by 3; under α = 1/2 the
    # ratio P/Q reaches 2^3 on the tail below every centre, so ε = ln 8 exactly, and
    # δ(ln 8) = 0 while δ just below is positive
    model = ProductModel.bernoulli(["1/3"] * 60)
    mech = GeometricSum({"x1": Fraction(3)}, alpha=HALF)
    eps = [Eps.log(8), Eps.of(Fraction(2))]
    r = audit(model, mech, "x1", [], eps, None, ["apkdp"])["apkdp"]
    assert r.epsilon == sympy.log(8)
    assert r.note == GEOMETRIC_BALL_NOTE
    (_, at_top, _), (_, below, _) = r.delta_at_epsilon
    assert at_top == 0
    assert isinstance(below, GeometricShiftDelta)
    assert 0 < float(certify(below, 10).decimal) < 1


def test_fractional_query_units_keep_the_exact_path() -> None:
    # geometric noise counts query units: a weight of 1/2 makes two count units a query
    # unit, so the integer outputs are not the counts' and the balls do not apply
    model = ProductModel.bernoulli(["1/3"] * 60)
    assert applies(model, GeometricSum(None, alpha=HALF), 1)
    assert not applies(model, GeometricSum(None, alpha=HALF), 2)
    assert not applies(ProductModel.bernoulli(["1/3"] * 50), GeometricSum(None, alpha=HALF))

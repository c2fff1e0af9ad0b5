"""The ball cases of independent records under Laplace noise
(pdpsym.audit.product_shifts) against two references: the full-joint-table engine
(``audit`` on ``model.to_joint()``, which lists every database: independent of the
count laws) on small models, and the exact Laplace mixtures of the structured engine
(the path used up to EXACT_RECORDS records) on 30 records. The ball path is forced on
small models by lowering EXACT_RECORDS."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from product_cases import balls_forced, figures, products

from pdpsym.audit import audit
from pdpsym.audit.product_shifts import BALL_NOTE, EXACT_RECORDS, applies
from pdpsym.core.certify import certify
from pdpsym.core.eps import Eps
from pdpsym.mechanisms.laplace import laplace
from pdpsym.mechanisms.sum_kernels import CountSum, LaplaceSum
from pdpsym.models.neighbours import DDPReading
from pdpsym.models.product import ProductModel

NOTIONS = ["apkdp", "ppkdp", "np", "cdp"]


@settings(max_examples=12)  # each example audits three ways (a few hundred ms)
@given(
    model=products(5),
    data=st.data(),
)
def test_against_the_full_joint_table(model: ProductModel, data: st.DataObject) -> None:
    names = list(model.variables)
    target = data.draw(st.sampled_from(names))
    rest = [v for v in names if v != target]
    known = data.draw(st.lists(st.sampled_from(rest), unique=True, max_size=2))
    weights = {
        v: Fraction(data.draw(st.integers(-1, 2))) for v in names if data.draw(st.booleans())
    }
    eps = [Eps.of(data.draw(st.sampled_from([Fraction(0), Fraction(1, 5), Fraction(2)])))]
    lam = Fraction(1, 2)
    joint = model.to_joint()
    sm, jm = LaplaceSum(weights, lam=lam), laplace(lam, weights)
    got = balls_forced(lambda: audit(model, sm, target, known, eps, None, NOTIONS))
    ref = audit(joint, jm, target, known, eps, None, NOTIONS)
    same = audit(model, sm, target, known, eps, None, NOTIONS)  # the exact mixtures
    for n in NOTIONS:
        g, r = figures(got[n]), figures(ref[n])
        assert g[0] == r[0] and [d for d, _ in g[1]] == [d for d, _ in r[1]], n
        assert g == figures(same[n]), n  # the witnesses too (the joint orders its own)
    cond = DDPReading.CONDITIONAL
    got_c = balls_forced(lambda: audit(model, sm, target, known, eps, None, ["dependent-dp"], cond))
    ref_c = audit(joint, jm, target, known, eps, None, ["dependent-dp"], cond)
    g, r = figures(got_c["dependent-dp"]), figures(ref_c["dependent-dp"])
    assert g[0] == r[0] and [d for d, _ in g[1]] == [d for d, _ in r[1]]


def thirty() -> ProductModel:
    rng = random.Random(30)
    return ProductModel.bernoulli([Fraction(k, 1000) for k in rng.sample(range(1, 1000), 30)])


@pytest.mark.slow
@pytest.mark.parametrize("notion", ["apkdp", "ppkdp", "cdp"])
def test_thirty_records_against_the_exact_mixtures(notion: str) -> None:
    # the exact path (today's engine at 30 records) as the reference: same digits, same
    # witnesses, δ at an ε below and at |shift|/λ, and ε at a δ
    model = thirty()
    mech = LaplaceSum(None, lam=Fraction(2))
    eps = [Eps.of(Fraction(1, 4)), Eps.of(Fraction(1, 2))]
    args = (model, mech, "x5", ["x1", "x2"], eps, Fraction(1, 10**6), [notion])
    exact = audit(*args)[notion]
    balls = balls_forced(lambda: audit(*args))[notion]
    assert figures(balls) == figures(exact)
    assert balls.note == BALL_NOTE and exact.note != BALL_NOTE


def test_thirty_records_dependent_dp_conditional() -> None:
    model = thirty()
    mech = LaplaceSum(None, lam=Fraction(2))
    args = (model, mech, "x7", [], [Eps.of(Fraction(1, 3))], None, ["dependent-dp"])
    exact = audit(*args, DDPReading.CONDITIONAL)["dependent-dp"]
    balls = balls_forced(lambda: audit(*args, DDPReading.CONDITIONAL))["dependent-dp"]
    assert figures(balls) == figures(exact)


def test_up_to_fifty_records_stay_exact() -> None:
    mech = LaplaceSum(None, lam=Fraction(2))
    assert EXACT_RECORDS == 50
    assert not applies(ProductModel.bernoulli(["1/3"] * 50), mech)
    assert applies(ProductModel.bernoulli(["1/3"] * 51), mech)
    assert not applies(ProductModel.bernoulli(["1/3"] * 51), CountSum())


def test_symmetric_population_decides_the_tie() -> None:
    # 60 records of p = 1/2: K is symmetric, so the directions (0, 1) and (1, 0) have one
    # curve (reflection); the worst case keeps the first, (0, 1), without an Undecided
    model = ProductModel.bernoulli(["1/2"] * 60)
    mech = LaplaceSum(None, lam=Fraction(2))
    r = audit(model, mech, "x1", ["x2"], [Eps.of(Fraction(1, 4))], None, ["apkdp"])["apkdp"]
    assert r.epsilon == Fraction(1, 2)  # hand derivation: |shift|/λ = 1/2
    _, d, where = r.delta_at_epsilon[0]
    assert where == {"a": 0, "b": 1, "known": (0,)}
    assert 0 < float(certify(d, 10).decimal) < 1


def test_degenerate_records_and_target() -> None:
    # p in {0, 1} only shift the count; a target of p = 0 has one value: no pair
    ps = ["0", "1"] * 30 + ["1/3", "2/7", "5/11"]
    model = ProductModel.bernoulli(ps)
    mech = LaplaceSum(None, lam=Fraction(1))
    r = audit(model, mech, "x1", [], [Eps.of(Fraction(1, 2))], None, ["apkdp"])["apkdp"]
    assert r.epsilon == 0 and r.delta_at_epsilon[0][1] == 0
    # a target with p = 1/3 among them: the rest is Poisson-binomial of 2/7, 5/11 shifted
    # by 30: by the translation, the figures of the three-record model (exact engine)
    small = ProductModel.bernoulli(["1/3", "2/7", "5/11"])
    big = audit(model, mech, "x61", [], [Eps.of(Fraction(1, 3))], None, ["apkdp"])["apkdp"]
    ref = audit(small, mech, "x1", [], [Eps.of(Fraction(1, 3))], None, ["apkdp"])["apkdp"]
    assert figures(big)[:2] == figures(ref)[:2]


def test_epsilon_at_delta_in_balls_is_labelled_certified_not_exact() -> None:
    # source: the meaning of the label (each bisection step is decided in balls past 50
    # records, exactly below); 51 records take the ball path, 3 records the exact one
    import json
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    def label(n: int) -> str:
        with tempfile.TemporaryDirectory() as tmp:
            model = Path(tmp) / "m.json"
            probs = [f"{k}/{2 * n + 3}" for k in range(1, n + 1)]
            model.write_text(json.dumps({"kind": "product", "bernoulli": probs}))
            out = subprocess.run(
                [sys.executable, "-m", "pdpsym", "audit", str(model), "docs/examples/laplace2.json"]
                + ["--target", "x2", "--eps", "1/4", "--delta", "1/1000", "--notions", "apkdp"]
                + ["--json"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        return "certified bisection" if "certified bisection" in out else "exact"

    assert label(51) == "certified bisection"
    assert label(3) == "exact"

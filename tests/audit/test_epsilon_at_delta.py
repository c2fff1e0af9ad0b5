"""Laws of epsilon_at_delta (issue 11): ε(δ) ≤ ε(0), and δ at ε(δ) is ≤ δ exactly.

Both follow from δ(ε) being non-increasing (Desfontaines et al. Lemma 1: a hockey-stick
divergence); the check evaluates audit() at ε = ln t with t = e^{ε(δ)} rational.
"""

from __future__ import annotations

from fractions import Fraction as F

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import pdpsym as ps
from pdpsym.audit import audit
from pdpsym.core.eps import Eps
from pdpsym.mechanisms import discrete


@st.composite
def instances(draw):
    ws = [draw(st.integers(1, 6)) for _ in range(4)]
    z = sum(ws)
    rows = [[a, b, f"{w}/{z}"] for (a, b), w in zip([(0, 0), (0, 1), (1, 0), (1, 1)], ws)]
    model = ps.JointDistribution.from_rows(["x1", "x2"], rows)
    keep = F(draw(st.integers(1, 9)), 10)
    delta = F(draw(st.integers(0, 9)), 10)
    return model, discrete.randomized_response(keep, [[0, 1], [0, 1]]), delta


@settings(max_examples=25, deadline=None)
@given(instances())
def test_epsilon_at_delta_is_at_most_epsilon_and_attains_delta(inst) -> None:
    model, mech, delta = inst
    for notion in ("dp", "apkdp", "ppkdp"):
        r = audit(model, mech, target="x1", delta=delta, notions=[notion])[notion]
        _, e_delta, _ = r.epsilon_at_delta
        assert sympy.simplify(e_delta - r.epsilon) <= 0
        t = sympy.exp(e_delta)
        assert t.is_Rational
        back = audit(
            model, mech, target="x1", eps=[Eps.log(F(int(t.p), int(t.q)))], notions=[notion]
        )
        ((_, d_back, _),) = back[notion].delta_at_epsilon
        d_back = sympy.simplify(d_back)
        assert d_back.is_Rational and d_back <= sympy.Rational(delta.numerator, delta.denominator)

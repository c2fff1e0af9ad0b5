"""Case.ratio_at_delta against its definition: the smallest t = e^ε ≥ 1 with δ(t) ≤ δ.

The check is written here in plain Fractions, independent of the walk over breakpoints
in pdpsym.loss.curve: δ(t) = Σ_k w_k Σ_o max(0, P_k(o) - t Q_k(o)) (Desfontaines et al.
Lemma 1) is continuous and non-increasing in t, so t* is right iff δ(t*) ≤ δ and either
t* = 1 or δ(t*) = δ with δ(t* - η) > δ for a tiny rational η; and there is no t* (None)
iff the mass with Q = 0 exceeds δ.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest

from pdpsym.loss.curve import Case

ETA = F(1, 10**40)


def delta_at(terms, t):
    return sum(
        (w * max(F(0), p.get(o, F(0)) - t * q.get(o, F(0))) for w, p, q in terms for o in p),
        F(0),
    )


def pmf(rng, outputs, zeros):
    w = [0 if o in zeros else rng.choice([1, 1, 2, 3, 5]) for o in outputs]
    if not any(w):
        w[0] = 1
    return {o: F(x, sum(w)) for o, x in zip(outputs, w, strict=True) if x}


@pytest.mark.parametrize("seed", range(60))
def test_ratio_at_delta_is_the_smallest_ratio_meeting_delta(seed: int) -> None:
    rng = random.Random(seed)
    outputs = list(range(rng.randint(2, 7)))
    terms = []
    k = rng.choice([1, 1, 2, 3])
    weights = [F(rng.randint(1, 4)) for _ in range(k)]
    for wk in weights:
        p = pmf(rng, outputs, set())
        q = pmf(rng, outputs, set(rng.sample(outputs, rng.randint(0, 1))))
        terms.append((wk / sum(weights), p, q))
    case = Case({}, tuple(terms))
    q0 = sum((w * p[o] for w, p, q in terms for o in p if not q.get(o)), F(0))
    for delta in [F(0), F(1, 50), F(1, 7), F(1, 3), F(2, 3)]:
        t = case.ratio_at_delta(delta)
        if t is None:
            assert q0 > delta
            continue
        assert t >= 1 and delta_at(terms, t) <= delta
        if t > 1:
            assert delta_at(terms, t) == delta
            assert delta_at(terms, t - ETA) > delta

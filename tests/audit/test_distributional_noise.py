"""Distributional DP (Desfontaines et al. Definition 4) with (ε, δ): Laplace and geometric noise.

Independent sources, named at each expected value:

* hand derivations for independent records (one simulator law ``S`` serves every value
  of the target, so ``t = e^ε`` works iff ``max_a P_a / t ≤ S ≤ t min_a P_a`` has a
  solution of mass 1, i.e. ``t² ≥ sup P_a/P_b``, ``∫ max_a P_a ≤ t`` and
  ``t ∫ min_a P_a ≥ 1``; at ε = 0 the best ``S`` is the midpoint and
  ``δ = TV(P_0, P_1) / 2`` by the triangle inequality);
* a brute force written here for correlated tables: the output line cut into a fine
  uniform grid with mpmath Laplace CDFs (a post-processing: a lower bound), the LP over
  simulators written here and solved by scipy, and the piecewise-constant simulator
  it gives, integrated numerically cell by cell (an upper bound, to quadrature error);
* the implication CDP ⇒ DDP (Desfontaines et al. Section 2.2: the simulator may run
  ``M(D_{i→b})``) and, for independent records, ``ε_APK / 2 ≤ ε_DDP`` (``P_a ≤ t S ≤
  t² P_b``) as hypothesis laws.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from pdpsym.audit import audit
from pdpsym.audit.distributional import (
    DistributionalLoss,
    distributional_dp,
    finite_blocks,
    laplace_blocks,
)
from pdpsym.core.exp_sqrt_sums import Bracket
from pdpsym.mechanisms.discrete import geometric
from pdpsym.mechanisms.laplace import laplace
from pdpsym.models.joint import JointDistribution
from pdpsym.models.scenario import Scenario


def _ends(v: object) -> tuple[float, float]:
    if isinstance(v, Bracket):
        return float(v.lo), float(v.hi)
    x = float(v)  # type: ignore[arg-type]
    return x, x


def _independent() -> JointDistribution:
    # x1 ~ (1/4, 3/4), x2 uniform, independent
    return JointDistribution.from_rows(
        ["x1", "x2"], [[0, 0, "1/8"], [0, 1, "1/8"], [1, 0, "3/8"], [1, 1, "3/8"]]
    )


def test_independent_laplace_matches_the_hand_derivation() -> None:
    # query x1 alone, λ = 1: P_a = Lap(a, 1). sup P_0/P_1 = e, so t >= e^{1/2};
    # ∫ min = e^{-1/2} (TV = 1 - e^{-1/2}), so t >= e^{1/2}; ∫ max = 2 - e^{-1/2} < e^{1/2}.
    # Hence ε = 1/2 (hand). At ε = 0: δ = TV / 2 = (1 - e^{-1/2}) / 2 (hand).
    sc = Scenario.from_model(_independent())
    loss = DistributionalLoss(laplace_blocks(sc, 0, lambda d: F(d[0]), F(1)))
    lo, hi = _ends(loss.epsilon(0).value)
    assert lo <= 0.5 <= hi and hi - lo < 1e-6
    lo, hi = _ends(loss.delta(0).value)
    assert lo <= (1 - math.exp(-0.5)) / 2 <= hi and hi - lo < 1e-9


def test_independent_geometric_matches_the_hand_derivation() -> None:
    # query x1 alone, α = 1/2: P_a(o) = (1/3) 2^{-|o-a|}. TV = (1-α)/(1+α) = 1/3, so
    # ∫ min = 2/3 and t >= 3/2; sup ratio 2 needs only t >= sqrt 2; ∫ max = 4/3 <= 3/2.
    # Hence e^ε = 3/2 (hand), and δ at ε = 0 is TV / 2 = 1/6 (hand).
    sc = Scenario.from_model(_independent())
    g = geometric("1/2", 0, 1, [1, 0])
    enc = distributional_dp(sc, g, 0)
    assert enc.hi is not None and enc.lo <= F(3, 2) <= enc.hi and enc.hi - enc.lo < F(1, 10**8)
    assert all(sum(law.values()) == 1 for law in (enc.simulator or {}).values())
    lo, hi = _ends(DistributionalLoss(finite_blocks(sc, g, 0)).delta(0).value)
    assert lo <= 1 / 6 <= hi and hi - lo < 1e-12


# --- brute force on correlated tables -------------------------------------------------


def _lp(t: float, pi: np.ndarray, P: np.ndarray) -> tuple[float, np.ndarray]:
    """min over simulators ζ[r] (laws on the cells) of max_g of both hockey sticks,
    written densely (variables ζ, e, f, δ)."""
    G, R = pi.shape
    K = P.shape[1]
    n = R * K + 2 * G * K + 1
    A, b = [], []
    for g in range(G):
        for k in range(K):
            row = np.zeros(n)
            row[[r * K + k for r in range(R)]] = -t * pi[g]
            row[R * K + g * K + k] = -1
            A.append(row)
            b.append(-P[g, k])
            row = np.zeros(n)
            row[[r * K + k for r in range(R)]] = pi[g]
            row[R * K + G * K + g * K + k] = -1
            A.append(row)
            b.append(t * P[g, k])
        for off in (R * K, R * K + G * K):
            row = np.zeros(n)
            row[off + g * K : off + (g + 1) * K] = 1
            row[-1] = -1
            A.append(row)
            b.append(0.0)
    eq = np.zeros((R, n))
    for r in range(R):
        eq[r, r * K : (r + 1) * K] = 1
    c = np.zeros(n)
    c[-1] = 1
    res = linprog(c, A_ub=np.array(A), b_ub=b, A_eq=eq, b_eq=np.ones(R), method="highs")
    return float(res.fun), res.x[: R * K].reshape(R, K)


def _masses(cdf: object, G: int, cuts: list[float]) -> np.ndarray:
    return np.array(
        [
            [
                (cdf(g, b) if b < math.inf else 1.0) - (cdf(g, a) if a > -math.inf else 0.0)  # type: ignore[operator]
                for a, b in zip(cuts, cuts[1:], strict=False)
            ]
            for g in range(G)
        ]
    )


def _brute(
    rows: list[tuple[tuple[int, ...], F]], lam: float, t: float, h: float
) -> tuple[float, float]:
    """[lower, upper] on δ*(t) for target x1, nothing known, query = the sum."""
    groups = sorted({d[0] for d, _ in rows})
    rests = sorted({d[1:] for d, _ in rows})
    pi = np.zeros((len(groups), len(rests)))
    mu: list[dict[int, float]] = [{} for _ in groups]
    for d, p in rows:
        g = groups.index(d[0])
        pi[g, rests.index(d[1:])] += float(p)
        mu[g][sum(d)] = mu[g].get(sum(d), 0.0) + float(p)
    for g in range(len(groups)):
        z = pi[g].sum()
        pi[g] /= z
        mu[g] = {v: w / z for v, w in mu[g].items()}
    vs = sorted({v for m in mu for v in m})
    edges = np.arange(vs[0] - 4, vs[-1] + 4 + h / 2, h)

    def cdf(g: int, x: float) -> float:
        return float(
            sum(
                w
                * (
                    mpmath.e ** ((x - v) / lam) / 2
                    if x < v
                    else 1 - mpmath.e ** (-(x - v) / lam) / 2
                )
                for v, w in mu[g].items()
            )
        )

    G = len(groups)
    cuts = [-math.inf, *edges, math.inf]
    with mpmath.workdps(30):
        P = _masses(cdf, G, cuts)
    lower, zeta = _lp(t, pi, P)
    zeta = np.clip(zeta, 0, None)
    zeta /= zeta.sum(axis=1, keepdims=True)
    S = pi @ zeta  # cell masses of the simulator's output, per group
    worst = 0.0
    for g in range(G):
        one = two = 0.0
        for k, (a, b) in enumerate(zip(cuts, cuts[1:])):
            if math.isinf(a) or math.isinf(b):
                # tails: every law and the simulator (exponential tail) have one shape
                one += max(0.0, P[g, k] - t * S[g, k])
                two += max(0.0, S[g, k] - t * P[g, k])
                continue
            s = S[g, k] / (b - a)  # the simulator's density is constant on the cell
            xs = np.linspace(a, b, 257)
            px = sum(w * np.exp(-np.abs(xs - v) / lam) / (2 * lam) for v, w in mu[g].items())
            one += float(np.trapezoid(np.maximum(0.0, px - t * s), xs))
            two += float(np.trapezoid(np.maximum(0.0, s - t * px), xs))
        worst = max(worst, one, two)
    return lower, worst


PAIR = [((0, 0), F(3, 10)), ((0, 1), F(1, 5)), ((1, 0), F(1, 5)), ((1, 1), F(3, 10))]
TRIPLE = [
    ((0, 0, 0), F(1, 4)),
    ((0, 0, 1), F(1, 8)),
    ((0, 1, 1), F(1, 8)),
    ((1, 1, 1), F(1, 4)),
    ((1, 1, 0), F(1, 8)),
    ((1, 0, 0), F(1, 8)),
]


@pytest.mark.parametrize("rows", [PAIR, TRIPLE], ids=["2 records", "3 records"])
@pytest.mark.parametrize("eps", [F(0), F(1, 5)])
def test_correlated_laplace_agrees_with_a_brute_force(rows: list, eps: F) -> None:
    names = [f"x{k + 1}" for k in range(len(rows[0][0]))]
    m = JointDistribution.from_rows(names, [[*d, str(p)] for d, p in rows])
    sc = Scenario.from_model(m)
    loss = DistributionalLoss(laplace_blocks(sc, 0, lambda d: F(sum(d)), F(1)))
    lo, hi = _ends(loss.delta(eps).value)
    b_lo, b_hi = _brute(rows, 1.0, math.exp(float(eps)), 1 / 16)
    # both brackets hold the true δ: they must overlap (floats: 1e-9 slack)
    assert b_lo <= hi + 1e-9 and lo <= b_hi + 1e-9
    assert hi - lo < 1e-4  # and ours is narrow


# --- laws over small random tables ----------------------------------------------------


def _sum(d: tuple) -> F:
    return F(sum(d))


_probs = st.lists(st.integers(1, 9), min_size=4, max_size=4)


@settings(max_examples=4, deadline=None)
@given(_probs, st.sampled_from([F(1, 2), F(1), F(2)]))
def test_cdp_implies_ddp_on_random_tables(weights: list[int], lam: F) -> None:
    # Desfontaines et al. Section 2.2: a CDP simulator runs M(D_{i->b}), so
    # δ_DDP(ε) <= δ_CDP(ε) and ε_DDP <= ε_CDP.
    z = sum(weights)
    rows = [[a, b, str(F(w, z))] for (a, b), w in zip([(0, 0), (0, 1), (1, 0), (1, 1)], weights)]
    m = JointDistribution.from_rows(["x1", "x2"], rows)
    cdp = audit(m, laplace(lam), "x1", eps=[F(1, 4)], notions=["cdp"])["cdp"]
    ddp = DistributionalLoss(laplace_blocks(Scenario.from_model(m), 0, _sum, lam), level=8)
    assert _ends(ddp.epsilon(0).value)[0] <= float(cdp.epsilon) + 1e-12
    assert _ends(ddp.delta(F(1, 4)).value)[0] <= float(cdp.delta_at_epsilon[0][1]) + 1e-12


@settings(max_examples=4, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.sampled_from([F(1, 2), F(1), F(2)]))
def test_half_the_apk_epsilon_bounds_ddp_for_independent_records(p: int, q: int, lam: F) -> None:
    # independent records: one law S serves every value, P_a <= t S <= t^2 P_b, so
    # ε_APK <= 2 ε_DDP; and CDP => DDP with ε_CDP = ε_APK here (Proposition 2).
    a, b = F(p, p + 1), F(q, q + 2)
    rows = [[x, y, str((a if x else 1 - a) * (b if y else 1 - b))] for x in (0, 1) for y in (0, 1)]
    m = JointDistribution.from_rows(["x1", "x2"], rows)
    apk = float(audit(m, laplace(lam), "x1", notions=["apkdp"])["apkdp"].epsilon)
    ddp = DistributionalLoss(laplace_blocks(Scenario.from_model(m), 0, _sum, lam), level=8)
    lo, hi = _ends(ddp.epsilon(0).value)
    assert apk / 2 <= hi + 1e-12 and lo <= apk + 1e-12

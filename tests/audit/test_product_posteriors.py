"""IBCDP and distributional DP of a two-valued target among independent records in
closed form (pdpsym.audit.product_posteriors) against references that do not use it:
brute forces written here over every database (mpmath), a float LP over a fine grid of
outputs (scipy's HiGHS), and the exact engines (the path up to EXACT_RECORDS records,
PosteriorSup and the LP enclosures). The closed forms are forced on small models by
lowering EXACT_RECORDS."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.audit import audit, product_shifts
from pdpsym.audit.product_posteriors import (
    IBCDP_TAIL_NOTE,
    SIMULATOR_NOTE,
    TailPosteriors,
    two_values,
)
from pdpsym.core.certify import certify, enclose
from pdpsym.core.eps import Eps
from pdpsym.mechanisms.sum_kernels import GeometricSum, LaplaceSum
from pdpsym.models.product import ProductModel

mpmath.mp.dps = 40


def forced(fn):  # type: ignore[no-untyped-def]
    """Run ``fn`` with the closed forms on every product model."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(product_shifts, "EXACT_RECORDS", 0)
        return fn()


def mq(q: Fraction) -> mpmath.mpf:
    """A rational as an mpmath number."""
    return mpmath.mpf(q.numerator) / q.denominator


def val(x: object) -> mpmath.mpf:
    """An exact value (a Fraction, sympy number, ball value or bracket) as mpmath."""
    if isinstance(x, Fraction):
        return mq(x)
    return mpmath.mpf(certify(x, 30).decimal)  # type: ignore[arg-type]


def ends(x: object) -> tuple[mpmath.mpf, mpmath.mpf]:
    """The ends of a value's enclosure (an exact value has width 0)."""
    if isinstance(x, Fraction):
        return val(x), val(x)
    lo, hi = getattr(x, "lo", None), getattr(x, "hi", None)
    if lo is not None and getattr(x, "limit", 0):
        return val(lo), val(hi)
    ball = enclose(x, 200)  # type: ignore[arg-type]
    return mpmath.mpf(ball.lower().str(50, radius=False)), mpmath.mpf(
        ball.upper().str(50, radius=False)
    )


def population(n: int, seed: int) -> ProductModel:
    rng = random.Random(seed)
    return ProductModel.bernoulli([Fraction(rng.randint(1, 99), 100) for _ in range(n)])


# --- brute forces over every database (no lemma, no count law) -------------------------


def output_density(ps: list[Fraction], target: int, a: int, lam: Fraction, t: mpmath.mpf):
    """The Laplace output density at ``t`` given ``x_target = a``, summed over every
    database of the other records (2^(n-1) of them)."""
    others = [p for k, p in enumerate(ps) if k != target]
    total = mpmath.mpf(0)
    for xs in itertools.product((0, 1), repeat=len(others)):
        w = mpmath.mpf(1)
        for x, p in zip(xs, others, strict=True):
            w *= mq(p) if x else 1 - mq(p)
        s = sum(xs) + a
        total += w * mpmath.exp(-abs(t - s) / mq(lam)) / (2 * mq(lam))
    return total


def ibcdp_brute(ps: list[Fraction], target: int, lam: Fraction, eps: Fraction):
    """sup over outputs of IBCDP's δ (the posterior against the prior, both ways; the
    changed database's posterior is the prior) on a grid from 2 below to 2 above the
    counts (beyond the extreme centres every density is one exponential times a
    constant: the posteriors are constant there), and ε at δ = 0, from the densities
    alone."""
    p1 = mq(ps[target])
    prior = {0: 1 - p1, 1: p1}
    n = len(ps)
    grid = [mpmath.mpf(k) / 8 for k in range(-8 * 2, 8 * (n + 2))]
    te = mpmath.exp(mq(eps))
    best_d = best_e = mpmath.mpf(0)
    for t in grid:
        u = {a: prior[a] * output_density(ps, target, a, lam, t) for a in (0, 1)}
        z = u[0] + u[1]
        post = {a: u[a] / z for a in (0, 1)}
        d1 = sum(max(0, post[a] - te * prior[a]) for a in (0, 1))
        d2 = sum(max(0, prior[a] - te * post[a]) for a in (0, 1))
        best_d = max(best_d, d1, d2)
        best_e = max(best_e, *(abs(mpmath.log(post[a] / prior[a])) for a in (0, 1)))
    return best_d, best_e


@pytest.mark.parametrize("seed", [1, 2])
def test_ibcdp_closed_form_against_a_brute_force_over_databases(seed: int) -> None:
    # source: ibcdp_brute (every database of 6 records, posteriors on a grid of 1/8
    # reaching beyond the extreme counts, where they are constant)
    ps = [Fraction(random.Random(seed).randint(1, 99), 100) for _ in range(6)]
    ps = [p + Fraction(k, 1000) for k, p in enumerate(ps)]  # all distinct
    model = ProductModel.bernoulli(ps)
    lam, eps = Fraction(1), Fraction(1, 4)
    r = forced(lambda: audit(model, LaplaceSum(None, lam=lam), "x3", [], [Eps.of(eps)], None))
    got = r["ibcdp"]
    d, e = ibcdp_brute(ps, 2, lam, eps)
    assert abs(val(got.delta_at_epsilon[0][1]) - d) < mpmath.mpf(10) ** -25
    assert abs(val(got.epsilon) - e) < mpmath.mpf(10) ** -25
    assert got.note == IBCDP_TAIL_NOTE


@pytest.mark.parametrize(
    ("mech", "n"),
    [("laplace", 3), ("geometric", 7), pytest.param("laplace", 24, marks=pytest.mark.slow)],
)
def test_ibcdp_equals_the_exact_posterior_search(mech: str, n: int) -> None:
    # source: the exact engine (PosteriorSup's closed form over every piece, or the
    # exact posterior pairs of every geometric output): same 25 digits
    model = population(n, n)
    m = (
        LaplaceSum(None, lam=Fraction(1, 2))
        if mech == "laplace"
        else GeometricSum(None, alpha=Fraction(1, 3))
    )
    eps = [Eps.of(Fraction(1, 3)), Eps.of(Fraction(1))]
    delta = Fraction(1, 50) if n < 20 else None  # the exact ε(δ) at 24 records: minutes
    args = (model, m, "x2", ["x1"], eps, delta, ["ibcdp"])
    exact = audit(*args)["ibcdp"]
    closed = forced(lambda: audit(*args))["ibcdp"]
    assert closed.note == IBCDP_TAIL_NOTE and exact.note != IBCDP_TAIL_NOTE

    def digits(x: object) -> str:
        return certify(x, 25).decimal  # type: ignore[arg-type]

    assert digits(closed.epsilon) == digits(exact.epsilon)
    for (_, a, _), (_, b, _) in zip(closed.delta_at_epsilon, exact.delta_at_epsilon, strict=True):
        assert digits(a) == digits(b)
    if delta is not None:
        assert digits(closed.epsilon_at_delta[1]) == digits(exact.epsilon_at_delta[1])


@settings(max_examples=25, deadline=None)
@given(
    p=st.fractions(Fraction(1, 100), Fraction(99, 100)),
    d=st.fractions(Fraction(1, 20), Fraction(3)),
    eps=st.fractions(Fraction(0), Fraction(2)),
)
def test_tail_terms_are_the_sup_over_every_ratio(p: Fraction, d: Fraction, eps: Fraction) -> None:
    # source: the objective sup_t Σ_a (x_a - T y_a)_+ written over R in [1/r, r] on a
    # grid (mpmath), both ways; the lemma only says R takes exactly these values
    r = mpmath.exp(mq(d))
    lo, hi = 1 - mq(p), mq(p)
    te = mpmath.exp(mq(eps))
    best = mpmath.mpf(0)
    for k in range(201):
        big = r ** (mpmath.mpf(2 * k) / 200 - 1)
        post = (lo / (lo + hi * big), hi * big / (lo + hi * big))
        prior = (lo, hi)
        best = max(
            best,
            sum(max(0, x - te * y) for x, y in zip(post, prior, strict=True)),
            sum(max(0, y - te * x) for x, y in zip(post, prior, strict=True)),
        )
    loss = TailPosteriors(1 - p, p, sympy.exp(sympy.Rational(d.numerator, d.denominator)), {})
    got = loss.delta(Eps.of(eps)).value
    assert abs(val(got) - best) < mpmath.mpf(10) ** -30


# --- distributional DP -------------------------------------------------------------------


def float_lp_delta(ps: list[Fraction], target: int, lam: float, eps: float) -> float:
    """min over one simulator law of the worst hockey stick against both rows, as a
    float LP (scipy HiGHS) on a grid of 1/16 from 30 below to 30 above the counts;
    the rows' masses from every database of the other records."""
    import numpy as np
    from scipy.optimize import linprog

    others = [float(p) for k, p in enumerate(ps) if k != target]
    law = np.array([1.0])
    for p in others:
        law = np.convolve(law, [1 - p, p])
    h = 1 / 16
    xs = np.arange(-30, len(law) + 31, h)

    def mix_cdf(shift: int) -> np.ndarray:  # the Laplace mixture's CDF at the grid
        out = np.zeros(len(xs))
        for s, w in enumerate(law):
            z = xs - (s + shift)
            out += w * np.where(z < 0, 0.5 * np.exp(z / lam), 1 - 0.5 * np.exp(-z / lam))
        return out

    rows = []
    for a in (0, 1):
        cdf = mix_cdf(a)
        cells = np.diff(np.concatenate([[0.0], cdf, [1.0]]))
        rows.append(cells)
    k = len(rows[0])
    t = float(np.exp(eps))
    # variables: S (k), slack per row and direction (4k), delta
    nv = 5 * k + 1
    from scipy.sparse import lil_matrix

    m = lil_matrix((4 * k + 4, nv))
    b = np.zeros(4 * k + 4)
    row = 0
    for g in range(2):
        for j in range(k):
            # P - t S <= e1 ;  S - t P <= e2
            m[row, j] = -t
            m[row, k + (2 * g) * k + j] = -1
            b[row] = -rows[g][j]
            m[row + 1, j] = 1
            m[row + 1, k + (2 * g + 1) * k + j] = -1
            b[row + 1] = t * rows[g][j]
            row += 2
    for q in range(4):
        for j in range(k):
            m[row, k + q * k + j] = 1
        m[row, nv - 1] = -1
        row += 1
    a_eq = np.zeros((1, nv))
    a_eq[0, :k] = 1
    c = np.zeros(nv)
    c[-1] = 1
    res = linprog(c, A_ub=m.tocsr(), b_ub=b, A_eq=a_eq, b_eq=[1.0], method="highs")
    assert res.status == 0
    return float(res.fun)


@pytest.mark.parametrize("eps", [Fraction(1, 4), Fraction(1, 2), Fraction(3, 2)])
def test_one_simulator_against_a_float_lp(eps: Fraction) -> None:
    # source: float_lp_delta (scipy HiGHS on a fine grid of outputs; the grid cells are
    # a post-processing, so its optimum is at most the continuous one, and converges to
    # it as the grid refines: agreement to 1e-4)
    ps = [Fraction(1, 3), Fraction(3, 5), Fraction(1, 7), Fraction(5, 6), Fraction(2, 9)]
    model = ProductModel.bernoulli(ps)
    lam = Fraction(1, 2)
    r = forced(
        lambda: audit(
            model, LaplaceSum(None, lam=lam), "x2", [], [Eps.of(eps)], None, ["distributional-dp"]
        )
    )["distributional-dp"]
    assert r.note == SIMULATOR_NOTE
    got = val(r.delta_at_epsilon[0][1])
    ref = float_lp_delta(ps, 1, float(lam), float(eps))
    assert abs(got - ref) < 1e-4
    assert ref > 1e-3 or eps == Fraction(3, 2)  # the check has something to compare


@pytest.mark.slow
@pytest.mark.parametrize("n", [6, 20])
def test_one_simulator_inside_the_exact_lp_enclosures(n: int) -> None:
    # source: the exact engine's LP enclosures (cell masses and dual weights below, an
    # exponential-spline simulator above) on 6 and 20 records: each closed-form figure
    # lies in them
    model = population(n, n)
    lam = Fraction(1, 2)
    eps = [Eps.of(Fraction(1)), Eps.of(Fraction(1, 2))]
    args = (model, LaplaceSum(None, lam=lam), "x2", ["x1"], eps, Fraction(1, 100))
    exact = audit(*args, ["distributional-dp"])["distributional-dp"]
    closed = forced(lambda: audit(*args, ["distributional-dp"]))["distributional-dp"]
    pairs = [
        (a, b)
        for (_, a, _), (_, b, _) in zip(
            closed.delta_at_epsilon, exact.delta_at_epsilon, strict=True
        )
    ]
    pairs.append((closed.epsilon_at_delta[1], exact.epsilon_at_delta[1]))
    for mine, ref in pairs:
        lo, hi = ends(ref)
        m = val(mine)
        assert lo - mpmath.mpf(10) ** -20 <= m <= hi + mpmath.mpf(10) ** -20


def test_one_simulator_under_geometric_noise_equals_the_exact_lps() -> None:
    # source: the exact engine's LPs on the exact output masses (geometric tails lumped):
    # δ at ε = 1/8 (below ε* = ln(2)/2) and ε at δ = 1/100 agree with its enclosures;
    # ε at δ = 0 is ε* = ln(1/α)/2 exactly (hand: the band needs T^2 >= 1/α)
    model = population(5, 5)
    mech = GeometricSum(None, alpha=Fraction(1, 2))
    eps = [Eps.of(Fraction(1, 8)), Eps.of(Fraction(1, 2))]
    args = (model, mech, "x2", ["x1"], eps, Fraction(1, 100), ["distributional-dp"])
    exact = audit(*args)["distributional-dp"]
    closed = forced(lambda: audit(*args))["distributional-dp"]
    assert closed.note == SIMULATOR_NOTE
    assert sympy.simplify(closed.epsilon - sympy.log(2) / 2) == 0
    pairs = [
        (a, b)
        for (_, a, _), (_, b, _) in zip(
            closed.delta_at_epsilon, exact.delta_at_epsilon, strict=True
        )
    ]
    pairs.append((closed.epsilon_at_delta[1], exact.epsilon_at_delta[1]))
    for mine, ref in pairs:
        lo, hi = ends(ref)
        assert lo - mpmath.mpf(10) ** -20 <= val(mine) <= hi + mpmath.mpf(10) ** -20
    assert val(closed.delta_at_epsilon[0][1]) > mpmath.mpf(10) ** -3  # something to compare


def test_one_simulator_epsilon_at_zero_is_half_the_shift_or_the_total_variation() -> None:
    # hand derivation: the band max(P,Q)/T <= S <= T min(P,Q) needs T^2 >= e^{D/Λ} and
    # T (1 - TV) >= 1. Two records of p = 1/2 and λ = 1/8 (D/Λ = 8) have a TV near
    # 1 - 3/4 e^{-4}... far below e^{-4}: -ln(1 - TV) > 4 = D/(2Λ)? no: TV is about
    # 1 - the overlap; brute force below decides which end is active.
    model = ProductModel.bernoulli(["1/2", "1/2", "1/2"])
    lam = Fraction(1, 8)
    r = forced(
        lambda: audit(model, LaplaceSum(None, lam=lam), "x1", [], [], None, ["distributional-dp"])
    )["distributional-dp"]
    # brute force: TV of the two Laplace mixtures of Bin(2, 1/2) and Bin(2, 1/2) + 1,
    # by numerical integration over every database (mpmath.quad between the centres)
    law = [mpmath.mpf(1) / 4, mpmath.mpf(1) / 2, mpmath.mpf(1) / 4]
    lm = mpmath.mpf(1) / 8

    def dens(t: mpmath.mpf, shift: int) -> mpmath.mpf:
        return sum(w * mpmath.exp(-abs(t - s - shift) / lm) for s, w in enumerate(law)) / (2 * lm)

    pts = [-mpmath.inf, 0, 1, 2, 3, mpmath.inf]
    tv = mpmath.quad(lambda t: max(0, dens(t, 0) - dens(t, 1)), pts)
    want = max(mpmath.mpf(4), -mpmath.log(1 - tv))
    assert abs(val(r.epsilon) - want) < mpmath.mpf(10) ** -20


def test_up_to_fifty_records_the_exact_engines_run() -> None:
    # the closed forms start past EXACT_RECORDS (the outputs up to 50 records are those
    # of the exact engines, unchanged): the notes say which path ran
    mech = LaplaceSum(None, lam=Fraction(2))
    small = population(4, 4)
    r = audit(small, mech, "x1", [], [Eps.of(Fraction(1, 4))], None, ["ibcdp"])["ibcdp"]
    assert r.note != IBCDP_TAIL_NOTE
    big = ProductModel.bernoulli([Fraction(k, 200) for k in range(1, 52)])
    r = audit(big, mech, "x1", [], [Eps.of(Fraction(1, 4))], None, ["ibcdp"])["ibcdp"]
    assert r.note == IBCDP_TAIL_NOTE


def test_two_values() -> None:
    # the support's two values by contribution; other sizes and equal contributions: None
    assert two_values([Fraction(0), Fraction(1)], (0, 1), (Fraction(0), Fraction(1))) == (
        Fraction(0),
        Fraction(1),
        1,
    )
    assert two_values([Fraction(0), Fraction(1)], (3, 1), (Fraction(0), Fraction(1))) == (
        Fraction(1),
        Fraction(0),
        2,
    )
    assert two_values([Fraction(0), Fraction(1)], (1, 1), (Fraction(0), Fraction(1))) is None
    assert two_values([Fraction(0)], (0,), (Fraction(0),)) is None

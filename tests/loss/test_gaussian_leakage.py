"""Lemma 1, Theorem 6, Corollary 2, Example 5: exact coefficients by independent routes."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.core.certify import certify
from pdpsym.core.errors import InputError
from pdpsym.loss.gaussian import (
    GaussianQuery,
    all_adversaries,
    all_conditionals,
    condition,
    gaussian_leakage,
    query_given,
    regression_coefficients,
    weight_vector,
)
from pdpsym.models.gaussian import GaussianModel
from pdpsym.papers.li2019.gaussian_density import convolution_density, eq19_profile

small = st.fractions(min_value=-3, max_value=3, max_denominator=3)


@st.composite
def models(draw, min_n: int = 2, max_n: int = 4):
    n = draw(st.integers(min_n, max_n))
    m = [[draw(small) for _ in range(n)] for _ in range(n)]
    d = [
        draw(st.fractions(min_value=Fraction(1, 2), max_value=2, max_denominator=2))
        for _ in range(n)
    ]
    cov = [
        [
            sum((m[r][k] * m[c][k] for k in range(n)), Fraction(0)) + (d[r] if r == c else 0)
            for c in range(n)
        ]
        for r in range(n)
    ]
    mean = [draw(small) for _ in range(n)]
    names = [f"x{k + 1}" for k in range(n)]
    ranges = {}
    for nm in names:
        lo = draw(small)
        ranges[nm] = [
            lo,
            lo + draw(st.fractions(min_value=Fraction(1, 3), max_value=3, max_denominator=3)),
        ]
    return GaussianModel.build(names, mean, cov, ranges)


@st.composite
def adversaries(draw):
    model = draw(models())
    i = draw(st.integers(0, model.n - 1))
    known = [k for k in range(model.n) if k != i and draw(st.booleans())]
    w = [draw(st.fractions(min_value=-2, max_value=2, max_denominator=2)) for _ in range(model.n)]
    return model, i, known, w


def sequential_conditioning(model, i, known, w):
    """E[f | x_A] by conditioning on one tuple at a time (rank-one updates): the slope in
    x_i, the conditional variance and the value at x_A = 0 (the constant)."""

    def cond_mean(values):
        mu = list(model.mean)
        cov = model.cov_list()
        for k, v in values.items():
            col = [cov[r][k] for r in range(model.n)]
            piv = cov[k][k]
            mu = [mu[r] + col[r] * (v - mu[k]) / piv for r in range(model.n)]
            cov = [
                [cov[r][c] - col[r] * col[c] / piv for c in range(model.n)] for r in range(model.n)
            ]
        return sum((w[r] * mu[r] for r in range(model.n)), Fraction(0)), cov

    zero = {k: Fraction(0) for k in known}
    m0, cov = cond_mean({i: Fraction(0), **zero})
    m1, _ = cond_mean({i: Fraction(1), **zero})
    s2 = sum((w[p] * cov[p][q] * w[q] for p in range(model.n) for q in range(model.n)), Fraction(0))
    return m1 - m0, s2, m0


@settings(max_examples=60, deadline=None)
@given(adversaries())
def test_coefficient_three_routes(adv) -> None:
    model, i, known, w = adv
    q = query_given(model, i, known, w)
    beta, s2 = regression_coefficients(model, [i, *known], w)
    c_seq, s2_seq, at_zero = sequential_conditioning(model, i, known, w)
    assert q.coefficient == beta[0] == c_seq
    assert q.beta == tuple(beta) and q.constant == at_zero  # E[f | x_A = 0] = the constant
    assert q.variance == s2 == s2_seq
    assert q.variance >= 0


@settings(max_examples=25, deadline=None)
@given(models(), st.data())
def test_bordering_matches_direct(model, data) -> None:
    w = [
        data.draw(st.fractions(min_value=-2, max_value=2, max_denominator=2))
        for _ in range(model.n)
    ]
    count = 0
    for a, beta, s2 in all_conditionals(model, w):
        for p, i in enumerate(a):
            q = query_given(model, i, [k for k in a if k != i], w)
            assert (q.coefficient, q.variance) == (beta[p], s2)
            count += 1
    assert count == model.n * 2 ** (model.n - 1)


@settings(max_examples=15, deadline=None)
@given(models(max_n=3), st.data())
def test_every_adversary_holds_its_direct_conditional(model, data) -> None:
    # the bordering route of all_adversaries against one Gauss-Jordan solve per adversary
    # (query_given), conditional mean's constant included
    weights = {
        nm: data.draw(st.fractions(min_value=-2, max_value=2, max_denominator=2))
        for nm in model.variables
    }
    rows = all_adversaries(model, 3, weights)
    assert len(rows) == model.n * 2 ** (model.n - 1)
    for g in rows:
        q = g.query
        assert q == GaussianQuery(model, g.target, g.known, 3, weights)
        assert g.given == query_given(model, q.target_index, q.known_indices, q.w)


def test_query_reports_the_first_bad_input() -> None:
    # each bad input names its parameter; when several are bad, the first in the order
    # lam, target, known, ranges, weights is reported (the CLI's error lines rely on it)
    m = GaussianModel.build(["x1", "x2"], [0, 0], [[1, 0], [0, 1]], {"x1": ["0", "1"]})
    cases = [
        (("x9", ["x9"], 0, {"x9": Fraction(1)}), "lam"),
        (("x9", ["x9"], 1, {"x9": Fraction(1)}), "target"),
        (("x1", ["x1"], 1, {"x9": Fraction(1)}), "known"),
        (("x2", [], 1, {"x9": Fraction(1)}), "ranges"),
        (("x1", ["x2"], 1, {"x9": Fraction(1)}), "weights"),
    ]
    for (target, known, lam, weights), field in cases:
        with pytest.raises(InputError) as err:
            GaussianQuery(m, target, known, lam, weights)
        assert err.value.field == field


@settings(max_examples=30, deadline=None)
@given(models(), st.data())
def test_permutation_invariance(model, data) -> None:
    order = data.draw(st.permutations(list(range(model.n))))
    perm = model.permuted(order)
    target = data.draw(st.sampled_from(model.variables))
    known = [v for v in model.variables if v != target and data.draw(st.booleans())]
    lam = data.draw(st.fractions(min_value=Fraction(1, 4), max_value=4, max_denominator=4))
    assert (
        gaussian_leakage(model, target, known, lam).value
        == gaussian_leakage(perm, target, list(reversed(known)), lam).value
    )


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 5), st.data())
def test_independence_gives_delta_over_lambda(n, data) -> None:
    diag = [
        data.draw(st.fractions(min_value=Fraction(1, 4), max_value=4, max_denominator=4))
        for _ in range(n)
    ]
    names = [f"x{k + 1}" for k in range(n)]
    cov = [[diag[r] if r == c else 0 for c in range(n)] for r in range(n)]
    model = GaussianModel.build(names, [0] * n, cov, {nm: ["-1", "1/2"] for nm in names})
    lam = Fraction(3, 2)
    for g in all_adversaries(model, lam):
        assert g.value == Fraction(3, 2) / lam


@settings(max_examples=40, deadline=None)
@given(models())
def test_corollary2_weakest(model) -> None:
    w = weight_vector(model, None)
    for i in range(model.n):
        q = query_given(model, i, [], w)
        assert q.coefficient == sum(model.cov[i][j] for j in range(model.n)) / model.cov[i][i]


def test_example5_symbolic_and_instances() -> None:
    for rho in (Fraction(-9, 10), Fraction(-1, 3), Fraction(0), Fraction(1, 2), Fraction(99, 100)):
        m = GaussianModel.build(["x1", "x2"], [0, 0], [[1, rho], [rho, 1]], {"x1": ["0", "2"]})
        assert gaussian_leakage(m, "x1", [], 4).value == (1 + rho) * 2 / 4
        assert gaussian_leakage(m, "x1", ["x2"], 4).value == Fraction(2, 4)
    rho = sympy.Symbol("rho")
    m = GaussianModel.build(["x1", "x2"], [0, 0], [[1, 0], [0, 1]])
    del m
    sig = sympy.Matrix([[1, rho], [rho, 1]])
    assert sympy.simplify(1 + sig[1, 0] / sig[0, 0] - (1 + rho)) == 0


def test_lemma1_conditional_matrices() -> None:
    m = GaussianModel.build(["a", "b", "c"], [1, 2, 3], [[2, 1, 0], [1, 2, 1], [0, 1, 2]])
    cond = condition(m, [0])
    assert cond.gain == sympy.Matrix([[sympy.Rational(1, 2)], [0]])
    assert cond.cov == sympy.Matrix([[sympy.Rational(3, 2), 1], [1, 2]])
    assert cond.mean([Fraction(3)]) == sympy.Matrix([[3], [3]])


def test_degenerate_s_zero_is_laplace() -> None:
    m = GaussianModel.build(["a", "b"], [0, 0], [[1, "1/2"], ["1/2", 1]], {"a": ["0", "1"]})
    g = gaussian_leakage(m, "a", ["b"], 1)
    assert g.variance == 0 and g.value == 1
    dens = convolution_density(Fraction(1, 3), 0, Fraction(0), 2)
    assert sympy.simplify(dens - sympy.exp(-sympy.Rational(1, 6)) / 4) == 0
    prof = eq19_profile(g.query)
    assert prof.never_exceeds and prof.approaches_left and prof.approaches_right
    # zero weights on the unknowns also give s = 0
    m3 = GaussianModel.build(
        ["a", "b", "c"], [0, 0, 0], [[1, 0, 0], [0, 1, 0], [0, 0, 1]], {"a": ["0", "1"]}
    )
    assert gaussian_leakage(m3, "a", [], 1, {"b": Fraction(0), "c": Fraction(0)}).variance == 0


def test_numeric_integration_vs_closed_form() -> None:
    with mpmath.workdps(30):
        for s2, lam, r, mu in (
            (Fraction(1), Fraction(1), Fraction(0), Fraction(0)),
            (Fraction(9, 4), Fraction(1, 2), Fraction(2), Fraction(-1)),
            (Fraction(1, 16), Fraction(3), Fraction(-5, 2), Fraction(1, 3)),
        ):
            closed = certify(convolution_density(r, mu, s2, lam), 25)
            sv = mpmath.sqrt(mpmath.mpf(s2.numerator) / s2.denominator)
            lv = mpmath.mpf(lam.numerator) / lam.denominator
            rv = mpmath.mpf(r.numerator) / r.denominator
            mv = mpmath.mpf(mu.numerator) / mu.denominator

            def integrand(y, mv=mv, sv=sv, rv=rv, lv=lv):
                return mpmath.npdf(y, mv, sv) * mpmath.exp(-abs(rv - y) / lv) / (2 * lv)

            num = mpmath.quad(integrand, [-mpmath.inf, rv, mpmath.inf])
            lo, hi = (mpmath.mpf(x) for x in closed.enclosure)
            assert lo - mpmath.mpf(10) ** -20 <= num <= hi + mpmath.mpf(10) ** -20


@settings(max_examples=8, deadline=None)
@given(adversaries())
def test_eq19_profile_matches_theorem6(adv) -> None:
    model, i, known, w = adv
    names = [model.variables[k] for k in known]
    weights = dict(zip(model.variables, w, strict=True))
    g = gaussian_leakage(model, model.variables[i], names, 2, weights)
    prof = eq19_profile(g.query, grid=5)
    assert prof.bound == g.value
    assert prof.never_exceeds and prof.approaches_left and prof.approaches_right


def test_weighted_literal_reading_differs() -> None:
    m = GaussianModel.build(["x1", "x2"], [0, 0], [[1, "1/2"], ["1/2", 1]], {"x1": ["0", "1"]})
    g = gaussian_leakage(m, "x1", [], 1, {"x1": Fraction(2)})
    assert g.coefficient == Fraction(5, 2) and g.value == Fraction(5, 2)
    assert eq19_profile(GaussianQuery(m, "x1", [], 1, {"x1": Fraction(2)})).bound == Fraction(5, 2)

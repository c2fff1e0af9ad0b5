"""GaussianModel: exact validation and loading (Li et al. Section VI-A)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from pdpsym.app.readers import load_gaussian
from pdpsym.core.errors import InputError
from pdpsym.models.gaussian import (
    GaussianModel,
    equicorrelated,
    is_positive_definite,
    ldl_pivots,
    solve,
)


def build(cov, mean=("0", "0"), ranges=None, names=("x1", "x2")):
    return GaussianModel.build(list(names), list(mean), cov, ranges or {"x1": ["0", "1"]})


def test_build_exact_entries() -> None:
    m = build([["1", "0.5"], ["1/2", "1"]])
    assert m.cov[0][1] == Fraction(1, 2)
    assert m.cov_matrix()[0, 1] == m.cov_matrix()[1, 0]
    assert m.ranges["x1"] == (Fraction(0), Fraction(1))


@pytest.mark.parametrize(
    ("cov", "field", "text"),
    [
        ([["1", "1/2"], ["1/3", "1"]], "cov", "not symmetric"),
        ([["1", "2"], ["2", "1"]], "cov", "not positive definite"),
        ([["1", "1"], ["1", "1"]], "cov", "zero"),
        ([["-1", "0"], ["0", "1"]], "cov", "negative"),
        ([["1", "0"]], "cov", "2x2"),
        ([["1", "x"], ["0", "1"]], "cov[0][1]", "not a number"),
    ],
)
def test_bad_covariance(cov, field, text) -> None:
    with pytest.raises(InputError) as err:
        build(cov)
    assert err.value.field == field
    assert text in str(err.value)


def test_bad_mean_ranges_names() -> None:
    with pytest.raises(InputError, match="mean"):
        build([["1", "0"], ["0", "1"]], mean=("0",))
    with pytest.raises(InputError, match="l < u"):
        build([["1", "0"], ["0", "1"]], ranges={"x1": ["1", "1"]})
    with pytest.raises(InputError, match="unknown variable"):
        build([["1", "0"], ["0", "1"]], ranges={"x9": ["0", "1"]})
    with pytest.raises(InputError, match="duplicate"):
        build([["1", "0"], ["0", "1"]], names=("x1", "x1"))
    with pytest.raises(InputError, match="missing"):
        GaussianModel.from_json_object({"variables": ["a"], "mean": ["0"]})


def test_pd_test_agrees_with_minors() -> None:
    import itertools

    import sympy

    vals = [Fraction(k, 2) for k in range(-3, 4)]
    for a, b, c in itertools.product(vals, repeat=3):
        m = [[a, b], [b, c]]
        minors_pd = a > 0 and sympy.Matrix([[a, b], [b, c]]).det() > 0
        assert is_positive_definite(m) == minors_pd
    assert ldl_pivots([[2, 1], [1, 2]]) == [2, Fraction(3, 2)]


def test_solve_exact() -> None:
    x = solve(
        [[Fraction(2), Fraction(1)], [Fraction(1), Fraction(3)]], [[Fraction(1)], [Fraction(2)]]
    )
    assert x == [[Fraction(1, 5)], [Fraction(3, 5)]]
    with pytest.raises(ZeroDivisionError):
        solve(
            [[Fraction(1), Fraction(2)], [Fraction(2), Fraction(4)]], [[Fraction(1)], [Fraction(1)]]
        )


def test_load_json_and_toml(tmp_path) -> None:
    obj = {
        "variables": ["a", "b"],
        "mean": ["1", "-1/2"],
        "cov": [["2", "1/2"], ["1/2", "1"]],
        "ranges": {"a": ["0", "3"]},
    }
    pj = tmp_path / "g.json"
    pj.write_text(json.dumps(obj))
    m = load_gaussian(pj)
    assert m.mean == (Fraction(1), Fraction(-1, 2))
    pt = tmp_path / "g.toml"
    pt.write_text(
        'variables = ["a", "b"]\nmean = ["1", "-1/2"]\n'
        'cov = [["2", "1/2"], ["1/2", "1"]]\n[ranges]\na = ["0", "3"]\n'
    )
    m2 = load_gaussian(pt)
    assert m2.cov == m.cov and m2.ranges == m.ranges


def test_equicorrelated_is_unit_variances_and_one_covariance() -> None:
    m = equicorrelated(3, Fraction(1, 2))
    assert tuple(m.variables) == ("x1", "x2", "x3")
    assert m.cov == tuple(
        tuple(Fraction(1) if r == c else Fraction(1, 2) for c in range(3)) for r in range(3)
    )
    # by hand: the eigenvalues of I + rho (J - I) are 1 - rho (twice) and 1 + 2 rho, so
    # rho = -1/2 at n = 3 is singular
    with pytest.raises(InputError) as err:
        equicorrelated(3, Fraction(-1, 2))
    assert err.value.field == "cov"

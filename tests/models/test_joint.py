"""Discrete models: validation, derived distributions, file formats."""

from fractions import Fraction

import pytest

from pdpsym.app.readers import load_discrete
from pdpsym.core.errors import InputError
from pdpsym.models.joint import JointDistribution

ROWS = [["0", "0", "3/10"], ["0", "1", "1/5"], ["1", "0", "1/5"], ["1", "1", "3/10"]]


def test_marginals_conditionals_and_correlation():
    m = JointDistribution.from_rows(["x1", "x2"], ROWS)
    assert m.marginal(["x1"]).probs == {
        (Fraction(0),): Fraction(1, 2),
        (Fraction(1),): Fraction(1, 2),
    }
    c = m.conditional({"x1": Fraction(1)})
    assert c.probs == {(Fraction(0),): Fraction(2, 5), (Fraction(1),): Fraction(3, 5)}
    assert m.covariance("x1", "x2") == Fraction(1, 20)
    assert str(m.pearson("x1", "x2")) == "1/5"
    assert not m.is_independent()
    assert JointDistribution.product(
        {"a": {"0": "1/2", "1": "1/2"}, "b": {"0": "1/3", "1": "2/3"}}
    ).is_independent()


def test_domains_may_list_zero_probability_values():
    m = JointDistribution.from_rows(["x1", "x2"], ROWS, {"x1": ["0", "1", "2"]})
    assert m.domain("x1") == (0, 1, 2)
    assert m.counts.shape == (3, 2)


@pytest.mark.parametrize(
    "rows,field",
    [
        ([["0", "0", "-1/10"], ["0", "1", "11/10"]], "rows[0][2] (probability)"),
        ([["0", "0", "1/2"], ["0", "1", "1/3"]], "rows"),
        ([["0", "0", "1/2"], ["0", "1"]], "rows[1]"),
        ([["0", "0", "1/2"], ["0", "0", "1/2"]], "rows[1]"),
        ([["0", "0", "half"], ["0", "1", "1/2"]], "rows[0][2] (probability)"),
    ],
)
def test_bad_rows_are_rejected_with_the_field(rows, field):
    with pytest.raises(InputError) as err:
        JointDistribution.from_rows(["x1", "x2"], rows)
    assert err.value.field == field


def test_bad_names_and_domains():
    with pytest.raises(InputError, match="duplicate variable"):
        JointDistribution.from_rows(["x", "x"], ROWS)
    with pytest.raises(InputError, match="not in the domain"):
        JointDistribution.from_rows(["x1", "x2"], ROWS, {"x1": ["0"]})
    with pytest.raises(InputError, match="unknown variable"):
        JointDistribution.from_rows(["x1", "x2"], ROWS, {"x9": ["0"]})


def test_json_toml_and_csv_load_the_same_model(tmp_path):
    (tmp_path / "m.json").write_text(
        '{"variables": ["x1", "x2"], "rows": [["0","0","0.3"],["0","1","1/5"],["1","0","1/5"],["1","1","3/10"]]}'
    )
    (tmp_path / "m.toml").write_text(
        'variables = ["x1", "x2"]\nrows = [["0","0","3/10"],["0","1","1/5"],["1","0","1/5"],["1","1","3/10"]]\n'
    )
    (tmp_path / "m.csv").write_text("x1,x2,p\n0,0,3/10\n0,1,1/5\n1,0,1/5\n1,1,3/10\n")
    models = [load_discrete(tmp_path / f"m.{ext}") for ext in ("json", "toml", "csv")]
    assert all(m.probs == models[0].probs for m in models)


def test_json_numbers_stay_exact(tmp_path):
    (tmp_path / "m.json").write_text('{"variables": ["x"], "rows": [[0, 0.1], [1, 0.9]]}')
    m = load_discrete(tmp_path / "m.json")
    assert m.probs[(Fraction(0),)] == Fraction(1, 10)


def test_malformed_files(tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(InputError, match="invalid JSON"):
        load_discrete(tmp_path / "bad.json")
    (tmp_path / "bad.csv").write_text("x1,x2\n0,0\n")
    with pytest.raises(InputError) as err:
        load_discrete(tmp_path / "bad.csv")
    assert err.value.field == "header"
    with pytest.raises(InputError, match="no such file"):
        load_discrete(tmp_path / "missing.json")

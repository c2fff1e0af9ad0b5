"""Numbers in text output (app/output.py): short exact forms as they are, long ones in
scientific form, rounded to nearest with a ``~`` when the rounding changed the value;
--json keeps the exact form."""

from __future__ import annotations

import json
import sys
from decimal import Decimal
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from pdpsym.app.cli import main
from pdpsym.app.output import number_text, scientific

sys.set_int_max_str_digits(100_000)  # the exact forms below have 10,000 digits


def _value(text: str) -> Fraction:
    """The exact rational a scientific string names (Decimal reads it exactly)."""
    return Fraction(Decimal(text.lstrip("~")))


def test_hand_checked_forms() -> None:
    # by hand: 10^9999 is exactly 1e9999; 1/8 = 0.125; -1/(3*10^40) = -3.333...e-41
    assert scientific(Fraction(10) ** 9999) == "1e9999"
    assert scientific(Fraction(1, 8)) == "1.25e-1"
    assert scientific(Fraction(-1, 3 * 10**40)) == "~-3.33333e-41"
    assert scientific(Fraction(999_999_9)) == "~1e7"  # 9999999 rounds up to 1.00000e7
    assert scientific(0) == "0"
    assert number_text(Fraction(2, 3)) == "2/3"  # short: exact
    assert number_text("1" + "0" * 9999) == "1e9999"  # text of any length (no int())
    assert number_text("log(1 + " + "7" * 40 + ")") == "log(1 + ~7.77778e39)"


@given(
    st.integers(-(10**60), 10**60).filter(bool),
    st.integers(1, 10**60),
    st.integers(1, 12),
)
def test_scientific_rounds_to_nearest_and_marks_inexact(num: int, den: int, digits: int) -> None:
    # law: |q - shown| <= half a unit in the last of `digits` significant digits, and the
    # "~" is there exactly when shown != q
    q = Fraction(num, den)
    text = scientific(q, digits)
    shown = _value(text)
    exponent = int(text.split("e")[1])
    assert abs(q - shown) <= Fraction(1, 2) * Fraction(10) ** (exponent - digits + 1)
    assert text.startswith("~") == (shown != q)
    mantissa = text.lstrip("~-").split("e")[0]
    assert 1 <= Fraction(Decimal(mantissa)) < 10


def test_gaussian_text_prints_a_huge_lambda_in_scientific_form(tmp_path, capsys) -> None:
    # Theorem 6 by hand for this model: c = 7/4, range [0, 1], so PL = (7/4) / lam
    model = {
        "variables": ["x1", "x2", "x3"],
        "mean": ["0", "0", "0"],
        "cov": [["1", "1/2", "1/4"], ["1/2", "1", "1/2"], ["1/4", "1/2", "1"]],
        "ranges": {"x1": ["0", "1"], "x2": ["0", "2"]},
    }
    path = tmp_path / "m.json"
    path.write_text(json.dumps(model))
    assert main(["gaussian", str(path), "--target", "x1", "--lam", "1e9999"]) == 0
    out = capsys.readouterr().out
    assert len(out) < 400
    assert "PL(A(x1, {})) = 1.75e-9999" in out and "lam = 1e9999" in out
    assert main(["gaussian", str(path), "--target", "x1", "--lam", "1e9999", "--json"]) == 0
    exact = json.loads(capsys.readouterr().out)["value"]["exact"]
    assert Fraction(exact) == Fraction(7, 4) / 10**9999  # --json keeps the exact form

"""Small messages that said too little or the wrong thing (issue 33, item 6), one test
each: what epsilon accepts, the line of an unknown BIF parent, the models --all-targets
takes, a vacuous delta, no numpy warning on stderr, a huge p refused before the work,
the worst target of threshold --p-values in text, and tied targets named."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from pdpsym.app.cli import main

EX = Path(__file__).resolve().parents[2] / "docs" / "examples"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_eps_says_which_forms_it_takes(capsys: pytest.CaptureFixture[str]) -> None:
    # audit takes ln(q): the hint names it; no negative example (epsilon >= 0)
    code, _, err = _run(
        capsys, "audit", str(EX / "pair.json"), str(EX / "table.json"), "--target", "x1",
        "--eps", "ln2",
    )  # fmt: skip
    assert code == 2 and "ln(3)" in err and "-2" not in err and "epsilon >= 0" in err
    # counting takes rationals only, and says so
    code, _, err = _run(capsys, "counting", "--n", "10", "--p", "1/2", "--eps", "ln(2)")
    assert code == 2 and "rational epsilons only" in err and "-2" not in err
    # the same hint in a range (a sweep) and in calibrate
    code, _, err = _run(capsys, "counting", "--n", "10", "--p", "1/2", "--eps", "ln2:1:3")
    assert code == 2 and "rational epsilons only" in err
    code, _, err = _run(capsys, "calibrate", str(EX / "chain6.json"), "--eps", "ln2")
    assert code == 2 and "rational epsilons only" in err


BIF = """\
network unknown {
}
variable A {
  type discrete [ 2 ] { a0, a1 };
}
variable B {
  type discrete [ 2 ] { b0, b1 };
}
probability ( A ) {
  table 0.5, 0.5;
}
probability ( B | Z ) {
  (a0) 0.5, 0.5;
  (a1) 0.5, 0.5;
}
"""


def test_an_unknown_bif_parent_is_reported_on_its_probability_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.bif"
    path.write_text(BIF)
    code, out, err = _run(capsys, "leakage", str(path), "--target", "A", "--lam", "1")
    # by hand: 'probability ( B | Z )' is line 12 of BIF above (B's variable line is 6)
    assert code == 2 and out == ""
    assert err.startswith("pdpsym: error: line 12: ") and "'Z'" in err


def test_all_targets_names_every_structured_model(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "leakage", str(EX / "pair.json"), "--all-targets")
    assert code == 2 and "bayesian-network" in err and ".bif" in err and "--all" in err


def test_a_delta_of_one_or_more_is_noted(capsys: pytest.CaptureFixture[str]) -> None:
    # Proposition 7 on the four records of p_values.txt at eps = 1/10: 23.29 (>= 1)
    code, out, _ = _run(capsys, "counting", "--p-values", str(EX / "p_values.txt"), "--eps", "1/10")
    assert code == 0 and "prop7.delta = 23.28" in out
    note = [ln for ln in out.splitlines() if ln.startswith("note: ")]
    assert len(note) == 1 and "prop7.delta," in note[0] and "bounds nothing" in note[0]
    # 10^5 fair coins at eps = 1/2: every bound is tiny, no note
    code, out, _ = _run(capsys, "counting", "--n", "100000", "--p", "1/2", "--eps", "1/2")
    assert code == 0 and "note:" not in out


def test_a_tiny_weight_prints_no_warning(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["leakage", str(EX / "pair.json"), "--target", "x1", "--lam", "1", "--json"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a numpy RuntimeWarning fails the run
        code, out, err = _run(capsys, *argv, "--weights", "x1=1e-308")
    assert code == 0 and err == ""
    # Eq. 2 moves by at most 2 |w1| |x1 - x1'| / lam = 2e-308 from the query x2 alone
    # (Lipschitz in the query), far below the 30 digits shown: the decimals agree
    _, ref, _ = _run(capsys, *argv, "--weights", "x1=0")
    assert json.loads(out)["value"]["decimal"] == json.loads(ref)["value"]["decimal"]


def test_a_p_of_thousands_of_digits_is_refused_up_front(capsys: pytest.CaptureFixture[str]) -> None:
    p = "1/" + "7" * 4000
    code, out, err = _run(capsys, "threshold", "--n", "20", "--p", p, "--T", "5")
    assert code == 2 and out == "" and "--max-work" in err and err.count("\n") == 1


def test_threshold_p_values_prints_the_worst_target_and_direction(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["threshold", "--p-values", str(EX / "p_values.txt"), "--T", "3", "--eps", "1/2"]
    code, out, _ = _run(capsys, *argv)
    _, js, _ = _run(capsys, *argv, "--json")
    exact = json.loads(js)["exact"]
    assert code == 0
    assert f"exact.target = {exact['target']}" in out.splitlines()
    assert f"exact.direction = {exact['direction']}" in out.splitlines()


def test_tied_targets_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    # a symmetric two-state chain started at its (uniform) stationary law is reversible:
    # x3 and x4 of six records are mirror images and leak the same (by hand)
    code, out, _ = _run(capsys, "leakage", str(EX / "chain6.json"), "--all-targets", "--lam", "1")
    last = out.splitlines()[-1]
    assert code == 0 and last.startswith("max: x3 (within the enclosures, ties with x4): ")


def test_exact_rows_names_the_tolerance_that_would_read_the_row(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # alarm.bif line 158 sums to 9999999/10000000 (read off the file): --exact-rows refuses
    # it and says how the row would be read; the hint was lost once because the check for
    # a row summing to 0 matched the "0," of "10000000, not exactly 1"
    argv = ["leakage", str(EX / "alarm.bif"), "--target", "HYPOVOLEMIA", "--lam", "2"]
    code, out, err = _run(capsys, *argv, "--exact-rows")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "line 158: probabilities sum to 9999999/10000000, not exactly 1" in err
    assert "(drop --exact-rows to read rows within 1e-6 of 1)" in err

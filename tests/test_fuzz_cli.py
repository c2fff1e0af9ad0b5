"""Fuzz: hostile inputs to every command never give a traceback, a multi-line error,
an internal error, a MemoryError or a hang (tests/fuzz_cases.py draws them).

The law, for every input: the exit code is 0, 1 or 2; stderr has at most one line and
no traceback; the run ends within 20 s (a hang check, not a timing assertion).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from fuzz_cases import COMMANDS, draw, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def _check(seed: int, command: str, tmp: Path) -> None:
    argv = draw(random.Random(seed), tmp, command)
    outcome, code, err = run(argv)
    assert outcome == "ok", (outcome, code, argv, err[-500:])


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32 - 1), command=st.sampled_from(COMMANDS))
def test_every_command_fails_cleanly_on_hostile_input(
    tmp_path: Path, seed: int, command: str
) -> None:
    _check(seed, command, tmp_path)


@pytest.mark.slow
@settings(
    max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32 - 1), command=st.sampled_from(COMMANDS))
def test_every_command_fails_cleanly_on_hostile_input_thorough(
    tmp_path: Path, seed: int, command: str
) -> None:
    _check(seed, command, tmp_path)


@pytest.mark.parametrize(
    "argv",
    [
        ["leakage", "tests/golden/models/table_a.json", "--target", "x1", "--lam", "1e-320"],
        ["leakage", "tests/golden/models/table_a.json", "--target", "x1", "--lam", "1e-400"],
        ["leakage", "tests/golden/models/table_a.json", "--target", "x1", "--lam", "1e309"],
        ["table", "li2019-examples", "--digits", "1e9999"],
        ["threshold", "--n", "10", "--p", "1e-400", "--T", "3"],
        ["counting", "--n", "1e9999", "--p", "1/3", "--eps", "1"],
        ["counting", "--n", "1000000000", "--p", "1/3", "--eps", "1"],
        ["counting", "--n", "500", "--p", "1/3", "--eps", "0"],
        ["counting", "--n", "500", "--p", "1/3", "--eps", "1e9999"],
        ["gaussian", "tests/golden/models/table_a.json", "--digits", "３"],
        ["threshold", "--n", "10", "--p", "1/3", "--T", "3", "--bmax", "-1"],
        ["leakage", "/dev/zero", "--target", "x1"],
        ["oracle", "export", "--out", "x" * 300],
    ],
)
def test_the_reported_repros_end_cleanly(argv: list[str]) -> None:
    root = Path(__file__).resolve().parents[1]
    import os

    cwd = os.getcwd()
    os.chdir(root)
    try:
        outcome, code, err = run(argv)
    finally:
        os.chdir(cwd)
    assert outcome == "ok" and code in (0, 2), (argv, err)


def test_a_csv_field_over_the_csv_limit_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "huge.csv"
    f.write_text("x1,p\n" + "1" * 140_000 + ",1\n")
    outcome, code, err = run(["leakage", str(f), "--target", "x1"])
    assert outcome == "ok" and code == 2 and "MODEL" in err


def test_an_audit_with_numbers_of_thousands_of_digits_is_refused_upfront(tmp_path: Path) -> None:
    import json

    m, k = tmp_path / "m.json", tmp_path / "k.json"
    m.write_text(
        json.dumps({"variables": ["x1", "x2"], "rows": [["0", "0", "1/2"], ["1", "1", "1/2"]]})
    )
    k.write_text(json.dumps({"kind": "randomized-response", "keep": "1e-9999"}))
    outcome, code, err = run(["audit", str(m), str(k), "--target", "x1", "--delta", "1e-5000"])
    assert outcome == "ok" and code == 2 and "--max-work" in err


def test_a_negative_bmax_is_refused_naming_the_flag_typed() -> None:
    # Theorem 4 of Desfontaines et al. 2020 needs b_max >= 0; the message names --bmax, not b_max
    outcome, code, err = run(["threshold", "--n", "10", "--p", "1/3", "--T", "3", "--bmax", "-1"])
    assert outcome == "ok" and code == 2 and "--bmax" in err and err.count("\n") <= 1

"""Fuzz: hostile inputs to every command never give a traceback, a multi-line error,
an internal error, a MemoryError or a hang (tests/fuzz_cases.py draws them).

The law, for every input: the exit code is 0, 1 or 2; stderr has at most one line and
no traceback; the run ends within 20 s (a hang check, not a timing assertion).
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import pytest
from fuzz_cases import COMMANDS, TWO_RECORD_TABLE, audit_case, draw, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def _check(seed: int, command: str, tmp: Path) -> None:
    # hypothesis reuses the function's tmp_path across examples (and replays saved ones):
    # a fresh directory per example, so a FIFO or link of an earlier example is never in
    # the way of the next one's
    tmp = Path(tempfile.mkdtemp(dir=tmp))
    argv = draw(random.Random(seed), tmp, command)
    outcome, code, err = run(argv, watch=tmp)
    assert outcome == "ok", (outcome, code, argv, err[-500:])


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32 - 1), command=st.sampled_from(COMMANDS))
def test_every_command_fails_cleanly_on_hostile_input(
    tmp_path: Path, seed: int, command: str
) -> None:
    _check(seed, command, tmp_path)


@pytest.mark.slow
@settings(
    max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
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
        # thorough fuzz, seed 3621780: an unknown target of an interval class's audit
        # reached the figures' search estimate (an internal error) before any check
        [
            "audit",
            "docs/examples/estimated-chain-4.json",
            "docs/examples/laplace2.json",
            "--target",
            "0x10",
            "--eps",
            "1",
        ],
        # thorough fuzz, seed 8290 (class audit): ibcdp's δ at ε = 1e9999 had no finite
        # ball of e^ε (an internal error); δ does not increase with ε, so it is 0 here
        [
            "audit",
            "docs/examples/chain6.json",
            "docs/examples/laplace2.json",
            "--target",
            "x3",
            "--eps",
            "1e9999",
            "--notions",
            "ibcdp",
        ],
        # seed 20261128: an InputError raised in a pool worker did not unpickle
        # (BrokenProcessPool, an internal error)
        ["leakage", "docs/examples/chain-class.json", "--target", "x50", "--jobs", "2"],
        [
            "calibrate",
            "docs/examples/chain-class.json",
            "--eps",
            "1",
            "--target",
            "x9",
            "--jobs",
            "2",
        ],
        # seed 20261128: an interval class's audit admitted by the shared work alone, its
        # notions' own work (28 laws x 4.7e7 steps) not estimated: ran 40 s
        [
            "audit",
            "tests/data/interval_chain50.json",
            "tests/data/geometric_half.json",
            "--target",
            "x3",
            "--known",
            "x1",
            "--eps",
            "1",
            "--notions",
            "all",
            "--max-work",
            "8000000",
        ],
        # seed 20261129: x1 does not move the count of x3 given x2: the search for the
        # smallest scale halved forever
        [
            "calibrate",
            "tests/data/network3.json",
            "--eps",
            "1",
            "--target",
            "x1",
            "--known",
            "x2",
            "--count",
            "x3=2",
        ],
    ],
)
def test_the_reported_repros_end_cleanly(argv: list[str]) -> None:
    root = Path(__file__).resolve().parents[2]
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


# --- issue classes: every command under --max-work, every figure id ------------------


def _leaves() -> list[tuple[list[str], list[str]]]:
    """Every (sub)command path, and the least argv that parses for it (required
    arguments given a placeholder or their first choice), read from the parser."""
    import argparse

    from pdpsym.app.cli import build_parser

    out: list[tuple[list[str], list[str]]] = []

    def walk(p: argparse.ArgumentParser, path: list[str]) -> None:
        subs = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        if subs:
            for name, child in subs[0].choices.items():
                walk(child, [*path, name])
            return
        need: list[str] = []
        for a in p._actions:
            if not a.option_strings and a.nargs not in ("?", "*"):
                need.append(str(next(iter(a.choices))) if a.choices else "placeholder")
            elif a.required:
                need += [a.option_strings[0], str(next(iter(a.choices))) if a.choices else "1"]
        for g in p._mutually_exclusive_groups:
            if g.required:
                need += [g._group_actions[0].option_strings[0], "1"]
        out.append((path, need))

    walk(build_parser(), [])
    return out


LEAVES = _leaves()


def test_the_leaves_cover_every_command() -> None:
    # the commands pdpsym --help lists (oracle has two actions)
    top = {path[0] for path, _ in LEAVES}
    assert {"verify", "leakage", "audit", "figure", "whg", "oracle", "gaussian"} <= top
    assert ["oracle", "check"] in [p for p, _ in LEAVES]


@pytest.mark.parametrize(("path", "need"), LEAVES, ids=[" ".join(p) for p, _ in LEAVES])
@pytest.mark.parametrize("bad", ["abc", "0", "-5", "1e9999", ""])
def test_max_work_is_validated_like_any_integer_flag(path, need, bad) -> None:
    outcome, code, err = run([*path, *need, "--max-work", bad])
    assert outcome == "ok" and code == 2 and "--max-work" in err, (path, err)


@pytest.mark.parametrize(("path", "need"), LEAVES, ids=[" ".join(p) for p, _ in LEAVES])
def test_max_work_1_refuses_every_command_before_any_work(path, need) -> None:
    # budget.FIXED_WORK (1000 steps) is the least any command is estimated at
    outcome, code, err = run([*path, *need, "--max-work", "1"], limit_s=10)
    assert outcome == "ok" and code == 2 and "--max-work" in err, (path, err)


def _figure_ids() -> list[str]:
    from pdpsym.verify.figures import all_figures

    return list(all_figures())


@pytest.mark.parametrize("figure_id", _figure_ids())
@pytest.mark.parametrize("scale", ["quick", "paper"])
def test_every_figure_id_is_estimated_and_refused_under_a_small_limit(figure_id, scale) -> None:
    # 1001 passes the fixed cost, so the refusal is the figure's own estimate
    for limit in ("1", "1001"):
        outcome, code, err = run(
            ["figure", figure_id, "--scale", scale, "--max-work", limit], limit_s=10
        )
        assert outcome == "ok" and code == 2 and "--max-work" in err, (figure_id, err)
    assert f"figure {figure_id}" in err


def test_the_figure_estimate_grows_with_the_scale() -> None:
    from pdpsym.app.commands.figure import work
    from pdpsym.claims.figure import Scale
    from pdpsym.verify.figures import all_figures

    for fid, spec in all_figures().items():
        quick, paper = (work(fid, list(spec.points(s))) for s in (Scale.QUICK, Scale.PAPER))
        assert 0 < quick <= paper, fid


# --- the adversarial pass's defects, each one a test ---------------------------------


@pytest.mark.parametrize("rows", ["x", None, 3, {}, [[]], [["x"]], {"a": 1}, [None], [[1, 2]]])
@pytest.mark.parametrize("command", ["audit", "oracle"])
def test_a_malformed_table_is_exit_2_naming_the_rows(tmp_path: Path, rows, command) -> None:
    mech = {"kind": "table", "rows": rows}
    if command == "audit":
        outcome, code, err = audit_case(tmp_path, mech)
    else:
        m, k = tmp_path / "m.json", tmp_path / "k.json"
        m.write_text(json.dumps(TWO_RECORD_TABLE))
        k.write_text(json.dumps(mech))
        argv = ["oracle", "export", "--model", str(m), "--mechanism", str(k), "--target", "x1"]
        outcome, code, err = run([*argv, "--out", str(tmp_path / "o.json")])
    assert outcome == "ok" and code == 2 and "rows" in err and err.count("\n") == 1, err
    assert "Fraction(" not in err


def test_an_unsummed_table_row_names_the_database_without_a_python_repr(tmp_path: Path) -> None:
    mech = {"kind": "table", "rows": [["0", "0", "a", "1/2"]]}
    outcome, code, err = audit_case(tmp_path, mech)
    assert code == 2 and "mechanism.rows (database (0, 0))" in err and "Fraction" not in err


def test_duplicate_json_keys_are_refused(tmp_path: Path) -> None:
    raw = '{"kind": "randomized-response", "keep": "3/4", "keep": "1/2"}'
    outcome, code, err = audit_case(tmp_path, None, raw=raw)
    assert code == 2 and "MECHANISM" in err and "'keep' appears twice" in err


def test_numbers_as_variable_names_are_refused(tmp_path: Path) -> None:
    model = {"variables": [1, 2], "rows": [["0", "0", "1"]]}
    outcome, code, err = audit_case(tmp_path, {"kind": "histogram"}, model=model)
    assert code == 2 and "variables[0]" in err


def test_a_quoted_newline_in_a_csv_column_name_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "m.csv"
    f.write_text('"x\n1",x2,p\n0,0,1\n')
    outcome, code, err = run(["leakage", str(f), "--target", "x2"])
    assert code == 2 and "header[0]" in err and err.count("\n") == 1


def test_deep_nesting_names_the_file(tmp_path: Path) -> None:
    outcome, code, err = audit_case(tmp_path, None, raw="[" * 100_000 + "]" * 100_000)
    assert code == 2 and "MECHANISM" in err and "nested too deeply" in err


def test_a_variable_named_twice_names_the_flag(tmp_path: Path) -> None:
    outcome, code, err = audit_case(tmp_path, {"kind": "histogram"}, "--known", "x2,x2")
    assert code == 2 and "--known" in err and "x2" in err


@pytest.mark.parametrize(
    "extra",
    [["--notions", ""], ["--notions", " , "], ["--lam", "2"], ["--family", "random-binary"]],
)
def test_oracle_export_refuses_what_it_would_ignore(tmp_path: Path, extra: list[str]) -> None:
    m, k = tmp_path / "m.json", tmp_path / "k.json"
    m.write_text(json.dumps(TWO_RECORD_TABLE))
    k.write_text(json.dumps({"kind": "histogram"}))
    out = tmp_path / "o.json"
    argv = ["oracle", "export", "--model", str(m), "--mechanism", str(k), "--target", "x1"]
    outcome, code, err = run([*argv, *extra, "--out", str(out)])
    assert code == 2 and extra[0] in err and not out.exists(), err


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_oracle_check_refuses_a_pipe_or_a_device_at_once(tmp_path: Path, special: str) -> None:
    import os

    path = tmp_path / "pipe"
    if special == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    outcome, code, err = run(["oracle", "check", str(path), str(path)], limit_s=10)
    assert outcome == "ok" and code == 2 and "not a regular file" in err


def test_a_long_number_is_elided_in_the_error(tmp_path: Path) -> None:
    # the row sums to 1/7...7 (4400 digits), which the message quotes
    mech = {"kind": "table", "rows": [["0", "0", "a", "1/" + "7" * 4400]]}
    outcome, code, err = audit_case(tmp_path, mech)
    assert code == 2 and len(err) < 400 and "chars)" in err, err


@pytest.mark.parametrize("arg", ["--nope\nx", "--x\ry", "a\u202eb", "\u2028"])
def test_argparse_errors_stay_on_one_line_and_escape(arg: str) -> None:
    outcome, code, err = run(["figure", "--scale", arg])
    assert outcome == "ok" and code == 2 and err.count("\n") == 1
    assert "\r" not in err and "\u202e" not in err and "\u2028" not in err


def test_bidi_characters_in_a_label_are_escaped_in_every_output(tmp_path: Path) -> None:
    mech = {"kind": "table", "rows": [["0", "0", "a\u202eb", "1"], ["1", "1", "c", "1"]]}
    for fmt in ([], ["--json"]):
        outcome, code, err = audit_case(tmp_path, mech, "--notions", "dp", *fmt)
        assert code in (0, 2) and "\u202e" not in err
    import contextlib
    import io

    from pdpsym.app.cli import main

    m, k = tmp_path / "m.json", tmp_path / "k.json"
    for fmt in ([], ["--json"]):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            main(["audit", str(m), str(k), "--target", "x1", "--notions", "np", *fmt])
        assert "\u202e" not in buf.getvalue()

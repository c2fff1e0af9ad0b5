"""``pdpsym whg``: JSON shape, values against leakage(), given edges, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pdpsym.app.cli import main
from pdpsym.papers.li2019.whg import MAX_EXACT_N

TABLE_A = {
    "variables": ["x1", "x2"],
    "rows": [[0, 0, "3/10"], [0, 1, "1/5"], [1, 0, "1/5"], [1, 1, "3/10"]],
}


def write(tmp_path: Path, name: str, obj: object) -> str:
    p = tmp_path / name
    p.write_text(json.dumps(obj))
    return str(p)


def test_json_nodes_and_max(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "a.json", TABLE_A)
    assert main(["whg", path, "--json", "--digits", "12"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["nodes"]) == 4
    top = [n for n in out["nodes"] if n["layer"] == 2]
    assert all(n["exact"]["decimal"] == n["chain"]["decimal"] == "1.18537590325" for n in top)
    assert set(out["nodes"][0]) >= {"target", "known", "layer", "status", "exact", "chain"}
    assert out["max"]["exact"]["layer"] == 2


def test_text_output_and_fast(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "a.json", TABLE_A)
    assert main(["whg", path, "--fast", "1", "--reading", "left"]) == 0
    out = capsys.readouterr().out
    assert "max chain" in out and "fast k=1" in out


def test_given_edges(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(
        tmp_path,
        "e.json",
        {"n": 2, "bottom": ["1", "1"], "edges": [[["-1", None]], [["1/2", None]]]},
    )
    assert main(["whg", "--edges", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["max"]["chain"]["value"]["exact"] == "3/2"


@pytest.mark.parametrize(
    "argv_tail",
    [
        ["--fast", "0"],
        ["--digits", "x"],
        ["--lam", "-1"],
    ],
)
def test_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv_tail: list) -> None:
    path = write(tmp_path, "a.json", TABLE_A)
    assert main(["whg", path, *argv_tail]) == 2
    cap = capsys.readouterr()
    assert cap.out == "" and cap.err.count("\n") == 1


def test_bad_edge_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "e.json", {"n": 3, "edges": [[["1"]]]})
    assert main(["whg", "--edges", path]) == 2
    assert "shape" in capsys.readouterr().err


def test_model_too_large(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    n = MAX_EXACT_N + 1
    obj = {"variables": [f"x{k}" for k in range(n)], "rows": [[0] * n + ["1/2"], [1] * n + ["1/2"]]}
    path = write(tmp_path, "big.json", obj)
    assert main(["whg", path]) == 2
    assert "limited to n <=" in capsys.readouterr().err


def test_neither_model_nor_edges(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["whg"]) == 2


def test_subprocess_exit_status(tmp_path: Path) -> None:
    path = write(tmp_path, "e.json", {"n": 2, "edges": [[["1"]]]})
    proc = subprocess.run(
        [sys.executable, "-m", "pdpsym", "whg", "--edges", path], capture_output=True, text=True
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1


def test_absurd_lambda_is_refused_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "a.json", TABLE_A)
    assert main(["whg", path, "--lam", "1e9999"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--lam" in err and len(err) < 200


def test_huge_lambda_prints_in_scientific_form(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # lambda = 10^100: the text shows 1e100 (exactly 10^100, no ~), not 101 digits; --json keeps
    # the exact rational (hand derivation: str(Fraction(10**100)))
    path = write(tmp_path, "a.json", TABLE_A)
    assert main(["whg", path, "--lam", "1e100"]) == 0
    out = capsys.readouterr().out
    assert "lam: 1e100" in out and "0" * 50 not in out
    assert main(["whg", path, "--lam", "1e100", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["lam"] == str(10**100)


def test_a_value_beyond_the_precision_budget_is_refused_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the fuzz run's one hang (10,000 inputs, seed 20261124, case 9511): a value 1e9999 ran
    # for minutes; it is now refused before any work, one line naming the model
    rows = [
        ["0", "1e9999", "0", "1/25"],
        ["0", "0", "1", "5/25"],
        ["0", "1", "0", "3/25"],
        ["0", "1", "1", "4/25"],
        ["1", "0", "0", "3/25"],
        ["1", "0", "1", "5/25"],
        ["1", "1", "0", "1/25"],
        ["1", "1", "1", "3/25"],
    ]
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"variables": ["x1", "x2", "x3"], "rows": rows}))
    assert main(["whg", str(path), "--lam", "1", "--fast", "2", "--digits", "10"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "MODEL" in err[0] and "x2" in err[0]

"""`pdpsym gaussian`: JSON shape, --all, bad input (exit 2, one stderr line)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pdpsym.app.cli import main

MODEL = {
    "variables": ["x1", "x2", "x3"],
    "mean": ["0", "0", "0"],
    "cov": [["1", "1/2", "1/4"], ["1/2", "1", "1/2"], ["1/4", "1/2", "1"]],
    "ranges": {"x1": ["0", "1"], "x2": ["0", "2"]},
}


def write(tmp_path, obj, name="m.json"):
    p = tmp_path / name
    p.write_text(json.dumps(obj))
    return str(p)


def test_json_output(tmp_path, capsys) -> None:
    path = write(tmp_path, MODEL)
    assert (
        main(["gaussian", path, "--target", "x1", "--lam", "1/2", "--json", "--digits", "8"]) == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["value"]["exact"] == "7/2"
    assert out["coefficient"]["exact"] == "7/4"
    assert out["conditional_variance"]["exact"] == "39/16"
    assert out["value"]["decimal"] == "3.5000000"
    assert out["target"] == "x1" and out["known"] == []


def test_known_and_weights(tmp_path, capsys) -> None:
    path = write(tmp_path, MODEL)
    assert (
        main(["gaussian", path, "--target", "x1", "--known", "x3", "--weights", "x2=2", "--json"])
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    # c = 1 + 2 * (Σ_21, Σ_23) Σ_AA^{-1} e_1 with A = (x1, x3): (1/2, 1/2) [[1,1/4],[1/4,1]]^{-1} e_1
    assert out["coefficient"]["exact"] == "9/5"
    assert out["known"] == ["x3"]


def test_all_table_and_json(tmp_path, capsys) -> None:
    path = write(tmp_path, MODEL)
    assert main(["gaussian", path, "--all"]) == 0
    text = capsys.readouterr().out
    assert text.count("\n") == 2 + 8 and "| x2 | x1,x3 | 1 | 0 | 2 |" in text
    assert main(["gaussian", path, "--all", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["adversaries"]) == 8


def test_text_output(tmp_path, capsys) -> None:
    path = write(tmp_path, MODEL)
    assert main(["gaussian", path, "--target", "x2", "--known", "x1,x3"]) == 0
    assert capsys.readouterr().out.startswith("PL(A(x2, {x1,x3})) = 2 = 2.000")


BAD = [
    (
        {**MODEL, "cov": [["1", "1/2", "0"], ["1/3", "1", "0"], ["0", "0", "1"]]},
        ["--target", "x1"],
        "symmetric",
    ),
    (
        {**MODEL, "cov": [["1", "2", "0"], ["2", "1", "0"], ["0", "0", "1"]]},
        ["--target", "x1"],
        "positive definite",
    ),
    (
        {**MODEL, "cov": [["1", "1", "0"], ["1", "1", "0"], ["0", "0", "1"]]},
        ["--target", "x1"],
        "singular",
    ),
    (MODEL, ["--target", "x3"], "no range"),
    ({**MODEL, "mean": ["0", "0"]}, ["--target", "x1"], "mean"),
    (MODEL, ["--target", "x1", "--lam", "0"], "--lam"),
    (MODEL, ["--target", "x1", "--lam", "-1"], "--lam"),
    (MODEL, ["--target", "x1", "--known", "x1"], "--known"),
    (MODEL, ["--target", "x1", "--known", "x9"], "--known"),
    (MODEL, ["--target", "x1", "--weights", "x9=1"], "--weights"),
    (MODEL, ["--target", "x1", "--weights", "x2=abc"], "--weights"),
    (MODEL, ["--target", "x1", "--weights", "x2"], "--weights"),
    (MODEL, [], "--target"),
]


@pytest.mark.parametrize(("obj", "argv", "text"), BAD)
def test_bad_input(tmp_path, capsys, obj, argv, text) -> None:
    path = write(tmp_path, obj)
    assert main(["gaussian", path, *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and text in captured.err


def test_subprocess_exit_status(tmp_path) -> None:
    bad = {**MODEL, "cov": [["1", "2", "0"], ["2", "1", "0"], ["0", "0", "1"]]}
    path = write(tmp_path, bad)
    proc = subprocess.run(
        [sys.executable, "-m", "pdpsym", "gaussian", path, "--target", "x1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "cov" in proc.stderr

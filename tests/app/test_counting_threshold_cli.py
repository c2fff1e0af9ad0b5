"""``pdpsym counting`` and ``pdpsym threshold``: JSON shape, values and bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from pdpsym.app.cli import main
from pdpsym.core.certify import certify
from pdpsym.core.eps import Eps
from pdpsym.mechanisms.counting import counting_delta


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_counting_json(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(
        capsys,
        ["counting", "--n", "40", "--p", "1/2", "--eps", "1/2", "--lambda", "1/10", "--json"],
    )
    assert set(out["exact"]["delta"]) == {"exact", "decimal", "enclosure"}
    assert "blanket" in out["theorem3"] and "delta" in out["prop7"]
    ref = counting_delta([Fraction(1, 2)] * 40, Eps.of(Fraction(1, 2))).value
    assert out["exact"]["delta"]["decimal"] == certify(ref, 20).decimal


def test_counting_p_values_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text("# p_i\n1/3\n0.5\n\n3/4\n1/5\n")
    out = _json(capsys, ["counting", "--p-values", str(f), "--eps", "1/10", "--json"])
    ref = counting_delta(
        [Fraction(1, 3), Fraction(1, 2), Fraction(3, 4), Fraction(1, 5)], Eps.of(Fraction(1, 10))
    ).value
    assert out["exact"]["delta"]["decimal"] == certify(ref, 20).decimal
    assert out["theorem3"] == {"applicable": False, "reason": "needs --lambda"}


def test_threshold_json(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(capsys, ["threshold", "--n", "200", "--p", "1/100", "--T", "8", "--json"])
    th = out["theorem4"]
    assert set(th) >= {"r", "epsilon", "delta"}
    assert th["r"]["exact"] == str(Fraction(199, 99 * 8))
    d_exact = float(out["exact"]["delta_at_epsilon"]["decimal"])
    assert d_exact <= float(th["delta"]["decimal"])
    assert "reading" in out


def test_threshold_with_knowledge(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(
        capsys, ["threshold", "--n", "60", "--p", "1/50", "--T", "6", "--known-size", "5", "--json"]
    )
    assert "b_max" in out["theorem4"] and "apk_delta_at_epsilon" in out["exact"]


@pytest.mark.parametrize(
    "argv,field",
    [
        (["threshold", "--n", "10", "--p", "1", "--T", "2"], "--p"),
        (["threshold", "--n", "10", "--p", "0", "--T", "2"], "--p"),
        (["threshold", "--n", "10", "--p", "1/2", "--T", "-1"], "--T"),
        (["threshold", "--n", "10", "--p", "1/2", "--T", "10"], "--T"),
        (
            ["threshold", "--n", "10", "--p", "1/2", "--T", "2", "--known-size", "11"],
            "--known-size",
        ),
        (["threshold", "--n", "10", "--p", "1/2", "--T", "2", "--eps", "-1"], "--eps"),
        (["counting", "--n", "10", "--p", "3/2", "--eps", "1"], "--p"),
        (["counting", "--n", "10", "--p", "1/2", "--eps=-1/2"], "--eps"),
        (["counting", "--n", "10", "--p", "1/2", "--eps", "1", "--lambda", "1/2"], "--lambda"),
    ],
)
def test_bad_input(argv: list[str], field: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert field in captured.err and captured.err.count("\n") == 1


def test_junk_p_values(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text("1/3\nhello\n")
    assert main(["counting", "--p-values", str(f), "--eps", "1"]) == 2
    err = capsys.readouterr().err
    assert "--p-values line 2" in err


def test_subprocess_exit_status(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "pdpsym", "threshold", "--n", "5", "--p", "2", "--T", "1"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2 and r.stdout == "" and "--p" in r.stderr

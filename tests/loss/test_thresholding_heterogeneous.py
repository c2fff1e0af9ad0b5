"""``M_T`` over heterogeneous Bernoulli records (Definitions 13 and 15 of Desfontaines et
al.), against the Fraction brute force of tests/oracles/thresholding.py, on the exact path and on the large
(windowed) path; and ``threshold --p-values`` on the command line."""

from __future__ import annotations

import contextlib
import io
import json
from fractions import Fraction as F
from pathlib import Path
from unittest import mock

import pytest
from oracles.thresholding import threshold_brute

from pdpsym.app.cli import main
from pdpsym.core.certify import certify
from pdpsym.core.eps import Eps
from pdpsym.mechanisms.thresholding import ppk_delta_heterogeneous


@pytest.mark.parametrize(
    ("n", "T", "size"),
    [(30, 12, 0), (30, 9, 3), (410, 150, 0), (410, 120, 2), (410, 60, 1)],
)
def test_heterogeneous_thresholding_matches_brute_force(n: int, T: int, size: int) -> None:
    values = [F(1, 5), F(1, 3), F(1, 2)]
    ps = [values[k % 3] for k in range(n)]
    got, _, _ = ppk_delta_heterogeneous(ps, T, size, Eps.log(F(3, 2)))
    want = threshold_brute(ps, T, size, F(3, 2))
    assert certify(got, 20).decimal == certify(want, 20).decimal


def test_threshold_p_values_cli(tmp_path: Path) -> None:
    # the CLI prints the library's value (checked against the brute force above)
    f = tmp_path / "p.txt"
    values = ["1/5", "1/3", "1/2"]
    f.write_text("\n".join(values[k % 3] for k in range(30)) + "\n")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["threshold", "--p-values", str(f), "--T", "12", "--eps", "1/2", "--json"])
    assert code == 0
    got = json.loads(out.getvalue())["exact"]["delta_at_epsilon"]["decimal"]
    ps = [F(values[k % 3]) for k in range(30)]
    want = ppk_delta_heterogeneous(ps, 12, 0, Eps.of(F(1, 2)))[0]
    assert got == certify(want, 20).decimal
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["threshold", "--p-values", str(f), "--T", "12"])
    assert code == 2 and "--eps" in err.getvalue()


def test_threshold_p_values_progress_goes_to_stderr(tmp_path: Path) -> None:
    # --progress forces the bar: one update per distinct target (3 here) on stderr, and
    # stdout is the same as without it
    f = tmp_path / "p.txt"
    f.write_text("\n".join(["1/5", "1/3", "1/2"][k % 3] for k in range(30)) + "\n")
    argv = ["threshold", "--p-values", str(f), "--T", "12", "--eps", "1/2"]
    plain, out, err = io.StringIO(), io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(plain), contextlib.redirect_stderr(io.StringIO()):
        assert main(argv) == 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main([*argv, "--progress"]) == 0
    assert out.getvalue() == plain.getvalue()
    assert "threshold" in err.getvalue() and "3/3" in err.getvalue()


@pytest.mark.parametrize("command", ["threshold", "counting"])
def test_p_values_work_beyond_max_work_is_refused_before_it_starts(
    tmp_path: Path, command: str
) -> None:
    # 10^5 records of 7 values: the estimate (7 * 10^5 * 7 steps) is above --max-work 1000;
    # the engine must not be entered (it would raise here), and the one error line names
    # the flag
    f = tmp_path / "p.txt"
    f.write_text("\n".join(f"{1 + k % 7}/10" for k in range(100_000)) + "\n")
    argv = [command, "--p-values", str(f), "--eps", "1/10", "--max-work", "1000"]
    if command == "threshold":
        argv += ["--T", "50000"]
    out, err = io.StringIO(), io.StringIO()
    boom = mock.Mock(side_effect=AssertionError("the engine ran"))
    with (
        mock.patch("pdpsym.loss.thresholding_loss.ppk_delta_heterogeneous", boom),
        mock.patch("pdpsym.loss.counting_loss.counting_delta", boom),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        assert main(argv) == 2
    assert out.getvalue() == ""
    assert "--max-work" in err.getvalue() and err.getvalue().count("\n") == 1
    boom.assert_not_called()

"""Sweeps (one parameter over a range, one certified CSV row per value) and leakage --all.

Expected values: hand derivations and brute forces written here (named per test).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from fractions import Fraction

import mpmath
import pytest

from pdpsym.app.cli import main


@pytest.fixture(autouse=True)
def _forty_digits() -> Iterator[None]:
    """Every test of this module runs at 40 digits, restored afterwards."""
    with mpmath.workdps(40):
        yield


XOR = (
    '{"variables": ["x1", "x2", "x3"], "rows": [["0","0","0","1/4"],["1","1","0","1/4"],'
    '["1","0","1","1/4"],["0","1","1","1/4"]]}'
)


def _rows(out: str) -> list[dict[str, str]]:
    body = "\n".join(line for line in out.splitlines() if not line.startswith("#"))
    return list(csv.DictReader(io.StringIO(body)))


def _close(text: str, want: mpmath.mpf, digits: int = 15) -> bool:
    return abs(mpmath.mpf(text) - want) <= abs(want) * mpmath.mpf(10) ** (-digits)


def test_leakage_sweep_over_lambda_is_two_over_lambda(tmp_path, capsys) -> None:
    # x3 = x1 xor x2: knowing x2 = 0, x1 = 0 gives sum 0 and x1 = 1 gives sum 2, both
    # deterministic, so Eq. 2 is |0 - 2| / lambda (hand derivation)
    model = tmp_path / "xor.json"
    model.write_text(XOR)
    argv = ["leakage", str(model), "--target", "x1", "--known", "x2", "--lam", "1/2:2:4"]
    assert main(argv) == 0
    rows = _rows(capsys.readouterr().out)
    assert [r["lam"] for r in rows] == ["1/2", "1", "3/2", "2"]
    for r in rows:
        assert _close(
            r["value"],
            2 / mpmath.mpf(Fraction(r["lam"]).numerator) * Fraction(r["lam"]).denominator,
        )


def test_leakage_all_lists_every_adversary(tmp_path, capsys) -> None:
    model = tmp_path / "xor.json"
    model.write_text(XOR)
    assert main(["leakage", str(model), "--all", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["adversaries"]
    # 3 targets x 4 known sets; knowing both others pins x1 (x1 = x2 xor x3): no pair
    assert len(rows) == 12
    full = [r for r in rows if len(r["known"]) == 2]
    assert {r["status"] for r in full} == {"no-compatible-pair"}


def _binom(n: int, k: int) -> mpmath.mpf:
    return mpmath.binomial(n, k) / mpmath.mpf(2) ** n


def test_counting_sweep_matches_a_brute_force(capsys) -> None:
    # n records Bernoulli(1/2): with D(i) = a the count is a + S, S ~ Bin(n-1, 1/2);
    # delta(eps) = sum_o max(0, P[1 + S = o] - e^eps P[S = o]) (symmetric directions)
    n = 6
    assert main(["counting", "--n", str(n), "--p", "1/2", "--eps", "0:1:3"]) == 0
    rows = _rows(capsys.readouterr().out)
    for r in rows:
        e = mpmath.exp(mpmath.mpf(Fraction(r["eps"]).numerator) / Fraction(r["eps"]).denominator)
        want = sum(
            max(
                0,
                (_binom(n - 1, o - 1) if o >= 1 else 0)
                - e * (_binom(n - 1, o) if o <= n - 1 else 0),
            )
            for o in range(n + 1)
        )
        assert _close(r["exact.delta"], want)


def test_threshold_sweep_over_T(capsys) -> None:
    # Theorem 4 (corrected r = p(n-1)/((1-p)T)): delta = f(T, n-1, p)/(1-r), in mpmath
    n, p = 1000, mpmath.mpf(1) / 200
    assert main(["threshold", "--n", str(n), "--p", "1/200", "--T", "8:12:2"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert [r["T"] for r in rows] == ["8", "10", "12"]
    for r in rows:
        T = int(r["T"])
        rr = p * (n - 1) / ((1 - p) * T)
        f = mpmath.binomial(n - 1, T) * p**T * (1 - p) ** (n - 1 - T)
        assert _close(r["theorem4.delta"], f / (1 - rr))


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["threshold", "--n", "100", "--p", "1/2", "--T", "9:3"], "--T"),
        (["threshold", "--n", "100", "--p", "1/2", "--T", "a:3"], "--T"),
        (["counting", "--n", "10", "--p", "1/2", "--eps", "0:1"], "--eps"),
        (["counting", "--n", "10", "--p", "1/2", "--eps", "0:1:1"], "--eps"),
        (["counting", "--n", "10", "--p", "1/2", "--eps", "0:1:100000"], "--eps"),
    ],
)
def test_bad_ranges_are_one_line_exit_2(argv, flag, capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and flag in err[0]


@pytest.mark.parametrize(
    "argv",
    [
        ["threshold", "--n", "1000", "--p", "1/200", "--T", "6:12"],
        ["counting", "--n", "60", "--p", "3/10", "--eps", "0:1:4"],
    ],
)
def test_a_sweep_on_two_processes_writes_the_same_bytes(argv, capsys) -> None:
    assert main([*argv, "--jobs", "1"]) == 0
    serial = capsys.readouterr().out
    assert main([*argv, "--jobs", "2"]) == 0
    assert capsys.readouterr().out == serial
    assert "jobs" not in serial  # the settings written above the header omit it

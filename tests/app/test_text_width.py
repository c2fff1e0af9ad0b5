"""Text a person reads stays under 120 characters a line: the main commands, run on the
files of docs/examples as the docs run them (the long exact forms and the full evidence
are in ``--json`` and ``--format md``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdpsym.app.cli import main

EX = Path(__file__).resolve().parents[2] / "docs" / "examples"
WIDTH = 120


def _e(name: str) -> str:
    return str(EX / name)


COMMANDS = [
    ["verify", "--claim", "li2019.thm4", "--claim", "li2019.eq3"],
    ["leakage", _e("correlated3.json"), "--target", "x1", "--known", "x2", "--lam", "1/2"],
    ["leakage", _e("p_values.txt"), "--target", "x2", "--lam", "1/3"],
    ["leakage", _e("chain6.json"), "--all-targets", "--lam", "1"],
    ["leakage", _e("chain100.json"), "--target", "x50", "--lam", "10"],
    ["audit", _e("pair.json"), "--target", "x1", "--eps", "ln(2)", "--delta", "1/20"],
    ["audit", _e("chain6.json"), _e("laplace2.json"), "--target", "x3", "--known", "x1"],
    ["audit", _e("correlated3.json"), _e("rr.json"), "--target", "x1", "--known", "x3"],
    ["counting", "--p-values", _e("p_values.txt"), "--eps", "1/10"],
    ["counting", "--n", "100", "--p", "1/2", "--eps", "1/10", "--lambda", "1/10"],
    ["threshold", "--n", "10", "--p", "1/2", "--T", "4", "--known-size", "2", "--eps", "1/2"],
    ["threshold", "--p-values", _e("p_values.txt"), "--T", "3", "--eps", "1/2"],
    ["gaussian", _e("gaussian3.json"), "--target", "x1", "--known", "x2"],
    ["calibrate", _e("chain100.json"), "--eps", "1"],
    ["whg", _e("correlated3.json"), "--lam", "1"],
    ["figure", "--list"],
]
# the audit of a table needs its mechanism: the docs' hand-written one
COMMANDS[5].insert(2, _e("table.json"))


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(a[:2]) for a in COMMANDS])
def test_text_lines_are_under_120_characters(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 0
    out = capsys.readouterr().out
    long = [ln for ln in out.splitlines() if len(ln) >= WIDTH]
    assert not long, f"{len(long)} lines of {WIDTH}+ characters, the first: {long[0][:200]}"

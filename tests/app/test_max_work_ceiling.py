"""Refusals never suggest a ``--max-work`` the flag refuses: above the flag's ceiling
(10^18) the message says the work cannot run on this machine at all, naming the flag
(and, for a network, the induced width).

Independent sources: the flag's own parser (``parse_int`` with the bounds the CLI gives
it, checked by running the CLI with the suggested value) and hand-chosen works on each
side of 10^18.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pdpsym.app import budget
from pdpsym.app.audit_work import plan, run_with
from pdpsym.app.cli import main
from pdpsym.app.commands.audit import not_run_json, not_run_text
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_int

EX = Path(__file__).resolve().parents[2] / "docs" / "examples"
CEILING = 10**18  # the largest value `--max-work` accepts (budget.max_work's bound)
NONE = argparse.Namespace(max_work=None)


def test_the_flag_refuses_a_value_over_its_ceiling(capsys):
    # the premise: 10^18 + 1 is refused by the flag itself, 10^18 is accepted
    assert main(["leakage", str(EX / "child.bif"), "--target", "Disease", "--lam", "2",
                 "--max-work", str(CEILING + 1)]) == 2  # fmt: skip
    assert "--max-work" in capsys.readouterr().err
    assert budget.max_work(argparse.Namespace(max_work=str(CEILING))) == CEILING


@given(st.integers(1, CEILING))
def test_a_suggested_value_is_accepted_and_enough(work):
    text = run_with(work)
    value = re.fullmatch(r"--max-work (\S+) runs it", text)
    assert value is not None, text
    assert work <= parse_int(value.group(1), "--max-work", 1, CEILING)
    assert budget.runs_anyway(work) == "raise --max-work to run it anyway"


@given(st.integers(CEILING + 1, 10**40))
def test_over_the_ceiling_no_value_is_suggested(work):
    for text in (run_with(work), budget.runs_anyway(work)):
        assert "cannot run on this machine at all" in text and "--max-work" in text
        assert not re.search(r"--max-work \d", text)


def test_check_says_it_cannot_run():
    with pytest.raises(InputError) as info:
        budget.check(NONE, 10**20, "this thing")
    assert info.value.field == "--max-work"
    assert "cannot run on this machine at all" in info.value.message
    with pytest.raises(InputError) as info:
        budget.check(NONE, 10**12, "this thing")  # over the default, under the ceiling
    assert info.value.message.endswith("raise --max-work to run it anyway")


def test_audit_plans_and_left_out_notions_over_the_ceiling():
    with pytest.raises(InputError) as info:
        plan(NONE, 10, {"apkdp": 10**20}, True)  # named: refused
    assert "cannot run on this machine" in info.value.message
    assert not re.search(r"--max-work \d", info.value.message)
    with pytest.raises(InputError) as info:
        plan(NONE, 10, {"apkdp": 10**20, "dp": 10**19}, False)  # defaults: none runs
    assert "cannot run on this machine" in info.value.message
    assert "--notions" not in info.value.message
    left = {"apkdp": 10**20, "dp": 10**9}
    js = not_run_json(left)
    assert "run_with" not in js["apkdp"] and "cannot run" in js["apkdp"]["reason"]
    assert js["dp"]["run_with"] == "--notions dp --max-work 1e9"
    text = not_run_text(left)
    assert "apkdp: about 1.0e+20 steps; that is over the ceiling" in text
    assert "dp: about 1.0e+09 steps; run it with --notions dp --max-work 1e9" in text


def test_a_network_over_the_ceiling_names_the_width_and_the_flag(capsys):
    # a weight of 10^21 on one record makes the count's span about 10^21: the junction
    # tree of child (induced width 3, a min-fill order by hand of its 20 nodes) prices
    # every cell by the span, far over 10^18
    argv = ["leakage", str(EX / "child.bif"), "--all-targets", "--lam", "2"]
    assert main([*argv, "--weights", "Disease=" + "1" + "0" * 21]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "induced width 3" in err[0] and "--max-work" in err[0]
    assert "cannot run on this machine at all" in err[0]
    # under the ceiling the hint stays: raising the flag is possible
    assert main([*argv, "--weights", "Disease=" + "1" + "0" * 9]) == 2
    err = capsys.readouterr().err
    assert "induced width 3" in err and err.strip().endswith("raise --max-work to run it anyway")

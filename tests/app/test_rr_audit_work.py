"""The work estimate of ``audit`` under randomized response (pdpsym.app.rr_audit_work, as
check_work charges it): hand-computed step counts of the documented formulas, the
segment's outcomes and cases counted here by brute force. No timing (the constants'
measurements are in docs/benchmarks.md)."""

from __future__ import annotations

import argparse
import itertools
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from pdpsym.app.audit_work import plan
from pdpsym.app.cli import main
from pdpsym.app.commands.audit_models import RR_BASE, check_work
from pdpsym.app.rr_audit_work import group_work, listed_work, local_work, segment_work
from pdpsym.audit.registry import ALL_NOTIONS
from pdpsym.audit.rr_report_laws import ReportChain
from pdpsym.core.errors import InputError
from pdpsym.mechanisms.discrete import randomized_response
from pdpsym.models.law_class import IntervalChain
from pdpsym.models.markov import MarkovChain

F = Fraction
FREE = argparse.Namespace(max_work=str(10**15), ddp_reading=None, delta=None)
#: the interval chain of the fuzz run's seed 1873 (tests/app/test_fuzz_cli.py)
BOX = [[["4/5", "9/10"], ["1/10", "1/5"]], [["3/20", "3/10"], ["7/10", "17/20"]]]


def _chain(T: int) -> MarkovChain:
    return MarkovChain.from_json_object(
        {
            "kind": "markov-chain",
            "length": T,
            "states": ["0", "1"],
            "initial": ["1/3", "2/3"],
            "transition": [["17/20", "3/20"], ["1/5", "4/5"]],
        }
    )


def _own(T: int, target: str, known: list[str], points: int = 1) -> tuple[int, dict[str, int]]:
    model = _chain(T)
    mech = randomized_response(F(3, 4), [model.domain(v) for v in model.variables])
    shared, own, fixed = check_work(FREE, model, mech, target, known, list(ALL_NOTIONS), points)
    assert fixed == {}
    return shared, own


def test_the_formulas_by_hand() -> None:
    # by hand: 300 + 17 (1 + 2) 16 4 = 3564 (16 outcomes, 4 cases, one point)
    assert listed_work(16, 4, 1) == 3564
    # by hand: 100 k + 50 k points = 200 + 400 for two values at four points
    assert local_work(2, 4) == 600
    # by hand: (200 + 100 g + 2 g^2) (points + 2) / 3 = (200 + 1200 + 288) for g = 12
    assert group_work(2, 12, 1, 200) == 1688
    # by hand: three values, g = 50: (200 + 5000 + 20 2500) (4 + 2) / 3 = 110400
    assert group_work(3, 50, 4, 200) == 110400
    # past the largest listed group: the local pair's steps, 100 3 + 50 3 = 450
    assert group_work(3, 201, 1, 200) == 450


def test_seed_1873_at_length_5_each_notion_by_hand() -> None:
    # target x2, x1 known: the reports of x2..x5 are listed (l = x1, no r). Counted here:
    # the report tuples, and the cases (a, b) ordered, times x1's values
    outcomes = len(list(itertools.product((0, 1), repeat=4)))
    cases = len([(a, b, v) for a, b in itertools.permutations((0, 1), 2) for v in (0, 1)])
    assert (outcomes, cases) == (16, 4)
    shared, own = _own(5, "x2", ["x1"])
    # by hand: base + 100 k + 40 n + m (A + 2) k^2 n = 5 10^5 + 200 + 200 + 2 4 4 5
    assert shared == RR_BASE + 560 == 500560
    for listed in ("apkdp", "ppkdp", "np"):
        assert own[listed] == 300 + 17 * 3 * outcomes * cases == 3564
    assert own["dp"] == own["cdp"] == 200 + 100  # the local pair at one point
    assert own["ibcdp"] == own["distributional-dp"] == 20  # not computed: a note
    assert own["dependent-dp"] == 200 + 500 + 50  # the group of the 5 records
    # the whole law: about 9.5 ms measured (docs/benchmarks.md), not the former 0.6 s
    assert shared - RR_BASE + sum(own.values()) == 560 + 3 * 3564 + 600 + 40 + 750


def test_no_known_record_lists_the_whole_chain() -> None:
    # target x3 of 5, nothing known: 2^5 report tuples, the cases (0, 1) and (1, 0)
    outcomes = len(list(itertools.product((0, 1), repeat=5)))
    _, own = _own(5, "x3", [])
    assert own["apkdp"] == 300 + 17 * 3 * outcomes * 2 == 3564
    # three points (two ε and δ): 17 (3 + 2) per outcome of a case
    _, own = _own(5, "x3", [], points=3)
    assert own["apkdp"] == 300 + 17 * 5 * 32 * 2


def test_a_long_segment_is_charged_its_two_windows() -> None:
    # 14 records, target x7 (0-based 6), nothing known: 2^14 > 4096 outcomes, so two
    # windows. By hand: the widest window of reports with both boundary states within
    # 4096 outcomes holds 10 reports, grown right first then left from 6: [2, 11], both
    # boundaries inside 0..13: the lower law 2^10, the upper 2^12 outcomes; 3/4 of the
    # sum listed per case, 2 cases, then the extremes' programme 5 n^2 per case
    listed = (2**10 + 2**12) * 3 // 4
    _, own = _own(14, "x7", [])
    assert own["apkdp"] == 300 + 17 * 3 * listed * 2 + 2 * 5 * 14 * 14 == 393940


def test_the_seed_1873_class_at_length_5_fits_5e6() -> None:
    # the laws of the class audit share --max-work 5e6, the base paid once: each law may
    # take (5e6 - 5 10^5) / laws + 5 10^5 steps; the former flat 65,000 steps a notion
    # (0.62 s a law, measured 9.5 ms) refused it
    cls = IntervalChain.from_json_object(
        {
            "kind": "interval-markov-chain",
            "length": 5,
            "states": ["0", "1"],
            "initial": ["1/3", "2/3"],
            "transition": BOX,
        }
    )
    probe = cls.member(cls.centre(cls.box()))
    mech = randomized_response(F(3, 4), [cls.states] * 5)
    n_laws = len(cls.audit_laws(3)) + 1
    share = argparse.Namespace(
        max_work=str((5 * 10**6 - RR_BASE) // n_laws + RR_BASE), ddp_reading=None, delta=None
    )
    shared, own, fixed = check_work(share, probe, mech, "x2", ["x1"], list(ALL_NOTIONS), 1)
    assert plan(share, shared, own, True, fixed=fixed) == {}
    # a 3-state chain of 12 records (about 3 s a law, measured) is still refused there
    per_law = (5 * 10**6 - RR_BASE) // 10 + RR_BASE  # ten laws, as its class has
    big = argparse.Namespace(max_work=str(per_law), ddp_reading=None, delta=None)
    model = MarkovChain.from_json_object(
        {
            "kind": "markov-chain",
            "length": 12,
            "states": ["0", "1", "2"],
            "initial": ["1/3", "1/3", "1/3"],
            "transition": [["1/2", "1/4", "1/4"]] * 3,
        }
    )
    mech3 = randomized_response(F(3, 4), [model.domain(v) for v in model.variables])
    shared, own, fixed = check_work(big, model, mech3, "x2", ["x1"], list(ALL_NOTIONS), 1)
    assert shared < per_law < shared + own["apkdp"]  # the notion's own work, not the base
    with pytest.raises(InputError) as err:
        plan(big, shared, own, True, fixed=fixed)
    assert err.value.field == "--max-work"


@pytest.mark.slow
def test_the_seed_1873_class_at_length_5_runs_under_5e6(tmp_path: Path, capsys: Any) -> None:
    # the brief's reproducer: refused before (the laws priced ~0.5 s each), about 5 s
    cls = tmp_path / "cls.json"
    obj = {"kind": "interval-markov-chain", "length": 5, "states": ["0", "1"]}
    cls.write_text(json.dumps({**obj, "initial": ["1/3", "2/3"], "transition": BOX}))
    rr = tmp_path / "rr.json"
    rr.write_text(json.dumps({"kind": "randomized-response", "keep": "3/4"}))
    argv = ["audit", str(cls), str(rr), "--target", "x2", "--known", "x1", "--eps", "1"]
    assert main([*argv, "--notions", "all", "--max-work", "5e6", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["laws_evaluated"] > 0


def test_three_states_past_4096_outcomes_charge_the_cones_not_the_extremes() -> None:
    # 10 records of 3 states, target x5 (0-based 4), nothing known: 3^10 > 4096. By hand:
    # the window holds int(log 4096 / log 3) - 2 = 5 reports (3^7 = 2187 <= 4096 with
    # both boundary states), grown right first then left from 4: [2, 6], both boundaries
    # inside 0..9: 3^5 + 3^7 = 2430 outcomes, 3/4 of them (1822) listed for each of the
    # 3 * 2 cases; ε by the cones (their estimate passed in), not 5 n^2 per case
    model = MarkovChain.from_json_object(
        {
            "kind": "markov-chain",
            "length": 10,
            "states": ["0", "1", "2"],
            "initial": ["1/3", "1/3", "1/3"],
            "transition": [["1/2", "1/4", "1/4"]] * 3,
        }
    )
    chain = ReportChain(model, F(3, 4), "x5", ())
    assert segment_work(chain, 3, 1, 12345) == 300 + 17 * 3 * 1822 * 6 + 12345 == 570177

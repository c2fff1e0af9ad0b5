"""``audit`` estimates each notion on its own: the notions within ``--max-work`` run, the
others are listed by name with their estimate and the flags that would run them; a notion
named with ``--notions`` that is over the limit refuses the whole audit (exit 2).

The limits below come from the command's own estimate (``audit_models.check_work``),
read in the test, so that each case sits between two notions' estimates whatever the
calibration: on the 3-state chain of docs/examples/chain3.json under Laplace noise,
ibcdp's estimate is above every other notion's.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pdpsym.app.audit_work import plan, round_up
from pdpsym.app.cli import main
from pdpsym.app.commands import audit_models
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_int

EX = Path(__file__).resolve().parents[2] / "docs" / "examples"
CHAIN, LAPLACE = str(EX / "chain3.json"), str(EX / "laplace2.json")
NOTIONS = ["dp", "apkdp", "ppkdp", "np", "cdp", "ibcdp", "dependent-dp"]
ARGV = ["audit", CHAIN, LAPLACE, "--target", "x2", "--known", "x1"]


def _estimates() -> tuple[int, dict[str, int]]:
    model = audit_models.load(CHAIN)
    mech = audit_models.read_mechanism({"kind": "laplace", "lam": "2"}, model)
    args = argparse.Namespace(max_work=None, delta=None, known="x1", ddp_reading=None)
    shared, own, fixed = audit_models.check_work(args, model, mech, "x2", ["x1"], NOTIONS, 0)
    assert fixed == {}  # every notion runs at some --max-work
    return shared, own


def _limit() -> tuple[int, int]:
    """A limit between ibcdp's estimate and every other notion's, and ibcdp's estimate."""
    shared, own = _estimates()
    ibcdp = shared + own["ibcdp"]
    others = max(shared + w for n, w in own.items() if n != "ibcdp")
    assert others < ibcdp  # the premise of this file (else the cases below prove nothing)
    return (others + ibcdp) // 2, ibcdp


def test_a_costly_notion_is_listed_and_the_others_run(capsys: pytest.CaptureFixture[str]) -> None:
    limit, ibcdp = _limit()
    # the defaults: every notion but ibcdp runs, ibcdp is listed with its estimate
    assert main([*ARGV, "--max-work", str(limit)]) == 0
    out = capsys.readouterr().out
    report, tail = out.split(
        "\nnot run (each estimated above --max-work, or over a fixed limit):\n"
    )
    ran = [ln[:-1] for ln in report.splitlines() if ln.endswith(":") and ln[0] != " "]
    assert ran == ["dp", "apkdp", "ppkdp", "np", "cdp", "dependent-dp", "dependent-dp/conditional"]
    assert tail.startswith(f"  ibcdp: about {float(ibcdp):.1e} steps; run it with --notions ibcdp")
    assert len(tail.strip().splitlines()) == 1  # ibcdp alone
    assert f"--max-work {round_up(ibcdp)}" in tail
    assert all(len(ln) < 120 for ln in out.splitlines())


def test_the_json_lists_the_costly_notion(capsys: pytest.CaptureFixture[str]) -> None:
    limit, ibcdp = _limit()
    assert main([*ARGV, "--max-work", str(limit), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert "ibcdp" not in got["notions"] and "dp" in got["notions"]
    assert got["not_run"] == {
        "ibcdp": {
            "estimated_steps": ibcdp,
            "run_with": f"--notions ibcdp --max-work {round_up(ibcdp)}",
        }
    }


def test_a_named_notion_over_the_limit_refuses_the_audit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    limit, ibcdp = _limit()
    assert main([*ARGV, "--max-work", str(limit), "--notions", "ibcdp"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "error: --max-work:" in captured.err and "notion ibcdp" in captured.err
    assert f"--max-work {round_up(ibcdp)} runs it" in captured.err


def test_named_notions_are_held_to_the_limit_together() -> None:
    # as one request: each of dp and cdp fits alone, not both (a sum, by hand)
    args = argparse.Namespace(max_work="1000")
    assert plan(args, 100, {"dp": 600}, explicit=True) == {}
    with pytest.raises(InputError) as info:
        plan(args, 100, {"dp": 600, "cdp": 700}, explicit=True)
    # 100 + 600 + 700 = 1400 -> 1.4e3; the costliest alone is cdp, 800 steps
    assert "notion cdp needs about 8.0e+02 steps (with the others named: 1.4e+03)" in str(
        info.value.message
    )
    assert "--max-work 1.4e3 runs it" in info.value.message
    # the default notions: each alone (here both run)
    assert plan(args, 100, {"dp": 600, "cdp": 700}, explicit=False) == {}


def test_the_suggested_limit_runs_the_notion() -> None:
    # the flag the refusal names is enough: plan() at that limit leaves nothing out
    shared, own = _estimates()
    steps = shared + own["ibcdp"]
    args = argparse.Namespace(max_work=round_up(steps))
    assert plan(args, shared, {"ibcdp": own["ibcdp"]}, explicit=True) == {}
    assert plan(args, shared, own, explicit=False) == {}
    tight = argparse.Namespace(max_work=str(steps - 1))
    with pytest.raises(InputError):
        plan(tight, shared, {"ibcdp": own["ibcdp"]}, explicit=True)
    assert plan(tight, shared, own, explicit=False) == {"ibcdp": steps}
    # a notion no --max-work runs is listed with its reason, and refuses when named
    reason = {"ibcdp": "over a fixed limit"}
    assert plan(args, shared, own, explicit=False, fixed=reason) == {"ibcdp": "over a fixed limit"}
    with pytest.raises(InputError):
        plan(args, shared, own, explicit=True, fixed=reason)


def test_every_notion_over_the_limit_refuses_the_audit() -> None:
    # nothing would run: exit 2 rather than an empty report, naming the cheapest
    args = argparse.Namespace(max_work="1000")
    with pytest.raises(InputError) as info:
        plan(args, 10, {"dp": 5000, "cdp": 7000}, explicit=False)
    assert (
        info.value.field == "--max-work" and "--notions dp --max-work 5.1e3" in info.value.message
    )
    # the shared part alone over the limit: refused whatever the notions
    with pytest.raises(InputError):
        plan(args, 2000, {"dp": 0}, explicit=False)


@given(st.integers(min_value=0, max_value=10**40))
def test_round_up_is_an_integer_at_least_k_with_two_digits(k: int) -> None:
    # read back by the parser of --max-work itself; the bound by hand: rounding up to two
    # significant digits adds less than one unit of the second digit
    v = parse_int(round_up(k), "--max-work")
    assert k <= v
    assert v - k < max(10 ** (len(str(k)) - 2), 1)


def test_round_up_by_hand() -> None:
    # hand: 3,330,173,920 -> 3.4e9; 99,001 -> 1.0e5 = 1e5; 120 stays 1.2e2; 7 stays 7
    assert [round_up(k) for k in (3_330_173_920, 99_001, 120, 7)] == ["3.4e9", "1e5", "1.2e2", "7"]


@pytest.mark.slow
def test_the_hundred_record_chain_runs_with_the_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the case of issue 33's acceptance: every notion but ibcdp is within the default
    # limit and runs; ibcdp (its Laplace posteriors) is listed with its estimate
    argv = ["audit", str(EX / "chain100.json"), LAPLACE, "--target", "x50", "--known", "x1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "\nibcdp:" not in out and "\n  ibcdp: about " in out
    assert all(len(ln) < 120 for ln in out.splitlines())


def test_a_class_of_structured_members_counts_its_notions_work_too(capsys) -> None:
    # each member is a 50-record chain whose audit of every notion is estimated above
    # 10^6 steps (the single model's own refusal, read below; 4.7e7 today), its shared
    # part below (2.3e5): the class held each member to the shared part alone and ran
    # every notion (3.6 s of CPU); it now refuses with the single model's line (found
    # with the interval class's case of the fuzz work, docs/reliability.md)
    data = Path(__file__).resolve().parents[1] / "data"
    tail = ["--target", "x3", "--known", "x1", "--eps", "1", "--notions", "all"]
    geo = str(data / "geometric_half.json")
    single = main(["audit", str(data / "chain50.json"), geo, *tail, "--max-work", "1000000"])
    one = capsys.readouterr().err
    assert single == 2 and "--max-work" in one and "runs it" in one, one
    code = main(["audit", str(data / "class_chain50.json"), geo, *tail, "--max-work", "1000000"])
    err = capsys.readouterr().err
    assert code == 2 and err == one, err

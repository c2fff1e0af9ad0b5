"""``pdpsym temporal``: output shapes, the mechanism column against ``pdpsym audit``, and
bad input (exit 2, one line naming the flag)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pdpsym.app.cli import main

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "docs" / "examples"


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def issue_chain(tmp_path: Path) -> Path:
    p = tmp_path / "chain.json"
    p.write_text(
        json.dumps(
            {
                "kind": "markov-chain",
                "length": 10,
                "states": ["0", "1"],
                "initial": ["1/2", "1/2"],
                "transition": [["4/5", "1/5"], ["0", "1"]],
            }
        )
    )
    return p


def test_json_shape_and_the_mechanism_column_equals_the_audit(capsys, issue_chain) -> None:
    code, out, _ = _run(capsys, "temporal", issue_chain, "--mechanism", EX / "rr.json", "--json")
    assert code == 0
    d = json.loads(out)
    assert set(d) >= {"steps", "supremum"} and len(d["steps"]) == 10
    s = d["steps"][0]
    assert set(s) >= {"t", "bpl", "fpl", "tpl", "mechanism"}
    assert set(s["tpl"]) == {"decimal", "enclosure"}
    # the issue's number: log(17689838439/1953125) = 9.11131500026955...
    assert s["fpl"]["decimal"] == "9.111315000" == s["mechanism"]["tpl"]["decimal"]
    for t in (1, 4, 10):  # the audit's np leakage of the whole stream about x_t
        code, aout, _ = _run(
            capsys,
            "audit",
            issue_chain,
            EX / "rr.json",
            "--target",
            f"x{t}",
            "--notions",
            "np",
            "--digits",
            "10",
            "--json",
        )
        want = json.loads(aout)["notions"]["np"]["epsilon"]["decimal"]
        assert d["steps"][t - 1]["mechanism"]["tpl"]["decimal"] == want
    # not stationary: no supremum, and the reason
    assert d["supremum"]["tpl"] is None and "stationary" in d["supremum"]["reason"]


def test_text_lines_are_short_and_the_supremum_is_given(capsys) -> None:
    code, out, _ = _run(
        capsys,
        "temporal",
        EX / "chain6.json",
        "--eps",
        "ln(3)",
        "--mechanism",
        EX / "rr.json",
        "--budget",
        "2",
    )
    assert code == 0
    lines = out.splitlines()
    assert all(len(x) < 120 for x in lines)
    assert lines[1].startswith("t=1 ") and any(x.startswith("sup over T:") for x in lines)
    assert any("constant eps" in x for x in lines)


def test_unbounded_supremum_says_why(capsys, tmp_path) -> None:
    p = tmp_path / "c.json"
    p.write_text(
        json.dumps(
            {
                "kind": "markov-chain",
                "length": 5,
                "states": ["0", "1"],
                "initial": "stationary",
                "transition": [["9/10", "1/10"], ["1/10", "9/10"]],
            }
        )
    )
    code, out, _ = _run(capsys, "temporal", p, "--eps", "ln(20)", "--json")
    d = json.loads(out)
    # by hand: rows (9/10, 1/10) and (1/10, 9/10) give the one candidate q = 9/10,
    # d = 1/10 > 0, bounded at every eps (Theorem 10)
    assert code == 0 and d["supremum"]["reason"] is None
    p.write_text(
        json.dumps(
            {
                "kind": "markov-chain",
                "length": 5,
                "states": ["0", "1"],
                "initial": "stationary",
                "transition": [["1/2", "1/2"], ["1", "0"]],
            }
        )
    )
    # rows (1/2, 1/2) and (1, 0): candidate q = 1/2, d = 0 from (1/2,1/2) over (1,0) at
    # S = {1}; q e^eps = 10 >= 1 at eps = ln 20 (Theorem 10: unbounded)
    code, out, _ = _run(capsys, "temporal", p, "--eps", "ln(20)", "--json")
    d = json.loads(out)
    assert d["supremum"]["tpl"] == "unbounded" and "without bound" in d["supremum"]["reason"]


def test_csv(capsys) -> None:
    code, out, _ = _run(
        capsys, "temporal", EX / "chain6.json", "--mechanism", EX / "rr.json", "--format", "csv"
    )
    rows = [r for r in out.splitlines() if not r.startswith("#")]
    assert code == 0 and rows[0].startswith("t,eps,bpl,fpl,tpl,mechanism_bpl")
    assert len(rows) == 7


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["--eps", "0"], "--eps"),
        (["--eps", "-1"], "--eps"),
        (["--eps", "1,2"], "--eps"),  # 2 values for 6 steps
        (["--eps", "1/10", "--budget", "0"], "--budget"),
        (["--eps", "1/10", "--budget", "-1"], "--budget"),
        ([], "--eps"),  # neither --eps nor --mechanism
        (["--eps", "1/2", "--mechanism", "rr"], "--eps"),  # below the mechanism's ln 3
        (["--mechanism", "threshold"], "--mechanism"),  # not a per-step mechanism
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, flag) -> None:
    argv = [
        str(EX / "rr.json") if a == "rr" else str(EX / "threshold1.json") if a == "threshold" else a
        for a in argv
    ]
    code, out, err = _run(capsys, "temporal", EX / "chain6.json", *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and flag in err, err


def test_a_model_that_is_not_a_chain(capsys) -> None:
    code, out, err = _run(capsys, "temporal", EX / "pair.json", "--eps", "1")
    assert code == 2 and out == "" and "MODEL" in err and "Markov chain" in err


def test_refused_up_front_beyond_max_work(capsys, tmp_path) -> None:
    p = tmp_path / "c.json"
    p.write_text(
        json.dumps(
            {
                "kind": "markov-chain",
                "length": 1000,
                "states": ["0", "1", "2"],
                "initial": "stationary",
                "transition": [
                    ["1/10", "1/5", "7/10"],
                    ["3/10", "3/10", "2/5"],
                    ["1/2", "3/10", "1/5"],
                ],
            }
        )
    )
    (tmp_path / "rr.json").write_text('{"kind": "randomized-response", "keep": "3/5"}')
    code, _, err = _run(capsys, "temporal", p, "--mechanism", tmp_path / "rr.json")
    assert code == 2 and "--max-work" in err


def test_the_supremum_of_a_one_record_chain_comes_from_its_matrix(capsys, tmp_path) -> None:
    # T = 1 still describes the chain extended to any length: by hand, rows (9/10, 1/10)
    # and (1/10, 9/10) give q = 9/10, d = 1/10 and Theorem 10 at eps = ln 3:
    # u* = (b + sqrt(b^2 + 4 d w (1 - q))) / (2 d), b = 27/10 + 1/10 - 1 = 9/5,
    # 4 d w (1 - q) = 3/25, sqrt(81/25 + 3/25) = sqrt(84)/5: u* = 9 + sqrt(84)
    p = tmp_path / "c.json"
    p.write_text(
        json.dumps(
            {
                "kind": "markov-chain",
                "length": 1,
                "states": ["0", "1"],
                "initial": "stationary",
                "transition": [["9/10", "1/10"], ["1/10", "9/10"]],
            }
        )
    )
    code, out, _ = _run(capsys, "temporal", p, "--eps", "ln(3)", "--json")
    import math

    assert code == 0
    want = math.log(9 + math.sqrt(84))
    assert float(json.loads(out)["supremum"]["bpl"]["decimal"]) == pytest.approx(want, rel=1e-9)


def test_laplace_on_each_value(capsys) -> None:
    # two states, stationary, positively correlated: Laplace noise attains the bound
    code, out, _ = _run(
        capsys, "temporal", EX / "chain6.json", "--mechanism", EX / "laplace2.json", "--json"
    )
    d = json.loads(out)
    assert code == 0 and d["mechanism"] == {"kind": "laplace", "eps": "1/2"}
    assert all(s["tpl"]["decimal"] == s["mechanism"]["tpl"]["decimal"] for s in d["steps"])
    code, out, err = _run(
        capsys, "temporal", EX / "chain3.json", "--mechanism", EX / "laplace2.json"
    )
    assert code == 2 and out == "" and "--mechanism" in err and "two-state" in err

"""`pdpsym audit` from the command line: exact figures, JSON, the curve file, bad input.

Expected values are hand derivations on a 3-record model (rows below) with randomized
response keep = 3/4 (a record reported truthfully with probability 3/4):
- dp: one record changes, the worst output ratio is (3/4)/(1/4) = 3, so epsilon = ln 3;
- apkdp with x3 known: given x3 = 1, x1 = 0 leaves (0,0,1) and (0,1,1) (1/2 each) and
  x1 = 1 leaves (1,1,1); at output (0,0,1): (27/64 + 9/64)/2 = 18/64 against
  (1/4)(1/4)(3/4) = 3/64, ratio 6, so epsilon = ln 6;
- delta at eps = ln 2 for dp: sum_o max(0, P - 2Q) on the first record = 3/4 - 2/4 = 1/4.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
from pathlib import Path

import pytest

from pdpsym.app.cli import main

MODEL = {
    "variables": ["x1", "x2", "x3"],
    "rows": [
        ["0", "0", "0", "1/4"],
        ["0", "0", "1", "1/8"],
        ["0", "1", "1", "1/8"],
        ["1", "1", "1", "1/4"],
        ["1", "1", "0", "1/8"],
        ["1", "0", "0", "1/8"],
    ],
}


def _files(tmp_path: Path, mech: dict) -> tuple[str, str]:
    m, k = tmp_path / "model.json", tmp_path / "mech.json"
    m.write_text(json.dumps(MODEL))
    k.write_text(json.dumps(mech))
    return str(m), str(k)


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_randomized_response_figures(tmp_path: Path) -> None:
    m, k = _files(tmp_path, {"kind": "randomized-response", "keep": "3/4"})
    code, out, _ = _run(
        "audit",
        m,
        k,
        "--target",
        "x1",
        "--known",
        "x3",
        "--eps",
        "ln(2)",
        "--json",
        "--notions",
        "dp,apkdp",
    )
    assert code == 0
    res = json.loads(out)["notions"]
    assert res["dp"]["epsilon"]["exact"] == "log(3)"
    assert res["apkdp"]["epsilon"]["exact"] == "log(6)"
    assert res["dp"]["delta_at_epsilon"][0]["delta"]["exact"] == "1/4"


def test_curve_file_has_certified_columns(tmp_path: Path) -> None:
    m, k = _files(tmp_path, {"kind": "randomized-response", "keep": "3/4"})
    curve = tmp_path / "curve.csv"
    code, _, _ = _run(
        "audit",
        m,
        k,
        "--target",
        "x1",
        "--grid",
        "0:1:3",
        "--eps",
        "ln(2)",
        "--notions",
        "dp",
        "--curve",
        str(curve),
    )
    assert code == 0
    lines = curve.read_text().splitlines()
    assert lines[0] == "notion,eps,delta_exact,delta_decimal,delta_lo,delta_hi"
    # eps = 0: total variation of the first record's report, |3/4 - 1/4| = 1/2 (hand);
    # then eps = 1/2, 1 on the grid and ln 2 (delta 1/4, hand) from --eps
    assert lines[1].startswith("dp,0,1/2,")
    assert [ln.split(",")[1] for ln in lines[1:]] == ["0", "1/2", "1", "log(2)"]
    assert lines[4].split(",")[2] == "1/4"


@pytest.mark.parametrize(
    ("mech", "extra", "field"),
    [
        ({"kind": "table", "rows": [["0", "0", "0", "a", "1/2"]]}, [], "mechanism"),
        ({"kind": "table", "rows": [["0", "0", "0", "a", "3/2"]]}, [], "rows[0]"),
        ({"kind": "nope"}, [], "kind"),
        ({"kind": "randomized-response", "keep": "0"}, [], "keep"),
        ({"kind": "randomized-response", "keep": "3/4"}, ["--eps", "-1"], "--eps"),
        ({"kind": "randomized-response", "keep": "3/4"}, ["--delta", "1"], "--delta"),
        ({"kind": "randomized-response", "keep": "3/4", "x": 1}, [], "mechanism"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    tmp_path: Path, mech: dict, extra: list, field: str
) -> None:
    m, k = _files(tmp_path, mech)
    curve = tmp_path / "c.csv"
    code, out, err = _run(
        "audit", m, k, "--target", "x1", "--eps", "1", "--curve", str(curve), *extra
    )
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and field in err and "Traceback" not in err
    assert not curve.exists()


def test_the_worked_examples_in_docs_audit_md_are_current() -> None:
    # docs/audit.md shows each command with its output; rerun and compare verbatim
    root = Path(__file__).resolve().parents[2]
    text = (root / "docs" / "audit.md").read_text(encoding="utf-8")
    blocks = [b.split("```")[0] for b in text.split("$ pdpsym ")[1:]]
    assert len(blocks) == 5
    cwd = os.getcwd()
    os.chdir(root)
    try:
        for block in blocks:
            cmd, _, shown = block.partition("\n")
            code, out, _ = _run(*shlex.split(cmd))  # as bash reads it: --eps 'ln(2)'
            assert code == 0 and out.rstrip() == shown.rstrip(), cmd
    finally:
        os.chdir(cwd)


def test_geometric_noise_on_the_sum(tmp_path: Path) -> None:
    # pair model: P(x2 | x1=0) = (3/5, 2/5), P(x2 | x1=1) = (2/5, 3/5); sum query, alpha 1/2.
    # dp: sensitivity 1, so e^eps = 1/alpha = 2 (hand).
    # apkdp (no knowledge): below 0 every output has p(o | x1=b) proportional to
    # sum_x P(x | b) alpha^(-f(x)): 3/5 + (2/5)2 = 7/5 for x1 = 0 and (2/5)2 + (3/5)4 = 16/5
    # for x1 = 1, ratio 16/7 (the largest; hand).
    pair = {
        "variables": ["x1", "x2"],
        "rows": [["0", "0", "3/10"], ["0", "1", "1/5"], ["1", "0", "1/5"], ["1", "1", "3/10"]],
    }
    m, k = tmp_path / "m.json", tmp_path / "k.json"
    m.write_text(json.dumps(pair))
    k.write_text(json.dumps({"kind": "geometric", "alpha": "1/2"}))
    code, out, _ = _run(
        "audit", str(m), str(k), "--target", "x1", "--notions", "dp,apkdp", "--json"
    )
    res = {k: r["epsilon"]["exact"] for k, r in json.loads(out)["notions"].items()}
    assert code == 0 and res == {"dp": "log(2)", "apkdp": "log(16/7)"}


def test_distributional_dp_simulator_is_checked_outside_the_solver() -> None:
    # pair model with the docs' hand-written table: a simulator that outputs "low" when
    # x2 = 0 and "high" when x2 = 1 matches M exactly given x1 (hand: given x1 = 0,
    # P(low) = 3/5 * 2/3 + 2/5 * 1/2 = 3/5 = P(x2 = 0 | x1 = 0); given x1 = 1,
    # 2/5 * 1/2 + 3/5 * 1/3 = 2/5 = P(x2 = 0 | x1 = 1)), so epsilon = 0 exactly.
    root = Path(__file__).resolve().parents[2] / "docs" / "examples"
    code, out, _ = _run(
        "audit",
        str(root / "pair.json"),
        str(root / "table.json"),
        "--target",
        "x1",
        "--notions",
        "distributional-dp",
        "--json",
    )
    (res,) = json.loads(out)["notions"].values()
    assert code == 0 and res["epsilon"]["exact"] == "0"
    assert res["witness"]["simulator"] == {"(0)": {"low": "1"}, "(1)": {"high": "1"}}


def test_oracle_vectors_of_the_users_own_audit(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2] / "docs" / "examples"
    vec = tmp_path / "v.json"
    code, _, _ = _run(
        "oracle",
        "export",
        "--model",
        str(root / "correlated3.json"),
        "--mechanism",
        str(root / "rr.json"),
        "--target",
        "x1",
        "--known",
        "x3",
        "--eps",
        "ln(2)",
        "--notions",
        "dp,apkdp",
        "--digits",
        "20",
        "--out",
        str(vec),
    )
    assert code == 0
    cases = {c["id"]: c for c in json.loads(vec.read_text())["cases"]}
    # hand derivations (module docstring): dp epsilon ln 3, apkdp ln 6, dp delta at ln 2 = 1/4
    assert cases["audit:dp:epsilon"]["value"]["exact"] == "log(3)"
    assert cases["audit:apkdp:epsilon"]["value"]["exact"] == "log(6)"
    assert cases["audit:dp:delta@eps=log(2)"]["value"]["exact"] == "1/4"
    answers = {"answers": [{"id": k, "value": c["value"]["decimal"]} for k, c in cases.items()]}
    ans = tmp_path / "a.json"
    ans.write_text(json.dumps(answers))
    code, out, _ = _run("oracle", "check", str(vec), str(ans), "--json")
    assert code == 0 and json.loads(out)["failed"] == 0
    answers["answers"][0]["value"] = "0.5"
    ans.write_text(json.dumps(answers))
    code, out, _ = _run("oracle", "check", str(vec), str(ans), "--json")
    assert json.loads(out)["failed"] == 1
    code, _, err = _run("oracle", "export", "--model", str(root / "pair.json"), "--out", str(vec))
    assert code == 2 and "--model" in err


def test_an_empty_notion_list_is_refused(tmp_path: Path) -> None:
    m, k = _files(tmp_path, {"kind": "randomized-response", "keep": "3/4"})
    code, out, err = _run("audit", m, k, "--target", "x1", "--notions", ",")
    assert code == 2 and out == "" and "--notions" in err

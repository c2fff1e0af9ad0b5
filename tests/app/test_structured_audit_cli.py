"""``pdpsym audit`` on a structured model file: every notion filled, the same figures as
the full-joint-table file of the same law, and bad input as one line naming the field."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from pdpsym.app.cli import main

CHAIN = {
    "kind": "markov-chain",
    "length": 4,
    "states": ["0", "1"],
    "initial": ["1/2", "1/2"],
    "transition": [["9/10", "1/10"], ["1/5", "4/5"]],
}


def joint_rows():
    """The chain's full table, by the chain rule written here (the independent source)."""
    init = [Fraction(1, 2), Fraction(1, 2)]
    P = [[Fraction(9, 10), Fraction(1, 10)], [Fraction(1, 5), Fraction(4, 5)]]
    rows = []
    for xs in itertools.product([0, 1], repeat=4):
        p = init[xs[0]]
        for a, b in itertools.pairwise(xs):
            p *= P[a][b]
        rows.append([str(x) for x in xs] + [str(p)])
    return {"variables": ["x1", "x2", "x3", "x4"], "rows": rows}


def _run(capsys, argv):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def _json(capsys, argv):
    code, out, _ = _run(capsys, [*argv, "--json"])
    assert code == 0
    return json.loads(out)["notions"]


def test_chain_audit_fills_every_notion_like_the_full_table(tmp_path, capsys):
    chain, table, lap = tmp_path / "chain.json", tmp_path / "table.json", tmp_path / "lap.json"
    chain.write_text(json.dumps(CHAIN))
    table.write_text(json.dumps(joint_rows()))
    lap.write_text(json.dumps({"kind": "laplace", "lam": "1/2"}))
    args = ["--target", "x3", "--known", "x1", "--eps", "1/2"]
    # ibcdp (its epsilon at delta is an exact bisection over a sup: seconds) is compared
    # with the full table in test_structured_posterior.py
    some = "dp,apkdp,ppkdp,np,cdp,dependent-dp"
    got = _json(
        capsys, ["audit", str(chain), str(lap), *args, "--delta", "1/10", "--notions", some]
    )
    ref = _json(capsys, ["audit", str(table), str(lap), *args, "--notions", some])
    for name in ("dp", "apkdp", "ppkdp", "np", "cdp", "dependent-dp", "dependent-dp/conditional"):
        r = got[name]
        assert r["epsilon"] is not None and r["delta_at_epsilon"][0]["delta"] is not None, name
        assert r["epsilon_at_delta"]["epsilon"] is not None, name
        for key in ("epsilon",):
            assert r[key]["decimal"] == ref[name][key]["decimal"], name
        assert (
            r["delta_at_epsilon"][0]["delta"]["decimal"]
            == (ref[name]["delta_at_epsilon"][0]["delta"]["decimal"])
        ), name
    # hand derivation: dp for Laplace on a 0/1 record is Delta/lambda = 1/(1/2) = 2
    assert got["dp"]["epsilon"]["exact"] == "2"


@pytest.mark.parametrize(
    ("mech", "field"),
    [
        ({"kind": "histogram", "bins": 3}, "mechanism"),
        ({"kind": "randomized-response", "keep": "2"}, "mechanism.keep"),
        ({"kind": "laplace", "lam": "0"}, "mechanism.lam"),
        ({"kind": "geometric", "alpha": "2"}, "mechanism.alpha"),
        ({"kind": "threshold"}, "mechanism.T"),
        ({"kind": "count", "weights": {"x9": "1"}}, "mechanism.weights"),
        ({"kind": "count", "extra": 1}, "mechanism"),
    ],
)
def test_bad_mechanism_exits_2_naming_the_field(tmp_path, capsys, mech, field):
    chain, m = tmp_path / "chain.json", tmp_path / "m.json"
    chain.write_text(json.dumps(CHAIN))
    m.write_text(json.dumps(mech))
    code, out, err = _run(capsys, ["audit", str(chain), str(m), "--target", "x2"])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"error: {field}:" in err


@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (["--target", "x9"], "--target"),
        (["--target", "x2", "--known", "x2"], "--known"),
        (["--target", "x2", "--known", "y"], "--known"),
        (["--target", "x2", "--max-work", "1000"], "--max-work"),
    ],
)
def test_bad_request_exits_2_naming_the_field(tmp_path, capsys, argv, field):
    chain, m = tmp_path / "chain.json", tmp_path / "m.json"
    chain.write_text(json.dumps(CHAIN))
    m.write_text(json.dumps({"kind": "count"}))
    code, out, err = _run(capsys, ["audit", str(chain), str(m), *argv])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"error: {field}:" in err


def test_bif_network_is_audited(capsys):
    from pathlib import Path

    bif = Path(__file__).resolve().parents[1] / "data" / "child.bif"
    code, out, _ = _run(
        capsys,
        [
            "audit",
            str(bif),
            str(Path(__file__).resolve().parents[1] / "data" / "threshold_T6.json"),
            "--target",
            "Grunting",
            "--notions",
            "dp,apkdp",
            "--json",
        ],
    )
    assert code == 0
    # dp of a thresholded count of 0/1-valued Grunting: outputs above T differ, so no
    # epsilon bounds it (a point-mass pair with disjoint supports)
    assert json.loads(out)["notions"]["dp"]["epsilon"] == "infinite"


def test_a_million_record_chain_is_refused_by_the_estimate(tmp_path, capsys):
    """The estimate comes from the model's shape: a chain of 10^6 records is refused by
    --max-work before any query law is built."""
    chain, m = tmp_path / "chain.json", tmp_path / "m.json"
    chain.write_text(json.dumps({**CHAIN, "length": 1_000_000}))
    m.write_text(json.dumps({"kind": "threshold", "T": 1}))
    code, out, err = _run(capsys, ["audit", str(chain), str(m), "--target", "x3"])
    assert code == 2 and out == "" and "error: --max-work:" in err


def test_binary_histogram_audit_equals_the_full_table_histogram(tmp_path, capsys):
    """A histogram over two values is a function of the count and back, so the structured
    audit runs the count; the independent source is the table audit of the real histogram
    mechanism (``mechanisms.discrete.histogram``) on the chain's table written above."""
    chain, table, hist = tmp_path / "chain.json", tmp_path / "table.json", tmp_path / "h.json"
    chain.write_text(json.dumps(CHAIN))
    table.write_text(json.dumps(joint_rows()))
    hist.write_text(json.dumps({"kind": "histogram"}))
    args = ["--target", "x2", "--known", "x4", "--eps", "1/2", "--delta", "1/10"]
    some = ["--notions", "dp,apkdp,ppkdp,np,cdp"]
    got = _json(capsys, ["audit", str(chain), str(hist), *args, *some])
    ref = _json(capsys, ["audit", str(table), str(hist), *args, *some])
    for name in ("dp", "apkdp", "ppkdp", "np", "cdp"):
        # the values, not the witnesses (each engine names its own worst case)
        assert got[name]["epsilon"] == ref[name]["epsilon"], name
        d_got, d_ref = got[name]["delta_at_epsilon"], ref[name]["delta_at_epsilon"]
        assert [d["delta"] for d in d_got] == [d["delta"] for d in d_ref], name


def test_histogram_over_three_values_is_refused_on_one_line(tmp_path, capsys):
    three = dict(CHAIN, states=["0", "1", "2"], initial=["1/3", "1/3", "1/3"])
    three["transition"] = [["1/3", "1/3", "1/3"]] * 3
    chain, hist = tmp_path / "chain.json", tmp_path / "h.json"
    chain.write_text(json.dumps(three))
    hist.write_text(json.dumps({"kind": "histogram"}))
    code, out, err = _run(capsys, ["audit", str(chain), str(hist), "--target", "x2"])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "error: mechanism.kind:" in err and "two values" in err


def test_a_curve_of_ten_thousand_points_is_refused_by_the_estimate(tmp_path, capsys):
    """Found by the fuzz run (seed 20261283): a 2-record chain under Laplace noise with
    --curve on a 10^4-point grid ran about 30 s (each point's delta is a closed form
    built per pair) although the estimate let it start; it is now refused before any
    work, on one line naming --max-work, and nothing is written."""
    model = tmp_path / "m.json"
    model.write_text(
        json.dumps(
            {
                "kind": "markov-chain",
                "length": 2,
                "states": ["0", "1"],
                "initial": ["1/3", "2/3"],
                "transition": [["9/10", "1/10"], ["1/10", "9/10"]],
            }
        )
    )
    mech = tmp_path / "k.json"
    mech.write_text(json.dumps({"kind": "laplace", "lam": "0.3"}))
    curve = tmp_path / "curve.csv"
    argv = ["audit", str(model), str(mech), "--target", "x1", "--known", "x2"]
    argv += ["--notions", "dp,apkdp", "--curve", str(curve), "--grid", "0:2:10000"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--max-work" in err
    assert not curve.exists()

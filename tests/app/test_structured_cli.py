"""``pdpsym leakage --all-targets`` and ``pdpsym calibrate`` JSON for structured models."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

from pdpsym.app.cli import main
from pdpsym.loss import leakage as eq2
from pdpsym.models.bayesnet import BayesianNetwork
from pdpsym.models.markov import MarkovChain

CHILD = Path(__file__).parent.parent / "data" / "child.bif"

CHAIN = {
    "kind": "markov-chain",
    "length": 6,
    "states": ["0", "1"],
    "initial": "stationary",
    "transition": [["4/5", "1/5"], ["3/10", "7/10"]],
}


def test_all_targets_json_shape_and_values(tmp_path, capsys):
    p = tmp_path / "c.json"
    p.write_text(json.dumps(CHAIN))
    argv = ["leakage", str(p), "--all-targets", "--known", "x2", "--lam", "1", "--json"]
    assert main([*argv, "--digits", "12"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [t["target"] for t in out["targets"]] == ["x1", "x3", "x4", "x5", "x6"]
    # independent source: the full-table engine on the same chain's joint table
    table = MarkovChain.from_json_object(CHAIN).to_joint()
    refs = {t: eq2.leakage(table, t, ("x2",), 1).certified(12).decimal for t in ["x1", "x3"]}
    got = {t["target"]: t["value"]["decimal"] for t in out["targets"]}
    assert got["x1"] == refs["x1"] and got["x3"] == refs["x3"]
    best = max(out["targets"], key=lambda t: Fraction(t["value"]["enclosure"][0]))
    assert out["max"]["target"] == best["target"]
    assert set(out["max"]["value"]) >= {"decimal", "enclosure"}


def test_calibrate_json(tmp_path, capsys):
    p = tmp_path / "c.json"
    p.write_text(json.dumps(CHAIN))
    assert main(["calibrate", str(p), "--eps", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    lo, hi = (Fraction(x) for x in out["scale"]["enclosure"])
    assert lo <= hi and hi - lo <= hi / 10**11
    assert [b["name"] for b in out["baselines"]] == ["group-dp", "mqm-exact", "mqm-approx"]
    # group DP: the chain is one group of 6 records, sensitivity 1 (hand derivation)
    assert out["baselines"][0]["scale"]["exact"] == "6"
    approx = out["baselines"][2]
    assert set(approx) >= {"scale", "leakage", "worst_target", "pi_min", "eigengap"}
    # pi = (3/5, 2/5) solves pi P = pi (hand derivation), so pi_min = 2/5
    assert approx["pi_min"] == "2/5"


def test_calibrate_text_lists_a_baseline_that_does_not_apply(tmp_path, capsys):
    p = tmp_path / "c.json"
    p.write_text(json.dumps({**CHAIN, "initial": ["1", "0"]}))
    assert main(["calibrate", str(p), "--eps", "1"]) == 0
    out = capsys.readouterr().out
    assert "mqm-approx: not applicable (MQMApprox needs a stationary chain" in out


def test_p_values_file_is_a_bernoulli_product(tmp_path, capsys):
    """A --p-values file (one p_i a line, comments allowed) reads as independent 0/1
    records; Eq. 2 of the sum is exactly 1/lambda for each (hand derivation: the
    conditional laws are shifts by one)."""
    p = tmp_path / "p.txt"
    p.write_text("# p values\n1/10\n1/5  # second\n\n1/2\n")
    assert main(["leakage", str(p), "--target", "x2", "--lam", "1/3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["value"]["exact"] == "3"


SMALL_BIF = """network tiny {
}
variable rain {
  type discrete [ 2 ] { 0, 1 };
}
variable sprinkler {
  type discrete [ 2 ] { 0, 1 };
}
variable wet {
  type discrete [ 3 ] { 0, 1, 2 };
}
probability ( rain ) {
  table 0.2, 0.8;
}
probability ( sprinkler | rain ) {
  (0) 0.6, 0.4;
  (1) 0.99, 0.01;
}
probability ( wet | rain, sprinkler ) {
  (0, 0) 0.9, 0.05, 0.05;
  (0, 1) 0.1, 0.3, 0.6;
  (1, 0) 0.2, 0.5, 0.3;
  (1, 1) 0.01, 0.09, 0.9;
}
"""


def test_calibrate_reads_a_bif_network(tmp_path, capsys):
    """calibrate on a .bif path: the bracket checked by the full-table engine on the
    network's joint table (an independent computation: Eq. 2 from the listed rows)."""
    p = tmp_path / "tiny.bif"
    p.write_text(SMALL_BIF)
    argv = ["calibrate", str(p), "--eps", "1", "--known", "sprinkler", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    lo, hi = (Fraction(x) for x in out["scale"]["enclosure"])
    table = BayesianNetwork.from_bif_text(SMALL_BIF).to_joint()
    worst = out["worst_target"]
    for t in ("rain", "wet"):
        at_hi = eq2.leakage(table, t, ("sprinkler",), hi).certified(20)
        assert Fraction(at_hi.enclosure[1]) <= 1
    assert Fraction(eq2.leakage(table, worst, ("sprinkler",), lo).certified(20).enclosure[0]) > 1
    # group DP: one connected component of 3 records, spans 1 + 1 + 2 = 4 (hand), eps 1
    (gdp,) = out["baselines"]
    assert gdp["name"] == "group-dp" and gdp["scale"]["exact"] == "4"


def test_calibrate_child_bif_one_target(capsys):
    """child.bif (20 nodes, one connected component): group DP is the sum over the nodes
    of (number of states - 1) (state j has value j), counted here from the file's
    declarations, over eps."""
    text = CHILD.read_text()
    span = sum(int(k) - 1 for k in re.findall(r"type discrete \[ (\d+) \]", text))
    assert main(["calibrate", str(CHILD), "--eps", "2", "--target", "Age", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["worst_target"] == "Age"
    assert out["baselines"][0]["scale"]["exact"] == str(Fraction(span, 2))
    lo, hi = (Fraction(x) for x in out["scale"]["enclosure"])
    assert 0 < lo <= hi <= Fraction(span, 2)

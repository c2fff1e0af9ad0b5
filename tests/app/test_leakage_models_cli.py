"""``pdpsym leakage --all-targets`` and ``pdpsym calibrate`` JSON for structured models."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

from pdpsym.app.cli import main
from pdpsym.loss import table_leakage as eq2
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
    refs = {t: eq2.table_leakage(table, t, ("x2",), 1).certified(12).decimal for t in ["x1", "x3"]}
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
        at_hi = eq2.table_leakage(table, t, ("sprinkler",), hi).certified(20)
        assert Fraction(at_hi.enclosure[1]) <= 1
    assert (
        Fraction(eq2.table_leakage(table, worst, ("sprinkler",), lo).certified(20).enclosure[0]) > 1
    )
    # group DP: one connected component of 3 records, spans 1 + 1 + 2 = 4 (hand), eps 1
    gdp, mqm = out["baselines"]
    assert gdp["name"] == "group-dp" and gdp["scale"]["exact"] == "4"
    assert mqm["name"] == "mqm-network"


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


BNLEARN = Path(__file__).parent.parent / "data" / "bnlearn"


def test_rounded_rows_of_a_real_file_are_renormalized_with_one_note(capsys):
    # alarm.bif (bnlearn) has rows summing to 0.9999999: read within 1e-6 by default
    argv = ["leakage", str(BNLEARN / "alarm.bif.gz"), "--target", "HISTORY", "--lam", "2"]
    assert main(argv) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "table rows sum to 1 only within 1e-06" in err[0]
    # the first rounded row of alarm.bif is on line 158 (read off the file)
    assert "line 158" in err[0] and "largest deviation 1e-07" in err[0]
    assert main([*argv, "--exact-rows"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 158: probabilities sum to 9999999/10000000" in err
    assert main([*argv, "--row-tolerance", "1e-8"]) == 2
    assert "more than the tolerance 1/100000000" in capsys.readouterr().err


def test_a_row_summing_to_nine_tenths_is_refused_by_line(tmp_path, capsys):
    p = tmp_path / "bad.bif"
    p.write_text(
        "variable a { type discrete [ 2 ] { yes, no }; }\n"
        "probability ( a ) {\n  table 0.5, 0.4;\n}\n"
    )
    out = tmp_path / "out.csv"
    assert main(["leakage", str(p), "--target", "a", "--lam", "1", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    # hand: 0.5 + 0.4 = 9/10, off 1 by 1/10 > 1e-6, on the table line (3)
    assert err.count("\n") == 1 and err.startswith("pdpsym: error: line 3: probabilities sum")
    assert not out.exists()


def test_a_network_with_a_cycle_is_refused_naming_the_line(tmp_path, capsys):
    p = tmp_path / "cycle.bif"
    p.write_text(
        "variable a { type discrete [ 2 ] { 0, 1 }; }\n"
        "variable b { type discrete [ 2 ] { 0, 1 }; }\n"
        "probability ( a | b ) { (0) 0.5, 0.5; (1) 0.5, 0.5; }\n"
        "probability ( b | a ) { (0) 0.5, 0.5; (1) 0.5, 0.5; }\n"
    )
    assert main(["leakage", str(p), "--all-targets", "--lam", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 3: the network has a cycle" in err


def test_a_million_node_file_is_refused_before_it_is_read(tmp_path, capsys):
    p = tmp_path / "big.bif"
    line = "variable v{} {{type discrete[2]{{0,1}};}}probability(v{}){{table .5,.5;}}\n"
    with p.open("w") as fh:
        fh.writelines(line.format(k, k) for k in range(10**6))
    assert main(["leakage", str(p), "--all-targets", "--lam", "1"]) == 2
    err = capsys.readouterr().err
    # the file is over the 64 MiB limit of model files (or, if not, over the node limit)
    assert err.count("\n") == 1 and ("larger than" in err or "more than 100000" in err)


def test_count_and_sum_queries_from_the_cli(capsys):
    alarm = str(BNLEARN / "alarm.bif.gz")
    argv = ["leakage", alarm, "--target", "HYPOVOLEMIA", "--lam", "2", "--json"]
    assert main([*argv, "--count", "HYPOVOLEMIA,LVFAILURE=TRUE"]) == 0
    got = json.loads(capsys.readouterr().out)
    # independent path: the Python API's count_query and structured_leakage
    from pdpsym.loss.count_leakage import structured_leakage

    net = BayesianNetwork.from_bif_text(
        __import__("gzip").open(alarm, "rt").read(), tolerance=Fraction(1, 10**6)
    ).count_query(["HYPOVOLEMIA", "LVFAILURE"], "TRUE")
    (r,) = structured_leakage(net, ["HYPOVOLEMIA"], (), Fraction(2), digits=30)
    assert got["value"]["decimal"] == r.as_json(30)["value"]["decimal"]
    assert main([*argv, "--sum", "CVP,PCWP"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "ok"


def test_an_unknown_state_in_count_is_one_line_naming_the_flag(capsys):
    alarm = str(BNLEARN / "alarm.bif.gz")
    argv = ["leakage", alarm, "--all-targets", "--lam", "2", "--count", "HYPOVOLEMIA=MAYBE"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert (
        err
        == "pdpsym: error: --count: 'HYPOVOLEMIA' has no state 'MAYBE' (its states: TRUE, FALSE)\n"
    )
    assert main(["leakage", alarm, "--target", "CVP", "--lam", "1", "--count", "CVP"]) == 2
    assert "expected NODE,...=STATE" in capsys.readouterr().err


def test_networks_past_the_limit_are_refused_up_front_naming_the_width(capsys):
    argv = ["leakage", str(BNLEARN / "link.bif.gz"), "--all-targets", "--lam", "2"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    # the induced width of link's min-fill order is 15 (computed by the plan, shown here)
    assert err.count("\n") == 1 and "junction tree of induced width 15" in err
    assert "--max-work" in err


def test_one_target_of_link_with_a_small_count_runs_on_its_ancestors(capsys):
    # link (724 records, induced width 15) is refused for every target at once, but one
    # target counting four records needs only their ancestors (barren records dropped)
    link = str(BNLEARN / "link.bif.gz")
    count = "D0_38_d_p,D0_17_d_p,D0_39_d_p,D0_40_d_p=a"
    argv = ["leakage", link, "--target", "D0_38_d_p", "--lam", "2", "--count", count, "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "ok"
    # independent path: the same query on the ancestral sub-network built by hand
    from pdpsym.loss.count_leakage import structured_leakage
    from pdpsym.models.bayesnet_build import ancestors

    net = BayesianNetwork.from_bif_text(
        __import__("gzip").open(link, "rt").read(), tolerance=Fraction(1, 10**6)
    )
    names = count.split("=")[0].split(",")
    sub = net.ancestral(ancestors(net.nodes, names)).count_query(names, "a")
    (r,) = structured_leakage(sub, ["D0_38_d_p"], (), Fraction(2), digits=30)
    assert out["value"]["decimal"] == r.as_json(30)["value"]["decimal"]

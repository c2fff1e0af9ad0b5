"""The histogram on the command line: leakage, calibrate and audit, bad input (exit 2
naming the field or flag) and the --max-work refusal."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

import pdpsym as ps
from pdpsym.app.cli import main
from pdpsym.audit.calibrate import calibrate
from pdpsym.audit.calibrate_histogram import histogram_baselines
from pdpsym.loss.histogram import histogram_leakage
from pdpsym.mechanisms.mqm import mqm_exact_scale

ACTIVITY = {
    "kind": "markov-chain",
    "length": 6,
    "states": ["sit", "walk", "run"],
    "initial": "stationary",
    "transition": [["4/5", "1/10", "1/10"], ["1/10", "4/5", "1/10"], ["1/10", "1/10", "4/5"]],
}


def _write(tmp_path, name, obj):
    p = tmp_path / name
    p.write_text(json.dumps(obj))
    return str(p)


def _err(capsys):
    return capsys.readouterr().err.strip().splitlines()


def test_leakage_all_targets_json(tmp_path, capsys):
    m = _write(tmp_path, "m.json", ACTIVITY)
    argv = ["leakage", m, "--query", "histogram", "--all-targets", "--lam", "2", "--json"]
    assert main([*argv, "--digits", "12"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["query"] == "histogram" and len(out["targets"]) == 6
    # the chain is reversal symmetric (stationary, symmetric matrix): x1 and x6 agree
    assert out["targets"][0]["value"]["decimal"] == out["targets"][5]["value"]["decimal"]
    chain = ps.MarkovChain.from_json_object(ACTIVITY)
    lib = histogram_leakage(chain, ["x3"], [], 2, digits=12)[0].value
    assert lib is not None and out["targets"][2]["value"]["decimal"] == lib.as_json(12)["decimal"]


def test_sum_on_named_states_names_values(tmp_path, capsys):
    m = _write(tmp_path, "m.json", ACTIVITY)
    assert main(["leakage", m, "--target", "x2"]) == 2
    err = _err(capsys)
    assert len(err) == 1 and "values" in err[0]


def test_refused_beyond_max_work(tmp_path, capsys):
    big = {**ACTIVITY, "length": 200}
    m = _write(tmp_path, "m.json", big)
    argv = ["leakage", m, "--query", "histogram", "--all-targets", "--max-work", "1000000"]
    assert main(argv) == 2
    err = _err(capsys)
    assert len(err) == 1 and "--max-work" in err[0]


@pytest.mark.parametrize(
    ("extra", "flag"),
    [(["--weights", "x1=2"], "--weights"), (["--lam", "0"], "lam"), (["--lam", "-1"], "lam")],
)
def test_bad_flags(tmp_path, capsys, extra, flag):
    m = _write(tmp_path, "m.json", ACTIVITY)
    assert main(["leakage", m, "--query", "histogram", "--target", "x1", *extra]) == 2
    err = _err(capsys)
    assert len(err) == 1 and flag in err[0]


def test_histogram_needs_a_structured_model(tmp_path, capsys):
    table = {"variables": ["x1", "x2"], "rows": [[0, 0, "1/2"], [1, 1, "1/2"]]}
    m = _write(tmp_path, "t.json", table)
    assert main(["leakage", m, "--query", "histogram", "--target", "x1"]) == 2
    assert "--query" in _err(capsys)[0]


def test_audit_from_the_mechanism_file(tmp_path, capsys):
    m = _write(tmp_path, "m.json", ACTIVITY)
    mech = _write(tmp_path, "h.json", {"kind": "laplace", "lam": "2", "query": "histogram"})
    assert main(["audit", m, "--target", "x2", "--known", "x4", mech, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # dp: one record moves two bins by one, 2/lambda = 1 (by hand)
    assert out["notions"]["dp"]["epsilon"]["exact"] == "1"
    chain = ps.MarkovChain.from_json_object(ACTIVITY)
    lib = histogram_leakage(chain, ["x2"], ["x4"], 2, digits=20)[0].value
    assert lib is not None
    assert out["notions"]["apkdp"]["epsilon"]["decimal"] == lib.as_json(20)["decimal"]


@pytest.mark.parametrize(
    ("mech", "extra", "field"),
    [
        ({"kind": "laplace", "lam": "0", "query": "histogram"}, [], "mechanism.lam"),
        ({"kind": "count", "query": "histogram"}, [], "mechanism.kind"),
        ({"kind": "laplace", "query": "hist"}, [], "mechanism.query"),
        ({"kind": "laplace", "query": "histogram"}, ["--notions", "cdp"], "--notions"),
        ({"kind": "laplace", "query": "histogram"}, ["--eps", "1"], "--eps"),
    ],
)
def test_audit_bad_input(tmp_path, capsys, mech, extra, field):
    m = _write(tmp_path, "m.json", ACTIVITY)
    f = _write(tmp_path, "h.json", mech)
    assert main(["audit", m, "--target", "x2", f, *extra]) == 2
    err = _err(capsys)
    assert len(err) == 1 and field in err[0]


def test_geometric_equals_laplace_on_the_grid(tmp_path, capsys):
    # two-sided geometric alpha = e^{-1/lambda} has the same grid values; with a rational
    # alpha the two agree at lambda = -1/ln(alpha): checked against the sum engine's
    # geometric-laplace identity instead on two states (count at half scale)
    chain = ps.MarkovChain(["0", "1"], 6, "stationary", [["4/5", "1/5"], ["1/10", "9/10"]])
    g = histogram_leakage(chain, ["x3"], [], 1, digits=15, alpha=F(1, 3))[0].value
    m = _write(
        tmp_path,
        "c.json",
        {
            **ACTIVITY,
            "states": ["0", "1"],
            "length": 6,
            "transition": [["4/5", "1/5"], ["1/10", "9/10"]],
        },
    )
    mech = _write(tmp_path, "g.json", {"kind": "geometric", "alpha": "1/9"})
    # the count's geometric noise alpha^2 = 1/9 is the histogram's alpha = 1/3 at half scale
    assert main(["audit", m, "--target", "x3", mech, "--notions", "apkdp", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert g is not None
    assert out["notions"]["apkdp"]["epsilon"]["decimal"][:14] == g.as_json(15)["decimal"][:14]


def test_calibrate_json_and_baselines(tmp_path, capsys):
    m = _write(tmp_path, "m.json", ACTIVITY)
    assert main(["calibrate", m, "--eps", "1", "--query", "histogram", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["query"] == "histogram"
    lo, hi = (F(x) for x in out["scale"]["enclosure"])
    chain = ps.MarkovChain.from_json_object(ACTIVITY)
    # the calibrated scale: certified above eps just below it, at most eps at its top end
    at_lo = max(
        r.value.lo for r in histogram_leakage(chain, chain.variables, [], lo * F(999, 1000))
    )
    at_hi = max(r.value.hi for r in histogram_leakage(chain, chain.variables, [], hi))
    assert at_lo > 1 >= at_hi
    names = [b["name"] for b in out["baselines"]]
    assert names == ["group-dp", "mqm-exact", "mqm-approx"]
    # group DP by hand: the 6 records are one dependent group, 2 * 6 / eps = 12
    assert out["baselines"][0]["scale"]["exact"] == "12"
    for b in out["baselines"]:
        # each baseline is eps-private: the leakage it gives is at most eps
        assert F(b["leakage"]["enclosure"][1]) <= 1


def test_mqm_histogram_is_twice_the_unit_sensitivity_scale():
    # Song et al.'s code adds Lap(2 sigma_max) per bin; sigma_max is the sum's scale at
    # sensitivity 1 (a 0/1 chain's sum has L = 1)
    chain = ps.MarkovChain(["0", "1"], 40, "stationary", [["9/10", "1/10"], ["1/5", "4/5"]])
    hist = {b.name: b for b in histogram_baselines(chain, F(1)) if hasattr(b, "scale")}
    assert hist["mqm-exact"].scale == 2 * mqm_exact_scale(chain, F(1)).scale
    assert hist["group-dp"].scale == 80


def test_calibration_stops_with_a_wider_bracket_when_undecided(monkeypatch):
    # pretend the enclosures cannot split PL from eps near the answer: the bracket stays
    # certified (its ends were decided) and only gets wider, instead of failing
    from pdpsym.audit import calibrate_histogram as ch

    chain = ps.MarkovChain.from_json_object(ACTIVITY)
    exact = calibrate(chain, F(1), query="histogram", baselines=False)
    real = ch._Target.compare

    def blurred(self, lam, eps):
        return 0 if abs(lam - exact.hi) < F(1, 50) else real(self, lam, eps)

    monkeypatch.setattr(ch._Target, "compare", blurred)
    wide = calibrate(chain, F(1), query="histogram", baselines=False)
    assert wide.lo <= exact.lo <= exact.hi <= wide.hi
    assert wide.hi - wide.lo > F(1, 100)

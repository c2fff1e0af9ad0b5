"""``pdpsym audit`` over an interval chain with a discrete mechanism: the figures' search
is reported (sup to its digits, or an enclosure), and refused up front beyond --max-work.

Independent source: the single-law ``audit()`` on corners of the box (the single-law
path, never the class path): the class's δ is at least each corner's.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction as F

from pdpsym.audit import audit
from pdpsym.audit.class_audit import bounds_of
from pdpsym.mechanisms.sum_kernels import CountSum
from pdpsym.models.law_class import IntervalChain

CLASS = {
    "kind": "interval-markov-chain",
    "length": 4,
    "states": ["0", "1"],
    "initial": "stationary",
    "transition": [[["4/5", "9/10"], ["1/10", "1/5"]], [["1/5", "3/10"], ["7/10", "4/5"]]],
}


def _run(args, check=True):
    argv = [sys.executable, "-m", "pdpsym", "audit", *args]
    return subprocess.run(argv, capture_output=True, text=True, check=check)


def test_cli_reports_the_figures_search(tmp_path):
    path, mech = tmp_path / "c.json", tmp_path / "m.json"
    cls_obj = {**CLASS, "length": 3}
    path.write_text(json.dumps(cls_obj))
    cls = IntervalChain.from_json_object(cls_obj)
    mech.write_text('{"kind": "count"}')
    common = [str(mech), "--target", "x2", "--notions", "cdp", "--eps", "1", "--json"]
    d = json.loads(_run([str(path), *common]).stdout)
    assert d["figures_search"]["boxes"] >= 1
    for name in ("cdp",):
        fig = d["notions"][name]["delta_at_epsilon"][0]["delta"]
        assert fig["status"] in ("sup", "enclosure")
        hi = F(fig["enclosure"][1])
        for theta in ((F(1, 10), F(4, 5)), (F(1, 5), F(7, 10))):
            one = audit(cls.member(theta), CountSum(), "x2", [], [F(1)], None, [name])
            assert bounds_of(one.results[0].delta_at_epsilon[0][1])[0] <= hi


def test_cli_refuses_the_figures_search_beyond_max_work(tmp_path):
    # hand derivation: 16 sub-boxes of this search cost about 2.7e5 steps
    # (steps_per_box x 16), above a limit of 2e5: refused, naming the flag
    path, mech = tmp_path / "c.json", tmp_path / "m.json"
    path.write_text(json.dumps({**CLASS, "length": 6}))
    mech.write_text('{"kind": "count"}')
    args = [str(path), str(mech), "--target", "x2", "--notions", "apkdp,cdp", "--eps", "1"]
    out = _run([*args, "--max-work", "200000"], check=False)
    assert out.returncode == 2
    assert "--max-work" in out.stderr and "figures' search" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_figures_search_is_limited_by_max_work_in_microsecond_steps(monkeypatch, capsys):
    """The figures' search is estimated in microsecond steps, so its default limit is the
    single-law --max-work default (10^8), not the class searches' cell budget (2 * 10^9):
    16 sub-boxes of 10^7 steps (hand: 1.6e8 > 1e8) are refused up front by default."""
    from pdpsym.app.cli import main
    from pdpsym.audit import class_figure_search

    monkeypatch.setattr(class_figure_search, "steps_per_box", lambda *a, **k: 10**7)
    argv = [
        "audit",
        "docs/examples/estimated-chain-4.json",
        "docs/examples/threshold1.json",
        "--target",
        "x2",
        "--eps",
        "1",
        "--notions",
        "apkdp",
    ]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--max-work" in err[0] and "1.0e+08" in err[0]


def test_a_figure_no_law_has_keeps_the_laws_note(tmp_path):
    # IBCDP is not computed on a structured law: the single-law audit says so in a note;
    # over a class (finite, or an interval chain) the same note explains the "-"
    from pdpsym.models.markov import MarkovChain

    law = {**CLASS, "length": 3, "transition": [["4/5", "1/5"], ["1/5", "4/5"]]}
    law["kind"] = "markov-chain"
    single = audit(MarkovChain.from_json_object(law), _rr(), "x2", ["x1"], notions=["ibcdp"])
    note = single.results[0].note
    assert single.results[0].epsilon is None and note and "structured" in note
    finite = tmp_path / "finite.json"
    finite.write_text(json.dumps({"kind": "model-class", "members": [law, law]}))
    interval = tmp_path / "interval.json"
    interval.write_text(json.dumps({**CLASS, "length": 3}))
    mech = tmp_path / "rr.json"
    mech.write_text('{"kind": "randomized-response", "keep": "3/4"}')
    for path in (finite, interval):
        common = [str(path), str(mech), "--target", "x2", "--known", "x1", "--notions", "ibcdp"]
        shown = json.loads(_run([*common, "--json"]).stdout)["notions"]["ibcdp"]
        assert shown["epsilon"] is None and shown["note"] == note, path.name
        text = _run(common).stdout
        assert "epsilon (delta = 0): -" in text and "note: not computed for structured" in text


def _rr():
    from pdpsym.mechanisms.discrete import RandomizedResponse

    return RandomizedResponse(F(3, 4), ((F(0), F(1)),) * 3)

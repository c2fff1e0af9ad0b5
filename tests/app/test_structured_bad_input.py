"""Bad structured models and flags: exit 2, one line naming the field, no traceback."""

from __future__ import annotations

import json

import pytest

from pdpsym.app.cli import main

GOOD = {
    "kind": "markov-chain",
    "length": 5,
    "states": ["0", "1"],
    "initial": ["1/2", "1/2"],
    "transition": [["9/10", "1/10"], ["1/10", "9/10"]],
}


def _with(**changes):
    obj = dict(GOOD)
    obj.update(changes)
    return obj


CASES = [
    (_with(transition=[["9/10", "2/10"], ["1/10", "9/10"]]), "transition[0]"),
    (_with(transition=[["9/10", "1/10"], ["-1/10", "11/10"]]), "transition[1][0]"),
    (_with(transition=[["9/10", "x"], ["1/10", "9/10"]]), "transition[0][1]"),
    (_with(initial=["1/2", "1/3", "1/6"]), "initial"),
    (_with(transition=[["1"], ["1"]]), "transition[0]"),
    (_with(states=["0", "1", "2"]), "transition"),
    (_with(length="0"), "length"),
    (_with(length=0), "length"),
    (_with(length="10/3"), "length"),
    (_with(names=["a", "b"]), "names"),
    (_with(kind="hidden-markov"), "kind"),
    (_with(initial="stationary", transition=[["1", "0"], ["0", "1"]]), "initial"),
    (
        {"kind": "product", "records": [{"values": [0, 1], "probs": ["1/2", "1/3"]}]},
        "records[0].probs",
    ),
    (
        {"kind": "product", "records": [{"values": [0, 1], "probs": ["-1/2", "3/2"]}]},
        "records[0].probs[0]",
    ),
    ({"kind": "product", "bernoulli": ["1/2", "abc"]}, "bernoulli[1]"),
    ({"kind": "product", "bernoulli": ["1/2", "3/2"]}, "bernoulli[1]"),
]


@pytest.mark.parametrize(("obj", "field"), CASES)
def test_bad_model_exits_2_naming_the_field(tmp_path, capsys, obj, field):
    p = tmp_path / "m.json"
    p.write_text(json.dumps(obj))
    code = main(["leakage", str(p), "--target", "x1", "--lam", "1"])
    err = capsys.readouterr()
    assert code == 2
    assert err.out == ""
    lines = err.err.strip().splitlines()
    assert len(lines) == 1 and field in lines[0], lines


def test_a_billion_records_are_refused_before_any_work(tmp_path, capsys):
    p = tmp_path / "m.json"
    p.write_text(json.dumps(_with(length="1000000000")))
    for argv in (
        ["leakage", str(p), "--all-targets", "--lam", "1"],
        ["leakage", str(p), "--target", "x1", "--lam", "1"],
        ["calibrate", str(p), "--eps", "1"],
    ):
        code = main(argv)
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(err) == 1 and "--max-work" in err[0]


def test_bad_flags(tmp_path, capsys):
    p = tmp_path / "m.json"
    p.write_text(json.dumps(GOOD))
    for argv, field in (
        (["leakage", str(p), "--target", "y", "--lam", "1"], "--target"),
        (["leakage", str(p), "--target", "x1", "--known", "x1", "--lam", "1"], "--known"),
        (["leakage", str(p), "--lam", "1"], "--target"),
        (["leakage", str(p), "--target", "x1", "--lam", "-1"], "--lam"),
        (["calibrate", str(p), "--eps", "0"], "--eps"),
        (["calibrate", str(p), "--eps", "1", "--mechanism", "gauss"], "--mechanism"),
    ):
        code = main(argv)
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(err) == 1 and field in err[0], (argv, err)

"""The pdpsym command: verify, leakage, table, and bad input (exit 2, one line, no stdout)."""

import json
import subprocess
import sys

import pytest

from pdpsym.app.cli import main
from pdpsym.verify import CATALOGUE

MODEL = {
    "variables": ["x1", "x2"],
    "rows": [["0", "0", "3/10"], ["0", "1", "1/5"], ["1", "0", "1/5"], ["1", "1", "3/10"]],
}


@pytest.fixture
def model_file(tmp_path):
    p = tmp_path / "a.json"
    p.write_text(json.dumps(MODEL))
    return p


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_leakage_json_follows_the_architecture(capsys, model_file):
    code, out, err = run(
        capsys, "leakage", str(model_file), "--target", "x1", "--json", "--digits", "12"
    )
    assert code == 0 and err == ""
    obj = json.loads(out)
    assert obj["status"] == "ok"
    assert set(obj["value"]) == {"exact", "decimal", "enclosure"}
    assert obj["value"]["exact"] == "log((2*E + 3*exp(2))/(3 + 2*E))"
    assert obj["value"]["decimal"] == "1.18537590325"
    assert set(obj["witness"]) == {"x_i", "x_i_prime", "x_K", "r"}


def test_leakage_reports_no_compatible_pair(capsys, tmp_path):
    p = tmp_path / "c.json"
    p.write_text(
        json.dumps({"variables": ["x1", "x2"], "rows": [["0", "0", "1/2"], ["1", "1", "1/2"]]})
    )
    code, out, _ = run(capsys, "leakage", str(p), "--target", "x1", "--known", "x2", "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["status"] == "no-compatible-pair" and obj["value"] is None


def test_leakage_weights_and_lambda(capsys, model_file):
    code, out, _ = run(
        capsys,
        "leakage",
        str(model_file),
        "--target",
        "x1",
        "--known",
        "x2",
        "--lam",
        "1/2",
        "--weights",
        "x1=3",
        "--json",
    )
    assert json.loads(out)["value"]["exact"] == "6"


def test_verify_json_lists_every_catalogue_claim(capsys):
    code, out, _ = run(capsys, "verify", "--paper", "li2019", "--json")
    assert code == 0
    claims = json.loads(out)["claims"]
    assert [c["id"] for c in claims] == [c for c in CATALOGUE if c.startswith("li2019.")]
    for c in claims:
        assert set(c) >= {"id", "verdict", "reading", "evidence", "counterexample"}
        assert (c["counterexample"] is not None) == (c["verdict"] in ("refuted", "erratum"))
        assert not c["evidence"].startswith("checker error"), c


def test_verify_table_formats(capsys):
    for fmt in ("md", "latex", "csv"):
        code, out, _ = run(capsys, "verify", "--claim", "li2019.ex4", "--format", fmt)
        assert code == 0 and "li2019.ex4" in out


def test_table_li2019_examples(capsys):
    code, out, _ = run(capsys, "table", "li2019-examples", "--format", "md")
    assert code == 0 and "log((2*E + 3*exp(2))/(3 + 2*E))" in out and "no-compatible-pair" in out
    code, out, _ = run(capsys, "table", "li2019-examples", "--format", "latex")
    assert r"\begin{tabularx}" in out and r"\log" in out
    code, out, _ = run(capsys, "table", "li2019-examples", "--format", "csv")
    assert out.splitlines()[0].startswith("table,")


BAD = [
    (["--lam", "0"], "--lam"),
    (["--lam", "-1"], "--lam"),
    (["--lam", "abc"], "--lam"),
    (["--known", "x9"], "--known"),
    (["--known", "x2,x2"], "--known"),
    (["--known", "x1"], "--known"),
    (["--weights", "x9=1"], "--weights"),
    (["--weights", "x1"], "--weights"),
    (["--digits", "0"], "--digits"),
]


@pytest.mark.parametrize("extra,field", BAD)
def test_bad_parameters_exit_2_with_one_line(capsys, model_file, extra, field):
    code, out, err = run(capsys, "leakage", str(model_file), "--target", "x1", *extra)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and field in err


def test_unknown_target(capsys, model_file):
    code, out, err = run(capsys, "leakage", str(model_file), "--target", "zz")
    assert code == 2 and out == "" and "--target" in err


@pytest.mark.parametrize(
    "content,needle",
    [
        ('{"variables": ["x1"], "rows": [["0", "half"], ["1", "1/2"]]}', "not a number"),
        ('{"variables": ["x1"], "rows": [["0", "-1/2"], ["1", "3/2"]]}', "negative"),
        ('{"variables": ["x1"], "rows": [["0", "1/2"], ["1", "1/3"]]}', "not exactly 1"),
        ('{"variables": ["x1", "x1"], "rows": [["0", "0", "1"]]}', "duplicate"),
        ('{"variables": ["x1"], "rows": [["0", "1", "1"]]}', "expected 2 entries"),
        ("[1, 2", "invalid JSON"),
    ],
)
def test_bad_models_exit_2_without_traceback(tmp_path, content, needle):
    p = tmp_path / "m.json"
    p.write_text(content)
    proc = subprocess.run(
        [sys.executable, "-m", "pdpsym", "leakage", str(p), "--target", "x1"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and needle in proc.stderr
    assert "Traceback" not in proc.stderr


def test_usage_errors_are_one_line():
    proc = subprocess.run(
        [sys.executable, "-m", "pdpsym", "verify", "--paper", "nope"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    proc = subprocess.run(
        [sys.executable, "-m", "pdpsym", "verify", "--claim", "li2019.nope"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and "--claim" in proc.stderr and proc.stdout == ""


def test_help_documents_the_commands():
    proc = subprocess.run(
        [sys.executable, "-m", "pdpsym", "--help"], capture_output=True, text=True
    )
    assert proc.returncode == 0 and "verify" in proc.stdout and "leakage" in proc.stdout


def test_interrupt_is_one_line_and_status_130(monkeypatch, capsys) -> None:
    import pdpsym.app.commands.verify as cc

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cc, "run", interrupted)
    from pdpsym.app.cli import main as cli_main

    assert cli_main(["verify", "--claim", "li2019.ex2"]) == 130
    err = capsys.readouterr().err
    assert err.strip() == "pdpsym: interrupted"


def test_verify_columns_unknown_name_is_refused(capsys):
    code, out, err = run(capsys, "verify", "--claim", "li2019.ex2", "--columns", "id,colour")
    assert code == 2 and out == ""
    assert "--columns" in err and "colour" in err

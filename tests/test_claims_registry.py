"""The registry covers the catalogue, and verdicts come from checkers with evidence."""

import re
from pathlib import Path

import pytest

from pdpsym.papers.claim import VERDICTS, ClaimResult, has_checker
from pdpsym.verify import CATALOGUE, RunConfig, run_claim

SPEC = Path(__file__).resolve().parents[2] / "shared" / "spec" / "claims.md"


@pytest.mark.skipif(not SPEC.exists(), reason="../shared/spec/claims.md not beside the repo")
def test_every_catalogue_id_is_registered():
    ids = re.findall(r"^\| ((?:li2019|dmkb2020|lmm2016)\.[\w.]+) \|", SPEC.read_text(), re.M)
    assert ids and all(i in CATALOGUE for i in ids)


FOUNDATION = [
    "li2019.eq3",
    "li2019.breakpoints",
    "li2019.remark1",
    "li2019.thm1",
    "li2019.thm4",
    "li2019.ex2",
    "li2019.ex3",
    "li2019.ex4",
]


@pytest.mark.parametrize("cid", FOUNDATION)
def test_foundation_checkers_run_and_give_evidence(cid):
    assert has_checker(cid)
    r = run_claim(cid, RunConfig())
    assert r.verdict in VERDICTS and r.verdict != "unresolved"
    assert r.method and r.evidence and not r.evidence.startswith("checker error")


def test_theorem4_erratum_has_the_minimal_exact_counterexample():
    r = run_claim("li2019.thm4", RunConfig())
    assert r.verdict == "erratum"
    cx = r.counterexample
    assert cx["printed_value"] == "2" and cx["corrected_value"] == "1" and cx["leakage"] == "1"
    assert len(cx["model"]["rows"]) == 3  # three cells of 1/3: nothing smaller fails


def test_unchecked_ids_are_unresolved_not_yet_checked(monkeypatch):
    from pdpsym.papers import claim as registry

    monkeypatch.delitem(registry._CHECKERS, "li2019.ex4")
    r = run_claim("li2019.ex4", RunConfig())
    assert r.verdict == "unresolved" and r.evidence == "not yet checked"


def test_a_crashing_checker_is_reported_not_hidden(monkeypatch):
    from pdpsym.papers import claim as registry

    def boom(config):
        raise ZeroDivisionError("bug")

    monkeypatch.setitem(registry._CHECKERS, "li2019.ex4", boom)
    r = run_claim("li2019.ex4", RunConfig())
    assert r.verdict == "unresolved" and "checker error" in r.evidence


def test_refutations_require_counterexamples():
    with pytest.raises(ValueError):
        ClaimResult("li2019.ex4", "refuted", "no example")


@pytest.mark.slow
@pytest.mark.parametrize("cid", FOUNDATION)
def test_foundation_checkers_thorough(cid):
    r = run_claim(cid, RunConfig(thorough=True))
    assert r.verdict != "unresolved"

"""The Section 2/3/5 checkers of Desfontaines et al.: verdicts, evidence, speed."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pdpsym.verify import RunConfig, run_claim

EXPECTED = {
    "dmkb2020.lemma1": "supported",
    "dmkb2020.def12": "supported",
    "dmkb2020.prop5": "supported",
    "dmkb2020.thm1": "supported",
    "dmkb2020.thm2": "supported",
    "dmkb2020.prop6": "erratum",
    "dmkb2020.ex8": "proved",
    "dmkb2020.thm6": "erratum",
    "dmkb2020.thm6.subadditivity": "proved",
    "dmkb2020.prop9": "erratum",
    "dmkb2020.ex9": "erratum",
    "dmkb2020.prop1": "supported",
    "dmkb2020.ex1": "proved",
    "dmkb2020.ex2": "proved",
    "dmkb2020.ex3": "proved",
    "dmkb2020.ex4": "proved",
    "dmkb2020.ex5": "erratum",
    "dmkb2020.prop2": "supported",
    "dmkb2020.prop3": "supported",
    "dmkb2020.prop4": "erratum",
    "dmkb2020.ex6": "proved",
}


@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_checker_verdict(claim_id: str) -> None:
    r = run_claim(claim_id, RunConfig())
    assert r.method not in ("none", "error"), r.evidence
    assert r.verdict == EXPECTED[claim_id], r.evidence
    assert r.evidence
    if r.verdict in ("refuted", "erratum"):
        assert r.counterexample


def test_thm6_counterexample_is_the_and_gate() -> None:
    cx = run_claim("dmkb2020.thm6", RunConfig()).counterexample
    assert cx is not None
    assert (cx["e^L"], cx["e^L1"], cx["e^L2"], cx["e^L2_given_O1"]) == ("2", "2", "2", "1")
    assert cx["factor1_holds_here"] is True


def test_verify_cli_lists_my_claims() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pdpsym",
            "verify",
            "--claim",
            "dmkb2020.thm6.subadditivity",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert '"dmkb2020.thm6.subadditivity"' in out and '"proved"' in out


@pytest.mark.slow
@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_checker_thorough(claim_id: str) -> None:
    r = run_claim(claim_id, RunConfig(thorough=True))
    assert r.verdict == EXPECTED[claim_id], r.evidence

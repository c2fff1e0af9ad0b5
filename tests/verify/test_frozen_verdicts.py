"""Every claim's verdict, method and counterexample equal the frozen file: the one place.

The frozen file is the record of what the project has decided; it changes only in a
commit that explains each changed verdict, method or counterexample. The default run is
made once per module (``pdpsym verify --json`` in a subprocess, as a user runs it); each
claim is then its own test, so a changed verdict names its claim. The comparison
ignores seconds and the wording of the evidence. The thorough run (slow) must reach the
same verdict on every claim: more cases may find a counterexample, never lose one.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pdpsym.verify import RunConfig, run_claim

FROZEN = Path(__file__).with_name("frozen_verdicts.json")
WANT: list[dict[str, Any]] = json.loads(FROZEN.read_text(encoding="utf-8"))["claims"]
IDS = [c["id"] for c in WANT]
BY_ID = {c["id"]: c for c in WANT}


@pytest.fixture(scope="module")
def default_run() -> dict[str, dict[str, Any]]:
    run = subprocess.run(
        [sys.executable, "-m", "pdpsym", "verify", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    claims = json.loads(run.stdout)["claims"]
    assert [c["id"] for c in claims] == IDS, "the run's claims differ from the frozen file's"
    return {c["id"]: c for c in claims}


@pytest.mark.parametrize("claim_id", IDS)
def test_verdict_and_method_equal_the_frozen_file(
    claim_id: str, default_run: dict[str, dict[str, Any]]
) -> None:
    got, want = default_run[claim_id], BY_ID[claim_id]
    assert (got["verdict"], got["method"]) == (want["verdict"], want["method"]), got["evidence"]
    assert got["counterexample"] == want["counterexample"]
    assert got["evidence"], "a verdict without evidence"
    if got["verdict"] in ("refuted", "erratum"):
        assert got["counterexample"], "a refuted or erratum verdict without its counterexample"


def test_the_frozen_file_is_well_formed() -> None:
    verdicts = {"proved", "supported", "refuted", "erratum"}
    assert len(IDS) == len(set(IDS)) == 68
    for c in WANT:
        assert set(c) == {"id", "verdict", "method", "counterexample"}, c["id"]
        assert c["verdict"] in verdicts, c["id"]
        assert c["method"] not in ("none", "error"), c["id"]
        assert (c["counterexample"] is not None) == (c["verdict"] in ("refuted", "erratum"))


@pytest.mark.slow
@pytest.mark.parametrize("claim_id", IDS)
def test_thorough_verdict_equals_the_frozen_one(claim_id: str) -> None:
    r = run_claim(claim_id, RunConfig(thorough=True))
    assert r.verdict == BY_ID[claim_id]["verdict"], r.evidence

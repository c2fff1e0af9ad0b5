"""The Section 4 checkers run fast by default and give computed verdicts."""

from __future__ import annotations

import pytest

from pdpsym.verify import RunConfig, run_claim

IDS = [
    "dmkb2020.thm3",
    "dmkb2020.thm3.decomposition",
    "dmkb2020.prop7",
    "dmkb2020.cor1",
    "dmkb2020.thm4",
    "dmkb2020.thm4.plrv",
    "dmkb2020.thm4.poisson",
    "dmkb2020.thm4.coupling",
    "dmkb2020.lemma2",
    "dmkb2020.prop8",
    "dmkb2020.thm5",
    "dmkb2020.ex7",
    "dmkb2020.def19",
    "dmkb2020.fig5",
]


@pytest.mark.parametrize("cid", IDS)
def test_checker_runs(cid: str) -> None:
    r = run_claim(cid, RunConfig())
    assert r.method not in ("none", "error"), r.evidence
    assert r.verdict != "unresolved", r.evidence
    if r.verdict in ("refuted", "erratum"):
        assert r.counterexample


@pytest.mark.slow
@pytest.mark.parametrize("cid", IDS)
def test_checker_thorough(cid: str) -> None:
    r = run_claim(cid, RunConfig(thorough=True))
    assert r.method not in ("none", "error"), r.evidence

"""The catalogue: every id has a checker, `verify --list` prints it, docs/claims.md is fresh."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

from pdpsym.app.cli import main
from pdpsym.claims.catalogue import NO_GENERAL_PROOF
from pdpsym.claims.claim import CHECKERS
from pdpsym.verify import CATALOGUE

DOCS = Path(__file__).resolve().parents[2] / "docs" / "claims.md"


def _run(*argv: str) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(list(argv)) == 0
    return buf.getvalue()


def test_every_catalogued_claim_has_a_checker() -> None:
    assert sorted(CATALOGUE) == sorted(CHECKERS)
    assert len(CATALOGUE) >= 68  # the catalogue only grows


def test_ids_name_their_paper_and_sections_are_given() -> None:
    for cid, c in CATALOGUE.items():
        assert re.fullmatch(r"(li2019|dmkb2020|lmm2016)\.[a-z0-9.]+", cid)
        assert c.paper == cid.split(".")[0] and c.section and c.label and c.statement


def test_list_json_has_every_id_in_order() -> None:
    got = json.loads(_run("verify", "--list", "--json"))["claims"]
    assert [c["id"] for c in got] == list(CATALOGUE)


def test_docs_claims_md_is_generated_from_the_catalogue() -> None:
    assert DOCS.read_text(encoding="utf-8") == _run("verify", "--list"), (
        "docs/claims.md is stale: regenerate with `pdpsym verify --list > docs/claims.md`"
    )


def test_md_output_ends_with_the_summary_and_prints_counterexamples_as_json() -> None:
    out = _run("verify", "--claim", "li2019.thm4", "--claim", "li2019.eq3", "--format", "md")
    summary = [ln for ln in out.splitlines() if re.fullmatch(r"\d+ claims: .*", ln)]
    assert len(summary) == 1
    # the frozen verdicts: eq3 proved, thm4 erratum
    assert summary[0] == "2 claims: 1 proved, 0 supported, 0 refuted, 1 erratum, 0 unresolved"
    assert out.splitlines()[-1] == summary[0]  # the summary is the last line
    cx = [ln for ln in out.splitlines() if ln.startswith("li2019.thm4 counterexample: ")]
    assert len(cx) == 1
    assert isinstance(json.loads(cx[0].split(": ", 1)[1]), dict)


def test_text_output_is_one_line_per_claim_with_the_counterexample_indented() -> None:
    out = _run("verify", "--claim", "li2019.thm4", "--claim", "li2019.eq3")
    lines = out.splitlines()
    # the frozen verdicts: eq3 proved, thm4 erratum; the summary is the last line
    assert lines[-1] == "2 claims: 1 proved, 0 supported, 0 refuted, 1 erratum, 0 unresolved"
    # the header names the columns (the count of cases included)
    assert lines[0].split() == ["ID", "VERDICT", "METHOD", "CASES", "EVIDENCE"]
    claim_lines = [ln for ln in lines[1:] if not ln.startswith(" ")][:-1]
    claim_lines = [ln for ln in claim_lines if not ln.startswith("(")]  # the clipping note
    assert [ln.split()[:2] for ln in claim_lines] == [
        ["li2019.eq3", "proved"],
        ["li2019.thm4", "erratum"],
    ]
    assert all(len(ln) <= 110 for ln in lines[:-2])
    # thm4's counterexample, field by field under its claim (the catalogue's erratum:
    # printed Delta_i/lambda = 2 against the corrected 1)
    below = lines[lines.index(claim_lines[1]) + 1 :]
    assert below[0] == "    counterexample:"
    assert "      printed_value: 2" in below and "      corrected_value: 1" in below


def test_each_paper_maps_labels_to_functions_and_catalogued_claims() -> None:
    from pdpsym.papers import dmkb2020, li2019, lmm2016

    for paper, pkg in (("li2019", li2019), ("dmkb2020", dmkb2020), ("lmm2016", lmm2016)):
        assert pkg.LABELS
        for label, (fn, cid) in pkg.LABELS.items():
            assert callable(fn) and fn.__doc__, label
            assert cid in CATALOGUE and cid.startswith(paper + "."), (label, cid)


def test_the_errata_page_names_every_refuted_or_corrected_claim() -> None:
    frozen = json.loads(
        (DOCS.parent.parent / "tests" / "verify" / "frozen_verdicts.json").read_text()
    )
    page = (DOCS.parent / "readings-and-errata.md").read_text(encoding="utf-8")
    missing = [
        c["id"]
        for c in frozen["claims"]
        if c["verdict"] in ("refuted", "erratum") and f"| {c['id']} | {c['verdict']} |" not in page
    ]
    assert not missing, f"docs/readings-and-errata.md does not list {missing}"


def test_every_supported_claim_says_why_it_has_no_proof() -> None:
    # frozen verdicts: a "supported" claim has a NO_GENERAL_PROOF line, a proved one none
    frozen = json.loads(
        (Path(__file__).with_name("frozen_verdicts.json")).read_text(encoding="utf-8")
    )["claims"]
    supported = {c["id"] for c in frozen if c["verdict"] == "supported"}
    assert set(NO_GENERAL_PROOF) == supported
    assert all(NO_GENERAL_PROOF[cid].strip() for cid in supported)

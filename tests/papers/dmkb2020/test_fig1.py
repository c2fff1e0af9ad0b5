"""dmkb2020.fig1: the edges carry the verdicts the verify command computes.

Sources: the relations of Section 2 as read from the paper's text (Proposition 1: CDP and
IBCDP imply each other with 2 eps; Propositions 2 and 4: NP <=> CDP under their
conditions; Examples 1-5: separations), checked here as a hand-written list; the verdicts
are compared with ``pdpsym verify --claim ID --json`` (the app's path, not the figure's).
"""

from __future__ import annotations

import json

from pdpsym.app.cli import main
from pdpsym.claims.figure import Scale
from pdpsym.verify.figures import all_figures as figures

PAPER_RELATIONS = {
    ("CDP", "IBCDP", "implies"),
    ("IBCDP", "CDP", "implies"),
    ("NP", "CDP", "implies"),
    ("CDP", "NP", "implies"),
    ("NP", "CDP", "does not imply"),
    ("CDP", "NP", "does not imply"),
    ("DDP", "NP", "does not imply"),
}


def test_edges_and_verdicts_match_the_verify_command(capsys) -> None:
    data = figures()["dmkb2020.fig1"].build(Scale.QUICK)
    got = {(r["from"], r["to"], r["relation"]) for r in data.rows if r["from"] != r["to"]}
    assert PAPER_RELATIONS <= got
    for r in data.rows:
        assert main(["verify", "--claim", r["claim"], "--json"]) in (0, 1)
        out = json.loads(capsys.readouterr().out)
        result = out["claims"][0] if "claims" in out else out
        assert r["verdict"] == result["verdict"]
        assert r["evidence"] == result["evidence"]
    # every separation in the figure is an exact instance or exhaustive class
    for r in data.rows:
        if r["relation"] == "does not imply" and r["verdict"] == "proved":
            assert r["method"] in ("exact-instance", "exhaustive")

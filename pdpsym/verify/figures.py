"""Desfontaines et al.'s Fig. 1 as data: the relations between the Section 2 definitions.

Fig. 1 of the paper (Section 2.3) summarizes how noiseless privacy (NP, Definition 3),
distributional DP (DDP, Definition 4), causal DP (CDP, Definition 5) and inference-based
causal DP (IBCDP, Definition 6) relate when ``delta = 0``. The picture itself is lost; each
arrow here is one relation that Section 2 states (Propositions 1-4, Examples 1-5), and its
verdict and evidence are those of the catalogue claim that checks it, computed by running
the claim's checker (:func:`pdpsym.verify.run_claim`) when the figure is built -- never
typed. An implication drawn solid holds on every finite case the checker ran; a
non-implication is an exact counterexample instance; an arrow whose claim is an erratum is
drawn as such, with the checker's evidence for the printed and the corrected statement.

This module lives in the verify layer (it runs checkers) and registers the figure in
:mod:`pdpsym.papers.figure` when the registry loads it.
"""

from __future__ import annotations

from pdpsym.papers.claim import RunConfig
from pdpsym.papers.figure import FigureSpec, Plot, Scale, Text, figure, figures
from pdpsym.verify.runner import run_claim

IMPLIES, NOT_IMPLIES = "implies", "does not imply"

# (from, to, relation, condition, claim id): the relations as Section 2 states them
EDGES: tuple[tuple[str, str, str, str, str], ...] = (
    ("CDP", "IBCDP", IMPLIES, "eps -> 2 eps", "dmkb2020.prop1"),
    ("IBCDP", "CDP", IMPLIES, "eps -> 2 eps", "dmkb2020.prop1"),
    ("NP", "CDP", IMPLIES, "independent records", "dmkb2020.prop2"),
    ("CDP", "NP", IMPLIES, "independent records", "dmkb2020.prop2"),
    ("NP", "CDP", IMPLIES, "acceptable Theta", "dmkb2020.prop4"),
    ("CDP", "NP", IMPLIES, "acceptable Theta", "dmkb2020.prop4"),
    ("NP, more knowledge", "NP, less knowledge", IMPLIES, "acceptable", "dmkb2020.prop3"),
    # Examples 1 and 5 each show one half of a separation: the claim checks that the mean
    # is not NP (its CDP with bounded records is the text's argument), and that the
    # correcting mechanism is CDP (it outputs the whole database, so it is not NP)
    ("CDP", "NP", NOT_IMPLIES, "hidden global parameter; checked: not NP", "dmkb2020.ex1"),
    ("DDP", "NP", NOT_IMPLIES, "duplicated records", "dmkb2020.ex2"),
    ("NP", "CDP", NOT_IMPLIES, "hidden global parameter", "dmkb2020.ex3"),
    ("NP", "CDP", NOT_IMPLIES, "duplicated records", "dmkb2020.ex4"),
    ("CDP", "NP", NOT_IMPLIES, "triplicated records; checked: CDP", "dmkb2020.ex5"),
)
COLUMNS = (
    "from",
    "to",
    "relation",
    "condition",
    "claim",
    "verdict",
    "method",
    "cases",
    "evidence",
)


def fig1_points(scale: Scale) -> list[str]:
    """One point per claim (each claim's checker runs once, at default effort)."""
    return list(dict.fromkeys(cid for *_, cid in EDGES))


def fig1_point(claim_id: str) -> list[dict[str, str]]:
    r = run_claim(claim_id, RunConfig())
    found = (r.verdict.value, r.method.value, "" if r.cases is None else str(r.cases), r.evidence)
    return [
        dict(zip(COLUMNS, (*edge, *found), strict=True)) for edge in EDGES if edge[4] == claim_id
    ]


@figure(
    "dmkb2020.fig1",
    "Relations between the Section 2 definitions (delta = 0), with evidence",
    fig1_points,
    fig1_point,
    columns=COLUMNS,
    plot=Plot(kind="graph", x="from", lines=(), xlabel="", ylabel=""),
    scaled=False,
)
def fig1(scale: Scale) -> Text:
    return Text(
        title="Relations between NP, DDP, CDP and IBCDP (delta = 0)",
        caption=(
            "Each arrow is a relation stated in Section 2 (Propositions 1-4, Examples 1-5) "
            "with the verdict and evidence of the claim that checks it, computed when the "
            "figure is built. Solid: an implication that held on every finite case checked "
            "(with its condition); dashed red: a non-implication shown by an exact instance; "
            "dotted orange: the claim is an erratum as printed (see its evidence). The "
            "paper's drawing is lost; the arrows are read from the text."
        ),
        params={"delta": "0", "checker_effort": "default (not --thorough)", "seed": "20191"},
    )


def all_figures() -> dict[str, FigureSpec]:
    """Every figure: the papers' own and those of this layer (registered on import)."""
    return figures()

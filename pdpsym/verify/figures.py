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
:mod:`pdpsym.claims.figure` when the registry loads it.
"""

from __future__ import annotations

from pdpsym.claims.claim import RunConfig
from pdpsym.claims.figure import FigureSpec, Plot, Scale, Text, figure, figures
from pdpsym.verify.runner import run_claim

IMPLIES, NOT_IMPLIES = "implies", "does not imply"

# claim id: (relation, condition, arrows (from, to)), the relations as Section 2 states them
EDGES: dict[str, tuple[str, str, tuple[tuple[str, str], ...]]] = {
    "dmkb2020.prop1": (IMPLIES, "eps -> 2 eps", (("CDP", "IBCDP"), ("IBCDP", "CDP"))),
    "dmkb2020.prop2": (IMPLIES, "independent records", (("NP", "CDP"), ("CDP", "NP"))),
    "dmkb2020.prop4": (IMPLIES, "acceptable Theta", (("NP", "CDP"), ("CDP", "NP"))),
    "dmkb2020.prop3": (IMPLIES, "acceptable", (("NP, more knowledge", "NP, less knowledge"),)),
    # Examples 1 and 5 each show one half of a separation: the claim checks that the mean
    # is not NP (its CDP with bounded records is the text's argument), and that the
    # correcting mechanism is CDP (it outputs the whole database, so it is not NP)
    "dmkb2020.ex1": (NOT_IMPLIES, "hidden global parameter; checked: not NP", (("CDP", "NP"),)),
    "dmkb2020.ex2": (NOT_IMPLIES, "duplicated records", (("DDP", "NP"),)),
    "dmkb2020.ex3": (NOT_IMPLIES, "hidden global parameter", (("NP", "CDP"),)),
    "dmkb2020.ex4": (NOT_IMPLIES, "duplicated records", (("NP", "CDP"),)),
    "dmkb2020.ex5": (NOT_IMPLIES, "triplicated records; checked: CDP", (("CDP", "NP"),)),
}
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
    return list(EDGES)


def fig1_point(claim_id: str) -> list[dict[str, str]]:
    r = run_claim(claim_id, RunConfig())
    relation, condition, arrows = EDGES[claim_id]
    found = (r.verdict.value, r.method.value, "" if r.cases is None else str(r.cases), r.evidence)
    return [
        dict(zip(COLUMNS, (*arrow, relation, condition, claim_id, *found), strict=True))
        for arrow in arrows
    ]


@figure(
    "dmkb2020.fig1",
    "Relations between the Section 2 definitions (delta = 0), with evidence",
    fig1_points,
    fig1_point,
    columns=COLUMNS,
    scaled=False,
    plot=Plot(kind="graph", x="from", lines=(), xlabel="", ylabel=""),
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
    import pdpsym.verify.correlated_figure  # noqa: F401, PLC0415 (registers correlated.calibration)
    import pdpsym.verify.histogram_figure  # noqa: F401, PLC0415 (registers correlated.histogram)
    import pdpsym.verify.temporal_figure  # noqa: F401, PLC0415 (registers timeseries.tpl)

    return figures()

"""mkdocs hook: generate the pages that must never be written by hand.

Before each build it writes into ``docs/generated/``:

* ``errata.md``: every refuted or erratum claim, from the registry and a fresh run of the
  checkers: the statement, the verdict, how it was found (evidence, reading), the minimal
  counterexample and the command that reproduces it;
* ``figures.md`` and ``figures/ID.png``: every figure, drawn by ``pdpsym figure`` at
  ``--scale quick``, with a link to its certified CSV;
* ``commands.md``: the ``--help`` of every command.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

GENERATED = Path(__file__).parent / "generated"


def _errata() -> str:
    from pdpsym.claims.catalogue import CATALOGUE
    from pdpsym.verify import RunConfig, select
    from pdpsym.verify.runner import run_claims

    results = run_claims(select(), RunConfig(), jobs=os.cpu_count() or 1)
    bad = [r for r in results if r.verdict in ("refuted", "erratum")]
    lines = [
        "# Errata report",
        "",
        f"Generated at build time from the claim registry: {len(bad)} of {len(results)} "
        "claims are refuted or corrected (erratum). Each entry gives the statement as "
        "catalogued, how the checker decided it, the minimal counterexample it found (the "
        "first in its stated order) and the command that reproduces it.",
        "",
    ]
    for r in bad:
        entry = CATALOGUE[r.id]
        lines += [
            f"## {r.id}",
            "",
            f"**{entry.label}** ({entry.section}): {entry.statement}",
            "",
            f"- **Verdict:** {r.verdict} ({r.method}, {r.cases} cases)",
            f"- **How:** {r.evidence}",
        ]
        if r.reading:
            lines.append(f"- **Reading:** {r.reading}")
        lines += [
            f"- **Reproduce:** `pdpsym verify --claim {r.id} --json`",
            "",
            "```json",
            json.dumps(r.counterexample, indent=2, ensure_ascii=False),
            "```",
            "",
        ]
    return "\n".join(lines)


def _figures() -> str:
    from pdpsym.app.commands.figure import to_csv
    from pdpsym.app.plot import render
    from pdpsym.claims.figure import Scale
    from pdpsym.verify.figures import all_figures as figures

    out = GENERATED / "figures"
    out.mkdir(parents=True, exist_ok=True)
    lines = [
        "# Figures",
        "",
        "Every figure is computed by `pdpsym figure ID` with certified values; the pictures "
        "here are the `--scale quick` versions, drawn when the site was built. "
        "`--scale paper` uses the papers' own parameters.",
        "",
    ]
    for spec in figures().values():
        data = spec.build(Scale.QUICK)
        (out / f"{spec.id}.png").write_bytes(render(data, "png"))
        (out / f"{spec.id}.csv").write_text(to_csv(data), encoding="utf-8")
        lines += [
            f"## {spec.id}",
            "",
            data.caption,
            "",
            f"![{spec.id}](figures/{spec.id}.png)",
            "",
            f"Data: [{spec.id}.csv](figures/{spec.id}.csv). Reproduce: "
            f"`pdpsym figure {spec.id} --scale paper --max-work 1e10 --format csv` "
            "(the paper scale is above the default work limit).",
            "",
        ]
    return "\n".join(lines)


def _commands() -> str:
    import argparse

    from pdpsym.app.cli import build_parser

    def helps(parser: argparse.ArgumentParser, path: str) -> list[str]:
        out = [f"## `{path}`", "", "```text", parser.format_help().rstrip(), "```", ""]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    out += helps(sub, f"{path} {name}")
        return out

    parser = build_parser()
    parser.prog = "pdpsym"
    return "\n".join(["# Commands", "", *helps(parser, "pdpsym")])


def on_pre_build(config: Any) -> None:
    GENERATED.mkdir(exist_ok=True)
    (GENERATED / "errata.md").write_text(_errata(), encoding="utf-8")
    (GENERATED / "figures.md").write_text(_figures(), encoding="utf-8")
    (GENERATED / "commands.md").write_text(_commands(), encoding="utf-8")

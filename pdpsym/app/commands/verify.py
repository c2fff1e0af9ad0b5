"""``pdpsym verify``: run the claims registry and print each verdict with its evidence."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from pdpsym.app.output import print_json
from pdpsym.app.progress import Progress
from pdpsym.app.tables import FORMATS, render
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_int
from pdpsym.verify import CATALOGUE, PAPERS, ClaimResult, RunConfig, Verdict, select
from pdpsym.verify.runner import run_claims


def register(sub: Any) -> None:
    p = sub.add_parser(
        "verify",
        help="give a computed verdict on every catalogued claim",
        description=(
            "Run the checker of each catalogued claim of the three papers and print its "
            "verdict (proved, supported, refuted, erratum, unresolved) with the evidence: "
            "the method, the class of cases, the count, and the reading used. Refuted and "
            "erratum verdicts come with an exact counterexample (JSON). `--list` prints the "
            "catalogue: each claim's id, paper section, label and statement."
        ),
    )
    p.add_argument(
        "--claim",
        action="append",
        default=[],
        metavar="ID",
        help="check only this claim id (repeatable)",
    )
    p.add_argument("--paper", choices=list(PAPERS), help="check only this paper's claims")
    p.add_argument(
        "--list",
        action="store_true",
        help="print the catalogue (id, section, label, statement) without running checkers",
    )
    p.add_argument("--thorough", action="store_true", help="run the larger case counts (slower)")
    p.add_argument(
        "--jobs",
        default=None,
        metavar="N",
        help="processes to run checkers on (default: every core); verdicts do not depend on it",
    )
    p.add_argument("--seed", default="20191", help="seed of the case generators")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="print the verdicts as a md, latex or csv table",
    )
    p.add_argument(
        "--progress",
        action="store_true",
        default=None,
        help="force the progress bar on stderr (default: only on a terminal)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    for cid in args.claim:
        if cid not in CATALOGUE:
            raise InputError("--claim", f"unknown claim id {cid!r}")
    ids = select(args.claim, args.paper)
    if not ids:
        raise InputError("--claim", "no catalogued claim matches the selection")
    if args.list:
        return _list(ids, args)
    jobs = (os.cpu_count() or 1) if args.jobs is None else parse_int(args.jobs, "--jobs", 1, 256)
    with Progress(len(ids), "verify", enabled=args.progress) as bar:
        config = RunConfig(thorough=args.thorough, seed=parse_int(args.seed, "--seed", 0, 2**63))
        results = run_claims(ids, config, jobs, lambda cid: bar.update(1, cid))
    if args.json:
        print_json({"claims": [r.as_json() for r in results]})
        return 0
    headers = ["id", "verdict", "method", "cases", "evidence"]
    rows = [
        [
            r.id,
            r.verdict,
            r.method,
            "" if r.cases is None else str(r.cases),
            r.evidence + (f" [reading: {r.reading}]" if r.reading else ""),
        ]
        for r in results
    ]
    fmt = args.format or "md"
    sys.stdout.write(render(headers, rows, fmt))
    if fmt == "md":
        sys.stdout.write("\n" + summary_line(results) + "\n")
        for r in results:
            if r.counterexample is not None:
                cx = json.dumps(r.counterexample, ensure_ascii=False, sort_keys=False)
                sys.stdout.write(f"\n{r.id} counterexample: {cx}\n")
    return 0


def summary_line(results: list[ClaimResult]) -> str:
    """``68 claims: 21 proved, 26 supported, 7 refuted, 14 erratum, 0 unresolved``."""
    counts = {v: 0 for v in Verdict}
    for r in results:
        counts[r.verdict] += 1
    parts = ", ".join(f"{n} {v.value}" for v, n in counts.items())
    return f"{len(results)} claims: {parts}"


def _list(ids: list[str], args: argparse.Namespace) -> int:
    claims = [CATALOGUE[cid] for cid in ids]
    if args.json:
        print_json(
            {
                "claims": [
                    {
                        "id": c.id,
                        "paper": c.paper,
                        "section": c.section,
                        "label": c.label,
                        "statement": c.statement,
                    }
                    for c in claims
                ]
            }
        )
        return 0
    headers = ["id", "section", "label", "statement"]
    fmt = args.format or "md"
    if fmt != "md":
        rows = [[c.id, c.section, c.label, c.statement] for c in claims]
        sys.stdout.write(render(headers, rows, fmt))
        return 0
    out = ["# The claims catalogue", "", CATALOGUE_INTRO, ""]
    for paper, title in PAPERS.items():
        rows = [[c.id, c.section, c.label, c.statement] for c in claims if c.paper == paper]
        if rows:
            out += [f"## {paper}: {title}", "", render(headers, rows, "md")]
    sys.stdout.write("\n".join(out))
    return 0


CATALOGUE_INTRO = (
    "Generated by `pdpsym verify --list`; do not edit by hand. Each row is one checkable "
    "statement, in our words; `pdpsym verify --claim ID` computes its verdict: proved "
    "(symbolically, or exhaustively over the class the claim states), supported (no "
    "counterexample in a stated number of generated cases), refuted (an exact, minimal "
    "counterexample), erratum (the printed text fails and a stated correction holds), or "
    "unresolved. Sections are the papers' own numbering."
)

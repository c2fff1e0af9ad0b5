"""``pdpsym verify``: run the claims registry and print each verdict with its evidence."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pdpsym.app.progress import Progress
from pdpsym.app.tables import FORMATS, render
from pdpsym.core.encode import print_json
from pdpsym.core.errors import InputError
from pdpsym.verify import CATALOGUE, PAPERS, RunConfig, run_claim, select


def register(sub: Any) -> None:
    p = sub.add_parser(
        "verify",
        help="give a computed verdict on every catalogued claim",
        description=(
            "Run the checker of each claim in the catalogue (../shared/spec/claims.md) and "
            "print its verdict (proved, supported, refuted, erratum, unresolved) with the "
            "evidence: the method, the class of cases, the count, and the reading used."
        ),
    )
    p.add_argument(
        "--claim",
        action="append",
        default=[],
        metavar="ID",
        help="check only this claim id (repeatable)",
    )
    p.add_argument("--paper", choices=PAPERS, help="check only this paper's claims")
    p.add_argument("--thorough", action="store_true", help="run the larger case counts (slower)")
    p.add_argument("--seed", type=int, default=20191, help="seed of the case generators")
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
    results = []
    with Progress(len(ids), "verify", enabled=args.progress) as bar:
        config = RunConfig(thorough=args.thorough, seed=args.seed)
        for cid in ids:
            bar.update(0, cid)
            results.append(run_claim(cid, config))
            bar.update(1, cid)
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
        counts: dict[str, int] = {}
        for r in results:
            counts[r.verdict] = counts.get(r.verdict, 0) + 1
        summary = ", ".join(f"{v}: {n}" for v, n in sorted(counts.items()))
        sys.stdout.write(f"\n{len(results)} claims: {summary}\n")
        for r in results:
            if r.counterexample is not None and r.verdict in ("refuted", "erratum"):
                sys.stdout.write(f"\n{r.id} counterexample: {r.counterexample}\n")
    return 0

"""``pdpsym verify``: run the claims registry and print each verdict with its evidence."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from pdpsym.app import latex, options
from pdpsym.app.budget import Progress
from pdpsym.app.options import command
from pdpsym.app.output import number_text, print_json
from pdpsym.app.tables import FORMATS, render
from pdpsym.claims.catalogue import CATALOGUE, PAPERS
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_int

if TYPE_CHECKING:
    from pdpsym.verify import ClaimResult


def register(sub: Any) -> None:
    p = command(sub, "verify")
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
    options.add_parallel(p, "checkers")
    p.add_argument("--seed", default="20191", help="seed of the case generators")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help=(
            "print the verdicts as a md, latex or csv table (latex: a longtable whose first "
            "line names the packages to load)"
        ),
    )
    p.add_argument(
        "--columns",
        default=None,
        metavar="LIST",
        help=(
            "comma-separated table columns, out of " + ", ".join(COLUMNS) + " (default: all; "
            "id,verdict,method gives a verdict-only table, e.g. with --format latex)"
        ),
    )
    p.add_argument(
        "--progress",
        action="store_true",
        default=None,
        help="force the progress bar on stderr (default: only on a terminal)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # imported here: the runner loads every checker (sympy, flint); --help must not wait
    from pdpsym.verify import RunConfig, select
    from pdpsym.verify.runner import run_claims

    for cid in args.claim:
        if cid not in CATALOGUE:
            raise InputError("--claim", f"unknown claim id {cid!r}")
    ids = select(args.claim, args.paper)
    if not ids:
        raise InputError("--claim", "no catalogued claim matches the selection")
    if args.list:
        return _list(ids, args)
    columns = parse_columns(args.columns)
    if args.json and args.columns is not None:
        raise InputError("--columns", "selects table columns; --json prints every field")
    jobs = options.jobs(args)
    with Progress(len(ids), "verify", enabled=args.progress) as bar:
        config = RunConfig(thorough=args.thorough, seed=parse_int(args.seed, "--seed", 0, 2**63))
        results = run_claims(ids, config, jobs, lambda cid: bar.update(1, cid), args.scheduler)
    if args.json:
        print_json({"claims": [r.as_json() for r in results]})
        return 0
    if args.format is None:
        sys.stdout.write(text_report(results, columns))
        return 0
    fmt = args.format
    rows = [_row(r) for r in results]
    picked = [COLUMNS.index(c) for c in columns]
    table = [[row[j] for j in picked] for row in rows]
    if fmt == "latex":
        # Many rows: a longtable breaks across pages; the summary is its caption and a
        # counterexample is a full-width note under its claim's row.
        notes = {
            i: f"{r.id} counterexample: {_counterexample(r)}"
            for i, r in enumerate(results)
            if r.counterexample is not None and "evidence" in columns
        }
        caption = summary_line(results)
        sys.stdout.write(latex.table(columns, table, caption, long=True, notes=notes))
        return 0
    sys.stdout.write(render(columns, table, fmt))
    if fmt == "md":
        # the counterexamples (one-line JSON) under the table, and the summary last
        if "evidence" in columns:
            for r in results:
                if r.counterexample is not None:
                    sys.stdout.write(f"\n{r.id} counterexample: {_counterexample(r)}\n")
        sys.stdout.write("\n" + summary_line(results) + "\n")
    return 0


COLUMNS = ("id", "verdict", "method", "cases", "evidence")


def parse_columns(text: str | None) -> list[str]:
    """``--columns id,verdict,method`` as a list of known column names, in the order typed."""
    if text is None:
        return list(COLUMNS)
    names = [c.strip() for c in text.split(",")]
    for name in names:
        if name not in COLUMNS:
            raise InputError(
                "--columns", f"unknown column {name!r}; choose from {', '.join(COLUMNS)}"
            )
    if len(set(names)) != len(names):
        raise InputError("--columns", "a column is named twice")
    return names


# the widest text line (a claim's line, a counterexample field); --json has everything
WIDTH = 110


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _field(value: Any) -> str:
    """One counterexample field on one line: numbers readable, long values clipped."""
    if isinstance(value, dict) and "decimal" in value:  # a certified value
        return str(value["decimal"])
    if isinstance(value, str):
        return number_text(value)
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= 24 else number_text(text)


def text_report(results: list[ClaimResult], columns: list[str]) -> str:
    """The text view: a header naming the columns, one line per claim (the evidence
    clipped to the line), each counterexample field on its own indented line, the summary
    as the last line.

    The full evidence is in ``--format md`` and every object in full in ``--json``.
    """
    cells = [
        [c for c, name in zip(_row(r), COLUMNS, strict=True) if name in columns] for r in results
    ]
    header = [name.upper() for name in COLUMNS if name in columns]
    widths = [max(len(row[j]) for row in [header, *cells]) for j in range(len(columns))]
    out = ["  ".join(c.ljust(w) for c, w in zip(header, widths, strict=True)).rstrip()]
    clipped = False
    for r, row in zip(results, cells, strict=True):
        line = "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
        clipped |= len(line) > WIDTH
        out.append(_clip(line, WIDTH))
        if r.counterexample is not None and "evidence" in columns:
            out.append("    counterexample:")
            for key, value in r.counterexample.items():
                item = f"      {key}: {_field(value)}"
                clipped |= len(item) > WIDTH
                out.append(_clip(item, WIDTH))
    if clipped:
        out.append(
            "(lines ending in … are clipped: --format md prints the full evidence, --json every object)"
        )
    out.append(summary_line(results))
    return "\n".join(out) + "\n"


def _counterexample(r: ClaimResult) -> str:
    return json.dumps(r.counterexample, ensure_ascii=False, sort_keys=False)


def _row(r: ClaimResult) -> list[str]:
    evidence = r.evidence + (f" [reading: {r.reading}]" if r.reading else "")
    cases = "" if r.cases is None else str(r.cases)
    return [r.id, str(r.verdict), r.method, cases, evidence]


def summary_line(results: list[ClaimResult]) -> str:
    """``68 claims: 21 proved, 26 supported, 7 refuted, 14 erratum, 0 unresolved``."""
    from pdpsym.claims.claim import Verdict  # imported here: with the results, not at --help

    counts = {v: 0 for v in Verdict}
    for r in results:
        counts[r.verdict] += 1
    parts = ", ".join(f"{n} {v.value}" for v, n in counts.items())
    return f"{len(results)} claim{'' if len(results) == 1 else 's'}: {parts}"


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
        sys.stdout.write(render(headers, rows, fmt, long=True))
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

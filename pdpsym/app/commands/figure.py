"""``pdpsym figure``: a paper's figure as certified data (CSV, JSON) or a plot."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from typing import Any

from pdpsym.app import options, plot
from pdpsym.app.options import command
from pdpsym.app.output import write_atomic
from pdpsym.app.progress import Progress
from pdpsym.core.errors import InputError
from pdpsym.core.parallel import ordered_map
from pdpsym.papers.figure import FigureData, Scale

FORMATS = ("csv", "json", *plot.FORMATS)


def register(sub: Any) -> None:
    p = command(sub, "figure", run)
    p.add_argument("id", metavar="ID", nargs="?", help="figure id (see --list)")
    p.add_argument("--list", action="store_true", help="list the figure ids and titles")
    p.add_argument("--format", choices=FORMATS, default="csv", help="output format (default csv)")
    p.add_argument(
        "--out", metavar="FILE", help="write to FILE (default: stdout; needed for plots)"
    )
    p.add_argument(
        "--scale",
        choices=[s.value for s in Scale],
        default=Scale.PAPER.value,
        help="paper: the paper's parameters (default); quick: a small version in seconds",
    )
    options.add_parallel(p, "the points")
    p.add_argument(
        "--progress",
        action="store_true",
        default=None,
        help="force the progress bar on stderr (default: only on a terminal)",
    )


def to_csv(data: FigureData) -> str:
    """The parameters as ``#`` comment lines above the header, then the certified rows."""
    buf = io.StringIO()
    buf.write(f"# {data.id}: {data.title}\n# {data.caption}\n")
    for k, v in data.params.items():
        buf.write(f"# {k}: {v}\n")
    for note in data.notes:
        buf.write(f"# note: {note}\n")
    w = csv.DictWriter(buf, fieldnames=list(data.columns), lineterminator="\n")
    w.writeheader()
    w.writerows(data.rows)
    return buf.getvalue()


def to_json(data: FigureData) -> str:
    obj = {
        "id": data.id,
        "title": data.title,
        "caption": data.caption,
        "params": data.params,
        "notes": list(data.notes),
        "columns": list(data.columns),
        "rows": list(data.rows),
    }
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def run(args: argparse.Namespace) -> int:
    # imported here: the registry loads every paper (sympy, flint); --help does not need it
    from pdpsym.verify.figures import all_figures

    known = all_figures()
    if args.list:
        for spec in known.values():
            sys.stdout.write(f"{spec.id}\t{spec.title}\n")
        return 0
    if args.id is None:
        raise InputError("ID", "name a figure (pdpsym figure --list shows them)")
    if args.id not in known:
        raise InputError("ID", f"unknown figure {args.id!r} (pdpsym figure --list shows them)")
    if args.format in plot.FORMATS and args.out is None:
        raise InputError("--out", f"a {args.format} plot needs --out FILE")
    spec, scale = known[args.id], Scale(args.scale)
    points = spec.points(scale)
    jobs = options.jobs(args)
    with Progress(len(points), args.id, enabled=args.progress, delay=2.0) as bar:
        parts = ordered_map(spec.point, points, jobs, lambda _i: bar.update(1), args.scheduler)
    data = spec.assemble(scale, [row for rows in parts for row in rows])
    out: str | bytes
    if args.format == "csv":
        out = to_csv(data)
    elif args.format == "json":
        out = to_json(data)
    else:
        out = plot.render(data, args.format)
    if args.out is None:
        sys.stdout.write(out if isinstance(out, str) else out.decode())
    else:
        write_atomic(args.out, out)
    return 0

"""``pdpsym figure``: a paper's figure as certified data (CSV, JSON) or a plot."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from typing import TYPE_CHECKING, Any

from pdpsym.app import budget, options, plot
from pdpsym.app.budget import Progress
from pdpsym.app.options import command
from pdpsym.app.output import safe_json
from pdpsym.app.writes import check_output, write_output
from pdpsym.core.errors import InputError
from pdpsym.core.parallel import ordered_map

if TYPE_CHECKING:  # the figure registry (ten dataclasses) loads when a figure is run,
    # not when the parser of every command is built
    from pdpsym.claims.figure import FigureData, Scale

FORMATS = ("csv", "json", *plot.FORMATS)
#: the values of :class:`pdpsym.claims.figure.Scale` (tests/app checks they agree)
SCALES = ("paper", "quick")


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
        choices=SCALES,
        default=None,
        help="paper: the paper's parameters; quick: a small version in seconds (default: "
        "paper when its estimate is within --max-work, else quick, said on stderr)",
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
    return safe_json(json.dumps(obj, indent=2, ensure_ascii=False)) + "\n"


BASE_WORK = 4 * 10**4  # a figure's own setup and output (with budget.COMMAND_BASE, 70 ms)


def _num(x: Any, default: int = 1) -> int:
    """A point's size parameter as an int (records, tuples); ``default`` if it is none."""
    try:
        return max(int(x), 1)
    except (TypeError, ValueError):
        return default


def _rate(x: Any) -> float:
    """A point's probability parameter as a float in [0, 1] (1 if it is none)."""
    try:
        return min(max(float(x), 0.0), 1.0)
    except (TypeError, ValueError, OverflowError):
        return 1.0


def _noise(p: Any) -> int:
    """Fig. 6's cost factor of its noise: the geometric tail grows like ``1 / (1 - p)``."""
    try:
        return 5 + int(15 / (1 - float(p)))
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return 5  # no noise


def _point_work(figure_id: str, point: Any) -> int:
    """Estimated steps of one declared point of a figure (from its arguments: the number
    of tuples n, of records, of epsilons). Fitted on each point's measured CPU time at both
    scales, one step being a microsecond of CPU (benchmarks/bench_estimates.py measures
    every figure; docs/benchmarks.md records the ratios)."""
    args = point if isinstance(point, tuple) else (point,)
    paper, _, label = figure_id.partition(".")
    if paper == "li2019" and label in ("fig4c", "fig4d"):  # Gaussian, every adversary
        n = _num(args[0])
        return 2**n + 3 * 10**3
    if paper == "li2019" and label.startswith("fig5"):  # full search (3^n nodes), fast
        n = _num(args[0])
        return 2 * 3**n + 10**3
    if paper == "li2019":  # the exact WHG of a 3^n joint table
        n = _num(args[0])
        return 3**n * n // 16 + 5 * 10**3
    if figure_id == "correlated.histogram":  # (T, stay): 4-state histogram calibration,
        # about T (T + 1)^4 / 35 (measured 3.3 s at T = 40 and 280 s at T = 100 with the
        # exact laws kept between passes; 5.0 and 597 s before)
        T = _num(args[0])
        return T * (T + 1) ** 4 // 35 + 10**4
    if paper == "correlated":  # (n, stay): a calibration over n records
        return 1000 * _num(args[0]) + 10**4
    if label == "fig2":  # (case, n, eps): case 2's n distinct p_i cost far more
        case, n = _num(args[0]), _num(args[1])
        # case 2's exact delta: n targets, each an exact Poisson binomial of n - 1 records,
        # computed while the distinct p_i are at most 200 (the figure's own cut-off)
        exact = 4 * n**3 if case == 2 and n <= 200 else 0
        return exact + 40 * n + 3 * 10**4
    if label == "fig3":  # (n, lambda): the numerical bound over N ~ Bin(n - 1, 2 lambda),
        # its work growing like (n lambda)^1.6 (measured 0.64 s at n lambda = 250, 17 s at 2500)
        return (
            int(64 * (_num(args[0]) * _rate(args[1] if len(args) > 1 else None)) ** 1.6) + 2 * 10**4
        )
    if label == "fig4":  # (n, T): thresholding over n records
        return 3 * _num(args[0]) // 2 + 5 * 10**3
    if label == "fig6" and paper == "dmkb2020":  # (n, p, eps values): about n^1.25 a curve
        n = _num(args[0])
        return int(n**1.25) * _noise(args[1] if len(args) > 1 else None) + 10**4
    if label == "fig1":  # a claim's check
        return 3 * 10**4
    if paper == "lmm2016":  # closed forms, about a millisecond each
        return 10**3
    return 4 * 10**3  # closed forms (dmkb2020 fig5)


def work(figure_id: str, points: list[Any]) -> int:
    """The work of a figure: the sum of its declared points' estimates."""
    return BASE_WORK + sum(_point_work(figure_id, p) for p in points)


def _flag_value(k: int) -> str:
    """``k`` rounded up to two significant digits, as a --max-work value (``12e7``)."""
    e = max(len(str(k)) - 2, 0)
    return f"{-(-k // 10**e)}e{e}" if e else str(k)


def default_scale(figure_id: str, spec: Any, limit: int) -> Scale:
    """The scale a figure runs at when ``--scale`` is not given: the paper's parameters
    when their estimate is within the work limit, else the quick version."""
    from pdpsym.claims.figure import Scale  # after --help: the figure registry

    return Scale.PAPER if work(figure_id, list(spec.points(Scale.PAPER))) <= limit else Scale.QUICK


def run(args: argparse.Namespace) -> int:
    # imported here: the registry loads every paper (sympy, flint); --help does not need it
    from pdpsym.claims.figure import Scale
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
    if args.out is not None:
        check_output(args.out, "--out")  # an unusable destination, before the work
    spec, limit = known[args.id], budget.max_work(args)
    scale = default_scale(args.id, spec, limit) if args.scale is None else Scale(args.scale)
    points = list(spec.points(scale))
    need = work(args.id, points)
    cheaper = "--scale quick runs a small version in seconds" if scale is Scale.PAPER else None
    budget.check(args, need, f"figure {args.id} at scale {scale.value}", cheaper)
    if args.scale is None and scale is Scale.QUICK:
        paper = _flag_value(work(args.id, list(spec.points(Scale.PAPER))) + budget.COMMAND_BASE)
        sys.stderr.write(
            f"pdpsym: note: ran at --scale quick; --scale paper --max-work {paper} runs the paper's\n"
        )
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
        write_output(args.out, out, "--out")
    return 0

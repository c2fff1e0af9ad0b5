"""Work estimates against measured CPU time: each command of a benchmark set, its estimate
(the steps ``--max-work`` compares) and the CPU time it takes, in one run.

A step is calibrated as a microsecond of CPU (RATE steps per CPU second), so an estimate
of E steps predicts E / RATE seconds. The ratio measured / predicted should lie within
[1/3, 3] for every case (docs/benchmarks.md records a run). CPU time (user + system, the
process's and its finished workers') is measured rather than wall time, so that a machine
shared with other jobs gives the same ratios.

    python benchmarks/bench_estimates.py            # commands and every figure, quick scale
    python benchmarks/bench_estimates.py --quick    # the cheap half of the commands
    python benchmarks/bench_estimates.py --figures  # every figure at its default scale
    python benchmarks/bench_estimates.py --figures --scale paper ID ...  # those at paper
    python benchmarks/bench_estimates.py --only counting,threshold  # some commands

The estimate is read from the refusal under ``--max-work 1000`` (the fixed cost of any
command passes, so the command's own estimate is the one refused). The time is the
command's own, in a fresh process after its imports (``main(argv)`` timed in-process).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RATE = 10**6  # steps per second the estimates are calibrated for
ROOT = Path(__file__).resolve().parents[1]

RUNNER = """
import contextlib, io, resource, sys
from pdpsym.app.cli import build_parser, main
build_parser()  # every command's imports, before the clock
import pdpsym.verify.figures, pdpsym.audit  # noqa
def cpu():
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
argv = sys.argv[1:]
t = cpu()
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as e:
    code = main(argv)
dt = cpu() - t
print(code, dt, repr(e.getvalue()[-200:]))
"""


def _bits(n: int) -> dict:
    import itertools

    cells = list(itertools.product(["0", "1"], repeat=n))
    w = [k % 3 + 1 for k in range(len(cells))]
    return {
        "variables": [f"x{k + 1}" for k in range(n)],
        "rows": [[*c, f"{x}/{sum(w)}"] for c, x in zip(cells, w, strict=True)],
    }


def cases(tmp: Path, quick: bool) -> list[tuple[str, list[str]]]:
    def write(name: str, obj: object) -> str:
        p = tmp / name
        p.write_text(json.dumps(obj))
        return str(p)

    m2, m3, m4, m5 = (write(f"m{n}.json", _bits(n)) for n in (2, 3, 4, 5))
    rr = write("rr.json", {"kind": "randomized-response", "keep": "3/4"})
    lap = write("lap.json", {"kind": "laplace", "lam": "3/10"})
    geo = write("geo.json", {"kind": "geometric", "alpha": "1/2", "weights": {"x1": "40"}})
    cnt = write("cnt.json", {"kind": "count", "weights": {"x1": "2", "x2": "3"}})
    table = write(
        "table.json",
        {
            "kind": "table",
            "rows": [[a, b, o, "1/2"] for a in "01" for b in "01" for o in ("u", "v")],
        },
    )
    golden = str(ROOT / "tests/golden/models/table_a.json")
    out = str(tmp / "out")
    audit = ["audit", "--target", "x1"]
    set_: list[tuple[str, list[str]]] = [
        ("audit rr n=2, default notions", [*audit[:1], m2, rr, *audit[1:]]),
        ("audit rr n=4, default notions", [*audit[:1], m4, rr, *audit[1:]]),
        ("audit table n=2, all notions", [*audit[:1], m2, table, *audit[1:], "--notions", "all"]),
        ("audit geometric w=40, n=3", [*audit[:1], m3, geo, *audit[1:]]),
        ("audit count n=2", [*audit[:1], m2, cnt, *audit[1:], "--eps", "1/2"]),
        ("audit laplace n=2, all notions", [*audit[:1], m2, lap, *audit[1:], "--notions", "all"]),
        (
            "audit distributional-dp rr n=2",
            [*audit[:1], m2, rr, *audit[1:], "--notions", "distributional-dp"],
        ),
        (
            "audit rr n=3 curve of 200 points",
            [
                *audit[:1],
                m3,
                rr,
                *audit[1:],
                "--notions",
                "dp,np",
                "--curve",
                out,
                "--grid",
                "0:2:200",
            ],
        ),
        ("oracle export li2019-examples", ["oracle", "export", "--out", out, "--jobs", "1"]),
        ("counting n=2000", ["counting", "--n", "2000", "--p", "1/3", "--eps", "1/2"]),
        ("counting n=20000", ["counting", "--n", "20000", "--p", "1/3", "--eps", "1/2"]),
        (
            "threshold n=200 T=50 eps=1",
            ["threshold", "--n", "200", "--p", "1/3", "--T", "50", "--eps", "1"],
        ),
        ("calibrate chain3", ["calibrate", str(ROOT / "docs/examples/chain3.json"), "--eps", "1"]),
        (
            "leakage chain100 x50",
            ["leakage", str(ROOT / "docs/examples/chain100.json"), "--target", "x50"],
        ),
        ("leakage 5 records", ["leakage", m5, "--target", "x1"]),
        ("whg 4 records", ["whg", m4]),
        ("whg table_a", ["whg", golden]),
        ("leakage table_a", ["leakage", golden, "--target", "x1"]),
    ]
    if not quick:
        set_ += [
            (
                "audit rr n=5 dependent-dp",
                [*audit[:1], m5, rr, *audit[1:], "--notions", "dependent-dp"],
            ),
            (
                "audit distributional-dp rr n=3",
                [*audit[:1], m3, rr, *audit[1:], "--notions", "distributional-dp"],
            ),
            (
                "audit distributional-dp rr n=4",
                [*audit[:1], m4, rr, *audit[1:], "--notions", "distributional-dp"],
            ),
            (
                "oracle export random-binary n=4",
                [
                    "oracle",
                    "export",
                    "--family",
                    "random-binary",
                    "--n",
                    "4",
                    "--count",
                    "3",
                    "--out",
                    out,
                    "--jobs",
                    "1",
                ],
            ),
        ]
        set_ += figure_cases("quick")
    return set_


def figure_ids() -> list[str]:
    r = subprocess.run(
        [sys.executable, "-m", "pdpsym", "figure", "--list"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    return [line.split("\t")[0] for line in r.stdout.splitlines()]


def figure_cases(scale: str | None, ids: list[str] | None = None) -> list[tuple[str, list[str]]]:
    """Every figure (or ``ids``) at ``scale`` (None: the scale it runs at with no flag under
    the default limit, named explicitly, since the estimate is read under a small limit)."""
    sys.path.insert(0, str(ROOT))
    from pdpsym.app.budget import DEFAULT_MAX_WORK
    from pdpsym.app.commands.figure import default_scale
    from pdpsym.verify.figures import all_figures

    specs = all_figures()
    out = []
    for fid in ids or figure_ids():
        s = scale or default_scale(fid, specs[fid], DEFAULT_MAX_WORK).value
        name = f"figure {fid} {s}" + (" (default)" if scale is None else "")
        out.append((name, ["figure", fid, "--scale", s, "--jobs", "1"]))
    return out


_NEEDS = re.compile(r"needs about ([0-9.e+]+|10\^\d+) steps")


def estimate(argv: list[str]) -> float | None:
    r = subprocess.run(
        [sys.executable, "-m", "pdpsym", *argv, "--max-work", "1000"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    m = _NEEDS.search(r.stderr)
    if not m:
        return None
    t = m.group(1)
    return 10.0 ** int(t[3:]) if t.startswith("10^") else float(t)


def measure(argv: list[str], limit: float = 600) -> tuple[int, float]:
    r = subprocess.run(
        [sys.executable, "-c", RUNNER, *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=limit,
    )
    code, dt, _ = r.stdout.split(" ", 2)
    return int(code), float(dt)


def main() -> None:
    args = sys.argv[1:]
    quick = "--quick" in args
    scale = args[args.index("--scale") + 1] if "--scale" in args else None
    ids = [a for a in args if "." in a]
    print(
        "| command | estimate (steps) | predicted CPU (s) | measured CPU (s) | measured / predicted |"
    )
    print("|---|---:|---:|---:|---:|")
    worst = 1.0
    with tempfile.TemporaryDirectory() as d:
        todo = figure_cases(scale, ids) if "--figures" in args else cases(Path(d), quick)
        if "--only" in args:  # the cases whose name starts with one of these words
            words = args[args.index("--only") + 1].split(",")
            todo = [(name, argv) for name, argv in todo if name.split()[0] in words]
        for name, argv in todo:
            est = estimate(argv)
            code, dt = measure(argv)
            if est is None:
                print(f"| {name} | (below 1000) | - | {dt:.3f} | - |")
                continue
            pred = est / RATE
            ratio = dt / pred
            worst = max(worst, ratio, 1 / ratio)
            flag = "" if 1 / 3 <= ratio <= 3 else " **outside 3x**"
            print(
                f"| {name} (exit {code}) | {est:.1e} | {pred:.3f} | {dt:.3f} | {ratio:.2f}{flag} |"
            )
            sys.stdout.flush()
    print(f"\nworst factor either way: {worst:.1f} ({time.strftime('%Y-%m-%d')}, CPU time)")


if __name__ == "__main__":
    main()

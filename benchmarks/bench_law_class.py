"""Classes of laws at scale: ``pdpsym leakage`` and ``pdpsym calibrate`` over an interval
chain and over a finite class, as whole processes, next to a float64 grid baseline.
Plain script:

    .venv/bin/python benchmarks/bench_law_class.py [--T 100] [--members 20]
        [--member-T 1000] [--grid 21] [--jobs 2] [--runs 1]

1. An interval chain of ``--T`` binary records with a 2-parameter box
   (``docs/examples/estimated-chain.json`` at that length): ``leakage --all-targets
   --lam 1`` and ``calibrate --eps 1``, with the default work limit (the search runs
   to its 6 digits within it).
2. The float64 baseline for the same question: the leakage of every target on a
   ``--grid`` x ``--grid`` grid of the box (``bench_chain.float_direct`` per member, the
   fastest correct float64 engine there), max over the grid. It is neither certified nor
   a sup (it misses any interior maximum between grid points); its time is what a user
   running corners and a grid by hand would spend.
3. A finite class of ``--members`` chains of ``--member-T`` records (random sticky rows,
   seeded): ``leakage --all-targets`` and ``calibrate --eps 1`` with ``--jobs``, with the
   default work limit.

CPU is user + system of the child and its workers (``RUSAGE_CHILDREN``; the machine is
shared, so wall time is printed but not compared), median of ``--runs``.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_chain import float_direct  # noqa: E402  (a sibling script)

ROOT = Path(__file__).resolve().parent.parent


def timed(argv: list[str]) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, out


def grid_baseline(
    box: list[tuple[float, float]], T: int, n: int
) -> tuple[float, float, tuple[float, float]]:
    """Max over an n x n grid of every target's float64 leakage; CPU seconds."""
    t = time.process_time()
    best, arg = -np.inf, (0.0, 0.0)
    for x0 in np.linspace(box[0][0], box[0][1], n):
        for x1 in np.linspace(box[1][0], box[1][1], n):
            P = np.array([[1 - x0, x0], [1 - x1, x1]])
            pi = np.array([P[1, 0], P[0, 1]]) / (P[0, 1] + P[1, 0])
            v = float(float_direct(P, pi, T, 1.0, blas=False).max())
            if v > best:
                best, arg = v, (float(x0), float(x1))
    return time.process_time() - t, best, arg


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--T", type=int, default=100)
    ap.add_argument("--members", type=int, default=20)
    ap.add_argument("--member-T", type=int, default=1000)
    ap.add_argument("--grid", type=int, default=21)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--skip-finite", action="store_true")
    a = ap.parse_args()
    exe = [sys.executable, "-m", "pdpsym"]
    tmp = Path(tempfile.mkdtemp())
    ex = json.loads((ROOT / "docs/examples/estimated-chain.json").read_text())
    ex["length"] = a.T
    interval = tmp / "interval.json"
    interval.write_text(json.dumps(ex))
    rows = []
    for label, argv in (
        (
            "interval leakage --all-targets",
            ["leakage", str(interval), "--all-targets", "--lam", "1"],
        ),
        ("interval calibrate --eps 1", ["calibrate", str(interval), "--eps", "1"]),
    ):
        runs = [timed([*exe, *argv, "--json"]) for _ in range(a.runs)]
        cpu = sorted(r[0] for r in runs)[len(runs) // 2]
        wall = sorted(r[1] for r in runs)[len(runs) // 2]
        out = json.loads(runs[0][2])
        value = out["max"]["value"] if "max" in out else out["scale"]
        rows.append((label, cpu, wall, value["decimal"], out.get("tight")))
    box = [(float(Fraction(r[1][0])), float(Fraction(r[1][1]))) for r in ex["transition"]]
    gcpu, gbest, garg = grid_baseline(box, a.T, a.grid)
    rows.append(
        (
            f"float64 grid {a.grid}x{a.grid} (uncertified)",
            gcpu,
            gcpu,
            f"{gbest:.7f} at {garg}",
            None,
        )
    )
    if not a.skip_finite:
        rng = random.Random(20261128)
        members = []
        for _ in range(a.members):
            x0 = Fraction(rng.randint(5, 25), 100)
            x1 = Fraction(rng.randint(75, 95), 100)
            members.append(
                {
                    "kind": "markov-chain",
                    "length": a.member_T,
                    "states": ["0", "1"],
                    "initial": "stationary",
                    "transition": [[str(1 - x0), str(x0)], [str(1 - x1), str(x1)]],
                }
            )
        finite = tmp / "finite.json"
        finite.write_text(json.dumps({"kind": "model-class", "members": members}))
        for label, argv in (
            (
                "finite leakage --all-targets",
                ["leakage", str(finite), "--all-targets", "--lam", "1"],
            ),
            ("finite calibrate --eps 1", ["calibrate", str(finite), "--eps", "1"]),
        ):
            cpu, wall, out_text = timed([*exe, *argv, "--json", "--jobs", str(a.jobs)])
            out = json.loads(out_text)
            value = out["max"]["value"] if "max" in out else out["scale"]
            rows.append(
                (
                    label + f" ({a.members} x T={a.member_T}, --jobs {a.jobs})",
                    cpu,
                    wall,
                    value["decimal"],
                    out.get("tight"),
                )
            )
    print(f"| run (T = {a.T} for the interval chain) | CPU s | wall s | value | tight |")
    print("|---|---|---|---|---|")
    for label, cpu, wall, value, tight in rows:
        print(f"| {label} | {cpu:.1f} | {wall:.1f} | {value} | {tight} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

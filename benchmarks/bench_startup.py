"""Startup of the command line against ``python -c "import numpy"``. Plain script:

    .venv/bin/python benchmarks/bench_startup.py [--runs 7]

Each command is a whole process (interpreter start included), timed wall-clock; the
runs of every command are interleaved so that they share the machine's load, and the
ratio of medians is reported. Then ``python -X importtime`` gives the modules that
``pdpsym --help`` loads, largest first (cumulative microseconds).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = [sys.executable, "-c", "import numpy"]
COMMANDS = {
    "pdpsym --help": ["--help"],
    "pdpsym verify --help": ["verify", "--help"],
    "pdpsym whg --help": ["whg", "--help"],
    "pdpsym audit --help": ["audit", "--help"],
    "pdpsym leakage --help": ["leakage", "--help"],
    "pdpsym figure --help": ["figure", "--help"],
}


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _time(argv: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=_env())
    return time.perf_counter() - t


def bench(runs: int) -> None:
    cmds = {"python -c 'import numpy'": BASELINE}
    cmds |= {k: [sys.executable, "-m", "pdpsym", *v] for k, v in COMMANDS.items()}
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(runs):  # interleaved: every command sees the same load
        for k, argv in cmds.items():
            times[k].append(_time(argv))
    base = statistics.median(times["python -c 'import numpy'"])
    print(f"| command | median of {runs} (s) | min-max (s) | ratio to numpy |")
    print("|---|---|---|---|")
    for k, ts in times.items():
        med = statistics.median(ts)
        print(f"| `{k}` | {med:.3f} | {min(ts):.3f}-{max(ts):.3f} | {med / base:.2f}x |")


def importtime(top: int) -> None:
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pdpsym", "--help"],
        capture_output=True,
        text=True,
        check=True,
        env=_env(),
    )
    rows = []
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        self_part, cum_us, name = line.split("|")
        rows.append((int(cum_us), int(self_part.split(":")[-1]), name.strip()))
    print(f"\n`python -X importtime -m pdpsym --help`: {len(rows)} modules, top {top} cumulative\n")
    print("| module | cumulative (ms) | self (ms) |")
    print("|---|---|---|")
    for cum, own, name in sorted(rows, reverse=True)[:top]:
        print(f"| `{name}` | {cum / 1000:.1f} | {own / 1000:.1f} |")
    heavy = [m for m in ("sympy", "flint", "numpy", "mpmath") if any(r[2] == m for r in rows)]
    print(f"\nheavy libraries loaded by --help: {', '.join(heavy) or 'none'}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--top", type=int, default=8)
    a = ap.parse_args()
    bench(a.runs)
    importtime(a.top)

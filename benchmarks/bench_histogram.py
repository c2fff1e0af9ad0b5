"""Histograms of multi-state chains: ``pdpsym leakage --query histogram --all-targets`` as
a whole process (CPU = user + system of the child, and wall time, and peak memory).
Plain script:

    .venv/bin/python benchmarks/bench_histogram.py [--runs 1]

The chains: 3 states and 200 records, 4 states and 50 records; each stays with
probability 7/10 and otherwise moves uniformly; stationary start; lambda = 4; 15 digits.
No float baseline is timed: no speed-up is claimed, only the time and the steps the
``--max-work`` estimate gives (the same command refuses below them).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

CASES = ((3, 200), (4, 50))


def _chain(k: int, T: int) -> dict[str, object]:
    move = str((1 - Fraction(7, 10)) / (k - 1))
    rows = [["7/10" if i == j else move for j in range(k)] for i in range(k)]
    states = [chr(ord("a") + j) for j in range(k)]
    return {
        "kind": "markov-chain",
        "length": T,
        "states": states,
        "initial": "stationary",
        "transition": rows,
    }


def _run(argv: list[str]) -> tuple[float, float, int]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, after.ru_maxrss


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    from pdpsym.loss.histogram import histogram_work  # the estimate the CLI checks
    from pdpsym.models.markov import MarkovChain

    with tempfile.TemporaryDirectory() as tmp:
        for k, T in CASES:
            obj = _chain(k, T)
            path = Path(tmp) / f"chain{k}x{T}.json"
            path.write_text(json.dumps(obj))
            work = histogram_work(MarkovChain.from_json_object(obj), T, [])
            argv = [
                sys.executable,
                "-m",
                "pdpsym",
                "leakage",
                str(path),
                "--query",
                "histogram",
                "--all-targets",
                "--lam",
                "4",
                "--digits",
                "15",
                "--max-work",
                str(10 * work),
            ]
            for _ in range(args.runs):
                cpu, wall, rss = _run(argv)
                print(
                    f"k={k} T={T}: estimate {work:.2e} steps, CPU {cpu:.1f} s, "
                    f"wall {wall:.1f} s, peak {rss // 1024} MB"
                )


if __name__ == "__main__":
    main()

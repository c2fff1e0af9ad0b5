"""Benchmark: ``pdpsym leakage NET.bif --all-targets --lam 2`` (every target, certified)
against the float64 baseline ``benchmarks/float_bayesnet.py`` (the same numbers in
floats, uncertified), as whole processes, paired (one of each per round, alternating
which goes first), on the bnlearn networks of ``tests/data/bnlearn``. Prints the median
user CPU time of each and their ratio (CPU, not wall: the machine is shared).

    python benchmarks/bench_bayesnet.py [--nets hailfinder win95pts] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "bnlearn"


def cpu(argv: list[str]) -> float:
    """User + system CPU seconds of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nets", nargs="+", default=["alarm", "hailfinder", "win95pts"])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--lam", default="2")
    args = ap.parse_args()
    env_python = sys.executable
    print(f"{'network':12} {'pdpsym s':>9} {'float s':>8} {'ratio':>6}")
    for net in args.nets:
        path = str(DATA / f"{net}.bif.gz")
        ours = [env_python, "-m", "pdpsym", "leakage", path, "--all-targets", "--lam", args.lam]
        base = [env_python, str(ROOT / "benchmarks" / "float_bayesnet.py"), path, args.lam]
        a, b = [], []
        for r in range(args.rounds):
            pair = [(ours, a), (base, b)] if r % 2 == 0 else [(base, b), (ours, a)]
            for argv, out in pair:
                out.append(cpu(argv))
        ma, mb = statistics.median(a), statistics.median(b)
        print(f"{net:12} {ma:9.2f} {mb:8.2f} {ma / mb:6.2f}", flush=True)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    main()

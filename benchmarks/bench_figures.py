"""Benchmark: wall time of ``pdpsym figure ID --scale paper`` on 2 processes.

Run: ``.venv/bin/python benchmarks/bench_figures.py [ID ...]`` (default: dmkb2020.fig6).
Each figure is built once through the CLI (CSV to a temporary file) and its wall time
printed; results are recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(fid: str, jobs: int = 2) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "f.csv"
        argv = [sys.executable, "-m", "pdpsym", "figure", fid, "--scale", "paper"]
        start = time.perf_counter()
        subprocess.run([*argv, "--jobs", str(jobs), "--out", str(out)], check=True)
        elapsed = time.perf_counter() - start
        rows = sum(1 for line in out.read_text().splitlines() if not line.startswith("#")) - 1
    print(f"{fid}\t{rows} rows\t{elapsed:.1f} s (--jobs {jobs})", flush=True)
    return elapsed


if __name__ == "__main__":
    for fid in sys.argv[1:] or ["dmkb2020.fig6"]:
        run(fid)

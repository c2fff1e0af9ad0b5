"""One calibration point of the figure ``correlated.histogram``: ``pdpsym calibrate CHAIN
--query histogram --eps 1 --json`` on the symmetric 4-state chain that stays with
probability 7/10 (stationary start), as a whole process (CPU = user + system of the
child), optionally paired against an older checkout (A B A B ...; both outputs must be
byte-identical, checked). Plain script:

    .venv/bin/python benchmarks/bench_histogram_calibration.py [--T 40 60] [--runs 1] [--baseline DIR]

``--baseline DIR``: a checkout (say ``git worktree add DIR 4978b7c``, the bisection that
screens the whole grid at every step) run with ``PYTHONPATH=DIR``. No float64 baseline:
the figure compares two certified calibrations, and the work saved is whole float screens
(each about the cost of one target's grid screen, measured in docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

from bench_histogram import HERE, _chain, _run


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--T", type=int, nargs="+", default=[40, 60])
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--baseline", type=Path, default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for T in args.T:
            path = Path(tmp) / f"chain4x{T}.json"
            path.write_text(json.dumps(_chain(4, T, False)))
            argv = [sys.executable, "-m", "pdpsym", "calibrate", str(path), "--query"]
            argv += ["histogram", "--eps", "1", "--json", "--max-work", "1e12"]
            ratios = []
            for _ in range(args.runs):
                cpu, wall, rss, out = _run(argv, HERE, tmp)
                line = f"k=4 T={T}: CPU {cpu:.1f} s, wall {wall:.1f} s, peak {rss // 1024} MB"
                if args.baseline is not None:
                    cpu_b, _, _, out_b = _run(argv, args.baseline.resolve(), tmp)
                    if out_b != out:
                        raise SystemExit(f"T={T}: the outputs differ")
                    ratios.append(cpu / cpu_b)
                    line += f"; baseline CPU {cpu_b:.1f} s, ratio {cpu / cpu_b:.3f}"
                print(line, flush=True)
            if ratios:
                print(f"T={T}: median CPU ratio new/baseline {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()

"""Histograms of multi-state chains: ``pdpsym leakage --query histogram --all-targets`` as
a whole process (CPU = user + system of the child, wall time, peak memory), optionally
paired against an older checkout of pdpsym (A B A B ..., the ratio pair by pair).
Plain script:

    .venv/bin/python benchmarks/bench_histogram.py [--runs 1] [--baseline DIR] [--uneven | --random]

``--baseline DIR``: a checkout (say ``git worktree add DIR 357cb54``) whose ``pdpsym`` is
run the same way, with ``PYTHONPATH=DIR`` from a scratch directory (``python -m`` puts the
working directory first on the path); both outputs must be byte-identical (checked).

The chains: 3 states and 200 records, 4 states and 50 records; each stays with
probability 7/10 and otherwise moves uniformly (every relabelling of the states is a
symmetry) or, with ``--uneven``, to the state ``d`` steps ahead with weight proportional
to ``d`` (a circulant chain: the rotations relabel it and its reversal is the chain
relabelled), or, with ``--random``, chains with no symmetry at all (``RANDOM``: rows of
small primes' fractions, the 3-state chain off its stationary law); stationary start
otherwise; lambda = 4; 15 digits.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

CASES = ((3, 200), (4, 50))
HERE = Path(__file__).resolve().parent.parent


RANDOM = {
    3: (
        ["1/3", "1/2", "1/6"],
        [["3/5", "3/10", "1/10"], ["1/7", "5/7", "1/7"], ["2/9", "1/9", "2/3"]],
    ),
    4: (
        "stationary",
        [
            ["3/5", "1/5", "1/10", "1/10"],
            ["1/8", "1/2", "1/4", "1/8"],
            ["1/6", "1/6", "1/3", "1/3"],
            ["1/10", "0", "1/5", "7/10"],
        ],
    ),
}


def _random(k: int, T: int) -> dict[str, object]:
    init, rows = RANDOM[k]
    states = [chr(ord("a") + j) for j in range(k)]
    return {
        "kind": "markov-chain",
        "length": T,
        "states": states,
        "initial": init,
        "transition": rows,
    }


def _chain(k: int, T: int, uneven: bool) -> dict[str, object]:
    tot = sum(range(1, k))
    rows = [
        [
            "7/10"
            if i == j
            else str(Fraction(3, 10) * Fraction((j - i) % k, tot))
            if uneven
            else str(Fraction(3, 10) / (k - 1))
            for j in range(k)
        ]
        for i in range(k)
    ]
    return {
        "kind": "markov-chain",
        "length": T,
        "states": [chr(ord("a") + j) for j in range(k)],
        "initial": "stationary",
        "transition": rows,
    }


def _run(argv: list[str], root: Path, cwd: str) -> tuple[float, float, int, bytes]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(argv, check=True, capture_output=True, env=env, cwd=cwd).stdout
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, after.ru_maxrss, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--baseline", type=Path, default=None)
    ap.add_argument("--uneven", action="store_true")
    ap.add_argument("--random", action="store_true")
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from pdpsym.loss.histogram import histogram_work  # the estimate the CLI checks
    from pdpsym.models.markov import MarkovChain

    with tempfile.TemporaryDirectory() as tmp:
        for k, T in CASES:
            obj = _random(k, T) if args.random else _chain(k, T, args.uneven)
            path = Path(tmp) / f"chain{k}x{T}.json"
            path.write_text(json.dumps(obj))
            work = histogram_work(MarkovChain.from_json_object(obj), T, [])
            argv = [sys.executable, "-m", "pdpsym", "leakage", str(path), "--query"]
            argv += ["histogram", "--all-targets", "--lam", "4", "--digits", "15", "--json"]
            argv += ["--max-work", "1e12"]
            new, old, ratios = [], [], []
            for _ in range(args.runs):
                cpu, wall, rss, out = _run(argv, HERE, tmp)
                new.append(cpu)
                line = f"k={k} T={T}: estimate {work:.2e} steps, CPU {cpu:.1f} s, wall {wall:.1f} s"
                if args.baseline is not None:
                    cpu_b, _, _, out_b = _run(argv, args.baseline.resolve(), tmp)
                    if out_b != out:
                        raise SystemExit(f"k={k} T={T}: the outputs differ")
                    old.append(cpu_b)
                    ratios.append(cpu / cpu_b)
                    line += f"; baseline CPU {cpu_b:.1f} s, ratio {cpu / cpu_b:.3f}"
                print(f"{line}, peak {rss // 1024} MB", flush=True)
            if ratios:
                print(f"k={k} T={T}: median CPU ratio new/baseline {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()

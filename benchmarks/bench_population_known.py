"""Benchmark: ``threshold --p-values --known-size`` over populations where every record has
its own p, whole processes, against the float64 baseline.

Run: ``python benchmarks/bench_population_known.py [--repeats R]`` (about ten minutes on a
shared 2-core machine). Seeded p-values files: 300, 10^4 and 10^5 records, each with its
own six-digit p in [0.1, 0.9] (the first ``|B|`` are the known records). For each file and
``|B|`` in (1, 5), paired whole-process runs (the order alternates) of

* ``pdpsym threshold --p-values FILE --T n/2 --eps 1/5 --known-size B`` (certified), and
* ``python benchmarks/float_population_known.py FILE n/2 1/5 B``, the float64 divide and
  conquer over every target's leave-one-out law (the fastest float baseline we could write),

printing wall and CPU seconds (user + system of the child), the CPU ratio and both answers
(the certified delta and the float's ``log10``). Results are recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _files(tmp: Path) -> dict[int, Path]:
    out = {}
    for n in (300, 10**4, 10**5):
        rng = random.Random(3)
        seen: set[int] = set()
        while len(seen) < n:
            seen.add(rng.randint(10**5, 9 * 10**5))
        order = list(seen)
        rng.shuffle(order)
        out[n] = tmp / f"p{n}.txt"
        out[n].write_text("".join(f"0.{v:06d}\n" for v in order))
    return out


def _run(argv: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds (user + system, ``wait4``: this child alone) and the output."""
    env = dict(os.environ, PYTHONPATH=str(HERE.parent))
    t = time.perf_counter()
    p = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
    )
    assert p.stdout is not None
    out = p.stdout.read()
    p.stdout.close()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{argv} failed")
    lines = out.strip().splitlines()
    return wall, ru.ru_utime + ru.ru_stime, " ".join(lines[:2])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=2)
    args = ap.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    print("| records, known | pdpsym wall / CPU (s) | float64 wall / CPU (s) | CPU ratio |")
    print("|---|---|---|---|")
    answers = []
    with tempfile.TemporaryDirectory() as tmp:
        for n, f in _files(Path(tmp)).items():
            T = str(n // 2)
            for size in ("1", "5"):
                ours = [sys.executable, "-m", "pdpsym", "threshold", "--p-values", str(f)]
                ours += ["--T", T, "--eps", "1/5", "--known-size", size, "--max-work", "1e10"]
                flt = [sys.executable, str(HERE / "float_population_known.py"), str(f), T]
                flt += ["1/5", size]
                a_runs, b_runs = [], []
                for r in range(args.repeats):
                    pair = [("a", ours), ("b", flt)]
                    for which, argv in pair if r % 2 == 0 else pair[::-1]:
                        wall, cpu, line = _run(argv)
                        (a_runs if which == "a" else b_runs).append((wall, cpu))
                        if r == 0:
                            answers.append(f"{n}, |B| = {size}: {line}")
                aw = statistics.median(w for w, _ in a_runs)
                ac = statistics.median(c for _, c in a_runs)
                bw = statistics.median(w for w, _ in b_runs)
                bc = statistics.median(c for _, c in b_runs)
                print(
                    f"| {n}, {size} | {aw:.2f} / {ac:.2f} | {bw:.2f} / {bc:.2f} | {ac / bc:.2f} |"
                )
        print()
        for line in answers:
            print(line)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

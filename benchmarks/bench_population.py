"""Benchmark: counting over populations where every record has its own p, whole processes.

Run: ``python benchmarks/bench_population.py [--repeats R]`` (about five minutes on an idle
2-core machine). Three seeded p-values files: 300 records with 86 distinct two-digit p, and
10^4 and 10^5 records each with its own six-digit p in [0.1, 0.9]. For each, paired
whole-process runs (the order alternates) of

* ``pdpsym counting --p-values FILE --eps 1/5`` (certified, every digit certain), and
* ``python benchmarks/float_population.py FILE 1/5``, the float64 divide and conquer over
  every target's leave-one-out law (the fastest float baseline we could write),

printing wall and CPU seconds (user + system of the child), the CPU ratio and both
answers (the certified delta and the float's ``log10``), and a few
``pdpsym threshold --p-values FILE --T T --eps 1/5`` runs at the 10^5 file (pdpsym only).
Results are recorded in docs/benchmarks.md.
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


def _files(tmp: Path) -> dict[str, Path]:
    rng = random.Random(2)
    vals: list[str] = []
    while len(vals) < 86:
        v = f"0.{rng.randint(5, 95):02d}"
        if v not in vals:
            vals.append(v)
    recs = vals + [rng.choice(vals) for _ in range(300 - 86)]
    rng.shuffle(recs)
    out = {"300 records, 86 p": tmp / "p300.txt"}
    out["300 records, 86 p"].write_text("\n".join(recs) + "\n")
    for n in (10**4, 10**5):
        rng = random.Random(1)
        seen: set[int] = set()
        while len(seen) < n:
            seen.add(rng.randint(10**5, 9 * 10**5))
        order = list(seen)
        rng.shuffle(order)
        name = f"{n} records, all p distinct"
        out[name] = tmp / f"p{n}.txt"
        out[name].write_text("".join(f"0.{v:06d}\n" for v in order))
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
    return wall, ru.ru_utime + ru.ru_stime, out.strip().splitlines()[0]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    ours = [sys.executable, "-m", "pdpsym", "counting", "--eps", "1/5", "--p-values"]
    flt = [sys.executable, str(HERE / "float_population.py")]
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    print("| population | pdpsym wall / CPU (s) | float64 wall / CPU (s) | CPU ratio |")
    print("|---|---|---|---|")
    answers = []
    with tempfile.TemporaryDirectory() as tmp:
        files = _files(Path(tmp))
        for name, f in files.items():
            a_runs, b_runs = [], []
            for r in range(args.repeats):
                pair = [("a", [*ours, str(f)]), ("b", [*flt, str(f), "1/5"])]
                for which, argv in pair if r % 2 == 0 else pair[::-1]:
                    wall, cpu, line = _run(argv)
                    (a_runs if which == "a" else b_runs).append((wall, cpu))
                    if r == 0:
                        answers.append(f"{name}: {line}")
            aw = statistics.median(w for w, _ in a_runs)
            ac = statistics.median(c for _, c in a_runs)
            bw = statistics.median(w for w, _ in b_runs)
            bc = statistics.median(c for _, c in b_runs)
            print(f"| {name} | {aw:.2f} / {ac:.2f} | {bw:.2f} / {bc:.2f} | {ac / bc:.2f} |")
        print()
        for line in answers:
            print(line)
        print("\n| threshold, 10^5 records | wall (s) | CPU (s) | exact delta |")
        print("|---|---|---|---|")
        big = files["100000 records, all p distinct"]
        for T in (10, 53000, 60000, 99990):
            argv = [sys.executable, "-m", "pdpsym", "threshold", "--p-values", str(big)]
            wall, cpu, line = _run([*argv, "--T", str(T), "--eps", "1/5"])
            print(f"| T = {T} | {wall:.2f} | {cpu:.2f} | {line.split('= ')[1]} |")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

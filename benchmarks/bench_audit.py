"""Benchmark: `audit` time against the number of records, per mechanism kind.

    .venv/bin/python benchmarks/bench_audit.py [--max-n 12]

Random binary n-record models (cell weights 1..9, seeded); target x1, x2 known; notions
dp, apkdp, ppkdp at eps = ln 2 and delta = 1/10. Mechanisms: randomized response
(keep 3/4; 2^n outputs), a random two-output table, and thresholding at T = n/2. Every
figure is exact. For the table and thresholding the time follows the number of
(database, output) pairs, 2^(n+1). Randomized response (4^n pairs) is screened
(pdpsym.audit.screen): float64 laws rank the cases and only the cases near the top are
built exactly, each with 2^n outputs.
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from fractions import Fraction

import pdpsym as ps
from pdpsym.audit import audit


def model(n: int, seed: int = 1) -> ps.JointDistribution:
    rng = random.Random(seed)
    cells = list(itertools.product((0, 1), repeat=n))
    w = [rng.randint(1, 9) for _ in cells]
    total = sum(w)
    names = [f"x{k + 1}" for k in range(n)]
    return ps.JointDistribution.from_rows(
        names, [[*c, Fraction(x, total)] for c, x in zip(cells, w, strict=True)]
    )


def table(n: int, seed: int = 2) -> ps.mechanisms.Mechanism:
    rng = random.Random(seed)
    rows = {}
    for d in itertools.product((Fraction(0), Fraction(1)), repeat=n):
        p = Fraction(rng.randint(1, 9), 10)
        rows[d] = {"lo": p, "hi": 1 - p}
    return ps.mechanisms.table(rows)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-n", type=int, default=12)
    args = ap.parse_args()
    print("| n | randomized response (s) | table (s) | threshold (s) |")
    print("|---|---|---|---|")
    for n in range(3, args.max_n + 1):
        m = model(n)
        row = [str(n)]
        for mech in (
            ps.mechanisms.randomized_response("3/4", m.domains),
            table(n),
            ps.mechanisms.threshold(n // 2),
        ):
            t = time.perf_counter()
            audit(
                m,
                mech,
                "x1",
                ["x2"],
                eps=[ps.Eps.log(2)],
                delta="1/10",
                notions=["dp", "apkdp", "ppkdp"],
            )
            row.append(f"{time.perf_counter() - t:.3f}")
        print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()

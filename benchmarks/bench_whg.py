"""Benchmarks for the WHG (Li et al. Section V-D, VII-B3). Plain script:

    .venv/bin/python benchmarks/bench_whg.py [--eq2-n 12] [--chain-n 20] [--quick] [--eq2-only]

1. ``pdpsym whg MODEL --json`` on a random binary n-tuple table (every node's Eq. 2 and
   chain value, certified) against the fair float64 baseline of ``float_eq2.py`` (the
   same Eq. 2 values, uncertified), in one run (n = 6, 8, ..., --eq2-n), and the phases.
2. Chain-rule full search (Algorithm 1) on beta edges, n = 20 (~10 million nodes), float64.
3. Fast search (Algorithm 2): time and accuracy against full search as k grows (n = 15).
4. Time against n for each mode.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
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

import numpy as np
from bench_leakage import random_binary_table
from float_eq2 import eq2_all_binary, max_error  # the fair baseline

from pdpsym.app.cli import main as pdpsym_main
from pdpsym.models.joint import JointDistribution
from pdpsym.papers.li2019.whg import (
    BetaEdges,
    CachedEdges,
    ExactOf,
    fast_search,
    full_search,
    whg_from_distribution,
)


def bench_whg_command(n: int, runs: int = 3) -> None:
    """``pdpsym whg MODEL --json`` (every node's Eq. 2 and chain value, certified to the
    default 12 digits) against the fair float64 baseline (``float_eq2.eq2_all_binary``:
    Eq. 2 of every node, no certification, no chain rule), in one run, best of ``runs``."""
    model = random_binary_table(n, seed=1)
    nodes = n * 2 ** (n - 1)
    P = model.counts / model.counts.sum()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "model.json"
        path.write_text(json.dumps(model.to_json_object()))
        t_float, t_whg = [], []
        for _ in range(runs):
            t0 = time.perf_counter()
            fl = eq2_all_binary(P)
            t1 = time.perf_counter()
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = pdpsym_main(["whg", str(path), "--json"])
            t2 = time.perf_counter()
            assert rc == 0
            t_float.append(t1 - t0)
            t_whg.append(t2 - t1)
    res = json.loads(out.getvalue())
    err = max_error(res["nodes"], model.variables, fl)
    a, b = min(t_float), min(t_whg)
    print(f"| {n} | {nodes} | {a:.3f} | {b:.3f} | {b / a:.1f}x | {err:.1e} |")


def phases(n: int) -> None:
    """Where ``whg --json`` spends its time (one run, in-process)."""
    from pdpsym.app.readers import load_discrete
    from pdpsym.core.decimals import certified_decimals
    from pdpsym.papers.li2019.whg.batch import batch_whg

    model = random_binary_table(n, seed=1)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "model.json"
        path.write_text(json.dumps(model.to_json_object()))
        t0 = time.perf_counter()
        m = load_discrete(str(path))
        _ = m.counts
        t1 = time.perf_counter()
    b = batch_whg(m, 1)
    t2 = time.perf_counter()
    # every node's two values in one pass each, as the command does
    node = np.array([[not K >> i & 1 for K in range(1 << n)] for i in range(n)])
    certified_decimals(b.eq2_lo[node].tolist(), b.eq2_hi[node].tolist(), 12)
    certified_decimals(b.chain_lo[node].tolist(), b.chain_hi[node].tolist(), 12)
    t3 = time.perf_counter()
    print(
        f"phases n={n}: read model {t1 - t0:.3f} s, batch enclosures (Eq. 2, edges, chain) "
        f"{t2 - t1:.3f} s, certified decimals {t3 - t2:.3f} s"
    )


class Timed:
    """Wraps an edge source and accumulates the time spent drawing edges."""

    def __init__(self, src: BetaEdges) -> None:
        self.src, self.n, self.drawing = src, src.n, 0.0

    def bottom(self, i: int) -> float:
        return self.src.bottom(i)

    def edges(self, i: int) -> np.ndarray:
        t0 = time.perf_counter()
        E = self.src.edges(i)
        self.drawing += time.perf_counter() - t0
        return E


def bench_full(n: int) -> None:
    src = Timed(BetaEdges(n, 0.5, seed=0))
    t0 = time.perf_counter()
    res = full_search(src)
    t1 = time.perf_counter()
    print(
        f"full search n={n}: {n * 2 ** (n - 1)} nodes, {t1 - t0:.1f}s total, of which "
        f"{src.drawing:.1f}s drawing {n * (n - 1) * 2 ** (n - 2)} beta edges and "
        f"{t1 - t0 - src.drawing:.1f}s searching; max {res.max_value():.6f}"
    )


def bench_fast_curve(n: int, ks: list[int], runs: int) -> None:
    print(
        f"fast search n={n}, averCorr 0.5, {runs} runs: k, mean fast/full, mean seconds fast, full"
    )
    for k in ks:
        ratios, tf, tu = [], [], []
        for run in range(runs):
            src = CachedEdges(BetaEdges(n, 0.5, seed=run))
            t0 = time.perf_counter()
            a = full_search(src).max_value()
            t1 = time.perf_counter()
            b = fast_search(src, k).max_value()
            t2 = time.perf_counter()
            ratios.append(b / a)
            tu.append(t1 - t0)
            tf.append(t2 - t1)
        print(
            f"  k={k:4d}  fast/full {np.mean(ratios):.4f}  fast {np.mean(tf):.3f}s  full {np.mean(tu):.3f}s"
        )


def bench_growth(max_full: int, max_exact_given: int, max_dist: int) -> None:
    print("time vs n:")
    for n in range(4, max_full + 1, 2):
        src: object = (
            CachedEdges(BetaEdges(n, 0.5, seed=0)) if n <= 16 else Timed(BetaEdges(n, 0.5))
        )
        t0 = time.perf_counter()
        full_search(src)
        t1 = time.perf_counter()
        fast_search(src, 5)
        t2 = time.perf_counter()
        drawn = getattr(src, "drawing", 0.0)
        print(
            f"  n={n:2d} full float64 {t1 - t0:8.3f}s   fast k=5 {t2 - t1:8.3f}s"
            + (f"  (both incl. drawing edges: {drawn:.1f}s)" if drawn else "  (edges pre-drawn)")
        )
    for n in range(4, max_exact_given + 1, 2):
        src2 = ExactOf(BetaEdges(n, 0.5, seed=0))
        t0 = time.perf_counter()
        full_search(src2)
        print(f"  n={n:2d} full exact (Fraction edges) {time.perf_counter() - t0:8.3f}s")
    for n in range(2, max_dist + 1):
        model = random_binary_table(n, seed=2)
        t0 = time.perf_counter()
        whg_from_distribution(model, 1)
        print(
            f"  n={n:2d} distribution WHG, every node exact Eq. 2 + exact chain "
            f"{time.perf_counter() - t0:8.3f}s"
        )


#: the children may cache their bytecode, as an installed package has it (without the
#: cache every run would compile pdpsym's sources first)
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _process_seconds(argv: list[str]) -> tuple[float, float]:
    """(wall, CPU of the child) of one whole process, its output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=_ENV)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _paired(a: list[str], b: list[str], runs: int) -> dict[str, float]:
    """A and B in turn (one warm-up each), medians of wall and CPU and of the per-pair
    ratios A/B."""
    _process_seconds(a), _process_seconds(b)
    rows = [(_process_seconds(a), _process_seconds(b)) for _ in range(runs)]
    med = statistics.median
    return {
        "a_wall": med(x[0] for x, _ in rows),
        "b_wall": med(y[0] for _, y in rows),
        "a_cpu": med(x[1] for x, _ in rows),
        "b_cpu": med(y[1] for _, y in rows),
        "wall": med(x[0] / y[0] for x, y in rows),
        "cpu": med(x[1] / y[1] for x, y in rows),
    }


def _write(model: JointDistribution, tmp: str, name: str) -> str:
    path = Path(tmp) / f"{name}.json"
    path.write_text(json.dumps(model.to_json_object()))
    return str(path)


def symmetric_tables(n: int) -> dict[str, JointDistribution]:
    """Uniform bits, an exchangeable law (weight by the number of ones) and a random table."""
    cells = list(itertools.product((0, 1), repeat=n))
    names = [f"x{k + 1}" for k in range(n)]

    def table(w: list[int]) -> JointDistribution:
        t = sum(w)
        return JointDistribution.from_rows(
            names, [[*c, Fraction(x, t)] for c, x in zip(cells, w, strict=True)]
        )

    return {
        "uniform": table([1] * len(cells)),
        "exchangeable": table([1 + 3 * sum(c) + sum(c) ** 2 for c in cells]),
        "random": random_binary_table(n, seed=1),
    }


def bench_process(n: int, runs: int) -> None:
    """``pdpsym whg MODEL --json`` against ``python benchmarks/float_eq2.py MODEL`` (the
    float baseline as a whole process: reading the model, every node's Eq. 2), both whole
    processes with startup, in turn; medians of ``runs`` pairs."""
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(random_binary_table(n, seed=1), tmp, "random")
        r = _paired(
            [py, "-m", "pdpsym", "whg", path, "--json"],
            [py, str(Path(__file__).with_name("float_eq2.py")), path],
            runs,
        )
    print(
        f"| {n} | {r['b_wall']:.2f} / {r['b_cpu']:.2f} | {r['a_wall']:.2f} / {r['a_cpu']:.2f} "
        f"| {r['wall']:.2f}x | {r['cpu']:.2f}x |"
    )


def bench_ties(n: int, runs: int) -> None:
    """``pdpsym whg --json`` on uniform bits and on an exchangeable law against a random
    table at the same n (whole processes, in turn; medians of ``runs`` pairs)."""
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        paths = {k: _write(m, tmp, k) for k, m in symmetric_tables(n).items()}
        rnd = [py, "-m", "pdpsym", "whg", paths["random"], "--json"]
        for kind in ("uniform", "exchangeable"):
            r = _paired([py, "-m", "pdpsym", "whg", paths[kind], "--json"], rnd, runs)
            print(
                f"| {n} | {kind} | {r['a_wall']:.2f} / {r['a_cpu']:.2f} "
                f"| {r['b_wall']:.2f} / {r['b_cpu']:.2f} | {r['wall']:.2f}x | {r['cpu']:.2f}x |"
            )


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--eq2-n", type=int, default=12)
    ap.add_argument("--chain-n", type=int, default=20)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--eq2-only", action="store_true", help="only the whg --json table")
    ap.add_argument("--runs", type=int, default=3, help="pairs per whole-process ratio")
    ap.add_argument(
        "--process",
        action="store_true",
        help="only: whg --json against the float baseline, both as whole processes, and "
        "uniform / exchangeable tables against a random one",
    )
    a = ap.parse_args()
    if a.process:
        print(
            "| n | float baseline wall / CPU (s) | whg --json wall / CPU (s) | wall ratio | CPU ratio |"
        )
        print("|---|---|---|---|---|")
        bench_process(a.eq2_n, a.runs)
        print("| n | table | whg wall / CPU (s) | random wall / CPU (s) | wall ratio | CPU ratio |")
        print("|---|---|---|---|---|---|")
        for n in (8, a.eq2_n):
            bench_ties(n, a.runs)
        return 0
    print(
        "| n | nodes | float64 Eq. 2, fair baseline (s) | pdpsym whg --json (s) | ratio | max diff |"
    )
    print("|---|---|---|---|---|---|")
    if a.quick:
        bench_whg_command(6)
        phases(6)
        bench_full(12)
        bench_fast_curve(10, [1, 5, 20], 3)
        bench_growth(10, 8, 3)
        return 0
    for n in range(6, a.eq2_n + 1, 2):
        bench_whg_command(n)
    phases(a.eq2_n)
    if a.eq2_only:
        return 0
    bench_full(a.chain_n)
    bench_fast_curve(15, [1, 2, 5, 10, 20, 50, 100, 200], 10)
    bench_growth(20, 12, 10)
    return 0


if __name__ == "__main__":
    sys.exit(main())

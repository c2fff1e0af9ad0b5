"""Benchmark: every target of bnlearn's large networks (andes, pigs) with pdpsym's float
junction tree and certified enclosures, against the float64 baseline
``benchmarks/float_bayesnet_large.py`` (the same float passes, Eq. 2 in floats,
uncertified), as whole processes, paired (alternating which goes first). Prints the
median user + system CPU of each and their ratio.

    python benchmarks/bench_bayesnet_large.py [--cases andes-c20 pigs-c20 andes] [--rounds 3]
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
from fractions import Fraction
from pathlib import Path

from bench_bayesnet import cpu

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "bnlearn"


def first_nodes(net: str, k: int, state: str) -> list[str]:
    """The first ``k`` declared records of a network with the counted state (a chosen
    set to count)."""
    from pdpsym.models.bayesnet import BayesianNetwork  # noqa: PLC0415 (only here)

    text = gzip.open(DATA / f"{net}.bif.gz", "rt").read()
    bn = BayesianNetwork.from_bif_text(text, tolerance=Fraction(1, 10**6))
    return [v for v in bn.variables if state in bn.nodes[v].states][:k]


#: case -> (network, counted records or None, their state)
CASES = {
    "andes-c20": ("andes", 20, "true"),
    "pigs-c20": ("pigs", 20, "2"),
    "pigs-c120": ("pigs", 120, "2"),
    "andes": ("andes", None, ""),
    "link-f20": ("link", 20, "f"),
}
#: cases whose baseline also leaves out the targets d-separated from the count
SKIP = {"link-f20"}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", nargs="+", default=["andes-c20", "pigs-c20", "andes"])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    py = sys.executable
    print(f"{'case':12} {'pdpsym s':>9} {'float s':>8} {'ratio':>6}")
    for case in args.cases:
        net, k, state = CASES[case]
        path = str(DATA / f"{net}.bif.gz")
        count = [] if k is None else [",".join(first_nodes(net, k, state)) + "=" + state]
        ours = [py, "-m", "pdpsym", "leakage", path, "--all-targets", "--lam", "2"]
        ours += ["--count", *count] if count else []
        base = [py, str(ROOT / "benchmarks" / "float_bayesnet_large.py"), path, "2", *count]
        base += ["--skip-independent"] if case in SKIP else []
        a: list[float] = []
        b: list[float] = []
        for r in range(args.rounds):
            pair = [(ours, a), (base, b)] if r % 2 == 0 else [(base, b), (ours, a)]
            for argv, out in pair:
                out.append(cpu(argv))
        ma, mb = statistics.median(a), statistics.median(b)
        print(f"{case:12} {ma:9.2f} {mb:8.2f} {ma / mb:6.2f}", flush=True)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    main()

"""Benchmark: what ``pdpsym leakage NET.bif.gz --all-targets --lam 2`` does on bnlearn's
largest networks for the queries a network user asks: a count over a chosen set of 20
or 120 records, a sum over the binary records, and the default (every record). Each
case is one whole process: its exit code, user + system CPU, peak memory, and the
refusal's one line when it is refused up front. One run each (no baseline: this is a
table of what runs and what is refused; the float64 ratios are in
``bench_bayesnet_large.py``).

    python benchmarks/bench_bayesnet_cases.py [--nets pigs munin1 link] [--skip-over 120]

``--skip-over S``: a case over the default ``--max-work`` whose estimate is over ``S``
CPU seconds (a microsecond a unit) is run at the default only (its refusal shown).
"""

from __future__ import annotations

import argparse
import gzip
import os
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "bnlearn"
#: the state counted on each network (its most common state name)
STATE = {"pigs": "2", "munin1": "NO", "link": "f", "andes": "true"}


def network(net: str):
    from pdpsym.models.bayesnet import BayesianNetwork  # noqa: PLC0415 (only here)

    text = gzip.open(DATA / f"{net}.bif.gz", "rt").read()
    return BayesianNetwork.from_bif_text(text, tolerance=Fraction(1, 10**6))


def cases(net: str) -> list[tuple[str, list[str], int, int]]:
    """``(label, extra argv, induced width, estimate)`` for each query of ``net`` (the
    estimate and the width the command computes before it starts)."""
    from pdpsym.loss.count_leakage_work import (  # noqa: PLC0415 (only here)
        leakage_work,
        target_plan,
    )
    from pdpsym.models.bayesnet_zeros import zero_plan  # noqa: PLC0415 (only here)

    bn = network(net)
    state = STATE[net]
    having = [v for v in bn.variables if state in bn.nodes[v].states]
    queries = []
    for k in (20, 120):
        if len(having) >= k or k == 20:
            names = having[:k]
            label = f"count of {len(names)} (={state})"
            queries.append(
                (label, ["--count", f"{','.join(names)}={state}"], bn.count_query(names, state))
            )
    binary = [v for v in bn.variables if len(bn.nodes[v].states) == 2]
    if binary:
        label = f"sum of the {len(binary)} binary"
        queries.append((label, ["--sum", ",".join(binary)], bn.sum_query(binary)))
    queries.append(("every record", [], bn))
    out = []
    for label, extra, model in queries:
        # as the command estimates: the targets decided on the graph are not computed
        # (each target on its own tree when one tree is over the default limit and theirs
        # are cheaper)
        found = zero_plan(model, model.variables, (), averaged=False)
        plan = target_plan(model, found, limit=10**8)
        chosen = list(plan.computed)
        tree = model.targets_work((), None, chosen)
        work = leakage_work(model, len(chosen), (), chosen, None)
        if plan.per_target:
            out.append((label + ", each target's own tree", extra, plan.width, plan.work))
            continue
        out.append((label, extra, tree.width, work))
    return out


def run(argv: list[str]) -> tuple[int, float, int, str]:
    """Exit code, user + system CPU seconds, peak KB, stderr's error line."""
    with tempfile.TemporaryFile("w+") as err_file:
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err_file)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        err_file.seek(0)
        err = [ln.strip() for ln in err_file if "error" in ln]
    return p.returncode, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, err[-1] if err else ""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nets", nargs="+", default=["pigs", "munin1", "link"])
    ap.add_argument("--skip-over", type=float, default=150.0)
    args = ap.parse_args()
    py = sys.executable
    for net in args.nets:
        path = str(DATA / f"{net}.bif.gz")
        for label, extra, width, est in cases(net):
            argv = [py, "-m", "pdpsym", "leakage", path, "--all-targets", "--lam", "2", *extra]
            head = f"{net:7} {label:26} width {width:>2} estimate {est:.1e}"
            if est > 10**8 and est / 1e6 > args.skip_over:
                code, cpu, mem, err = run(argv)  # the default limit refuses it: check
                print(
                    f"{head} not run past the default (exit {code}, {cpu:.2f} s): {err}", flush=True
                )
                continue
            code, cpu, mem, err = run(argv)
            status = "ok" if code == 0 else f"exit {code}: {err}"
            print(f"{head} CPU {cpu:.2f} s peak {mem / 1e6:.2f} GB {status}", flush=True)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    main()

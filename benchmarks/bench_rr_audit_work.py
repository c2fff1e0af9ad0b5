"""The work estimate of ``audit`` under randomized response (``check_work`` of
``pdpsym.app.commands.audit_models``, per notion ``pdpsym.app.rr_audit_work``) against
the CPU it measures. Plain script:

    .venv/bin/python benchmarks/bench_rr_audit_work.py [--laws 3] [--cli]

Default: the laws an interval chain's class audit evaluates (binary and 3-state chains
of 3 to 12 records, target ``x2`` with ``x1`` known, or the middle record with none
known; every notion, and a few alone), the first ``--laws`` of them audited in-process
(``time.process_time``); the estimate of one law is what the class audit charges it:
``check_work``'s shared part less the once-paid base, plus the notions' own.

``--cli``: whole processes (CPU of the child, ``resource``): the class audit of the
seed-1873 class at a few lengths (with ``--max-work 5e6``: run or refused), and
single-chain ``audit CHAIN RR`` runs; the estimate the command's own (shared and
notions, base included). Under an older tree (``PYTHONPATH``) the same script prints
that tree's estimates: the before / after columns of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from pdpsym.app.commands import audit_models
from pdpsym.audit import audit
from pdpsym.audit.registry import ALL_NOTIONS
from pdpsym.mechanisms.discrete import randomized_response
from pdpsym.models.interval_chain_k import IntervalChainK
from pdpsym.models.law_class import IntervalChain

F = Fraction
BASE = getattr(audit_models, "RR_BASE", 0)  # an older tree charged it per law
BINARY = [[["4/5", "9/10"], ["1/10", "1/5"]], [["3/20", "3/10"], ["7/10", "17/20"]]]
THREE = [
    [["3/5", "13/20"], ["1/5", "1/4"], ["1/8", "1/8"]],
    [["1/5", "1/5"], ["3/5", "3/5"], ["1/5", "1/5"]],
    [["1/8", "1/8"], ["6/25", "6/25"], ["127/200", "127/200"]],
]
NOTION_SETS = [list(ALL_NOTIONS), ["apkdp"], ["dp"], ["dependent-dp"], ["ppkdp"]]


def class_object(k: int, T: int) -> dict[str, Any]:
    """The interval chain of ``k`` states and ``T`` records (seed 1873's for two)."""
    return {
        "kind": "interval-markov-chain",
        "length": T,
        "states": [str(s) for s in range(k)],
        "initial": ["1/3", "2/3"] if k == 2 else ["1/3"] * 3,
        "transition": BINARY if k == 2 else THREE,
    }


def estimate(
    model: Any,
    mech: Any,
    target: str,
    known: list[str],
    notions: list[str],
    pts: int,
    reading: str | None = None,
) -> tuple[int, int]:
    """``check_work``'s shared steps and the notions' own, summed."""
    ns = argparse.Namespace(max_work=str(10**18), ddp_reading=reading, delta=None)
    shared, own, _ = audit_models.check_work(ns, model, mech, target, known, notions, pts)
    return shared, sum(own.values())


def laws_table(n_laws: int, lengths: list[int]) -> None:
    print("| states | T | target | known | notions | laws | est./law (ms) | CPU/law (ms) | ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    for k in (2, 3):
        for T in lengths:
            for target, known in (("x2", ["x1"]), (f"x{(T + 1) // 2}", [])):
                obj = class_object(k, T)
                cls = (IntervalChain if k == 2 else IntervalChainK).from_json_object(obj)
                mech = randomized_response(F(3, 4), [cls.states] * T)
                models = [cls.member(t) for t in cls.audit_laws(3)[:n_laws]]
                audit(models[0], mech, target, known, [F(1)], None, ["apkdp"])  # warm
                for notions in NOTION_SETS:
                    shared, own = estimate(models[0], mech, target, known, notions, 1)
                    est = shared - BASE + own
                    t = time.process_time()
                    for m in models:
                        audit(m, mech, target, known, [F(1)], None, notions)
                    cpu = (time.process_time() - t) / len(models) * 1e6
                    name = "all" if len(notions) > 1 else notions[0]
                    print(
                        f"| {k} | {T} | {target} | {','.join(known) or '-'} | {name} | "
                        f"{len(models)} | {est / 1e3:.2f} | {cpu / 1e3:.2f} | {cpu / est:.2f} |",
                        flush=True,
                    )


def child_cpu(argv: list[str]) -> tuple[float, int, str]:
    """CPU seconds of one whole process, its exit code and its last stderr line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    # from another directory: the child imports the PYTHONPATH's tree, not the cwd's
    p = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=tempfile.gettempdir())
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, p.returncode, (p.stderr.strip().splitlines() or [""])[-1]


def cli_table() -> None:
    exe = [sys.executable, "-m", "pdpsym"]
    with tempfile.TemporaryDirectory() as tmp:
        rr = Path(tmp, "rr.json")
        rr.write_text(json.dumps({"kind": "randomized-response", "keep": "3/4"}))
        print("| run | T | exit | CPU (s) | note |")
        print("|---|---|---|---|---|")
        for T in (3, 5, 8):
            cls = Path(tmp, f"cls{T}.json")
            cls.write_text(json.dumps(class_object(2, T)))
            argv = [*exe, "audit", str(cls), str(rr), "--target", "x2", "--known", "x1"]
            argv += ["--eps", "1", "--notions", "all", "--max-work", "5e6"]
            cpu, code, err = child_cpu(argv)
            print(f"| class, all, --max-work 5e6 | {T} | {code} | {cpu:.2f} | {err[:60]} |")
        print()
        print("| model | T | known | notions | points | estimate (s) | CPU (s) | ratio |")
        print("|---|---|---|---|---|---|---|---|")
        for label, obj, target, known, notions, eps, reading in single_cells():
            path = Path(tmp, f"{label}-{len(obj.get('bernoulli', [])) or obj['length']}.json")
            path.write_text(json.dumps(obj))
            argv = [*exe, "audit", str(path), str(rr), "--target", target, "--notions", notions]
            argv += [x for e in eps for x in ("--eps", e)]
            argv += ["--known", ",".join(known)] if known else []
            argv += ["--ddp-reading", reading] if reading else []
            cpu, code, err = child_cpu([*argv, "--max-work", "1e12"])
            from pdpsym.app.readers import load_model  # the same model, for the estimate

            model = load_model(str(path))
            mech = randomized_response(F(3, 4), [model.domain(v) for v in model.variables])
            wanted = list(ALL_NOTIONS) if notions == "all" else notions.split(",")
            shared, own = estimate(model, mech, target, known, wanted, len(eps), reading)
            est = (shared + own) / 1e6
            T = len(model.variables)
            shown = notions + (f" ({reading})" if reading else "")
            print(
                f"| {label} | {T} | {','.join(known) or '-'} | {shown} | {len(eps)} | "
                f"{est:.2f} | {cpu:.2f} | {cpu / est:.2f} |"
                + ("" if code == 0 else f" exit {code}"),
                flush=True,
            )


def single_cells() -> list[tuple[str, dict[str, Any], str, list[str], str, list[str], Any]]:
    """The single-model runs: (label, model object, target, known, notions, ε, reading)."""
    cells: list[tuple[str, dict[str, Any], str, list[str], str, list[str], Any]] = []
    for k, T, known, notions, eps, reading in [
        (2, 5, ["x1"], "all", ["1"], None),
        (2, 10, ["x1"], "all", ["1"], None),
        (2, 12, [], "apkdp", ["1/2", "1", "2"], None),
        (2, 20, ["x1"], "all", ["1"], None),
        (3, 6, ["x1"], "all", ["1"], None),
        (3, 8, [], "apkdp,ppkdp", ["1"], None),
        (3, 12, ["x1"], "apkdp", ["1"], None),
        (2, 12, [], "dependent-dp", ["1"], "eq11-conditional"),
        (3, 8, [], "dependent-dp", ["1"], "eq11-conditional"),
    ]:
        obj = class_object(k, T)
        obj["kind"] = "markov-chain"  # the box's lower ends, rows completed
        obj["transition"] = (
            [["17/20", "3/20"], ["1/5", "4/5"]]
            if k == 2
            else [["13/20", "1/5", "3/20"], ["1/5", "3/5", "1/5"], ["1/8", "6/25", "127/200"]]
        )
        target = "x2" if known else f"x{(T + 1) // 2}"
        cells.append((f"{k}-state chain", obj, target, known, notions, eps, reading))
    for n, known, notions in [
        (5, ["x1"], "all"),
        (100, ["x1", "x2", "x3"], "all"),
        (1000, [], "dp,apkdp,dependent-dp"),
    ]:
        obj = {"kind": "product", "bernoulli": [f"{1 + i % 9}/10" for i in range(n)]}
        cells.append(("independent", obj, "x4", known, notions, ["1"], None))
    return cells


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--laws", type=int, default=3)
    ap.add_argument("--lengths", default="3,4,5,6,7,8,9,10,11,12")
    ap.add_argument("--cli", action="store_true")
    args = ap.parse_args()
    os.environ.setdefault("PYTHONHASHSEED", "0")
    if args.cli:
        cli_table()
    else:
        laws_table(args.laws, [int(x) for x in args.lengths.split(",")])


if __name__ == "__main__":
    main()

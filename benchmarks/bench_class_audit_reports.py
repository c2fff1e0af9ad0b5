"""The figures' branch and bound of ``audit`` over an interval chain under randomized
response (``pdpsym.audit.class_figure_search.search_figures``, its output the tuple of
every record's report), and over a 3-state chain under the sum's mechanisms: measured
CPU per sub-box against the work estimate (``steps_per_box``, steps of about a
microsecond), several lengths, known records and notions. Plain script:

    .venv/bin/python benchmarks/bench_class_audit_reports.py [--boxes 12] [--sums | --long]

(``--sums``: the 3-state chains under count, threshold and geometric noise instead;
``--long``: binary chains of 15 to 100 records under the sum's mechanisms, the few
sub-boxes :data:`LONG` gives each.)

Each row runs the search in-process for ``--boxes`` sub-boxes and compares
``boxes x steps_per_box / 10^6`` with the CPU seconds (``time.process_time``).
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction
from typing import Any

from pdpsym.audit.class_figure_search import search_figures, steps_per_box
from pdpsym.mechanisms.discrete import randomized_response
from pdpsym.mechanisms.sum_kernels import CountSum, GeometricSum, LaplaceSum, ThresholdSum
from pdpsym.models.interval_chain_k import IntervalChainK
from pdpsym.models.law_class import IntervalChain

F = Fraction
ALL = ["dp", "dependent-dp", "apkdp", "ppkdp", "cdp", "ibcdp"]
CASES: list[tuple[int, int, str, list[str], list[str], Any]] = [
    # (states, T, target, known, notions, initial)
    (2, 3, "x2", ["x1"], ALL, ["1/3", "2/3"]),
    (2, 4, "x2", ["x1"], ALL, ["1/3", "2/3"]),
    (2, 5, "x2", ["x1"], ALL, ["1/3", "2/3"]),
    (2, 6, "x2", ["x1"], ALL, ["1/3", "2/3"]),
    (2, 7, "x2", ["x1"], ALL, ["1/3", "2/3"]),
    (2, 8, "x2", ["x1"], ALL, ["1/3", "2/3"]),
    (2, 5, "x3", [], ["apkdp"], "stationary"),
    (2, 7, "x4", [], ["apkdp", "cdp"], "stationary"),
    (2, 6, "x3", ["x1", "x5"], ["ppkdp"], [["1/4", "1/2"], ["1/2", "3/4"]]),
    (3, 3, "x2", ["x1"], ALL, "stationary"),
    (3, 4, "x2", ["x1"], ALL, "stationary"),
    (3, 5, "x3", [], ["apkdp", "cdp"], "stationary"),
]
SUMS = [  # (mechanism, T, known, notions) over the 3-state chain, target x2
    (m, T, known, notions)
    for m in ("count", "threshold", "geometric")
    for T in (3, 5, 8)
    for known, notions in ((["x1"], ALL), ([], ["apkdp", "cdp"]))
]
LONG = [  # (mechanism, T, sub-boxes) over the binary chain, target the middle, known x1
    ("count", 20, 8),
    ("count", 30, 4),
    ("count", 50, 5),
    ("count", 100, 3),
    ("threshold", 50, 3),
    ("geometric", 15, 4),
    ("geometric", 20, 8),
    ("geometric", 30, 3),
    ("geometric", 40, 3),
    ("geometric", 50, 5),
    ("laplace", 20, 5),
]
BINARY = [[["4/5", "9/10"], ["1/10", "1/5"]], [["3/20", "3/10"], ["7/10", "17/20"]]]
THREE = [
    [["3/5", "13/20"], ["1/5", "1/4"], ["1/8", "1/8"]],
    [["1/5", "1/5"], ["3/5", "3/5"], ["1/5", "1/5"]],
    [["1/8", "1/8"], ["6/25", "6/25"], ["127/200", "127/200"]],
]


def chain(k: int, T: int, initial: Any) -> Any:
    obj = {
        "kind": "interval-markov-chain",
        "length": T,
        "states": [str(s) for s in range(k)],
        "initial": initial,
        "transition": BINARY if k == 2 else THREE,
    }
    return (IntervalChain if k == 2 else IntervalChainK).from_json_object(obj)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boxes", type=int, default=12)
    ap.add_argument("--keep", default="3/4")
    ap.add_argument("--sums", action="store_true")
    ap.add_argument("--long", action="store_true")
    args = ap.parse_args()
    if args.sums:
        sums(args.boxes)
        return
    if args.long:
        long_chains()
        return
    print("| states | T | known | notions | boxes | estimate (s) | CPU (s) | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for k, T, target, known, notions, initial in CASES:
        cls = chain(k, T, initial)
        mech = randomized_response(F(args.keep), [cls.states] * T)
        per = steps_per_box(cls, mech, target, known, notions)
        t = time.process_time()
        res = search_figures(cls, mech, target, known, [F(1)], notions, max_boxes=args.boxes)
        cpu = time.process_time() - t
        est = max(res.boxes, 1) * per / 1e6
        short = "all" if notions == ALL else ",".join(notions)
        print(
            f"| {k} | {T} | {','.join(known) or '-'} | {short} | "
            f"{res.boxes} | {est:.3f} | {cpu:.3f} | {cpu / est:.2f} |",
            flush=True,
        )


def sums(boxes: int) -> None:
    """The 3-state chain under the sum's mechanisms (:data:`SUMS`)."""
    kinds = {
        "count": CountSum(),
        "threshold": ThresholdSum(T=F(1)),
        "geometric": GeometricSum(alpha=F(1, 2)),
    }
    print("| mechanism | T | known | notions | boxes | estimate (s) | CPU (s) | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for m, T, known, notions in SUMS:
        cls = chain(3, T, "stationary")
        per = steps_per_box(cls, kinds[m], "x2", known, notions)
        t = time.process_time()
        res = search_figures(cls, kinds[m], "x2", known, [F(1)], notions, max_boxes=boxes)
        cpu = time.process_time() - t
        est = max(res.boxes, 1) * per / 1e6
        short = "all" if notions == ALL else ",".join(notions)
        print(
            f"| {m} | {T} | {','.join(known) or '-'} | {short} | "
            f"{res.boxes} | {est:.3f} | {cpu:.3f} | {cpu / est:.2f} |",
            flush=True,
        )


def long_chains() -> None:
    """Binary chains of 15 to 100 records under the sum's mechanisms (:data:`LONG`)."""
    kinds = {
        "count": CountSum(),
        "threshold": ThresholdSum(T=F(2)),
        "geometric": GeometricSum(alpha=F(1, 2)),
        "laplace": LaplaceSum(lam=F(2)),
    }
    notions = ["apkdp", "cdp"]
    print("| mechanism | T | known | notions | boxes | estimate (s) | CPU (s) | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for m, T, boxes in LONG:
        cls = chain(2, T, "stationary")
        target = f"x{T // 2}"
        per = steps_per_box(cls, kinds[m], target, ["x1"], notions)
        t = time.process_time()
        res = search_figures(cls, kinds[m], target, ["x1"], [F(1)], notions, max_boxes=boxes)
        cpu = time.process_time() - t
        est = max(res.boxes, 1) * per / 1e6
        print(
            f"| {m} | {T} | x1 | apkdp,cdp | {res.boxes} | {est:.2f} | {cpu:.2f} | "
            f"{cpu / est:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()

"""The figures' branch and bound of ``audit`` over an interval chain
(``pdpsym.audit.class_audit_boxes.search_figures``): its measured CPU per sub-box
against its work estimate (``steps_per_box``, steps of about a microsecond), at several
sizes. Plain script:

    .venv/bin/python benchmarks/bench_class_audit_boxes.py [--boxes 40]

Each row runs the search in-process for ``--boxes`` sub-boxes (the estimate is per
sub-box, so the row compares ``boxes x steps_per_box / 10^6`` with the CPU seconds).
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

from pdpsym.audit.class_figure_search import search_figures, steps_per_box
from pdpsym.mechanisms.sum_kernels import CountSum, GeometricSum, ThresholdSum
from pdpsym.models.law_class import IntervalChain

F = Fraction
CASES = [  # (T, mechanism, known, notions)
    (4, CountSum(), [], ["apkdp"]),
    (6, CountSum(), ["x4"], ["apkdp", "cdp"]),
    (8, ThresholdSum(T=F(2)), ["x3"], ["apkdp", "ppkdp"]),
    (8, GeometricSum(alpha=F(1, 2)), ["x3"], ["apkdp", "cdp", "ppkdp"]),
    (10, GeometricSum(alpha=F(1, 2)), [], ["apkdp", "cdp"]),
]


def chain(T: int) -> IntervalChain:
    return IntervalChain.from_json_object(
        {
            "kind": "interval-markov-chain",
            "length": T,
            "states": ["0", "1"],
            "initial": "stationary",
            "transition": [
                [["4/5", "9/10"], ["1/10", "1/5"]],
                [["3/20", "3/10"], ["7/10", "17/20"]],
            ],
        }
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boxes", type=int, default=40)
    args = ap.parse_args()
    print("| T | mechanism | known | notions | boxes | estimate (s) | CPU (s) | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for T, mech, known, notions in CASES:
        cls = chain(T)
        target = f"x{T // 2}"
        per = steps_per_box(cls, mech, target, known, notions)
        t = time.process_time()
        res = search_figures(cls, mech, target, known, [F(1)], notions, max_boxes=args.boxes)
        cpu = time.process_time() - t
        est = res.boxes * per / 1e6
        print(
            f"| {T} | {mech.kind} | {','.join(known) or '-'} | {','.join(notions)} | "
            f"{res.boxes} | {est:.2f} | {cpu:.2f} | {cpu / est:.2f} |"
        )


if __name__ == "__main__":
    main()

"""The figure of docs/uncertain-laws.md: the calibrated scale against the width of the box.

    .venv/bin/python benchmarks/fig_uncertain_laws.py [--T 100] [--out docs/img]

A binary chain of ``--T`` records estimated at ``P(0 -> 1) = 3/20``, ``P(1 -> 1) = 4/5``
(stationary start), with a box ``[x - w, x + w]`` around each of the two estimates for
each half-width ``w``; for each box, ``pdpsym.audit.class_calibrate.class_calibrate`` at
``eps = 1`` (the class's smallest Laplace scale, certified, and the worst law), with the
class's MQMApprox (``pi_min`` and eigengap over the box) and group DP. Writes
``uncertain-laws-scale.csv`` (the enclosure's ends rounded outward to 10 digits, the
baselines' certified digits) and ``uncertain-laws-scale.png`` (needs matplotlib, the
``[plots]`` extra).
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from fractions import Fraction
from pathlib import Path

from pdpsym.audit.calibration import BaselineResult, Goal
from pdpsym.audit.class_calibrate import class_calibrate
from pdpsym.core.certify import certify
from pdpsym.core.decimals import decimal_string
from pdpsym.models.law_class import IntervalChain

WIDTHS = ["0", "1/200", "1/100", "1/50", "3/100", "1/25", "1/20", "3/40", "1/10"]


def box_class(T: int, w: Fraction) -> IntervalChain:
    x0, x1 = Fraction(3, 20), Fraction(4, 5)
    rows = []
    for x in (x0, x1):
        lo, hi = x - w, x + w
        rows.append([[str(1 - hi), str(1 - lo)], [str(lo), str(hi)]])
    return IntervalChain.from_json_object(
        {
            "kind": "interval-markov-chain",
            "length": T,
            "states": ["0", "1"],
            "initial": "stationary",
            "transition": rows,
        }
    )


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--T", type=int, default=100)
    ap.add_argument("--out", default="docs/img")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for wt in WIDTHS:
        w = Fraction(wt)
        t = time.process_time()
        cal = class_calibrate(box_class(a.T, w), Goal(Fraction(1)), max_boxes=4000)
        cpu = time.process_time() - t
        base = {b.name: b for b in cal.baselines if isinstance(b, BaselineResult)}
        approx = base.get("mqm-approx")
        row = {
            "half_width": wt,
            "scale_lo": decimal_string(cal.lo, 10, "down"),
            "scale_hi": decimal_string(cal.hi, 10, "up"),
            "tight": cal.tight,
            "worst_law": f"{cal.law[0]}, {cal.law[1]}",  # type: ignore[index]
            "mqm_approx": certify(approx.scale, 10).decimal if approx else "",
            "group_dp": certify(base["group-dp"].scale, 10).decimal,
            "cpu_s": f"{cpu:.1f}",
        }
        rows.append(row)
        print(row)
        sys.stdout.flush()
    with (out / "uncertain-laws-scale.csv").open("w", newline="") as fh:
        wr = csv.DictWriter(fh, fieldnames=list(rows[0]))
        wr.writeheader()
        wr.writerows(rows)
    try:
        import matplotlib  # noqa: PLC0415 (the [plots] extra)

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # noqa: PLC0415
    except ImportError:
        print("matplotlib not installed: wrote the CSV only")
        return 0
    x = [float(Fraction(r["half_width"])) for r in rows]
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    ax.plot(
        x, [float(r["scale_hi"]) for r in rows], "o-", label="smallest scale for the class (pdpsym)"
    )
    ax.plot(x, [float(r["mqm_approx"]) for r in rows], "s--", label="MQMApprox over the class")
    ax.plot(x, [float(r["group_dp"]) for r in rows], ":", label="group DP")
    ax.set_yscale("log")
    ax.set_xlabel("half-width of the box around each transition estimate")
    ax.set_ylabel("Laplace scale meeting eps = 1")
    ax.set_title(f"Binary chain, T = {a.T}, estimates P(0->1) = 0.15, P(1->1) = 0.8")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "uncertain-laws-scale.png", dpi=110)
    print(f"wrote {out / 'uncertain-laws-scale.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How the thorough classes grow: Li et al. Theorem 2 and Theorem 3 one denominator further.

    .venv/bin/python benchmarks/bench_classes.py [--extra 1]

Runs the checkers ``li2019.thm2``, ``li2019.thm3.1`` and ``li2019.thm3.2`` with their
thorough classes, then with every class's largest denominator raised by ``--extra``
(a ``RunConfig`` whose ``count`` adds it to the thorough count), one process, and prints
the cases and CPU seconds of each. ``docs/scale.md`` extrapolates from these figures.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time

from pdpsym.claims.claim import RunConfig
from pdpsym.verify import run_claim


@dataclasses.dataclass(frozen=True)
class Further(RunConfig):
    extra: int = 1

    def count(self, default: int, thorough: int) -> int:
        return thorough + self.extra


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--extra", type=int, default=1)
    ap.add_argument("--claims", default="li2019.thm2,li2019.thm3.1,li2019.thm3.2")
    a = ap.parse_args()
    print("| claim | classes | verdict | cases | CPU s |")
    print("|---|---|---|---|---|")
    for cid in a.claims.split(","):
        for label, cfg in (
            ("thorough", RunConfig(thorough=True)),
            (f"thorough + {a.extra}", Further(thorough=True, extra=a.extra)),
        ):
            t = time.process_time()
            r = run_claim(cid, cfg)
            print(f"| {cid} | {label} | {r.verdict} | {r.cases} | {time.process_time() - t:.1f} |")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

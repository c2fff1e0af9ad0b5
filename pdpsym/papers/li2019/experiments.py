"""Section VII (Li et al.): the Figure 4-5 experiments on WHGs with beta-distributed edges.

Setting (VII-A, as far as the seed text keeps it): ``n`` tuples (15 in the paper), the
sum query, domain size 1 (``Delta = 1``), edge values ``w = q Delta / lam`` with
``|q| ~ Beta`` of mean ``|averCorr|`` and the sign of ``averCorr`` (:class:`BetaEdges`),
layer-1 values by Theorem 4. Reported:

- Fig. 4(a)-(b): the maximal leakage of each layer, against the layer number and against
  averCorr;
- Fig. 5: fast search (top-``k`` per layer) against full search: the maxima, their gap,
  and the run times, 30 seeded runs per setting in the paper.

These are float64 simulations of the chain rule on sampled edge data (the paper's own
experiment); the exact claim checks live in :mod:`pdpsym.papers.li2019.claims_whg`.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from typing import Any

from pdpsym.papers.li2019.whg import BetaEdges, CachedEdges, fast_search, full_search


def leakage_vs_layer(
    n: int = 15, corrs: Sequence[float] = (-0.8, -0.5, -0.2, 0.2, 0.5, 0.8), seed: int = 0
) -> dict[str, Any]:
    """Fig. 4(a)-(b): max node value of each layer, one row per averCorr."""
    rows = []
    for corr in corrs:
        res = full_search(BetaEdges(n, corr, seed))
        rows.append({"averCorr": corr, "layer_max": [float(v) for v in res.layer_max()]})
    return {"n": n, "seed": seed, "rows": rows}


def fast_vs_full(
    ns: Sequence[int] = (5, 8, 10, 12, 15),
    corrs: Sequence[float] = (0.2, 0.5, 0.8),
    k: int = 5,
    runs: int = 30,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """Fig. 5: mean/variance of the maximum leakage, fast vs full, and the mean run times."""
    out = []
    for n in ns:
        for corr in corrs:
            full_v, fast_v, full_t, fast_t = [], [], [], []
            for run in range(runs):
                # drawn before timing: the times are the searches', not the sampler's
                src = CachedEdges(BetaEdges(n, corr, seed * 1000 + run))
                t0 = time.perf_counter()
                a = full_search(src).max_value()
                t1 = time.perf_counter()
                b = fast_search(src, k).max_value()
                t2 = time.perf_counter()
                full_v.append(float(a))
                fast_v.append(float(b))
                full_t.append(t1 - t0)
                fast_t.append(t2 - t1)
            out.append(
                {
                    "n": n,
                    "averCorr": corr,
                    "k": k,
                    "full_mean": statistics.fmean(full_v),
                    "full_var": statistics.pvariance(full_v),
                    "fast_mean": statistics.fmean(fast_v),
                    "fast_var": statistics.pvariance(fast_v),
                    "fast_above": sum(b > a for a, b in zip(full_v, fast_v, strict=True)),
                    "fast_below": sum(b < a for a, b in zip(full_v, fast_v, strict=True)),
                    "full_seconds": statistics.fmean(full_t),
                    "fast_seconds": statistics.fmean(fast_t),
                }
            )
    return out

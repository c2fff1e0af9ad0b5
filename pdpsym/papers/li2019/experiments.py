"""Section VII (Li et al.): the Figure 4-5 experiments on WHGs with beta-distributed edges.

Setting (VII-A, as far as the seed text keeps it): ``n`` tuples (15 in the paper), the
sum query, domain size 1 (``Delta = 1``), edge values ``w = q Delta / lam`` with
``|q| ~ Beta`` of mean ``|averCorr|`` and the sign of ``averCorr`` (:class:`BetaEdges`),
layer-1 values by Theorem 4. Reported:

- Fig. 4(a)-(b): the maximal leakage of each layer, against the layer number and against
  averCorr;
- Fig. 5: fast search (top-``k`` per layer) against full search: the maxima, their gap,
  and the run times, 30 seeded runs per setting in the paper.

- Fig. 4(c)-(d): the Gaussian leakage of each layer for equicorrelated tuples.

:func:`leakage_vs_layer` and :func:`fast_vs_full` are float64 simulations of the chain rule
on sampled edge data (the paper's own experiment); :func:`layer_maxima` and
:func:`gaussian_layer_table` are exact, and the claim checks of
:mod:`pdpsym.papers.li2019.claims_whg` and :mod:`pdpsym.papers.li2019.claims_sec7` use them.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from pdpsym.loss.gaussian import gaussian_leakage
from pdpsym.models.gaussian import equicorrelated
from pdpsym.papers.li2019.whg import BetaEdges, CachedEdges, ExactOf, fast_search, full_search


def leakage_vs_layer(
    n: int = 15, corrs: Sequence[float] = (-0.8, -0.5, -0.2, 0.2, 0.5, 0.8), seed: int = 0
) -> dict[str, Any]:
    """Fig. 4(a)-(b): max node value of each layer, one row per averCorr.

    A float64 simulation, as in the paper: the chain rule (full search) on beta-distributed
    edge values; the numbers are floats, not certified (:func:`layer_maxima` is the exact
    version).

    Args:
        n: the number of tuples (15 in the paper).
        corrs: the averCorr values, each in (-1, 1); its sign is the edges' sign.
        seed: the seed of the edge draws.

    Returns:
        ``{"n", "seed", "rows"}`` with one row ``{"averCorr", "layer_max"}`` per averCorr;
        ``layer_max`` lists the float maximum of each layer, layer 1 (strongest) first.

    References:
        Li et al. (2019), Section VII-B, Fig. 4(a)-(b) (setting of Section VII-A), computed by
        the full search of Section V-D (Algorithm 1) with Theorem 4 at layer 1 and Theorem 2.
    """
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
    """Fig. 5: mean/variance of the maximum leakage, fast vs full, and the mean run times.

    A float64 simulation with wall-clock timings (the edges are drawn before timing); the
    numbers are floats, not certified.

    Args:
        ns: the numbers of tuples.
        corrs: the averCorr values, each in (-1, 1).
        k: the fast search's number of nodes kept per layer (>= 1; lost from the paper's
            text).
        runs: seeded runs per ``(n, averCorr)``.
        seed: the base seed (run ``r`` uses ``seed * 1000 + r``).

    Returns:
        One dict per ``(n, averCorr)``: the means and population variances of the full and
        the fast maxima, how many runs had the fast one above and below, and the mean seconds
        of each search.

    References:
        Li et al. (2019), Section V-D (Algorithms 1-2, Propositions 1-2) and Section VII-B3,
        Fig. 5.
    """
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


def layer_maxima(n: int, corr: float, seed: int) -> list[Fraction]:
    """Fig. 4(a)-(b), exactly: the max node value of each layer, chain rule on the sampled
    beta edges read as exact rationals.

    Args:
        n: the number of tuples (>= 1).
        corr: averCorr, in (-1, 1).
        seed: the seed of the edge draws.

    Returns:
        The exact maximum of each layer, as Fractions, layer 1 (strongest adversaries) first.

    References:
        Li et al. (2019), Section VII-B, Fig. 4(a)-(b), by Section V-D, Algorithm 1 (Theorem 4
        at layer 1, Theorem 2 / Theorem 5 above).

    Examples:
        >>> layer_maxima(3, 0.5, 1)[0]
        Fraction(1, 1)
    """
    return full_search(ExactOf(BetaEdges(n, corr, seed))).layer_max()


def gaussian_layer_table(
    n: int, rhos: Sequence[Fraction], lam: Fraction
) -> dict[Fraction, list[Fraction]]:
    """Fig. 4(c)-(d) (Section VII-A): ``n`` unit-variance tuples with every covariance
    ``rho``, sum query; for each rho the leakage of ``A(x1, K)`` at layer ``L = 1..n``
    (``K`` = the last ``n - L`` tuples, so layer 1 is the strongest adversary).

    Args:
        n: the number of tuples (>= 1).
        rhos: the covariances; each must give a positive definite matrix
            (``-1/(n-1) < rho < 1``).
        lam: the Laplace scale, > 0.

    Returns:
        For each rho, the exact leakage (Fractions) at layers 1 to ``n``.

    References:
        Li et al. (2019), Section VII-B, Fig. 4(c)-(d), by Section VI-B, Theorem 6 (rebuilt
        reading: ``|c| Delta_i / lambda``).

    Examples:
        >>> gaussian_layer_table(2, [Fraction(0)], Fraction(1))[Fraction(0)]
        [Fraction(1, 1), Fraction(1, 1)]
    """
    out = {}
    for rho in rhos:
        model = equicorrelated(n, rho)
        out[rho] = [
            gaussian_leakage(model, "x1", model.variables[layer:], lam).value
            for layer in range(1, n + 1)
        ]
    return out

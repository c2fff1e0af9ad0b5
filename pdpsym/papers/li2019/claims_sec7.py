"""Checker for the checkable findings of Li et al. Section VII (Fig. 4(a)-(d)): discrete
data on beta-edge WHGs by the exact chain (Algorithm 1), Gaussian data by Theorem 6.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

from pdpsym.claims import claim
from pdpsym.papers.li2019.claims import ONE
from pdpsym.papers.li2019.experiments import gaussian_layer_table, layer_maxima


def _drops(values: Sequence[Any]) -> bool:
    return any(b < a for a, b in itertools.pairwise(values))


def _discrete_findings(config: claim.RunConfig) -> dict[str, Any]:
    """Fig. 4(a)-(b) on beta-edge WHGs, exact chain: finding -> None or counterexample."""
    n, seeds = config.count(6, 11), range(config.count(2, 10))
    pos, neg = (0.2, 0.5, 0.8), (-0.2, -0.5, -0.8)
    table = {(c, s): layer_maxima(n, c, config.seed + s) for c in pos + neg for s in seeds}

    def first(fails: Callable[[float, list[Any]], bool]) -> dict[str, Any] | None:
        key = next((k for k, L in table.items() if fails(k[0], L)), None)
        return key and {"averCorr": key[0], "seed": config.seed + key[1], "layer_max": table[key]}

    layer1 = sorted({L[0] for L in table.values()})
    tops = {s: [max(table[c, s]) for c in pos] for s in seeds}
    s3 = next((s for s, t in tops.items() if _drops(t)), None)
    return {
        "layer-1 leakage flat in averCorr (Fig. 4, Theorem 4)": (
            None if len(layer1) == 1 else {"layer_1": layer1}
        ),
        "positive averCorr: leakage increases with the layer number (Fig. 4(a))": first(
            lambda c, L: c > 0 and _drops(L)
        ),
        "positive averCorr: leakage increases with averCorr (Fig. 4(a))": None if s3 is None else {
            "seed": config.seed + s3, "max_by_corr": dict(zip(map(str, pos), tops[s3], strict=True))
        },
        "negative averCorr: highest leakage at layer 1 (Fig. 4(b), Corollary 1)": first(
            lambda c, L: c < 0 and max(L) > L[0]
        ),
    }  # fmt: skip


def _gaussian_findings(config: claim.RunConfig) -> dict[str, Any]:
    """Fig. 4(c)-(d): 15 equicorrelated unit-variance Gaussian tuples, sum query, lam = 1;
    layer L = number of unknown tuples including the target. Exact leakage values."""
    n = 15
    pos = [Fraction(k, config.count(5, 10)) for k in range(config.count(5, 10))]
    negs = [Fraction(-k, config.count(50, 150)) for k in range(config.count(4, 10))]
    table = gaussian_layer_table(n, sorted(set(pos + negs)), ONE)

    def in_rho(rhos: list[Fraction]) -> dict[str, Any] | None:
        for layer, (a, b) in itertools.product(range(2, n + 1), itertools.pairwise(rhos)):
            va, vb = table[a][layer - 1], table[b][layer - 1]
            if vb <= va:
                return {"layer": str(layer), "rho_a": a, "rho_b": b, "PL_a": va, "PL_b": vb}
        return None

    def in_layer(rhos: list[Fraction], up: bool) -> dict[str, Any] | None:
        for rho, layer in itertools.product(rhos, range(1, n)):
            a, b = table[rho][layer - 1], table[rho][layer]
            if (b <= a) if up else (b >= a):
                return dict(rho=rho, layer_a=str(layer), layer_b=str(layer + 1), PL_a=a, PL_b=b)
        return None

    flat = {table[r][0] for r in table}
    # weakest correlation first, so the first failure is minimal
    weak = sorted((r for r in table if r < 0), key=abs)
    nonneg, nonpos = sorted(r for r in table if r >= 0), sorted(r for r in table if r <= 0)
    return {
        "layer 1 (strongest adversary) leakage does not change with averCoeff": (
            None if len(flat) == 1 else {"PL": sorted(flat)}
        ),
        "Fig. 4(c): for positive correlation leakage increases with averCoeff": in_rho(nonneg),
        "Fig. 4(d): leakage increases with the signed averCoeff (negative rho)": in_rho(nonpos),
        "Fig. 4(c): positive correlation: leakage increases with the layer number": in_layer(
            [r for r in nonneg if r > 0], True
        ),
        "Fig. 4(d), as printed: negative correlation: leakage decreases with prior knowledge": (
            in_layer(weak, True)
        ),
        "Fig. 4(d), its explanation: negative correlation: leakage decreases with the layer number": (
            in_layer(weak, False)
        ),
    }


def sec7_findings(config: claim.RunConfig) -> list[dict[str, Any]]:
    """Section VII's findings, discrete (beta-edge WHGs) then Gaussian ("[Gaussian]").

    Args:
        config: the run's configuration (``thorough`` raises the sizes, seeds and grids;
            ``seed`` fixes the edge draws).

    Returns:
        One dict per finding: ``finding`` (its text), ``holds`` (bool) and
        ``counterexample`` (None when it holds, else the first failing setting, exact).

    References:
        Li et al. (2019), Section VII-B1 and VII-B2, Fig. 4(a)-(d) (discrete data by
        Algorithm 1 on beta-distributed edges, Gaussian data by Theorem 6).
    """
    found = _discrete_findings(config)
    found |= {"[Gaussian] " + f: cx for f, cx in _gaussian_findings(config).items()}
    return [{"finding": f, "holds": cx is None, "counterexample": cx} for f, cx in found.items()]


@claim.checker("li2019.sec7")
def check_sec7(config: claim.RunConfig) -> claim.Property:
    """Checker of ``li2019.sec7``: Section VII's qualitative findings, each decided exactly.

    See :func:`sec7_findings`; every finding and its counterexample are in the details.

    References:
        Li et al. (2019), Section VII-B, Fig. 4(a)-(d).
    """
    findings: list[dict[str, Any]] = []

    def cases(cfg: claim.RunConfig) -> Iterator[dict[str, Any]]:
        findings.extend(sec7_findings(cfg))
        yield from findings

    return claim.ForAll(
        lambda f: (
            f["holds"]
            or claim.Counterexample(finding=f["finding"], counterexample=f["counterexample"])
        ),
        cases,
        method=claim.Method.GENERATED,
        holds=lambda n: f"all {n} findings hold",
        fails="a printed finding fails (the first is the counterexample; all are in the details)",
        reading=(
            "discrete: beta-distributed edges (q = sign(c) Beta(10|c|, 10(1-|c|))), Delta = lam "
            "= 1, exact chain on the sampled rationals, Algorithm 1; Gaussian: 15 "
            "equicorrelated unit-variance tuples, lam = 1"
        ),
        details=lambda: {"findings": findings},
    )

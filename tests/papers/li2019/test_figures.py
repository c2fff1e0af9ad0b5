"""li2019 figures against computations written here.

Sources: Algorithm 1 (the chain rule, per-node minimum over children, layer 1 = Delta/lambda
= 1 by Theorem 4 as printed) re-implemented below in plain Fractions on the same sampled
edges; and Theorem 6 / Lemma 1 (PL = |c| Delta / lambda with c the coefficient of x1 in
E[sum | x1, x_K]) from a sympy regression written here.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from pdpsym.claims.figure import Scale, figures
from pdpsym.papers.li2019.whg import BetaEdges


def _chain(n: int, corr: float, seed: int) -> list[list[Fraction]]:
    """V[i][mask] by Algorithm 1 on the beta edges (floats read exactly as Fractions)."""
    src, m = BetaEdges(n, corr, seed), n - 1
    full = (1 << m) - 1
    out = []
    for i in range(n):
        E = [[Fraction(float(w)) for w in row] for row in src.edges(i)]
        V: dict[int, Fraction] = {full: Fraction(1)}
        for mask in sorted(range(full), key=lambda x: -bin(x).count("1")):
            V[mask] = min(abs(V[mask | 1 << p] + E[p][mask]) for p in range(m) if not mask >> p & 1)
        out.append([V[k] for k in range(full + 1)])
    return out


def _layer_max(n: int, corr: float, seed: int) -> list[Fraction]:
    best: dict[int, Fraction] = {}
    for V in _chain(n, corr, seed):
        for mask, v in enumerate(V):
            layer = n - bin(mask).count("1")
            best[layer] = max(best.get(layer, v), v)
    return [best[k] for k in range(1, n + 1)]


def _close(text: str, want: Fraction) -> bool:
    return abs(Fraction(text) - want) <= abs(want) * Fraction(1, 10**13)


@pytest.mark.parametrize("fid", ["li2019.fig4a", "li2019.fig4b"])
def test_layer_maxima_match_algorithm_1(fid: str) -> None:
    data = figures()[fid].build(Scale.QUICK)
    for corr in {r["averCorr"] for r in data.rows}:
        rows = [r for r in data.rows if r["averCorr"] == corr]
        want = _layer_max(len(rows), float(corr), 0)
        assert rows[0]["max_leakage"] == "1.00000000000000"  # Theorem 4 as printed
        assert all(_close(r["max_leakage"], w) for r, w in zip(rows, want, strict=True))


def _gaussian_pl(n: int, rho: Fraction, layer: int) -> Fraction:
    cov = sympy.Matrix(
        n, n, lambda a, b: 1 if a == b else sympy.Rational(rho.numerator, rho.denominator)
    )
    A = [0, *range(layer, n)]  # x1 and the known tuples x_(L+1)..x_n
    U = [k for k in range(n) if k not in A]
    if not U:
        return Fraction(1)
    beta = cov.extract(U, A) * cov.extract(A, A).inv()
    c = 1 + sum(beta[u, 0] for u in range(len(U)))
    return Fraction(str(abs(sympy.nsimplify(c))))


def test_gaussian_layers_match_a_regression_written_here() -> None:
    data = figures()["li2019.fig4c"].build(Scale.QUICK)
    for r in data.rows[::5]:
        n = max(int(x["layer"]) for x in data.rows)
        assert _close(r["leakage"], _gaussian_pl(n, Fraction(r["rho"]), int(r["layer"])))


def test_fast_against_full_means_match_algorithm_1() -> None:
    data = figures()["li2019.fig5b"].build(Scale.QUICK)
    for r in data.rows:
        n, runs = int(r["n"]), int(r["runs"])
        fulls = [max(max(V) for V in _chain(n, 0.5, 1000 * n + k)) for k in range(runs)]
        assert _close(r["full_mean"], sum(fulls, Fraction(0)) / runs)
        assert int(r["fast_above"]) + int(r["fast_below"]) <= runs

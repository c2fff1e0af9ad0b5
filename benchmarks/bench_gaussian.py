"""Benchmark: Theorem 6 for all n 2^(n-1) adversaries of an n-variable Gaussian.

Exact route (pdpsym.loss.gaussian.all_conditionals): the given sets A are visited depth
first, S_AA^{-1} is updated by bordering (O(|A|^2) rational operations per set), and each
A serves its |A| adversaries A(i, A \\ {i}) at once (c = beta_i, s^2 shared).
Baselines: the exact route with one fresh Gauss-Jordan solve per adversary (n = 8 only),
and numpy float64 (one solve per set A; floats only, for timing comparison).

Run: ``.venv/bin/python benchmarks/bench_gaussian.py``. Results are recorded in
docs/gaussian.md.
"""

from __future__ import annotations

import random
import sys
import time
from fractions import Fraction

import numpy as np

from pdpsym.loss.gaussian import all_adversaries, query_given
from pdpsym.models.gaussian import GaussianModel
from pdpsym.papers.li2019.claims_gaussian import random_covariance


def model_of(n: int, seed: int = 1) -> GaussianModel:
    rnd = random.Random(seed)
    names = [f"x{k + 1}" for k in range(n)]
    return GaussianModel.build(
        names, [0] * n, random_covariance(rnd, n, span=2), {nm: ["0", "1"] for nm in names}
    )


def exact_all(model: GaussianModel) -> tuple[float, int]:
    start = time.perf_counter()
    rows = all_adversaries(model, 1)
    return time.perf_counter() - start, len(rows)


def exact_naive(model: GaussianModel) -> float:
    start = time.perf_counter()
    w = [Fraction(1)] * model.n
    for i in range(model.n):
        others = [k for k in range(model.n) if k != i]
        for mask in range(1 << (model.n - 1)):
            query_given(model, i, [others[b] for b in range(model.n - 1) if mask >> b & 1], w)
    return time.perf_counter() - start


def float_all(model: GaussianModel) -> float:
    n = model.n
    cov = np.array([[float(v) for v in row] for row in model.cov])
    w = np.ones(n)
    cf = cov @ w
    start = time.perf_counter()
    for mask in range(1, 1 << n):
        a = [k for k in range(n) if mask >> k & 1]
        beta = np.linalg.solve(cov[np.ix_(a, a)], cf[a])
        _ = float(w @ cf - cf[a] @ beta)
        _ = np.abs(beta)
    return time.perf_counter() - start


def main(sizes: tuple[int, ...] = (8, 10, 12)) -> None:
    print(
        "| n | adversaries | exact, bordering (s) | exact, fresh solves (s) | numpy float64 (s) |"
    )
    print("|---|---|---|---|---|")
    for n in sizes:
        model = model_of(n)
        t_exact, count = exact_all(model)
        assert count == n * 2 ** (n - 1)
        t_naive = f"{exact_naive(model):.2f}" if n <= 8 else "-"
        t_float = float_all(model)
        print(f"| {n} | {count} | {t_exact:.2f} | {t_naive} | {t_float:.3f} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

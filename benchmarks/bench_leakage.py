"""Benchmark: exact, certified Eq. 2 for every adversary vs float64 numpy.

For a seeded random binary n-tuple table (n = 6, 8, 10, 12 by default) it computes, in
one run, (1) the exact Eq. 2 leakage of all ``n 2^(n-1)`` adversaries with pdpsym --
exact LogRatio values, each certified to 15 digits -- and (2) the same numbers
uncertified in vectorized float64 numpy (an independent implementation below). It
prints the times, their ratio, and the largest difference between the two.

    python benchmarks/bench_leakage.py [--n 6 8 10 12] [--digits 15]
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from fractions import Fraction

import numpy as np

from pdpsym.loss.table_leakage import all_adversaries, leakage_all
from pdpsym.models.joint import JointDistribution


def random_binary_table(n: int, seed: int = 7, max_weight: int = 50) -> JointDistribution:
    rng = random.Random(seed)
    cells = list(itertools.product((0, 1), repeat=n))
    weights = [rng.randint(1, max_weight) for _ in cells]
    total = sum(weights)
    names = [f"x{k + 1}" for k in range(n)]
    return JointDistribution.from_rows(
        names, [[*c, Fraction(w, total)] for c, w in zip(cells, weights, strict=True)]
    )


def float_leakage_all(model: JointDistribution, lam: float = 1.0) -> list[float]:
    """Eq. 2 of every adversary in float64 numpy (sum query, uncertified)."""
    P = model.counts.astype(float) / model.denominator
    n = model.n
    vals = [np.array([float(v) for v in d]) for d in model.domains]
    out = []
    for adv in all_adversaries(model):
        i = model.variables.index(adv.target)
        K = [model.variables.index(k) for k in adv.known]
        U = [k for k in range(n) if k != i and k not in K]
        T = np.transpose(P, [i, *K, *U])
        d_i = P.shape[i]
        nK = int(np.prod([P.shape[k] for k in K])) if K else 1
        nU = int(np.prod([P.shape[u] for u in U])) if U else 1
        fU = np.zeros([P.shape[u] for u in U]) if U else np.zeros(1)
        for pos, u in enumerate(U):
            shape = [1] * len(U)
            shape[pos] = -1
            fU = fU + vals[u].reshape(shape)
        S, inv = np.unique(fU.ravel(), return_inverse=True)
        H = np.zeros((nU, len(S)))
        H[np.arange(nU), inv.ravel()] = 1.0
        C = (T.reshape(d_i * nK, nU) @ H).reshape(d_i, nK, len(S))
        base = vals[i].reshape(-1, 1)
        bK = np.zeros(1)
        for k in K:
            bK = (bK[:, None] + vals[k][None, :]).ravel()
        base = base + bK.reshape(1, -1)
        pts = base[:, :, None] + S[None, None, :]
        R = np.unique(pts[C > 0])
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = (
                np.log(C)[:, :, :, None] - np.abs(R[None, None, None, :] - pts[:, :, :, None]) / lam
            )
            m = terms.max(axis=2)
            logE = m + np.log(np.exp(terms - m[:, :, None, :]).sum(axis=2))
            logc = logE - np.log(C.sum(axis=2))[:, :, None]
            ratio = logc[:, None] - logc[None, :]
        ok = np.isfinite(ratio)
        out.append(float(ratio[ok].max()) if ok.any() else float("nan"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, nargs="+", default=[6, 8, 10, 12])
    ap.add_argument("--digits", type=int, default=15)
    args = ap.parse_args()
    print("| n | adversaries | float64 numpy (s) | exact + certified (s) | ratio | max abs diff |")
    print("|---|---|---|---|---|---|")
    for n in args.n:
        model = random_binary_table(n)
        t0 = time.perf_counter()
        floats = float_leakage_all(model)
        t_float = time.perf_counter() - t0
        t0 = time.perf_counter()
        exact = leakage_all(model, 1)
        certified = [r.certified(args.digits) for r in exact]
        t_exact = time.perf_counter() - t0
        diff = max(abs(float(c.decimal) - f) for c, f in zip(certified, floats, strict=True))
        decided = sum(r.decided_exactly for r in exact)
        print(
            f"| {n} | {len(exact)} | {t_float:.3f} | {t_exact:.3f} | {t_exact / t_float:.1f}x "
            f"| {diff:.1e} |  (exactly decided candidates: {decided})"
        )


if __name__ == "__main__":
    main()

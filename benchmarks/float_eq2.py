"""The fastest float64 Eq. 2 of every WHG node we can write (the fair baseline).

Li et al. Eq. 2 for every adversary ``A(i, K)`` of a binary n-tuple table with the sum
query and Laplace noise of scale ``lam``, in one vectorized pass per target:

1. A ternary generating tensor. For target ``i``, every other tuple is in one of three
   states: known 0, known 1, or unknown. Folding the joint table axis by axis into
   (known 0, known 1, unknown) with the sum of the unknowns as one more axis gives,
   for every configuration (a known set K and its values x_K) and every x_i, the mass
   ``m(x_i, x_K, s) = P(x_i, x_K, S_U = s)``: 2 x 3^(n-1) x n numbers.
2. The densities at every breakpoint. By the breakpoint lemma the sup over r is a max
   over r in k + {0..n} (k = the sum of x_K): ``p(r | x_i, x_K) ∝ Σ_s m(x_i, x_K, s)
   e^{-|x_i + s - (r - k)|/λ}``, one einsum for all configurations.
3. The leakage of a node is the max over its configurations of ``|ln p(r|0,x_K) -
   ln p(r|1,x_K)|``; configurations are grouped by their known set with ``np.maximum.at``.

No Python loop runs per node or per configuration. This is the reference every recorded
speed ratio of the WHG is taken against.
"""

from __future__ import annotations

import numpy as np


def eq2_all_binary(P: np.ndarray, lam: float = 1.0) -> np.ndarray:
    """Eq. 2 of every node of a binary table ``P`` (shape ``(2,)*n``), in float64.

    Returns ``L`` of shape ``(n, 2^(n-1))``: ``L[i, mask]`` is the leakage of
    ``A(x_{i+1}, K)`` where bit ``b`` of ``mask`` says that the ``b``-th of the other
    tuples (in order, skipping ``i``) is known. NaN where no known value is compatible
    with both target values.
    """
    n = P.ndim
    out = np.full((n, 1 << (n - 1)), np.nan)
    t = np.arange(n + 1)
    s = np.arange(n)
    # E[a, s, t] = exp(-|a + s - t| / lam)
    E = np.exp(-np.abs(np.arange(2)[:, None, None] + s[None, :, None] - t[None, None, :]) / lam)
    mask = _known_masks(n)
    for i in range(n):
        A = np.moveaxis(P, i, 0)[..., None]  # (2, 2, ..., 2, S=1)
        for j in range(1, n):
            a0 = np.take(A, 0, axis=j)
            a1 = np.take(A, 1, axis=j)
            pad = [(0, 0)] * (a0.ndim - 1) + [(0, 1)]
            a0p, a1p = np.pad(a0, pad), np.pad(a1, pad)
            u = a0p.copy()
            u[..., 1:] += a1p[..., :-1]  # the unknown tuple adds its value to the sum
            A = np.stack([a0p, a1p, u], axis=j)
        C = 3 ** (n - 1)
        M = A.reshape(2, C, -1)[:, :, :n]  # m(x_i, config, s); s < n
        mass = M.sum(axis=2)  # P(x_i, x_K)
        D = np.stack([M[0] @ E[0], M[1] @ E[1]])  # BLAS, not einsum
        with np.errstate(divide="ignore", invalid="ignore"):
            logp = np.log(D) - np.log(mass)[:, :, None]
            L = np.abs(logp[0] - logp[1]).max(axis=1)
        ok = (mass[0] > 0) & (mass[1] > 0)
        row = np.full(1 << (n - 1), -np.inf)
        np.maximum.at(row, mask[ok], L[ok])
        row[np.isneginf(row)] = np.nan
        out[i] = row
    return out


def _known_masks(n: int) -> np.ndarray:
    """For each configuration (state 0/1 known, 2 unknown per other tuple, C order), the
    bit mask of its known tuples."""
    mask = np.zeros(1, dtype=np.int64)
    for j in range(n - 1):
        bit = 1 << j
        mask = np.stack([mask + bit, mask + bit, mask], axis=-1).reshape(-1)
    return mask

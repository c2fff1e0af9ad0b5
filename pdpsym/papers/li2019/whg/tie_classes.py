"""Exact tie classes of WHG nodes from cheap exact facts (Li et al. Sec. V: Eq. 2, Eq. 11).

On symmetric, exchangeable or independent data many WHG nodes have *exactly* equal
values, so no enclosure separates them and the maximum would need every tied value in
closed form. Three facts, each proved from the counts with integer arithmetic only,
put nodes into classes whose members have equal exact values:

1. **Δ/λ when the two conditional laws of the rest coincide.** For ``A(i, K)`` and a
   known context ``c``, Eq. 2 compares ``p(r | x_i = a, c) = Σ_s q_a(s) L(r - k - a - s)``
   for ``a = 0, 1`` (``L`` the Laplace density of scale λ, ``q_a`` the law of the sum of
   the unknowns). When ``q_0 = q_1`` every term's ratio lies in ``[e^{-1/λ}, e^{1/λ}]``
   and the right tail attains ``e^{1/λ}``, so the context's value is exactly ``1/λ``
   (``Δ_i = 1`` for the sum of bits). A node whose every context has ``q_0 = q_1`` has
   Eq. 2 value ``1/λ`` (class 0).
2. **Symmetries of exchangeable models.** A transposition of two tuples that leaves the
   table unchanged maps every node to a node of equal Eq. 2 and chain value (the sum
   query, Eq. 2, Eq. 9-11 and the chain rule all commute with relabelling the tuples).
   The transpositions that are symmetries generate the full symmetric group of each
   connected block of tuples, so two nodes are in one orbit exactly when their targets
   share a block and ``K`` meets every block in as many tuples.
3. **Equal conditional laws give equal chain values.** ``W_ij`` (Eq. 9-10) is
   ``ln (N_1 T_0) / (N_0 T_1)`` per context; with ``x_i`` and ``x_j`` independent given
   the context (``P(0,0,c) P(1,1,c) = P(0,1,c) P(1,0,c)``) it is 0 for either tail, so
   the Theorem 2 step is ``|C + 0| = C``. A node whose every child edge is 0 and whose
   children share a class has that class.

Class keys are integers: 0 means "exactly ``1/λ``"; other keys mean "equal to every node
with the same key". Equal keys imply equal exact values; different keys say nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from pdpsym.papers.li2019.whg.batch import ternary
from pdpsym.papers.li2019.whg.node_masks import local_masks, popcounts

#: the class key of the nodes whose value is exactly Δ/λ = 1/λ
DELTA_OVER_LAMBDA = 0


def _all_by_group(flags: np.ndarray, m: int, axes: list[int], size: int) -> np.ndarray:
    """``out[K]`` = all ``flags`` over the configurations of ``m`` ternary axes whose known
    set is ``K`` (axis ``k`` is tuple ``axes[k]``); entries of other masks stay True."""
    lm = local_masks(m)
    full = np.zeros(len(lm), dtype=np.int64)
    for k, v in enumerate(axes):
        full |= ((lm >> k) & 1) << v
    out = np.ones(size, dtype=bool)
    bad = np.unique(full[~flags])
    out[bad] = False
    return out


def _primitive(a: np.ndarray) -> np.ndarray:
    """Each row divided by the gcd of its entries (rows of non-negative integers, not all 0):
    two rows are proportional exactly when their primitive rows are equal."""
    g = np.gcd.reduce(a, axis=-1, keepdims=True)
    return a // np.where(g == 0, 1, g)


def symmetry_blocks(counts: np.ndarray) -> list[int]:
    """The blocks of tuples that transpositions leaving the table unchanged connect.

    Args:
        counts: the count table, shape ``(2,)*n``.

    Returns:
        ``block[v]`` for every tuple ``v`` (blocks numbered from 0 in order of their
        first tuple); every permutation within a block is a symmetry (fact 2 of the
        module docstring).

    References:
        Li et al. 2019, Sec. V-A (the WHG nodes ``A(i, K)``).
    """
    n = counts.ndim
    parent = list(range(n))

    def root(v: int) -> int:
        while parent[v] != v:
            v = parent[v]
        return v

    for a in range(n):
        for b in range(a + 1, n):
            if root(a) != root(b) and np.array_equal(counts, np.swapaxes(counts, a, b)):
                parent[root(b)] = root(a)
    roots = sorted({root(v) for v in range(n)})
    return [roots.index(root(v)) for v in range(n)]


def orbit_ids(counts: np.ndarray) -> np.ndarray:
    """Orbit ids of every node under the table's transposition symmetries (fact 2).

    Args:
        counts: the count table, shape ``(2,)*n``.

    Returns:
        ``ids`` of shape ``(n, 2^n)``: ``ids[i, K] == ids[i', K']`` exactly when the two
        nodes are in one orbit (entries with bit ``i`` of ``K`` set are meaningless).

    References:
        Li et al. 2019, Sec. V-A (the WHG nodes ``A(i, K)``).
    """
    n = counts.ndim
    block = symmetry_blocks(counts)
    nb = max(block) + 1
    masks = np.arange(1 << n, dtype=np.int64)
    pop = popcounts(n)
    code = np.zeros(1 << n, dtype=np.int64)
    for b in range(nb):
        bm = sum(1 << v for v in range(n) if block[v] == b)
        code = code * (n + 1) + pop[masks & bm]
    base = (n + 1) ** nb
    return np.array([block[i] * base + code for i in range(n)], dtype=np.int64)


@dataclass(frozen=True)
class TieClasses:
    """Exact classes of every node ``A(x_i, K)``, arrays of shape ``(n, 2^n)``.

    ``eq2[i, K] == eq2[i', K']`` implies equal Eq. 2 values, ``chain[...]`` equal chain
    values; the key :data:`DELTA_OVER_LAMBDA` means exactly ``1/λ``.
    """

    eq2: np.ndarray
    chain: np.ndarray


def tie_classes(counts: np.ndarray, bottom_eq2: bool) -> TieClasses:
    """The classes of every node of a binary table under the sum query.

    Args:
        counts: the integer count table, shape ``(2,)*n``.
        bottom_eq2: layer-1 chain values are Eq. 2 (else Theorem 4's ``Δ_i/λ = 1/λ``).

    Returns:
        The :class:`TieClasses`, from the three facts of the module docstring.

    References:
        Li et al., Sec. V-A (Eq. 2 per node), V-B (Eq. 9-11, Theorem 2), Theorem 4.
    """
    n, size = counts.ndim, 1 << counts.ndim
    tensor = ternary(counts)  # m[cfg, s]: state 2 = unknown, s = the sum of the unknowns
    orbit = orbit_ids(counts)
    eq2 = 2 * orbit + 1
    mass = tensor.sum(axis=-1)
    for i in range(n):
        pre: tuple[Any, ...] = (slice(None),) * i
        others = [v for v in range(n) if v != i]
        a0 = _primitive(tensor[(*pre, 0)].reshape(-1, n + 1))
        a1 = _primitive(tensor[(*pre, 1)].reshape(-1, n + 1))
        same = (a0 == a1).all(axis=1)
        delta = _all_by_group(same, n - 1, others, size)
        eq2[i, delta] = DELTA_OVER_LAMBDA
    chain = 2 * orbit + 2
    pop = popcounts(n)
    masks = np.arange(size, dtype=np.int64)
    for i in range(n):
        pre = (slice(None),) * i
        P = np.stack([mass[(*pre, 0)], mass[(*pre, 1)]])  # axes: x_i, then the others
        others = [v for v in range(n) if v != i]
        zero: dict[int, np.ndarray] = {}  # zero[j][child]: W_ij is exactly 0
        for p, j in enumerate(others):
            x0 = np.take(P, 0, axis=p + 1).reshape(2, -1)
            x1 = np.take(P, 1, axis=p + 1).reshape(2, -1)
            rows = _primitive(np.stack([x0, x1], axis=-1))  # (x_i, context, x_j)
            indep = (rows[0] == rows[1]).all(axis=-1)
            z = _all_by_group(indep, n - 2, [v for v in others if v != j], size)
            # the context masks lack bit j; the edge sits at the child mask (bit j set)
            zero[j] = np.zeros(size, dtype=bool)
            zero[j][masks | (1 << j)] = z[masks & ~(1 << j)]
        full_others = (size - 1) & ~(1 << i)
        chain[i, full_others] = eq2[i, full_others] if bottom_eq2 else DELTA_OVER_LAMBDA
        free = (masks >> i) & 1 == 0
        for known in range(n - 2, -1, -1):
            K = np.flatnonzero((pop == known) & free)
            ok = np.ones(len(K), dtype=bool)
            common = np.full(len(K), -1, dtype=np.int64)
            for j in others:
                sel = (K >> j) & 1 == 0
                child = K[sel] | (1 << j)
                ck = chain[i, child]
                c = common[sel]
                ok[sel] &= zero[j][child] & ((c == -1) | (c == ck))
                common[sel] = ck
            chain[i, K] = np.where(ok, common, chain[i, K])
    return TieClasses(eq2, chain)

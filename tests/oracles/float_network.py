"""A float64 variable elimination with a polynomial axis for a Bayesian network's count
laws, and Eq. 2 in floats at the support points (no pdpsym import).

The network is plain data: ``tables[v] = (parents, array[parent states..., state])``
and ``shifts[v][s]``, the count that state ``s`` of ``v`` adds. For a target ``t`` and
each of its states ``a``: ``P(S = c, x_t = a)`` over ``c = 0..span``, by summing out
every other record in a greedy min-scope order, each factor carrying the law of the
count so far on its last axis (products convolve along it)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence

import numpy as np

Tables = Mapping[str, tuple[Sequence[str], np.ndarray]]
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXY"


def times(s1, a1, s2, a2, span):
    """The product of two factors: scopes joined, count laws convolved (truncated at the
    span, which no product of the query's records exceeds)."""
    scope = list(s1) + [u for u in s2 if u not in s1]
    idx = {u: LETTERS[k] for k, u in enumerate(scope)}
    e1 = "".join(idx[u] for u in s1)
    e2 = "".join(idx[u] for u in s2)
    eo = "".join(idx[u] for u in scope)
    shape = [a1.shape[s1.index(u)] if u in s1 else a2.shape[s2.index(u)] for u in scope]
    out = np.zeros([*shape, span + 1])
    for i in np.nonzero(a1.reshape(-1, span + 1).any(axis=0))[0]:
        out[..., i:] += np.einsum(f"{e1},{e2}Z->{eo}Z", a1[..., i], a2[..., : span + 1 - i])
    return scope, out


def count_laws(
    tables: Tables, shifts: Mapping[str, Sequence[int]], target: str
) -> list[np.ndarray]:
    """``[P(S = c, x_target = a) for c in 0..span]`` for each state ``a`` (float64)."""
    span = sum(max(s) for s in shifts.values())
    out = []
    for a in range(tables[target][1].shape[-1]):
        factors = []
        for v, (parents, table) in tables.items():
            scope = [*parents, v]
            arr = np.zeros([*table.shape, span + 1])
            for s in range(table.shape[-1]):
                arr[..., s, shifts[v][s]] = table[..., s]
            if target in scope:
                k = scope.index(target)
                arr = np.take(arr, a, axis=k)
                scope = [u for u in scope if u != target]
            factors.append((scope, arr))
        rest = [v for v in tables if v != target]
        while rest:

            def cost(v, fs=factors):
                return math.prod(
                    tables[u][1].shape[-1] for u in {u for s, _ in fs if v in s for u in s}
                )

            v = min(rest, key=cost)
            rest.remove(v)
            touching = [f for f in factors if v in f[0]]
            factors = [f for f in factors if v not in f[0]]
            scope, arr = touching[0]
            for s2, a2 in touching[1:]:
                scope, arr = times(scope, arr, s2, a2, span)
            factors.append(([u for u in scope if u != v], arr.sum(axis=scope.index(v))))
        total = np.zeros(span + 1)
        total[0] = 1.0
        for _, arr in factors:
            total = np.convolve(total, arr)[: span + 1]
        out.append(total)
    return out


def eq2(laws: Sequence[np.ndarray], rate: float) -> float:
    """Eq. 2's sup of the log-ratio of two Laplace mixtures at the support points (the
    breakpoint lemma), max over ordered pairs of target states; laws of mass 0 skipped."""
    mixes = []
    for law in laws:
        if law.sum() <= 0:
            continue
        c = np.arange(len(law))
        mixes.append(np.log(np.exp(-rate * np.abs(c[:, None] - c[None, :])) @ (law / law.sum())))
    return max(float(np.max(m1 - m2)) for m1, m2 in itertools.permutations(mixes, 2))

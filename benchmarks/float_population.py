"""The fastest float64 divide and conquer we could write for the counting query over a
population with its own p_i per record: every target's leave-one-out law, every target's
delta(eps), the worst one (floats only: the baseline of ``bench_population.py``).

Run: ``python benchmarks/float_population.py FILE EPS`` prints ``log10(max delta)``, the
worst target's index and the seconds (CPU) of the computation after reading the file.

How: the population is exponentially tilted by ``c = e^eps`` (records
``q = p c / (1 - p + p c)``), so that the crossing of the likelihood ratio, far out in a
tail of the count (``10^-176`` at ``10^5`` records, below float64's range for larger
eps), sits at the mode of the tilted count. A product tree of the tilted records keeps
each node's law on a window (``1e-30`` of its mode; the cut mass is below ``1e-25`` of
any delta's bracket); the leave-one-out law of every leaf is the product of the
"outside" laws passed down the tree (``out(child) = out(node) * law(sibling)``, direct
convolutions of nonnegative vectors). At a leaf, with ``f`` the tilted law of the
target's peers and ``P_i = prod_{j != i} (1 - p_j + p_j c)``,

    delta_{1,0} = P_i sum_o c^(1-o) (f(o-1) - f(o))_+ ,

and direction ``0,1`` is the same over the mirrored population (``p -> 1 - p``). Logs
carry ``P_i c^(1-o)``. Each target is examined (``2 n`` leaves, both directions).
"""

from __future__ import annotations

import math
import sys
import time
from fractions import Fraction

import numpy as np

CUT = 1e-30


def _trim(v: np.ndarray, lo: int) -> tuple[np.ndarray, int]:
    keep = np.nonzero(v > CUT * v.max())[0]
    return v[keep[0] : keep[-1] + 1], lo + int(keep[0])


def _one_direction(p: np.ndarray, eps: float) -> tuple[np.ndarray, float]:
    """``log delta_{1,0}`` of every target (same order as ``p``)."""
    c = math.exp(eps)
    z = 1.0 - p + p * c
    q = p * c / z
    log_all = float(np.sum(np.log(z)))
    n = len(p)
    laws: dict[tuple[int, int], tuple[np.ndarray, int]] = {}

    def build(a: int, b: int) -> tuple[np.ndarray, int]:
        if b - a == 1:
            laws[(a, b)] = (np.array([1.0 - q[a], q[a]]), 0)
        else:
            mid = (a + b) // 2
            la, oa = build(a, mid)
            lb, ob = build(mid, b)
            v, lo = _trim(np.convolve(la, lb), oa + ob)
            v /= v.sum()
            laws[(a, b)] = (v, lo)
        return laws[(a, b)]

    build(0, n)
    out = np.empty(n)

    def down(a: int, b: int, outside: np.ndarray, lo: int) -> None:
        if b - a == 1:
            f = outside / outside.sum()
            # o runs over lo .. lo + len(f): pad f with a zero on each side
            g = np.concatenate(([0.0], f, [0.0]))
            diff = g[:-1] - g[1:]  # f(o-1) - f(o) for o = lo .. lo + len(f)
            pos = np.nonzero(diff > 0)[0]
            if len(pos) == 0:
                out[a] = -math.inf
                return
            o = lo + pos
            terms = np.log(diff[pos]) + (1 - o) * eps
            top = terms.max()
            out[a] = log_all - math.log(z[a]) + top + math.log(np.exp(terms - top).sum())
            return
        mid = (a + b) // 2
        la, oa = laws[(a, mid)]
        lb, ob = laws[(mid, b)]
        vl, lol = _trim(np.convolve(outside, lb), lo + ob)
        vr, lor = _trim(np.convolve(outside, la), lo + oa)
        down(a, mid, vl / vl.sum(), lol)
        down(mid, b, vr / vr.sum(), lor)

    down(0, n, np.array([1.0]), 0)
    return out, log_all


def float_deltas(ps: list[Fraction], eps: float) -> np.ndarray:
    """``log(delta_i)`` of every target, the larger direction (floats)."""
    p = np.array([float(x) for x in ps])
    up, _ = _one_direction(p, eps)
    down, _ = _one_direction(1.0 - p, eps)
    return np.maximum(up, down)


def main() -> None:
    path, eps_text = sys.argv[1], sys.argv[2]
    ps = []
    for line in open(path):
        s = line.split("#", 1)[0].strip()
        if s:
            ps.append(Fraction(s))
    t = time.process_time()
    logs = float_deltas(ps, float(Fraction(eps_text)))
    k = int(np.argmax(logs))
    took = time.process_time() - t
    print(f"log10 max delta = {logs[k] / math.log(10):.12f} at target {k} ({took:.2f} s CPU)")


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    main()

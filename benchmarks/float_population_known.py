"""The fastest float64 divide and conquer we could write for the thresholding mechanism's
PPK delta over a population with its own p_i per record, the attacker knowing the first
``|B|`` records (floats only: the baseline of ``bench_population_known.py``).

Run: ``python benchmarks/float_population_known.py FILE T EPS SIZE`` prints
``log10(max delta)``, the worst target's index and the CPU seconds after reading the file.

How: as ``float_population.py`` (the population tilted by ``c = e^eps``, a product tree of
windowed laws, every target's leave-one-out law passed down the tree). The known records'
law ``w_b`` is convolved directly. At a leaf, with ``f`` the tilted law of the target's
peers, ``t*`` the first ``o`` with ``f(o-1) > f(o)`` and
``L_t = P_i sum_{o >= t} c^(1-o) (f(o-1) - f(o))`` (the sum cut where ``c^(t-o)`` falls
below ``1e-35``), direction ``1,0`` is ``sum_b w_b L_{max(T+1-b, t*)}`` and direction
``0,1`` is ``sum_b w_b max(0, L_{min(m-T+b+1, t*)})`` over the mirrored population
(Definitions 13 and 15 of Desfontaines et al.; the reduction is the docstring of
``pdpsym.mechanisms.population_known``). Every target is examined.
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


def _one_direction(p: np.ndarray, eps: float, w: np.ndarray, T: int, up: bool) -> np.ndarray:
    """``log`` of every target's PPK delta in one direction (``up``: ``1,0``)."""
    c = math.exp(eps)
    z = 1.0 - p + p * c
    q = p * c / z
    log_all = float(np.sum(np.log(z)))
    n = len(p)
    m = n - 1
    span = int(80.0 / eps) + 2
    laws: dict[tuple[int, int], tuple[np.ndarray, int]] = {}
    log_w = np.log(np.where(w > 0, w, 1.0))

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
    decay = np.exp(-eps * np.arange(span))

    def leaf(a: int, f: np.ndarray, lo: int) -> None:
        g = np.concatenate(([0.0], f, [0.0]))
        diff = g[:-1] - g[1:]  # f(o-1) - f(o) for o = lo .. lo + len(f)
        pos = np.nonzero(diff > 0)[0]
        t_star = lo + int(pos[0]) if len(pos) else lo + len(f) + 1
        logs = []
        for b, wb in enumerate(w):
            if wb <= 0:
                continue
            t = max(T + 1 - b, t_star) if up else min(m - T + b + 1, t_star)
            j = t - lo
            if j >= len(diff):
                continue  # beyond the window: below 1e-30 of the mode
            j0 = max(j, 0)
            seg = diff[j0 : j0 + span]
            s = float(np.dot(seg, decay[: len(seg)]))
            if s <= 0:
                continue
            logs.append(log_w[b] + (1 - (lo + j0)) * eps + math.log(s))
        if not logs:
            out[a] = -math.inf
            return
        top = max(logs)
        out[a] = log_all - math.log(z[a]) + top + math.log(sum(math.exp(x - top) for x in logs))

    def down(a: int, b: int, outside: np.ndarray, lo: int) -> None:
        if b - a == 1:
            leaf(a, outside / outside.sum(), lo)
            return
        mid = (a + b) // 2
        la, oa = laws[(a, mid)]
        lb, ob = laws[(mid, b)]
        vl, lol = _trim(np.convolve(outside, lb), lo + ob)
        vr, lor = _trim(np.convolve(outside, la), lo + oa)
        down(a, mid, vl / vl.sum(), lol)
        down(mid, b, vr / vr.sum(), lor)

    down(0, n, np.array([1.0]), 0)
    return out


def float_ppk(ps: list[Fraction], T: int, eps: float, size: int) -> np.ndarray:
    """``log`` of every unknown target's PPK delta, the larger direction (floats)."""
    w = np.array([1.0])
    for x in ps[:size]:
        w = np.convolve(w, [1.0 - float(x), float(x)])
    p = np.array([float(x) for x in ps[size:]])
    return np.maximum(_one_direction(p, eps, w, T, True), _one_direction(1.0 - p, eps, w, T, False))


def main() -> None:
    path, t_text, eps_text, size_text = sys.argv[1:5]
    ps = []
    for line in open(path):
        s = line.split("#", 1)[0].strip()
        if s:
            ps.append(Fraction(s))
    t = time.process_time()
    size = int(size_text)
    logs = float_ppk(ps, int(t_text), float(Fraction(eps_text)), size)
    k = int(np.argmax(logs))
    took = time.process_time() - t
    print(
        f"log10 max delta = {logs[k] / math.log(10):.12f} at target {k + size} ({took:.2f} s CPU)"
    )


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    main()

"""The float64 baseline of ``audit`` on independent records under Laplace noise: what
apkdp (and np, ppkdp, cdp, dependent-dp's conditional reading) compute, as fast as
float64 allows, with no certificate.

    python benchmarks/float_product_audit.py MODEL.json LAM EPS TARGET [KNOWN,...]

The count law of the other records by divide and conquer (FFT products of the records'
polynomials, ``scipy.signal.fftconvolve``), masses below 1e-300 cut; then δ(ε) of the
law against its translate by one under Laplace noise, by the closed form of
``pdpsym.loss.laplace_pair`` vectorized in numpy (prefix sums of ``c_s e^{±s/λ}`` scaled
per segment), both directions (a -> b and b -> a); prints the larger δ. ε at δ = 0 is
1/λ for binary records (no computation). Float64 loses every digit of a δ below about
1e-300 (the δ at ε = 1/4 of 10^5 records is about 1e-231, near the edge): it is a speed
baseline, not a reference.
"""

from __future__ import annotations

import json
import math
import sys

import numpy as np
from scipy.signal import fftconvolve


def count_law(ps: np.ndarray) -> np.ndarray:
    """The Poisson-binomial law by a product tree of FFT convolutions."""
    polys = [np.array([1 - p, p]) for p in ps]
    while len(polys) > 1:
        nxt = []
        for i in range(0, len(polys) - 1, 2):
            a, b = polys[i], polys[i + 1]
            c = fftconvolve(a, b) if min(len(a), len(b)) > 64 else np.convolve(a, b)
            nxt.append(np.maximum(c, 0.0))
        if len(polys) % 2:
            nxt.append(polys[-1])
        polys = nxt
    return polys[0]


def delta(law: np.ndarray, shift: int, lam: float, eps: float) -> float:
    """δ(ε) of ``law`` against ``law`` translated by ``shift`` (closed form per segment)."""
    keep = np.nonzero(law > 1e-300)[0]
    k = law[keep[0] : keep[-1] + 1]
    n = len(k)
    big = math.exp(eps)
    m = n + abs(shift)
    c = np.zeros(m)
    at_p, at_q = (0, shift) if shift >= 0 else (-shift, 0)
    c[at_p : at_p + n] += k
    c[at_q : at_q + n] -= big * k
    u = math.exp(-1.0 / lam)
    # A_j = sum_{k > j} c_k u^{k - j}, B_j = sum_{k <= j} c_k u^{j - k}: linear filters
    from scipy.signal import lfilter

    beta = lfilter([1.0], [1.0, -u], c)
    alpha = u * lfilter([1.0], [1.0, -u], c[::-1])[::-1]
    alpha = np.concatenate([alpha[1:], [0.0]])  # A_j excludes k = j
    a, b = alpha[:-1], beta[:-1]
    eh, ih = 1 / u, u
    whole = (a * (eh - 1) + b * (1 - ih)) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.sqrt(np.clip(-b / a, 0, None))
    w = np.clip(w, 1.0, eh)
    rising = (a * (eh - w) + b * (1 / w - ih)) / 2
    falling = (a * (w - 1) + b * (1 - 1 / w)) / 2
    share = np.where(
        (a >= 0) & (b >= 0),
        whole,
        np.where((a <= 0) & (b <= 0), 0.0, np.where(a > 0, rising, falling)),
    )
    left, right = c[0] + alpha[0], beta[-1]
    return float(share.sum() + max(left, 0) / 2 + max(right, 0) / 2)


def main() -> None:
    """Print δ(ε) of the worst direction for the target (the known records left out)."""
    path, lam, eps, target = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
    known = set(sys.argv[5].split(",")) if len(sys.argv) > 5 else set()
    obj = json.loads(open(path).read())
    ps = [float(int(a) / int(b)) for a, b in (p.split("/") for p in obj["bernoulli"])]
    names = [f"x{j + 1}" for j in range(len(ps))]
    rest = np.array([p for v, p in zip(names, ps, strict=True) if v != target and v not in known])
    law = count_law(rest)
    print(max(delta(law, 1, lam, eps), delta(law, -1, lam, eps)))


if __name__ == "__main__":
    main()

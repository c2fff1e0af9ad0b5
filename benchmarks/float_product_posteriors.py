"""The float64 baseline of ``audit`` on independent records under Laplace noise for
ibcdp and distributional-dp of a binary target: the closed forms of
``pdpsym.audit.product_posteriors`` in float64, with no certificate.

    python benchmarks/float_product_posteriors.py MODEL.json LAM EPS TARGET NOTION [KNOWN,...]
    python benchmarks/float_product_posteriors.py MODEL.json alpha=A EPS TARGET NOTION [KNOWN,...]

(``alpha=A``: two-sided geometric noise of parameter ``A`` instead of Laplace noise.)

ibcdp needs the target's p alone: ``max(0, α_k - e^ε β_k)`` over the four tail terms.
distributional-dp needs the count law of the other records (the product tree of
``benchmarks/float_product_audit.py``) and its total variation against its translate
by one (that script's δ at ε = 0), and below ``1/(2λ)`` the two hockey sticks at
``e^{2ε}``: ``max(0, (1 - e^ε (1 - TV))/2, H(P‖Q)/(1 + e^ε), H(Q‖P)/(1 + e^ε))``.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from float_product_audit import count_law, delta  # noqa: E402


def ibcdp(p: float, lam: float, eps: float) -> float:
    """δ(ε) of IBCDP for a shift of one."""
    r, t, lo, hi = math.exp(1 / lam), math.exp(eps), 1 - p, p
    terms = [
        (hi * r / (lo + hi * r), hi),
        (lo * r / (lo * r + hi), lo),
        (hi, hi / (lo * r + hi)),
        (lo, lo / (lo + hi * r)),
    ]
    return max(0.0, *(a - t * b for a, b in terms))


def distributional(law: np.ndarray, lam: float, eps: float) -> float:
    """δ*(ε) of one simulator law against the law and its translate by one."""
    t = math.exp(eps)
    tv = delta(law, 1, lam, 0.0)
    out = max(0.0, (1 - t * (1 - tv)) / 2)
    if 2 * eps < 1 / lam:
        for shift in (1, -1):
            out = max(out, delta(law, shift, lam, 2 * eps) / (1 + t))
    return out


def geometric_delta(law: np.ndarray, shift: int, alpha: float, eps: float) -> float:
    """δ(ε) of ``law`` against its translate by ``shift`` under two-sided geometric noise:
    ``G = Σ_x c_x α^|t - x|`` by two linear filters, geometric tails beyond the ends."""
    from scipy.signal import lfilter

    keep = np.nonzero(law > 1e-300)[0]
    k = law[keep[0] : keep[-1] + 1]
    n = len(k)
    m = n + abs(shift)
    c = np.zeros(m)
    at_p, at_q = (0, shift) if shift >= 0 else (-shift, 0)
    c[at_p : at_p + n] += k
    c[at_q : at_q + n] -= math.exp(eps) * k
    left = lfilter([1.0], [1.0, -alpha], c)
    right = lfilter([1.0], [1.0, -alpha], c[::-1])[::-1] - c  # Σ_{x > t} c_x α^(x - t)
    g = left + right
    tails = (max(g[0], 0) + max(g[-1], 0)) * alpha / (1 - alpha)
    return float((np.clip(g, 0, None).sum() + tails) * (1 - alpha) / (1 + alpha))


def geometric_distributional(law: np.ndarray, alpha: float, eps: float) -> float:
    """δ*(ε) of one simulator law under geometric noise (shift one)."""
    t = math.exp(eps)
    tv = geometric_delta(law, 1, alpha, 0.0)
    out = max(0.0, (1 - t * (1 - tv)) / 2)
    if 2 * eps < math.log(1 / alpha):
        for shift in (1, -1):
            out = max(out, geometric_delta(law, shift, alpha, 2 * eps) / (1 + t))
    return out


def ibcdp_geometric(p: float, alpha: float, eps: float) -> float:
    """ibcdp under geometric noise: the Laplace terms with r = 1/alpha."""
    return ibcdp(p, 1 / math.log(1 / alpha), eps)


def main() -> None:
    """Print the notion's δ at ε."""
    path, lam, eps, target, notion = sys.argv[1:6]
    known = set(sys.argv[6].split(",")) if len(sys.argv) > 6 else set()
    obj = json.loads(Path(path).read_text())
    ps = [int(a) / int(b) for a, b in (p.split("/") for p in obj["bernoulli"])]
    names = [f"x{j + 1}" for j in range(len(ps))]
    geometric = lam.startswith("alpha=")
    noise = float(lam.removeprefix("alpha="))
    if notion == "ibcdp":
        f = ibcdp_geometric if geometric else ibcdp
        print(f(ps[names.index(target)], noise, float(eps)))
        return
    rest = np.array([p for v, p in zip(names, ps, strict=True) if v != target and v not in known])
    g = geometric_distributional if geometric else distributional
    print(g(count_law(rest), noise, float(eps)))


if __name__ == "__main__":
    main()

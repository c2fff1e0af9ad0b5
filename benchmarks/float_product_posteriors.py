"""The float64 baseline of ``audit`` on independent records under Laplace noise for
ibcdp and distributional-dp of a binary target: the closed forms of
``pdpsym.audit.product_posteriors`` in float64, with no certificate.

    python benchmarks/float_product_posteriors.py MODEL.json LAM EPS TARGET NOTION [KNOWN,...]

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


def main() -> None:
    """Print the notion's δ at ε."""
    path, lam, eps, target, notion = sys.argv[1:6]
    known = set(sys.argv[6].split(",")) if len(sys.argv) > 6 else set()
    obj = json.loads(Path(path).read_text())
    ps = [int(a) / int(b) for a, b in (p.split("/") for p in obj["bernoulli"])]
    names = [f"x{j + 1}" for j in range(len(ps))]
    if notion == "ibcdp":
        print(ibcdp(ps[names.index(target)], float(lam), float(eps)))
        return
    rest = np.array([p for v, p in zip(names, ps, strict=True) if v != target and v not in known])
    print(distributional(count_law(rest), float(lam), float(eps)))


if __name__ == "__main__":
    main()

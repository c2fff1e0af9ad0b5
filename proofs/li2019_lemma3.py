"""li2019.lemma3 -- Li et al. 2019 (prior differential privacy), Appendix B, Lemma 3.

Claim. For a binary ``x_i ∈ {l, h}`` (``h > l``) taking both values, the correlation
``ρ(x_i, x_j)`` has the sign of ``E[x_j | x_i = h] - E[x_j | x_i = l]``.

Argument. Let ``p = P(x_i = h) ∈ (0, 1)`` and ``m_h, m_l`` the conditional means of
``x_j``.
1. ``E[x_i x_j] = p h m_h + (1 - p) l m_l``, ``E[x_i] = p h + (1 - p) l``,
   ``E[x_j] = p m_h + (1 - p) m_l`` (the law of total expectation).
2. ``cov = E[x_i x_j] - E[x_i] E[x_j] = p (1 - p)(h - l)(m_h - m_l)`` identically
   (checked symbolically).
3. ``p(1 - p) > 0``, ``h - l > 0`` and the standard deviations are positive, so
   ``sign(ρ) = sign(m_h - m_l)``.
The 50-digit spot check computes the covariance from the six cells of a random 2x3 table
(values of ``x_j`` random) and compares it with the right side of step 2.
"""

from __future__ import annotations

import sympy as sp
from spot import holds_at_random_points, positive_rational, rational, run

CLAIM = "li2019.lemma3"


def main() -> bool:
    """Lemma 3; True when every step holds."""
    p = sp.Symbol("p", positive=True)
    lo, mh, ml = sp.symbols("l m_h m_l", real=True)
    g = sp.Symbol("g", positive=True)  # h - l
    hi = lo + g
    cov = p * hi * mh + (1 - p) * lo * ml - (p * hi + (1 - p) * lo) * (p * mh + (1 - p) * ml)
    assert sp.expand(cov - p * (1 - p) * g * (mh - ml)) == 0, "step 2"
    # spot check on a 2x3 table of weights c[x_i][k], x_j values y_k
    c = [sp.symbols("c0_1:4"), sp.symbols("c1_1:4")]
    ys = sp.symbols("y1:4")
    xs = (lo, hi)
    total = sum(sum(row) for row in c)
    e_ij = sum(xs[a] * ys[k] * c[a][k] for a in (0, 1) for k in range(3)) / total
    e_i = sum(xs[a] * c[a][k] for a in (0, 1) for k in range(3)) / total
    e_j = sum(ys[k] * c[a][k] for a in (0, 1) for k in range(3)) / total
    pv = sum(c[1]) / total
    m = [sum(y * w for y, w in zip(ys, c[a], strict=True)) / sum(c[a]) for a in (0, 1)]
    draws = [(x, positive_rational) for row in c for x in row]
    draws += [(x, rational) for x in (*ys, lo)] + [(g, positive_rational)]
    return holds_at_random_points(e_ij - e_i * e_j, pv * (1 - pv) * g * (m[1] - m[0]), draws)


if __name__ == "__main__":
    run(CLAIM, main)

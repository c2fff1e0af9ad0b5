"""li2019.eq16 -- Li et al. 2019 (prior differential privacy), Section V, Eq. 16.

Claim. With every increment ratio ``|q| <= 1`` (Theorem 3(1)), the leakage computed along
the weighted hierarchical graph (each node ``A(i, K \\ {j})`` the minimum over its
children of ``|V + q Δ_j / λ|``) is at most the group-DP value
``Σ over {i} ∪ U of Δ_k / λ``.

Argument (induction over the layers).
1. Layer 1 (``U`` empty) has value ``Δ_i / λ``, the bound.
2. ``|V + w| <= V + |w|`` for ``V >= 0`` and either sign of ``w`` (three cases: ``w >= 0``;
   ``-V <= w <= 0``; ``w <= -V``), checked symbolically.
3. A node's value is at most ``|V + w|`` for any one child of value ``V <= B`` (``B`` the
   child's bound), and ``w = q Δ_j/λ`` with ``|q| <= 1``: ``(B + Δ_j/λ) - (V + |q|
   Δ_j/λ) = (B - V) + (1 - |q|) Δ_j/λ >= 0``. The bound grows by exactly ``Δ_j / λ``.
The 50-digit spot check follows random chains of four steps with ``|q| <= 1``.
"""

from __future__ import annotations

import sympy as sp
from spot import holds_at_random_points, positive_rational, run

CLAIM = "li2019.eq16"


def main() -> bool:
    """Eq. 16; True when every step holds."""
    V, d = sp.symbols("V Delta_j", nonnegative=True)
    lam = sp.Symbol("lam", positive=True)
    g = sp.Symbol("g", nonnegative=True)
    for v, w in ((V, g), (V + g, -V), (V, -(V + g))):
        assert sp.simplify(v + sp.Abs(w) - sp.Abs(v + w)).is_nonnegative, "step 2"
    q = sp.Symbol("q")
    B = sp.Symbol("B", nonnegative=True)
    step = (B + d / lam) - (V + sp.Abs(q) * d / lam)
    assert sp.expand(step - ((B - V) + (1 - sp.Abs(q)) * d / lam)) == 0, "step 3"
    ds, qs = list(sp.symbols("d0:5", positive=True)), list(sp.symbols("q1:5"))
    value = ds[0] / lam
    for dk, qk in zip(ds[1:], qs, strict=True):
        value = sp.Abs(value + qk * dk / lam)
    draws = [(x, positive_rational) for x in ds] + [(lam, positive_rational)]
    draws += [(x, lambda rng: sp.Rational(rng.randint(-40, 40), 40)) for x in qs]
    return holds_at_random_points(value, sum(ds) / lam, draws, "<=", points=12)


if __name__ == "__main__":
    run(CLAIM, main)

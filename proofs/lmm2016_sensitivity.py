"""lmm2016.sensitivity -- Liu et al. 2016 (dependent differential privacy), Section VI-A.

Claim (the worked example). Two dependent tuples with ``D_j = D_i/2 + X/2``, ``D_i`` and
``X`` in ``[0, 1]``: one tuple's sensitivity is ``ΔQ = 1``; changing ``D_i`` (``X`` held
fixed) moves ``D_j`` by at most ``1/2``; so the sensitivity of the sum over the dependent
pair is ``3/2``, not ``2 ΔQ = 2``. In the conditional (Eq. 11-12) reading, with ``D_i``
and ``X`` uniform on ``{0, 1/m, ..., 1}``, the sum plus ``Lap(1)`` has ``ε`` exactly 3/2.

Argument.
1. Each change is a linear form on a box; ``|·|`` of a linear form is convex, so its
   maximum over the box is at a vertex. Enumerating vertices: ``max |d_1 - d_2| = 1``;
   ``max |D_j(d_1, x) - D_j(d_2, x)| = 1/2``; the sum changes by
   ``(d_1 - d_2) + (d_1 - d_2)/2``, at most ``3/2 < 2``. (With ``X`` free as well, as in
   Definition 4 read literally, the maximum is 2.)
2. Conditional reading: given ``D_i = d`` the sum is ``3d/2 + X/2``, so the laws given
   ``D_i = 1`` and ``D_i = 0`` are the same mixture shifted by ``3/2``. Pairing terms,
   the triangle inequality bounds the Laplace ratio by ``e^{3/2}``, and beyond the support
   the ratio is exactly ``e^{3/2}`` (a symbolic identity); closer values of ``D_i`` shift
   less. So ``ε = 3/2``. (50-digit spot check of the termwise bound at random ``r`` and
   random three-point mixtures.)
3. Exact instances ``m = 1, 2, 3``: the sup of the Laplace log-ratio, taken over the
   support points (the breakpoint lemma), equals ``3/2`` exactly (``spot.sign`` on
   polynomials in ``e^{1/(2m)}``).
"""

from __future__ import annotations

import itertools

import sympy as sp
from spot import holds_at_random_points, positive_rational, rational, run, sign

CLAIM = "lmm2016.sensitivity"


def max_abs_over_box(expr: sp.Expr, symbols: list[sp.Symbol]) -> sp.Expr:
    """``max |expr|`` over ``[0, 1]^k`` for a linear ``expr``: a max over the vertices."""
    return max(
        abs(expr.subs(dict(zip(symbols, v, strict=True))))
        for v in itertools.product((0, 1), repeat=len(symbols))
    )


def main() -> bool:
    """The worked example; True when every step holds."""
    d1, d2, x, x2 = sp.symbols("d1 d2 x x2")

    def dj(d: sp.Expr, u: sp.Expr) -> sp.Expr:
        return (d + u) / 2

    R = sp.Rational
    assert max_abs_over_box(d1 - d2, [d1, d2]) == 1, "Delta Q"
    assert max_abs_over_box(dj(d1, x) - dj(d2, x), [d1, d2, x]) == R(1, 2), "Delta D_j"
    pair = max_abs_over_box((d1 + dj(d1, x)) - (d2 + dj(d2, x)), [d1, d2, x])
    assert pair == R(3, 2) and pair < 2, "sum over the pair"
    free = max_abs_over_box((d1 + dj(d1, x)) - (d2 + dj(d2, x2)), [d1, d2, x, x2])
    assert free == 2, "X free"
    # step 2: beyond the support the shifted mixture's ratio is e^{3/2}
    k, N = sp.symbols("k N", integer=True, positive=True)
    w, s = sp.IndexedBase("w", positive=True), sp.IndexedBase("s", real=True)
    r = sp.Symbol("r", real=True)
    shifted = sp.Sum(w[k] * sp.exp(-(r - R(3, 2) - s[k])), (k, 1, N))
    plain = sp.Sum(w[k] * sp.exp(-(r - s[k])), (k, 1, N))
    assert sp.simplify(shifted - sp.exp(R(3, 2)) * plain) == 0, "step 2: right tail"
    ws, ss = sp.symbols("w1:4"), sp.symbols("s1:4")
    far = sum(w * sp.exp(-sp.Abs(r - R(3, 2) - t)) for w, t in zip(ws, ss, strict=True))
    near = sum(w * sp.exp(-sp.Abs(r - t)) for w, t in zip(ws, ss, strict=True))
    draws = [(v, positive_rational) for v in ws] + [(v, rational) for v in (*ss, r)]
    assert holds_at_random_points(far, sp.exp(R(3, 2)) * near, draws, "<=", points=12)
    # step 3: exact instances
    for m in (1, 2, 3):
        xs = [R(j, m) for j in range(m + 1)]
        one = [R(3, 2) + u / 2 for u in xs]
        zero = [u / 2 for u in xs]
        best = None
        for rr in sorted(set(one + zero)):
            num = sum(sp.exp(-abs(rr - p)) for p in one)
            den = sum(sp.exp(-abs(rr - p)) for p in zero)
            for ratio in (num / den, den / num):
                if best is None or sign(ratio - best, 2 * m) > 0:
                    best = ratio
        assert sign(best - sp.exp(R(3, 2)), 2 * m) == 0, f"eps = 3/2 at m = {m}"
    return True


if __name__ == "__main__":
    run(CLAIM, main)

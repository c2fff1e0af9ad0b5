"""Why the chain rule's Theorem 2 step is a *tail* value, and where Eq. 2 can exceed it.

For n = 2 binary tuples, sum query, lam = 1, the ancestor A(i, {}) has
    p(r | x_i) = sum_{x_j} theta(x_j | x_i) e^{-|r - x_i - x_j|}/2.
As r -> +inf the ratio p(r|1)/p(r|0) tends to e * M(1)/M(0) with M(a) = E[e^{x_j} | x_i = a]:
the log of that limit is 1 + d_j (Eq. 9, right tail), i.e. exactly the Theorem 2 step from the
bottom value 1 (Theorem 4). This script proves the limit symbolically and then shows, on the
minimal counterexample of li2019.thm2 (P(0,0) = P(1,0) = P(1,1) = 1/3, target x2), that the
sup of Eq. 2 is the LEFT tail (constant for r <= 0, the lowest support point), for the pair
(x2 = 0, x2' = 1), strictly above the right-tail step: the right-tail reading of Eq. 9 misses it.

Run: .venv/bin/python proofs/theorem2_step.py   (exit status 0 iff every check holds)
"""

from __future__ import annotations

import sys

import sympy as sp


def right_tail_is_the_step() -> bool:
    r = sp.symbols("r", positive=True)
    t0, t1 = sp.symbols("t0 t1", positive=True)  # theta(x_j = 1 | x_i = 0), (... | x_i = 1)

    def p(xi: int, t: sp.Expr) -> sp.Expr:
        # r > 2 >= every support point, so |r - s| = r - s
        return ((1 - t) * sp.exp(-(r - xi)) + t * sp.exp(-(r - xi - 1))) / 2

    ratio = sp.simplify(p(1, t1) / p(0, t0))
    step = sp.E * (1 - t1 + t1 * sp.E) / (1 - t0 + t0 * sp.E)
    return sp.simplify(ratio - step) == 0  # constant in r beyond the support: the limit


def counterexample_left_tail_sup() -> bool:
    # target x2, x1 unknown: theta(x1 | x2 = 0) = (1/2, 1/2), theta(x1 | x2 = 1) = (0, 1)
    def p(r: sp.Expr, x2: int) -> sp.Expr:
        th = {0: {0: sp.Rational(1, 2), 1: sp.Rational(1, 2)}, 1: {0: 0, 1: 1}}[x2]
        return sum(th[x1] * sp.exp(-abs(r - x1 - x2)) for x1 in (0, 1)) / 2

    values = {}
    for r in (-1, 0, 1, 2, 3):
        for a, b in ((0, 1), (1, 0)):
            values[(r, a, b)] = sp.log(sp.simplify(p(sp.Integer(r), a) / p(sp.Integer(r), b)))
    best = max(values, key=lambda k: float(values[k]))
    sup = values[best]
    step = sp.log(2 * sp.exp(2) / (1 + sp.E))  # |1 + d|, d = ln(e / ((1 + e)/2)) - ... (Eq. 11)
    ok_sup = best[0] <= 0 and sp.simplify(sup - sp.log(sp.E * (1 + sp.E) / 2)) == 0
    # constant on r <= 0 (the left tail)
    ok_sup = ok_sup and sp.simplify(values[(-1, 0, 1)] - values[(0, 0, 1)]) == 0
    gap = sp.simplify(sup - step)
    return bool(ok_sup and sp.N(gap, 30) > 0)


def main() -> bool:
    checks = {
        "right tail of Eq. 2 = Theorem 2 step (n = 2, binary)": right_tail_is_the_step(),
        "counterexample: Eq. 2 sup is the left tail, above the right-tail step": (
            counterexample_left_tail_sup()
        ),
    }
    for name, ok in checks.items():
        print(f"{'OK ' if ok else 'FAIL'} {name}")
    return all(checks.values())


if __name__ == "__main__":
    sys.exit(0 if main() else 1)

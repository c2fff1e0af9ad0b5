"""Li, Ren, Yang, Yang's edge weights of a WHG, from the definitions (no pdpsym import).

* Eq. 9: ``d_j(x_a, x_b) = ln sum_{x_j} theta(x_j|x_a, ctx) e^{x_j/lam} /
  sum_{x_j} theta(x_j|x_b, ctx) e^{x_j/lam}`` (the right-tail reading), ``q = lam d/Delta_j``;
  Eq. 10: every such value over the contexts.
* Pearson's rho of (x_i, x_j) given a context: its sign, exactly (the covariance).

Exact Fractions, or mpmath at 50 digits inside ``mpmath.workdps``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

import mpmath

from oracles.joint_table import Model, conditional


def _mp(q: Fraction) -> mpmath.mpf:
    return mpmath.mpf(q.numerator) / q.denominator


def edge_d(
    m: Model,
    target: str,
    j: str,
    ctx: dict[str, Fraction],
    xa: Fraction,
    xb: Fraction,
    lam: Fraction,
) -> mpmath.mpf:
    """Eq. 9 (right-tail reading), at 50 digits."""
    with mpmath.workdps(50):
        L = _mp(lam)
        mgf = [
            mpmath.fsum(
                _mp(p) * mpmath.exp(_mp(x) / L)
                for x, p in conditional(m, {**ctx, target: xv}, j).items()
            )
            for xv in (xa, xb)
        ]
        return mpmath.log(mgf[0]) - mpmath.log(mgf[1])


def edge_values(
    m: Model, target: str, j: str, context_vars: Sequence[str], lam: Fraction
) -> list[mpmath.mpf]:
    """Eq. 10: every d_j(x_a, x_b), x_a > x_b, over every context where both are possible."""
    names, cells = m
    out = []
    idx = [names.index(v) for v in context_vars]
    for ctx_vals in sorted({tuple(c[k] for k in idx) for c in cells}):
        ctx = dict(zip(context_vars, ctx_vals, strict=True))
        seen = sorted(set(conditional(m, ctx, target)))
        for xb, xa in itertools.combinations(seen, 2):
            out.append(edge_d(m, target, j, ctx, xa, xb, lam))
    return out


def covariance(m: Model, a: str, b: str, ctx: dict[str, Fraction]) -> Fraction:
    """cov(x_a, x_b | ctx), exactly; its sign is the sign of Pearson's rho."""
    names, cells = m
    sub = {c: p for c, p in cells.items() if all(c[names.index(v)] == x for v, x in ctx.items())}
    tot = sum(sub.values())
    ia, ib = names.index(a), names.index(b)
    ea = sum(c[ia] * p for c, p in sub.items()) / tot
    eb = sum(c[ib] * p for c, p in sub.items()) / tot
    return sum(c[ia] * c[ib] * p for c, p in sub.items()) / tot - ea * eb

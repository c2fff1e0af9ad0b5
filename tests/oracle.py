"""An independent brute-force re-computation of Li et al. Eq. 2 (test oracle only).

Written apart from the library path: it enumerates every database ``x`` from the model's
rows, forms the mixture densities directly with mpmath at 60 digits, and takes the max of
``|ln p(r|x_i,x_K) / p(r|x_i',x_K)|`` over a dense r-grid plus far tails -- no breakpoint
lemma, no screening, no exp-polynomials.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

from pdpsym.models.joint import JointDistribution


def eq2_bruteforce(
    model: JointDistribution,
    target: str,
    known: tuple[str, ...],
    lam: Fraction,
    weights: dict[str, Fraction] | None = None,
    step: Fraction = Fraction(1, 8),
) -> mpmath.mpf | None:
    names = model.variables
    w = weights or {v: Fraction(1) for v in names}
    i = names.index(target)
    K = [names.index(k) for k in known]
    groups: dict[tuple, dict[Fraction, list[tuple[Fraction, Fraction]]]] = {}
    for row, p in model.probs.items():
        f = sum((w.get(v, Fraction(0)) * x for v, x in zip(names, row)), Fraction(0))
        groups.setdefault(tuple(row[k] for k in K), {}).setdefault(row[i], []).append((f, p))
    fs = [f for g in groups.values() for lst in g.values() for f, _ in lst]
    lo, hi = min(fs) - 3, max(fs) + 3
    grid = []
    r = lo
    while r <= hi:
        grid.append(r)
        r += step
    grid += [lo - 40, hi + 40]
    best = None
    with mpmath.workdps(60):
        lam_m = mpmath.mpf(lam.numerator) / lam.denominator

        def dens(lst, r):
            tot = sum(p for _, p in lst)
            return mpmath.fsum(
                mpmath.mpf(p.numerator)
                / p.denominator
                / (mpmath.mpf(tot.numerator) / tot.denominator)
                * mpmath.exp(
                    -abs(
                        mpmath.mpf(r.numerator) / r.denominator
                        - mpmath.mpf(f.numerator) / f.denominator
                    )
                    / lam_m
                )
                for f, p in lst
            )

        for g in groups.values():
            vals = list(g)
            for a in vals:
                for b in vals:
                    if a == b:
                        continue
                    for r in grid:
                        v = mpmath.log(dens(g[a], r) / dens(g[b], r))
                        if best is None or v > best:
                            best = v
    return best

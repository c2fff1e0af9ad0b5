"""Distributional DP (Desfontaines et al. Definition 4), with the simulator found by LP.

``M`` is ``({θ}, ε)``-distributional-DP for record ``i`` when there is a simulator
``Sim`` that sees only the other records, with

    M(D) | D(i)=a, B=B̂   ≈_ε   Sim(D_{-i}) | D(i)=a, B=B̂

for every value ``a`` and known value ``B̂`` compatible with it (δ = 0). For a fixed
``t = e^ε`` the simulators form a polytope: with ``S_{a,B̂}(o) = Σ_r π_{a,B̂}(r) Sim(o | r)``
(``π`` the law of ``D_{-i}`` given ``a, B̂``) the conditions are the linear inequalities
``P_{a,B̂}(o) ≤ t S_{a,B̂}(o)`` and ``S_{a,B̂}(o) ≤ t P_{a,B̂}(o)``. Feasibility is decided by
an exact rational LP (sympy's simplex). The optimal ``t`` can be irrational (a geometric
mean of two output probabilities, say), so it is enclosed by bisection: the upper end
comes with a feasible simulator, the lower end is proved infeasible. Whether any finite
``t`` works is decided exactly first, from the supports.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy
from sympy.solvers.simplex import InfeasibleLPError, linprog

from pdpsym.mechanisms.finite import Mechanism, output_pmf
from pdpsym.models.scenario import Scenario


@dataclass(frozen=True)
class Enclosure:
    """``lo ≤ e^ε ≤ hi`` for the smallest ε (``hi`` None: no simulator works at all)."""

    lo: Fraction
    hi: Fraction | None
    simulator: Mapping[Any, Mapping[Any, Fraction]] | None


def _rest(d: tuple[Any, ...], i: int) -> tuple[Any, ...]:
    return d[:i] + d[i + 1 :]


def distributional_dp(
    sc: Scenario, mech: Mechanism, i: int, rel_width: Fraction = Fraction(1, 10**12)
) -> Enclosure:
    """Enclose the smallest ``e^ε`` of Definition 4 for record ``i`` (δ = 0).

    >>> from pdpsym.models.joint import JointDistribution
    >>> from pdpsym.mechanisms.discrete import randomized_response
    >>> m = JointDistribution.from_rows(["x1", "x2"], [[0, 0, "1/4"], [0, 1, "1/4"],
    ...                                                [1, 0, "1/4"], [1, 1, "1/4"]])
    >>> rr = randomized_response("3/4", m.domains)
    >>> e = distributional_dp(Scenario.from_model(m), rr, 0)
    >>> 1.7320508 < float(e.lo) <= float(e.hi) < 1.7320509   # e^eps = sqrt(3) here
    True

    The simulator at the upper end satisfies Definition 4 at ``t = hi`` (checked here
    directly: both records uniform and independent, so ``D_{-i} = x2`` is uniform):

    >>> def sim_out(a):  # law of Sim(x2) and of M(D) given x1 = a
    ...     s, p = {}, {}
    ...     for x2 in (0, 1):
    ...         for o, q in e.simulator[(x2,)].items():
    ...             s[o] = s.get(o, 0) + q / 2
    ...         for o, q in rr((a, x2)).items():
    ...             p[o] = p.get(o, 0) + q / 2
    ...     return s, p
    >>> all(p[o] <= e.hi * s.get(o, 0) and s.get(o, 0) <= e.hi * p[o]
    ...     for a in (0, 1) for s, p in [sim_out(a)] for o in p)
    True
    """
    groups = []  # (P_{a,B̂}, π_{a,B̂})
    for bhat in sc.knowledge_values():
        for a in sc.record_values(i):
            if not sc.compatible(i, a, bhat):
                continue
            pi: dict[Any, Fraction] = {}
            for d, p in sc.conditional(i, a, bhat).items():
                r = _rest(d, i)
                pi[r] = pi.get(r, Fraction(0)) + p
            groups.append((output_pmf(sc, mech, i, a, bhat), pi))
    rs = sorted({r for _, pi in groups for r in pi}, key=repr)
    outs = sorted({o for p, _ in groups for o in p}, key=repr)
    # finiteness, exactly: Sim(o|r) must vanish where some group sees r but not o
    allowed = {
        r: [o for o in outs if all(p.get(o, 0) > 0 for p, pi in groups if pi.get(r, 0) > 0)]
        for r in rs
    }
    if any(not allowed[r] for r in rs) or any(
        not any(pi.get(r, 0) > 0 and o in allowed[r] for r in rs)
        for p, pi in groups
        for o in p
        if p[o] > 0
    ):
        return Enclosure(Fraction(1), None, None)
    var = {(r, o): k for k, (r, o) in enumerate((r, o) for r in rs for o in allowed[r])}

    def feasible(t: Fraction) -> dict[Any, dict[Any, Fraction]] | None:
        rows, rhs = [], []
        for p, pi in groups:
            for o in outs:
                coeff = [sympy.Integer(0)] * len(var)
                for r, w in pi.items():
                    if (r, o) in var:
                        coeff[var[(r, o)]] = sympy.Rational(w)
                po = sympy.Rational(p.get(o, 0))
                tt = sympy.Rational(t)
                rows.append([-tt * c for c in coeff])  # P - t S <= 0
                rhs.append(-po)
                rows.append(list(coeff))  # S - t P <= 0
                rhs.append(tt * po)
        eq = [[1 if rr == r else 0 for (rr, _) in var] for r in rs]
        try:
            _, sol = linprog(
                sympy.Matrix([0] * len(var)),
                sympy.Matrix(rows),
                sympy.Matrix(rhs),
                sympy.Matrix(eq),
                sympy.Matrix([1] * len(rs)),
            )
        except InfeasibleLPError:
            return None
        sim: dict[Any, dict[Any, Fraction]] = {}
        for (r, o), k in var.items():
            x = sympy.Rational(sol[k])
            v = Fraction(int(x.p), int(x.q))
            if v:
                sim.setdefault(r, {})[o] = v
        return sim

    if (s := feasible(Fraction(1))) is not None:
        return Enclosure(Fraction(1), Fraction(1), s)
    lo, hi = Fraction(1), Fraction(2)
    best = feasible(hi)
    while best is None:
        lo, hi = hi, hi * hi
        best = feasible(hi)
    while (hi - lo) > rel_width * lo:
        mid = (lo + hi) / 2
        # keep the bracket's endpoints short
        mid = Fraction(round(mid * 2**48), 2**48) if mid.denominator > 2**48 else mid
        s = feasible(mid)
        if s is None:
            lo = mid
        else:
            hi, best = mid, s
    return Enclosure(lo, hi, best)

"""Desfontaines et al.'s Definitions 17 (Dep) and 18 ((μ, ν)-bounded dependency), from the
definitions (no pdpsym import): ν(μ) is the expectation over θ|D(i)=a, B̂ of
``max(0, 1 - e^{μ - Dep})``; Dep is read with equal infinities cancelling and as 0 where
(B̂, M1 = O1) is impossible under D(i) = b. Exact Fractions.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction

from oracles.partial_knowledge import Db, Scenario, deterministic, output_law


def nu_bounded_dependence(
    scn: Scenario,
    m1: Callable[[Db], Hashable],
    m2: Callable[[Db], Hashable],
    i: int,
    a: Hashable,
    b: Hashable,
    e_mu: Fraction,
) -> Fraction:
    """Definition 18's expectation for deterministic M1, M2, no partial knowledge."""

    def law(cond: Callable[[Db], bool], fn: Callable[[Db], Hashable]) -> dict[Hashable, Fraction]:
        return output_law(scn, deterministic(fn), cond)

    at_a, at_b = (lambda d: d[i] == a), (lambda d: d[i] == b)
    pair = lambda d: (m1(d), m2(d))  # noqa: E731
    pa, pb = law(at_a, pair), law(at_b, pair)
    o1a, o1b = law(at_a, m1), law(at_b, m1)
    o2a, o2b = law(at_a, m2), law(at_b, m2)
    total = Fraction(0)
    for (O1, O2), p in pa.items():
        if o1b.get(O1, 0) == 0:
            continue  # (B̂, M1 = O1) impossible under D(i) = b: Dep read as 0, term 0
        first_den = pb.get((O1, O2), Fraction(0)) / o1b[O1]
        first_num = p / o1a[O1]
        second_den = o2b.get(O2, Fraction(0))
        if first_den == 0 and second_den == 0:
            e_dep: Fraction | None = Fraction(1)  # ∞ - ∞ = 0
        elif first_den == 0:
            e_dep = None  # +∞
        else:
            e_dep = (first_num / first_den) / (o2a[O2] / second_den)
        term = Fraction(1) if e_dep is None else max(Fraction(0), 1 - e_mu / e_dep)
        total += p * term
    return total

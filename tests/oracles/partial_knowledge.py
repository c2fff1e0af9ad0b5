"""Desfontaines, Mohammadi, Krahmer, Basin's partial-knowledge setting, written from the
paper's definitions only (no pdpsym import).

A finite scenario is a list of (database, probability) with databases as tuples; a
mechanism is a function database -> {output: probability}. Everything is Fractions.

* the law of the output given an event on the database (Definition 11's conditionals);
* Definition 5 (CDP, ε = 0): ``M(D)|D(i)=a`` equals ``M(D_{i→b})|D(i)=a``, read through
  :func:`output_law`;
* (conditional) independence of two functions of the database, exactly.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable
from fractions import Fraction

Db = tuple[Hashable, ...]
Scenario = list[tuple[Db, Fraction]]
Mech = Callable[[Db], dict[Hashable, Fraction]]


def product_scenario(records: list[dict[Hashable, Fraction]]) -> Scenario:
    """Independent records with the given laws."""
    out = []
    for cells in itertools.product(*(r.items() for r in records)):
        out.append(
            (tuple(v for v, _ in cells), math.prod((p for _, p in cells), start=Fraction(1)))
        )
    return out


def deterministic(fn: Callable[[Db], Hashable]) -> Mech:
    return lambda d: {fn(d): Fraction(1)}


def output_law(
    scn: Scenario, mech: Mech, cond: Callable[[Db], bool] = lambda d: True
) -> dict[Hashable, Fraction]:
    """P[M(D) = O | cond(D)], exactly."""
    tot = sum(p for d, p in scn if cond(d))
    out: dict[Hashable, Fraction] = {}
    for d, p in scn:
        if cond(d):
            for o, q in mech(d).items():
                out[o] = out.get(o, Fraction(0)) + p * q / tot
    return out


def independent(
    scn: Scenario,
    f: Callable[[Db], Hashable],
    g: Callable[[Db], Hashable],
    cond: Callable[[Db], bool] = lambda d: True,
) -> bool:
    """Whether f(D) and g(D) are independent under θ | cond, exactly."""
    F = output_law(scn, deterministic(f), cond)
    G = output_law(scn, deterministic(g), cond)
    FG = output_law(scn, deterministic(lambda d: (f(d), g(d))), cond)
    return all(FG.get((x, y), 0) == px * py for x, px in F.items() for y, py in G.items())


def conditionally_independent(
    scn: Scenario, f: Callable[[Db], Hashable], g: Callable[[Db], Hashable], i: int
) -> bool:
    """Whether f(D) ⊥ g(D) under θ | D(i) = a for every value a of positive probability."""
    values = {d[i] for d, p in scn if p > 0}
    return all(independent(scn, f, g, lambda d, a=a: d[i] == a) for a in values)

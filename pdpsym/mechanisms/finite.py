"""Finite mechanisms with exact PMFs (Desfontaines et al. Sections 2-3, Table 1).

A mechanism ``M`` maps a database (a tuple of records) to an exact distribution over
outputs, possibly the special output ``⊥``: a callable ``D -> {output: probability}``.
This module builds them (deterministic, table, composition, post-processing, mixture),
pushes a :class:`~pdpsym.models.scenario.Scenario` through one (:func:`output_pmf`),
and draws small random scenarios and mechanisms for the checkers.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from pdpsym.models.scenario import PMF, Database, Scenario, check_pmf

BOTTOM = "⊥"

Mechanism = Callable[[Database], Mapping[Any, Fraction]]


# --- mechanisms ------------------------------------------------------------------


def deterministic(f: Callable[[Database], Any]) -> Mechanism:
    """The mechanism that outputs ``f(D)`` with probability 1."""

    def mech(d: Database) -> PMF:
        return {f(d): Fraction(1)}

    return mech


def output_pmf(scenario: Scenario, mech: Mechanism, i: int, a: Any, bhat: Any | None = None) -> PMF:
    """``P[M(D) = . | D(i) = a, B = bhat]`` (``bhat=None``: not conditioned on B)."""
    out: PMF = {}
    for d, p in scenario.conditional(i, a, bhat).items():
        for o, q in mech(d).items():  # type: ignore[arg-type]
            if q:
                out[o] = out.get(o, Fraction(0)) + p * Fraction(q)
    return out


def compose(m1: Mechanism, m2: Mechanism) -> Mechanism:
    """``M(D) = (M1(D), M2(D))`` with independent internal randomness (Theorem 6)."""

    def mech(d: Database) -> PMF:
        return {(o1, o2): p1 * p2 for o1, p1 in m1(d).items() for o2, p2 in m2(d).items()}

    return mech


def post_process(m: Mechanism, f: Callable[[Any], Mapping[Any, Fraction]]) -> Mechanism:
    """``f(M(D))`` for a (possibly randomized) post-processing kernel ``f`` (Proposition 5)."""

    def mech(d: Database) -> PMF:
        out: PMF = {}
        for o, p in m(d).items():
            for o2, q in f(o).items():
                out[o2] = out.get(o2, Fraction(0)) + Fraction(p) * Fraction(q)
        return out

    return mech


def mixture(m1: Mechanism, m2: Mechanism, p: Fraction) -> Mechanism:
    """Run ``M1`` with probability ``p`` and ``M2`` otherwise (the convexity axiom)."""

    def mech(d: Database) -> PMF:
        out: PMF = {}
        for o, q in m1(d).items():
            out[o] = out.get(o, Fraction(0)) + p * Fraction(q)
        for o, q in m2(d).items():
            out[o] = out.get(o, Fraction(0)) + (1 - p) * Fraction(q)
        return out

    return mech


# --- generators for checks (exact, seeded) ------------------------------------------------


def random_pmf(rng: Any, keys: Sequence[Any], denominator: int, positive: bool) -> PMF:
    """A random exact PMF on ``keys`` with the given denominator (all > 0 if ``positive``)."""
    k = len(keys)
    if positive:
        denominator = max(denominator, k)
        cuts = sorted(rng.sample(range(1, denominator), k - 1))
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, denominator], strict=True)]
    else:
        cuts = sorted(rng.randint(0, denominator) for _ in range(k - 1))
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, denominator], strict=True)]
    return {key: Fraction(c, denominator) for key, c in zip(keys, parts, strict=True) if c}


def random_scenario(rng: Any, n: int | None = None, correlated: bool | None = None) -> Scenario:
    """A small random θ over binary records: independent with known records, or a full-support
    correlated joint with a binary partial knowledge (every B̂ compatible with every D(i))."""
    n = n if n is not None else rng.choice([2, 2, 3])
    correlated = correlated if correlated is not None else rng.random() < 0.5
    dbs = list(itertools.product((0, 1), repeat=n))
    if not correlated:
        ps = [Fraction(rng.randint(1, 5), 6) for _ in range(n)]
        known = [j for j in range(1, n) if rng.random() < 0.5]
        return Scenario.bernoulli(ps, known)
    keys = [(d, b) for d in dbs for b in (0, 1)]
    return Scenario.from_joint(random_pmf(rng, keys, rng.choice([24, 36, 48]), positive=True))


def random_mechanism(
    rng: Any, n: int, outputs: Sequence[Any] = (0, 1, 2, BOTTOM)
) -> tuple[Mechanism, dict[Database, PMF]]:
    """A random mechanism on binary databases of ``n`` records (deterministic or randomized)."""
    table: dict[Database, PMF] = {}
    det = rng.random() < 0.4
    for d in itertools.product((0, 1), repeat=n):
        if det:
            table[d] = {rng.choice(list(outputs)): Fraction(1)}
        else:
            table[d] = random_pmf(rng, list(outputs), rng.choice([2, 3, 4]), positive=False)

    def mech(d: Database) -> PMF:
        return table[d]

    return mech, table


def check_law(pmf: Mapping[Any, Any], field: str) -> None:
    """Raise :class:`~pdpsym.core.errors.InputError` naming ``field`` unless ``pmf`` is a
    probability law: exact rationals, non-negative, summing to exactly 1. (A sub- or
    super-probability row would otherwise give a silently wrong delta, such as 0.)"""
    check_pmf(pmf, field)


def check_mechanism(scenario: Scenario, mech: Mechanism, field: str = "mech") -> None:
    """Every database of the scenario's support is mapped to a probability law."""
    seen: set[Database] = set()
    for (d, _), p in scenario.joint.items():
        if p and d not in seen:
            seen.add(d)
            check_law(mech(d), f"{field}[{d!r}]")


def table_mechanism(table: Mapping[Database, Mapping[Any, Fraction]]) -> Mechanism:
    """The mechanism given by an explicit table ``D -> PMF``; every row must be a
    probability law (an :class:`~pdpsym.core.errors.InputError` naming the row if not)."""
    for d, row in table.items():
        check_law(row, f"table[{d!r}]")

    def mech(d: Database) -> Mapping[Any, Fraction]:
        return table[d]

    return mech

"""Finite data-generating distributions and mechanisms with exact PMFs (Desfontaines et al.).

Desfontaines, Mohammadi, Krahmer, Basin, "Differential privacy with partial knowledge",
Sections 2-3 and Table 1: a distribution ``theta`` generates a database ``D`` of ``n``
records together with the attacker's partial knowledge ``B``; a mechanism ``M`` maps a
database to a distribution over outputs (possibly the special output ``⊥``).

Here both are finite and exact:

* a :class:`Scenario` is a PMF over pairs ``(D, B)`` with rational probabilities summing
  to exactly 1 (``D`` a tuple of ``n`` hashable records, ``B`` any hashable value);
  constructors cover independent records (Bernoulli / Poisson-binomial or arbitrary
  per-record PMFs) with ``B`` = the records at a fixed index set ("k fixed records",
  Proposition 6), and arbitrary exact joints;
* a mechanism is a callable ``D -> {output: probability}`` (an exact conditional PMF).

Conditioning ``theta | D(i)=a, B=b`` is exact. Conditioning on an event of probability
zero is refused (the paper's "compatible" condition, Definition 3).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pdpsym.core.errors import InputError

BOTTOM = "⊥"

Database = tuple[Any, ...]
PMF = dict[Any, Fraction]
Mechanism = Callable[[Database], Mapping[Any, Fraction]]


def check_pmf(pmf: Mapping[Any, Any], field: str) -> PMF:
    """Validate an exact PMF: rational, non-negative, summing to exactly 1; drop zeros."""
    out: PMF = {}
    total = Fraction(0)
    for k, p in pmf.items():
        if not isinstance(p, Fraction | int) or isinstance(p, bool):
            raise InputError(field, f"probability of {k!r} is not an exact rational: {p!r}")
        p = Fraction(p)
        if p < 0:
            raise InputError(field, f"negative probability {p} for {k!r}")
        total += p
        if p:
            out[k] = out.get(k, Fraction(0)) + p
    if total != 1:
        raise InputError(field, f"probabilities sum to {total}, not 1")
    return out


@dataclass(frozen=True, eq=False)
class Scenario:
    """An exact distribution ``theta`` over ``(D, B)``: database and partial knowledge."""

    n: int
    joint: Mapping[tuple[Database, Any], Fraction]

    # --- constructors ------------------------------------------------------------

    @classmethod
    def from_joint(cls, joint: Mapping[tuple[Database, Any], Any]) -> Scenario:
        pmf = check_pmf(joint, "theta")
        sizes = {len(d) for d, _ in pmf}
        if len(sizes) != 1:
            raise InputError("theta", "databases must all have the same number of records")
        return cls(sizes.pop(), pmf)

    @classmethod
    def from_databases(
        cls,
        databases: Mapping[Database, Any],
        knowledge: Callable[[Database], Any] = lambda d: (),
    ) -> Scenario:
        """``theta`` from a PMF over databases and a deterministic partial knowledge ``B(D)``."""
        pmf = check_pmf(databases, "theta")
        joint: dict[tuple[Database, Any], Fraction] = {}
        for d, p in pmf.items():
            key = (tuple(d), knowledge(tuple(d)))
            joint[key] = joint.get(key, Fraction(0)) + p
        return cls.from_joint(joint)

    @classmethod
    def independent(
        cls, records: Sequence[Mapping[Any, Any]], known: Iterable[int] = ()
    ) -> Scenario:
        """Independent records with the given PMFs; ``B`` = the records at ``known``."""
        pmfs = [check_pmf(r, f"records[{k}]") for k, r in enumerate(records)]
        known_idx = tuple(sorted(set(known)))
        for j in known_idx:
            if not 0 <= j < len(pmfs):
                raise InputError("known", f"index {j} out of range")
        dbs: dict[Database, Fraction] = {}
        for combo in itertools.product(*(sorted(p.items(), key=repr) for p in pmfs)):
            prob = Fraction(1)
            for _, p in combo:
                prob *= p
            dbs[tuple(v for v, _ in combo)] = prob
        return cls.from_databases(dbs, lambda d: tuple(d[j] for j in known_idx))

    @classmethod
    def bernoulli(cls, ps: Sequence[Any], known: Iterable[int] = ()) -> Scenario:
        """Independent Bernoulli(p_i) records (Poisson-binomial count); ``B`` = known records."""
        recs = []
        for k, p in enumerate(ps):
            p = Fraction(p)
            if not 0 <= p <= 1:
                raise InputError(f"p[{k}]", "must lie in [0, 1]")
            recs.append({0: 1 - p, 1: p})
        return cls.independent(recs, known)

    # --- queries -----------------------------------------------------------------

    def record_values(self, i: int) -> list[Any]:
        """Values of ``D(i)`` with positive probability, in a stable order."""
        return sorted({d[i] for d, _ in self.joint}, key=repr)

    def knowledge_values(self) -> list[Any]:
        return sorted({b for _, b in self.joint}, key=repr)

    def prob_record(self, i: int, a: Any) -> Fraction:
        return sum((p for (d, _), p in self.joint.items() if d[i] == a), Fraction(0))

    def prob_knowledge_given(self, i: int, a: Any, bhat: Any) -> Fraction:
        """``P[B = bhat | D(i) = a]``."""
        pa = self.prob_record(i, a)
        if pa == 0:
            raise InputError("a", f"D({i}) = {a!r} has probability zero")
        num = sum((p for (d, b), p in self.joint.items() if d[i] == a and b == bhat), Fraction(0))
        return num / pa

    def compatible(self, i: int, a: Any, bhat: Any) -> bool:
        """``P[B = bhat, D(i) = a] != 0`` (Definition 3)."""
        return any(d[i] == a and b == bhat for (d, b) in self.joint)

    def conditional(self, i: int, a: Any, bhat: Any | None = None) -> PMF:
        """``P[D = . | D(i) = a]`` or ``P[D = . | D(i) = a, B = bhat]`` over databases."""
        sel: dict[Any, Fraction] = {}
        for (d, b), p in self.joint.items():
            if d[i] == a and (bhat is None or b == bhat):
                sel[d] = sel.get(d, Fraction(0)) + p
        total = sum(sel.values(), Fraction(0))
        if total == 0:
            raise InputError("condition", f"D({i})={a!r}, B={bhat!r} has probability zero")
        return {d: p / total for d, p in sel.items()}

    def conditional_joint(self, i: int, a: Any) -> dict[tuple[Database, Any], Fraction]:
        """``P[D = ., B = . | D(i) = a]``."""
        pa = self.prob_record(i, a)
        if pa == 0:
            raise InputError("a", f"D({i}) = {a!r} has probability zero")
        return {(d, b): p / pa for (d, b), p in self.joint.items() if d[i] == a}

    def fully_compatible(self, i: int) -> bool:
        """Every B value of positive probability is compatible with every value of D(i)."""
        values = self.record_values(i)
        return all(self.compatible(i, a, b) for a in values for b in self.knowledge_values())


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


def table_mechanism(table: Mapping[Database, Mapping[Any, Fraction]]) -> Mechanism:
    """The mechanism given by an explicit table ``D -> PMF``."""

    def mech(d: Database) -> Mapping[Any, Fraction]:
        return table[d]

    return mech

"""A finite scenario: records and the attacker's partial knowledge (Desfontaines et al.).

Desfontaines, Mohammadi, Krahmer, Basin, "Differential privacy with partial knowledge",
Sections 2-3 and Table 1: a distribution ``theta`` generates a database ``D`` of ``n``
records together with the attacker's partial knowledge ``B``. A :class:`Scenario` is
that distribution, exact and finite: a PMF over pairs ``(D, B)`` with rational
probabilities summing to exactly 1 (``D`` a tuple of ``n`` records, ``B`` any hashable
value). Li et al.'s adversary ``A(i, K)`` is the scenario whose ``B`` is the records in
``K`` (:meth:`Scenario.from_model`).

Conditioning ``theta | D(i)=a, B=b`` is exact. Conditioning on an event of probability
zero is refused (the paper's "compatible" condition, Definition 3).

>>> from pdpsym.models.joint import JointDistribution
>>> m = JointDistribution.from_rows(["x1", "x2"], [[0, 0, "1/2"], [1, 1, "1/2"]])
>>> sc = Scenario.from_model(m, knowledge=["x2"])
>>> sc.n, sc.index("x1"), sc.knowledge_values()
(2, 0, [(Fraction(0, 1),), (Fraction(1, 1),)])
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pdpsym.core.errors import InputError

if TYPE_CHECKING:  # only for annotations; joint does not import this module
    from pdpsym.models.joint import JointDistribution

Database = tuple[Any, ...]
#: a finite law: outcome -> probability (exact); the one definition of the package
PMF = dict[Any, Fraction]


def check_pmf(pmf: Mapping[Any, Any], field: str) -> PMF:
    """Validate an exact PMF: rational, non-negative, summing to exactly 1; drop zeros.

    Args:
        pmf: outcome -> probability (Fraction or int; floats are refused).
        field: the field an :class:`InputError` names.

    Returns:
        The PMF without its zero entries (equal keys merged).

    References:
        Desfontaines et al., Section 2.1, Definition 3 (a distribution ``theta`` on
        databases times background knowledge, ``D x B``).
    """
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
    """An exact distribution ``theta`` over ``(D, B)``: database and partial knowledge.

    Examples:
        >>> import pdpsym as ps
        >>> m = ps.JointDistribution.from_rows(["x1", "x2"], [[0, 0, "1/2"], [1, 1, "1/2"]])
        >>> ps.Scenario.from_model(m, knowledge=["x2"]).n
        2
    """

    n: int
    joint: Mapping[tuple[Database, Any], Fraction]
    names: tuple[str, ...] | None = None

    # --- constructors ------------------------------------------------------------

    @classmethod
    def from_joint(cls, joint: Mapping[tuple[Database, Any], Any]) -> Scenario:
        """Build from ``{(database, knowledge): probability}`` (checked by :func:`check_pmf`)."""
        pmf = check_pmf(joint, "theta")
        sizes = {len(d) for d, _ in pmf}
        if len(sizes) != 1:
            raise InputError("theta", "databases must all have the same number of records")
        return cls(sizes.pop(), pmf)

    @classmethod
    def from_model(cls, model: JointDistribution, knowledge: Sequence[str] = ()) -> Scenario:
        """Records = the model's variables; ``B`` = the values of the ``knowledge`` ones.

        This is Li et al.'s adversary ``A(i, K)`` with ``K = knowledge`` as a scenario
        of Desfontaines et al. (``B`` = the known records, Definition 12).
        """
        names = tuple(model.variables)
        known = [str(k) for k in knowledge]
        for k in known:
            if k not in names:
                raise InputError("knowledge", f"unknown variable {k!r}")
        if len(set(known)) != len(known):
            twice = next(k for k in known if known.count(k) > 1)
            raise InputError("knowledge", f"the variable {twice!r} is named twice")
        idx = [names.index(k) for k in known]
        joint: dict[tuple[Database, Any], Fraction] = {}
        for row, p in model.probs.items():
            if p:
                d = tuple(row)
                joint[(d, tuple(d[j] for j in idx))] = p
        sc = cls.from_joint(joint)
        return cls(sc.n, sc.joint, names)

    def index(self, name: str) -> int:
        """The position of the record called ``name`` (scenarios built from a model)."""
        if self.names is None or name not in self.names:
            raise InputError("target", f"unknown record {name!r}")
        return self.names.index(name)

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
        """Values of the background knowledge ``B`` with positive probability, in a stable order."""
        return sorted({b for _, b in self.joint}, key=repr)

    def prob_record(self, i: int, a: Any) -> Fraction:
        """``P[D(i) = a]``."""
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

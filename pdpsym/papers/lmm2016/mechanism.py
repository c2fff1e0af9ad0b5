"""Dependent differential privacy as an exact check of finite mechanisms (Liu et al.).

Databases are assignments ``D = (D_1, ..., D_n)`` in the product of the finite domains of a
:class:`~pdpsym.models.joint.JointDistribution` ``theta`` (the relationship R). A
:class:`FiniteMechanism` gives an exact PMF per database; the Laplace mechanism
``Q(D) + Lap(b)`` and Theorem 7's baseline are in :mod:`pdpsym.papers.lmm2016.laplace`.

Definition 4 (Eq. 12 of Sec. V) is read two ways
(:class:`~pdpsym.models.neighbours.DDPReading`):

* ``NEIGHBOURS`` (Definition 4 as printed): ``max P(A(D)=S) / P(A(D')=S) <= e^eps`` over
  dependent neighbouring databases (Definition 3): ``D_i != D'_i`` and ``D, D'`` agree
  outside the dependence set ``N_i`` of :mod:`pdpsym.models.neighbours`.
* ``NEIGHBOURS_IN_SUPPORT``: the same, with both databases of positive probability under
  R (the change of D_i "causes" the other changes through R).
* ``CONDITIONAL`` (Eq. 11-12 of Sec. VI-B, "according to Definition 4"): the adversary
  knows R, so ``P(A(D)=S | D_i=d1) / P(A(D)=S | D_i=d2) <= e^eps`` for every tuple i and
  values d1, d2 of positive probability (a Pufferfish instance).

A :class:`~pdpsym.models.neighbours.DDPNeighbours` carries one reading with the
dependence sets it uses (explicit, or read by
:class:`~pdpsym.models.neighbours.DependenceReading`); its
:meth:`~pdpsym.models.neighbours.DDPNeighbours.pairs` are the pairs the neighbour
readings compare.

For a finite mechanism the DDP level is ``gamma = max ratio`` (``eps = ln gamma``), a
rational or unbounded (``None``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.core.eps import ExpRatio, ratio_log
from pdpsym.core.errors import InputError
from pdpsym.models.joint import JointDistribution
from pdpsym.models.neighbours import (
    DEFINITION4,
    Database,
    DDPNeighbours,
    DDPReading,
    DependenceReading,
    databases,
)

Level = ExpRatio  # gamma = max probability ratio; None = unbounded


# --- finite mechanisms ----------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class FiniteMechanism:
    """An exact PMF over outputs for every database."""

    table: Mapping[Database, Mapping[Hashable, Fraction]]

    def __post_init__(self) -> None:
        for d, pmf in self.table.items():
            if any(p < 0 for p in pmf.values()) or sum(pmf.values()) != 1:
                raise InputError("mechanism", f"output probabilities at {d} are not a PMF")

    @classmethod
    def from_function(
        cls, theta: JointDistribution, fn: Callable[[Database], Mapping[Hashable, Any]]
    ) -> FiniteMechanism:
        """The mechanism whose output law at each database of ``theta`` is ``fn(D)``.

        Probabilities are converted to Fractions and zeros are left out.
        """
        return cls(
            {d: {s: Fraction(p) for s, p in fn(d).items() if p != 0} for d in databases(theta)}
        )

    def pmf(self, d: Database) -> Mapping[Hashable, Fraction]:
        """The output law at database ``d``."""
        return self.table[d]

    def outputs(self) -> list[Hashable]:
        """Every output with positive probability at some database, in first-seen order."""
        seen: dict[Hashable, None] = {}
        for pmf in self.table.values():
            for s in pmf:
                seen[s] = None
        return list(seen)


def sequential(*mechs: FiniteMechanism) -> FiniteMechanism:
    """Run every mechanism on the same D with independent coins (Theorem 3).

    Args:
        *mechs: the mechanisms A_1..A_k, on the same databases (at least one).

    Returns:
        The mechanism whose output is the tuple of the outputs, exact.

    References:
        Liu et al. (2016), Section V-A, Theorem 3 (sequential composition).
    """
    table: dict[Database, dict[Hashable, Fraction]] = {}
    for d in mechs[0].table:
        acc: dict[tuple[Hashable, ...], Fraction] = {(): Fraction(1)}
        for m in mechs:
            acc = {s + (t,): p * q for s, p in acc.items() for t, q in m.pmf(d).items()}
        table[d] = {k: v for k, v in acc.items()}
    return FiniteMechanism(table)


def on_block(
    theta: JointDistribution,
    block: Sequence[str],
    fn: Callable[[tuple[Fraction, ...]], Mapping[Hashable, Any]],
) -> FiniteMechanism:
    """A mechanism that reads only the tuples of ``block`` (a subset D_t, Theorem 4).

    Args:
        theta: the joint law of the tuples.
        block: the names of the tuples the mechanism reads.
        fn: the output law as a function of the block's values (in ``block`` order).

    Returns:
        The :class:`FiniteMechanism` on every database of ``theta``.

    Raises:
        InputError: a name in ``block`` is not a tuple of ``theta``.

    References:
        Liu et al. (2016), Section V-A, Theorem 4 (parallel composition over subsets D_t).
    """
    idx = [theta.index(k, "block") for k in block]
    return FiniteMechanism.from_function(theta, lambda d: fn(tuple(d[k] for k in idx)))


def post_process(
    mech: FiniteMechanism, b: Callable[[Hashable], Mapping[Hashable, Any]]
) -> FiniteMechanism:
    """B(A(.)) for a randomized map B given as output -> PMF (Theorem 5).

    Args:
        mech: the mechanism A.
        b: the randomized map B, output of A -> law of B's output.

    Returns:
        The exact :class:`FiniteMechanism` B∘A.

    References:
        Liu et al. (2016), Section V-B, Theorem 5 (transformation invariance).
    """
    table: dict[Database, dict[Hashable, Fraction]] = {}
    for d, pmf in mech.table.items():
        acc: dict[Hashable, Fraction] = {}
        for s, p in pmf.items():
            for u, q in b(s).items():
                acc[u] = acc.get(u, Fraction(0)) + p * Fraction(q)
        table[d] = {u: p for u, p in acc.items() if p != 0}
    return FiniteMechanism(table)


def mixture(m1: FiniteMechanism, m2: FiniteMechanism, p: Fraction) -> FiniteMechanism:
    """A_p: run A1 with probability p, else A2 (Theorem 6); outputs are not tagged.

    Args:
        m1: the mechanism A1.
        m2: the mechanism A2 (on the same databases).
        p: the probability of running A1, in [0, 1].

    Returns:
        The exact :class:`FiniteMechanism` A_p.

    Raises:
        InputError: ``p`` is outside [0, 1].

    References:
        Liu et al. (2016), Section V-B, Theorem 6 (convexity).
    """
    if not 0 <= p <= 1:
        raise InputError("p", "mixture weight must lie in [0, 1]")
    table: dict[Database, dict[Hashable, Fraction]] = {}
    for d in m1.table:
        acc: dict[Hashable, Fraction] = {}
        for s, q in m1.pmf(d).items():
            acc[s] = acc.get(s, Fraction(0)) + p * q
        for s, q in m2.pmf(d).items():
            acc[s] = acc.get(s, Fraction(0)) + (1 - p) * q
        table[d] = {s: q for s, q in acc.items() if q != 0}
    return FiniteMechanism(table)


def conditional_output(
    mech: FiniteMechanism, theta: JointDistribution, i: int, value: Fraction
) -> dict[Hashable, Fraction]:
    """P(A(D) = S | D_i = value) under theta (Eq. 12, law of total probability).

    Args:
        mech: the mechanism A.
        theta: the joint law of the tuples.
        i: the index of tuple i.
        value: a value of D_i with positive probability.

    Returns:
        The exact conditional output law, output -> probability.

    References:
        Liu et al. (2016), Section VI-B, Eq. 11-12.
    """
    z = sum((p for d, p in theta.probs.items() if d[i] == value), Fraction(0))
    acc: dict[Hashable, Fraction] = {}
    for d, p in theta.probs.items():
        if d[i] != value:
            continue
        for s, q in mech.pmf(d).items():
            acc[s] = acc.get(s, Fraction(0)) + p / z * q
    return acc


def _max_ratio(
    pairs: Iterator[
        tuple[dict[str, str], Mapping[Hashable, Fraction], Mapping[Hashable, Fraction]]
    ],
) -> tuple[Level, dict[str, str]]:
    best: Level = Fraction(1)
    witness: dict[str, str] = {}
    for where, p1, p2 in pairs:
        for s, a in p1.items():
            bq = p2.get(s, Fraction(0))
            if bq == 0:
                return None, {**where, "output": repr(s), "ratio": "unbounded"}
            r = a / bq
            if best is not None and r > best:
                best, witness = r, {**where, "output": repr(s), "ratio": str(r)}
    return best, witness


def finite_ddp_level(
    mech: FiniteMechanism,
    theta: JointDistribution,
    neighbours: DDPNeighbours = DEFINITION4,
) -> tuple[Level, dict[str, str]]:
    """gamma = the exact max probability ratio of Definition 4 in the given reading.

    Args:
        mech: the finite mechanism A.
        theta: the joint law of the tuples (the relationship R).
        neighbours: what Definition 4 compares: its reading (neighbours, neighbours in
            the support of R, or the conditional form of Eq. 11-12) and the dependence
            sets (:class:`DDPNeighbours`).

    Returns:
        ``(gamma, witness)``: gamma = e^eps a Fraction ≥ 1 (None when unbounded) and the
        maximizing tuple, databases or values and output.

    References:
        Liu et al. (2016), Section V, Definitions 3-4 (Eq. 12 of Definition 4); Section
        VI-B, Eq. 11-12.
    """
    if neighbours.reading is not DDPReading.CONDITIONAL:
        return _max_ratio(
            ({"tuple": i, "D": database_str(d), "D'": database_str(e)}, mech.pmf(d), mech.pmf(e))
            for i, d, e in neighbours.pairs(theta)
        )

    def gen() -> Iterator[
        tuple[dict[str, str], dict[Hashable, Fraction], dict[Hashable, Fraction]]
    ]:
        for k, name in enumerate(theta.variables):
            values = sorted({d[k] for d in theta.probs})
            conds = {v: conditional_output(mech, theta, k, v) for v in values}
            for v1, v2 in itertools.permutations(values, 2):
                yield {"tuple": name, "d1": str(v1), "d2": str(v2)}, conds[v1], conds[v2]

    return _max_ratio(gen())


def level_le(a: Level, b: Level) -> bool:
    """a <= b for levels, None being +infinity.

    Args:
        a: a level gamma (None: unbounded).
        b: a level gamma (None: unbounded).

    Returns:
        Whether a ≤ b.

    References:
        Liu et al. (2016), Section V, Definition 4 (the bound exp(eps)).
    """
    if b is None:
        return True
    return a is not None and a <= b


def level_mul(a: Level, b: Level) -> Level:
    """The product of two levels, None (unbounded) if either is.

    Args:
        a: a level gamma (None: unbounded).
        b: a level gamma (None: unbounded).

    Returns:
        ``a * b`` (exact), or None.

    References:
        Liu et al. (2016), Section V-A, Theorem 3 (eps adds, so gamma multiplies).
    """
    return None if a is None or b is None else a * b


def level_str(a: Level) -> str:
    """A level as text: its exact value, or ``"unbounded"``.

    Args:
        a: a level gamma (None: unbounded).

    Returns:
        The text.

    References:
        Liu et al. (2016), Section V, Definition 4.
    """
    return "unbounded" if a is None else str(a)


def database_str(d: Database) -> str:
    """A database as witness text: its values in order, ``"(v1, ..., vn)"``.

    Args:
        d: a database, one exact value per tuple.

    Returns:
        The text.

    References:
        Liu et al. (2016), Section V (a database D = [D1, ..., Dn]).
    """
    return "(" + ", ".join(str(v) for v in d) + ")"


# --- the public entry point --------------------------------------------------------------


@dataclass(frozen=True)
class DDPLevel:
    """The dependent-DP level of a mechanism: ``gamma = e^epsilon`` (None = unbounded)."""

    gamma: Level
    witness: Mapping[str, str]
    reading: DDPReading

    @property
    def epsilon(self) -> sympy.Expr:
        """``ln gamma`` exactly (``oo`` when unbounded)."""
        return ratio_log(self.gamma)


def dependent_dp_level(
    model: JointDistribution,
    mechanism: Callable[[Database], Mapping[Hashable, Any]],
    reading: DDPReading = DDPReading.NEIGHBOURS,
    dependence: DependenceReading = DependenceReading.JOINT,
    sets: Mapping[str, Sequence[str]] | None = None,
) -> DDPLevel:
    """The exact dependent-DP level of a finite mechanism on a correlated model.

    Liu, Chakraborty, Mittal, Section V, Definition 4: the largest ratio
    ``P[M(D) = o] / P[M(D') = o]`` over databases differing in one tuple and the tuples
    that depend on it. ``reading`` picks the neighbour set (Definition 4 as printed, the
    same inside the support of the model, or the conditional form of Eq. 11-12);
    ``dependence`` picks how the dependent set is read (jointly or pairwise). The three
    together are one :class:`DDPNeighbours`, which :func:`finite_ddp_level` takes.

    Args:
        model: the joint distribution of the tuples.
        mechanism: ``D -> {output: probability}`` for every database of the product of
            the domains (exact probabilities).
        reading: the neighbour reading.
        dependence: the dependence reading.
        sets: explicit dependent sets, name -> names (overrides ``dependence``).

    Returns:
        :class:`DDPLevel` with ``gamma``, ``epsilon = ln gamma`` and the witness.

    References:
        Liu et al. (2016), Section V, Definitions 3-4 (Eq. 12); Section VI-B, Eq. 11-12
        (the conditional reading).

    >>> from pdpsym.models.joint import JointDistribution
    >>> m = JointDistribution.from_rows(["a", "b"], [[0, 0, "1/2"], [1, 1, "1/2"]])
    >>> keep = lambda d: {d: 1}  # release the database itself
    >>> dependent_dp_level(m, keep).gamma is None  # deterministic: unbounded
    True
    """
    fm = FiniteMechanism.from_function(model, mechanism)
    gamma, witness = finite_ddp_level(fm, model, DDPNeighbours(reading, dependence, sets))
    return DDPLevel(gamma, witness, reading)

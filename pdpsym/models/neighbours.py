"""Which records depend on which, and the dependent neighbouring databases they make.

Liu et al.'s dependent DP (Section V) compares databases that differ at one record and
may differ on the records *dependent* on it; the generic audit compares the same pairs
for every model. This module owns that relation, computed exactly on a
:class:`~pdpsym.models.joint.JointDistribution`:

* :class:`DependenceReading`, :func:`independent`, :func:`dependence_sets` and
  :func:`dependence_size`: the dependence set ``N_i`` of each record and the dependence
  size ``L = max_i |N_i|``. What "tuple i is dependent on tuple k" means is a reading:
  ``JOINT`` (the smallest ``N_i`` such that ``D_i`` is independent of the vector of the
  records outside it; the reading Definition 3 needs) or ``PAIRWISE`` (the literal
  words: every ``k`` with ``D_i``, ``D_k`` not independent as a pair).
* :class:`DDPReading` and :class:`DDPNeighbours`: how Definition 4 quantifies
  (dependent neighbouring databases, those in the support, or the conditional laws of
  Eq. 11-12) and the ordered neighbouring pairs ``(i, D, D')`` it compares;
  :func:`databases` lists the product of the domains.

References:
    Liu et al. (2016), Section V, Definitions 3-4 and the dependence size before them;
    Section VI-B, Eq. 11-12.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

from pdpsym.core.errors import InputError
from pdpsym.models.joint import JointDistribution

Database = tuple[Fraction, ...]


class DependenceReading(Enum):
    """What "tuple i is dependent on tuple k" means (Sec. V).

    Examples:
        >>> from pdpsym import DependenceReading
        >>> [r.value for r in DependenceReading]
        ['joint', 'pairwise']
    """

    JOINT = "joint"
    PAIRWISE = "pairwise"


def independent(theta: JointDistribution, a: Sequence[str], b: Sequence[str]) -> bool:
    """Whether the vectors x_a and x_b are independent under theta, decided exactly.

    Args:
        theta: the joint law of the tuples.
        a: names of the first group of tuples (empty: trivially independent).
        b: names of the second group of tuples (empty: trivially independent).

    Returns:
        True iff P(x_a = u, x_b = v) = P(x_a = u) P(x_b = v) for every u, v (exact
        Fraction arithmetic).

    References:
        Liu et al. (2016), Section V (the dependence relationship R; DDP equals DP when R
        represents independence between tuples).
    """
    if not a or not b:
        return True
    ia = [theta.index(k) for k in a]
    ib = [theta.index(k) for k in b]
    joint: dict[tuple[Fraction, ...], Fraction] = {}
    pa: dict[tuple[Fraction, ...], Fraction] = {}
    pb: dict[tuple[Fraction, ...], Fraction] = {}
    for row, p in theta.probs.items():
        u, v = tuple(row[k] for k in ia), tuple(row[k] for k in ib)
        joint[u + v] = joint.get(u + v, Fraction(0)) + p
        pa[u] = pa.get(u, Fraction(0)) + p
        pb[v] = pb.get(v, Fraction(0)) + p
    if len(joint) != len(pa) * len(pb):
        return False
    return all(joint[u + v] == p * q for u, p in pa.items() for v, q in pb.items())


def dependence_sets(
    theta: JointDistribution, reading: DependenceReading = DependenceReading.JOINT
) -> dict[str, tuple[str, ...]]:
    """The dependence set N_i of every tuple i (N_i contains i), in variable order.

    Under ``JOINT``, N_i is a smallest set containing i such that D_i is independent of the
    vector of all tuples outside N_i (ties: the first in variable order); under
    ``PAIRWISE``, N_i is i with every k such that D_i and D_k are not independent as a
    pair.

    Args:
        theta: the joint law of the tuples (the relationship R).
        reading: how "tuple i is dependent on tuple k" is read.

    Returns:
        A dict tuple name -> the names in N_i, in variable order.

    References:
        Liu et al. (2016), Section V, the dependence size L before Definition 3 and
        Definition 3 (dependent neighbouring databases).
    """
    names = theta.variables
    out: dict[str, tuple[str, ...]] = {}
    for i in names:
        others = [k for k in names if k != i]
        if reading is DependenceReading.PAIRWISE:
            dep = {k for k in others if not independent(theta, [i], [k])}
            out[i] = tuple(k for k in names if k == i or k in dep)
            continue
        # smallest, then first in variable order: a search over subsets by size
        for size in range(len(others) + 1):
            found = None
            for extra in itertools.combinations(others, size):
                rest = [k for k in others if k not in extra]
                if independent(theta, [i], rest):
                    found = extra
                    break
            if found is not None:
                out[i] = tuple(k for k in names if k == i or k in found)
                break
    return out


def dependence_size(
    theta: JointDistribution, reading: DependenceReading = DependenceReading.JOINT
) -> int:
    """The dependence size L = max_i |N_i| (1 for independent tuples).

    Args:
        theta: the joint law of the tuples (the relationship R).
        reading: how "tuple i is dependent on tuple k" is read.

    Returns:
        L, an int >= 1.

    References:
        Liu et al. (2016), Section V ("any tuple in D is dependent on at most L - 1 other
        tuples").
    """
    return max(len(s) for s in dependence_sets(theta, reading).values())


# --- dependent neighbouring databases ---------------------------------------------------


class DDPReading(Enum):
    """How Definition 4 quantifies (see the module docstring).

    Examples:
        >>> from pdpsym import DDPReading
        >>> [r.value for r in DDPReading]
        ['def4-neighbours', 'def4-neighbours-in-support', 'eq11-conditional']
    """

    NEIGHBOURS = "def4-neighbours"
    NEIGHBOURS_IN_SUPPORT = "def4-neighbours-in-support"
    CONDITIONAL = "eq11-conditional"


def databases(theta: JointDistribution) -> list[Database]:
    """Every database in the product of the domains, in lexicographic order.

    Args:
        theta: the joint law of the tuples (its domains give the databases).

    Returns:
        The databases, tuples of exact values (impossible ones included).

    References:
        Liu et al. (2016), Section V (a database D = [D1, ..., Dn]).
    """
    return [tuple(d) for d in itertools.product(*theta.domains)]


def neighbour_pairs(
    theta: JointDistribution, sets: Mapping[str, Sequence[str]], within_support: bool = False
) -> Iterator[tuple[str, Database, Database]]:
    """Ordered dependent neighbouring pairs (Definition 3): (i, D, D').

    ``D_i != D'_i`` and ``D, D'`` agree outside the dependence set ``N_i``.

    Args:
        theta: the joint law of the tuples.
        sets: the dependence set of each tuple, name -> names (containing the tuple).
        within_support: keep only databases of positive probability under theta.

    Yields:
        Tuples ``(tuple name, D, D')``.

    References:
        Liu et al. (2016), Section V, Definition 3 (dependent neighbouring databases).
    """
    dbs = sorted(theta.probs) if within_support else databases(theta)
    for name, group in sets.items():
        i = theta.index(name)
        inside = {theta.index(k) for k in group}
        outside = [k for k in range(theta.n) if k not in inside]
        classes: dict[tuple[Fraction, ...], list[Database]] = {}
        for d in dbs:
            classes.setdefault(tuple(d[k] for k in outside), []).append(d)
        for members in classes.values():
            for d, e in itertools.product(members, members):
                if d[i] != e[i]:
                    yield name, d, e


@dataclass(frozen=True)
class DDPNeighbours:
    """Which pairs Definition 4 compares: its reading and the dependence sets it uses.

    One value object for the relation of Liu et al.'s Section V (Definitions 3-4) and its
    conditional reading (Section VI-B, Eq. 11-12). Under the neighbour readings the pairs
    are the ordered dependent neighbouring databases ``(D, D')`` of Definition 3:
    ``D_i != D'_i`` and ``D, D'`` agree outside the dependence set ``N_i``, where
    ``N_i`` is ``sets[i]`` when ``sets`` is given and otherwise the ``dependence``
    reading's set (:func:`dependence_sets`);
    ``NEIGHBOURS_IN_SUPPORT`` keeps only databases of positive probability under R.
    Under ``CONDITIONAL`` Definition 4 compares conditional output laws, not databases.

    ``sets`` is stored as a read-only copy with tuple values, so the object is hashable;
    two objects are equal when their readings and sets are.

    Attributes:
        reading: how Definition 4 is quantified (:class:`DDPReading`).
        dependence: how the dependence sets are read when ``sets`` is None.
        sets: explicit dependence sets, name -> names containing the name (overrides
            ``dependence``).

    Examples:
        >>> from pdpsym.models.joint import JointDistribution
        >>> same = JointDistribution.from_rows(["a", "b"], [[0, 0, "1/2"], [1, 1, "1/2"]])
        >>> len(list(DDPNeighbours().pairs(same)))  # N_a = N_b = {a, b}: 2 x 4 x 2 pairs
        16
        >>> inside = DDPNeighbours(DDPReading.NEIGHBOURS_IN_SUPPORT)
        >>> [i for i, _, _ in inside.pairs(same)]  # (0, 0) <-> (1, 1), for a and for b
        ['a', 'a', 'b', 'b']
    """

    reading: DDPReading = DDPReading.NEIGHBOURS
    dependence: DependenceReading = DependenceReading.JOINT
    sets: Mapping[str, Sequence[str]] | None = None

    def __post_init__(self) -> None:
        if self.sets is not None:
            frozen = MappingProxyType({k: tuple(v) for k, v in self.sets.items()})
            object.__setattr__(self, "sets", frozen)

    def __hash__(self) -> int:
        sets = None if self.sets is None else frozenset(self.sets.items())
        return hash((self.reading, self.dependence, sets))

    def pairs(
        self, theta: JointDistribution, target: str | None = None
    ) -> Iterator[tuple[str, Database, Database]]:
        """The ordered dependent neighbouring pairs ``(i, D, D')`` of this reading.

        Args:
            theta: the joint law of the tuples (the relationship R).
            target: only the pairs that change this tuple (None: every tuple's).

        Returns:
            An iterator over ``(tuple name, D, D')``, in the order of
            :func:`neighbour_pairs`.

        Raises:
            InputError: ``reading`` is ``CONDITIONAL`` (it compares no databases), or
                ``sets`` has no set for ``target``.

        References:
            Liu et al. (2016), Section V, Definition 3 (dependent neighbouring
            databases) and Definition 4 (Eq. 12).
        """
        if self.reading is DDPReading.CONDITIONAL:
            raise InputError("reading", "the conditional reading compares no pairs of databases")
        groups = dependence_sets(theta, self.dependence) if self.sets is None else self.sets
        if target is not None:
            if target not in groups:
                raise InputError("sets", f"no dependence set for {target!r}")
            groups = {target: groups[target]}
        return neighbour_pairs(theta, groups, self.reading is DDPReading.NEIGHBOURS_IN_SUPPORT)


#: Definition 4 as printed, the dependence sets read jointly: the default of every check.
DEFINITION4 = DDPNeighbours()


__all__ = [
    "DEFINITION4",
    "DDPNeighbours",
    "DDPReading",
    "Database",
    "DependenceReading",
    "databases",
    "dependence_sets",
    "dependence_size",
    "independent",
    "neighbour_pairs",
]

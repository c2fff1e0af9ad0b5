"""Classes of data laws (Pufferfish's ``Theta``): a finite list of models of the same
records, or a binary Markov chain or a product whose probabilities are intervals.

Pufferfish privacy (Kifer and Machanavajjhala, TODS 2014, Definition 3.1), which Li et
al.'s Eq. 2 and the Markov Quilt Mechanism instantiate, holds for a **class** of laws:
the guarantee must hold for every law the adversary may believe. The leakage of a class
is the sup over its members.

JSON forms::

    {"kind": "model-class", "members": [MODEL, "other.json", ...]}
        # MODEL: an inline model object (markov-chain, product, bayesian-network); a string
        # is a model file, relative to the class file (read by the application layer)

    {"kind": "interval-markov-chain", "length": 100, "states": ["0", "1"],
     "transition": [[["4/5", "9/10"], ["1/10", "1/5"]],
                    [["1/10", "3/10"], ["7/10", "9/10"]]],
     "initial": "stationary",        # each member's own stationary law, or a law, or
                                     # one interval per state: [["1/4", "3/4"], ...]
     "names": [...]}                 # optional

    {"kind": "interval-product", "records": [{"values": ["0", "1"],
                                              "probs": [["1/4", "1/2"], ["1/2", "3/4"]]}, ...]}
    {"kind": "interval-product", "bernoulli": [["1/10", "1/5"], ...]}

A number where an interval is expected is the interval of one point. Each row of an
interval matrix (and an interval initial law) stands for every stochastic row inside it:
the class is every chain whose one transition matrix has such rows. An interval chain has
two states here (binary records): each row is then one parameter, ``x_s = P[s][1]``
(``P[s][0] = 1 - x_s``), in the interval that the row's two intervals leave; a chain of
more states is read by :mod:`pdpsym.models.interval_chain_k`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from pdpsym.core.errors import InputError, check_fields
from pdpsym.core.numbers import fraction_str, parse_int, parse_rational
from pdpsym.models.counts import CountModel
from pdpsym.models.interval_chain_k import IntervalChainK
from pdpsym.models.interval_rows import (
    VERTEX_LIMIT,
    Box,
    Interval,
    IntervalChainBase,
    binary_parameter,
    halves,
    initial_law,
    interval_row,
    parse_interval,
    record_names,
)
from pdpsym.models.law_class_base import LawClassBase
from pdpsym.models.markov import CHAIN_FIELDS, CHAIN_NEEDS, MAX_LENGTH, MarkovChain
from pdpsym.models.model_objects import CLASS_KINDS
from pdpsym.models.product import ProductModel
from pdpsym.models.variables import check_names

#: the most members a finite class may list
MAX_MEMBERS = 10_000


@dataclass(frozen=True)
class ModelClass(LawClassBase):
    """A finite class: models of the same records (tables, chains, products, networks).

    Args:
        members: the models, at least one, all with the same record names in order.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1 (a class ``Theta`` of laws).
    """

    members: tuple[Any, ...]

    def __post_init__(self) -> None:
        if not self.members:
            raise InputError("members", "the class is empty (give at least one model)")
        if len(self.members) > MAX_MEMBERS:
            raise InputError("members", f"more than {MAX_MEMBERS} members")
        first = tuple(self.members[0].variables)
        for j, m in enumerate(self.members[1:], 1):
            if isinstance(m, ModelClass | IntervalChain | IntervalProduct):
                raise InputError(f"members[{j}]", "a class cannot be a member of a class")
            names = tuple(m.variables)
            if names != first:
                raise InputError(
                    f"members[{j}]",
                    f"its records ({_records_text(names)}) differ from members[0]'s "
                    f"({_records_text(first)})",
                )

    @property
    def variables(self) -> tuple[str, ...]:
        """The record names (the members')."""
        return tuple(self.members[0].variables)

    def __len__(self) -> int:
        return len(self.members)


def _records_text(names: Sequence[str]) -> str:
    if len(names) <= 4:
        return ", ".join(names)
    return f"{len(names)} records {names[0]}..{names[-1]}"


@dataclass(frozen=True)
class IntervalChain(IntervalChainBase):
    """A binary Markov chain whose transition rows (and initial law) are intervals: the
    fields of :class:`~pdpsym.models.interval_rows.IntervalChainBase`, with two state
    values, two rows and, when exact, an initial law of two probabilities.

    The members are the chains with ``P = [[1 - x_0, x_0], [1 - x_1, x_1]]`` and, for an
    interval initial law, ``init = (1 - y, y)``: the parameters ``(x_0, x_1[, y])`` range
    over :meth:`box`.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1; Song, Wang, Chaudhuri (SIGMOD
        2017), Sec. 5 (Markov chains, and a class of them through ``pi_min`` and the
        eigengap).
    """

    states: tuple[Fraction, Fraction]
    evaluated: ClassVar[str] = "box's corners and centre"

    @classmethod
    def from_json_object(cls, obj: Mapping[str, Any]) -> IntervalChain:
        """Build from the JSON form (module docstring); every field is checked by name."""
        check_fields(obj, CHAIN_FIELDS - {"values"}, "an interval-markov-chain model", CHAIN_NEEDS)
        states = obj["states"]
        if not isinstance(states, list | tuple) or len(states) != 2:
            raise InputError("states", "an interval chain has two states here (binary records)")
        vals = tuple(parse_rational(s, f"states[{j}]") for j, s in enumerate(states))
        if vals[0] == vals[1]:
            raise InputError("states", "state values must be distinct")
        T = parse_int(obj["length"], "length", 1, MAX_LENGTH)
        tr = obj["transition"]
        if not isinstance(tr, list | tuple) or len(tr) != 2:
            raise InputError("transition", "expected a 2x2 matrix of intervals (one time step)")
        rows = tuple(interval_row(r, 2, f"transition[{s}]") for s, r in enumerate(tr))
        initial = initial_law(obj["initial"], 2)
        if initial == "stationary" and (
            binary_parameter(rows[0])[0] == 0 and binary_parameter(rows[1])[1] == 1
        ):
            # x_0 = 0 and x_1 = 1: both states absorbing, no unique stationary law
            raise InputError(
                "initial", "a member has no unique stationary law (both states absorbing)"
            )
        names = record_names(obj, T)
        return cls(vals, T, rows, initial, names)  # type: ignore[arg-type]

    def box(self) -> tuple[Interval, ...]:
        """The parameter box: ``x_0``, ``x_1`` (the rows' ``P[s][1]``) and, for an
        interval initial law, ``y = init[1]``."""
        out = [binary_parameter(r) for r in self.rows]
        if isinstance(self.initial, tuple) and isinstance(self.initial[0], tuple):
            out.append(binary_parameter(self.initial))  # type: ignore[arg-type]
        return tuple(out)

    def vertices(self, limit: int = VERTEX_LIMIT) -> list[tuple[Fraction, ...]]:
        """The box's corners (every combination of its parameters' ends; at most 8,
        fewer than ``limit``)."""
        return list(itertools.islice(itertools.product(*self.box()), limit))

    def vertex_count(self) -> int:
        """The box's corners: ``2^parameters``."""
        return 2 ** len(self.box())

    def centre(self, box: Sequence[Interval]) -> tuple[Fraction, ...]:
        """The parameters at the middle of a sub-box (every point of it is a member)."""
        return tuple((a + b) / 2 for a, b in box)

    def search_start(self) -> tuple[Fraction, ...]:
        """The box's lower corner."""
        return tuple(a for a, _ in self.box())

    def box_corners(self, box: Box) -> list[tuple[Fraction, ...]]:
        """Every corner of the sub-box (each a member: a sub-box's maximum is often at
        one)."""
        return list(itertools.product(*box))

    def audit_laws(self, grid: int) -> list[tuple[Fraction, ...]]:
        """``grid`` equally spaced points per parameter of the box (its ends among them
        when ``grid >= 2``), and their product, centre included when ``grid`` is odd
        (``grid = 1``: the centre)."""
        axes = []
        for a, b in self.box():
            if grid == 1:
                axes.append([(a + b) / 2])
            else:
                axes.append(list(dict.fromkeys(a + (b - a) * k / (grid - 1) for k in range(grid))))
        return list(dict.fromkeys(itertools.product(*axes)))

    def domain(self, target: str) -> tuple[Fraction, ...]:
        """The two state values (every record's)."""
        return tuple(self.states)

    def member(self, theta: Sequence[Fraction]) -> MarkovChain:
        """The member chain at parameters ``theta`` (a point of :meth:`box`).

        Args:
            theta: ``(x_0, x_1[, y])``, exact.

        Returns:
            The :class:`~pdpsym.models.markov.MarkovChain`.
        """
        x0, x1 = theta[0], theta[1]
        matrix = [[1 - x0, x0], [1 - x1, x1]]
        if self.initial == "stationary":
            init: Any = "stationary"
        elif isinstance(self.initial[0], tuple):
            init = [1 - theta[2], theta[2]]
        else:
            init = list(self.initial)
        return MarkovChain(list(self.states), self.length, init, matrix, self.names)

    def law_json(self, theta: Sequence[Fraction]) -> dict[str, Any]:
        """The member at ``theta`` as a ``markov-chain`` JSON object (the worst law)."""
        x0, x1 = theta[0], theta[1]
        out: dict[str, Any] = {
            "kind": "markov-chain",
            "length": self.length,
            "states": [fraction_str(v) for v in self.states],
            "transition": [
                [fraction_str(1 - x0), fraction_str(x0)],
                [fraction_str(1 - x1), fraction_str(x1)],
            ],
        }
        if self.initial == "stationary":
            out["initial"] = "stationary"
        elif isinstance(self.initial[0], tuple):
            out["initial"] = [fraction_str(1 - theta[2]), fraction_str(theta[2])]
        else:
            out["initial"] = [fraction_str(p) for p in self.initial]  # type: ignore[arg-type]
        return out


@dataclass(frozen=True)
class IntervalProduct(LawClassBase):
    """Independent records whose laws are intervals (each record's probabilities).

    Args:
        values: per record, its values.
        rows: per record, one interval per value (admitting a law).
        names: record names (default ``x1..xn``).

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1; Li et al. (2019), Theorem 1
        (independent records: the leakage does not depend on the laws beyond their
        supports).
    """

    values: tuple[tuple[Fraction, ...], ...]
    rows: tuple[tuple[Interval, ...], ...]
    names: tuple[str, ...] | None = None
    evaluated: ClassVar[str] = "laws (independent records: every law's groups are single records)"

    @classmethod
    def from_json_object(cls, obj: Mapping[str, Any]) -> IntervalProduct:
        """Build from the JSON form (module docstring)."""
        check_fields(obj, {"kind", "records", "bernoulli", "names"}, "an interval-product model")
        if ("records" in obj) == ("bernoulli" in obj):
            raise InputError("records", 'give either "records" or "bernoulli"')
        values: list[tuple[Fraction, ...]] = []
        rows: list[tuple[Interval, ...]] = []
        if "bernoulli" in obj:
            ps = obj["bernoulli"]
            if not isinstance(ps, list | tuple) or not ps:
                raise InputError("bernoulli", "expected a non-empty list of intervals")
            for j, p in enumerate(ps):
                lo, hi = parse_interval(p, f"bernoulli[{j}]")
                values.append((Fraction(0), Fraction(1)))
                rows.append(((1 - hi, 1 - lo), (lo, hi)))
        else:
            recs = obj["records"]
            if not isinstance(recs, list | tuple) or not recs:
                raise InputError("records", "expected a non-empty list of records")
            for r, rec in enumerate(recs):
                f = f"records[{r}]"
                if not isinstance(rec, Mapping) or "values" not in rec or "probs" not in rec:
                    raise InputError(f, 'expected {"values": [...], "probs": [[lo, hi], ...]}')
                vs = rec["values"]
                if not isinstance(vs, list | tuple) or not vs:
                    raise InputError(f"{f}.values", "expected a non-empty list of values")
                vals = tuple(parse_rational(v, f"{f}.values[{j}]") for j, v in enumerate(vs))
                if len(set(vals)) != len(vals):
                    raise InputError(f"{f}.values", "values must be distinct")
                values.append(vals)
                rows.append(interval_row(rec["probs"], len(vals), f"{f}.probs"))
        names = None
        if obj.get("names") is not None:
            names = check_names(obj["names"], "names")
            if len(names) != len(values):
                raise InputError("names", f"{len(names)} names for {len(values)} records")
        return cls(tuple(values), tuple(rows), names)

    @property
    def variables(self) -> tuple[str, ...]:
        """The record names."""
        return self.names or tuple(f"x{t + 1}" for t in range(len(self.values)))

    def widest_member(self) -> ProductModel:
        """A member in which every value with a positive upper end has positive probability.

        Each value starts at its lower end; the mass left, ``1 - sum lo``, is shared in
        proportion to ``hi - lo`` (it is at most ``sum (hi - lo)``, so no value passes its
        upper end). A value with ``hi > lo = 0`` gets a positive share unless no mass is
        left, and then the lower ends are the only law in the row.

        Returns:
            The :class:`~pdpsym.models.product.ProductModel`.
        """
        laws = []
        for vals, row in zip(self.values, self.rows, strict=True):
            left = 1 - sum((lo for lo, _ in row), Fraction(0))
            room = sum((hi - lo for lo, hi in row), Fraction(0))
            ps = [lo + (left * (hi - lo) / room if room else 0) for lo, hi in row]
            laws.append((vals, tuple(ps)))
        return ProductModel(laws, self.names)


#: every class of laws (each a :class:`~pdpsym.models.law_class_base.LawClassBase`)
LawClass = ModelClass | IntervalChain | IntervalChainK | IntervalProduct


def class_from_object(
    obj: Mapping[str, Any], member: Callable[[object, str], CountModel]
) -> LawClass:
    """Build a class from its JSON object (dispatch on ``"kind"``).

    Args:
        obj: the JSON object; ``"kind"`` is one of :data:`CLASS_KINDS`.
        member: builds one member of a ``model-class`` from its entry (an object or a
            file name) and the entry's field name (``members[3]``).

    Returns:
        The :class:`ModelClass`, :class:`IntervalChain` (an
        :class:`~pdpsym.models.interval_chain_k.IntervalChainK` for more than two
        states) or :class:`IntervalProduct`.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1.
    """
    kind = obj.get("kind")
    if kind == "interval-markov-chain":
        states = obj.get("states")
        if isinstance(states, list | tuple) and len(states) > 2:
            return IntervalChainK.from_json_object(obj)
        return IntervalChain.from_json_object(obj)
    if kind == "interval-product":
        return IntervalProduct.from_json_object(obj)
    if kind != "model-class":
        raise InputError("kind", f"not a class kind {kind!r} (known: {', '.join(CLASS_KINDS)})")
    check_fields(obj, {"kind", "members"}, "a model-class")
    members = obj.get("members")
    if not isinstance(members, list | tuple):
        raise InputError("members", "expected a list of models (objects or file names)")
    if not members:
        raise InputError("members", "the class is empty (give at least one model)")
    if len(members) > MAX_MEMBERS:
        raise InputError("members", f"more than {MAX_MEMBERS} members")
    built = []
    for j, m in enumerate(members):
        if isinstance(m, Mapping) and m.get("kind") in CLASS_KINDS:
            raise InputError(f"members[{j}]", "a class cannot be a member of a class")
        built.append(member(m, f"members[{j}]"))
    return ModelClass(tuple(built))


__all__ = [
    "CLASS_KINDS",
    "Box",
    "IntervalChain",
    "IntervalProduct",
    "LawClass",
    "ModelClass",
    "binary_parameter",
    "class_from_object",
    "halves",
    "interval_row",
    "parse_interval",
]

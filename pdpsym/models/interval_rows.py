"""Rows of probability intervals: the pieces both interval Markov chains (two states,
:mod:`pdpsym.models.law_class`; more, :mod:`pdpsym.models.interval_chain_k`) are read
from and searched over.

A number where an interval is expected is the interval of one point. A row of ``k``
intervals stands for every stochastic row inside it: the polytope ``{r : lo <= r <= hi,
sum r = 1}`` (Skulj 2009, Sec. 2). A box of parameters is one interval per side; a
branch and bound splits it in halves.

References:
    Kifer and Machanavajjhala (TODS 2014), Definition 3.1 (a class of laws); Skulj,
    "Discrete time Markov chains with interval probabilities", IJAR 50 (2009), Sec. 2.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str, parse_rational
from pdpsym.models.law_class_base import LawClassBase
from pdpsym.models.variables import check_names

Interval = tuple[Fraction, Fraction]
#: a box of parameters: one interval per side
Box = tuple[Interval, ...]
#: the most vertex combinations of a k-state chain's polytopes an audit evaluates
VERTEX_LIMIT = 64


def halves(box: Box, side: int) -> tuple[Box, Box]:
    """The two halves of ``box`` split at the middle of side ``side`` (a branch and bound's
    step over a class's parameters).

    Args:
        box: the box.
        side: the side to split.

    Returns:
        The lower and the upper half.

    References:
        Horst and Tuy, Global Optimization, 3rd ed. (1996), Ch. IV (bisection).
    """
    a, b = box[side]
    m = (a + b) / 2
    return box[:side] + ((a, m),) + box[side + 1 :], box[:side] + ((m, b),) + box[side + 1 :]


def parse_interval(obj: object, field: str) -> Interval:
    """One probability interval ``[lo, hi]`` (or one number, the interval of a point).

    Args:
        obj: ``["lo", "hi"]`` or a number.
        field: the field's name, for errors.

    Returns:
        ``(lo, hi)`` with ``0 <= lo <= hi <= 1``.

    Raises:
        InputError: ``field`` when the ends are not probabilities or ``lo > hi``.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1 (the class of laws ``Theta``).
    """
    if isinstance(obj, list | tuple):
        if len(obj) != 2:
            raise InputError(field, "expected an interval [lo, hi] of two probabilities")
        lo, hi = parse_rational(obj[0], f"{field}[0]"), parse_rational(obj[1], f"{field}[1]")
    else:
        lo = hi = parse_rational(obj, field)
    if lo < 0 or hi > 1:
        raise InputError(field, f"not a probability interval: [{_s(lo)}, {_s(hi)}]")
    if lo > hi:
        raise InputError(field, f"interval's lower end {_s(lo)} is above its upper end {_s(hi)}")
    return lo, hi


def _s(q: Fraction) -> str:
    return fraction_str(q)


def interval_row(obj: object, k: int, field: str) -> tuple[Interval, ...]:
    """A row of ``k`` probability intervals that admits a stochastic choice.

    Args:
        obj: a list of ``k`` intervals (or numbers).
        k: the number of states.
        field: the row's field name, for errors.

    Returns:
        The ``k`` intervals.

    Raises:
        InputError: ``field`` (or an entry's) when the row has the wrong length, an
            interval is invalid, or no law inside the intervals sums to 1 (the lower ends
            sum above 1 or the upper ends below 1).

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1; Skulj, "Discrete time Markov
        chains with interval probabilities", IJAR 50 (2009), Sec. 2 (rows of intervals).
    """
    if not isinstance(obj, list | tuple) or len(obj) != k:
        raise InputError(field, f"expected {k} probability intervals (one per state)")
    row = tuple(parse_interval(v, f"{field}[{j}]") for j, v in enumerate(obj))
    s_lo = sum((lo for lo, _ in row), Fraction(0))
    s_hi = sum((hi for _, hi in row), Fraction(0))
    if s_lo > 1 or s_hi < 1:
        raise InputError(
            field,
            f"no law inside these intervals sums to 1 (lower ends sum to {_s(s_lo)}, "
            f"upper ends to {_s(s_hi)})",
        )
    return row


def binary_parameter(row: Sequence[Interval]) -> Interval:
    """The interval of ``x = p[1]`` over the stochastic rows ``(1 - x, x)`` inside a binary
    interval row: ``[max(lo_1, 1 - hi_0), min(hi_1, 1 - lo_0)]``.

    Args:
        row: two intervals that admit a stochastic choice (:func:`interval_row`).

    Returns:
        ``(lo, hi)`` of the parameter.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1.
    """
    (lo0, hi0), (lo1, hi1) = row
    return max(lo1, 1 - hi0), min(hi1, 1 - lo0)


def tighten(row: Sequence[Interval]) -> tuple[Interval, ...] | None:
    """The intervals a stochastic row inside ``row`` can really take, or None if none.

    Args:
        row: ``k`` intervals.

    Returns:
        ``[max(lo_j, 1 - sum_{m != j} hi_m), min(hi_j, 1 - sum_{m != j} lo_m)]`` per
        entry (every ``r`` with ``lo <= r <= hi`` and ``sum r = 1`` lies in them), or None
        when no such ``r`` exists.

    References:
        Skulj (2009), Sec. 2 (reachable interval probabilities).
    """
    s_lo = sum((a for a, _ in row), Fraction(0))
    s_hi = sum((b for _, b in row), Fraction(0))
    if s_lo > 1 or s_hi < 1:
        return None
    return tuple((max(a, 1 - (s_hi - b)), min(b, 1 - (s_lo - a))) for a, b in row)


def inside_point(row: Sequence[Interval]) -> tuple[Fraction, ...]:
    """An exact stochastic row inside ``row`` (which must admit one): each entry at its
    lower end plus a share of the mass left, in proportion to its width.

    Args:
        row: ``k`` intervals admitting a stochastic row.

    Returns:
        The row, exact.

    References:
        Skulj (2009), Sec. 2.
    """
    left = 1 - sum((a for a, _ in row), Fraction(0))
    room = sum((b - a for a, b in row), Fraction(0))
    return tuple(a + (left * (b - a) / room if room else 0) for a, b in row)


def row_vertices(row: Sequence[Interval]) -> list[tuple[Fraction, ...]]:
    """The vertices of the polytope ``{lo <= r <= hi, sum r = 1}`` (every entry but one
    at an end, the one left fixed by the sum), without repeats.

    Args:
        row: ``k`` intervals.

    Returns:
        The vertices, exact (empty when the row admits no law).

    References:
        Skulj (2009), Sec. 2 (the credal set of an interval row).
    """
    k = len(row)
    out: list[tuple[Fraction, ...]] = []
    for j in range(k):
        others = [m for m in range(k) if m != j]
        for ends in itertools.product((0, 1), repeat=k - 1):
            r = [Fraction(0)] * k
            for m, e in zip(others, ends, strict=True):
                r[m] = row[m][e]
            r[j] = 1 - sum((r[m] for m in others), Fraction(0))
            if row[j][0] <= r[j] <= row[j][1] and tuple(r) not in out:
                out.append(tuple(r))
    return out


#: an interval chain's initial law: ``"stationary"``, an exact law or an interval row
Initial = str | tuple[Fraction, ...] | tuple[Interval, ...]


def initial_law(init: object, k: int) -> Initial:
    """An interval chain's ``"initial"``: ``"stationary"`` (each member's own stationary
    law), an interval row (one interval per state) or an exact law (``k`` numbers).

    Args:
        init: the JSON value.
        k: the number of states.

    Returns:
        ``"stationary"``, the ``k`` intervals (as given) or the law.

    Raises:
        InputError: ``initial`` when the row or the law is not one of ``k`` probabilities
            (intervals) admitting a law.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1.
    """
    if isinstance(init, str) and init.strip() == "stationary":
        return "stationary"
    row = interval_row(init, k, "initial")
    if isinstance(init, list | tuple) and any(isinstance(v, list | tuple) for v in init):
        return row
    if any(lo != hi for lo, hi in row):  # pragma: no cover - numbers are points
        raise InputError("initial", "expected a law")
    return tuple(lo for lo, _ in row)


@dataclass(frozen=True)
class IntervalChainBase(LawClassBase):
    """What every interval chain holds, whatever its number of states (the binary
    :class:`~pdpsym.models.law_class.IntervalChain`, the k-state
    :class:`~pdpsym.models.interval_chain_k.IntervalChainK`), and the protocol every
    one answers, so that callers never ask which one they have: the number of states
    :attr:`k`, the root :meth:`box` of parameters, its :meth:`vertices` (the corner laws)
    and their :meth:`vertex_count`, a member inside a sub-box (:meth:`centre`) and whether
    it holds one (:meth:`holds_member`), where a search starts (:meth:`search_start`)
    and the sub-box corners it evaluates (:meth:`box_corners`), the laws an audit samples
    (:meth:`audit_laws`), a record's :meth:`domain`, the :meth:`member` at a point and its
    :meth:`law_json`; and the flags of
    :class:`~pdpsym.models.law_class_base.LawClassBase` (``box_search`` True; ``clipped``
    for more than two states).

    Args:
        states: the state values or labels.
        length: the number of records T.
        rows: the interval rows of the transition matrix (rows are from-states).
        initial: ``"stationary"`` (each member's own stationary law), an exact law, or an
            interval row.
        names: record names (default ``x1..xT``).

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1 (a class of laws);
        Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 5 (Markov chains).
    """

    states: tuple[Any, ...]
    length: int
    rows: tuple[tuple[Interval, ...], ...]
    initial: Initial
    names: tuple[str, ...] | None = None

    #: the members are the points of a parameter box, searched by a branch and bound
    box_search: ClassVar[bool] = True

    @property
    def variables(self) -> tuple[str, ...]:
        """The record names."""
        return self.names or tuple(f"x{t + 1}" for t in range(self.length))

    @property
    def k(self) -> int:
        """The number of states."""
        return len(self.states)

    # The protocol every interval chain answers (its callers ask it, never the class).

    def box(self) -> Box:
        """The root box of parameters: every member is at a point of it.

        Returns:
            One interval per parameter.

        References:
            Kifer and Machanavajjhala (2014), Definition 3.1 (the class ``Theta``).
        """
        raise NotImplementedError  # pragma: no cover - each chain has its own

    def vertices(self, limit: int = VERTEX_LIMIT) -> list[tuple[Fraction, ...]]:
        """The corner laws: members at the vertices of the parameter set.

        Args:
            limit: the most vertices returned (the first ones).

        Returns:
            Parameter tuples, each a member.

        References:
            Kifer and Machanavajjhala (2014), Definition 3.1; Ziegler, Lectures on
            Polytopes (1995), Sec. 0 (a product's vertices).
        """
        raise NotImplementedError  # pragma: no cover - each chain has its own

    def vertex_count(self) -> int:
        """How many vertices the parameter set has (all of them, not only
        :meth:`vertices`'s first ``limit``).

        Returns:
            The count.

        References:
            Ziegler, Lectures on Polytopes (1995), Sec. 0 (a product's vertices are the
            products of vertices).
        """
        raise NotImplementedError  # pragma: no cover - each chain has its own

    def centre(self, box: Box) -> tuple[Fraction, ...]:
        """A member's parameters inside a sub-box (which must hold one): its middle.

        Args:
            box: a sub-box of :meth:`box`.

        Returns:
            The parameter tuple.

        References:
            Horst and Tuy, Global Optimization, 3rd ed. (1996), Ch. IV (bisection).
        """
        raise NotImplementedError  # pragma: no cover - each chain has its own

    def holds_member(self, box: Box) -> bool:
        """Whether a sub-box of :meth:`box` holds a member (a clipped sub-box may miss
        every row polytope; an unclipped one always holds its points).

        Args:
            box: a sub-box of :meth:`box`.

        Returns:
            True when some member has its parameters in the sub-box.

        References:
            Kifer and Machanavajjhala (2014), Definition 3.1.
        """
        return True

    def search_start(self) -> tuple[Fraction, ...]:
        """The member a branch and bound over :meth:`box` starts its best value at.

        Returns:
            A parameter tuple (a member).

        References:
            Horst and Tuy, Global Optimization, 3rd ed. (1996), Ch. IV.
        """
        raise NotImplementedError  # pragma: no cover - each chain has its own

    def box_corners(self, box: Box) -> list[tuple[Fraction, ...]]:
        """The members at a sub-box's corners that a search evaluates as lower ends
        (none when a clipped sub-box's corners need not be members).

        Args:
            box: a sub-box of :meth:`box`.

        Returns:
            Parameter tuples, each a member.

        References:
            Horst and Tuy, Global Optimization, 3rd ed. (1996), Ch. IV.
        """
        raise NotImplementedError  # pragma: no cover - each chain has its own

    def audit_laws(self, grid: int) -> list[tuple[Fraction, ...]]:
        """The members an audit evaluates exactly (the laws sampled).

        Args:
            grid: points per parameter of a box of members (its ends among them when at
                least 2, its centre when odd); a clipped box evaluates its polytopes'
                vertices (up to :data:`VERTEX_LIMIT`) and a member inside instead.

        Returns:
            The parameter tuples, without repeats.

        References:
            Kifer and Machanavajjhala (2014), Definition 3.1.
        """
        raise NotImplementedError  # pragma: no cover - each chain has its own

    def domain(self, target: str) -> tuple[Any, ...]:
        """The values a record takes at every member (the query's values of the states).

        Args:
            target: a record name.

        Returns:
            The values, exact.

        References:
            Li et al. (2019), Section III (a record's domain).
        """
        raise NotImplementedError  # pragma: no cover - each chain has its own

    def member(self, theta: Sequence[Fraction]) -> Any:
        """The member chain at parameters ``theta`` (a point of :meth:`box` that is a
        member).

        Args:
            theta: the parameters, exact.

        Returns:
            The :class:`~pdpsym.models.markov.MarkovChain`.

        References:
            Kifer and Machanavajjhala (2014), Definition 3.1.
        """
        raise NotImplementedError  # pragma: no cover - each chain has its own

    def law_json(self, theta: Sequence[Fraction]) -> dict[str, Any]:
        """The member at ``theta`` as a ``markov-chain`` JSON object (the worst law).

        Args:
            theta: the parameters, exact.

        Returns:
            The JSON object.

        References:
            Kifer and Machanavajjhala (2014), Definition 3.1.
        """
        raise NotImplementedError  # pragma: no cover - each chain has its own


def record_names(obj: Mapping[str, Any], length: int) -> tuple[str, ...] | None:
    """The optional ``"names"`` of a chain's ``length`` records.

    Args:
        obj: the JSON object.
        length: the number of records.

    Returns:
        The names, or None when not given.

    Raises:
        InputError: ``names`` when they are not distinct names, one per record.

    References:
        Li et al. (2019), Section III (the records of a database).
    """
    if obj.get("names") is None:
        return None
    names = check_names(obj["names"], "names")
    if len(names) != length:
        raise InputError("names", f"{len(names)} names for {length} records")
    return tuple(names)


__all__ = [
    "IntervalChainBase",
    "VERTEX_LIMIT",
    "Box",
    "Initial",
    "Interval",
    "binary_parameter",
    "halves",
    "initial_law",
    "inside_point",
    "interval_row",
    "parse_interval",
    "record_names",
    "row_vertices",
    "tighten",
]

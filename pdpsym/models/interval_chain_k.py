"""A Markov chain of ``k > 2`` states whose transition rows (and initial law) are intervals.

JSON form (``"kind": "interval-markov-chain"`` with more than two states)::

    {"kind": "interval-markov-chain", "length": 12, "states": ["0", "1", "2"],
     "transition": [[["1/2", "7/10"], ["1/10", "3/10"], ["1/10", "1/4"]],
                    [["1/5", "1/5"], ["3/5", "3/5"], ["1/5", "1/5"]],
                    ...],
     "initial": "stationary",     # or an exact law, or one interval per state
     "values": [...], "names": [...]}   # optional, as for a markov-chain

Each row stands for every stochastic row inside it: the polytope
``{r : lo <= r <= hi, sum r = 1}``. Its free coordinates are ``r_0 .. r_{k-2}``
(``r_{k-1} = 1 - sum``), each in the interval the polytope leaves
(``[max(lo_j, 1 - sum_{m != j} hi_m), min(hi_j, 1 - sum_{m != j} lo_m)]``); the parameter
box is the product of these over the rows (and over an interval initial law). A sub-box
of it is clipped to the polytopes (:meth:`IntervalChainK.entries`): the entries of the
rows inside it lie in intervals computed exactly, and a sub-box that misses a polytope
holds no member.

References:
    Kifer and Machanavajjhala (TODS 2014), Definition 3.1 (a class of laws); Skulj,
    "Discrete time Markov chains with interval probabilities", IJAR 50 (2009), Sec. 2.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from pdpsym.core.errors import InputError, check_fields
from pdpsym.core.numbers import fraction_str, parse_int
from pdpsym.models.interval_rows import (
    VERTEX_LIMIT,
    Box,
    Interval,
    IntervalChainBase,
    initial_law,
    inside_point,
    interval_row,
    record_names,
    row_vertices,
    tighten,
)
from pdpsym.models.markov import CHAIN_FIELDS, CHAIN_NEEDS, MarkovChain

#: the most states an interval chain takes here (the stationary law's tree sums have
#: ``k^(k-1)`` terms)
MAX_STATES = 6
#: the longest k-state interval chain (the proven float bounds need products of ``2T``
#: entries to stay far above the float range's floor)
MAX_K_LENGTH = 200


@functools.cache
def tree_monomials(k: int) -> tuple[list[tuple[tuple[int, int], ...]], ...]:
    """The spanning trees directed to each state ``j`` of the complete graph on ``k``
    states, as monomials (their edges ``(s, s')``, ``s != s'``): the Markov chain tree
    theorem's ``w_j`` is their sum of products of entries.

    Args:
        k: the number of states.

    Returns:
        Per state, its trees' edge tuples.

    References:
        Leighton and Rivest, "The Markov chain tree theorem", MIT/LCS/TM-249 (1983).
    """
    out = []
    for root in range(k):
        nodes = [s for s in range(k) if s != root]
        monos = []
        for succ in itertools.product(range(k), repeat=k - 1):
            nxt = dict(zip(nodes, succ, strict=True))
            if any(nxt[s] == s for s in nodes) or not all(_reaches(s, root, nxt) for s in nodes):
                continue
            monos.append(tuple((s, nxt[s]) for s in nodes))
        out.append(monos)
    return tuple(out)


def tree_weights(p: Sequence[Sequence[Fraction]]) -> list[Fraction]:
    """The Markov chain tree theorem's weights: ``w_j`` is the sum over the spanning trees
    directed to ``j`` of the products of their edges' entries ``p[s][s']`` (``s != s'``);
    ``pi_j = w_j / sum w`` when ``sum w > 0`` (then the stationary law is unique).
    Polynomials with non-negative coefficients: increasing in every entry.

    Args:
        p: a ``k x k`` matrix of entries (exact).

    Returns:
        ``w_0 .. w_{k-1}``.

    References:
        Leighton and Rivest, "The Markov chain tree theorem", MIT/LCS/TM-249 (1983);
        Levin, Peres, Wilmer (2009), Sec. 1.5.
    """
    return [monomial_sum(monos, p) for monos in tree_monomials(len(p))]


def monomial_sum(
    monos: Sequence[Sequence[tuple[int, int]]], p: Sequence[Sequence[Fraction]]
) -> Fraction:
    """A sum of monomials in a matrix's entries: ``sum_m prod_{(s, t) in m} p[s][t]``.

    Args:
        monos: the monomials, each its entries ``(s, t)``.
        p: the matrix (exact).

    Returns:
        The sum, exact.

    References:
        Leighton and Rivest, "The Markov chain tree theorem", MIT/LCS/TM-249 (1983).
    """
    out = Fraction(0)
    for mono in monos:
        term = Fraction(1)
        for s, t in mono:
            term *= p[s][t]
        out += term
    return out


def _reaches(s: int, root: int, nxt: Mapping[int, int]) -> bool:
    seen = set()
    while s != root:
        if s in seen:
            return False
        seen.add(s)
        s = nxt[s]
    return True


@dataclass(frozen=True)
class IntervalChainK(IntervalChainBase):
    """A k-state Markov chain (``k > 2``) whose transition rows (and initial law) are
    intervals (module docstring): the fields of
    :class:`~pdpsym.models.interval_rows.IntervalChainBase` (the states are labels, as
    given; the ``k`` rows are tightened), and ``values``.

    Args:
        values: the states' values (the sum query's), or None when the states are numbers.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1.
    """

    states: tuple[str, ...]
    values: tuple[str, ...] | None = None
    #: a sub-box is clipped to the rows' polytopes (:meth:`entries`)
    clipped: ClassVar[bool] = True
    evaluated: ClassVar[str] = "polytopes' vertices and centre"

    @classmethod
    def from_json_object(cls, obj: Mapping[str, Any]) -> IntervalChainK:
        """Build from the JSON form (module docstring); every field is checked by name."""
        check_fields(obj, CHAIN_FIELDS, "an interval-markov-chain model", CHAIN_NEEDS)
        states = obj["states"]
        if not isinstance(states, list | tuple) or not 2 < len(states) <= MAX_STATES:
            raise InputError("states", f"expected a list of 3 to {MAX_STATES} states")
        k = len(states)
        vals = obj.get("values")
        if vals is not None and (not isinstance(vals, list | tuple) or len(vals) != k):
            raise InputError("values", f"expected a list of {k} values, one per state")
        labels = tuple(str(s) for s in states)
        values = None if vals is None else tuple(str(v) for v in vals)
        T = parse_int(obj["length"], "length", 1, MAX_K_LENGTH)
        tr = obj["transition"]
        if not isinstance(tr, list | tuple) or len(tr) != k:
            raise InputError("transition", f"expected {k} rows of {k} intervals (one time step)")
        rows = []
        for s, r in enumerate(tr):
            tight = tighten(interval_row(r, k, f"transition[{s}]"))
            assert tight is not None  # interval_row refused the rows admitting no law
            rows.append(tight)
        initial = initial_law(obj["initial"], k)
        if initial == "stationary":
            lows = [[a for a, _ in row] for row in rows]
            if sum(tree_weights(lows)) == 0:
                # the tree weights increase in every entry: positive at the lower ends
                # means positive (a unique stationary law) for every member
                raise InputError(
                    "initial",
                    '"stationary" needs a unique stationary law for every member, which the '
                    "rows' lower ends do not guarantee (give an initial law)",
                )
        elif isinstance(initial[0], tuple):
            tight_initial = tighten(initial)  # type: ignore[arg-type]
            assert tight_initial is not None  # interval_row refused the rows admitting no law
            initial = tight_initial
        names = record_names(obj, T)
        out = cls(labels, T, tuple(rows), initial, names, values)
        out.member(out.centre(out.box()))  # the states and values, checked as a chain's
        return out

    def param_rows(self) -> tuple[tuple[Interval, ...], ...]:
        """The interval rows the parameters range over: the transition rows, then the
        initial law's when it is an interval row."""
        if isinstance(self.initial, tuple) and isinstance(self.initial[0], tuple):
            return (*self.rows, self.initial)  # type: ignore[arg-type]
        return self.rows

    def box(self) -> Box:
        """The parameter box: the free coordinates ``r_0..r_{k-2}`` of each parameter row
        (each in its tightened interval)."""
        return tuple(iv for row in self.param_rows() for iv in row[:-1])

    def entries(self, box: Box) -> tuple[tuple[Interval, ...], ...] | None:
        """Every parameter row's entries over a sub-box, clipped to its polytope.

        Args:
            box: a sub-box of :meth:`box`.

        Returns:
            Per parameter row, ``k`` intervals enclosing every entry of every stochastic
            row whose free coordinates lie in the sub-box (tightened: :func:`tighten`);
            None when some row has no such stochastic row (the sub-box holds no member).
        """
        k = self.k
        out = []
        for j, row in enumerate(self.param_rows()):
            sub = (*box[j * (k - 1) : (j + 1) * (k - 1)], row[-1])
            tight = tighten(sub)
            if tight is None:
                return None
            out.append(tight)
        return tuple(out)

    def centre(self, box: Box) -> tuple[Fraction, ...]:
        """A member's parameters inside a sub-box (which must hold one): each row's
        :func:`inside_point` of its clipped entries."""
        ent = self.entries(box)
        assert ent is not None
        return tuple(v for row in ent for v in inside_point(row)[:-1])

    def vertices(self, limit: int = VERTEX_LIMIT) -> list[tuple[Fraction, ...]]:
        """Members at vertices of the rows' polytopes (every combination, or the first
        ``limit`` of them)."""
        per = [row_vertices(r) for r in self.param_rows()]
        out = []
        for combo in itertools.islice(itertools.product(*per), limit):
            out.append(tuple(v for r in combo for v in r[:-1]))
        return out

    def vertex_count(self) -> int:
        """The product over the parameter rows of their polytopes' vertex counts."""
        return math.prod(len(row_vertices(r)) for r in self.param_rows())

    def holds_member(self, box: Box) -> bool:
        """Whether the sub-box, clipped to the polytopes, holds a member (:meth:`entries`
        is not None)."""
        return self.entries(box) is not None

    def search_start(self) -> tuple[Fraction, ...]:
        """A member inside the whole box (:meth:`centre`)."""
        return self.centre(self.box())

    def box_corners(self, box: Box) -> list[tuple[Fraction, ...]]:
        """None: a clipped sub-box's corners need not be members."""
        return []

    def audit_laws(self, grid: int) -> list[tuple[Fraction, ...]]:
        """The vertices of the rows' polytopes (up to :data:`VERTEX_LIMIT` combinations)
        and a member inside the whole box (``grid`` is for a box of members)."""
        return list(dict.fromkeys([*self.vertices(VERTEX_LIMIT), self.centre(self.box())]))

    def domain(self, target: str) -> tuple[Fraction, ...]:
        """A record's values: the member inside the box's (every member's are the same)."""
        return tuple(self.member(self.centre(self.box())).domain(target))

    def matrix_of(self, theta: Sequence[Fraction]) -> list[list[Fraction]]:
        """The parameter rows at ``theta`` (transition rows, then an interval initial's)."""
        k = self.k
        out = []
        for j in range(len(self.param_rows())):
            free = list(theta[j * (k - 1) : (j + 1) * (k - 1)])
            out.append([*free, 1 - sum(free, Fraction(0))])
        return out

    def member(self, theta: Sequence[Fraction]) -> MarkovChain:
        """The member chain at parameters ``theta`` (a point of :meth:`box` inside the
        polytopes), exact."""
        rows = self.matrix_of(theta)
        init: Any
        if self.initial == "stationary":
            init = "stationary"
        elif isinstance(self.initial[0], tuple):
            init = rows[self.k]
        else:
            init = list(self.initial)
        return MarkovChain(
            list(self.states),
            self.length,
            init,
            rows[: self.k],
            self.names,
            None if self.values is None else list(self.values),
        )

    def law_json(self, theta: Sequence[Fraction]) -> dict[str, Any]:
        """The member at ``theta`` as a ``markov-chain`` JSON object (the worst law)."""
        rows = self.matrix_of(theta)
        out: dict[str, Any] = {
            "kind": "markov-chain",
            "length": self.length,
            "states": list(self.states),
            "transition": [[fraction_str(v) for v in r] for r in rows[: self.k]],
        }
        if self.values is not None:
            out["values"] = list(self.values)
        if self.initial == "stationary":
            out["initial"] = "stationary"
        elif isinstance(self.initial[0], tuple):
            out["initial"] = [fraction_str(v) for v in rows[self.k]]
        else:
            out["initial"] = [fraction_str(p) for p in self.initial]  # type: ignore[arg-type]
        return out


__all__ = [
    "MAX_K_LENGTH",
    "MAX_STATES",
    "Box",
    "IntervalChainK",
    "inside_point",
    "monomial_sum",
    "row_vertices",
    "tighten",
    "tree_monomials",
    "tree_weights",
]

"""Markov chains of records: ``x_1, ..., x_T`` over k states with exact rational laws.

Conventions: a transition matrix's **rows are from-states** (``P[s][s'] = P(x_{t+1} = s'
| x_t = s)``, each row sums to 1); the initial law is given, or ``"stationary"`` (the
unique ``pi`` with ``pi P = pi``, for one time-homogeneous matrix). One matrix serves
every step, or ``T - 1`` matrices give one per step.

JSON form::

    {"kind": "markov-chain", "length": 100, "states": ["0", "1"],
     "initial": ["1/2", "1/2"],            # or "stationary"
     "transition": [["9/10", "1/10"], ["1/10", "9/10"]],
     "names": ["x1", ...],                 # optional; default x1..xT
     "values": ["0", "1"]}                 # optional: each state's value (see below)

**State values.** The sum query ``sum_t w_t x_t`` adds the states' rational values. When
every state is a number (``"0"``, ``"2.5"``, ``"1/3"``) the states are those values, as
before; ``"values"`` gives them deliberately (one distinct rational per state) and then the
states may be any names (``["sit", "walk", "run"]``). A chain whose states are names without
``"values"`` has no sum: the sum query refuses it naming ``values``, while the queries that
need no values (the histogram of the states, randomized response) take it, the states
standing for their indices ``0, 1, ...``.

The count laws come by forward-backward with a running count (Li et al. Eq. 2 needs the
law of ``f(x) = sum_t w_t x_t`` given ``x_i = a`` and ``x_K = v``): prefix polynomials
``F_t(s, z)`` and suffix polynomials ``B_t(s, z)`` in exact integer arithmetic, so that
``P(S = c, x_t = a, x_K = v)`` is proportional to the coefficient of ``z^c`` in
``F_t(a) B_t(a)`` -- every target from one backward and one forward pass.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pdpsym.core import poly
from pdpsym.core.errors import InputError, check_fields
from pdpsym.core.numbers import fraction_str, parse_int, parse_rational
from pdpsym.models.counts import Contributions, RecordModel, TargetFactors, check_known
from pdpsym.models.joint import JointDistribution
from pdpsym.models.query_law import Known, QueryWeights
from pdpsym.models.variables import check_names

Matrix = tuple[tuple[Fraction, ...], ...]

#: the most rows :meth:`MarkovChain.to_joint` builds
MAX_JOINT_ROWS = 1 << 16
#: the longest chain a model file may declare (the engines' --max-work refuses far less)
MAX_LENGTH = 10**12

#: the fields of a chain's JSON form (an interval chain's too), and those it needs
CHAIN_FIELDS = frozenset({"kind", "length", "states", "initial", "transition", "names", "values"})
CHAIN_NEEDS = ("length", "states", "initial", "transition")


def _probability(text: object, field_name: str) -> Fraction:
    p = parse_rational(text, field_name)
    if p < 0:
        raise InputError(field_name, f"negative probability {fraction_str(p)}")
    if p > 1:
        raise InputError(field_name, f"probability above 1: {fraction_str(p)}")
    return p


def _law(row: object, k: int, field_name: str) -> tuple[Fraction, ...]:
    if not isinstance(row, list | tuple):
        raise InputError(field_name, f"expected a list of {k} probabilities")
    if len(row) != k:
        raise InputError(field_name, f"expected {k} probabilities (one per state), got {len(row)}")
    out = tuple(_probability(p, f"{field_name}[{j}]") for j, p in enumerate(row))
    if sum(out, Fraction(0)) != 1:
        raise InputError(
            field_name, f"probabilities sum to {fraction_str(sum(out, Fraction(0)))}, not 1"
        )
    return out


def _matrix(obj: object, k: int, field_name: str) -> Matrix:
    if not isinstance(obj, list | tuple):
        raise InputError(field_name, f"expected a {k}x{k} matrix (rows are from-states)")
    if len(obj) != k:
        raise InputError(field_name, f"expected {k} rows (one per state), got {len(obj)}")
    return tuple(_law(row, k, f"{field_name}[{r}]") for r, row in enumerate(obj))


def stationary_law(matrix: Matrix) -> tuple[Fraction, ...]:
    """The unique stationary law ``pi P = pi`` of a transition matrix, exactly.

    Args:
        matrix: a k x k transition matrix (rows are from-states, each sums to 1).

    Returns:
        ``pi``, k exact probabilities.

    Raises:
        InputError: ``initial``, when the stationary law is not unique (a reducible
            chain).

    References:
        Levin, Peres, Wilmer, "Markov Chains and Mixing Times" (2009), Section 1.5
        (stationary distributions); Song, Wang, Chaudhuri (2017), Section 5 (Markov
        chains in Pufferfish).
    """
    k = len(matrix)
    # unknowns pi_0..pi_{k-1}: equations sum_s pi_s (P[s][j] - [s == j]) = 0 for j < k-1,
    # and sum_s pi_s = 1 (replacing the redundant last balance equation)
    rows = [[matrix[s][j] - (1 if s == j else 0) for s in range(k)] for j in range(k - 1)]
    rows.append([Fraction(1)] * k)
    rhs = [Fraction(0)] * (k - 1) + [Fraction(1)]
    a = [r[:] + [b] for r, b in zip(rows, rhs, strict=True)]
    for col in range(k):
        pivot = next((r for r in range(col, k) if a[r][col] != 0), None)
        if pivot is None:
            raise InputError("initial", "the stationary law is not unique (reducible chain)")
        a[col], a[pivot] = a[pivot], a[col]
        inv = 1 / a[col][col]
        a[col] = [v * inv for v in a[col]]
        for r in range(k):
            if r != col and a[r][col] != 0:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    pi = tuple(a[s][k] for s in range(k))
    if any(p < 0 for p in pi):
        raise InputError("initial", "the stationary law is not unique (reducible chain)")
    return pi


@dataclass(frozen=True, eq=False)
class MarkovChain(RecordModel):
    """A Markov chain of ``length`` records over rational ``states``.

    Args:
        states: the k state values (distinct rationals).
        length: T, the number of records (>= 1).
        initial: the law of ``x_1`` (k probabilities) or ``"stationary"``.
        transition: one k x k matrix (rows are from-states) or ``T - 1`` of them.
        names: record names (default ``x1..xT``).
        values: each state's rational value (optional; see the module docstring).

    References:
        Li et al., Sec. III (Eq. 2 under a correlated prior); Song, Wang, Chaudhuri,
        "Pufferfish privacy mechanisms for correlated data", SIGMOD 2017, Sec. 5 (Markov
        chains as the running example).

    Examples:
        A symmetric transition matrix has the uniform stationary law (by hand: ``pi P = pi``
        for ``pi = (1/2, 1/2)``):

        >>> import pdpsym as ps
        >>> stay = [["9/10", "1/10"], ["1/10", "9/10"]]
        >>> chain = ps.MarkovChain(["0", "1"], 100, "stationary", stay)
        >>> chain.length, chain.initial_law
        (100, (Fraction(1, 2), Fraction(1, 2)))
    """

    states: tuple[Fraction, ...]
    length: int
    initial_law: tuple[Fraction, ...]
    matrices: tuple[Matrix, ...]
    stationary: bool = False
    _names: tuple[str, ...] | None = field(default=None, repr=False)
    assignment_invariant: bool = False
    state_names: tuple[str, ...] = ()
    has_values: bool = True

    def __init__(
        self,
        states: Sequence[Any],
        length: int,
        initial: Sequence[Any] | str,
        transition: Sequence[Any],
        names: Sequence[str] | None = None,
        values: Sequence[Any] | None = None,
    ) -> None:
        if not isinstance(states, list | tuple) or len(states) < 2:
            raise InputError("states", "expected a list of at least 2 state values")
        vals, labels, has_values = _state_values(states, values)
        k = len(vals)
        T = parse_int(length, "length", 1, MAX_LENGTH)
        if not isinstance(transition, list | tuple) or not transition:
            raise InputError("transition", "expected a k x k matrix or a list of T - 1 of them")
        per_step = (
            isinstance(transition[0], list | tuple)
            and bool(transition[0])
            and all(isinstance(r, list | tuple) for r in transition[0])
        )
        if per_step:
            if len(transition) != max(T - 1, 1):
                raise InputError(
                    "transition",
                    f"{len(transition)} matrices for {T} records (one per step: {max(T - 1, 1)})",
                )
            mats = tuple(_matrix(m, k, f"transition[{j}]") for j, m in enumerate(transition))
        else:
            mats = (_matrix(transition, k, "transition"),)
        stationary = False
        if isinstance(initial, str) and initial.strip() == "stationary":
            if len(mats) != 1:
                raise InputError("initial", '"stationary" needs one time-homogeneous matrix')
            init = stationary_law(mats[0])
            stationary = True
        else:
            init = _law(initial, k, "initial")
        nm = None
        if names is not None:
            nm = check_names(names, "names")
            if len(nm) != T:
                raise InputError("names", f"{len(nm)} names for {T} records")
        object.__setattr__(self, "states", vals)
        object.__setattr__(self, "length", T)
        object.__setattr__(self, "initial_law", init)
        object.__setattr__(self, "matrices", mats)
        object.__setattr__(self, "stationary", stationary)
        object.__setattr__(self, "_names", nm)
        object.__setattr__(self, "assignment_invariant", False)
        object.__setattr__(self, "state_names", labels)
        object.__setattr__(self, "has_values", has_values)

    @classmethod
    def from_json_object(cls, obj: Mapping[str, Any]) -> MarkovChain:
        """Build from the JSON form (see the module docstring); fields are checked by name."""
        check_fields(obj, CHAIN_FIELDS, "a markov-chain model", CHAIN_NEEDS)
        return cls(
            obj["states"],
            obj["length"],
            obj["initial"],
            obj["transition"],
            obj.get("names"),
            obj.get("values"),
        )

    # --- the StructuredModel protocol (with RecordModel) ---------------------------

    def _record_domains(self) -> Sequence[tuple[Fraction, ...]]:
        return (self.states,) * self.length

    @property
    def k(self) -> int:
        """The number of states."""
        return len(self.states)

    def matrix(self, step: int) -> Matrix:
        """The matrix of the step ``x_{step+1} -> x_{step+2}`` (0-based ``step``)."""
        return self.matrices[0] if len(self.matrices) == 1 else self.matrices[step]

    def contributions(self, weights: QueryWeights = None) -> Contributions:
        """The sum query's integer contributions; refused (field ``values``) when the states
        are names without values.

        Args:
            weights: integer weight per record name (default 1).

        Returns:
            The :class:`~pdpsym.models.counts.Contributions` of ``sum_t w_t x_t``.

        References:
            Li et al. (2019), Section III, Eq. 2 (the query sums the records' values).
        """
        if not self.has_values:
            raise InputError(
                "values",
                f"the states {list(self.state_names)} are names without values: the sum "
                'query needs "values" (one rational per state); the histogram needs none',
            )
        return super().contributions(weights)

    def size_hint(self) -> int:
        """Cells of the forward-backward tables: ``k^2 T (N + 1)`` for the sum query."""
        lo, hi = min(self.states), max(self.states)
        scale = math.lcm(*(v.denominator for v in self.states))
        span = self.length * int((hi - lo) * scale)
        return self.k * self.k * self.length * (span + 1)

    # --- group DP -------------------------------------------------------------------

    def dependence_groups(self) -> list[tuple[str, ...]]:
        """Maximal runs of records linked by a step whose matrix has two different rows
        (a step with identical rows makes the future independent of the past)."""
        names = self.variables
        groups: list[tuple[str, ...]] = []
        start = 0
        for t in range(self.length - 1):
            m = self.matrix(t)
            if all(row == m[0] for row in m):
                groups.append(tuple(names[start : t + 1]))
                start = t + 1
        groups.append(tuple(names[start:]))
        return groups

    def markov_blanket(self, name: str) -> tuple[str, ...]:
        """The neighbours ``x_{i-1}``, ``x_{i+1}`` that a step links to ``x_i`` (a step
        whose matrix has two different rows; identical rows make ``x_{i+1}`` independent
        of ``x_i``): given them, ``x_i`` is independent of every other record.

        Args:
            name: the record.

        Returns:
            The blanket's record names, in chain order.
        """
        t = self.index(name, "target")
        names = self.variables
        out = []
        for u, step in ((t - 1, t - 1), (t + 1, t)):
            if 0 <= u < self.length and any(r != self.matrix(step)[0] for r in self.matrix(step)):
                out.append(names[u])
        return tuple(out)

    # --- exact forward-backward ---------------------------------------------------

    def _integer_steps(self) -> tuple[tuple[int, ...], list[tuple[tuple[int, ...], ...]]]:
        d0 = math.lcm(*(p.denominator for p in self.initial_law))
        init = tuple(int(p * d0) for p in self.initial_law)
        steps = []
        for m in self.matrices:
            d = math.lcm(*(p.denominator for row in m for p in row))
            steps.append(tuple(tuple(int(p * d) for p in row) for row in m))
        return init, steps

    def target_factors(
        self, targets: Sequence[str], known: Known, weights: QueryWeights = None
    ) -> Iterator[tuple[str, TargetFactors]]:
        """For each target, value -> ``(F_t(a), B_t(a))`` (forward-backward, exact)."""
        pos_of = {name: self.index(name, "target") for name in targets}
        kn = check_known(self.variables, {v: self.states for v in known}, known)
        for name in known:
            self.index(name, "known")
        k, T = self.k, self.length
        state_of = {self.index(n): self.states.index(v) for n, v in kn.items()}
        contrib = self.contributions(weights)
        init, steps = self._integer_steps()

        def allowed(t: int, s: int) -> bool:
            return t not in state_of or state_of[t] == s

        def step(t: int) -> tuple[tuple[int, ...], ...]:
            return steps[0] if len(steps) == 1 else steps[t]

        want = sorted(set(pos_of.values()))
        if not want:
            return
        if len(want) <= 2 and T > 64:
            # few targets of a long chain: products of transfer matrices by a balanced
            # tree (fast multiplication) instead of T sequential steps each
            yield from self._tree_factors(targets, pos_of, state_of, contrib, init, steps)
            return
        first = want[0]
        # backward: B[t][s] = sum_{s'} A_t[s][s'] z^{c_{t+1}(s')} B[t+1][s'] (masked at t+1)
        suffix: dict[int, list[Any]] = {}
        cur = [poly.monomial(1, 0) for _ in range(k)]
        if T - 1 in pos_of.values():
            suffix[T - 1] = cur
        for t in range(T - 2, first - 1, -1):
            a = step(t)
            row_c = contrib.table[t + 1]
            nxt = [
                poly.monomial(cur[s2], row_c[s2]) if allowed(t + 1, s2) else None for s2 in range(k)
            ]
            cur = [
                poly.linear_combination([(nxt[s2], a[s][s2]) for s2 in range(k)]) for s in range(k)
            ]
            if t in want:
                suffix[t] = cur
        # forward, handing out each target as it is reached
        row_c = contrib.table[0]
        fwd = [poly.monomial(init[s], row_c[s]) if allowed(0, s) else poly.zero() for s in range(k)]
        by_pos: dict[int, list[str]] = {}
        for name, p in pos_of.items():
            by_pos.setdefault(p, []).append(name)
        results: dict[str, TargetFactors] = {}
        last = want[-1]
        for t in range(last + 1):
            if t > 0:
                a = step(t - 1)
                row_c = contrib.table[t]
                fwd = poly.forward_step(fwd, a, row_c, [allowed(t, s2) for s2 in range(k)])
            if t in by_pos:
                f = {self.states[s]: (fwd[s], suffix[t][s]) for s in range(k)}
                for name in by_pos[t]:
                    results[name] = f
                suffix.pop(t, None)
                # yield in the caller's order as soon as possible
        for name in targets:
            yield name, results[name]

    def _tree_factors(
        self,
        targets: Sequence[str],
        pos_of: Mapping[str, int],
        state_of: Mapping[int, int],
        contrib: Contributions,
        init: tuple[int, ...],
        steps: list[tuple[tuple[int, ...], ...]],
    ) -> Iterator[tuple[str, TargetFactors]]:
        """Each target's ``(F_t(a), B_t(a))`` from matrix products: ``F_t = F_0 M_1 ...
        M_t`` and ``B_t = M_{t+1} ... M_{T-1} 1`` with the transfer matrices
        ``M_u[s][s'] = A_{u-1}[s][s'] z^{c_u(s')}`` (zero columns for excluded states)."""
        k, T = self.k, self.length

        def transfer(u: int) -> list[list[Any]]:
            a = steps[0] if len(steps) == 1 else steps[u - 1]
            row_c = contrib.table[u]
            return [
                [
                    poly.monomial(a[s][s2], row_c[s2])
                    if a[s][s2] and (u not in state_of or state_of[u] == s2)
                    else poly.zero()
                    for s2 in range(k)
                ]
                for s in range(k)
            ]

        def mul(x: list[list[Any]], y: list[list[Any]]) -> list[list[Any]]:
            return [
                [_combine_polys([x[i][m] * y[m][j] for m in range(k)]) for j in range(k)]
                for i in range(k)
            ]

        def segment(u0: int, u1: int) -> list[list[Any]] | None:
            """``M_{u0} ... M_{u1-1}`` (None: the empty product, the identity)."""
            if u1 <= u0:
                return None
            same = len(steps) == 1 and not any(u0 <= u < u1 for u in state_of)
            same = same and all(contrib.table[u] == contrib.table[u0] for u in range(u0, u1))
            if same:
                # one matrix to a power, by squaring
                base, e, result = transfer(u0), u1 - u0, None
                while e:
                    if e & 1:
                        result = base if result is None else mul(result, base)
                    e >>= 1
                    if e:
                        base = mul(base, base)
                return result
            if u1 - u0 == 1:
                return transfer(u0)
            mid = (u0 + u1) // 2
            left, right = segment(u0, mid), segment(mid, u1)
            assert left is not None and right is not None
            return mul(left, right)

        row_c = contrib.table[0]
        start = [
            poly.monomial(init[s], row_c[s])
            if (0 not in state_of or state_of[0] == s)
            else poly.zero()
            for s in range(k)
        ]
        for name in targets:
            t = pos_of[name]
            pre = segment(1, t + 1)
            fwd = (
                start
                if pre is None
                else [_combine_polys([start[s] * pre[s][s2] for s in range(k)]) for s2 in range(k)]
            )
            suf = segment(t + 1, T)
            bwd = (
                [poly.monomial(1, 0)] * k
                if suf is None
                else [_combine_polys(list(suf[s])) for s in range(k)]
            )
            yield name, {self.states[s]: (fwd[s], bwd[s]) for s in range(k)}

    # --- cross-checks -------------------------------------------------------------

    def to_joint(self) -> JointDistribution:
        """The full joint table (small chains only: at most 2^16 sequences)."""
        if self.k**self.length > MAX_JOINT_ROWS:
            raise InputError(
                "model", f"{self.k}^{self.length} sequences: too many for a full table"
            )
        probs: dict[tuple[Fraction, ...], Fraction] = {}
        for seq in itertools.product(range(self.k), repeat=self.length):
            p = self.initial_law[seq[0]]
            for t in range(self.length - 1):
                p *= self.matrix(t)[seq[t]][seq[t + 1]]
                if p == 0:
                    break
            if p:
                probs[tuple(self.states[s] for s in seq)] = p
        return JointDistribution.from_rows(
            self.variables,
            [[*key, p] for key, p in probs.items()],
            {v: self.states for v in self.variables},
        )

    def __repr__(self) -> str:
        init = "stationary" if self.stationary else [fraction_str(p) for p in self.initial_law]
        return f"MarkovChain(k={self.k}, length={self.length}, initial={init})"


def _state_values(
    states: Sequence[Any], values: Sequence[Any] | None
) -> tuple[tuple[Fraction, ...], tuple[str, ...], bool]:
    """``(values, labels, has_values)`` of a chain's states (see the module docstring)."""
    if values is not None:
        if not all(isinstance(s, str) and s.strip() for s in states):
            raise InputError("states", 'with "values", the states are non-empty names')
        labels = tuple(str(s) for s in states)
        if len(set(labels)) != len(labels):
            raise InputError("states", "state names must be distinct")
        if not isinstance(values, list | tuple) or len(values) != len(states):
            raise InputError("values", f"expected a list of {len(states)} values, one per state")
        vals = tuple(parse_rational(v, f"values[{j}]") for j, v in enumerate(values))
        if len(set(vals)) != len(vals):
            raise InputError("values", "two states have the same value")
        return vals, labels, True
    try:
        vals = tuple(parse_rational(s, f"states[{j}]") for j, s in enumerate(states))
    except InputError:
        if not all(isinstance(s, str) and s.strip() for s in states):
            raise
        labels = tuple(states)
        if len(set(labels)) != len(labels):
            raise InputError("states", "state names must be distinct") from None
        # names without values: the states stand for their indices (no sum query)
        return tuple(Fraction(j) for j in range(len(states))), labels, False
    if len(set(vals)) != len(vals):
        raise InputError("states", "state values must be distinct")
    return vals, tuple(fraction_str(v) for v in vals), True


def _combine_polys(terms: Sequence[Any]) -> Any:
    acc = None
    for p in terms:
        if not poly.is_zero(p):
            acc = p if acc is None else acc + p
    return poly.zero() if acc is None else acc


__all__ = ["MAX_JOINT_ROWS", "MarkovChain", "stationary_law"]

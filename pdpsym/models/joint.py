"""Finite joint distributions with exact rational probabilities (Li et al. Sec. III).

A :class:`JointDistribution` ``theta`` over named variables ``x_1..x_n``, each with a
finite domain of rationals ``X_k`` (which may list values of probability zero). Only
rows of positive probability are stored. The constructors validate: probabilities are
non-negative rationals summing to exactly 1, rows have one value per variable plus a
probability, values lie in their declared domains, no row or name repeats.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str, parse_rational
from pdpsym.models.variables import NamedVariables, check_names

if TYPE_CHECKING:  # sympy loads only for the exact Pearson coefficient
    import sympy

Assignment = tuple[Fraction, ...]


_check_names = check_names  # kept importable


@dataclass(frozen=True, eq=False)
class JointDistribution(NamedVariables):
    """An exact joint distribution over finite rational domains.

    Examples:
        >>> from pdpsym import JointDistribution
        >>> m = JointDistribution.from_rows(["x1", "x2"], [[0, 0, "1/2"], [1, 1, "1/2"]])
        >>> m.variables, m.prob({"x1": 1})
        (('x1', 'x2'), Fraction(1, 2))
    """

    variables: tuple[str, ...]
    domains: tuple[tuple[Fraction, ...], ...]
    probs: Mapping[Assignment, Fraction] = field(repr=False)

    # --- constructors --------------------------------------------------------------

    @classmethod
    def from_rows(
        cls,
        variables: Sequence[str],
        rows: Iterable[Sequence[Any]],
        domains: Mapping[str, Sequence[Any]] | None = None,
    ) -> JointDistribution:
        """Build from rows ``[v_1, ..., v_n, p]``; numbers may be strings ("3/10", "0.3")."""
        names = check_names(variables, "variables")
        n = len(names)
        probs: dict[Assignment, Fraction] = {}
        # each distinct value gets an int code, so that the per-row bookkeeping hashes ints
        # (a Fraction's hash is computed in Python: most of the time of a large table)
        code_of: dict[Fraction, int] = {}
        value_of: list[Fraction] = []
        text_code: dict[str, tuple[int, Fraction]] = {}  # cell text -> (code, value)
        seen_codes: list[set[int]] = [set() for _ in names]
        seen_rows: set[tuple[int, ...]] = set()
        total = Fraction(0)
        for r, row in enumerate(rows):
            if not isinstance(row, list | tuple):
                raise InputError(f"rows[{r}]", "expected a list [value, ..., probability]")
            if len(row) != n + 1:
                raise InputError(
                    f"rows[{r}]",
                    f"expected {n + 1} entries ({n} values and a probability), got {len(row)}",
                )
            codes, vals = [], []
            for k, v in enumerate(row[:n]):
                hit = text_code.get(v) if v.__class__ is str else None
                if hit is None:
                    q = parse_rational(v, f"rows[{r}][{k}]")
                    c = code_of.setdefault(q, len(value_of))
                    if c == len(value_of):
                        value_of.append(q)
                    if v.__class__ is str:
                        text_code[v] = (c, q)
                else:
                    c, q = hit
                codes.append(c)
                vals.append(q)
            key = tuple(codes)
            values = tuple(vals)
            p = parse_rational(row[n], f"rows[{r}][{n}] (probability)")
            if p < 0:
                raise InputError(
                    f"rows[{r}][{n}] (probability)", f"negative probability {fraction_str(p)}"
                )
            if key in seen_rows:
                raise InputError(
                    f"rows[{r}]", "duplicate row " + ", ".join(map(fraction_str, values))
                )
            seen_rows.add(key)
            for k, c in enumerate(codes):
                seen_codes[k].add(c)
            total += p
            if p > 0:
                probs[values] = p
        if total != 1:
            raise InputError("rows", f"probabilities sum to {fraction_str(total)}, not exactly 1")
        seen_values = [{value_of[c] for c in cs} for cs in seen_codes]
        if domains is None:
            doms = tuple(tuple(sorted(s)) for s in seen_values)
        else:
            if not isinstance(domains, Mapping):
                raise InputError("domains", "expected an object mapping names to value lists")
            unknown = [k for k in domains if k not in names]
            if unknown:
                raise InputError("domains", f"unknown variable {unknown[0]!r}")
            dl = []
            for k, name in enumerate(names):
                if name not in domains:
                    dl.append(tuple(sorted(seen_values[k])))
                    continue
                raw = domains[name]
                if not isinstance(raw, list | tuple) or not raw:
                    raise InputError(f"domains.{name}", "expected a non-empty list of values")
                vals = [parse_rational(v, f"domains.{name}[{j}]") for j, v in enumerate(raw)]
                if len(set(vals)) != len(vals):
                    raise InputError(f"domains.{name}", "repeated value")
                outside = seen_values[k] - set(vals)
                if outside:
                    bad = fraction_str(min(outside))
                    raise InputError(f"domains.{name}", f"row value {bad} is not in the domain")
                dl.append(tuple(sorted(vals)))
            doms = tuple(dl)
        return cls(names, doms, probs)

    @classmethod
    def from_json_object(cls, obj: Any) -> JointDistribution:
        """The model file form: ``{"variables", "domains"?, "rows"}``."""
        if not isinstance(obj, dict):
            raise InputError("model", "expected a JSON object")
        for key in ("variables", "rows"):
            if key not in obj:
                raise InputError(key, "missing")
        extra = set(obj) - {"variables", "rows", "domains", "name", "description"}
        if extra:
            raise InputError(sorted(extra)[0], "unknown field in a discrete model")
        if not isinstance(obj["rows"], list):
            raise InputError("rows", "expected a list of rows")
        return cls.from_rows(obj["variables"], obj["rows"], obj.get("domains"))

    @classmethod
    def product(cls, marginals: Mapping[str, Mapping[Any, Any]]) -> JointDistribution:
        """The product (independent) distribution of the given marginals."""
        names = list(marginals)
        parsed = []
        for name in names:
            m = {
                parse_rational(v, f"{name}.value"): parse_rational(p, f"{name}.p")
                for v, p in marginals[name].items()
            }
            if sum(m.values()) != 1 or any(p < 0 for p in m.values()):
                raise InputError(name, "marginal must be non-negative and sum to 1")
            parsed.append(m)
        rows: dict[Assignment, Fraction] = {(): Fraction(1)}
        for m in parsed:
            rows = {a + (v,): p * q for a, p in rows.items() for v, q in m.items() if p * q > 0}
        domains = {name: sorted(m) for name, m in zip(names, parsed, strict=True)}
        return cls.from_rows(names, [list(a) + [p] for a, p in rows.items()], domains)

    # --- basic access --------------------------------------------------------------

    def domain(self, name: str) -> tuple[Fraction, ...]:
        """The declared values of variable ``name``, in order."""
        return self.domains[self.index(name)]

    def prob(self, assignment: Mapping[str, Fraction]) -> Fraction:
        """P(x_A = a) for a partial assignment."""
        idx = [(self.index(k), Fraction(v)) for k, v in assignment.items()]
        return sum(
            (p for row, p in self.probs.items() if all(row[i] == v for i, v in idx)), Fraction(0)
        )

    # --- derived distributions -----------------------------------------------------

    def marginal(self, names: Sequence[str]) -> JointDistribution:
        """theta(x_A) over the variables ``names``, in that order (exact sums)."""
        idx = [self.index(n) for n in names]
        acc: dict[Assignment, Fraction] = {}
        for row, p in self.probs.items():
            key = tuple(row[i] for i in idx)
            acc[key] = acc.get(key, Fraction(0)) + p
        return JointDistribution(tuple(names), tuple(self.domains[i] for i in idx), acc)

    def conditional(self, given: Mapping[str, Fraction]) -> JointDistribution:
        """theta(. | x_A = a) over the remaining variables."""
        z = self.prob(given)
        if z == 0:
            raise InputError("given", "conditioning event has probability 0")
        idx = {self.index(k): Fraction(v) for k, v in given.items()}
        keep = [i for i in range(self.n) if i not in idx]
        acc: dict[Assignment, Fraction] = {}
        for row, p in self.probs.items():
            if all(row[i] == v for i, v in idx.items()):
                key = tuple(row[i] for i in keep)
                acc[key] = acc.get(key, Fraction(0)) + p / z
        return JointDistribution(
            tuple(self.variables[i] for i in keep), tuple(self.domains[i] for i in keep), acc
        )

    def query_law(
        self,
        target: str,
        value: Fraction,
        known: Mapping[str, Fraction],
        weights: Mapping[str, Fraction | int] | None = None,
    ) -> dict[Fraction, Fraction] | None:
        """The exact law of ``sum_k w_k x_k`` given ``x_target = value`` and ``x_K = known``
        (the question every model answers; see :mod:`pdpsym.models.query_law`).

        Args:
            target: the conditioning record.
            value: its value.
            known: the known records' values.
            weights: the query's weight per record (None, or a record left out: 1).

        Returns:
            ``{query value: probability}`` over the values of positive probability, or
            None when the conditioning event has probability 0.

        References:
            Li et al. (2019), Section III, Eq. 2 (the conditional law of a linear query).

        Examples:
            >>> m = JointDistribution.from_rows(["x1", "x2"], [[0, 0, "1/2"], [1, 1, "1/2"]])
            >>> m.query_law("x1", Fraction(1), {})
            {Fraction(2, 1): Fraction(1, 1)}
        """
        given = {self.index(target, "target"): Fraction(value)}
        given.update({self.index(k, "known"): Fraction(v) for k, v in known.items()})
        w = [
            Fraction(weights.get(v, 1)) if weights is not None else Fraction(1)
            for v in self.variables
        ]
        acc: dict[Fraction, Fraction] = {}
        for row, p in self.probs.items():
            if p and all(row[i] == v for i, v in given.items()):
                f = sum((wk * x for wk, x in zip(w, row, strict=True)), Fraction(0))
                acc[f] = acc.get(f, Fraction(0)) + p
        z = sum(acc.values(), Fraction(0))
        if z == 0:
            return None
        return {f: q / z for f, q in sorted(acc.items())}

    def expectation(self, name: str) -> Fraction:
        """E[x_name], exactly."""
        i = self.index(name)
        return sum((row[i] * p for row, p in self.probs.items()), Fraction(0))

    def covariance(self, a: str, b: str) -> Fraction:
        """Cov(x_a, x_b), exactly."""
        i, j = self.index(a), self.index(b)
        ea, eb = self.expectation(a), self.expectation(b)
        return sum(
            ((row[i] - ea) * (row[j] - eb) * p for row, p in self.probs.items()), Fraction(0)
        )

    def pearson(self, a: str, b: str) -> sympy.Expr | None:
        """The exact Pearson coefficient (None when a variance is zero)."""
        va, vb = self.covariance(a, a), self.covariance(b, b)
        if va == 0 or vb == 0:
            return None
        import sympy  # noqa: PLC0415 (lazily: a joint table needs no sympy to load)

        c = self.covariance(a, b)
        return sympy.Rational(c.numerator, c.denominator) / sympy.sqrt(
            sympy.Rational((va * vb).numerator, (va * vb).denominator)
        )

    def pearson_sign(self, a: str, b: str) -> int:
        """sign(rho) = sign(cov), exactly (0 when a variance is zero)."""
        c = self.covariance(a, b)
        return (c > 0) - (c < 0)

    def is_independent(self) -> bool:
        """Whether theta equals the product of its one-variable marginals, exactly."""
        margs = [self.marginal([v]) for v in self.variables]
        mp = [{k[0]: p for k, p in m.probs.items()} for m in margs]
        support = 1
        for m in mp:
            support *= len(m)
        if support != len(self.probs):
            return False
        for row, p in self.probs.items():
            q = Fraction(1)
            for k, v in enumerate(row):
                q *= mp[k].get(v, Fraction(0))
            if q != p:
                return False
        return True

    # --- dense integer form (for vectorized exact work) ----------------------------

    @cached_property
    def denominator(self) -> int:
        """The least common denominator of the probabilities."""
        return math.lcm(*(p.denominator for p in self.probs.values()))

    @property
    def cells(self) -> int:
        """The number of cells of the dense table :attr:`counts` (the product of the
        domain sizes): what a dense computation allocates, known before allocating it."""
        return math.prod(len(d) for d in self.domains)

    @cached_property
    def counts(self) -> np.ndarray:
        """Dense array C with theta(x) = C[x] / denominator, exactly (int64 or object)."""
        shape = tuple(len(d) for d in self.domains)
        big = self.denominator >= 2**62
        arr = np.zeros(shape, dtype=object if big else np.int64)
        pos = [{v: j for j, v in enumerate(d)} for d in self.domains]
        L = self.denominator
        for row, p in self.probs.items():
            arr[tuple(pos[k][v] for k, v in enumerate(row))] = (p * L).numerator
        return arr

    def to_json_object(self) -> dict[str, Any]:
        """The JSON form (variables, domains, rows; numbers as exact strings)."""
        return {
            "variables": list(self.variables),
            "domains": {
                n: [fraction_str(v) for v in d]
                for n, d in zip(self.variables, self.domains, strict=True)
            },
            "rows": [
                [fraction_str(v) for v in row] + [fraction_str(p)]
                for row, p in sorted(self.probs.items())
            ],
        }

    def __repr__(self) -> str:
        return f"JointDistribution(variables={self.variables}, rows={len(self.probs)})"

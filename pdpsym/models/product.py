"""Independent records, each with its own finite law (a product distribution).

JSON forms::

    {"kind": "product", "records": [{"values": ["0", "1", "2"], "probs": ["1/2", "1/4", "1/4"]},
                                     ...],
     "names": [...]}                                  # optional; default x1..xn
    {"kind": "product", "bernoulli": ["1/10", "1/5", "1/5"]}   # records in {0, 1}

The Bernoulli form is the Poisson-binomial setting of Desfontaines et al. Sec. 4 with
heterogeneous ``p_i``; a ``--p-values`` file (one ``p_i`` a line) reads as the same model.

The count law given ``x_i = a`` is the product of the other records' generating
polynomials shifted by ``a``'s contribution: records with equal laws share one product
(``prod_g p_g(z)^{m_g}``, fast exact powers), and the known records only shift the count.
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
from pdpsym.core.numbers import fraction_str, parse_rational
from pdpsym.models.counts import RecordModel, TargetFactors, check_known
from pdpsym.models.joint import JointDistribution
from pdpsym.models.query_law import Known, QueryWeights
from pdpsym.models.variables import check_names

Law = tuple[tuple[Fraction, ...], tuple[Fraction, ...]]

#: the most rows :meth:`ProductModel.to_joint` builds
MAX_JOINT_ROWS = 1 << 16
#: the most records a model may declare
MAX_RECORDS = 10**7


def _record(obj: object, field_name: str) -> Law:
    if not isinstance(obj, Mapping) or "values" not in obj or "probs" not in obj:
        raise InputError(field_name, 'expected {"values": [...], "probs": [...]}')
    values, probs = obj["values"], obj["probs"]
    if not isinstance(values, list | tuple) or not values:
        raise InputError(f"{field_name}.values", "expected a non-empty list of values")
    if not isinstance(probs, list | tuple) or len(probs) != len(values):
        raise InputError(
            f"{field_name}.probs", f"expected {len(values)} probabilities (one per value)"
        )
    vals = tuple(parse_rational(v, f"{field_name}.values[{j}]") for j, v in enumerate(values))
    if len(set(vals)) != len(vals):
        raise InputError(f"{field_name}.values", "values must be distinct")
    ps = []
    for j, p in enumerate(probs):
        q = parse_rational(p, f"{field_name}.probs[{j}]")
        if q < 0:
            raise InputError(f"{field_name}.probs[{j}]", f"negative probability {fraction_str(q)}")
        ps.append(q)
    if sum(ps) != 1:
        raise InputError(
            f"{field_name}.probs",
            f"probabilities sum to {fraction_str(sum(ps, Fraction(0)))}, not 1",
        )
    return vals, tuple(ps)


@dataclass(frozen=True, eq=False)
class ProductModel(RecordModel):
    """Independent records with their own finite laws.

    Args:
        laws: per record ``(values, probs)``.
        names: record names (default ``x1..xn``).

    References:
        Desfontaines et al., Sec. 4 (Poisson-binomial counts); Li et al., Eq. 2.

    Examples:
        >>> import pdpsym as ps
        >>> coins = ps.ProductModel([(["0", "1"], ["1/2", "1/2"])] * 3)
        >>> coins.variables
        ('x1', 'x2', 'x3')
    """

    laws: tuple[Law, ...]
    _names: tuple[str, ...] | None = field(default=None, repr=False)
    assignment_invariant: bool = True

    def __init__(self, laws: Sequence[Law | Mapping[str, Any]], names: Sequence[str] | None = None):
        if not isinstance(laws, list | tuple) or not laws:
            raise InputError("records", "expected a non-empty list of records")
        if len(laws) > MAX_RECORDS:
            raise InputError("records", f"more than {MAX_RECORDS} records")
        out = []
        for r, law in enumerate(laws):
            if isinstance(law, Mapping):
                out.append(_record(law, f"records[{r}]"))
            else:
                vals, ps = law
                out.append(_record({"values": list(vals), "probs": list(ps)}, f"records[{r}]"))
        nm = None
        if names is not None:
            nm = check_names(names, "names")
            if len(nm) != len(out):
                raise InputError("names", f"{len(nm)} names for {len(out)} records")
        object.__setattr__(self, "laws", tuple(out))
        object.__setattr__(self, "_names", nm)
        object.__setattr__(self, "assignment_invariant", True)

    @classmethod
    def bernoulli(cls, p_values: Sequence[Any], names: Sequence[str] | None = None) -> ProductModel:
        """Records in ``{0, 1}`` with ``P(x_i = 1) = p_i``."""
        if not isinstance(p_values, list | tuple) or not p_values:
            raise InputError("bernoulli", "expected a non-empty list of probabilities")
        laws = []
        for j, p in enumerate(p_values):
            q = parse_rational(p, f"bernoulli[{j}]")
            if not 0 <= q <= 1:
                raise InputError(f"bernoulli[{j}]", f"not a probability: {fraction_str(q)}")
            laws.append(((Fraction(0), Fraction(1)), (1 - q, q)))
        return cls(laws, names)

    @classmethod
    def from_json_object(cls, obj: Mapping[str, Any]) -> ProductModel:
        """Build from the JSON form (see the module docstring)."""
        check_fields(obj, {"kind", "records", "bernoulli", "names"}, "a product model")
        if ("records" in obj) == ("bernoulli" in obj):
            raise InputError("records", 'give either "records" or "bernoulli"')
        if "bernoulli" in obj:
            return cls.bernoulli(obj["bernoulli"], obj.get("names"))
        return cls(obj["records"], obj.get("names"))

    def _record_domains(self) -> Sequence[tuple[Fraction, ...]]:
        return tuple(values for values, _ in self.laws)

    def size_hint(self) -> int:
        """Coefficient operations of the grouped products: about ``groups * n * N``."""
        groups = len(set(self.laws))
        span = len(self.laws) * max(len(v) for v, _ in self.laws)
        return (groups + 1) * len(self.laws) * (span + 1)

    def law_bits(self) -> int:
        """The total size (bits) of the records' probabilities: for each record the
        largest numerator or denominator of its law. The exact count laws' coefficients
        grow to about this many bits, so the audit's work estimate reads it.

        Returns:
            The sum over records of the largest bit length in the record's law.
        """
        return sum(
            max(max(p.numerator.bit_length(), p.denominator.bit_length()) for p in ps)
            for _, ps in self.laws
        )

    def dependence_groups(self) -> list[tuple[str, ...]]:
        """One group per record: the records are independent."""
        return [(v,) for v in self.variables]

    def markov_blanket(self, name: str) -> tuple[str, ...]:
        """The records ``x_i`` depends on given all others: none (independent records).

        Args:
            name: the record.

        Returns:
            ``()``.
        """
        self.index(name, "target")
        return ()

    def target_factors(
        self, targets: Sequence[str], known: Known, weights: QueryWeights = None
    ) -> Iterator[tuple[str, TargetFactors]]:
        """For each target, value -> factors ``(R_g, c z^{c_i(a)})``: ``R_g`` is the
        product of every other unknown record's polynomial (one per distinct law)."""
        pos = [self.index(name, "target") for name in targets]
        kn = check_known(self.variables, {v: self.domain(v) for v in known}, known)
        contrib = self.contributions(weights)
        known_pos = {self.index(n): v for n, v in kn.items()}
        # known records: the probability of their value and their contribution
        shift = 0
        weight = 1
        for t, v in known_pos.items():
            vals, ps = self.laws[t]
            j = vals.index(v)
            shift += contrib.table[t][j]
            num = ps[j]
            if num == 0:
                weight = 0
            else:
                weight *= num.numerator
        # group the unknown records by (law, contributions)
        groups: dict[tuple[Law, tuple[int, ...]], int] = {}
        for t, law in enumerate(self.laws):
            if t not in known_pos:
                key = (law, contrib.table[t])
                groups[key] = groups.get(key, 0) + 1
        gp: dict[tuple[Law, tuple[int, ...]], Any] = {}
        for key in groups:
            (vals, ps), cs = key
            d = 1
            for p in ps:
                d = d * p.denominator // _gcd(d, p.denominator)
            coeffs = [0] * (max(cs) + 1)
            for p, c in zip(ps, cs, strict=True):
                coeffs[c] += int(p * d)
            gp[key] = poly.from_coefficients(coeffs)
        cache: dict[tuple[Law, tuple[int, ...]], Any] = {}
        for name, t in zip(targets, pos, strict=True):
            key = (self.laws[t], contrib.table[t])
            if key not in cache:
                cache[key] = poly.product(
                    [
                        poly.power(gp[g], m - (1 if g == key else 0))
                        for g, m in groups.items()
                        if m - (1 if g == key else 0) > 0
                    ]
                )
            rest = cache[key]
            vals, ps = self.laws[t]
            # one denominator for the target's law: J_{i,a} ∝ P(S, x_i = a, x_K = v)
            den = math.lcm(*(p.denominator for p in ps))
            out: TargetFactors = {}
            for j, v in enumerate(vals):
                c = int(ps[j] * den) * weight
                out[v] = (rest, poly.monomial(c, contrib.table[t][j] + shift))
            yield name, out

    def to_joint(self) -> JointDistribution:
        """The full joint table (small models only)."""
        size = 1
        for vals, _ in self.laws:
            size *= len(vals)
        if size > MAX_JOINT_ROWS:
            raise InputError("model", f"{size} rows: too many for a full table")
        marg = {
            name: dict(zip(vals, ps, strict=True))
            for name, (vals, ps) in zip(self.variables, self.laws, strict=True)
        }
        rows = []
        for combo in itertools.product(*(range(len(v)) for v, _ in self.laws)):
            p = Fraction(1)
            for (_vals, ps), j in zip(self.laws, combo, strict=True):
                p *= ps[j]
            rows.append([*(self.laws[t][0][j] for t, j in enumerate(combo)), p])
        del marg
        return JointDistribution.from_rows(
            self.variables, rows, {v: self.laws[t][0] for t, v in enumerate(self.variables)}
        )

    def __repr__(self) -> str:
        return f"ProductModel(n={len(self.laws)})"


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


__all__ = ["ProductModel"]

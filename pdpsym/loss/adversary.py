"""The adversary ``A(i, K)`` of Li et al. and the result of its Eq. 2 leakage.

An :class:`Adversary` knows the prior, the tuples ``K`` and targets tuple ``i``; the
joint-table engine (:mod:`pdpsym.loss.table_leakage`) returns a :class:`LeakageResult`
(a :class:`~pdpsym.loss.leakage_result.Leakage`, the one result type of Eq. 2): the
exact value (a :class:`~pdpsym.core.exp_polynomials.LogRatio`) with its :class:`Witness`, or the
status ``no-compatible-pair``.

References:
    Li, Ren, Yang, Yang (2019), "Impact of Prior Knowledge and Data Correlation on Privacy
    Leakage: A Unified Analysis", Section IV-A, Definition 2, Eq. 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pdpsym.core.certify import Certified, certify
from pdpsym.core.errors import InputError
from pdpsym.core.exp_polynomials import LogRatio
from pdpsym.core.numbers import fraction_str
from pdpsym.loss.leakage_result import Leakage, Status
from pdpsym.models.joint import JointDistribution

if TYPE_CHECKING:  # sympy loads only when the exact symbolic form is asked for
    import sympy


@dataclass(frozen=True)
class Adversary:
    """``A(i, K)``: the target tuple and the tuples it knows exactly."""

    target: str
    known: tuple[str, ...] = ()

    @classmethod
    def of(cls, model: JointDistribution, target: str, known: Sequence[str] = ()) -> Adversary:
        """Validate names against the model; ``known`` is kept in model order."""
        model.index(target, "target")
        seen: set[str] = set()
        for name in known:
            model.index(name, "known")
            if name in seen:
                raise InputError("known", f"duplicate variable {name!r}")
            if name == target:
                raise InputError("known", f"the target {name!r} cannot also be known")
            seen.add(name)
        return cls(target, tuple(v for v in model.variables if v in seen))

    def unknown(self, model: JointDistribution) -> tuple[str, ...]:
        """The unknown tuples ``U = [n] - {i} - K`` of this adversary, in model order.

        Args:
            model: the joint distribution whose variables this adversary names.

        Returns:
            The names of the tuples that are neither the target nor known.
        """
        return tuple(v for v in model.variables if v != self.target and v not in self.known)

    def ancestor(self, j: str) -> Adversary:
        """``A(i, K - {j})``: the adversary that does not know ``x_j``."""
        if j not in self.known:
            raise ValueError(f"{j} is not known to {self}")
        return Adversary(self.target, tuple(k for k in self.known if k != j))

    def __str__(self) -> str:
        return f"A({self.target}, {{{', '.join(self.known)}}})"


@dataclass(frozen=True)
class Witness:
    """Where the sup of Eq. 2 is attained: ``(x_i, x_i', x_K, r)``."""

    x_i: Fraction
    x_i_prime: Fraction
    x_K: dict[str, Fraction]
    r: Fraction

    def as_json(self) -> dict[str, Any]:
        """The witness as JSON-ready plain objects (every value as an exact fraction string)."""
        return {
            "x_i": fraction_str(self.x_i),
            "x_i_prime": fraction_str(self.x_i_prime),
            "x_K": {k: fraction_str(v) for k, v in self.x_K.items()},
            "r": fraction_str(self.r),
        }


@dataclass
class LeakageResult(Leakage):
    """Eq. 2 for one adversary of a joint table: status, the exact value, and a witness."""

    adversary: Adversary
    lam: Fraction
    status: Status
    value: LogRatio | None = None
    witness: Witness | None = None
    candidates: int = 0
    decided_exactly: int = 0
    _cert: dict[int, Certified] = field(default_factory=dict, repr=False)
    target: str = field(init=False, repr=False)
    known: tuple[str, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.target = self.adversary.target
        self.known = self.adversary.known

    def value_json(self, digits: int) -> dict[str, Any] | None:
        """The certified value to ``digits`` digits as JSON, None without a value.

        Args:
            digits: the significant digits.

        Returns:
            :meth:`certified`'s JSON, or None.
        """
        return self.certified(digits).as_json() if self.value is not None else None

    def require(self) -> LogRatio:
        """The exact value; a ValueError when there is no compatible pair."""
        if self.value is None:
            raise ValueError(f"{self.adversary}: {self.status}")
        return self.value

    def expression(self) -> sympy.Expr:
        """The exact leakage as a sympy expression (ValueError: no compatible pair)."""
        if self.value is None:
            raise ValueError(f"{self.adversary}: {self.status}")
        return self.value.sympy()

    def certified(self, digits: int = 30) -> Certified:
        """The leakage's certified decimal to ``digits`` significant digits (cached by digits).

        Raises a ValueError when there is no compatible pair.
        """
        if self.value is None:
            raise ValueError(f"{self.adversary}: {self.status}")
        if digits not in self._cert:
            self._cert[digits] = certify(self.value, digits)
        return self._cert[digits]

    def compare_rational(self, q: Fraction) -> int:
        """Exact sign of ``PL - q``."""
        if self.value is None:
            raise ValueError(f"{self.adversary}: {self.status}")
        return compare_log_ratio_rational(self.value, q)

    def as_json(self, digits: int = 30) -> dict[str, Any]:
        """The result as JSON-ready plain objects.

        The adversary, ``lam``, the status, and (when there is one) the certified value to
        ``digits`` digits and the witness.
        """
        out: dict[str, Any] = {
            "target": self.adversary.target,
            "known": list(self.adversary.known),
            "lam": fraction_str(self.lam),
            "status": self.status,
            "value": None,
            "witness": None,
        }
        if self.value is not None and self.witness is not None:
            out["value"] = self.certified(digits).as_json()
            out["witness"] = self.witness.as_json()
        return out


def compare_log_ratio_rational(value: LogRatio, q: Fraction) -> int:
    """Sign of ``ln(num/den) - q`` = sign(num - e^q den), exactly.

    Args:
        value: an Eq. 2 candidate value, ``ln(num/den)`` of two exponential polynomials with
            rational data (``den`` positive).
        q: the rational to compare with.

    Returns:
        -1, 0 or 1, the exact sign of ``value - q`` (decided by the exact zero test of
        exponential polynomials, no floats).

    References:
        Li et al. (2019), Section IV-A, Definition 2, Eq. 2 (the value compared);
        the Lindemann-Weierstrass theorem (the exact zero test of exponential polynomials)
        and Johansson, Arb (2017) (the sign of a non-zero one by ball arithmetic).
    """
    return value.compare_rational(q)

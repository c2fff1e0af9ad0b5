"""The one result type of Li et al.'s Eq. 2: :class:`Leakage`, whatever the model.

Every engine of Eq. 2 returns a :class:`Leakage` for the adversary ``A(target, known)``:
the joint-table engine (:mod:`pdpsym.loss.table_leakage`, an exact value with its
witness: :class:`~pdpsym.loss.adversary.LeakageResult`), the structured models' engines
(:mod:`pdpsym.loss.count_leakage`, :mod:`pdpsym.loss.histogram`, a certified enclosure:
:class:`TargetLeakage`) and the Gaussian model's (:mod:`pdpsym.loss.gaussian`, an exact
rational: :class:`~pdpsym.loss.gaussian.GaussianLeakage`). They share the target, the
known records, the status (``"ok"`` or ``"no-compatible-pair"``), the value's certain
digits as JSON (:meth:`Leakage.value_json`), its decided comparison with a rational
(:meth:`Leakage.compare_rational`) and one row shape (:meth:`Leakage.as_row`); each adds
what its engine knows (a witness, an enclosure, the Gaussian's coefficient).

References:
    Li, Ren, Yang, Yang (2019), Section IV-A, Definition 2, Eq. 2.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from pdpsym.core.decimals import decimal_string, enclosure_decimal, fixed_digits

if TYPE_CHECKING:  # the exact closed form loads sympy: only its users import it
    from pdpsym.core.exp_polynomials import LogRatio

#: the outcome of Eq. 2: a value, or no ``x_K`` compatible with two target values
Status = Literal["ok", "no-compatible-pair"]


class Leakage(abc.ABC):
    """Eq. 2 for one adversary ``A(target, known)``: the base of every engine's result.

    Subclasses hold ``target`` (a record name), ``known`` (the known records' names) and
    ``status`` as fields, and implement :meth:`value_json` and :meth:`compare_rational`.

    References:
        Li et al. (2019), Section IV-A, Definition 2, Eq. 2.
    """

    target: str
    known: tuple[str, ...]
    status: Status

    @property
    def ok(self) -> bool:
        """True when the status is ``"ok"`` (the leakage has a value)."""
        return self.status == "ok"

    @abc.abstractmethod
    def value_json(self, digits: int) -> dict[str, Any] | None:
        """The value's certain digits as JSON (``decimal``, and ``exact`` or ``enclosure``).

        Args:
            digits: the most significant digits to print.

        Returns:
            A JSON-ready dict, or None when there is no value.
        """

    @abc.abstractmethod
    def compare_rational(self, q: Fraction) -> int | None:
        """The decided sign of ``PL - q``.

        Args:
            q: the rational to compare with.

        Returns:
            ``-1``, ``0`` or ``1``; None when a certified enclosure does not decide it.

        Raises:
            ValueError: when there is no value (no compatible pair).
        """

    def as_row(self, digits: int = 15) -> dict[str, Any]:
        """The one row shape of every engine's result.

        Args:
            digits: the most significant digits of the value.

        Returns:
            ``{target, known, status, value}`` (``value``: :meth:`value_json`, None
            without a value).

        Examples:
            >>> row = TargetLeakage("x1", "ok", Enclosed(Fraction(1, 2), Fraction(1, 2))).as_row(5)
            >>> row["target"], row["known"], row["status"], row["value"]["decimal"]
            ('x1', [], 'ok', '0.50000')
        """
        return {
            "target": self.target,
            "known": list(self.known),
            "status": self.status,
            "value": self.value_json(digits) if self.ok else None,
        }


@dataclass(frozen=True)
class Enclosed:
    """A certified real: ``lo <= value <= hi`` (exact rationals), and its exact closed
    form when it was cheap to build."""

    lo: Fraction
    hi: Fraction
    exact: LogRatio | None = None
    #: why the value is exactly 0 without computing it (a structural reason); then
    #: ``lo == hi == 0``
    reason: str | None = None

    def as_json(self, digits: int) -> dict[str, Any]:
        """``{exact?, decimal, enclosure, reason?}`` with the certain digits (at most
        ``digits``)."""
        if self.reason is not None and self.lo == self.hi == 0:
            return {"exact": "0", "decimal": "0", "enclosure": ["0", "0"], "reason": self.reason}
        if self.exact is not None:
            from pdpsym.core.certify import certify  # noqa: PLC0415 (loads sympy)

            return certify(self.exact, digits).as_json()
        fixed = fixed_digits(self.lo, self.hi, digits)
        if fixed is not None:
            return {"decimal": fixed[0], "enclosure": list(fixed[1])}
        dec, _ = enclosure_decimal(self.lo, self.hi, digits)
        return {
            "decimal": dec,
            "enclosure": [
                decimal_string(self.lo, digits + 3, "down"),
                decimal_string(self.hi, digits + 3, "up"),
            ],
        }

    def compare(self, q: Fraction) -> int | None:
        """The sign of ``value - q`` when the enclosure decides it, else None."""
        if self.exact is not None:
            return self.exact.compare_rational(q)
        if self.lo > q:
            return 1
        if self.hi < q:
            return -1
        if self.lo == self.hi == q:
            return 0
        return None


@dataclass(frozen=True)
class TargetLeakage(Leakage):
    """Eq. 2 for one target of a structured model ``A(target, K)``: status and certified
    value."""

    target: str
    status: Status
    value: Enclosed | None = None
    known: tuple[str, ...] = ()

    def value_json(self, digits: int) -> dict[str, Any] | None:
        """The enclosure's certain digits (:meth:`Enclosed.as_json`), None without a value.

        Args:
            digits: the most significant digits to print.

        Returns:
            A JSON-ready dict or None.
        """
        return self.value.as_json(digits) if self.value is not None else None

    def compare_rational(self, q: Fraction) -> int | None:
        """The sign of ``PL - q`` when the enclosure decides it (:meth:`Enclosed.compare`).

        Args:
            q: the rational to compare with.

        Returns:
            ``-1``, ``0``, ``1``, or None when the enclosure does not decide it.

        Raises:
            ValueError: when there is no compatible pair.
        """
        if self.value is None:
            raise ValueError(f"{self.target}: {self.status}")
        return self.value.compare(q)

    def as_json(self, digits: int) -> dict[str, Any]:
        """``{target, status, value}`` with the value's certain digits (None without a value).

        Args:
            digits: the most significant digits to print.

        Returns:
            A JSON-ready dict (:meth:`Enclosed.as_json` for the value).
        """
        return {"target": self.target, "status": self.status, "value": self.value_json(digits)}


__all__ = ["Enclosed", "Leakage", "Status", "TargetLeakage"]

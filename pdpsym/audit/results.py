"""What an audit returns: one notion's exact figures, and the audit of one instance.

Every engine of :mod:`pdpsym.audit` (a joint table, Laplace noise on a query, the
structured models, randomized response on chains and networks) returns these, so they
sit below all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pdpsym.audit.notions import curve_points
from pdpsym.core.eps import Eps
from pdpsym.loss import PrivacyLoss


@dataclass(frozen=True)
class NotionResult:
    """One notion's exact figures for the audited instance.

    ``epsilon`` and the values in ``epsilon_at_delta`` are exact values (sympy, ``oo``
    when unbounded, or an exact value object of :mod:`pdpsym.core`); the δ values are
    exact values (``c0 + c1 e^ε`` for finite outputs). For continuous outputs a value
    may be a certified enclosure (:class:`~pdpsym.core.exp_sqrt_sums.Bracket`): its digits are
    certain, it has no closed form. ``None`` with a ``note`` means the figure is not
    computed for this mechanism.
    """

    notion: str
    epsilon: Any
    witness: Mapping[str, Any] | None
    delta_at_epsilon: tuple[tuple[Eps, Any, Mapping[str, Any] | None], ...] = ()
    epsilon_at_delta: tuple[Fraction, Any, Mapping[str, Any] | None] | None = None
    reading: str | None = None
    note: str | None = None
    # e^eps enclosed (lo, hi) where the exact value is not computed (distributional-dp)
    ratio_enclosure: tuple[Fraction, Fraction | None] | None = None

    @classmethod
    def of_loss(
        cls,
        notion: str,
        loss: PrivacyLoss,
        eps: Sequence[Eps],
        delta: Fraction | None,
        reading: str | None = None,
        note: str | None = None,
        shown: Callable[[Any], Any] = lambda v: v,
    ) -> NotionResult:
        """One notion's figures read off one privacy loss: ε at δ = 0 with its witness,
        δ at each ε and ε at δ (:func:`~pdpsym.audit.notions.curve_points`).

        Args:
            notion: the notion's name.
            loss: its privacy loss (the worst case over the notion's cases).
            eps: the ε values at which δ is reported.
            delta: the δ at which the smallest ε is reported.
            reading: the reading of the definition, shown with the figures.
            note: how the figures were computed.
            shown: the form in which a δ or ε value is shown.

        Returns:
            The :class:`NotionResult`.
        """
        at_eps, at_delta = curve_points(loss, eps, delta, shown)
        zero = loss.epsilon(0)
        return cls(notion, zero.value, dict(zero.where or {}), at_eps, at_delta, reading, note)


@dataclass(frozen=True)
class Audit:
    """The audit of one instance: the target, the known records and each notion."""

    target: str
    known: tuple[str, ...]
    results: tuple[NotionResult, ...] = field(default_factory=tuple)

    def __getitem__(self, notion: str) -> NotionResult:
        for r in self.results:
            if r.notion == notion:
                return r
        raise KeyError(notion)


__all__ = ["Audit", "NotionResult"]

"""The T-thresholding mechanism's privacy loss (Desfontaines et al. Section 4.2).

``M_T(D) = ⊥`` if ``k = Σ_i D(i) <= T`` else ``k``. With background knowledge of ``|B|``
records, of which ``b`` are ones, the output laws given ``D(i) = a`` are ranges of the
peers' count ``S`` (:mod:`pdpsym.mechanisms.thresholding`). Two readings:

* ``"ppk"`` (Definition 13): ``max_direction Σ_b P[b] δ_b(ε)`` (Theorem 1);
* ``"apk"`` (Definition 12): ``max_{b, direction} δ_b(ε)``.

The loss is unbounded (the output ``k = b + m + 1`` has ``Q = 0``): ε(0) = ∞.

>>> from fractions import Fraction as F
>>> loss = ThresholdingLoss.homogeneous(4, F(1, 2), 1)
>>> str(loss.delta(Eps.log(3)).value)  # S ~ Bin(3, 1/2): output 4 alone, 1/8
'1/8'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import sympy

from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.loss.base import LossPoint, PrivacyLoss
from pdpsym.mechanisms.thresholding import (
    Thresholding,
    apk_delta,
    binomial_weights,
    ppk_delta,
    ppk_delta_heterogeneous,
)


class ThresholdingLoss(PrivacyLoss):
    """``M_T`` over Bernoulli records, worst direction (and knowledge value for APK).

    Args:
        n: number of records.
        p: the common probability (``homogeneous``), or None with ``ps``.
        T: the threshold.
        known_size: ``|B|``.
        reading: ``"ppk"`` (Definition 13) or ``"apk"`` (Definition 12).
        ps: the records' probabilities (heterogeneous; PPK only).
        progress: called with 1 after each distinct target of a heterogeneous ``delta``.

    References:
        Desfontaines et al. 2020, Section 4.2, Definitions 12, 13 and 15; Theorem 1.
    """

    def __init__(
        self,
        n: int,
        T: int,
        known_size: int = 0,
        *,
        p: Fraction | None = None,
        ps: Sequence[Fraction] | None = None,
        reading: str = "ppk",
        progress: Callable[[int], None] | None = None,
    ) -> None:
        if reading not in ("ppk", "apk"):
            raise InputError("reading", "must be 'ppk' or 'apk'")
        if (p is None) == (ps is None):
            raise InputError("p", "give a common p or the records' ps, not both")
        if ps is not None and reading != "ppk":
            raise InputError("reading", "heterogeneous records: PPK only")
        self.n, self.T, self.known_size, self.reading = n, T, known_size, reading
        self.progress = progress
        self.p = None if p is None else Fraction(p)
        self.ps = None if ps is None else [Fraction(q) for q in ps]
        self.mech = None if self.p is None else Thresholding.homogeneous(n, self.p, T, known_size)

    @classmethod
    def homogeneous(
        cls, n: int, p: Fraction, T: int, known_size: int = 0, reading: str = "ppk"
    ) -> ThresholdingLoss:
        """``n`` i.i.d. Bernoulli(p) records, ``|B| = known_size`` of them known."""
        return cls(n, T, known_size, p=p, reading=reading)

    def delta(self, eps: Eps | Fraction | int | str) -> LossPoint:
        """:meth:`PrivacyLoss.delta`, rational or ``A - e^ε B`` with exact masses;
        ``where`` names the direction (and ``b`` or the target)."""
        e = Eps.of(eps)
        if self.ps is not None:
            v, target, d = ppk_delta_heterogeneous(
                self.ps, self.T, self.known_size, e, self.progress
            )
            return LossPoint(v, {"target": target, "direction": d})
        assert self.mech is not None and self.p is not None
        if self.reading == "apk":
            v, b, d = apk_delta(self.mech, e)
            return LossPoint(v, {"b": b, "direction": d})
        v, d = ppk_delta(self.mech, self.p, e)
        return LossPoint(v, {"direction": d})

    def epsilon_zero(self) -> LossPoint:
        """``∞``: given ``D(i) = 1`` and every peer 1, ``k = n > T`` has ``Q = 0``."""
        return LossPoint(sympy.oo, None)

    def mass_without_q(self) -> Fraction:
        """``lim δ(ε)``: the ``P``-mass of outputs with ``Q = 0``, worst direction (and
        ``b``): ``k = b + m + 1 > T`` (``S = m``) for ``1,0``; ``k = b > T`` or ``⊥`` at
        ``b = T`` (``S = 0``) for ``0,1``. Common ``p`` only."""
        if self.p is None:
            raise InputError("ps", "the limit is computed for a common p only")
        p, T, size = self.p, self.T, self.known_size
        m = self.n - size - 1
        w = binomial_weights(size, p)
        top = [p**m if b + m + 1 > T else Fraction(0) for b in range(size + 1)]
        bottom = [(1 - p) ** m if b >= T else Fraction(0) for b in range(size + 1)]
        if self.reading == "apk":
            return max(max(top), max(bottom))
        return max(
            sum((x * y for x, y in zip(w, top, strict=True)), Fraction(0)),
            sum((x * y for x, y in zip(w, bottom, strict=True)), Fraction(0)),
        )


__all__ = ["ThresholdingLoss"]

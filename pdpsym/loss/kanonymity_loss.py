"""The histogram and the k-anonymity mechanism's privacy loss (Desfontaines et al. 4.3).

Records are i.i.d. over values ``0..K-1`` with probabilities ``probs``; the target's value
is ``k`` under ``P`` and ``k2`` under ``Q``. The other ``m = n - 1`` records' counts of the
two values, ``(N_k, N_k2)``, are trinomial (the rest of the histogram has the same law
under both hypotheses and cancels), so over the released view ``o`` of those two counts

    P(o) = Σ_{(x, y) ↦ o} Tri_m(x - 1, y),   Q(o) = Σ_{(x, y) ↦ o} Tri_m(x, y - 1),
    δ(ε) = Σ_o (P(o) - e^ε Q(o))_+             (Lemma 1),

exact (``A - e^ε B`` with rational ``A, B``). The view is the full pair of counts for the
histogram (Corollary 1) and, for Theorem 5's mechanism on the three values ``a``, ``b``,
``⊥``, the counts of ``a`` and ``b`` each replaced by ``⊥`` unless above ``T``
(Definition 16 with ``k = T + 1``; the count of ``⊥`` is never released). The engine is
:mod:`pdpsym.mechanisms.kanonymity`; ε(0) and the limit of δ come from the same finite
pair (:class:`~pdpsym.loss.pmf_pair.PMFPair`).

>>> from fractions import Fraction as F
>>> loss = KAnonymityLoss.histogram(2, (F(1, 2), F(1, 2)), 0, 1)
>>> str(loss.delta(0).value)  # P: (2,0) 1/2, (1,1) 1/2; Q: (1,1) 1/2, (0,2) 1/2
'1/2'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.loss.base import LossPoint, PrivacyLoss
from pdpsym.loss.pmf_pair import PMFPair
from pdpsym.mechanisms.kanonymity import pair_delta, view_pair_law

_NAMES = ("a", "b", "⊥")


class KAnonymityLoss(PrivacyLoss):
    """The target's value ``k`` against ``k2`` under the histogram or ``M_k``.

    Build with :meth:`histogram` (Corollary 1) or :meth:`kanon3` (Theorem 5's mechanism).

    References:
        Desfontaines et al. 2020, Section 4.3, Corollary 1, Definition 16, Theorem 5;
        Lemma 1.
    """

    def __init__(
        self,
        n: int,
        probs: Sequence[Fraction],
        k: int,
        k2: int,
        view: Callable[[int, int], object],
        where: Mapping[str, Any],
    ) -> None:
        if n < 1:
            raise InputError("n", "must be at least 1")
        if k == k2:
            raise InputError("k2", "the two values must differ")
        for name, v in (("k", k), ("k2", k2)):
            if not 0 <= v < len(probs):
                raise InputError(name, f"must be a value index in 0..{len(probs) - 1}")
        self.outputs = view_pair_law(n, probs, k, k2, view)
        self.where = dict(where)

    @classmethod
    def histogram(cls, n: int, probs: Sequence[Fraction], k: int, k2: int) -> KAnonymityLoss:
        """The full histogram of ``n`` records (Corollary 1), value ``k`` against ``k2``."""
        return cls(n, probs, k, k2, lambda x, y: (x, y), {"values": f"{k}->{k2}"})

    @classmethod
    def kanon3(
        cls, n: int, probs: Mapping[str, Fraction], t: str, t2: str, T: int
    ) -> KAnonymityLoss:
        """Theorem 5's mechanism on ``a``, ``b``, ``⊥``: the counts of ``a`` and ``b``,
        each released iff above ``T``; value ``t`` against ``t2``."""
        if t not in _NAMES or t2 not in _NAMES:
            raise InputError("t", "values are 'a', 'b' and '⊥'")
        if t == t2:
            raise InputError("t2", "the two values must differ")
        third = next(v for v in _NAMES if v not in (t, t2))

        def view(cx: int, cy: int) -> object:
            counts = {t: cx, t2: cy, third: n - cx - cy}
            return tuple(counts[v] if counts[v] > T else "⊥" for v in ("a", "b"))

        probs_ = [probs[v] for v in (t, t2, third)]
        return cls(n, probs_, 0, 1, view, {"pair": f"{t} vs {t2}"})

    def delta(self, eps: Eps | Fraction | int | str) -> LossPoint:
        """Exact ``δ(ε)`` (rational, or ``A - e^ε B`` as sympy)."""
        return LossPoint(pair_delta(self.outputs, Eps.of(eps)), self.where)

    def _pair(self) -> PMFPair:
        return PMFPair(
            {o: pq[0] for o, pq in self.outputs.items()},
            {o: pq[1] for o, pq in self.outputs.items()},
            self.where,
        )

    def epsilon_zero(self) -> LossPoint:
        """``max_o ln P(o)/Q(o)`` (``oo`` when some output has ``Q = 0 < P``)."""
        return self._pair().epsilon_zero()

    def mass_without_q(self) -> Fraction:
        """``lim_{ε→∞} δ(ε)``: the ``P``-mass of the views with ``Q = 0``.

        Returns:
            The exact limit as a Fraction.
        """
        return self._pair().mass_without_q()


__all__ = ["KAnonymityLoss"]

"""The cases of apkdp, np, ppkdp, cdp and dependent-dp's conditional reading for
independent records under Laplace or two-sided geometric noise: each case is the count
law of the other records against its own translate, certified in balls rather than
built as exact mixtures: for more than :data:`EXACT_RECORDS` records the exact Laplace mixtures over
the count's law, whose rational coefficients grow with every record, cost about
``n^3.6`` steps a pair, while the balls of :mod:`pdpsym.loss.shift_pairs` cost one
product tree of ``n`` records per precision tried (the precision grows with the digits
of ``1/δ``), shared by every pair, and a pass over the count law's window per δ.

Why every notion's cases reduce to few pairs. The records are independent, so given the
target's value ``a`` and the known records' values ``v`` the query is
``c_a + c(v) + S``, ``S`` the sum of the other records' contributions, whose law ``K``
depends on neither ``a`` nor ``v``. Each pair of Desfontaines et al.'s Definitions 12
(apkdp), 3 (np) and 5 (cdp) and of Liu et al.'s Eq. 11 is then ``K`` against a translate
``K + (c_b - c_a)`` up to a common translation, which changes neither δ(ε) nor ε: one
pair per ordered pair of values ``(a, b)`` (the first compatible ``v`` names it; every
``v`` gives the same figures). Definition 13 (ppkdp) weighs the same pair by
``P[x_K = v | x_i = a] = P[x_K = v]``, which sum to 1 over the ``v`` of positive
probability (all of them compatible with ``b``): the weighted sum is that pair's δ.

The outputs of up to :data:`EXACT_RECORDS` records are those of the exact mixtures
(unchanged); above, δ(ε) is a certified enclosure (no closed form) and ε at δ = 0 is the
exact ``|c_b - c_a| / λ`` (:mod:`pdpsym.loss.shift_pairs`). Two-sided geometric noise
(Desfontaines et al. Def. 19) on a query whose count unit is one query unit has the same
pairs, ``ε = |c_b - c_a| ln(1/α)`` exactly and δ(ε) enclosed by
:mod:`pdpsym.loss.geometric_shift`; the exact mixtures' rationals grow there too.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from pdpsym.audit.registry import Pairs
from pdpsym.loss.base import PrivacyLoss
from pdpsym.loss.geometric_shift import GeometricShiftPair
from pdpsym.loss.shift_pairs import BallCountLaw, ShiftPair
from pdpsym.mechanisms.base import SumMechanism
from pdpsym.models.model_objects import product_of
from pdpsym.models.neighbours import DDPReading
from pdpsym.models.product import ProductModel

#: up to this many records the exact mixtures run (their outputs are kept as they were)
EXACT_RECORDS = 50

Cases = list[tuple[dict[str, Any], PrivacyLoss]]

#: how the figures of the ball cases are computed
BALL_NOTE = (
    "certified: epsilon exact (|shift|/lambda); delta enclosed in balls over the count law "
    "of the other records (a product tree), digits all certain; no database is listed"
)
#: the same under two-sided geometric noise
GEOMETRIC_BALL_NOTE = BALL_NOTE.replace("|shift|/lambda", "|shift| ln(1/alpha)")


def applies(model: Any, mech: SumMechanism, unit: int = 1) -> bool:
    """Whether the ball cases replace the exact ones: independent records of a
    :class:`~pdpsym.models.product.ProductModel`, more than :data:`EXACT_RECORDS` of
    them, under Laplace noise, or under two-sided geometric noise on a query whose
    count unit is one query unit.

    Args:
        model: the structured model.
        mech: the mechanism on the weighted sum.
        unit: the count units per query unit.

    Returns:
        True when :class:`ProductCases` is to be used.

    References:
        Desfontaines et al. (2020), Section 4.1 (independent records, heterogeneous p_i).
    """
    if product_of(model) is None or len(model.variables) <= EXACT_RECORDS:
        return False
    # geometric noise: one count unit a query unit (the integer outputs are the counts')
    return mech.kind == "laplace" or (mech.kind == "geometric" and unit == 1)


class ProductCases:
    """The notions' cases of one audit of independent records (module docstring).

    Args:
        model: the product model.
        target: the target record.
        known: the known records.
        rows: each record's integer contributions (per value of its domain).
        unit: the count units per query unit.
        lam: the Laplace scale (query units; None under geometric noise).
        alpha: the geometric parameter (None under Laplace noise).

    References:
        Desfontaines et al. (2020), Definitions 3, 5, 12, 13; Liu et al. (2016), Eq. 11.
    """

    def __init__(
        self,
        model: ProductModel,
        target: str,
        known: Sequence[str],
        rows: dict[str, tuple[int, ...]],
        unit: int,
        lam: Fraction | None,
        alpha: Fraction | None = None,
    ) -> None:
        self.model, self.target, self.known = model, target, tuple(known)
        self.rows = rows
        self.scale = Fraction(lam or 0) * unit  # Λ in count units
        self.alpha = alpha
        self.note = BALL_NOTE if alpha is None else GEOMETRIC_BALL_NOTE
        names = model.variables
        self._laws = dict(zip(names, model.laws, strict=True))
        vals, ps = self._laws[target]
        self.domain = vals
        self.support = [a for a, p in zip(vals, ps, strict=True) if p]
        self._rest: dict[bool, BallCountLaw] = {}

    def covers(self, pairs: Pairs, reading: DDPReading) -> bool:
        """Whether a notion comparing ``pairs`` (in ``reading``) runs on these cases."""
        if pairs is Pairs.DEPENDENT:
            return reading is DDPReading.CONDITIONAL
        return pairs in (Pairs.GIVEN_KNOWN, Pairs.WEIGHTED_KNOWN, Pairs.CHANGED)

    def law(self, without_known: bool) -> BallCountLaw:
        """The law ``K`` of the other records' sum (the known ones left out or not)."""
        if without_known not in self._rest:
            skip = {self.target, *(self.known if without_known else ())}
            records = [
                (self.rows[v], self._laws[v][1]) for v in self.model.variables if v not in skip
            ]
            self._rest[without_known] = BallCountLaw(records)
        return self._rest[without_known]

    def first_known(self) -> tuple[Fraction, ...]:
        """The first known value of positive probability, in the order of the exact
        engine (the mixed-radix order of :func:`~pdpsym.models.query_law.records_law`:
        the first known record varies fastest)."""
        doms = []
        for v in reversed(self.known):
            vals, ps = self._laws[v]
            doms.append(sorted(x for x, p in zip(vals, ps, strict=True) if p))
        first = next(itertools.product(*doms))
        return tuple(reversed(first))

    def shift(self, a: Fraction, b: Fraction) -> int:
        """``c_b - c_a`` in count units."""
        row = self.rows[self.target]
        return row[self.domain.index(b)] - row[self.domain.index(a)]

    def pair(self, a: Fraction, b: Fraction, where: dict[str, Any], known: bool) -> PrivacyLoss:
        """``K + c_a`` against ``K + c_b`` (``known``: the known records left out of
        ``K``)."""
        if self.alpha is not None:
            return GeometricShiftPair(self.law(known), self.shift(a, b), self.alpha, where)
        return ShiftPair(self.law(known), self.shift(a, b), self.scale, where)

    def given_known(self) -> Cases:
        """apkdp / np: one pair per ordered ``(a, b)``, named by the first known value."""
        v = self.first_known()
        return [
            ((w := {"a": a, "b": b, "known": v}), self.pair(a, b, w, True))
            for a, b in itertools.permutations(self.support, 2)
        ]

    def weighted_known(self) -> Cases:
        """ppkdp: the same pairs, weighted by ``P[x_K = v]`` summing to 1."""
        return [
            ((w := {"a": a, "b": b}), self.pair(a, b, w, True))
            for a, b in itertools.permutations(self.support, 2)
        ]

    def changed(self) -> Cases:
        """cdp: ``a`` in the support, ``b`` anywhere in the domain, both directions."""
        v = self.first_known()
        out: Cases = []
        for a in self.support:
            for b in self.domain:
                if b == a:
                    continue
                where = {"a": a, "b": b, "known": v}
                back = {**where, "direction": "changed vs actual"}
                out.append((where, self.pair(a, b, where, True)))
                out.append((back, self.pair(b, a, back, True)))
        return out

    def conditional(self) -> Cases:
        """dependent-dp, Eq. 11: the laws given ``x_i = a`` and ``x_i = b`` alone."""
        return [
            ((w := {"a": a, "b": b}), self.pair(a, b, w, False))
            for a, b in itertools.permutations(self.support, 2)
        ]


def product_cases(
    model: Any, mech: SumMechanism, target: str, known: Sequence[str], rows: Any, unit: int
) -> ProductCases | None:
    """The :class:`ProductCases` of an audit when they apply (:func:`applies`), else None.

    Args:
        model: the structured model.
        mech: the mechanism on the weighted sum.
        target: the target record.
        known: the known records.
        rows: each record's integer contributions.
        unit: the count units per query unit.

    Returns:
        The cases, or None.

    References:
        Desfontaines et al. (2020), Definitions 3, 5, 12, 13; Liu et al. (2016), Eq. 11.
    """
    if not applies(model, mech, unit):
        return None
    lam = None if mech.lam is None else Fraction(mech.lam)
    alpha = None if mech.alpha is None else Fraction(mech.alpha)
    return ProductCases(model, target, known, dict(rows), unit, lam, alpha)


def ball_work(n: int, pairs: int, points: int, with_delta: bool) -> int:
    """The estimated steps (microseconds) of the ball cases: the laws' product trees at
    a few precisions and each pair's δ at each ε point (fitted on
    ``benchmarks/bench_product_audit.py`` at ε = 1/4 and λ = 2: the trees grow about as
    ``n^1.4`` because a smaller δ, about ``e^{-c n}``, needs more bits).

    Args:
        n: the records.
        pairs: the distinct pairs compared.
        points: the ε points asked for whose δ is not known to be 0.
        with_delta: whether ε at a δ is asked (a bisection of about 60 δ's a pair).

    Returns:
        The estimate.

    References:
        Desfontaines et al. (2020), Section 4.1 (the count law's product).
    """
    if points == 0 and not with_delta:  # ε at δ = 0 alone is exact: no law is built
        return 15 * n
    trees = 60 * n + n * n // 12500
    one = 120 * math.isqrt(max(n, 1)) + 200  # one δ over the law's window
    return trees + pairs * one * (points + (60 if with_delta else 0))


__all__ = [
    "BALL_NOTE",
    "EXACT_RECORDS",
    "GEOMETRIC_BALL_NOTE",
    "ProductCases",
    "applies",
    "ball_work",
    "product_cases",
]

r"""A count law against its own translate under Laplace noise, in balls: the privacy
curve of independent records with many distinct laws.

For independent records the query law given the target's value ``a`` (and the known
records' values) is the law ``K`` of the other records' summed contributions, translated
by ``a``'s contribution; two values ``a, b`` give the pair ``(K + c_a, K + c_b)``: up to
a common translation, ``K`` against ``K + D`` with ``D = c_b - c_a`` (count units).

**ε at δ = 0.** With ``Λ`` the Laplace scale in count units, ``p(r) = Σ_s K(s)
e^{-|r-s|/Λ}/(2Λ)`` and ``q(r) = Σ_s K(s) e^{-|r-s-D|/Λ}/(2Λ)``. By the triangle
inequality ``|r-s-D| <= |r-s| + |D|``, so ``p <= e^{|D|/Λ} q`` everywhere, with equality
for every ``s`` when ``r`` lies beyond the support on the side ``D`` points away from
(``r <= min s`` for ``D > 0``). Hence ``sup_r ln p/q = |D|/Λ``, attained on a whole tail:
δ(ε) = 0 exactly for ``ε >= |D|/Λ`` and δ(ε) > 0 below (the tail has positive mass).

**δ(ε) in balls.** ``K`` is enclosed by :class:`BallCountLaw` (a product tree of the
records' polynomials with ball coefficients, truncated at every level: kept balls plus a
nonnegative dropped measure of mass at most ``d``, the lemma of
:func:`pdpsym.core.count_law_balls.tree_window`). For the kept part the closed form of
:mod:`pdpsym.loss.laplace_pair` is evaluated with ``c_x = K(x) - e^ε K(x - D)``: on a
segment ``[x_j, x_j + h]`` between consecutive centres,
``2Λ (p - e^ε q)(x_j + t) = A_j e^{t/Λ} + B_j e^{-t/Λ}`` with
``A_j = Σ_{k > j} c_k e^{-(x_k - x_j)/Λ}`` and ``B_j = Σ_{k <= j} c_k e^{-(x_j - x_k)/Λ}``
(two first-order recurrences), and the segment's share
``F(A, B) = ∫_0^h (A e^{t/Λ} + B e^{-t/Λ})_+ dt / (2Λ)`` is nondecreasing in ``A`` and in
``B`` (the integrand is). So ``F`` at the balls' lower ends and at their upper ends, each
an exact point whose sign is certain, encloses the segment's share: at a point,
``w = e^{t*/Λ} = sqrt(-B/A)`` is the sign change, clipped to ``[1, e^{h/Λ}]``, and

* ``A, B >= 0``: ``(A (e^{h/Λ} - 1) + B (1 - e^{-h/Λ}))/2``; ``A, B <= 0``: 0;
* ``A > 0 > B``: ``(A (e^{h/Λ} - w) + B (1/w - e^{-h/Λ}))/2``;
* ``A < 0 < B``: ``(A (w - 1) + B (1 - 1/w))/2``;

and the tails give ``(A_left)_+/2`` and ``(B_right)_+/2``. The dropped measure moves δ by
at most its mass: ``(x + y)_+ <= x_+ + y_+`` and ``(x - y)_+ >= x_+ - y`` for ``y >= 0``
give ``δ_K - e^ε d <= δ <= δ_K + d``.

References:
    Li et al. (2019), Eq. 2 (the Laplace mixtures of a query law); Desfontaines et al.
    (2020), Lemma 1 (δ(ε) as the hockey stick) and Section 4.1 (the Poisson-binomial
    count); Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval
    arithmetic", IEEE Trans. Computers 66(8), 2017 (the balls).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from pdpsym.core.balls import Ball, BallPoly, to_ball, working_precision
from pdpsym.core.certify import decide_sign
from pdpsym.core.compare import compare
from pdpsym.core.count_law_balls import trimmed_product
from pdpsym.core.eps import Eps
from pdpsym.core.errors import Undecided
from pdpsym.loss.base import LossPoint, PrivacyLoss
from pdpsym.loss.laplace_pair import LaplacePair

#: bits computed beyond the precision asked (the tree's and the recurrences' rounding)
GUARD = 32
#: a product of at most this many coefficients is kept whole (no truncation)
SHORT = 32
#: the largest precision a comparison of two curves' values is raised to
COMPARE_PREC = 4096
#: the precision after which a comparison of two small laws' values (at most
#: EXACT_FALLBACK records) is decided by the exact mixtures instead: two curves can be
#: equal without a reason this module knows (translates with disjoint supports)
SMALL_PREC = 512
EXACT_FALLBACK = 24

#: one record: its integer contributions and their probabilities
Record = tuple[tuple[int, ...], tuple[Fraction, ...]]


class BallCountLaw:
    """The law of ``Σ_j c_j(x_j)`` over independent records, enclosed in balls.

    Args:
        records: per record its integer contributions and their exact probabilities
            (summing to 1).

    Attributes:
        offset: the least possible sum (the window's positions count from it).
        symmetric: whether the law is proven symmetric (its records' polynomials, as a
            multiset, are closed under reversal), so that ``K`` against ``K + D`` and
            ``K + D`` against ``K`` have the same curve.

    References:
        Desfontaines et al. (2020), Section 4.1 (the law of a count of independent
        records is the product of their generating polynomials).
    """

    def __init__(self, records: Sequence[Record]) -> None:
        offset = 0
        leaves: list[tuple[Fraction, ...]] = []
        for cs, ps in records:
            pos = [(c, p) for c, p in zip(cs, ps, strict=True) if p]
            lo = min(c for c, _ in pos)
            offset += lo
            coeffs = [Fraction(0)] * (max(c for c, _ in pos) - lo + 1)
            for c, p in pos:
                coeffs[c - lo] += p
            if len(coeffs) > 1:
                leaves.append(tuple(coeffs))
        self.offset = offset
        self.leaves = tuple(leaves)
        self.symmetric = Counter(leaves) == Counter(tuple(reversed(x)) for x in leaves)
        self.records = len(records)
        #: δ balls computed, by (shift, scale, ε, tree precision)
        self.deltas: dict[tuple[Any, ...], Ball] = {}
        self._windows: dict[int, tuple[int, tuple[Ball, ...], Ball]] = {}

    def exact(self) -> dict[int, Fraction]:
        """The exact law (position from :attr:`offset` -> probability), record by record:
        for small laws only (the exact fallback of :meth:`ShiftDelta.exact_compare`)."""
        law = {0: Fraction(1)}
        for leaf in self.leaves:
            nxt: dict[int, Fraction] = {}
            for s, w in law.items():
                for c, p in enumerate(leaf):
                    if p:
                        nxt[s + c] = nxt.get(s + c, Fraction(0)) + w * p
            law = nxt
        return law

    def window(self, prec: int) -> tuple[int, tuple[Ball, ...], Ball]:
        """The kept window at ``prec`` bits: ``(first position, nonnegative coefficient
        balls, d)`` where ``d`` bounds the dropped mass (at most ``2^-(prec+8)``).

        Args:
            prec: bits of the balls.

        Returns:
            The window's first position (from :attr:`offset`), its balls, the bound ``d``.
        """
        if prec not in self._windows:
            self._windows[prec] = self._window(prec)
        return self._windows[prec]

    def _window(self, prec: int) -> tuple[int, tuple[Ball, ...], Ball]:
        with working_precision(prec):
            budget = Ball(2) ** (-(prec + 8)) / max(len(self.leaves), 1)
            nodes = [(0, BallPoly([to_ball(c) for c in leaf])) for leaf in self.leaves]
            if not nodes:
                nodes = [(0, BallPoly([Ball(1)]))]
            first, top, dropped = trimmed_product(nodes, budget, SHORT)
            vals = []
            for c in top.coeffs():
                low, up = c.lower(), c.upper()
                low = low if low > 0 else Ball(0)  # probabilities are nonnegative
                vals.append(Ball.union(low, up) if up >= low else Ball(0))
            return first, tuple(vals), dropped.upper()


def _share(a: Ball, b: Ball, eh: Ball, ih: Ball) -> Ball:
    """``∫_0^h (a e^{t/Λ} + b e^{-t/Λ})_+ dt / (2Λ)`` at exact points ``a, b`` (module
    docstring), with ``eh = e^{h/Λ}`` and ``ih = e^{-h/Λ}`` as balls."""
    if a >= 0 and b >= 0:
        return (a * (eh - 1) + b * (1 - ih)) / 2
    if a <= 0 and b <= 0:
        return Ball(0)
    w = (-b / a).sqrt()
    lo, hi = w.lower(), w.upper()
    top = eh.upper()
    rising = a > 0
    if hi <= 1:  # the sign change is at or before the segment's start
        return (a * (eh - 1) + b * (1 - ih)) / 2 if rising else Ball(0)
    if lo >= top:  # at or after its end
        return Ball(0) if rising else (a * (eh - 1) + b * (1 - ih)) / 2
    w = Ball.union(lo if lo > 1 else Ball(1), hi if hi < top else top)
    if rising:
        return (a * (eh - w) + b * (1 / w - ih)) / 2
    return (a * (w - 1) + b * (1 - 1 / w)) / 2


def shift_delta_ball(law: BallCountLaw, shift: int, scale: Fraction, eps: Eps, prec: int) -> Ball:
    """A ball containing δ(ε) of ``K`` against ``K + shift`` under Laplace noise of scale
    ``scale`` (count units), ``K`` the law of ``law`` (module docstring).

    Args:
        law: the count law ``K``.
        shift: ``D``, in count units.
        scale: ``Λ > 0``, the Laplace scale in count units.
        eps: ε.
        prec: the working precision in bits (:func:`tree_precision` is used inside).

    Returns:
        The enclosure, within ``[0, 1]``.

    References:
        Desfontaines et al. (2020), Lemma 1 (the hockey stick); Li et al. (2019), Eq. 2.
    """
    p = tree_precision(prec)
    key = (shift, scale, eps, p)
    if key not in law.deltas:
        law.deltas[key] = _delta_ball(law, shift, scale, eps, p)
    return law.deltas[key]


def tree_precision(prec: int) -> int:
    """The precision a law is computed at for ``prec`` bits asked: ``prec`` plus
    :data:`GUARD`, rounded up to a power of two, so that callers asking nearby
    precisions (a certification, a comparison, a bisection) share one product tree.

    Args:
        prec: the bits asked.

    Returns:
        The bits used.

    References:
        Ziv (1991), "Fast evaluation of elementary mathematical functions with correctly
        rounded last bit": precision raised until the answer is certain.
    """
    return 1 << max(7, (prec + GUARD - 1).bit_length())


def _delta_ball(law: BallCountLaw, shift: int, scale: Fraction, eps: Eps, p: int) -> Ball:
    first, vals, dropped = law.window(p)
    with working_precision(p):
        big = eps.arb_exp(p)
        inv = to_ball(1 / scale)
        n = len(vals)
        base = min(0, shift)
        at_p, at_q = -base, shift - base  # the windows' first positions
        xs = sorted(set(range(at_p, at_p + n)) | set(range(at_q, at_q + n)))
        cs = []
        for x in xs:
            c = vals[x - at_p] if 0 <= x - at_p < n else Ball(0)
            if 0 <= x - at_q < n:
                c = c - big * vals[x - at_q]
            cs.append(c)
        m = len(xs)
        down: dict[int, tuple[Ball, Ball, Ball]] = {}  # h -> (e^{-h/Λ}, e^{h/Λ}, e^{-h/Λ})

        def steps(h: int) -> tuple[Ball, Ball, Ball]:
            if h not in down:
                e = (h * inv).exp()
                down[h] = (1 / e, e, 1 / e)
            return down[h]

        alphas = [Ball(0)] * m
        for j in range(m - 2, -1, -1):
            alphas[j] = steps(xs[j + 1] - xs[j])[0] * (cs[j + 1] + alphas[j + 1])
        lo_sum, hi_sum = Ball(0), Ball(0)
        beta = Ball(0)
        for j in range(m):
            beta = cs[j] if j == 0 else cs[j] + steps(xs[j] - xs[j - 1])[0] * beta
            if j == m - 1:
                break
            _, eh, ih = steps(xs[j + 1] - xs[j])
            a = alphas[j]
            lo_sum += _share(a.lower(), beta.lower(), eh, ih)
            hi_sum += _share(a.upper(), beta.upper(), eh, ih)
        left = cs[0] + alphas[0]
        for tail in (left, beta):  # the tails beyond the first and the last centre
            lo_sum += tail.lower() / 2 if tail.lower() > 0 else Ball(0)
            hi_sum += tail.upper() / 2 if tail.upper() > 0 else Ball(0)
        low = (lo_sum - big * dropped).lower()
        up = (hi_sum + dropped).upper()
        low = low if low > 0 else Ball(0)
        up = up if up < 1 else Ball(1)
        return Ball.union(low, up)


class ShiftDelta:
    """δ(ε) of ``K`` against ``K + D`` under Laplace noise: a certified value with no
    closed form (``arb(prec)`` encloses it; :mod:`pdpsym.core.certify` reads it).

    Two values are equal when they are the same curve at the same ε: the same law, scale
    and ε, and the same shift, or opposite shifts of a proven symmetric law (a reflection
    ``r -> -r`` maps one pair on the other) or at ε = 0 (the total variation).
    """

    #: no closed form: reports print its certified digits and enclosure only
    closed_form = False

    def __init__(self, law: BallCountLaw, shift: int, scale: Fraction, eps: Eps) -> None:
        self.law, self.shift, self.scale, self.eps = law, shift, scale, eps

    def _key(self) -> tuple[Any, ...]:
        # at ε = 0, δ is the total variation (symmetric: K and K + D have one mass)
        d = abs(self.shift) if self.law.symmetric or self.eps.w == 1 else self.shift
        return (id(self.law), d, self.scale, self.eps)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ShiftDelta) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def arb(self, prec: int) -> Ball:
        """A ball containing the value, at about ``prec`` bits (:func:`shift_delta_ball`)."""
        return shift_delta_ball(self.law, self.shift, self.scale, self.eps, prec)

    def as_rational(self) -> Fraction | None:
        """None: the value is positive and has no closed form here."""
        return None

    def exact_text(self) -> str:
        """What the number is (there is no closed form to print)."""
        return (
            f"delta at epsilon {self.eps.sympy()} of the records' count law against its "
            f"translate by {self.shift} under Laplace noise (certified enclosure)"
        )

    def sympy(self) -> Any:
        """A symbol standing for the value (no closed form): never equal to a number."""
        import sympy  # noqa: PLC0415 (only a failed certification asks for it)

        return sympy.Symbol("delta_enclosed", positive=True)

    def exact_compare(self, other: ShiftDelta) -> int:
        """The decided sign of ``self - other``: 0 for equal curves (see the class), else
        by balls whose precision is raised to :data:`COMPARE_PREC` bits.

        Raises:
            Undecided: when the balls still overlap there.
        """
        if self == other:
            return 0

        def diff(prec: int) -> Ball:
            with working_precision(prec + GUARD):
                return self.arb(prec) - other.arb(prec)

        what = "comparing two delta(epsilon) enclosures"
        try:
            return decide_sign(diff, what, 64, SMALL_PREC)
        except Undecided:
            if max(self.law.records, other.law.records) > EXACT_FALLBACK:
                return decide_sign(diff, what, 2 * SMALL_PREC, COMPARE_PREC)
        # equal values, or too close for balls: the exact mixtures decide (small laws)
        return compare(self.exact_value(), other.exact_value()).sign

    def exact_value(self) -> Any:
        """The exact δ(ε) of :class:`~pdpsym.loss.laplace_pair.LaplacePair` on the exact
        law (small laws only)."""
        law = {Fraction(s): w for s, w in self.law.exact().items()}
        pair = LaplacePair(law, {s + self.shift: w for s, w in law.items()}, self.scale)
        return pair.delta(self.eps).value

    def __repr__(self) -> str:
        return f"ShiftDelta(shift={self.shift}, eps={self.eps})"


def at_least(eps: Eps, t: Fraction) -> bool:
    """Whether ``ε >= t`` for a rational ``t >= 0``, decided (``ln w`` with ``w``
    rational equals a rational ``t`` only at ``w = 1, t = 0``): at such an ε the pairs
    of this module have δ = 0 exactly (module docstring).

    Args:
        eps: ε.
        t: the rational threshold ``|D|/Λ``.

    Returns:
        The decided comparison.

    References:
        Li et al. (2019), Eq. 2; Lindemann (1882): ``e^t`` is irrational for rational
        ``t != 0``.
    """
    if eps.exponent is not None or eps.w == 1:
        e = eps.eps
        assert e is not None
        return e >= t
    assert eps.w is not None
    if t == 0:
        return eps.w >= 1

    def diff(prec: int) -> Ball:
        with working_precision(prec):
            return eps.arb(prec) - to_ball(t)

    return decide_sign(diff, "epsilon against |D|/lambda") > 0


class ShiftPair(PrivacyLoss):
    """``P = K ⊛ Lap(Λ)`` against ``Q = (K + D) ⊛ Lap(Λ)``, certified in balls.

    Args:
        law: the count law ``K``.
        shift: ``D`` in count units.
        scale: ``Λ`` in count units.
        where: the case's plain facts.

    References:
        Li et al. (2019), Eq. 2; Desfontaines et al. (2020), Lemma 1.
    """

    #: ε(δ)'s bisection decides each step in balls (certified, not exact rationals)
    bisection = "certified"

    def __init__(
        self, law: BallCountLaw, shift: int, scale: Fraction, where: Mapping[str, Any]
    ) -> None:
        self.law, self.shift, self.scale = law, shift, Fraction(scale)
        self.where = dict(where)

    def delta(self, eps: Eps | Fraction | int | str) -> LossPoint:
        """δ(ε): exactly 0 at and past :meth:`epsilon_zero`'s value, else the noise's
        enclosed δ (:meth:`_enclosed`).

        Args:
            eps: ε.

        Returns:
            :class:`~pdpsym.loss.base.LossPoint` with the case's ``where``.
        """
        e = Eps.of(eps)
        if self._past_top(e):
            return LossPoint(Fraction(0), self.where)
        return LossPoint(self._enclosed(e), self.where)

    def epsilon_zero(self) -> LossPoint:
        """The noise's ``ε_0`` exactly (``|D|/Λ`` under Laplace noise, module
        docstring), attained on the tail ``D`` points away from (``output`` ``-inf`` for
        ``D >= 0``, ``+inf`` otherwise).

        Returns:
            :class:`~pdpsym.loss.base.LossPoint`.
        """
        side = "-inf" if self.shift >= 0 else "+inf"
        return LossPoint(self._top(), {**self.where, "output": side})

    def _top(self) -> Any:
        """``ε_0 = |D|/Λ``, where δ reaches 0."""
        return abs(self.shift) / self.scale

    def _past_top(self, e: Eps) -> bool:
        """Whether ``ε >= ε_0``, decided."""
        return at_least(e, abs(self.shift) / self.scale)

    def _enclosed(self, e: Eps) -> ShiftDelta:
        """δ(ε) below ``ε_0``: a certified value with no closed form."""
        return ShiftDelta(self.law, self.shift, self.scale, e)

    def exceeds(self, eps: Eps, delta: Fraction) -> bool:
        """Whether ``δ(ε) > delta``, decided by balls (exact for δ = 0)."""
        return exceeds_in_balls(self.delta(eps).value, delta, "delta(epsilon)")


__all__ = [
    "BallCountLaw",
    "ShiftDelta",
    "ShiftPair",
    "at_least",
    "shift_delta_ball",
    "tree_precision",
]


def exceeds_in_balls(value: Any, delta: Fraction, what: str) -> bool:
    """Whether a δ value is above ``delta``: compared exactly when it is a rational, else
    decided on its ball enclosures (``value.arb(prec)``) at rising precision.

    Args:
        value: a ``Fraction`` or an object with ``arb(prec) -> Ball``.
        delta: the rational to compare with.
        what: what the value is (named if the sign cannot be decided).

    Returns:
        ``value > delta``.

    References:
        Desfontaines et al. (2020), Definition 1 (the hockey-stick δ compared with a budget).
    """
    if isinstance(value, Fraction):
        return value > delta

    def diff(prec: int) -> Ball:
        with working_precision(prec + GUARD):
            return value.arb(prec) - to_ball(delta)

    return decide_sign(diff, f"{what} against {delta}") > 0

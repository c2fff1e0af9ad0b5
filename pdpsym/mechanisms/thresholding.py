"""The T-thresholding mechanism M_T (DMKB20 Definition 15) and its exact privacy curves.

``M_T(D)`` computes ``k = sum_i D(i)`` and returns ``⊥`` if ``k <= T`` and ``k`` otherwise.
The attacker's background knowledge ``B`` is the value of ``|B|`` fixed records, of which
``b`` are 1 (Section 4.2, proof of Theorem 4). With ``S`` the count of the ``m = n - |B| - 1``
other unknown records, given ``D(i) = a`` and ``b``:

    P[M_T = ⊥ | a, b] = P[S <= T - b - a],   P[M_T = k | a, b] = P[S = k - b - a]  (k > T).

The PLRV (Definition 11) is ``L_{a,b'}(o, b) = ln(P[o | a, b] / P[o | b', b])``. Exact curves:

* ``apk(b)`` -- Definition 12 for the knowledge value ``b`` (a fixed, possibly chosen ``B``);
* ``ppk`` -- Definition 13: ``sum_b P[b] apk(b)`` (Theorem 1), ``P[b] = f(b, |B|, p)``;
* APKDP ``delta`` -- the maximum of ``apk(b)`` over ``b = 0..|B|``.

Each is maximized over both directions ``(a, b') in {(1,0), (0,1)}``. Values are exact
``A - e^eps B`` (see :mod:`pdpsym.mechanisms.counting`).

Large heterogeneous records (:func:`ppk_delta_heterogeneous`). The positive outputs
``k > T`` are an interval (log-concavity), found by certified signs from a float guess
(the saddle point beyond the mode window). Above the likelihood ratio's crossing the
curve is a tail mass, ``P[S >= T - b] - e^eps P[S >= T + 1 - b]`` (``10^-47000`` at
``T = 99990`` of ``10^5``): its masses come from exponentially tilted windows at full
relative precision (Lemma 1 of :mod:`pdpsym.core.tails`), and the targets' laws share one
window product (Lemma 2 there, :func:`~pdpsym.mechanisms.count_law.peer_laws`).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy

from pdpsym.core.certify import Exact
from pdpsym.core.compare import decided_max
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.mechanisms.count_law import EXACT_LIMIT, CountLaw, peer_laws
from pdpsym.mechanisms.counting import first_true, float_boundaries, last_true
from pdpsym.mechanisms.divergence import (
    Hockey,
    Mass,
    OutputLaw,
    hockey,
    positive_sign,
    ratio_exceeds_exp,
)
from pdpsym.mechanisms.population import (
    MANY_DISTINCT,
    candidate_values,
    exact_peer_pmf,
    one_fewer,
)
from pdpsym.mechanisms.population_known import candidate_values_known

BOT = "⊥"


def check_threshold(n: int, T: int, known_size: int = 0) -> None:
    """Check the parameters of ``M_T`` over ``n`` records with ``|B|`` known records.

    Args:
        n: the number of records, ``≥ 1``.
        T: the threshold, ``0 ≤ T < n``.
        known_size: ``|B|``, the number of records the attacker knows, ``0 ≤ |B| ≤ n - 1``.

    Raises:
        InputError: naming ``n``, ``T`` or ``known_size`` for the first one out of range.

    References:
        Desfontaines et al. (2020), Section 4.2, Definition 15 and Theorem 4.
    """
    if n < 1:
        raise InputError("n", f"must be >= 1, got {n}")
    if T < 0 or T >= n:
        raise InputError("T", f"must satisfy 0 <= T < n = {n}, got {T}")
    if known_size < 0 or known_size > n - 1:
        raise InputError("known_size", f"must satisfy 0 <= |B| <= n - 1 = {n - 1}")


@dataclass(frozen=True)
class Thresholding:
    """``M_T`` over ``n`` records; the target's unknown peers have law ``others``."""

    n: int
    T: int
    others: CountLaw  # the m = n - |B| - 1 unknown records other than the target

    @property
    def known_size(self) -> int:
        """``|B|``: the records known to the attacker, ``n - 1 - m``."""
        return self.n - 1 - self.others.m

    @classmethod
    def homogeneous(cls, n: int, p: Fraction, T: int, known_size: int = 0) -> Thresholding:
        """``M_T`` over ``n`` i.i.d. Bernoulli(p) records, ``known_size`` of them known.

        Args:
            n: the number of records.
            p: the common probability, an exact rational.
            T: the threshold.
            known_size: ``|B|``.

        Returns:
            The mechanism; the target's ``n - |B| - 1`` unknown peers are ``Bin(m, p)``.

        References:
            Desfontaines et al. (2020), Section 4.2, Definition 15 and Theorem 4.
        """
        check_threshold(n, T, known_size)
        return cls(n, T, CountLaw.homogeneous(n - known_size - 1, Fraction(p)))

    @classmethod
    def heterogeneous(
        cls, ps: Sequence[Fraction], target: int, T: int, known_size: int = 0
    ) -> Thresholding:
        """``M_T`` over records ``D(j) ~ Bernoulli(ps[j])``; the attacker knows the first
        ``known_size`` records and targets record ``target`` (not among them).

        Args:
            ps: the records' probabilities.
            target: the index of the target record, ``known_size <= target < n``.
            T: the threshold.
            known_size: ``|B|``.

        Returns:
            The mechanism, the target's unknown peers as a Poisson-binomial law.

        References:
            Desfontaines et al. 2020, Section 4.2, Definition 15.
        """
        n = len(ps)
        check_threshold(n, T, known_size)
        if not known_size <= target < n:
            raise InputError("target", f"must satisfy |B| <= target < n = {n}")
        others = [Fraction(q) for j, q in enumerate(ps) if j >= known_size and j != target]
        return cls(n, T, CountLaw(tuple(others)))

    def outputs(self) -> list[str | int]:
        """The outputs of ``M_T``, in the order of :meth:`output_law`'s ranges.

        Returns:
            ``["⊥", T + 1, ..., n]``.

        References:
            Desfontaines et al. (2020), Section 4.2, Definition 15.
        """
        return [BOT, *range(self.T + 1, self.n + 1)]

    def output_law(self, a: int, b: int, weight: Fraction = Fraction(1)) -> OutputLaw:
        """The law of ``M_T`` given ``D(i) = a`` and ``b`` ones in ``B`` (weighted).

        ``P[⊥ | a, b] = P[S ≤ T - b - a]`` and ``P[k | a, b] = P[S = k - b - a]`` for
        ``k > T``, with ``S`` the count of the unknown peers.

        Args:
            a: the target's value, 0 or 1.
            b: the number of ones among the known records.
            weight: an exact factor on every mass (``P[b]`` in the PPK sum).

        Returns:
            The :class:`~pdpsym.mechanisms.counting.OutputLaw` over :meth:`outputs`.

        References:
            Desfontaines et al. (2020), Section 4.2, proof of Theorem 4.
        """
        return OutputLaw(self.others, _ranges(self.n, self.T, a + b), weight)

    def exact_probability(self, o: str | int, a: int, b: int = 0) -> Fraction:
        """``P[M_T = o | D(i) = a, b]`` as an exact rational.

        Args:
            o: ``"⊥"`` or an output ``k`` with ``T < k ≤ n``.
            a: the target's value, 0 or 1.
            b: the number of ones among the known records.

        Returns:
            The exact probability as a Fraction (computed from the exact PMF of the peers).

        References:
            Desfontaines et al. (2020), Section 4.2, proof of Theorem 4.
        """
        idx = 0 if o == BOT else int(o) - self.T
        if not (o == BOT or 0 < idx <= self.n - self.T):
            # the outputs are ⊥ and T+1..n; another integer would index another output's mass
            raise InputError("o", f"an output is '⊥' or an integer in ({self.T}, {self.n}]")
        law = self.output_law(a, b)
        return law.exact_mass(idx)

    def plrv(self, o: str | int, a: int, b: int = 0) -> tuple[Fraction, Fraction]:
        """The two probabilities whose log-ratio is the PLRV at output ``o``.

        Args:
            o: ``"⊥"`` or an output ``k > T``.
            a: the target's value under the numerator's hypothesis, 0 or 1.
            b: the number of ones among the known records.

        Returns:
            ``(P[o | D(i)=a, b], P[o | D(i)=1-a, b])``, exact Fractions.

        References:
            Desfontaines et al. (2020), Section 3.1, Definition 11; Section 4.2, proof of
            Theorem 4 (the PLRV of ``M_T``).
        """
        return self.exact_probability(o, a, b), self.exact_probability(o, 1 - a, b)

    def apk(self, b: int, eps: Eps | Fraction, direction: tuple[int, int] = (1, 0)) -> Hockey:
        """The exact APK curve ``δ_b(ε)`` for one knowledge value ``b`` and one direction.

        ``Σ_o max(0, P[o | a, b] - e^ε P[o | a', b])`` with ``(a, a') = direction``.

        Args:
            b: the number of ones among the known records.
            eps: ε.
            direction: ``(a, a')``, ``(1, 0)`` or ``(0, 1)``.

        Returns:
            A :class:`~pdpsym.mechanisms.counting.Hockey`: the exact ``A - e^ε B``.

        References:
            Desfontaines et al. (2020), Section 3.2, Definition 12; Section 3.4, Theorem 1
            (``APK_{i,a,b,B̂}``).
        """
        a, a2 = direction
        return self._hockey(self.output_law(a, b), self.output_law(a2, b), b, direction, eps)

    def _hockey(
        self, pl: OutputLaw, ql: OutputLaw, b: int, direction: tuple[int, int], eps: Eps | Fraction
    ) -> Hockey:
        eps = Eps.of(eps)
        p = self.others.common_p
        if self.others.is_exact():
            return hockey(pl, ql, eps)
        # the ratio P[k|a,b]/P[k|a',b] = P[S=s-1]/P[S=s] (s = k - b) is monotone over k > T
        # (a Poisson binomial is log-concave), so the positive outputs among k are an
        # interval found by certified binary search: by the rational ratio for a common
        # p, else by certified signs of the masses near float64 guesses
        m, T = self.others.m, self.T
        lo_k, hi_k = max(T + 1, b + 1), min(self.n, b + m)  # both masses nonzero here
        guess: int | None = None
        if p is None:
            g = float_boundaries(self.others, eps)
            if g is not None:
                guess = b + (g[0] if direction == (1, 0) else g[1])

        def pos(k: int) -> bool:
            if p is None:
                return _positive(pl, ql, k - T, eps)
            s = k - b  # index of the D(i)=0 mass
            r = (1 - p) * s / (p * (m - s + 1))  # P[S=s-1]/P[S=s]
            return ratio_exceeds_exp(r if direction == (1, 0) else 1 / r, eps)

        k_lo, k_hi = 1, 0  # the chosen interval of outputs k (empty by default)
        if lo_k <= hi_k:
            if guess is not None:
                guess = min(max(guess, lo_k), hi_k)
            if direction == (1, 0):  # increasing: a suffix
                k_lo, k_hi = first_true(lo_k, hi_k + 1, pos, guess), hi_k
            else:  # decreasing: a prefix
                k_lo, k_hi = lo_k, last_true(lo_k - 1, hi_k, pos, guess)
        # ⊥: for the prefix direction, once some k > T is positive, P[S=s]/P[S=s-1] >
        # e^eps holds at every s <= k - b (log-concavity), and then P[S <= t]/P[S <= t-1]
        # >= P[S=t]/P[S=t-1] > e^eps (geometric series) at t = T - b: ⊥ is positive
        # without evaluating far-tail masses
        prefix_hit = direction == (0, 1) and k_lo <= k_hi and p is None
        chosen = [0] if prefix_hit or _positive(pl, ql, 0, eps) else []
        # outputs where exactly one of the two masses can be nonzero
        for k in (b, b + m + 1):
            if T < k <= self.n and not (lo_k <= k <= hi_k) and _positive(pl, ql, k - T, eps):
                chosen.append(k - T)
        a_ranges = [pl.ranges[o] for o in chosen]
        b_ranges = [ql.ranges[o] for o in chosen]
        if k_lo <= k_hi:  # the S-ranges of outputs k_lo..k_hi
            a_ranges.append((pl.ranges[k_lo - T][0], pl.ranges[k_hi - T][1]))
            b_ranges.append((ql.ranges[k_lo - T][0], ql.ranges[k_hi - T][1]))
        a_mass = Mass.of(pl.weight, pl.law, a_ranges)
        b_mass = Mass.of(ql.weight, ql.law, b_ranges)
        return Hockey(a_mass, b_mass, eps)

    def ppk(
        self, eps: Eps | Fraction, knowledge_weights: Sequence[Fraction], direction: tuple[int, int]
    ) -> Hockey:
        """The exact PPK curve ``Σ_b w_b δ_b(ε)`` for one direction.

        Args:
            eps: ε.
            knowledge_weights: ``w_b = P[b ones in B]`` for ``b = 0..|B|`` (exact; zero
                weights are skipped; at least one must be positive).
            direction: ``(a, a')``, ``(1, 0)`` or ``(0, 1)``.

        Returns:
            A :class:`~pdpsym.mechanisms.counting.Hockey`: the exact ``A - e^ε B``.

        References:
            Desfontaines et al. (2020), Section 3.3, Definition 13; Section 3.4, Theorem 1
            (``PPK = E[APK]``).
        """
        a, a2 = direction
        total: Hockey | None = None
        for b, w in enumerate(knowledge_weights):
            if w == 0:
                continue
            h = self._hockey(self.output_law(a, b, w), self.output_law(a2, b, w), b, direction, eps)
            total = h if total is None else total + h
        assert total is not None
        return total


@functools.lru_cache(maxsize=8)
def _ranges(n: int, T: int, shift: int) -> tuple[tuple[int, int], ...]:
    """The S-ranges of ``⊥, T+1, ..., n`` given ``D(i) + b = shift`` (shared: every
    target, direction and knowledge value with that shift asks for the same tuple)."""
    return ((0, T - shift), *((k - shift, k - shift) for k in range(T + 1, n + 1)))


def _positive(pl: OutputLaw, ql: OutputLaw, o: int, eps: Eps | Fraction) -> bool:
    m = pl.law.m
    if pl.law is ql.law and all(0 < q < 1 for q in pl.law.blocks):
        # every count 0..m has positive mass: an empty range decides the sign alone
        # (balls of both masses may be far beyond a window's reach)
        p_empty = max(pl.ranges[o][0], 0) > min(pl.ranges[o][1], m)
        q_empty = max(ql.ranges[o][0], 0) > min(ql.ranges[o][1], m)
        if p_empty:
            return False
        if q_empty:
            return True
        e = Eps.of(eps)
        grows = (e.w is not None and e.w >= 1) or (e.exponent is not None and e.exponent >= 0)
        if grows and o == 0 and pl.ranges[0][0] <= 0 and ql.ranges[0][0] <= 0:
            # ⊥: P[S <= t] - e^eps P[S <= t'] <= 0 when t <= t' (e^eps >= 1)
            if pl.ranges[0][1] <= ql.ranges[0][1]:
                return False
    return positive_sign(
        lambda pr: None if pr is None else pl.arb_mass(o, pr),
        lambda pr: None if pr is None else ql.arb_mass(o, pr),
        Eps.of(eps),
    )


def binomial_weights(size: int, p: Fraction) -> list[Fraction]:
    """``f(b, |B|, p)`` for ``b = 0..|B|``: the law of the number of ones in ``B``.

    Args:
        size: ``|B|``, ``≥ 0``.
        p: the common probability, an exact rational.

    Returns:
        The exact binomial PMF as a list of Fractions.

    References:
        Desfontaines et al. (2020), Section 4.2, Theorem 4 (the notation
        ``f(s, n, p)``).
    """
    return [
        Fraction(sympy.binomial(size, b)) * p**b * (1 - p) ** (size - b) for b in range(size + 1)
    ]


DIRECTIONS = ((1, 0), (0, 1))


def _directions(eps: Eps | Fraction) -> tuple[tuple[int, int], ...]:
    """The directions to examine. At ``ε = 0`` each ``δ_b`` is the total variation
    distance of two probability laws on the same outputs, ``Σ (P - Q)_+ = Σ (Q - P)_+``
    (both sum to 1), so both directions (and their ``P[b]``-weighted sums) are equal:
    one is computed (balls could never prove the tie)."""
    return DIRECTIONS[:1] if Eps.of(eps).exact_exp() == 1 else DIRECTIONS


def ppk_delta(
    mech: Thresholding, p: Fraction, eps: Eps | Fraction
) -> tuple[Exact, tuple[int, int]]:
    """Exact PPKDP ``δ(ε)`` of ``M_T`` for i.i.d. Bernoulli(p) records, worst direction.

    Args:
        mech: the mechanism (its known records are Bernoulli(p) too).
        p: the common probability, an exact rational.
        eps: ε.

    Returns:
        ``(δ, direction)``: δ exact (a Fraction or a
        :class:`~pdpsym.mechanisms.counting.Hockey`), and the maximizing ``(a, a')``.

    References:
        Desfontaines et al. (2020), Section 3.3, Definition 13; Section 3.4, Theorem 1;
        Section 4.2, Definition 15.
    """
    weights = binomial_weights(mech.known_size, p)
    vals = [mech.ppk(eps, weights, d).value() for d in _directions(eps)]
    k, v = decided_max(vals)
    return v, DIRECTIONS[k]


def ppk_delta_heterogeneous(
    ps: Sequence[Fraction],
    T: int,
    known_size: int,
    eps: Eps | Fraction,
    progress: Callable[[int], None] | None = None,
) -> tuple[Exact, int, tuple[int, int]]:
    """Definition 13 for independent Bernoulli(p_j) records, the worst target and direction.

    Args:
        ps: the records' probabilities; the attacker knows the first ``known_size``.
        T: the threshold.
        known_size: ``|B|``; the law of the ones in ``B`` is their Poisson binomial.
        eps: the privacy parameter.
        progress: called with 1 after each distinct target (a progress bar's update).

    Returns:
        ``(delta, target index, direction)``: one target per distinct unknown p (equal p
        give equal curves); with no known records and at least
        :data:`~pdpsym.mechanisms.population.MANY_DISTINCT` distinct p, only the targets
        :func:`~pdpsym.mechanisms.population.candidate_values` proves can be worst.

    References:
        Desfontaines et al. 2020, Section 4.2, Definitions 13 and 15; Theorem 1.
    """
    n = len(ps)
    check_threshold(n, T, known_size)
    unknown = [q if type(q) is Fraction else Fraction(q) for q in ps[known_size:]]
    values = set(unknown)
    e = Eps.of(eps)
    searched = len(values) >= MANY_DISTINCT and all(0 < q < 1 for q in values)
    if searched and known_size == 0:
        found = _ppk_search(unknown, T, e, progress)
        assert found is not None  # no weights: no check that can fail
        return found
    weights = CountLaw(tuple(Fraction(q) for q in ps[:known_size])).exact_pmf()
    if searched and _grows(e):  # Lemmas D and E of population_known need e^eps >= 1
        found = _ppk_search(unknown, T, e, progress, weights)
        if found is not None:
            v, i, d = found
            return v, known_size + i, d
    cands: list[Exact] = []
    keys: list[tuple[int, tuple[int, int]]] = []
    for i, law in peer_laws(unknown).values():  # equal p give equal curves
        mech = Thresholding(n, T, law)
        for d in _directions(eps):
            cands.append(mech.ppk(eps, weights, d).value())
            keys.append((known_size + i, d))
        if progress is not None:
            progress(1)
    k, v = decided_max(cands)
    return v, keys[k][0], keys[k][1]


def _grows(e: Eps) -> bool:
    """Whether ``e^eps >= 1``."""
    return (e.w is not None and e.w >= 1) or (e.exponent is not None and e.exponent >= 0)


def _ppk_search(
    unknown: list[Fraction],
    T: int,
    eps: Eps,
    progress: Callable[[int], None] | None,
    weights: list[Fraction] | None = None,
) -> tuple[Exact, int, tuple[int, int]] | None:
    """:func:`ppk_delta_heterogeneous` with many distinct ``p``: the curves of the few
    targets :func:`~pdpsym.mechanisms.population.candidate_values` (no known records) or
    :func:`~pdpsym.mechanisms.population_known.candidate_values_known` (``weights``: the
    known records' law) proves can be worst, in the order the full loop would examine
    them (so the first of equal maxima is the same); None when Lemma E's check fails."""
    size = 0 if weights is None else len(weights) - 1
    n = len(unknown) + size
    first: dict[Fraction, int] = {}
    for i, q in enumerate(unknown):
        first.setdefault(q, i)
    large = len(unknown) - 1 > EXACT_LIMIT
    blocks = Counter(unknown)
    whole = CountLaw(tuple(unknown), _blocks=dict(blocks)) if large else None
    if weights is None:
        values, thresholds = candidate_values(unknown, eps, whole, T)
    else:
        found = candidate_values_known(unknown, weights, T, eps, whole)
        if found is None:
            return None
        values, thresholds = found
    if progress is not None:
        progress(len(first) - len(values))
    cands: list[Exact] = []
    keys: list[tuple[int, tuple[int, int]]] = []
    for q in sorted(values, key=first.__getitem__):
        i = first[q]
        others = tuple(unknown[:i] + unknown[i + 1 :])
        own = one_fewer(blocks, q)
        if large:
            law = CountLaw(others, _blocks=own, _base=whole, _removed=(q,))
            m = law.m
            law.memo[("float_boundaries", eps.exponent, eps.w)] = (
                min(max(thresholds["1,0"], 0), m + 1),
                min(max(m + 1 - thresholds["0,1"], 0), m + 1),
            )
        else:
            law = CountLaw(others, _blocks=own, _exact=exact_peer_pmf(unknown, q))
        mech = Thresholding(n, T, law)
        for d in _directions(eps):
            cands.append(mech.ppk(eps, weights or [Fraction(1)], d).value())
            keys.append((i, d))
        if progress is not None:
            progress(1)
    k, v = decided_max(cands)
    if v == 0:  # every curve is 0: the full loop names its first target
        return v, 0, DIRECTIONS[0]
    return v, keys[k][0], keys[k][1]


def apk_delta(mech: Thresholding, eps: Eps | Fraction) -> tuple[Exact, int, tuple[int, int]]:
    """Exact APKDP ``δ(ε)`` of ``M_T``: the worst knowledge value ``b`` and direction.

    Args:
        mech: the mechanism.
        eps: ε.

    Returns:
        ``(δ, b, direction)``: δ exact (a Fraction or a
        :class:`~pdpsym.mechanisms.counting.Hockey`), the maximizing number of ones
        ``b`` in ``B`` and the direction ``(a, a')``.

    References:
        Desfontaines et al. (2020), Section 3.2, Definition 12; Section 4.2,
        Definition 15 and Proposition 8.
    """
    cands: list[Exact] = []
    keys: list[tuple[int, tuple[int, int]]] = []
    for b in range(mech.known_size + 1):
        for d in DIRECTIONS:
            cands.append(mech.apk(b, eps, d).value())
            keys.append((b, d))
    k, v = decided_max(cands)
    return v, keys[k][0], keys[k][1]

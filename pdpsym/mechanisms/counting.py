"""Noiseless counting query over independent Bernoulli(p_i) records (DMKB20 Section 4.1).

The mechanism is ``M(D) = sum_i D(i)`` with ``D(i) ~ Bernoulli(p_i)`` independent. For a
target ``i``, let ``S = sum_{j != i} D(j)`` (a Poisson binomial law on ``{0..m}``,
``m = n - 1`` minus the records the attacker knows). Conditioned on ``D(i) = 0`` the
output is ``S``; on ``D(i) = 1`` it is ``S + 1`` (a known record only shifts the output,
Prop. 6, so APK = PPK by Theorem 2 and known records are dropped). Definition 12 with
Lemma 1 gives the exact privacy curve

    delta_{a,b}(eps) = sum_o max(0, P[O = o | D(i)=a] - e^eps P[O = o | D(i)=b]),

and ``delta(eps)`` is its maximum over both directions and over the targets.

Exactness. For rational ``p_i`` every probability is rational; the sign of each summand
and the value ``A - e^eps B`` are decided exactly by
:func:`pdpsym.mechanisms.divergence.hockey` over the exact or certified masses of
:class:`pdpsym.mechanisms.count_law.CountLaw`. For a large heterogeneous law, float64
log-gamma blocks guess where the sign of the privacy loss changes, and certified signs
decide it there (:func:`float_boundaries`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

import numpy as np

from pdpsym.core.balls import arb_from_fraction
from pdpsym.core.certify import Exact
from pdpsym.core.compare import compare, decided_max
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.core.tails import tilted_mean
from pdpsym.mechanisms import divergence
from pdpsym.mechanisms.count_law import EXACT_LIMIT, CountLaw, peer_laws
from pdpsym.mechanisms.population import (
    MANY_DISTINCT,
    bisect_first_true,
    candidate_values,
    exact_peer_pmf,
    one_fewer,
)


def shift_laws(law: CountLaw) -> tuple[divergence.OutputLaw, divergence.OutputLaw]:
    """The counting query's output laws given ``D(i) = 0`` (``S``) and ``D(i) = 1`` (``S + 1``).

    Args:
        law: the law of the peers' count ``S`` on ``0..m``.

    Returns:
        ``(zero, one)``: two :class:`OutputLaw` over the outputs ``0..m+1``.

    References:
        Desfontaines et al. (2020), Section 4.1, Theorem 3 (``M(D) = Σ_i D(i)``).
    """
    m = law.m
    zero = divergence.OutputLaw(law, tuple((o, o) for o in range(m + 2)))
    one = divergence.OutputLaw(law, tuple((o - 1, o - 1) for o in range(m + 2)))
    return zero, one


def counting_curve(law: CountLaw, eps: Eps | Fraction) -> dict[str, divergence.Hockey]:
    """Both directions of the exact curve for one target whose peers have law ``law``.

    Args:
        law: the law of the target's unknown peers' count ``S``.
        eps: ε.

    Returns:
        ``{"1,0": δ_{1,0}(ε), "0,1": δ_{0,1}(ε)}``, each an exact :class:`Hockey`
        (``"a,b"``: ``P`` is the law given ``D(i) = a``).

    References:
        Desfontaines et al. (2020), Section 3.2, Definition 12 with Section 3.1, Lemma 1;
        Section 4.1, Theorem 3.
    """
    zero, one = shift_laws(law)
    return {"1,0": divergence.hockey(one, zero, eps), "0,1": divergence.hockey(zero, one, eps)}


@dataclass(frozen=True)
class CountingDelta:
    """The exact ``delta(eps)`` of the counting query, with its maximizing target and direction."""

    value: Exact
    target: int
    direction: str
    candidates: int


def counting_delta(
    ps: Sequence[Fraction],
    eps: Eps | Fraction,
    known: int = 0,
    progress: Callable[[int], None] | None = None,
) -> CountingDelta:
    """Exact ``δ(ε)`` of ``M(D) = Σ_i D(i)``, maximized over targets and directions.

    The attacker knows the first ``known`` records; they only shift the output
    (Θ-reducibility), so they are dropped and APKDP = PPKDP. Targets with equal ``p_i``
    give equal curves, so one target per distinct value is examined, and a direction
    whose curve mirrors one already seen (``p → 1 - p``) is skipped. Large laws
    (``m > EXACT_LIMIT``) use :func:`counting_delta_fast`. With at least
    :data:`~pdpsym.mechanisms.population.MANY_DISTINCT` distinct unknown ``p`` only the
    at most four targets :func:`~pdpsym.mechanisms.population.candidate_values` proves
    can be worst are examined (the same curves and the same earliest-first choice).

    Args:
        ps: the records' exact probabilities ``p_i`` (the first ``known`` are known).
        eps: ε.
        known: how many records the attacker knows, ``0 ≤ known ≤ n - 1``.
        progress: called with 1 after each distinct target (a progress bar's update;
            the targets the search rules out are counted at once).

    Returns:
        :class:`CountingDelta`: the exact value (a Fraction or a :class:`Hockey`), the
        maximizing target's index in ``ps``, its direction (``"1,0"``, ``"0,1"``, or
        ``"max of both"`` for a large law) and the number of curves examined.

    Raises:
        InputError: (field ``known``) outside ``0..n-1``.

    References:
        Desfontaines et al. (2020), Section 4.1, Theorem 3; Section 3.5, Proposition 6
        and Theorem 2 (known records do not matter); Section 3.1, Lemma 1.
    """
    eps = Eps.of(eps)
    ps = [p if type(p) is Fraction else Fraction(p) for p in ps]
    if known < 0 or known >= len(ps):
        raise InputError("known", f"must be between 0 and n-1 = {len(ps) - 1}")
    unknown = ps[known:]
    values = set(unknown)
    if len(values) >= MANY_DISTINCT and all(0 < q < 1 for q in values):
        # the search's lemmas need every count 0..m possible (0 < p < 1)
        return _counting_delta_search(unknown, eps, known, progress)
    worst = _Worst(eps, known, progress)
    for idx, law in peer_laws(unknown).values():  # one target per distinct p
        if not law.is_exact():
            # a Poisson binomial is log-concave: the monotone likelihood ratio gives both
            # directions in O(log m) certified signs (the per-output walk is O(m))
            worst.both(law, idx)
        else:
            worst.curves(counting_curve(law, eps), _hockey_value, law.ps, idx)
    return worst.result()


def _counting_delta_search(
    unknown: list[Fraction],
    eps: Eps,
    known: int,
    progress: Callable[[int], None] | None,
) -> CountingDelta:
    """:func:`counting_delta` over many distinct ``p``: the worst target among the few
    values :func:`~pdpsym.mechanisms.population.candidate_values` proves can be worst,
    each computed exactly as :func:`counting_delta` would (the same curves, the same
    earliest-first choice among equal values)."""
    first: dict[Fraction, int] = {}
    for i, q in enumerate(unknown):
        first.setdefault(q, i)
    large = len(unknown) - 1 > EXACT_LIMIT
    whole = CountLaw(tuple(unknown), _blocks=dict(Counter(unknown))) if large else None
    values, thresholds = candidate_values(unknown, eps, whole)
    blocks = Counter(unknown)
    symmetric = _closed_under_mirror(blocks)
    if symmetric:  # a target and its mirror 1 - p have mirrored curves: examine both
        values = sorted(set(values) | {1 - q for q in values}, key=lambda q: (float(q), q))
    if progress is not None:
        progress(len(first) - len(values))
    worst = _Worst(eps, known, progress)
    seen_mirror: set[Fraction] = set()
    for q in sorted(values, key=first.__getitem__):  # earliest target first
        i = first[q]
        others = tuple(unknown[:i] + unknown[i + 1 :])
        own = one_fewer(blocks, q)
        if large:
            if symmetric and 1 - q in seen_mirror:  # equal to its mirror's, seen earlier
                continue
            seen_mirror.add(q)
            law = CountLaw(others, _blocks=own, _base=whole, _removed=(q,))
            m = law.m
            law.memo[("float_boundaries", eps.exponent, eps.w)] = (
                min(max(thresholds["1,0"], 0), m + 1),
                min(max(m + 1 - thresholds["0,1"], 0), m + 1),
            )
            worst.both(law, i)
        else:
            law = CountLaw(others, _blocks=own, _exact=exact_peer_pmf(unknown, q))
            worst.curves(_fast_curves(law, eps), _same, others, i)
    return worst.result()


#: a curve of either kind (a hockey-stick curve, or its value already)
_C = TypeVar("_C")


def _hockey_value(h: divergence.Hockey) -> Exact:
    return h.value()


def _same(v: Exact) -> Exact:
    return v


class _Worst:
    """The worst target so far of a search over the targets (the first of equal maxima is
    kept), the number of curves examined, and the progress updates (one per target)."""

    def __init__(self, eps: Eps, known: int, progress: Callable[[int], None] | None) -> None:
        self.eps = eps
        self.known = known
        self.progress = progress
        self.best: tuple[Exact, int, str] | None = None
        self.keys: set[tuple[tuple[Fraction, ...], str]] = set()
        self.count = 0

    def _take(self, v: Exact, index: int, direction: str) -> None:
        """Keep ``(v, target, direction)`` when ``v`` is certified above the best so far."""
        self.count += 1
        if self.best is None or compare(v, self.best[0]).sign > 0:
            self.best = (v, self.known + index, direction)

    def both(self, law: CountLaw, index: int) -> None:
        """The target at ``index`` (among the unknown records), both directions at once."""
        self._take(counting_delta_fast(law, self.eps), index, "max of both")
        self._step()

    def curves(
        self,
        curves: Mapping[str, _C],
        value: Callable[[_C], Exact],
        others: Sequence[Fraction],
        index: int,
    ) -> None:
        """One target's curves, each direction whose curve no earlier one mirrors."""
        for direction, h in curves.items():
            key = _mirror_key(others, direction)
            if key in self.keys:  # an equal curve was already examined
                continue
            self.keys.add(key)
            self._take(value(h), index, direction)
        self._step()

    def _step(self) -> None:
        if self.progress is not None:
            self.progress(1)

    def result(self) -> CountingDelta:
        """The worst target's value, index, direction and the curves examined."""
        assert self.best is not None
        return CountingDelta(self.best[0], self.best[1], self.best[2], self.count)


def _mirror_key(ps: Sequence[Fraction], direction: str) -> tuple[tuple[Fraction, ...], str]:
    """Equal keys give equal curves: ``(ps, "0,1")`` mirrors to ``(1 - ps, "1,0")``."""
    if direction == "0,1":
        return tuple(sorted(1 - p for p in ps)), "1,0"
    return tuple(sorted(ps)), direction


def counting_delta_homogeneous(n: int, p: Fraction, eps: Eps | Fraction, known: int = 0) -> Exact:
    """Exact ``δ(ε)`` of the counting query for a common ``p``.

    The target's peers are the ``n - known - 1`` unknown records, ``Bin(n - known - 1, p)``.

    Args:
        n: the number of records.
        p: the common probability, strictly between 0 and 1.
        eps: ε.
        known: how many records the attacker knows.

    Returns:
        The exact value: a Fraction or a :class:`Hockey` (``A - e^ε B``).

    Raises:
        InputError: (field ``known``) when ``known ≥ n``; (field ``p``) unless ``0 < p < 1``.

    References:
        Desfontaines et al. (2020), Section 4.1, Theorem 3; Section 3.5, Proposition 6.
    """
    if not 0 < p < 1:
        raise InputError("p", "must lie strictly between 0 and 1")
    if n - known < 1:
        raise InputError("known", "the attacker must not know every record")
    return counting_delta_fast(CountLaw.homogeneous(n - known - 1, p), eps)


def counting_delta_fast(law: CountLaw, eps: Eps | Fraction) -> Exact:
    """The counting curve for a log-concave law, by the monotone likelihood ratio.

    ``P[S=o-1]/P[S=o]`` is nondecreasing in ``o`` for a Poisson binomial (log-concave), so
    the positive summands of ``δ_{1,0}`` form a suffix ``o ≥ o*`` and those of ``δ_{0,1}``
    a prefix ``o ≤ o'``: two certified boundary searches, O(log m) signs (floats only
    propose a starting guess for large heterogeneous laws). The larger direction is
    decided exactly; a symmetric law (or ε = 0) gives equal directions.

    Args:
        law: the law of the target's unknown peers' count ``S``.
        eps: ε.

    Returns:
        The exact ``max(δ_{1,0}, δ_{0,1})``: a Fraction or a :class:`Hockey`.

    References:
        Desfontaines et al. (2020), Section 4.1, Theorem 3; Section 3.1, Lemma 1;
        Hardy, Littlewood, Pólya, "Inequalities", Section 2.22 (Newton's inequalities:
        the Poisson binomial PMF is log-concave).
    """
    eps = Eps.of(eps)
    results = list(_fast_curves(law, eps).values())
    p = law.common_p
    # S and m - S have the same law when the multiset of p's is closed under p -> 1 - p
    symmetric = 2 * p == 1 if p is not None else _closed_under_mirror(law.blocks)
    if symmetric:
        return results[0]  # S and m - S have the same law: the two directions are equal
    if eps.exact_exp() == 1:
        # eps = 0: both directions are the total variation distance of two probability
        # laws (sum max(0, P - Q) = sum max(0, Q - P) as both sum to 1): equal, though
        # balls cannot prove it
        return results[0]
    return decided_max(results)[1]


def _closed_under_mirror(blocks: dict[Fraction, int]) -> bool:
    """Whether ``{q: k}`` equals ``{1 - q: k}``. A closed multiset has ``sum k (2q - 1) = 0``;
    a float sum far from 0 (each term's rounding below ``2^-51 k``) says no at once."""
    if len(blocks) > 64:
        m = sum(blocks.values())
        if abs(math.fsum(k * (2.0 * float(q) - 1.0) for q, k in blocks.items())) > 1e-9 * m:
            return False
    return blocks == {1 - q: k for q, k in blocks.items()}


def _fast_curves(law: CountLaw, eps: Eps) -> dict[str, Exact]:
    """Both directions of the exact curve by the monotone likelihood ratio (the boundary
    searches of :func:`counting_delta_fast`): ``{"1,0": ..., "0,1": ...}``."""
    eps = Eps.of(eps)
    m = law.m
    zero, one = shift_laws(law)
    results = []
    guesses = float_boundaries(law, eps) if law.windowed() else None
    for pl, ql, suffix in ((one, zero, True), (zero, one, False)):

        def pos(
            o: int,
            pl: divergence.OutputLaw = pl,
            ql: divergence.OutputLaw = ql,
            suffix: bool = suffix,
        ) -> bool:
            p = law.common_p
            if p is not None and 1 <= o <= m:
                # P[S=o-1]/P[S=o] = (1-p) o / (p (m-o+1)): a rational against e^eps
                r = (1 - p) * o / (p * (m - o + 1))
                ratio = r if suffix else 1 / r
                return divergence.ratio_exceeds_exp(ratio, eps)
            if law.is_exact():
                return divergence.positive_sign(
                    lambda pr: (
                        pl.exact_mass(o) if pr is None else arb_from_fraction(pl.exact_mass(o))
                    ),
                    lambda pr: (
                        ql.exact_mass(o) if pr is None else arb_from_fraction(ql.exact_mass(o))
                    ),
                    eps,
                )
            return divergence.positive_sign(
                lambda pr: None if pr is None else pl.arb_mass(o, pr),
                lambda pr: None if pr is None else ql.arb_mass(o, pr),
                eps,
            )

        # the boundary of the monotone predicate on 0..m+1; floats propose it, certified
        # signs decide it (a far-tail probe would need balls of ~m digits)
        guess = None if guesses is None else guesses[0 if suffix else 1]
        if suffix:  # smallest o with pos(o); pos(m+1) is true (Q = 0 there)
            chosen = (first_true(0, m + 1, pos, guess), m + 1)
        else:  # largest o with pos(o); pos(0) is true (Q = 0 there)
            chosen = (0, last_true(0, m + 1, pos, guess))
        a = divergence.Mass(((Fraction(1), law, (_shift(pl, chosen),)),))
        b = divergence.Mass(((Fraction(1), law, (_shift(ql, chosen),)),))
        results.append(divergence.Hockey(a, b, eps).value())
    return {"1,0": results[0], "0,1": results[1]}


def first_true(lo: int, hi: int, pred: Callable[[int], bool], guess: int | None = None) -> int:
    """The smallest ``x`` in ``[lo, hi]`` with ``pred(x)``, for ``pred`` false then true.

    A binary search of O(log(hi - lo)) calls; with a ``guess`` it first gallops out from
    it (a right guess costs two calls). ``hi`` is returned when no smaller ``x`` holds,
    whether or not ``pred(hi)`` does.

    Args:
        lo: the lower end.
        hi: the upper end.
        pred: a monotone predicate (false on a prefix, true on the rest).
        guess: an optional first probe.

    Returns:
        The boundary ``x``.

    References:
        Knuth, TAOCP vol. 3, Section 6.2.1 (binary search); Bentley & Yao (1976) for
        the galloping (exponential) search.
    """
    if guess is not None and lo <= guess <= hi:
        step = 1
        if pred(guess):
            hi = guess
            while hi - step >= lo and pred(hi - step):
                hi, step = hi - step, 2 * step
            lo = max(lo, hi - step + 1)
        else:
            lo = guess + 1
            while lo + step - 1 < hi and not pred(lo + step - 1):
                lo, step = lo + step, 2 * step
            hi = min(hi, lo + step - 1)
    return bisect_first_true(lo, hi, pred)


def last_true(lo: int, hi: int, pred: Callable[[int], bool], guess: int | None = None) -> int:
    """The largest ``x`` in ``[lo, hi]`` with ``pred(x)``, for ``pred`` true then false.

    Mirrors :func:`first_true` (galloping out from ``guess`` first).

    Args:
        lo: the lower end.
        hi: the upper end.
        pred: a monotone predicate (true on a prefix, false on the rest).
        guess: an optional first probe.

    Returns:
        The boundary ``x`` (``lo`` when no larger ``x`` holds).

    References:
        Knuth, TAOCP vol. 3, Section 6.2.1 (binary search).
    """
    return -first_true(-hi, -lo, lambda x: pred(-x), None if guess is None else -guess)


def float_boundaries(law: CountLaw, eps: Eps) -> tuple[int, int] | None:
    """Float64 guesses of the two sign changes of the counting curve (ranking only).

    The binomial blocks are built in the log domain (log-gamma), cut where they fall below
    ``e^-300`` of their mode, and convolved directly; the guesses only seed the certified
    searches of :func:`counting_delta_fast`.

    Args:
        law: the law of the target's peers' count ``S``.
        eps: ε.

    Returns:
        ``(o1, o2)``: the first output with ``P[S=o-1] > e^ε P[S=o]`` and the last with
        ``P[S=o] > e^ε P[S=o-1]``; None when floats cannot say (``e^ε`` overflows, or no
        such output in the window).

    References:
        Desfontaines et al. (2020), Section 4.1, Theorem 3 (the curve whose boundaries
        are guessed).
    """
    key = ("float_boundaries", eps.exponent, eps.w)
    if key not in law.memo:  # both directions and every knowledge value ask
        law.memo[key] = _float_boundaries(law, eps)
    return law.memo[key]  # type: ignore[no-any-return]


def _float_boundaries(law: CountLaw, eps: Eps) -> tuple[int, int] | None:
    try:
        ce = float(eps.w) if eps.w is not None else math.exp(float(eps.exponent or 0))
    except (OverflowError, ValueError):
        return None
    if not math.isfinite(ce):
        return None
    offset, pmf = 0, np.ones(1)
    for q, k in sorted(law.blocks.items()):
        fq = float(q)
        s = np.arange(k + 1, dtype=float)
        lg = np.array([math.lgamma(x + 1.0) for x in range(k + 1)])
        logf = lg[k] - lg - lg[::-1] + s * math.log(fq) + (k - s) * math.log1p(-fq)
        top = logf.max()
        keep = np.nonzero(logf > top - 300.0)[0]
        lo, hi = int(keep[0]), int(keep[-1])
        pmf = np.convolve(pmf, np.exp(logf[lo : hi + 1] - top))
        pmf /= pmf.max()
        # drop what nears the subnormals (slow arithmetic, and no use to a guess)
        kept = np.nonzero(pmf > 1e-200)[0]
        pmf = pmf[kept[0] : kept[-1] + 1]
        offset += lo + int(kept[0])
    # f(o) on o = offset - 1 .. offset + len(pmf): zero padded
    f = np.concatenate(([0.0], pmf, [0.0]))
    prev, cur = f[:-1], f[1:]  # P[S = o-1], P[S = o] for o = offset .. offset + len(pmf)
    up = np.nonzero(prev > ce * cur)[0]
    down = np.nonzero(cur > ce * prev)[0]
    if len(up) == 0 or len(down) == 0:
        return None
    o1, o2 = offset + int(up[0]), offset + int(down[-1])
    # a crossing beyond the window (the zero padding answered): the saddle point, where
    # P[S=o-1]/P[S=o] is about e^theta at o = E[S_theta], guesses it within a few counts
    # (a guess at the window's edge would gallop through the tail, probe by probe)
    le = math.log(ce)
    if int(up[0]) == len(pmf):
        o1 = max(o1, math.ceil(tilted_mean(law.blocks, le)))
    if int(down[-1]) == 0:
        o2 = min(o2, math.floor(tilted_mean(law.blocks, -le)))
    return o1, o2


def _shift(ol: divergence.OutputLaw, outputs: tuple[int, int]) -> tuple[int, int]:
    """The S-range of the outputs ``outputs[0]..outputs[1]`` of a shift law."""
    lo0, _ = ol.ranges[outputs[0]]
    _, hi1 = ol.ranges[outputs[1]]
    return (lo0, hi1)

"""The bisection of a noise scale, written once for every calibration: the smallest scale
at which every target's certified leakage is at most eps.

**Why bisection is sound.** Each target's leakage is non-increasing in the scale
``lambda`` (the law of a larger scale is the smaller one followed by independent noise,
and a sup of density ratios cannot grow under post-processing), so is their max, and
the scales meeting eps are an interval ``[lambda*, inf)``. A bracket ``[lo, hi]`` with
``PL(lo) > eps`` (one target certified above eps) and ``PL(hi) <= eps`` (every target
certified at most eps) therefore encloses ``lambda*``.

**How** (:func:`smallest_scale`). The worst target at a scale known to be safe is
bisected alone (the engine keeps what it needs of it; each step is one certified sup),
then every target is certified at the bracket's upper end; if another target exceeds eps
there, it becomes the worst and the bisection continues from the bracket. The engines
(:mod:`pdpsym.audit.calibrate` for the sum, :mod:`pdpsym.audit.calibrate_histogram` for
the histogram) give the all-targets pass and the one target kept.

References:
    Li et al. (2019), Eq. 2 (the leakage of each target, a max over the known records'
    values).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any, Protocol

from pdpsym.core.errors import InputError
from pdpsym.loss.count_leakage import leakage_max

#: at a tie PL(lambda) = eps the bracket is lambda (1 -+ NUDGE), both ends certified
NUDGE = Fraction(1, 10**14)

#: the relative width of the calibrated enclosure
REL_WIDTH = Fraction(1, 10**12)
#: how far below the safe scale the search for a lower end goes (2^-40 of it, about
#: 10^-12): a target whose leakage stays within eps there (the query barely depends on
#: it, or not at all given the known records) has no smallest scale the search can reach
MAX_HALVINGS = 40


def max_sign(
    enclosures: Callable[[int], Iterable[tuple[Any, ...] | None]],
    precisions: Sequence[int],
    eps: Fraction,
    name: str,
) -> int:
    """The sign of ``max - eps`` for a max of certified enclosures, raising precision.

    Args:
        enclosures: at a number of digits, each part's enclosure ``(lo, hi, ...)`` (None: no
            two compatible values in the part).
        precisions: the digits tried, in order.
        eps: the bound compared with.
        name: the target's name (for the error).

    Returns:
        1 when the max is certified above ``eps``, -1 when certified at most ``eps``, 0
        when no precision splits them.

    Raises:
        InputError: no part has two compatible values (field ``target``).

    References:
        Li et al. (2019), Eq. 2 (the leakage is a max over the known assignments).
    """
    for digits in precisions:
        lo: Fraction | None = None
        hi: Fraction | None = None
        for res in enclosures(digits):
            if res is not None:
                lo = res[0] if lo is None else max(lo, res[0])
                hi = res[1] if hi is None else max(hi, res[1])
        if lo is None or hi is None:
            raise InputError("target", f"{name}: no two values are compatible")
        if lo > eps:
            return 1
        if hi <= eps:
            return -1
    return 0


def nudged(
    compare: Callable[[Fraction, Fraction], int], lam: Fraction, eps: Fraction
) -> tuple[Fraction, Fraction] | None:
    """At a tie ``PL(lam) = eps``: ``lam (1 -+ NUDGE)`` when certified on either side.

    Args:
        compare: the certified sign of ``PL(scale) - eps``.
        lam: the tied scale.
        eps: the bound.

    Returns:
        ``(lam (1 - NUDGE), lam (1 + NUDGE))`` when the leakage is certified above eps at
        the first and below at the second, else None.

    References:
        Li et al. (2019), Eq. 2 (the leakage is non-increasing in the scale).
    """
    lo, hi = lam * (1 - NUDGE), lam * (1 + NUDGE)
    if compare(lo, eps) > 0 and compare(hi, eps) < 0:
        return lo, hi
    return None


class Bisected(Protocol):
    """One target kept for a bisection: the certified sign of ``PL(lam) - eps``, and the
    bracket ``lam (1 -+ NUDGE)`` at a tie (:func:`nudged`; None when it is undecided)."""

    def compare(self, lam: Fraction, eps: Fraction) -> int:
        """The certified sign of ``PL(lam) - eps`` (0: the balls cannot split them)."""

    def tie(self, lam: Fraction, eps: Fraction) -> tuple[Fraction, Fraction] | None:
        """``lam (1 -+ NUDGE)`` when certified on either side of ``lambda*``, else None."""


def smallest_scale(
    all_targets: Callable[[Fraction], list[Any]],
    one_target: Callable[[str], Bisected],
    hi: Fraction,
    eps: Fraction,
) -> tuple[Fraction, Fraction, str, dict[Fraction, list[Any]]]:
    """The bracket ``[lo, hi]`` of the smallest scale meeting ``eps`` (module docstring).

    Args:
        all_targets: every target's certified leakage at a scale, precise enough to
            compare with ``eps`` (a result per target, with ``value`` and ``target``).
        one_target: a target kept for its bisection.
        hi: a scale to start from (doubled until every target meets ``eps``).
        eps: the bound.

    Returns:
        ``(lo, hi, worst, passes)``: ``PL(lo) > eps >= PL(hi)`` certified, ``hi - lo <=
        REL_WIDTH hi`` unless a tie stayed undecided inside the bracket (``tie`` gave
        None: the bracket stays certified, only wider), the worst target, and every
        all-targets pass by its scale.

    Raises:
        InputError: (field ``eps``) the worst target's leakage stays within eps down to
            ``2^-MAX_HALVINGS`` of the safe scale.

    References:
        Li et al. (2019), Eq. 2 (the leakage is non-increasing in the scale, so the
        scales meeting eps are an interval).
    """
    passes: dict[Fraction, list[Any]] = {}
    while True:
        results = all_targets(hi)
        passes[hi] = results
        if all(r.value is None or r.value.hi <= eps for r in results):
            break
        hi *= 2
    safe = hi
    worst = worst_leakage(results).target
    lo: Fraction | None = None
    while True:
        tgt = one_target(worst)
        if lo is None:
            lo = hi / 2
            while (c := tgt.compare(lo, eps)) <= 0:
                if c < 0:
                    if lo < safe / 2**MAX_HALVINGS:
                        raise InputError(
                            "eps",
                            f"target {worst}: the leakage stays within {eps} down to 2^-"
                            f"{MAX_HALVINGS} of the safe scale {safe} (the query depends on "
                            "the target too little, or not at all given the known records): "
                            "no smallest scale to find",
                        )
                    hi = lo
                elif (tie := tgt.tie(lo, eps)) is not None:
                    lo, hi = tie
                    break
                lo = lo / 2  # undecided at lo: a certified lower end is further down
        while hi - lo > REL_WIDTH * hi:
            mid = short_between((lo + hi) / 2, lo, hi)
            c = tgt.compare(mid, eps)
            if c > 0:
                lo = mid
            elif c < 0:
                hi = mid
            elif (tie := tgt.tie(mid, eps)) is not None:
                lo, hi = tie
            else:
                # the enclosures cannot split PL(mid) from eps (a plateau of tied points
                # bounded by floats): the bracket stays certified, only wider
                break
        results = all_targets(hi)
        passes[hi] = results
        above = [r.target for r in results if r.value is not None and r.value.hi > eps]
        if not above:
            return lo, hi, worst, passes
        # another target exceeds eps at hi (certified by the pass): it is now the worst;
        # PL(hi) > eps, so hi becomes the lower end, and the safe scale the upper one
        worst, lo, hi = above[0], hi, safe


def worst_leakage(results: Sequence[Any]) -> Any:
    """The largest leakage of a calibration pass's ``results``.

    Args:
        results: one Eq. 2 result per target (each with ``value`` and ``target``).

    Returns:
        The result of the largest value (:func:`~pdpsym.loss.count_leakage.leakage_max`).

    Raises:
        InputError: (field ``target``) when no target has two compatible values.

    References:
        Li et al. (2019), Eq. 2 (the worst target decides the scale).
    """
    best = leakage_max(results)
    if best is None:
        raise InputError("target", "no target has two compatible values")
    return best


def short_between(mid: Fraction, lo: Fraction, hi: Fraction) -> Fraction:
    """A short rational strictly inside ``(lo, hi)`` near ``mid`` (keeps numbers small).

    Args:
        mid: the point wanted (inside ``(lo, hi)``).
        lo: the open interval's lower end.
        hi: its upper end (``> lo``).

    Returns:
        The first ``round(mid d) / d`` for ``d = 1, 2, 4, ...`` strictly inside ``(lo, hi)``
        and within a quarter of the width of ``mid``.

    References:
        Li et al. (2019), Eq. 2 (the bisection for the smallest scale meeting eps).
    """
    width = hi - lo
    den = 1
    while True:
        q = Fraction(round(mid * den), den)
        if lo < q < hi and abs(q - mid) <= width / 4:
            return q
        den *= 2


__all__ = [
    "MAX_HALVINGS",
    "NUDGE",
    "REL_WIDTH",
    "Bisected",
    "max_sign",
    "nudged",
    "short_between",
    "smallest_scale",
    "worst_leakage",
]

"""Calibration, written once: what a calibration must meet (:class:`Goal`), what it
answers (:class:`Calibration`, the baselines' :class:`BaselineResult`), and the bracket
and bisection of the smallest scale meeting eps (:func:`smallest_scale`), driven by
:func:`calibrate_goal` for any query whose engine gives the pieces (:class:`ScaleEngine`:
the sum, :mod:`pdpsym.audit.calibrate`; the histogram,
:mod:`pdpsym.audit.calibrate_histogram`).

**Why bisection is sound.** Each target's leakage is non-increasing in the scale
``lambda`` (the law of a larger scale is the smaller one followed by independent noise,
and a sup of density ratios cannot grow under post-processing), so is their max, and
the scales meeting eps are an interval ``[lambda*, inf)``. A bracket ``[lo, hi]`` with
``PL(lo) > eps`` (one target certified above eps) and ``PL(hi) <= eps`` (every target
certified at most eps) therefore encloses ``lambda*``.

**How** (:func:`smallest_scale`). The worst target at a scale known to be safe is
bisected alone (the engine keeps what it needs of it; each step is one certified sup),
then every target is certified at the bracket's upper end; if another target exceeds eps
there, it becomes the worst and the bisection continues from the bracket.

**Steps decided on a lower bound.** A target may answer "at most eps" at a step from a
certified *lower* bound of its leakage alone (the histogram's max over a few kept
outputs, :mod:`pdpsym.audit.calibrate_histogram`); "above eps" stays certified. Such an
answer is confirmed afterwards: within one target's bisection the upper end only
decreases, and every "at most eps" answer moved it to the scale asked, so the final
upper end ``hi`` is the smallest scale answered so; the all-targets pass certifies
``PL(hi) <= eps`` or not, and since the leakage is non-increasing in the scale,
``PL(hi) <= eps`` makes every earlier such answer true. Then every step's answer was
the certified one, and the bracket is the very one a bisection certified at every step
makes (same midpoints, same decisions). If the pass finds ``PL(hi) > eps`` instead, the
target learns the outputs that show it and its bisection is redone from the start
(``learn``; each redo adds a new output, or, when none is new, the redo decides every
step by certified sups, so the redos end).

References:
    Li et al. (2019), Eq. 2 (the leakage of each target, a max over the known records'
    values); Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 5 (the baselines).
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, Protocol

import sympy

from pdpsym.core.certify import certify
from pdpsym.core.decimals import decimal_string, enclosure_decimal
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str, short_between
from pdpsym.loss.count_leakage import leakage_max
from pdpsym.loss.leakage_result import Enclosed
from pdpsym.mechanisms.mqm import BaselineScale
from pdpsym.models.counts import CountModel

Mechanism = Literal["laplace", "geometric"]


def baseline_json(
    name: str,
    scale: sympy.Expr,
    scale_used: Fraction,
    leakage: Enclosed,
    worst_target: str,
    digits: int,
) -> dict[str, Any]:
    """A baseline's name, scale (certified, and the rational used), leakage and worst target.

    Args:
        name: the baseline's name.
        scale: its scale, exact.
        scale_used: the rational scale the leakage was computed at.
        leakage: the certified Eq. 2 leakage at that scale.
        worst_target: the target of that leakage.
        digits: the certified significant digits.

    Returns:
        ``{"name", "scale": {certified..., "used"}, "leakage", "worst_target"}``.

    References:
        Li et al. (2019), Eq. 2; Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 5.
    """
    return {
        "name": name,
        "scale": {**certify(scale, digits).as_json(), "used": fraction_str(scale_used)},
        "leakage": leakage.as_json(digits),
        "worst_target": worst_target,
    }


@dataclass(frozen=True)
class BaselineResult:
    """A baseline's scale and the certified Eq. 2 leakage (max over targets) it gives."""

    name: str
    scale: sympy.Expr
    scale_used: Fraction
    leakage: Enclosed
    worst_target: str
    detail: Mapping[str, object]

    def as_json(self, digits: int) -> dict[str, Any]:
        """The scale (certified, and the rational used), its leakage and the detail."""
        return {
            **baseline_json(
                self.name, self.scale, self.scale_used, self.leakage, self.worst_target, digits
            ),
            **{k: v for k, v in self.detail.items()},
        }


@dataclass(frozen=True)
class NotApplicable:
    """A baseline that does not apply to the model, and why (listed, not an error)."""

    name: str
    reason: str

    def as_json(self, digits: int) -> dict[str, Any]:
        """``{"name", "applicable": false, "reason"}`` (``digits`` is unused)."""
        return {"name": self.name, "applicable": False, "reason": self.reason}


@dataclass(frozen=True)
class Goal:
    """What a calibration must meet: Eq. 2 leakage at most ``eps`` (> 0) for every target,
    under a mechanism (``"laplace"`` or ``"geometric"``), against an adversary who knows
    the records ``known``, for the query weighted by ``weights`` (None: the sum).

    ``targets`` None stands for every record not known (:meth:`targets_of`); ``known``
    and ``targets`` are kept as tuples.

    Raises:
        InputError: ``eps <= 0`` (field ``eps``) or an unknown mechanism (``mechanism``).

    References:
        Li et al. (2019), Eq. 2 (the bound a calibration meets, per target).
    """

    eps: Fraction
    mechanism: str = "laplace"
    known: Sequence[str] = ()
    targets: Sequence[str] | None = None
    weights: Mapping[str, int] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", positive_eps(self.eps))
        object.__setattr__(self, "known", tuple(self.known))
        if self.targets is not None:
            object.__setattr__(self, "targets", tuple(self.targets))
        if self.mechanism not in ("laplace", "geometric"):
            raise InputError(
                "mechanism", f"unknown mechanism {self.mechanism!r} (laplace or geometric)"
            )

    def targets_of(self, variables: Sequence[str]) -> list[str]:
        """The targets: those given, or every record of ``variables`` not known.

        Args:
            variables: the model's (or the class's) record names.

        Returns:
            The targets, a list.

        Raises:
            InputError: no target is left (field ``target``).
        """
        if self.targets is not None:
            out = list(self.targets)
        else:
            out = [v for v in variables if v not in set(self.known)]
        if not out:
            raise InputError("target", "no target left once the known records are removed")
        return out


def scale_json(
    eps: Fraction, mechanism: str, lo: Fraction, hi: Fraction, digits: int
) -> dict[str, Any]:
    """A calibrated scale's eps, mechanism and enclosure ``[lo, hi]``, for JSON.

    Args:
        eps: the leakage bound met.
        mechanism: the mechanism's name.
        lo: the enclosure's lower end.
        hi: its upper end.
        digits: the certified significant digits of the decimal.

    Returns:
        ``{"eps", "mechanism", "scale": {"decimal", "enclosure": [down, up]}}`` (the
        enclosure's ends to 16 digits, rounded outward).

    References:
        Li et al. (2019), Eq. 2 (the smallest scale meeting eps).
    """
    dec, _ = enclosure_decimal(lo, hi, digits)
    return {
        "eps": fraction_str(eps),
        "mechanism": mechanism,
        "scale": {
            "decimal": dec,
            "enclosure": [decimal_string(lo, 16, "down"), decimal_string(hi, 16, "up")],
        },
    }


@dataclass(frozen=True)
class Calibration:
    """The smallest scale ``lambda*`` in ``[lo, hi]`` with max leakage ``<= eps``."""

    eps: Fraction
    mechanism: Mechanism
    lo: Fraction
    hi: Fraction
    worst_target: str
    baselines: tuple[BaselineResult | NotApplicable, ...]

    def as_json(self, digits: int = 15) -> dict[str, Any]:
        """The enclosure of the smallest scale, the worst target and the baselines."""
        return {
            **scale_json(self.eps, self.mechanism, self.lo, self.hi, digits),
            "worst_target": self.worst_target,
            "baselines": [b.as_json(digits) for b in self.baselines],
        }

    def scale_columns(self, digits: int) -> dict[str, str]:
        """The calibrated scale and each applicable baseline's scale and leakage, flat.

        Args:
            digits: the certified significant digits of every decimal.

        Returns:
            ``exact_scale``, then ``<baseline>_scale`` and ``<baseline>_leakage`` for each
            baseline that applies (``-`` in its name becomes ``_``), as certified decimals.

        References:
            Li et al. (2019), Eq. 2; Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 5.
        """
        row = {"exact_scale": enclosure_decimal(self.lo, self.hi, digits)[0]}
        for b in self.baselines:
            if not isinstance(b, BaselineResult):  # pragma: no cover - a stationary chain
                continue
            key = b.name.replace("-", "_")
            row[f"{key}_scale"] = certify(b.scale, digits).decimal
            row[f"{key}_leakage"] = b.leakage.as_json(digits)["decimal"]
        return row


def positive_eps(eps: Fraction) -> Fraction:
    """``eps`` as a Fraction, refused unless it is positive.

    Args:
        eps: the leakage bound.

    Returns:
        ``Fraction(eps)``.

    Raises:
        InputError: ``eps <= 0`` (field ``eps``).

    References:
        Li et al. (2019), Eq. 2 (the bound a calibration meets).
    """
    eps = Fraction(eps)
    if eps <= 0:
        raise InputError("eps", f"must be > 0, got {fraction_str(eps)}")
    return eps


def measured_baselines(
    scales: Sequence[BaselineScale | NotApplicable],
    passes: Mapping[Fraction, list[Any]],
    all_targets: Callable[[Fraction], list[Any]],
) -> list[BaselineResult | NotApplicable]:
    """Each baseline's scale with the certified leakage it gives (max over targets).

    Args:
        scales: the baselines' scales (and those not applicable, kept in place).
        passes: the all-targets passes already made, by scale (a baseline at one of
            them, the safe start being group DP's, needs no other pass).
        all_targets: every target's certified leakage at a scale.

    Returns:
        A :class:`BaselineResult` per scale (the leakage at its scale's upper end, 20
        digits), the :class:`NotApplicable` ones as given.

    References:
        Li et al. (2019), Eq. 2; Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 5.
    """
    out: list[BaselineResult | NotApplicable] = []
    for b in scales:
        if isinstance(b, NotApplicable):
            out.append(b)
            continue
        used = Fraction(certify(b.scale, 20).enclosure[1])
        best = worst_leakage(passes.get(used) or all_targets(used))
        out.append(BaselineResult(b.name, b.scale, used, best.value, best.target, b.detail))
    return out


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
    """One target kept for a bisection: the sign of ``PL(lam) - eps`` (+1 certified; -1
    certified, or standing on a lower bound of ``PL`` and then confirmed by the
    all-targets pass, see :meth:`learn`), and the bracket ``lam (1 -+ NUDGE)`` at a tie
    (:func:`nudged`; None when it is undecided)."""

    def compare(self, lam: Fraction, eps: Fraction) -> int:
        """The certified sign of ``PL(lam) - eps`` (0: the balls cannot split them)."""

    def tie(self, lam: Fraction, eps: Fraction) -> tuple[Fraction, Fraction] | None:
        """``lam (1 -+ NUDGE)`` when certified on either side of ``lambda*``, else None."""

    def certain(self, lam: Fraction, eps: Fraction) -> int:
        """The sign of ``PL(lam) - eps`` certified both ways (``compare`` may answer -1
        on a lower bound of ``PL``, to be confirmed by the all-targets pass)."""

    def learn(self, lam: Fraction, eps: Fraction) -> bool:
        """After the all-targets pass found ``PL(lam) > eps`` (or could not split it) at
        the bracket's upper end ``lam``: True when some -1 of ``compare`` stood on a lower
        bound and the target now knows more (its bisection is then redone), else False."""


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
        start = lo, hi
        while True:
            lo, hi = _bisect(tgt, worst, start, safe, eps)
            results = all_targets(hi)
            passes[hi] = results
            above = [r.target for r in results if r.value is not None and r.value.hi > eps]
            # the target's "at most eps" answers may stand on a few outputs only (the
            # histogram's): refuted at hi by the pass, it learns the outputs that refute
            # them and its bisection is redone from the start, now with those outputs
            if worst not in above or not tgt.learn(hi, eps):
                break
        if not above:
            return lo, hi, worst, passes
        # another target exceeds eps at hi (certified by the pass): it is now the worst;
        # PL(hi) > eps, so hi becomes the lower end, and the safe scale the upper one
        worst, lo, hi = above[0], hi, safe


def _bisect(
    tgt: Bisected,
    worst: str,
    start: tuple[Fraction | None, Fraction],
    safe: Fraction,
    eps: Fraction,
) -> tuple[Fraction, Fraction]:
    """One target's bisection from ``start`` (``lo`` None: search a lower end below
    ``hi`` first): :func:`smallest_scale`'s bracket before the all-targets pass."""
    lo, hi = start
    if lo is None:
        lo = hi / 2
        while (c := tgt.compare(lo, eps)) <= 0:
            if c < 0 and lo < safe / 2**MAX_HALVINGS and (c := tgt.certain(lo, eps)) < 0:
                raise InputError(
                    "eps",
                    f"target {worst}: the leakage stays within {eps} down to 2^-"
                    f"{MAX_HALVINGS} of the safe scale {safe} (the query depends on "
                    "the target too little, or not at all given the known records): "
                    "no smallest scale to find",
                )
            if c > 0:
                break
            if c < 0:
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
    return lo, hi


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


@dataclass(frozen=True)
class ScaleEngine(abc.ABC):
    """A query's engine for one calibration, what :func:`calibrate_goal` asks: one
    subclass per query (the sum's :class:`~pdpsym.audit.calibrate.SumScale`, the
    histogram's :class:`~pdpsym.audit.calibrate_histogram.HistogramScale`).

    Args:
        model: the model calibrated.
        goal: what the scale must meet.
        on_target: progress callback (once per target and pass).
    """

    model: CountModel
    goal: Goal
    on_target: Callable[[str], None] | None = None

    @abc.abstractmethod
    def start(self) -> Fraction:
        """A scale certainly meeting eps for every target (group DP's), after checking
        that the engine takes the goal (raising :class:`InputError` if not)."""

    def closed_form(self) -> bool:
        """Whether every target's leakage is ``c / lambda`` exactly (then the scale is
        the worst leakage at ``lambda = 1`` over eps, with no bisection); False here."""
        return False

    @abc.abstractmethod
    def leakages(self, targets: Sequence[str], lam: Fraction, eps: Fraction | None) -> list[Any]:
        """Every target's certified leakage at ``lam`` (precise enough to compare with
        ``eps`` when given)."""

    @abc.abstractmethod
    def bisected(self, name: str) -> Bisected:
        """One target kept for its bisection."""

    @abc.abstractmethod
    def baselines(self) -> list[BaselineScale | NotApplicable]:
        """The baselines' scales (those not applicable with the reason)."""


def calibrate_goal(engine: ScaleEngine, *, baselines: bool = True) -> Calibration:
    """The smallest scale meeting the engine's goal for every target.

    Args:
        engine: the query's engine for this calibration (the sum's or the histogram's).
        baselines: also the baselines' scales and the leakage each gives.

    Returns:
        The :class:`Calibration`: ``[lo, hi]`` with ``hi - lo <= 1e-12 hi``, or wider
        (still certified) when an engine cannot split a tie inside the bracket.

    References:
        Li et al., Eq. 2; Song, Wang, Chaudhuri (SIGMOD 2017), MQM; Li et al., Remark 1.
    """
    hi = engine.start()
    eps = engine.goal.eps
    targets = engine.goal.targets_of(engine.model.variables)

    def all_targets(lam: Fraction, eps: Fraction | None = eps) -> list[Any]:
        return engine.leakages(targets, lam, eps)

    passes: Mapping[Fraction, list[Any]] = {}
    at_one = all_targets(Fraction(1)) if engine.closed_form() else []
    if any(r.value is not None for r in at_one):
        best = worst_leakage(at_one)
        lo = hi = best.value.hi / eps
        worst = best.target
    else:
        lo, hi, worst, passes = smallest_scale(all_targets, engine.bisected, hi, eps)
    out: list[BaselineResult | NotApplicable] = []
    if baselines:
        out = measured_baselines(engine.baselines(), passes, lambda lam: all_targets(lam, None))
    mechanism = engine.goal.mechanism
    return Calibration(eps, mechanism, lo, hi, worst, tuple(out))  # type: ignore[arg-type]


__all__ = [
    "MAX_HALVINGS",
    "NUDGE",
    "REL_WIDTH",
    "BaselineResult",
    "Bisected",
    "Calibration",
    "Goal",
    "NotApplicable",
    "ScaleEngine",
    "baseline_json",
    "calibrate_goal",
    "max_sign",
    "measured_baselines",
    "nudged",
    "positive_eps",
    "scale_json",
    "smallest_scale",
    "worst_leakage",
]

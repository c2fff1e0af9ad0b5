"""Calibration: the smallest noise scale at which every target's Eq. 2 leakage is at most
eps, certified, next to the baselines' scales and the leakage those actually give.

**Why bisection is sound.** Each target's leakage is non-increasing in the scale
``lambda`` (:mod:`pdpsym.loss.count_leakage`: the Laplace law of a larger scale is the
smaller one followed by independent noise, and a sup of density ratios cannot grow under
post-processing; likewise for the geometric mechanism). So is their max, and the set of
scales meeting eps is an interval ``[lambda*, inf)``. A bracket ``[lo, hi]`` with
``PL(lo) > eps`` (one target certified above eps) and ``PL(hi) <= eps`` (every target
certified at most eps) therefore encloses ``lambda*``.

**How.** The worst target at a scale known to be safe is bisected alone (its
forward-backward polynomials are computed once; each step is one certified sup), then
every target is certified at the bracket's upper end; if another target exceeds eps
there, it becomes the worst and the bisection continues from the bracket.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import sympy

from pdpsym.core.certify import certify
from pdpsym.core.decimals import decimal_string, enclosure_decimal
from pdpsym.core.errors import InputError, Undecided
from pdpsym.core.numbers import fraction_str
from pdpsym.loss.count_leakage import (
    known_assignments,
    leakage_max,
    structured_leakage,
    target_enclosure,
)
from pdpsym.loss.independent import independent_closed_form
from pdpsym.loss.leakage_result import Enclosed
from pdpsym.mechanisms.mqm import (
    BaselineScale,
    group_dp_scale,
    mqm_approx_applies,
    mqm_approx_scale,
    mqm_exact_scale,
)
from pdpsym.mechanisms.mqm_network import mqm_network_scale
from pdpsym.models.counts import CountModel
from pdpsym.models.model_objects import chain_of, network_of

Mechanism = Literal["laplace", "geometric"]

#: at a tie PL(lambda) = eps the bracket is lambda (1 -+ NUDGE), both ends certified
NUDGE = Fraction(1, 10**14)

#: the relative width of the calibrated enclosure
REL_WIDTH = Fraction(1, 10**12)
#: how far below the safe scale the search for a lower end goes (2^-40 of it, about
#: 10^-12): a target whose leakage stays within eps there (the query barely depends on
#: it, or not at all given the known records) has no smallest scale the search can reach
MAX_HALVINGS = 40


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


def calibration_targets(
    model: CountModel, known: Sequence[str], targets: Sequence[str] | None
) -> tuple[tuple[str, ...], list[str]]:
    """The known records and the targets of a calibration (default: every record not known).

    Args:
        model: the model whose records are the default targets.
        known: the records the adversary knows.
        targets: the targets, or None for every record not known.

    Returns:
        ``(known, targets)``.

    Raises:
        InputError: no target is left (field ``target``).

    References:
        Li et al. (2019), Eq. 2 (one leakage per target).
    """
    known = tuple(known)
    if targets is None:
        targets = [v for v in model.variables if v not in set(known)]
    targets = list(targets)
    if not targets:
        raise InputError("target", "no target left once the known records are removed")
    return known, targets


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


class _Target:
    """One target's factors (every known assignment), kept for repeated sups."""

    def __init__(self, model: CountModel, name: str, known: Sequence[str], weights: Any) -> None:
        self.name = name
        self.contrib = model.contributions(weights)
        self.parts = [
            values
            for assignment in known_assignments(model, known)
            for _, values in model.target_factors([name], assignment, weights)
        ]

    def compare(self, lam: Fraction, eps: Fraction) -> int:
        """The sign of ``PL(lam) - eps``, certified (raising precision as needed); 0 when
        ``|PL(lam) - eps|`` is below about ``10^-68`` (a tie the balls cannot split)."""
        return max_sign(
            lambda digits: (
                target_enclosure(values, self.contrib, lam, digits, exact=False)
                for values in self.parts
            ),
            (17, 34, 68),
            eps,
            self.name,
        )

    def around(self, lam: Fraction, eps: Fraction) -> tuple[Fraction, Fraction]:
        """At a tie ``PL(lam) = eps`` (to 68 digits): ``lam (1 -+ NUDGE)``, certified to
        lie below and above ``lambda*`` (the leakage is non-increasing; if it is flat
        there, the tie is undecided)."""
        bracket = nudged(self.compare, lam, eps)
        if bracket is not None:
            return bracket
        raise Undecided(f"leakage of {self.name} equals eps near scale {lam}", 68 * 4)


def _check_mechanism(model: CountModel, mechanism: str, weights: Any) -> Mechanism:
    if mechanism not in ("laplace", "geometric"):
        raise InputError("mechanism", f"unknown mechanism {mechanism!r} (laplace or geometric)")
    if mechanism == "geometric" and model.contributions(weights).scale != 1:
        raise InputError("mechanism", "the geometric mechanism needs integer record values")
    return mechanism  # type: ignore[return-value]


def _pass(
    model: CountModel,
    targets: Sequence[str],
    known: Sequence[str],
    lam: Fraction,
    weights: Any,
    on_target: Callable[[str], None] | None,
    eps: Fraction | None,
) -> list[Any]:
    """Every target's certified leakage at ``lam``, precise enough to compare with eps
    (a target whose enclosure contains eps is recomputed with more digits; no eps: 17
    digits each)."""
    res = structured_leakage(
        model, targets, known, lam, weights, digits=17, exact=False, on_target=on_target
    )
    if eps is None:
        return res
    unsure = [r.target for r in res if r.value is not None and r.value.lo <= eps < r.value.hi]
    if unsure:
        # more digits; a target still straddling eps counts as above it (not safe)
        again = {
            r.target: r
            for r in structured_leakage(model, unsure, known, lam, weights, digits=60, exact=False)
        }
        res = [again.get(r.target, r) for r in res]
    return res


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


def calibrate(
    model: CountModel,
    eps: Fraction,
    *,
    mechanism: str = "laplace",
    known: Sequence[str] = (),
    targets: Sequence[str] | None = None,
    weights: Mapping[str, int] | None = None,
    baselines: bool = True,
    on_target: Callable[[str], None] | None = None,
) -> Calibration:
    """The smallest Laplace (or geometric) scale meeting ``eps`` for every target.

    Args:
        model: a Markov chain or a product model.
        eps: the leakage bound (> 0).
        mechanism: ``"laplace"`` or ``"geometric"`` (``alpha = e^{-1/lambda}``, integer
            record values; its leakage equals the Laplace one at the same scale).
        known: the records the adversary knows.
        targets: the targets (default: every record not known).
        weights: integer query weights (default: the sum).
        baselines: also compute group DP (and, for chains, MQMExact and MQMApprox; for
            Bayesian networks, MQM on the network's quilts,
            :mod:`pdpsym.mechanisms.mqm_network`) and
            the leakage each gives; MQMApprox is listed as not applicable, with the
            reason, when the chain is not stationary or the query is weighted.
        on_target: progress callback (once per target and pass).

    Returns:
        The :class:`Calibration`: ``[lo, hi]`` with ``hi - lo <= 1e-12 hi``.

    References:
        Li et al., Eq. 2; Song, Wang, Chaudhuri (SIGMOD 2017), MQM; Li et al., Remark 1.

    Examples:
        Independent bits leak ``1/lam`` each (see :func:`~pdpsym.loss.count_leakage.structured_leakage`),
        so the smallest scale for ``eps = 1`` is 1, inside the certified enclosure:

        >>> import pdpsym as ps
        >>> from fractions import Fraction
        >>> coins = ps.ProductModel([(["0", "1"], ["1/2", "1/2"])] * 3)
        >>> c = ps.calibrate(coins, Fraction(1))
        >>> c.lo <= 1 <= c.hi, c.hi - c.lo <= Fraction(1, 10**12)
        (True, True)
    """
    eps = positive_eps(eps)
    mech = _check_mechanism(model, mechanism, weights)
    known, targets = calibration_targets(model, known, targets)
    # a safe start: the group-DP scale (doubled until every target meets eps)
    hi = Fraction(certify(group_dp_scale(model, eps).scale, 20).enclosure[1])
    if hi <= 0:
        raise InputError("model", "the query does not depend on the records (sensitivity 0)")
    passes: dict[Fraction, list[Any]] = {}
    if independent_closed_form(model):
        # every target leaks (max c - min c) / lambda exactly: the smallest scale is the
        # worst target's leakage at lambda = 1 divided by eps, exactly
        at_one = _pass(model, targets, known, Fraction(1), weights, on_target, eps)
        if any(r.value is not None for r in at_one):
            best = worst_leakage(at_one)
            scale = best.value.hi / eps
            run = (targets, known, weights, on_target)
            return _with_baselines(model, eps, mech, scale, scale, best.target, baselines, {}, run)
    while True:
        results = _pass(model, targets, known, hi, weights, on_target, eps)
        passes[hi] = results
        if all(r.value is None or r.value.hi <= eps for r in results):
            break
        hi *= 2
    safe = hi
    worst = worst_leakage(results).target
    lo: Fraction | None = None
    while True:
        tgt = _Target(model, worst, known, weights)
        if lo is None:
            lo = hi / 2
            while (c := tgt.compare(lo, eps)) < 0:
                if lo < safe / 2**MAX_HALVINGS:
                    raise InputError(
                        "eps",
                        f"target {worst}: the leakage stays within {eps} down to 2^-"
                        f"{MAX_HALVINGS} of the safe scale {safe} (the query depends on the "
                        "target too little, or not at all given the known records): no "
                        "smallest scale to find",
                    )
                hi, lo = lo, lo / 2
            if c == 0:
                lo, hi = tgt.around(lo, eps)
        while hi - lo > REL_WIDTH * hi:
            mid = short_between((lo + hi) / 2, lo, hi)
            c = tgt.compare(mid, eps)
            if c > 0:
                lo = mid
            elif c < 0:
                hi = mid
            else:
                lo, hi = tgt.around(mid, eps)
        results = _pass(model, targets, known, hi, weights, on_target, eps)
        passes[hi] = results
        above = [r.target for r in results if r.value is not None and r.value.hi > eps]
        if not above:
            break
        # another target exceeds eps at hi (certified by _pass): it is now the worst;
        # PL(hi) > eps, so hi becomes the lower end, and the safe scale the upper one
        worst, lo, hi = above[0], hi, safe
    return _with_baselines(
        model, eps, mech, lo, hi, worst, baselines, passes, (targets, known, weights, on_target)
    )


def _with_baselines(
    model: CountModel,
    eps: Fraction,
    mech: Any,
    lo: Fraction,
    hi: Fraction,
    worst: str,
    baselines: bool,
    passes: dict[Fraction, list[Any]],
    run: tuple[Any, Any, Any, Any],
) -> Calibration:
    """The :class:`Calibration` with the baselines' scales and the leakage each gives."""
    targets, known, weights, on_target = run
    out: list[BaselineResult | NotApplicable] = []
    if baselines:
        scales: list[BaselineScale] = [group_dp_scale(model, eps)]
        skipped: list[NotApplicable] = []
        chain = chain_of(model)
        if chain is not None and len(chain.matrices) == 1 and weights is None:
            scales.append(mqm_exact_scale(chain, eps))
        network = network_of(model)
        if network is not None:  # MQM on the network's quilts
            scales.append(
                mqm_network_scale(
                    network, eps, dict(weights) if weights else None, on_record=on_target
                )
            )
        if chain is not None:
            reason = mqm_approx_applies(chain)
            if reason is None and weights is not None:
                reason = "MQMApprox here is for the sum query (no weights)"
            if reason is None:
                scales.append(mqm_approx_scale(chain, eps))
            else:
                skipped.append(NotApplicable("mqm-approx", reason))
        for b in scales:
            used = Fraction(certify(b.scale, 20).enclosure[1])
            # the safe start is the group-DP scale: a scale already certified for every
            # target gives the max without another pass
            results = passes.get(used) or _pass(
                model, targets, known, used, weights, on_target, None
            )
            best = worst_leakage(results)
            leak, w = best.value, best.target
            out.append(BaselineResult(b.name, b.scale, used, leak, w, b.detail))
        out.extend(skipped)
    return Calibration(eps, mech, lo, hi, worst, tuple(out))


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
    "BaselineResult",
    "Calibration",
    "NotApplicable",
    "baseline_json",
    "calibrate",
    "calibration_targets",
    "max_sign",
    "nudged",
    "positive_eps",
    "scale_json",
    "short_between",
    "worst_leakage",
]

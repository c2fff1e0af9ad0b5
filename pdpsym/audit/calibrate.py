"""Calibration of the sum: the smallest noise scale at which every target's Eq. 2 leakage
is at most eps, certified, next to the baselines' scales and the leakage those actually
give.

Each target's leakage is non-increasing in the scale (:mod:`pdpsym.loss.count_leakage`:
the Laplace law of a larger scale is the smaller one followed by independent noise, and a
sup of density ratios cannot grow under post-processing; likewise for the geometric
mechanism), so the bisection of :mod:`pdpsym.audit.scale_bisection` is sound. The target
it bisects keeps its forward-backward polynomials (computed once; each step is one
certified sup).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import sympy

from pdpsym.audit.scale_bisection import max_sign, nudged, smallest_scale, worst_leakage
from pdpsym.core.certify import certify
from pdpsym.core.decimals import decimal_string, enclosure_decimal
from pdpsym.core.errors import InputError, Undecided
from pdpsym.core.numbers import fraction_str
from pdpsym.loss.count_leakage import (
    known_assignments,
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

    def tie(self, lam: Fraction, eps: Fraction) -> tuple[Fraction, Fraction]:
        """At a tie ``PL(lam) = eps`` (to 68 digits): ``lam (1 -+ NUDGE)``, certified to
        lie below and above ``lambda*`` (the leakage is non-increasing; if it is flat
        there, the tie is undecided: raised, not left wide)."""
        bracket = nudged(self.compare, lam, eps)
        if bracket is not None:
            return bracket
        raise Undecided(f"leakage of {self.name} equals eps near scale {lam}", 68 * 4)


def _pass(
    model: CountModel,
    goal: Goal,
    targets: Sequence[str],
    lam: Fraction,
    on_target: Callable[[str], None] | None,
    eps: Fraction | None,
) -> list[Any]:
    """Every target's certified leakage at ``lam``, precise enough to compare with eps
    (a target whose enclosure contains eps is recomputed with more digits; no eps: 17
    digits each)."""
    known, weights = goal.known, goal.weights
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
    goal = Goal(eps, mechanism, known, targets, weights)
    return calibrate_goal(model, goal, baselines=baselines, on_target=on_target)


def calibrate_goal(
    model: CountModel,
    goal: Goal,
    *,
    baselines: bool = True,
    on_target: Callable[[str], None] | None = None,
) -> Calibration:
    """:func:`calibrate` for a :class:`Goal` (the engine the class calibrations share).

    Args:
        model: a Markov chain, a product model or a Bayesian network's count query.
        goal: what the scale must meet.
        baselines: also the baselines' scales and the leakage each gives.
        on_target: progress callback (once per target and pass).

    Returns:
        The :class:`Calibration`.

    Raises:
        InputError: the geometric mechanism on non-integer record values (field
            ``mechanism``), or a query that does not depend on the records (``model``).

    References:
        Li et al., Eq. 2; Song, Wang, Chaudhuri (SIGMOD 2017), MQM; Li et al., Remark 1.
    """
    eps, weights = goal.eps, goal.weights
    if goal.mechanism == "geometric" and model.contributions(weights).scale != 1:
        raise InputError("mechanism", "the geometric mechanism needs integer record values")
    targets = goal.targets_of(model.variables)
    # a safe start: the group-DP scale (doubled until every target meets eps)
    hi = Fraction(certify(group_dp_scale(model, eps).scale, 20).enclosure[1])
    if hi <= 0:
        raise InputError("model", "the query does not depend on the records (sensitivity 0)")

    def all_targets(lam: Fraction, eps: Fraction | None = eps) -> list[Any]:
        return _pass(model, goal, targets, lam, on_target, eps)

    passes: Mapping[Fraction, list[Any]] = {}
    at_one = all_targets(Fraction(1)) if independent_closed_form(model) else []
    if any(r.value is not None for r in at_one):
        # every target leaks (max c - min c) / lambda exactly: the smallest scale is the
        # worst target's leakage at lambda = 1 divided by eps, exactly
        best = worst_leakage(at_one)
        lo = hi = best.value.hi / eps
        worst = best.target
    else:
        lo, hi, worst, passes = smallest_scale(
            all_targets, lambda name: _Target(model, name, goal.known, weights), hi, eps
        )
    out: list[BaselineResult | NotApplicable] = []
    if baselines:
        out = measured_baselines(
            _baseline_scales(model, goal, on_target), passes, lambda lam: all_targets(lam, None)
        )
    return Calibration(eps, goal.mechanism, lo, hi, worst, tuple(out))  # type: ignore[arg-type]


def _baseline_scales(
    model: CountModel, goal: Goal, on_target: Callable[[str], None] | None
) -> list[BaselineScale | NotApplicable]:
    """Group DP's scale (and, for chains, MQMExact's and MQMApprox's; for Bayesian
    networks, MQM on the network's quilts), those not applicable last, with the reason."""
    eps, weights = goal.eps, goal.weights
    scales: list[BaselineScale | NotApplicable] = [group_dp_scale(model, eps)]
    skipped: list[NotApplicable] = []
    chain = chain_of(model)
    if chain is not None and len(chain.matrices) == 1 and weights is None:
        scales.append(mqm_exact_scale(chain, eps))
    network = network_of(model)
    if network is not None:  # MQM on the network's quilts
        scales.append(
            mqm_network_scale(network, eps, dict(weights) if weights else None, on_record=on_target)
        )
    if chain is not None:
        reason = mqm_approx_applies(chain)
        if reason is None and weights is not None:
            reason = "MQMApprox here is for the sum query (no weights)"
        if reason is None:
            scales.append(mqm_approx_scale(chain, eps))
        else:
            skipped.append(NotApplicable("mqm-approx", reason))
    return scales + skipped


__all__ = [
    "BaselineResult",
    "Calibration",
    "Goal",
    "NotApplicable",
    "baseline_json",
    "calibrate",
    "calibrate_goal",
    "measured_baselines",
    "positive_eps",
    "scale_json",
]

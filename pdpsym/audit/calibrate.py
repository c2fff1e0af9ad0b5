"""Calibration of a query's noise scale: the smallest scale at which every target's Eq. 2
leakage is at most eps, certified, next to the baselines' scales and the leakage those
actually give (:func:`calibrate`, for the weighted sum or the histogram), and the sum's
engine (:data:`SUM`).

Each target's leakage of the sum is non-increasing in the scale
(:mod:`pdpsym.loss.count_leakage`: the Laplace law of a larger scale is the smaller one
followed by independent noise, and a sup of density ratios cannot grow under
post-processing; likewise for the geometric mechanism), so the bisection of
:mod:`pdpsym.audit.calibration` is sound. The target it bisects keeps its
forward-backward polynomials (computed once; each step is one certified sup).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pdpsym.audit.calibrate_histogram import HistogramScale
from pdpsym.audit.calibration import (
    Calibration,
    Goal,
    NotApplicable,
    ScaleEngine,
    calibrate_goal,
    max_sign,
    nudged,
)
from pdpsym.core.certify import certify
from pdpsym.core.errors import InputError, Undecided
from pdpsym.loss.count_leakage import (
    known_assignments,
    structured_leakage,
    target_enclosure,
)
from pdpsym.loss.shortcuts import independent_closed_form
from pdpsym.mechanisms.mqm import (
    BaselineScale,
    group_dp_scale,
    mqm_approx_applies,
    mqm_approx_scale,
    mqm_exact_scale,
)
from pdpsym.models.counts import CountModel
from pdpsym.models.model_objects import chain_of, network_of


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

    def certain(self, lam: Fraction, eps: Fraction) -> int:
        """:meth:`compare` (every answer of it is certified)."""
        return self.compare(lam, eps)

    def learn(self, lam: Fraction, eps: Fraction) -> bool:
        """False: every answer of :meth:`compare` is certified, nothing to learn."""
        return False


@dataclass(frozen=True)
class SumScale(ScaleEngine):
    """The sum's engine for one calibration (:class:`~pdpsym.audit.calibration.ScaleEngine`):
    Eq. 2 of the weighted sum under Laplace or geometric noise (integer record values),
    started at group DP's scale, with the closed form of independent records and the
    baselines group DP, MQMExact and MQMApprox for chains, MQM on a network's quilts.
    """

    def start(self) -> Fraction:
        """Group DP's scale (refusing geometric noise on non-integer record values and a
        query that does not depend on the records)."""
        model, goal = self.model, self.goal
        if goal.mechanism == "geometric" and model.contributions(goal.weights).scale != 1:
            raise InputError("mechanism", "the geometric mechanism needs integer record values")
        goal.targets_of(model.variables)
        hi = Fraction(certify(group_dp_scale(model, goal.eps).scale, 20).enclosure[1])
        if hi <= 0:
            raise InputError("model", "the query does not depend on the records (sensitivity 0)")
        return hi

    def closed_form(self) -> bool:
        """Independent records of many values (:mod:`pdpsym.loss.shortcuts`)."""
        return independent_closed_form(self.model)

    def leakages(self, targets: Sequence[str], lam: Fraction, eps: Fraction | None) -> list[Any]:
        """Every target's certified leakage at ``lam``, precise enough to compare with eps
        (a target whose enclosure contains eps is recomputed with more digits; no eps: 17
        digits each)."""
        model, known, weights = self.model, self.goal.known, self.goal.weights
        res = structured_leakage(
            model, targets, known, lam, weights, digits=17, exact=False, on_target=self.on_target
        )
        if eps is None:
            return res
        unsure = [r.target for r in res if r.value is not None and r.value.lo <= eps < r.value.hi]
        if unsure:
            # more digits; a target still straddling eps counts as above it (not safe)
            again = {
                r.target: r
                for r in structured_leakage(
                    model, unsure, known, lam, weights, digits=60, exact=False
                )
            }
            res = [again.get(r.target, r) for r in res]
        return res

    def bisected(self, name: str) -> _Target:
        """The target's factors, kept for its bisection."""
        return _Target(self.model, name, self.goal.known, self.goal.weights)

    def baselines(self) -> list[BaselineScale | NotApplicable]:
        """Group DP (and MQM for chains and networks), :func:`_baseline_scales`."""
        return _baseline_scales(self.model, self.goal, self.on_target)


#: the engines by query name
ENGINES: dict[str, type[SumScale] | type[HistogramScale]] = {
    "sum": SumScale,
    "histogram": HistogramScale,
}


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
    query: str = "sum",
) -> Calibration:
    """The smallest Laplace (or geometric) scale meeting ``eps`` for every target.

    Args:
        model: a Markov chain, a product model or a Bayesian network's count query.
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
        query: ``"sum"`` (the weighted sum) or ``"histogram"`` (the per-bin scale of
            the histogram of the records' values, no weights:
            :mod:`pdpsym.audit.calibrate_histogram`).

    Returns:
        The :class:`~pdpsym.audit.calibration.Calibration`: ``[lo, hi]`` with ``hi - lo
        <= 1e-12 hi`` (the histogram's may be wider, still certified, when its
        enclosures cannot split a tie).

    Raises:
        InputError: an unknown query (field ``query``), or a goal the engine does not
            take (``eps``, ``mechanism``, ``target``, ``weights``, ``model``).

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
    if query not in ENGINES:
        raise InputError("query", f"unknown query {query!r} (sum or histogram)")
    goal = Goal(eps, mechanism, known, targets, weights)
    return calibrate_goal(ENGINES[query](model, goal, on_target), baselines=baselines)


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
        # (loaded with the first network: a chain's calibration never needs the quilts)
        from pdpsym.mechanisms.mqm_network import mqm_network_scale

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


__all__ = ["ENGINES", "SumScale", "calibrate"]

"""Calibration of the histogram: the smallest per-bin scale meeting eps for every target,
certified, next to group DP and the Markov Quilt Mechanism for the same histogram.

The leakage of every target is non-increasing in the per-bin scale (post-processing, see
:mod:`pdpsym.loss.histogram`), so the scales meeting eps are an interval ``[lambda*,
inf)`` and bisection is sound, as for the sum (:mod:`pdpsym.audit.calibrate`): the worst
target at a safe scale is bisected alone (its laws computed once), then every target is
certified at the bracket's upper end.

**Bisection on kept points.** The leakage is ``PL(lam) = max_y g_y(lam)`` over the grid
of outputs ``y`` (:mod:`pdpsym.loss.histogram_grid`), ``g_y`` the max over ordered pairs
of ``ln G_a(y)/G_b(y)``. One point gives a certified lower bound: ``g_y(lam) > eps``
(its ball, :func:`~pdpsym.loss.histogram_grid.points_sup`) certifies ``PL(lam) > eps``.
So the target's first step screens the whole grid (:func:`~pdpsym.loss.histogram_grid.
grid_sup`) and keeps its :data:`KEPT_POINTS` best points; each later step evaluates
only the kept points: above eps there is certified; at most eps there is an answer on a
lower bound, confirmed by the all-targets pass at the bracket's upper end (the
argument in :mod:`pdpsym.audit.calibration`: the pass certifies the smallest scale so
answered, and the leakage is non-increasing, so every such answer was true and the
bracket is the one a full screen at every step gives, digit for digit). When the pass
refutes it, the target screens the grid at that scale, keeps the new best points, and
its bisection is redone from the start with them (if none is new, the redo screens
the whole grid at every step, the plain bisection: so the redos end, each adding a point
of the finite grid or ending the kept points). A step the kept points cannot split from
eps screens the whole grid. So the bisection screens the worst target's grid once (and
once a redo) instead of once a step (about 40); the all-targets passes remain (the safe
start and the bracket's upper end, and with the baselines MQM's two scales).

**One set of exact laws.** A target's laws of the histogram do not depend on the scale,
so the first all-targets pass keeps them (:class:`~pdpsym.loss.histogram.LawCache`) and
the later passes and the bisected target read them instead of computing them again: the
same integers (one forward-backward for every target gives each target's own products,
integer for integer), so every screen and decision is the one it was.

**The baselines' scales for the histogram.** One record's change moves one count down
and another up: the histogram's L1 sensitivity is ``2``, and a group of ``m`` dependent
records moves it by at most ``2m``. Group DP adds ``Lap(2m/eps)`` to every bin (``m`` the
largest dependent group, ``T`` for an ergodic chain). MQM adds ``Lap(2 sigma_max)`` to
every bin, ``sigma_max`` the Markov quilt's ``max_i min_Q card(N)/(eps - e(Q))`` of
:mod:`pdpsym.mechanisms.mqm`: Song, Wang and Chaudhuri's code for their histogram
experiments (github.com/shs037/pufferfish, ``run_realData.m``: "need to add
Lap(2*noise_mqm_exact) to each histogram bar", and ``noise_groupdp = length(c) /
epsilon`` likewise doubled; ``plotHistNoise.m`` draws ``Lap(2 noise_scale)`` per bin).
Each baseline is listed with the certified histogram leakage its scale actually gives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from pdpsym.audit.calibration import NotApplicable, ScaleEngine, max_sign, nudged
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import to_sympy
from pdpsym.loss import histogram_grid
from pdpsym.loss.count_leakage import known_assignments
from pdpsym.loss.histogram import LawCache, histogram_laws, histogram_leakage
from pdpsym.loss.histogram_symmetry import law_perms, law_symmetric
from pdpsym.mechanisms.mqm import (
    BaselineScale,
    mqm_approx_applies,
    mqm_approx_scale,
    mqm_exact_scale,
)
from pdpsym.models.counts import CountModel
from pdpsym.models.model_objects import chain_of

#: the histogram's L1 sensitivity to one record (one bin down, one up)
HISTOGRAM_SENSITIVITY = Fraction(2)


def histogram_baselines(model: CountModel, eps: Fraction) -> list[BaselineScale | NotApplicable]:
    """Group DP's and MQM's per-bin scales for the histogram (see the module docstring).

    Args:
        model: a Markov chain or a product model.
        eps: the privacy parameter (> 0).

    Returns:
        Group DP's scale ``2m/eps``, and for a time-homogeneous chain MQMExact's and
        MQMApprox's ``2 sigma_max`` (MQMApprox as :class:`NotApplicable` with the reason
        when it does not apply).

    References:
        Song, Wang, Chaudhuri (SIGMOD 2017), Algorithm 2 and Sec. 5 (MQM on chains) and
        their histogram experiments (github.com/shs037/pufferfish, run_realData.m); Li
        et al., Remark 1 (group DP).
    """
    if eps <= 0:
        raise InputError("eps", "must be > 0")
    m = max(len(g) for g in model.dependence_groups())
    out: list[BaselineScale | NotApplicable] = [
        BaselineScale("group-dp", to_sympy(HISTOGRAM_SENSITIVITY * m / eps), {"group_size": m})
    ]
    chain = chain_of(model)
    if chain is not None:
        if len(chain.matrices) == 1:
            out.append(mqm_exact_scale(chain, eps, sensitivity_value=HISTOGRAM_SENSITIVITY))
        reason = mqm_approx_applies(chain)
        if reason is None:
            out.append(mqm_approx_scale(chain, eps, sensitivity_value=HISTOGRAM_SENSITIVITY))
        else:
            out.append(NotApplicable("mqm-approx", reason))
    return out


#: the best screened points a target keeps from each full screen (per known assignment)
KEPT_POINTS = 8


class _Target:
    """One target's histogram laws (every known assignment), kept for the bisection, with
    the grid points that carried its max so far (the points bisection of the module
    docstring): ``compare`` screens the whole grid only until it knows some points."""

    def __init__(
        self,
        model: CountModel,
        name: str,
        known: Sequence[str],
        points: bool = True,
        workspace: histogram_grid.Workspace | None = None,
        cache: LawCache | None = None,
    ) -> None:
        self.name = name
        self.T = len(model.variables)
        self.workspace = workspace or histogram_grid.Workspace()
        self.parts = []
        for assignment in known_assignments(model, known):
            # the laws of an all-targets pass when it had this target (the same integers)
            laws = None if cache is None else cache.target_laws(name, assignment)
            if laws is None:
                laws = next(histogram_laws(model, [name], assignment))[1]
            self.parts.append((list(laws.values()), law_perms(model, assignment, laws)))
        #: no known record and a chain invariant under every relabelling: the screens
        #: read the sorted outputs only (the orbit lemma, pdpsym.loss.histogram_orbits)
        self.symmetric = not known and law_symmetric(model, {})
        self.use_points = points
        #: per part, the kept grid points (an int array, or None before a full screen)
        self.points: list[np.ndarray | None] = [None] * len(self.parts)
        #: per part, the laws' integer polynomials by point (they do not depend on lam)
        self.cache: list[dict] = [{} for _ in self.parts]
        #: whether some -1 since the last :meth:`learn` stood on the kept points only
        self.tentative = False

    def _full(self, lam: Fraction, eps: Fraction) -> int:
        """The sign by a full screen of every part's grid, keeping its best points."""

        def parts(digits: int) -> Any:
            for i, (laws, perms) in enumerate(self.parts):
                found: list[np.ndarray] = []
                yield histogram_grid.grid_sup(
                    laws, self.T, 1 / lam, digits, workspace=self.workspace, perms=perms,
                    found=found, symmetric=self.symmetric,
                )  # fmt: skip
                self._keep(i, found)

        return max_sign(parts, (17, 34), eps, self.name)

    def _keep(self, i: int, found: list[np.ndarray]) -> None:
        """Add the best :data:`KEPT_POINTS` of a screen's points to part ``i``'s."""
        if not found or not len(found[0]):
            return
        new = found[0][:KEPT_POINTS]
        old = self.points[i]
        both = new if old is None else np.concatenate([old, new])
        self.points[i] = np.unique(both, axis=0)

    def compare(self, lam: Fraction, eps: Fraction) -> int:
        """The sign of ``PL(lam) - eps``: +1 certified (by the kept points, a lower bound
        of ``PL``, or the full screen); -1 certified by a full screen, or standing on the
        kept points (``tentative``, confirmed by the all-targets pass); 0 when the balls
        cannot split them."""
        if not self.use_points or any(p is None for p in self.points):
            return self._full(lam, eps)
        kept = [p for p in self.points if p is not None]
        c = max_sign(
            lambda digits: (
                histogram_grid.points_sup(laws, 1 / lam, pts, digits, perms, cache)
                for (laws, perms), pts, cache in zip(self.parts, kept, self.cache, strict=True)
            ),
            (17, 34),
            eps,
            self.name,
        )
        if c > 0:
            return 1
        if c < 0:
            self.tentative = True
            return -1
        return self._full(lam, eps)

    def certain(self, lam: Fraction, eps: Fraction) -> int:
        """The sign of ``PL(lam) - eps`` by a full screen (certified both ways)."""
        return self._full(lam, eps)

    def learn(self, lam: Fraction, eps: Fraction) -> bool:
        """After the all-targets pass found ``PL(lam) > eps`` (or could not split it) at
        the bracket's upper end ``lam``: when some -1 was tentative, screen the grid at
        ``lam`` and keep its best points, or, when no point is new, screen the whole grid
        at every later step (the plain bisection); True then (the bisection is redone),
        False when nothing was tentative."""
        if not self.tentative:
            return False
        self.tentative = False
        before = sum(0 if p is None else len(p) for p in self.points)
        self._full(lam, eps)
        if sum(0 if p is None else len(p) for p in self.points) == before:
            self.use_points = False
        return True

    def tie(self, lam: Fraction, eps: Fraction) -> tuple[Fraction, Fraction] | None:
        """At a tie ``PL(lam) = eps``: ``lam (1 -+ NUDGE)``, certified on either side of
        ``lambda*`` (the upper side as :meth:`compare`'s -1); None when the balls cannot
        split either side (the bracket is then left wider, still certified)."""
        return nudged(self.compare, lam, eps)


@dataclass(frozen=True)
class HistogramScale(ScaleEngine):
    """The histogram's engine for one calibration
    (:class:`~pdpsym.audit.calibration.ScaleEngine`): the per-bin scale of the histogram of
    the records' values (no weights), started at group DP's ``2m/eps``, with group DP's
    and MQM's per-bin baselines (:func:`histogram_baselines`).

    Args:
        points: bisect on the kept grid points (the module docstring); False: screen the
            whole grid at every step (the plain bisection, the same bracket).
    """

    points: bool = True
    #: the float screen's arrays, one set for every pass and the bisected target (the
    #: calls never overlap; grid-sized arrays: 0.8 GB each at 4 states and 100 records)
    workspace: histogram_grid.Workspace = field(
        default_factory=histogram_grid.Workspace, compare=False, repr=False
    )
    #: the exact laws of the first all-targets pass, for the later passes and the
    #: bisected target (they do not depend on the scale)
    laws: LawCache = field(default_factory=LawCache, compare=False, repr=False)

    def start(self) -> Fraction:
        """Group DP's per-bin scale ``2m/eps``, certainly safe (refusing weights)."""
        if self.goal.weights is not None:
            raise InputError("weights", "the histogram query takes no weights")
        self.goal.targets_of(self.model.variables)
        m = max(len(g) for g in self.model.dependence_groups())
        return HISTOGRAM_SENSITIVITY * m / self.goal.eps

    def leakages(self, targets: Sequence[str], lam: Fraction, eps: Fraction | None) -> list[Any]:
        """Every target's certified histogram leakage at ``lam`` (17 digits)."""
        known = self.goal.known
        return histogram_leakage(
            self.model,
            targets,
            known,
            lam,
            digits=17,
            on_target=self.on_target,
            workspace=self.workspace,
            laws=self.laws,
        )

    def bisected(self, name: str) -> _Target:
        """The target's histogram laws, kept for its bisection (by points unless
        ``points`` is False: then every step screens the whole grid)."""
        return _Target(self.model, name, self.goal.known, self.points, self.workspace, self.laws)

    def baselines(self) -> list[BaselineScale | NotApplicable]:
        """Group DP's and MQM's per-bin scales (:func:`histogram_baselines`)."""
        return histogram_baselines(self.model, self.goal.eps)


__all__ = ["HISTOGRAM_SENSITIVITY", "HistogramScale", "histogram_baselines"]

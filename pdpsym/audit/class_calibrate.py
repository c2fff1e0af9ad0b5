"""Calibration over a class of laws: the smallest noise scale at which every law of the
class meets eps, certified, with the worst law, next to group DP and the Markov Quilt
Mechanism computed for the same class.

**Why the class's scale is a max.** For each law ``theta`` the leakage is non-increasing
in the scale (:mod:`pdpsym.audit.calibrate`), so the scales meeting eps for ``theta`` are
``[lambda*(theta), inf)`` and those meeting it for the whole class are
``[sup_theta lambda*(theta), inf)``.

* A finite class: each member is calibrated by today's engine (in parallel); the class's
  scale is enclosed by ``[max lo, max hi]``.
* An interval product: the leakage depends on the laws only through their supports
  (:mod:`pdpsym.loss.class_search`), so the widest member's scale is the class's.
* An interval chain: the box's member corners and centre are calibrated; the largest,
  at ``theta*``, gives the lower end ``lambda*(theta*)``; then the branch and bound of
  :func:`~pdpsym.loss.class_search.interval_chain_leakage` decides whether every law
  meets eps at ``u = hi (1 + 10^-d)``. If so ``[lambda*(theta*), u]`` encloses the
  class's scale; if a member is certified above eps there, it becomes ``theta*`` and the
  step repeats; if the search runs out of boxes, ``u`` grows and the enclosure is
  reported as it is (not tight).

**Baselines for a class** (Song, Wang, Chaudhuri, SIGMOD 2017, Sec. 4-5, where Pufferfish
is over a class ``Theta``):

* group DP: the largest over the class of the group-DP scale (a chain with two different
  rows is one group of ``T`` records); the members' scales are compared exactly;
* MQMApprox: Song et al.'s bound with ``pi_min`` and the eigengap taken over the class
  (their smallest values). For a binary chain ``P = [[1 - x0, x0], [1 - x1, x1]]`` both
  are at the box's corners: ``pi_1 = x0 / (x0 + 1 - x1)`` is increasing and ``pi_0``
  decreasing in each of ``x0``, ``x1``, and the eigengap ``(1 - (x1 - x0)^2)/2`` is
  smallest where the convex ``|x1 - x0|`` is largest, at a vertex. For a finite class,
  the min over the members;
* MQMExact: Song et al. maximize each quilt's influence over the class before choosing
  quilts (:func:`~pdpsym.mechanisms.mqm_class.mqm_exact_class_scale`, for stationary
  members of the same records); for an interval chain over its corners and centre (the
  box's own class scale is at least this) and, as ``mqm-exact-box``, the same quilt with
  its influence bounded over the whole box
  (:func:`~pdpsym.mechanisms.mqm_box.influence_sup`: a scale valid for every law of the
  box); for members that are not all stationary the max of the members' own scales (a
  lower bound of the class's), each labelled so.

Each baseline's leakage is certified at the worst law found.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.audit.calibrate import (
    baseline_json,
    calibrate,
    positive_eps,
    scale_json,
    worst_leakage,
)
from pdpsym.core.certify import certify
from pdpsym.core.compare import compare
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import to_sympy
from pdpsym.core.parallel import ordered_map
from pdpsym.loss.class_search import CLASS_DIGITS, interval_chain_leakage
from pdpsym.loss.count_leakage import structured_leakage
from pdpsym.loss.leakage_result import Enclosed
from pdpsym.mechanisms.mqm import (
    BaselineScale,
    group_dp_scale,
    mqm_approx_applies,
    mqm_approx_scale,
    mqm_exact_scale,
    sensitivity,
)
from pdpsym.mechanisms.mqm_box import influence_sup
from pdpsym.mechanisms.mqm_class import mqm_exact_class_scale
from pdpsym.models.counts import CountModel
from pdpsym.models.law_class import IntervalChain, IntervalProduct, LawClass, ModelClass
from pdpsym.models.model_objects import chain_of


@dataclass(frozen=True)
class ClassBaseline:
    """A baseline's scale for the class, and the certified leakage it gives at the
    worst law (max over targets)."""

    name: str
    scale: sympy.Expr
    scale_used: Fraction
    leakage: Enclosed
    worst_target: str
    note: str
    detail: Mapping[str, object]

    def as_json(self, digits: int) -> dict[str, Any]:
        """The scale (certified, and the rational used), its leakage, how it was taken."""
        return {
            **baseline_json(
                self.name, self.scale, self.scale_used, self.leakage, self.worst_target, digits
            ),
            "note": self.note,
            **dict(self.detail),
        }


@dataclass(frozen=True)
class ClassCalibration:
    """The class's smallest scale in ``[lo, hi]``, the worst law, and the baselines."""

    eps: Fraction
    mechanism: str
    lo: Fraction
    hi: Fraction
    tight: bool
    worst_target: str
    law: int | tuple[Fraction, ...]
    law_json: Mapping[str, Any] | None
    baselines: tuple[ClassBaseline | tuple[str, str], ...]
    boxes: int

    def as_json(self, digits: int = 15) -> dict[str, Any]:
        """The enclosure, whether it is tight, the worst law and the baselines."""
        return {
            **scale_json(self.eps, self.mechanism, self.lo, self.hi, digits),
            "tight": self.tight,
            "worst_target": self.worst_target,
            "worst_law": self.law_json if self.law_json is not None else self.law,
            "boxes": self.boxes,
            "baselines": [
                b.as_json(digits)
                if isinstance(b, ClassBaseline)
                else {"name": b[0], "applicable": False, "reason": b[1]}
                for b in self.baselines
            ],
        }


def _calibrate_job(job: tuple[Any, ...]) -> tuple[Fraction, Fraction, str]:
    """One member's calibration (a module-level function: pickled to a worker)."""
    model, eps, mechanism, known, targets, weights = job
    c = calibrate(
        model,
        eps,
        mechanism=mechanism,
        known=known,
        targets=targets,
        weights=weights,
        baselines=False,
    )
    return c.lo, c.hi, c.worst_target


def _max_scale(found: Sequence[tuple[Fraction, Fraction, str]]) -> tuple[int, Fraction, Fraction]:
    lo = max(f[0] for f in found)
    hi = max(f[1] for f in found)
    return next(j for j, f in enumerate(found) if f[1] >= lo), lo, hi


def _exact_max(scales: Sequence[sympy.Expr]) -> int:
    best = 0
    for j in range(1, len(scales)):
        if compare(scales[j], scales[best]).sign > 0:
            best = j
    return best


def _corners(cls: IntervalChain) -> list[tuple[Fraction, ...]]:
    import itertools  # noqa: PLC0415 (only the interval chain needs it)

    box = cls.box()
    out = list(dict.fromkeys(itertools.product(*[(a, b) for a, b in box])))
    centre = tuple((a + b) / 2 for a, b in box)
    if centre not in out:
        out.append(centre)
    return out


def class_calibrate(
    cls: LawClass,
    eps: Fraction,
    *,
    mechanism: str = "laplace",
    known: Sequence[str] = (),
    targets: Sequence[str] | None = None,
    weights: Mapping[str, int] | None = None,
    baselines: bool = True,
    jobs: int = 1,
    digits: int = CLASS_DIGITS,
    max_boxes: int = 2000,
    on_step: Callable[[int], None] | None = None,
    scheduler: str | None = None,
) -> ClassCalibration:
    """The smallest scale meeting ``eps`` for every law of a class (module docstring).

    Args:
        cls: a finite class, an interval chain or an interval product.
        eps: the leakage bound (> 0).
        mechanism: ``"laplace"`` or ``"geometric"``.
        known: the records the adversary knows.
        targets: the targets (default every record not known).
        weights: integer query weights (default: the sum).
        baselines: also group DP, MQMExact and MQMApprox for the class.
        jobs: worker processes (members of a finite class).
        digits: the relative width ``10^-digits`` an interval chain's enclosure aims at
            (at most :data:`~pdpsym.loss.class_search.CLASS_DIGITS`).
        max_boxes: the branch and bound's limit over all its decisions (each decision
            after the limit is spent, with a looser question, gets 8 boxes more).
        on_step: progress (a member calibrated or a box bounded).
        scheduler: a Dask scheduler for the members' calibrations (None: processes).

    Returns:
        The :class:`ClassCalibration`.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1; Li et al. (2019), Eq. 2; Song,
        Wang, Chaudhuri (SIGMOD 2017), Sec. 4-5 (MQM over a class).
    """
    eps = positive_eps(eps)
    known = tuple(known)
    names = cls.variables
    tg = [v for v in names if v not in set(known)] if targets is None else list(targets)
    boxes = 0
    tight = True
    law_json: Mapping[str, Any] | None = None
    law: int | tuple[Fraction, ...]
    hi: Fraction | None
    if isinstance(cls, ModelClass | IntervalProduct):
        members: list[CountModel] = (
            list(cls.members) if isinstance(cls, ModelClass) else [cls.widest_member()]
        )
        found = ordered_map(
            _calibrate_job,
            [(m, eps, mechanism, known, tg, weights) for m in members],
            jobs,
            on_done=on_step,
            scheduler=scheduler,
        )
        j, lo, hi = _max_scale(found)
        worst_model, law, worst_target = members[j], j, found[j][2]
        assert hi is not None
        candidates = members
    else:
        aim = min(digits, CLASS_DIGITS)
        thetas = _corners(cls)
        found = ordered_map(
            _calibrate_job,
            [(cls.member(t), eps, mechanism, known, tg, weights) for t in thetas],
            jobs,
            on_done=on_step,
            scheduler=scheduler,
        )
        j, lo, _ = _max_scale(found)
        theta, (lo, hi_t, worst_target) = thetas[j], found[j]
        rel = Fraction(1, 10**aim)
        hi = None
        for _ in range(12):
            up = hi_t * (1 + rel)
            res = interval_chain_leakage(
                cls,
                tg,
                known,
                up,
                weights,
                digits=aim,
                max_boxes=max(max_boxes - boxes, 8),
                on_box=on_step,
                below=eps,
            )
            boxes += res.boxes
            over = [t for t in res.targets if t.value is not None and t.value.lo > eps]
            if over:
                # a member above eps at ``up``: it needs a larger scale; calibrate it
                t_over = max(over, key=lambda t: t.value.lo)  # type: ignore[union-attr]
                theta = t_over.law  # type: ignore[assignment]
                lo2, hi2, wt = _calibrate_job(
                    (cls.member(theta), eps, mechanism, known, tg, weights)
                )
                lo, hi_t, worst_target = max(lo, lo2), hi2, wt
                continue
            if res.tight:
                hi = up
                break
            rel *= 10  # the search ran out of boxes: ask a looser question
            tight = False
        if hi is None:
            raise InputError(
                "max_boxes", "the search could not certify a safe scale within its box limit"
            )
        worst_model, law = cls.member(theta), theta
        law_json = cls.law_json(theta)
        candidates = [cls.member(t) for t in thetas]
        tight = tight and hi - lo <= Fraction(1, 10**aim) * 2 * hi
    assert hi is not None
    outs: list[ClassBaseline | tuple[str, str]] = []
    if baselines:
        outs = _baselines(cls, candidates, worst_model, eps, known, tg, weights)
    return ClassCalibration(
        eps, mechanism, lo, hi, tight, worst_target, law, law_json, tuple(outs), boxes
    )


def _leak_at(
    model: CountModel, scale: Fraction, known: Sequence[str], targets: Sequence[str], weights: Any
) -> tuple[Enclosed, str]:
    res = structured_leakage(model, targets, known, scale, weights, digits=17, exact=False)
    best = worst_leakage(res)
    return best.value, best.target


def _baselines(
    cls: LawClass,
    candidates: Sequence[CountModel],
    worst: CountModel,
    eps: Fraction,
    known: Sequence[str],
    targets: Sequence[str],
    weights: Any,
) -> list[ClassBaseline | tuple[str, str]]:
    over = (
        "members"
        if isinstance(cls, ModelClass)
        else "box's corners and centre"
        if isinstance(cls, IntervalChain)
        else "laws (independent records: every law's groups are single records)"
    )
    out: list[ClassBaseline | tuple[str, str]] = []
    picks: list[tuple[BaselineScale, str]] = []
    g = [group_dp_scale(m, eps) for m in candidates]
    picks.append((g[_exact_max([b.scale for b in g])], f"the largest over the {over}"))
    chains = [c for m in candidates if (c := chain_of(m)) is not None]
    if len(chains) == len(candidates) and weights is None:
        stationary = all(mqm_approx_applies(m) is None for m in chains)
        same = all(m.length == chains[0].length and m.states == chains[0].states for m in chains)
        if stationary and same:
            exact_note = (
                "Song et al.'s class MQMExact: each quilt's influence maximized over the members"
                if isinstance(cls, ModelClass)
                else "Song et al.'s MQMExact over the box's corners and centre (the box's own "
                "is at least this)"
            )
            corners = mqm_exact_class_scale(chains, eps)
            picks.append((corners, exact_note))
            if isinstance(cls, IntervalChain):
                picks.append(_mqm_over_box(cls, corners, chains[0], eps))
        elif all(len(m.matrices) == 1 for m in chains):
            ex = [mqm_exact_scale(m, eps) for m in chains]
            b = ex[_exact_max([x.scale for x in ex])]
            picks.append(
                (
                    b,
                    f"max of the {over}' own scales; Song et al.'s class MQMExact is at least this",
                )
            )
        reasons = [mqm_approx_applies(m) for m in chains]
        reason = next((r for r in reasons if r is not None), None)
        if reason is None:
            from pdpsym.mechanisms.mqm import eigengap  # noqa: PLC0415 (only here)

            pi_min = min(min(m.initial_law) for m in chains)
            gaps = [eigengap(m) for m in chains]
            gap = gaps[_exact_min(gaps)]
            picks.append(
                (
                    mqm_approx_scale(chains[0], eps, pi_min=pi_min, gap=gap),
                    f"pi_min and the eigengap are the smallest over the {over}"
                    + ("" if isinstance(cls, ModelClass) else " (there, at the corners)"),
                )
            )
        else:
            out.append(("mqm-approx", reason))
    else:
        out.append(("mqm", "MQM here is for classes of chains and the sum query"))
    for b, note in picks:
        used = Fraction(certify(b.scale, 20).enclosure[1])
        leak, wt = _leak_at(worst, used, known, targets, weights)
        out.insert(
            len([o for o in out if isinstance(o, ClassBaseline)]),
            ClassBaseline(b.name, b.scale, used, leak, wt, note, b.detail),
        )
    return out


#: the sub-boxes of the MQMExact influence's branch and bound over an interval chain's box
MQM_BOX_BOXES = 400


def _mqm_over_box(
    cls: IntervalChain, corners: BaselineScale, chain: Any, eps: Fraction
) -> tuple[BaselineScale, str]:
    """MQMExact with the corners' quilt, its influence bounded over the whole box
    (:func:`~pdpsym.mechanisms.mqm_box.influence_sup`): a scale valid for every law of
    the box (the empty quilt, ``card = T``, when the bound reaches ``eps``)."""
    a, b = corners.detail.get("a"), corners.detail.get("b")
    L, T = sensitivity(chain), chain.length
    card, hi_text = T, "the empty quilt (no influence)"
    R = Fraction(1)
    if a is not None or b is not None:
        res = influence_sup(cls, a, b, max_boxes=MQM_BOX_BOXES)  # type: ignore[arg-type]
        if res.hi is not None and compare(sympy.log(to_sympy(res.hi)), to_sympy(eps)).sign < 0:
            card, R = int(corners.detail["card_N"]), res.hi  # type: ignore[call-overload]
            hi_text = f"influence ratio in [{float(res.lo):.7g}, {float(res.hi):.7g}]" + (
                "" if res.tight else ", budget reached"
            )
        else:
            a = b = None
    scale = to_sympy(L * card) / (to_sympy(eps) - sympy.log(to_sympy(R)))
    note = f"MQMExact, the corners' quilt, its influence proven over the whole box ({hi_text})"
    detail = {**corners.detail, "a": a, "b": b, "card_N": card}
    return BaselineScale("mqm-exact-box", scale, detail), note


def _exact_min(values: Sequence[sympy.Expr]) -> int:
    best = 0
    for j in range(1, len(values)):
        if compare(values[j], values[best]).sign < 0:
            best = j
    return best


__all__ = ["ClassBaseline", "ClassCalibration", "class_calibrate"]

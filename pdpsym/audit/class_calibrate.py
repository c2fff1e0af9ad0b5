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
  :func:`~pdpsym.loss.class_search.class_leakage` decides whether every law
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

For an interval chain of more than two states the bracket's lower end comes from the
members at the rows' polytopes' vertices (up to 64 combinations) and the box's centre,
the upper end from :func:`~pdpsym.loss.class_search_k.k_chain_search` decided by its
enclosure only (every target at most eps: safe; a member certified above eps: it is
calibrated and the step repeats; straddling: the margin grows tenfold and the result is
marked not tight); there group DP is the largest over the same members, MQMExact is
the class's over the same members (each quilt's influence maximized over them: a lower
bound of the class's own scale, labelled so), and MQMApprox takes the class's own
``pi_min`` (at a combination of the polytopes' vertices:
:func:`~pdpsym.mechanisms.mqm_class.class_pi_min`, when there are at most 4096; else the
members' smallest) and the members' smallest eigengap (where the class's smallest sits is
not proven; it may be lower), so its scale too is a lower bound of the class's own,
labelled so.

Each baseline's leakage is certified at the worst law found.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, cast

import sympy

from pdpsym.audit.calibrate import SumScale
from pdpsym.audit.calibration import (
    BaselineResult,
    Calibration,
    Goal,
    NotApplicable,
    calibrate_goal,
    scale_json,
    worst_leakage,
)
from pdpsym.core.certify import certify
from pdpsym.core.compare import compare
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import to_sympy
from pdpsym.core.parallel import ordered_map
from pdpsym.loss.class_search import CLASS_DIGITS, class_leakage, class_work
from pdpsym.loss.count_leakage import structured_leakage
from pdpsym.loss.count_leakage_work import CHAIN_CELLS_PER_STEP, leakage_work
from pdpsym.loss.leakage_result import Enclosed
from pdpsym.mechanisms.mqm import (
    BaselineScale,
    eigengap,
    group_dp_scale,
    mqm_approx_applies,
    mqm_approx_scale,
    mqm_exact_scale,
    sensitivity,
)
from pdpsym.mechanisms.mqm_box import influence_sup
from pdpsym.mechanisms.mqm_class import class_pi_min, mqm_exact_class_scale
from pdpsym.models.counts import CountModel
from pdpsym.models.interval_chain_k import IntervalChainK
from pdpsym.models.interval_rows import IntervalChainBase
from pdpsym.models.law_class import IntervalChain, IntervalProduct, LawClass, ModelClass
from pdpsym.models.model_objects import chain_of

#: a k-state member's calibration's fixed cost in work units (15 ms at 3 * 10^7 a second)
MEMBER_FIXED = 450_000
#: the most decisions (branch-and-bound runs) of one interval chain's calibration
MAX_DECISIONS = 12


@dataclasses.dataclass(frozen=True)
class ClassCalibration(Calibration):
    """The class's smallest scale in ``[lo, hi]``, whether the enclosure is as tight as
    asked, the worst law (its JSON form for an interval chain), the baselines (each a
    :class:`~pdpsym.audit.calibrate.BaselineResult` whose detail starts with its
    ``note``, or not applicable) and the boxes the search bounded."""

    tight: bool
    law: int | tuple[Fraction, ...]
    law_json: Mapping[str, Any] | None
    boxes: int

    def as_json(self, digits: int = 15) -> dict[str, Any]:
        """The enclosure, whether it is tight, the worst law and the baselines."""
        return {
            **scale_json(self.eps, self.mechanism, self.lo, self.hi, digits),
            "tight": self.tight,
            "worst_target": self.worst_target,
            "worst_law": self.law_json if self.law_json is not None else self.law,
            "boxes": self.boxes,
            "baselines": [b.as_json(digits) for b in self.baselines],
        }


def _calibrate_job(job: tuple[CountModel, Goal]) -> tuple[Fraction, Fraction, str]:
    """One member's calibration (a module-level function: pickled to a worker)."""
    c = calibrate_goal(SumScale(job[0], job[1]), baselines=False)
    return c.lo, c.hi, c.worst_target


def _max_scale(found: Sequence[tuple[Fraction, Fraction, str]]) -> tuple[int, Fraction, Fraction]:
    lo = max(f[0] for f in found)
    hi = max(f[1] for f in found)
    return next(j for j, f in enumerate(found) if f[1] >= lo), lo, hi


def _exact_best(values: Sequence[sympy.Expr], sign: int) -> int:
    """The index of the largest (``sign`` 1) or smallest (-1) value, compared exactly."""
    best = 0
    for j in range(1, len(values)):
        if compare(values[j], values[best]).sign == sign:
            best = j
    return best


def vertex_members(cls: IntervalChainBase) -> list[tuple[Fraction, ...]]:
    """The members a class calibration starts from: the box's vertices (for k states,
    the rows' polytopes', up to 64 combinations) and its centre, each once.

    Args:
        cls: an interval chain.

    Returns:
        The members' parameters.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1 (the class's members).
    """
    out = list(dict.fromkeys(cls.vertices()))
    centre = cls.centre(cls.box())
    if centre not in out:
        out.append(centre)
    return out


def k_members_work(
    cls: IntervalChainK, n_targets: int, known: Sequence[str], passes: int
) -> tuple[int, int]:
    """An estimate of a k-state class calibration's work before its search: the members'
    calibrations, and one box of the search.

    Args:
        cls: the class.
        n_targets: the number of targets.
        known: the known records.
        passes: one calibration's work in all-targets leakage passes.

    Returns:
        ``(members, box)`` in the class's work units (the engines' cells, about
        ``3 * 10^7`` a second): the members' calibrations, each ``passes`` leakage passes
        of the single-law engine's estimate, and
        :func:`~pdpsym.loss.class_search.class_work` for one box.

    References:
        Li et al. (2019), Section V-D (cost measured, not taken from formulas).
    """
    members = vertex_members(cls)
    one = leakage_work(cls.member(members[0]), n_targets, known) * CHAIN_CELLS_PER_STEP
    # measured (CPU, three states, every target, a member's calibration): 19 ms at T = 3,
    # 29 ms at T = 20, 80 ms at T = 60, where ``passes * one`` gives 1, 3 and 25 ms: a
    # fixed 15 ms (the exact certification) and twice the passes' estimate
    per_member = 2 * passes * one + MEMBER_FIXED
    # class_work reads a k-state chain too (its last branch); its annotation predates it
    box = class_work(cls, n_targets, known)  # type: ignore[arg-type]
    return len(members) * per_member, box


def class_calibrate(
    cls: LawClass,
    goal: Goal,
    *,
    baselines: bool = True,
    jobs: int = 1,
    digits: int = CLASS_DIGITS,
    max_boxes: int = 2000,
    on_step: Callable[[int], None] | None = None,
    scheduler: str | None = None,
) -> ClassCalibration:
    """The smallest scale meeting the goal for every law of a class (module docstring).

    Args:
        cls: a finite class, an interval product or an interval chain (of two states, or
            more: then the mechanism is ``"laplace"``, the search bounds its mixture).
        goal: eps, the mechanism, the known records, the targets and the query weights.
        baselines: also group DP, MQMExact and MQMApprox for the class.
        jobs: worker processes (the members' calibrations).
        digits: the relative width ``10^-digits`` an interval chain's enclosure aims at
            (at most :data:`~pdpsym.loss.class_search.CLASS_DIGITS`).
        max_boxes: the branch and bound's limit over all its decisions (each decision
            after the limit is spent, with a looser question, gets 8 boxes more).
        on_step: progress (a member calibrated or a box bounded).
        scheduler: a Dask scheduler for the members' calibrations (None: processes).

    Returns:
        The :class:`ClassCalibration`.

    Raises:
        InputError: a k-state chain with another mechanism than Laplace (field
            ``mechanism``); no safe scale certified within the box limit (``max_boxes``).

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1; Li et al. (2019), Eq. 2; Song,
        Wang, Chaudhuri (SIGMOD 2017), Sec. 4-5 (MQM over a class).
    """
    if cls.clipped and goal.mechanism != "laplace":
        raise InputError(
            "mechanism", "an interval chain of more than two states is calibrated for laplace"
        )
    goal = dataclasses.replace(goal, targets=tuple(goal.targets_of(cls.variables)))
    boxes = 0
    tight = True
    law_json: Mapping[str, Any] | None = None
    law: int | tuple[Fraction, ...]
    hi: Fraction | None
    if not cls.box_search:  # a finite class or an interval product
        members: list[CountModel] = (
            list(cls.members)
            if isinstance(cls, ModelClass)
            else [cast(IntervalProduct, cls).widest_member()]
        )
        found = ordered_map(
            _calibrate_job,
            [(m, goal) for m in members],
            jobs,
            on_done=on_step,
            scheduler=scheduler,
        )
        j, lo, hi = _max_scale(found)
        worst_model, law, worst_target = members[j], j, found[j][2]
        candidates = members
    else:
        chain = cast(IntervalChainBase, cls)
        aim = min(digits, CLASS_DIGITS)
        thetas = vertex_members(chain)
        found = ordered_map(
            _calibrate_job,
            [(chain.member(t), goal) for t in thetas],
            jobs,
            on_done=on_step,
            scheduler=scheduler,
        )
        # the bracket's lower end: a member's lower end (each is one of the class's scale);
        # a binary chain takes the first member whose upper end reaches the largest lower
        # end, a k-state chain the largest lower end (both kept as they were)
        j = (
            max(range(len(found)), key=lambda i: (found[i][0], found[i][1]))
            if cls.clipped
            else _max_scale(found)[0]
        )
        theta, (lo, hi_t, worst_target) = thetas[j], found[j]
        rel = Fraction(1, 10**aim)
        hi = None
        for _ in range(MAX_DECISIONS):
            up = hi_t * (1 + rel)
            res = class_leakage(
                cls,
                list(goal.targets or ()),
                goal.known,
                up,
                goal.weights,
                digits=aim,
                max_boxes=max(max_boxes - boxes, 8),
                on_step=on_step,
                below=goal.eps,
            )
            boxes += res.boxes
            vals = [t for t in res.targets if t.value is not None]
            over = [t for t in vals if t.value.lo > goal.eps]  # type: ignore[union-attr]
            if over:
                # a member certified above eps at ``up``: it needs a larger scale (above
                # ``up``, so its calibration's ends exceed ``lo`` and ``hi_t``)
                t_over = max(over, key=lambda t: t.value.lo)  # type: ignore[union-attr]
                theta = t_over.law  # type: ignore[assignment]
                lo, hi_t, worst_target = _calibrate_job((chain.member(theta), goal))
                continue
            if _safe(cls, res, vals, goal.eps):
                hi = up
                break
            rel *= 10  # undecided or out of boxes: ask a looser question
            tight = False
        if hi is None:
            raise InputError(
                "max_boxes", "the search could not certify a safe scale within its box limit"
            )
        worst_model, law = chain.member(theta), theta
        law_json = chain.law_json(theta)
        candidates = [chain.member(t) for t in thetas]
        tight = tight and hi - lo <= Fraction(2, 10**aim) * hi
    outs: list[BaselineResult | NotApplicable] = []
    if baselines:
        outs = class_baselines(cls, candidates, worst_model, goal)
    return ClassCalibration(
        eps=goal.eps,
        mechanism=goal.mechanism,  # type: ignore[arg-type]
        lo=lo,
        hi=hi,
        worst_target=worst_target,
        baselines=tuple(outs),
        tight=tight,
        law=law,
        law_json=law_json,
        boxes=boxes,
    )


def _safe(cls: Any, res: Any, vals: Sequence[Any], eps: Fraction) -> bool:
    """Whether the search's answer certifies every law of the class at most eps: a binary
    chain's search says so (``tight``); a k-state chain's enclosures must all be at most
    eps, none open above."""
    if cls.clipped:
        return all(not t.open_above and t.value.hi <= eps for t in vals)
    return bool(res.tight)


def _leak_at(model: CountModel, scale: Fraction, goal: Goal) -> tuple[Enclosed, str]:
    res = structured_leakage(
        model, list(goal.targets or ()), goal.known, scale, goal.weights, digits=17, exact=False
    )
    best = worst_leakage(res)
    return best.value, best.target


def class_baselines(
    cls: LawClass,
    candidates: Sequence[CountModel],
    worst: CountModel,
    goal: Goal,
) -> list[BaselineResult | NotApplicable]:
    """Group DP, MQMExact and MQMApprox for a class (module docstring), each with its
    certified leakage at the worst law.

    Args:
        cls: the class.
        candidates: the members evaluated (a finite class's members; an interval chain's
            members at its vertices and centre; an interval product's widest member).
        worst: the worst law found (each baseline's leakage is certified there).
        goal: eps, the mechanism, the known records, the targets (given) and the weights.

    Returns:
        The baselines, each labelled by its ``note``, or why it does not apply.

    References:
        Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 4-5 (MQM over a class); Li et al.
        (2019), Remark 1 (group DP).
    """
    eps = goal.eps
    over = cls.evaluated
    out: list[BaselineResult | NotApplicable] = []
    picks: list[tuple[BaselineScale, str]] = []
    g = [group_dp_scale(m, eps) for m in candidates]
    picks.append((g[_exact_best([b.scale for b in g], 1)], f"the largest over the {over}"))
    chains = [c for m in candidates if (c := chain_of(m)) is not None]
    if len(chains) == len(candidates) and goal.weights is None:
        stationary = all(mqm_approx_applies(m) is None for m in chains)
        same = all(m.length == chains[0].length and m.states == chains[0].states for m in chains)
        if stationary and same:
            exact_note = (
                "Song et al.'s class MQMExact: each quilt's influence maximized over the members"
                if isinstance(cls, ModelClass)
                else f"Song et al.'s class MQMExact, each quilt's influence maximized over the "
                f"{len(chains)} members at the polytopes' vertices and centre: a lower bound of "
                "the class's own MQMExact scale"
                if cls.clipped
                else "Song et al.'s MQMExact over the box's corners and centre (the box's own "
                "is at least this)"
            )
            corners = mqm_exact_class_scale(chains, eps)
            picks.append((corners, exact_note))
            if cls.box_search and not cls.clipped:  # a binary chain's box of members
                picks.append(_mqm_over_box(cast(IntervalChain, cls), corners, chains[0], eps))
        elif all(len(m.matrices) == 1 for m in chains):
            ex = [mqm_exact_scale(m, eps) for m in chains]
            b = ex[_exact_best([x.scale for x in ex], 1)]
            picks.append(
                (
                    b,
                    f"max of the {over}' own scales; Song et al.'s class MQMExact is at least this",
                )
            )
        reasons = [mqm_approx_applies(m) for m in chains]
        reason = next((r for r in reasons if r is not None), None)
        if reason is None:
            pi_min = min(min(m.initial_law) for m in chains)
            gaps = [eigengap(m) for m in chains]
            gap = gaps[_exact_best(gaps, -1)]
            note = f"pi_min and the eigengap are the smallest over the {over}" + (
                "" if isinstance(cls, ModelClass) else " (there, at the corners)"
            )
            if cls.clipped:
                pi_min, note = _k_approx(cast(IntervalChainK, cls), pi_min, len(chains))
            picks.append((mqm_approx_scale(chains[0], eps, pi_min=pi_min, gap=gap), note))
        else:
            out.append(NotApplicable("mqm-approx", reason))
    else:
        out.append(NotApplicable("mqm", "MQM here is for classes of chains and the sum query"))
    for k, (b, note) in enumerate(picks):
        used = Fraction(certify(b.scale, 20).enclosure[1])
        leak, wt = _leak_at(worst, used, goal)
        out.insert(k, BaselineResult(b.name, b.scale, used, leak, wt, {"note": note, **b.detail}))
    return out


def _k_approx(cls: IntervalChainK, members_min: Fraction, n: int) -> tuple[Fraction, str]:
    """MQMApprox's ``pi_min`` for a k-state interval chain and its note: the class's own
    (:func:`~pdpsym.mechanisms.mqm_class.class_pi_min`, at a combination of the rows'
    polytopes' vertices) when there are at most
    :data:`~pdpsym.mechanisms.mqm_class.PI_MIN_COMBINATIONS` combinations, else the
    smallest over the ``n`` members evaluated; the eigengap is the smallest over those
    members (where the class's is, is not proven: it may be lower), so the scale is a
    lower bound of the class's own MQMApprox scale."""
    found = class_pi_min(cls.rows)
    over = f"over the {n} members at the polytopes' vertices and centre"
    tail = "the class's own MQMApprox scale is at least this"
    gap_text = f"the eigengap the smallest {over} (the class's may be lower): {tail}"
    if found is None:
        return members_min, (
            f"pi_min and the eigengap are the smallest {over} (the class's may be lower): {tail}"
        )
    return found[0], (
        f"pi_min is the class's (its min is at a vertex of the rows' polytopes: all {found[1]} "
        f"combinations); {gap_text}"
    )


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


__all__ = [
    "ClassCalibration",
    "class_baselines",
    "class_calibrate",
    "k_members_work",
    "vertex_members",
]

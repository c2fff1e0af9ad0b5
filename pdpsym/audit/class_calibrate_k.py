"""Calibration over an interval chain of more than two states: the smallest Laplace scale
at which every law of the class meets eps (Li et al.'s Eq. 2, every target), certified,
next to group DP.

**Why the class's scale is a max.** For each law ``theta`` the leakage is non-increasing
in the scale (:mod:`pdpsym.audit.calibrate`), so the class's smallest scale is
``sup_theta lambda*(theta)``.

**The bracket.** The members at the rows' polytopes' vertices (up to 64 combinations)
and at the box's centre are calibrated by the single-law engine
(:func:`~pdpsym.audit.calibrate.calibrate`); the largest lower end is a certified lower
end ``lo`` of the class's scale (that member needs at least it). An upper end ``u`` is
decided by the certified branch and bound of
:func:`~pdpsym.loss.class_search_k.k_chain_leakage` at ``u``, by its enclosure only:

* every target's enclosure is at most eps: ``u`` is safe for the class, the bracket is
  ``[lo, u]``;
* some member is certified above eps at ``u`` (the enclosure's lower end, an exact
  member's): that member is calibrated, ``lo`` grows to its lower end, and ``u`` is
  asked again above its upper end;
* the enclosure straddles eps (undecided): ``u``'s margin over ``lo`` grows tenfold and
  the step repeats; the result is marked not tight.

The first ``u`` is ``hi (1 + 10^-d)`` over the worst member's upper end ``hi``.

**Baselines.** Group DP is the largest over the same members of the group-DP scale (a
chain with two different rows is one group of ``T`` records, the connected component;
the box's members with different rows all give ``T`` times the sensitivity), compared
exactly, as :mod:`pdpsym.audit.class_calibrate` does for binary chains. The Markov Quilt
Mechanism's class bounds there are binary (``pi_min`` and the eigengap at a box's
corners): for more states they are listed as not available.

References:
    Li et al. (2019), Sec. III, Eq. 2; Kifer and Machanavajjhala (2014), Definition 3.1;
    Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 4-5 (group DP and MQM over a class).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from pdpsym.audit.calibrate import calibrate, positive_eps, worst_leakage
from pdpsym.audit.class_calibrate import ClassBaseline, ClassCalibration
from pdpsym.core.certify import certify
from pdpsym.core.compare import compare
from pdpsym.core.errors import InputError
from pdpsym.loss.class_search import CLASS_DIGITS, class_work
from pdpsym.loss.class_search_k import k_chain_leakage
from pdpsym.loss.count_leakage import structured_leakage
from pdpsym.loss.count_leakage_work import CHAIN_CELLS_PER_STEP, leakage_work
from pdpsym.mechanisms.mqm import group_dp_scale
from pdpsym.models.interval_chain_k import IntervalChainK

#: the reason printed for the Markov Quilt Mechanism's class baselines
MQM_NOT_AVAILABLE = "not available for more than two states: its class bounds are binary"
#: a member's calibration's fixed cost in work units (15 ms at 3 * 10^7 a second)
MEMBER_FIXED = 450_000
#: the most decisions (branch-and-bound runs) of one calibration
MAX_DECISIONS = 12


def _members(cls: IntervalChainK) -> list[tuple[Fraction, ...]]:
    """The vertices' members and the centre's (each once)."""
    out = list(dict.fromkeys(cls.vertices()))
    centre = cls.centre(cls.box())
    if centre not in out:
        out.append(centre)
    return out


def k_members_work(
    cls: IntervalChainK, n_targets: int, known: Sequence[str], passes: int
) -> tuple[int, int]:
    """An estimate of a calibration's work before its search: the members' calibrations,
    and one box of the search.

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
    members = _members(cls)
    one = leakage_work(cls.member(members[0]), n_targets, known) * CHAIN_CELLS_PER_STEP
    # measured (CPU, three states, every target, a member's calibration): 19 ms at T = 3,
    # 29 ms at T = 20, 80 ms at T = 60, where ``passes * one`` gives 1, 3 and 25 ms: a
    # fixed 15 ms (the exact certification) and twice the passes' estimate
    per_member = 2 * passes * one + MEMBER_FIXED
    # class_work reads a k-state chain too (its last branch); its annotation predates it
    box = class_work(cls, n_targets, known)  # type: ignore[arg-type]
    return len(members) * per_member, box


def k_class_calibrate(
    cls: IntervalChainK,
    eps: Fraction,
    *,
    mechanism: str = "laplace",
    known: Sequence[str] = (),
    targets: Sequence[str] | None = None,
    weights: Mapping[str, int] | None = None,
    baselines: bool = True,
    digits: int = CLASS_DIGITS,
    max_boxes: int = 2000,
    on_step: Callable[[int], None] | None = None,
) -> ClassCalibration:
    """The smallest Laplace scale meeting ``eps`` for every law of a k-state interval
    chain (module docstring).

    Args:
        cls: the class (``k > 2`` states).
        eps: the leakage bound (> 0).
        mechanism: ``"laplace"`` (the search bounds the Laplace mixture).
        known: the records the adversary knows.
        targets: the targets (default every record not known).
        weights: integer query weights (default: the sum).
        baselines: also group DP (and the line saying MQM is not available).
        digits: the relative width ``10^-digits`` the bracket aims at (at most
            :data:`~pdpsym.loss.class_search.CLASS_DIGITS`).
        max_boxes: the branch and bound's limit over all its decisions (each decision
            after the limit is spent gets 8 boxes more).
        on_step: progress (a member calibrated or a box bounded).

    Returns:
        The :class:`~pdpsym.audit.class_calibrate.ClassCalibration`.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1; Li et al. (2019), Eq. 2; Song,
        Wang, Chaudhuri (SIGMOD 2017), Sec. 4-5.
    """
    eps = positive_eps(eps)
    if mechanism != "laplace":
        raise InputError(
            "mechanism", "an interval chain of more than two states is calibrated for laplace"
        )
    known = tuple(known)
    tg = [v for v in cls.variables if v not in set(known)] if targets is None else list(targets)
    aim = min(digits, CLASS_DIGITS)
    thetas = _members(cls)

    def one(theta: tuple[Fraction, ...]) -> tuple[Fraction, Fraction, str]:
        c = calibrate(
            cls.member(theta), eps, known=known, targets=tg, weights=weights, baselines=False
        )
        return c.lo, c.hi, c.worst_target

    found = []
    for step, theta in enumerate(thetas, 1):
        found.append(one(theta))
        if on_step is not None:
            on_step(step)
    j = max(range(len(found)), key=lambda i: (found[i][0], found[i][1]))
    theta, (lo, hi_t, worst_target) = thetas[j], found[j]
    rel = Fraction(1, 10**aim)
    boxes, tight, hi = 0, True, None
    for _ in range(MAX_DECISIONS):
        up = hi_t * (1 + rel)
        res = k_chain_leakage(
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
        vals = [t for t in res.targets if t.value is not None]
        over = [t for t in vals if t.value.lo > eps]  # type: ignore[union-attr]
        if over:  # a member certified above eps at ``up``: it needs a larger scale
            t_over = max(over, key=lambda t: t.value.lo)  # type: ignore[union-attr]
            theta = t_over.law  # type: ignore[assignment]
            lo2, hi2, wt = one(theta)
            if lo2 > lo:
                lo, worst_target = lo2, wt
            hi_t = max(hi_t, hi2)
            continue
        if all(not t.open_above and t.value.hi <= eps for t in vals):  # type: ignore[union-attr]
            hi = up
            break
        rel *= 10  # undecided: the enclosure straddles eps; ask with a wider margin
        tight = False
    if hi is None:
        raise InputError(
            "max_boxes", "the search could not certify a safe scale within its box limit"
        )
    tight = tight and hi - lo <= Fraction(2, 10**aim) * hi
    outs: list[ClassBaseline | tuple[str, str]] = []
    if baselines:
        outs = _group_dp(cls, thetas, theta, eps, known, tg, weights)
        outs.append(("mqm", MQM_NOT_AVAILABLE))
    return ClassCalibration(
        eps,
        mechanism,
        lo,
        hi,
        tight,
        worst_target,
        theta,
        cls.law_json(theta),
        tuple(outs),
        boxes,
    )


def _group_dp(
    cls: IntervalChainK,
    thetas: Sequence[tuple[Fraction, ...]],
    worst: tuple[Fraction, ...],
    eps: Fraction,
    known: Sequence[str],
    targets: Sequence[str],
    weights: Mapping[str, int] | None,
) -> list[ClassBaseline | tuple[str, str]]:
    """Group DP's largest scale over the members, and its leakage at the worst law."""
    g = [group_dp_scale(cls.member(t), eps) for t in thetas]
    best = 0
    for i in range(1, len(g)):
        if compare(g[i].scale, g[best].scale).sign > 0:
            best = i
    b = g[best]
    used = Fraction(certify(b.scale, 20).enclosure[1])
    res = structured_leakage(
        cls.member(worst), targets, known, used, weights, digits=17, exact=False
    )
    w = worst_leakage(res)
    note = "the largest over the polytopes' vertices and centre"
    return [ClassBaseline(b.name, b.scale, used, w.value, w.target, note, b.detail)]


__all__ = ["MQM_NOT_AVAILABLE", "k_members_work", "k_class_calibrate"]

"""Li et al.'s Eq. 2 over a class of laws (Pufferfish's ``Theta``): the sup over the class,
certified, and the law where it is attained or approached.

* **A finite class** (:class:`~pdpsym.models.law_class.ModelClass`): each member by
  today's engine (:func:`~pdpsym.loss.count_leakage.structured_leakage`), on several
  processes; the sup is the max, enclosed by ``[max lo, max hi]`` over the members, and
  the worst member is the first whose enclosure reaches the max's lower end.
* **An interval chain** (:class:`~pdpsym.models.law_class.IntervalChain`): a branch and
  bound over the parameter box. Each sub-box gets a proven upper bound per target
  (:func:`pdpsym.loss.class_box_bounds.box_bound`: log-convexity of the count laws in the log
  entries, a second-order bound); the centre and the member corners of every box are
  evaluated exactly (certified enclosures, today's engine), which gives the lower end.
  A box is closed for a target when its bound is within the tolerance of the best value
  found; the search stops when every box is closed (the enclosure then fixes the
  digits asked for) or after ``max_boxes`` boxes, when the enclosure
  ``[best lo, max bound over the open boxes]`` is reported as it is, not tight.
* **An interval product** (:class:`~pdpsym.models.law_class.IntervalProduct`): with
  independent records the count law given ``x_i = a`` is the others' law shifted by
  ``a``'s contribution, the same law for every ``a``, so Eq. 2 is
  ``max |c_i(a) - c_i(b)| / lambda`` over the pairs of values of positive probability
  (Li et al., Theorem 1): it depends on the laws only through their supports, and the
  class's sup is the value of a member of largest support
  (:meth:`~pdpsym.models.law_class.IntervalProduct.widest_member`), computed exactly.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from math import inf
from typing import Any, cast

from pdpsym.core.errors import InputError
from pdpsym.core.parallel import ordered_map
from pdpsym.loss import class_box_bounds, class_float_laws
from pdpsym.loss.class_search_k import k_chain_search
from pdpsym.loss.class_targets import (
    CLASS_DIGITS,
    MEMBER_DIGITS,
    ClassLeakage,
    ClassQuery,
    ClassSearch,
    ClassTarget,
    TargetBounds,
    Upper,
    check_names,
)
from pdpsym.loss.count_leakage import structured_leakage
from pdpsym.loss.count_leakage_work import CHAIN_CELLS_PER_STEP, assignment_count, leakage_work
from pdpsym.loss.leakage_result import Enclosed
from pdpsym.models.counts import CountModel
from pdpsym.models.interval_chain_k import IntervalChainK
from pdpsym.models.law_class import Box, IntervalChain, IntervalProduct, LawClass, ModelClass
from pdpsym.models.model_objects import chain_of


def _member_run(job: tuple[Any, ...]) -> list[tuple[Fraction, Fraction] | None]:
    """One member's certified leakage per target (a module-level function: pickled)."""
    model, q, digits = job
    res = structured_leakage(
        model, q.targets, q.known, q.lam, q.weights, digits=digits, exact=False
    )
    return [None if r.value is None else (r.value.lo, r.value.hi) for r in res]


def _finite(cls: ModelClass, query: ClassQuery, search: ClassSearch) -> ClassLeakage:
    # the max over the members, each by today's engine (always tight: the members are exact)
    jobs_in = [(m, query, search.digits) for m in cls.members]
    results = ordered_map(
        _member_run, jobs_in, search.jobs, on_done=search.on_step, scheduler=search.scheduler
    )
    out = []
    for i, name in enumerate(query.targets):
        vals: list[tuple[int, tuple[Fraction, Fraction]]] = []
        for j, r in enumerate(results):
            v = r[i]
            if v is not None:
                vals.append((j, v))
        if not vals:
            out.append(ClassTarget(name, None, None))
            continue
        lo = max(v[0] for _, v in vals)
        hi = max(v[1] for _, v in vals)
        worst = next(j for j, v in vals if v[1] >= lo)
        out.append(ClassTarget(name, Enclosed(lo, hi), worst))
    return ClassLeakage(tuple(out), True, 0)


def _product(cls: IntervalProduct, query: ClassQuery, search: ClassSearch) -> ClassLeakage:
    # the value of a member of largest support (module docstring), exactly; each law is
    # the widest member's row parameters
    q = query
    member = cls.widest_member()
    res = structured_leakage(
        member, q.targets, q.known, q.lam, q.weights, digits=search.digits, exact=True
    )
    out = [ClassTarget(r.target, r.value, 0 if r.value is not None else None) for r in res]
    return ClassLeakage(tuple(out), True, 0)


def _assignments(cls: IntervalChain, known: Sequence[str]) -> list[dict[int, int]]:
    pos = [cls.variables.index(k) for k in known]
    return [
        dict(zip(pos, combo, strict=True)) for combo in itertools.product(range(2), repeat=len(pos))
    ]


def _binary_chain(cls: IntervalChain, query: ClassQuery, search: ClassSearch) -> ClassLeakage:
    # branch and bound over the parameter box (module docstring); each law is a parameter
    # tuple ``(x_0, x_1[, y])``
    lam = query.lam
    if lam <= 0:
        raise InputError("lam", "must be > 0")
    targets = list(query.targets)
    known = query.known
    weights = query.weights
    names = cls.variables
    check_names(names, targets, known)
    root = cls.box()
    probe = cls.member(tuple(lo for lo, _ in root))
    contrib = probe.contributions(weights)
    start = (
        "stationary"
        if cls.initial == "stationary"
        else ("interval" if isinstance(cls.initial[0], tuple) else "fixed")
    )
    init = (Fraction(1, 2),) * 2 if start != "fixed" else tuple(cls.initial)  # type: ignore[arg-type]
    shape = class_float_laws.ChainShape(contrib.table, start, init)  # type: ignore[arg-type]
    rate = 1 / (lam * contrib.scale)
    assignments = _assignments(cls, known)
    pos = {name: names.index(name) for name in targets}
    best = TargetBounds(query, search, cls.member)

    def bound(box: Box, parent: Upper | None) -> Upper:
        active = searched if parent is None else list(parent)
        if not active:
            return {}
        bb = class_box_bounds.box_bound(shape, box, [pos[t] for t in active], assignments, rate)
        # floats rank the candidates: a member is evaluated exactly when its estimate
        # beats a target's best certified value (or the target has none yet)
        cands = [*bb.vertices.items(), (tuple((a + b) / 2 for a, b in box), bb.centre)]
        for theta, est in cands:
            if best.beats({t: est.get(pos[t], -inf) for t in active}, active, False):
                best.evaluate(theta)
        return {t: bb.upper[pos[t]] for t in active}

    def side(box: Box, live: Upper, j: int) -> int:
        if any(u == inf for u in live.values()):
            # no finite bound: shrink a side at an end 0 or 1 first (where the law changes
            # support), if there is one
            ends = [i for i, (x, y) in enumerate(box) if x < y and (x == 0 or y == 1)]
            return ends[0] if ends else j
        return j

    def park(box: Box, live: Upper) -> bool:
        # a box at an end 0 or 1 of a row, already tiny, still without a finite bound
        # (the law changes support there): left open rather than split forever
        return all(u == inf for u in live.values()) and _stuck(box, root)

    # a target whose Markov blanket is known: the others' count law given x_i = a does
    # not depend on a (the Markov property), so Eq. 2 compares two shifts of one law and
    # equals |c_i(1) - c_i(0)| / lambda for every member in which both values are
    # possible; the centre of the box (interior parameters, the largest support) is one
    # such member when any is, so its exact value is the class's sup: no search
    known_set = set(known)
    flat = [
        t
        for t in targets
        if all(names[u] in known_set for u in (pos[t] - 1, pos[t] + 1) if 0 <= u < len(names))
    ]
    if flat:
        best.evaluate(tuple((a + b) / 2 for a, b in root))
        for t in flat:
            h = best.hi_m[t]
            best.closed_hi[t] = float(h) if h is not None else -inf
    searched = [t for t in targets if t not in flat]
    return best.run(root, bound, strict=True, side=side, park=park)


def _stuck(
    box: Sequence[tuple[Fraction, Fraction]], root: Sequence[tuple[Fraction, Fraction]]
) -> bool:
    """Whether a box touches an end 0 or 1 of a row along a side at most ``2^-20`` of the
    root's width."""
    for (a, b), (ra, rb) in zip(box, root, strict=True):
        if (a == 0 or b == 1) and a < b and (b - a) * 2**20 <= (rb - ra):
            return True
    return False


def class_leakage(
    cls: LawClass,
    targets: Sequence[str],
    known: Sequence[str] = (),
    lam: Fraction | int = 1,
    weights: Mapping[str, int] | None = None,
    *,
    digits: int = 15,
    jobs: int = 1,
    max_boxes: int = 2000,
    on_step: Callable[[int], None] | None = None,
    scheduler: str | None = None,
    below: Fraction | None = None,
) -> ClassLeakage:
    """Eq. 2's sup over any class (dispatch on its kind; see the module docstring).

    Args:
        cls: a finite class, an interval chain (two states or more) or an interval
            product.
        targets: the target records.
        known: the records the adversary knows (the max runs over their values).
        lam: the Laplace scale (> 0).
        weights: integer query weights (default: the sum).
        digits: significant digits (the interval searches aim at most at
            :data:`CLASS_DIGITS`).
        jobs: worker processes for a finite class (members run in parallel).
        max_boxes: the interval searches' limit (beyond it the result is not tight).
        on_step: progress (a member finished, or the number of boxes bounded so far).
        scheduler: a Dask scheduler for a finite class's members (``"local"`` or an
            address, as for :func:`~pdpsym.core.parallel.ordered_map`; None: processes).
        below: interval searches only: decide ``sup <= below`` instead (a box is closed
            once its bound is at most ``below``, and the search stops as soon as a member
            is certified above it; ``tight`` then says the question is decided).

    Returns:
        The :class:`ClassLeakage`: a finite class's is always tight (the members are
        exact); an interval chain's law per target is a parameter tuple, a finite
        class's a member index, an interval product's the widest member (index 0).

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1 (the guarantee holds for every
        law of the class); Li et al. (2019), Sec. III, Eq. 2, and Theorem 1 (independent
        records); Horst and Tuy, Global Optimization, 3rd ed. (1996), Ch. IV (branch and
        bound).
    """
    query = ClassQuery(tuple(targets), tuple(known), Fraction(lam), weights)
    search = ClassSearch(digits, jobs, max_boxes, on_step, scheduler, below)
    if isinstance(cls, ModelClass):
        return _finite(cls, query, search)
    if isinstance(cls, IntervalProduct):
        return _product(cls, query, search)
    if cls.clipped:  # more than two states: sub-boxes clipped to the rows' polytopes
        return k_chain_search(cast(IntervalChainK, cls), query, search)
    return _binary_chain(cast(IntervalChain, cls), query, search)


#: the per-kind names of :func:`class_leakage` (each dispatches on the class's kind)
finite_class_leakage = product_class_leakage = interval_chain_leakage = class_leakage
k_chain_leakage = class_leakage


def class_work(cls: LawClass, n_targets: int, known: Sequence[str]) -> int:
    """An upper estimate of one member's (or one box's) work, for the caller's limit.

    Args:
        cls: the class.
        n_targets: the number of targets.
        known: the known records.

    Returns:
        Work units of :func:`~pdpsym.loss.count_leakage_work.leakage_work` (about
        ``3 * 10^7`` a second of CPU): the sum over the members for a finite class; for
        an interval chain, one box of the search (measured, see the comment).

    References:
        Li et al. (2019), Section V-D (cost measured, not taken from formulas).
    """
    if isinstance(cls, ModelClass):
        # the class limits count the engines' cells (3 * 10^7 a second, CLASS_MAX_WORK),
        # not the single-law commands' microsecond steps
        return sum(
            leakage_work(m, n_targets, known) * (CHAIN_CELLS_PER_STEP if chain_of(m) else 1)
            for m in cls.members
        )
    if isinstance(cls, IntervalProduct):
        return leakage_work(cls.widest_member(), n_targets, known)
    if cls.clipped:
        # a k-state chain's box (class_kstate_bounds): measured at k = 3 with two rows
        # boxed (CPU, every box of a search, averaged): T = 10: 3.6 ms a box for one
        # target, 4.8 ms for all 10; fit in ms, times the known records' assignments
        ms_k = 3 + 0.03 * cls.length * n_targets
        return int(30_000 * ms_k * cls.k ** len(known)) + 1
    member: CountModel = cls.member(tuple(lo for lo, _ in cls.box()))
    # one box: the float passes of :func:`~pdpsym.loss.class_box_bounds.box_bound` (14
    # channels for two parameters, 35 for three: the centre, its derivatives and the
    # triangle vertices) and the exact evaluations it triggers. Measured (CPU, binary
    # chains, every box of a search to 6 digits, averaged): T = 10: 2.3 ms a box for one
    # target, 5.5 ms for all 10; T = 100: 5.4 ms and 57 ms; T = 300: 17 ms and 290 ms.
    # The fit below, in ms, is above every one of them but T = 10's all-targets, and is
    # converted at the engine's 3 * 10^4 steps a millisecond
    # (:func:`~pdpsym.loss.count_leakage_work.leakage_work`)
    T = cls.length
    channels = 14 if len(cls.box()) == 2 else 35
    ms = (2 + T / 20 + n_targets / 10 + T * n_targets / 200) * channels / 14
    assignments = assignment_count(member, known)
    return int(30_000 * ms * max(assignments, 1)) + 1


__all__ = [
    "CLASS_DIGITS",
    "MEMBER_DIGITS",
    "ClassLeakage",
    "ClassTarget",
    "class_leakage",
    "class_work",
    "finite_class_leakage",
    "interval_chain_leakage",
    "k_chain_leakage",
    "product_class_leakage",
]

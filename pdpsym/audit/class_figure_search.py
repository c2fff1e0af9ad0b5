"""The figures' branch and bound over an interval chain's parameter box: proven upper
bounds on every sub-box (:mod:`pdpsym.audit.class_audit_boxes`), exact values at its
centre and corners as lower ends; the sub-box of widest gap is split along its widest
side (the driver of :mod:`pdpsym.loss.class_branch_bound`); the search stops when every
sub-box's bound is within the asked digits of the best value found (the sup to those
digits), or when the budget is spent (an enclosure). A k-state chain's sub-boxes are
clipped to the rows' polytopes (one without a member is dropped), enclosed by
:mod:`pdpsym.audit.class_box_laws_k`, and evaluated at a member inside each.

References:
    Kifer and Machanavajjhala (2014), Definition 3.1; Moore, Kearfott, Cloud,
    Introduction to Interval Analysis (SIAM 2009), Ch. 5.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pdpsym.audit import registry
from pdpsym.audit.class_audit_boxes import (
    POSTERIOR_PAIRS,
    bounded,
    box_notion_bounds,
    notion_bounds,
    report_keep,
)
from pdpsym.audit.class_audit_laplace import laplace_bounds
from pdpsym.audit.class_audit_posteriors import posterior_bounds
from pdpsym.audit.class_box_laws import BoxLaws, Emission, report_emission
from pdpsym.audit.class_box_laws_k import chain_box_laws
from pdpsym.audit.registry import Pairs
from pdpsym.core.balls import ball_endpoints
from pdpsym.core.eps import Eps
from pdpsym.loss.class_branch_bound import branch_and_bound
from pdpsym.mechanisms.base import SumMechanism
from pdpsym.mechanisms.sum_kernels import CountSum
from pdpsym.models.interval_rows import Box, IntervalChainBase

ZERO = Fraction(0)


@dataclass(frozen=True)
class BoxFigure:
    """One figure's enclosure of the class's sup from the branch and bound: ``lo`` and
    ``hi`` in the figure's own terms (``e^ε`` for ε at δ = 0, δ for δ(ε); None: infinite),
    the law where ``lo`` is attained, and whether every sub-box closed (the sup to the
    asked digits) or the budget ran out (an enclosure, not tight)."""

    notion: str
    figure: int  # -1: ε at δ = 0 (as e^ε); k: δ at the k-th ε
    lo: Fraction | None
    hi: Fraction | None
    law: tuple[Fraction, ...]
    tight: bool


@dataclass(frozen=True)
class BoxSearch:
    """The branch and bound's figures and the sub-boxes it bounded."""

    figures: tuple[BoxFigure, ...]
    boxes: int


Vec = list[Fraction | None]


def _gt(x: Fraction | None, y: Fraction | None) -> bool:
    """``x > y`` with None as +infinity."""
    return (x is None and y is not None) or (x is not None and y is not None and x > y)


def search_figures(
    cls: IntervalChainBase,
    mech: Any,
    target: str,
    known: Sequence[str],
    eps: Sequence[Any],
    notions: Sequence[str],
    *,
    digits: int = 4,
    max_boxes: int = 2000,
    on_step: Callable[[int], None] | None = None,
) -> BoxSearch:
    """The certified branch and bound of the bounded notions' figures over the box
    (module docstring).

    Args:
        cls: the interval chain (binary, or of more states: no gradients there, so the
            sub-box bounds are first order, and the lower ends are the polytopes'
            vertices and a member inside each sub-box).
        mech: a mechanism on the sum (:data:`BOUNDED_KINDS`; Laplace noise: δ(ε) only),
            or randomized response (its reports: :func:`reports_as_outputs`).
        target: the target record.
        known: the known records.
        eps: the ε values of δ(ε).
        notions: the notions; those :func:`bounded` are searched.
        digits: a sub-box closes when its bound is within ``10^-digits`` (relative, with
            an absolute floor ``10^-(digits + 3)``) of the best value found.
        max_boxes: the most sub-boxes bounded.
        on_step: called once per sub-box bounded.

    Returns:
        The :class:`BoxSearch`.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1; Moore, Kearfott, Cloud (2009),
        Ch. 5 (branch and bound).
    """
    names = [n for n in notions if bounded(n, mech)]
    kinds = sorted({registry.notion(n).pairs for n in names}, key=lambda p: p.value)
    mech, emit = reports_as_outputs(cls, mech)
    ends = [ball_endpoints(Eps.of(e).arb_exp(128)) for e in eps]
    down, up = [lo for lo, _ in ends], [hi for _, hi in ends]
    exact = [Eps.of(e) for e in eps]
    laplace = mech.kind == "laplace"  # δ(ε) only: the Eq. 2 search has its ε at δ = 0
    slots = [(n, f) for n in names for f in range(0 if laplace else -1, len(eps))]
    tol, floor = Fraction(1, 10**digits), Fraction(1, 10 ** (digits + 3))
    if not slots:  # nothing to search (Laplace noise without an ε)
        return BoxSearch((), 0)

    points: dict[Box, BoxLaws] = {}  # a centre's exact laws, used twice (bound, lower end)

    def at(box: Box) -> BoxLaws:
        if box in points:
            return points.pop(box)
        laws = chain_box_laws(cls, box, target, known, mech.weights, emit)
        assert laws is not None  # (a sub-box without a member is dropped before)
        if all(a == b for a, b in box):
            points[box] = laws
        return laws

    centre = cls.centre  # a member inside the sub-box (a clipped one's: clipped)

    def vector(box: Box, point: bool) -> Vec | None:
        if not point and not cls.holds_member(box):
            return None  # no member in the sub-box
        laws = at(box)
        got: dict[Pairs, tuple[Fraction | None, list[Fraction]]]
        if laplace:
            assert mech.lam is not None
            lam = mech.lam
            if point:
                got = {k: (ZERO, laplace_bounds(laws, lam, k, exact, True)) for k in kinds}
            else:
                ctr = at(tuple((x, x) for x in centre(box)))
                rad = [(b - a) / 2 for a, b in box]
                got = {
                    k: (ZERO, laplace_bounds(laws, lam, k, exact, False, ctr, rad)) for k in kinds
                }
        elif point:
            got = {
                k: posterior_bounds(laws, None, [], mech, up, True)
                if k in POSTERIOR_PAIRS
                else notion_bounds(laws, mech, k, up, True)
                for k in kinds
            }
        else:
            ctr = at(tuple((x, x) for x in centre(box)))
            rad = [(b - a) / 2 for a, b in box]
            got = {
                k: posterior_bounds(laws, ctr, rad, mech, down, False)
                if k in POSTERIOR_PAIRS
                else box_notion_bounds(laws, ctr, rad, mech, k, down)
                for k in kinds
            }
        out: Vec = []
        for n, f in slots:
            r, ds = got[registry.notion(n).pairs]
            out.append(r if f < 0 else ds[f])
        return out

    root = cls.box()
    best: Vec = [ZERO] * len(slots)
    first = cls.search_start()
    where: list[tuple[Fraction, ...]] = [first] * len(slots)

    seen: set[tuple[Fraction, ...]] = set()

    def lower(theta: tuple[Fraction, ...]) -> None:
        if theta in seen:
            return
        seen.add(theta)
        for k, x in enumerate(vector(tuple((t, t) for t in theta), True) or ()):
            if _gt(x, best[k]):
                best[k], where[k] = x, theta

    def gap(ub: Vec) -> Fraction | None:
        worst: Fraction | None = ZERO
        for k, u in enumerate(ub):
            lo = best[k]
            if lo is None:
                continue
            if u is None:
                return None
            g = (u - lo) / max(lo * tol, floor)
            worst = g if worst is not None and g > worst else worst
        return worst

    for corner in cls.vertices():
        lower(corner)
    lower(centre(root))
    done: list[Vec] = []

    def bound(box: Box, _parent: Vec | None) -> Vec | None:
        ub = vector(box, False)
        if ub is None:
            return None
        lower(centre(box))
        for corner in cls.box_corners(box):  # a corner's exact value: a sub-box's
            lower(corner)  # maximum is often there (second order gap)
        return ub

    def settle(ub: Vec) -> tuple[Vec | None, Any]:
        g = gap(ub)
        if g is not None and g <= 1:
            done.append(ub)
            return None, None
        return ub, _key(g)

    out = branch_and_bound(
        root,
        bound,
        settle,
        max_boxes=max_boxes,
        on_box=None if on_step is None else (lambda _n: on_step(1)),
    )
    boxes = out.boxes
    done += out.points
    leaves = done + out.open
    tight = all((g := gap(ub)) is not None and g <= 1 for ub in leaves)
    figs = []
    for k, (n, f) in enumerate(slots):
        hi: Fraction | None = ZERO
        for ub in leaves:
            hi = None if ub[k] is None or hi is None else max(hi, ub[k])  # type: ignore[type-var]
        lo = best[k]
        if lo is None:
            hi = None
        figs.append(BoxFigure(n, f, lo, hi, where[k], tight))
    return BoxSearch(tuple(figs), boxes)


def reports_as_outputs(cls: IntervalChainBase, mech: Any) -> tuple[SumMechanism, Emission | None]:
    """Randomized response as the search sees it: the output is the tuple of every
    record's report (the forward pass's emission), compared as it is (the count's
    identity kernel); any other mechanism is returned unchanged.

    Args:
        cls: the interval chain (its number of states).
        mech: the audited mechanism.

    Returns:
        ``(mechanism on the output, emission or None)``.

    References:
        Warner (1965); Rabiner (1989), the forward recursion of a hidden Markov model.
    """
    keep = report_keep(mech)
    if keep is None:
        return mech, None
    return CountSum(), report_emission(keep, cls.k)


def _key(g: Fraction | None) -> Any:
    """The heap's key: the widest gap first (None, an unbounded one, before all)."""
    return (0, ZERO) if g is None else (1, -g)


def steps_per_box(
    cls: IntervalChainBase,
    mech: Any,
    target: str,
    known: Sequence[str],
    notions: Sequence[str] = (),
    n_eps: int = 1,
) -> int:
    """The estimated work of one sub-box, in steps of about a microsecond: the forward
    passes (the sub-box's, with its gradients, and its centre's), the pushes of every
    side through the mechanism and the pairs' comparisons, counted on the laws at the
    box's centre (fitted in ``benchmarks/bench_class_audit_boxes.py``).

    Args:
        cls: the interval chain.
        mech: the mechanism on the sum.
        target: the target record.
        known: the known records.
        notions: the notions asked for (those :func:`bounded` count).
        n_eps: the ε values of δ(ε) (each an exact Laplace δ per pair, for Laplace noise).

    Returns:
        The estimated steps of one sub-box.

    References:
        Moore, Kearfott, Cloud (2009), Ch. 5 (the cost of a branch and bound's box).
    """
    box = cls.box()
    n = len(box)
    kinds = {registry.notion(x).pairs for x in notions if bounded(x, mech)} or {Pairs.GIVEN_KNOWN}
    mech, emit = reports_as_outputs(cls, mech)
    if emit is not None:  # the report tuples: counted, not run (2^T of them, or more)
        laws: Any = report_pass(cls.variables, target, known, emit)
    else:
        point = tuple((x, x) for x in cls.centre(box))
        laws = chain_box_laws(cls, point, target, known, mech.weights, emit)
        assert laws is not None  # (the centre is a member)
    if emit is None:
        keys = [lo for lo, _ in laws.laws.values()]
        values = [s for law in keys for s in law]
        span = int(max(values) - min(values)) + 3 if values else 1
        n_laws, per_dict = len(keys), sum(len(law) for law in keys) / max(len(keys), 1)
    else:
        span, n_laws, per_dict = 1, laws.laws, laws.per_law
    changed = Pairs.CHANGED in kinds or Pairs.CHANGED_POSTERIORS in kinds
    sides = n_laws * (len(laws.states) if changed else 1)
    if mech.kind == "geometric":
        per_dict *= span
    g = 0 if cls.clipped else n  # the jets' gradients
    push = sides * (3 + 2 * g) * per_dict
    pairs = n_laws * max(1, len(laws.states) - 1) * (2 if changed else 1)
    compare = len(kinds) * pairs * (span if mech.kind == "geometric" else per_dict) * (1 + g)
    forward = FORWARD_COST * laws.steps * (2 + n)
    if mech.kind == "laplace":  # an exact δ per pair and ε: O(centres^1.5) measured,
        # on the sub-box and at about 3 new points (its centre and corners), no gradients
        return int(forward + LAPLACE_COST * len(kinds) * pairs * max(n_eps, 1) * per_dict**1.5 * 4)
    if cls.clipped:  # jets without gradients: a pass at the sub-box
        # and one at its centre, the bounds first order (fitted separately, CPU, 13
        # sub-boxes, 3 states, T = 3 to 8, count, threshold, geometric and randomized
        # response: 0.71 to 1.47 times this; benchmarks/bench_class_audit_reports.py)
        scale = K_GEOMETRIC_SCALE if mech.kind == "geometric" else K_REST_SCALE
        rest = (PUSH_COST * push + PAIR_COST * compare) * scale
        own = K_FORWARD_COST * laws.steps * 2 + rest
        posterior = Pairs.CHANGED_POSTERIORS in kinds or emit is not None
        return int((K_FACTOR if posterior else 1) * own + K_BOX_COST)
    if emit is not None:  # randomized response's report vectors (measured, CPU, 30
        # sub-boxes, T = 4 with a known record and T = 8: 1.02 and 1.15 times this)
        return int(REPORT_FACTOR * (forward + PUSH_COST * push + PAIR_COST * compare))
    # the laws' rationals grow with the chain (measured, CPU, T = 20 to 100: count and
    # threshold 1.05 to 1.76 times the rest; geometric 2.1 to 6.2, its kernel's sums over
    # the span of such numbers; benchmarks/bench_class_audit_reports.py --long)
    T = len(cls.variables)
    size = (1 + T / SIZE_LENGTH) * (max(1, T / GEOMETRIC_LENGTH) if mech.kind == "geometric" else 1)
    if Pairs.CHANGED_POSTERIORS in kinds:  # the posteriors' pairs: every output's two
        # families pushed with their gradients and conditioned (measured, CPU, 60 sub-boxes
        # each, T = 4 and 8, count, threshold and geometric: 1.4 to 2.8 times the rest)
        return int(POSTERIOR_FACTOR * size * (forward + PUSH_COST * push + PAIR_COST * compare))
    return int(size * (forward + PUSH_COST * push + PAIR_COST * compare))


@dataclass(frozen=True)
class ReportPass:
    """The size of the forward pass under randomized response (:func:`report_pass`):
    the keys it visits (``steps``), the conditional laws (one per target and known
    values), the report tuples of each law, and the states."""

    steps: int
    laws: int
    per_law: int
    states: tuple[int, ...]


def report_pass(
    names: Sequence[str], target: str, known: Sequence[str], emit: Emission
) -> ReportPass:
    """Count, without running it, the forward pass of
    :func:`~pdpsym.audit.class_box_laws.forward_laws` under randomized response at a
    member whose transition entries are all positive (a sub-box's centre).

    After ``t`` records a key is the last state, the target's and the known records'
    values among those records, and the ``t`` reports: each of the ``U`` reports is
    possible at every record, and given the reports each of those positions (at most
    ``m_t``) may hold any of the ``c`` states that give its report, so there are
    ``U^t c^m_t`` keys; each goes to ``k`` states and ``R`` reports of each, one step each.
    A law (the target's and the known records' values fixed) has ``U^(T - m) R^m``
    report tuples, ``m`` the records fixed.

    Args:
        names: the records, in the chain's order.
        target: the target record.
        known: the known records.
        emit: the report laws (:func:`~pdpsym.audit.class_box_laws.report_emission`).

    Returns:
        The :class:`ReportPass`.

    References:
        Warner (1965); Rabiner (1989), the forward recursion of a hidden Markov model.
    """
    k = len(emit)
    per_state = max(len(e) for e in emit)  # R: the reports one state may give
    reports = len({o for e in emit for o, _ in e})  # U
    compatible = max(sum(1 for e in emit if any(o == x for x, _ in e)) for o in range(k))
    fixed = {names.index(target), *(names.index(x) for x in known)}
    steps = 0
    for t in range(1, len(names)):  # the keys after records 0 .. t - 1, each to k x R
        held = len({t - 1} | {p for p in fixed if p <= t - 1})
        steps += reports**t * compatible**held * k * per_state
        if steps > REPORT_CAP:  # far past any limit: the count stops there
            steps = REPORT_CAP
            break
    m = len(fixed)
    free = len(names) - m
    per_law = reports**free * per_state**m if free < 128 else REPORT_CAP
    return ReportPass(steps, k**m, min(per_law, REPORT_CAP), tuple(range(k)))


#: where :func:`report_pass` stops counting (far above any work limit)
REPORT_CAP = 10**40
#: steps of one key of the forward pass, of one pushed dict entry, of one output compared
FORWARD_COST = 30
PUSH_COST = 6
PAIR_COST = 40
#: steps of one centre^1.5 of one exact Laplace δ (fitted like the three above)
LAPLACE_COST = 300
#: the posteriors' search (IBCDP) against the same estimate (measured above it by 1.4 to 2.8)
POSTERIOR_FACTOR = 3
#: randomized response's search against the same estimate (measured above it by 1.15)
REPORT_FACTOR = 1.5
#: the chain's length at which its laws' rationals double the binary search's steps,
#: and (on top) the length from which a geometric count's steps grow with it
SIZE_LENGTH = 130
GEOMETRIC_LENGTH = 13
#: a k-state chain's search: steps of one key of a forward pass (jets of one interval),
#: the pushes' and comparisons' share of the binary chain's (first order: no gradients;
#: a geometric count's outputs spread over its span), the posteriors' and randomized
#: response's factor, and the steps of a sub-box apart from these
K_FORWARD_COST = 10
K_REST_SCALE = 0.3
K_GEOMETRIC_SCALE = 1.3
K_FACTOR = 1.5
K_BOX_COST = 3000


__all__ = [
    "BoxFigure",
    "BoxSearch",
    "report_pass",
    "search_figures",
    "steps_per_box",
]

"""Eq. 2's sup over a class, per target: the result types and the bookkeeping shared by
the binary and the k-state interval searches (:mod:`pdpsym.loss.class_search`,
:mod:`pdpsym.loss.class_search_k`), which run the branch and bound of
:mod:`pdpsym.loss.class_branch_bound`.

Per target: the largest certified lower end among the members evaluated exactly (and
the member where it is attained), the largest upper end among them, and the largest
upper bound of the sub-boxes closed. A sub-box's bound closes a target when it is within
the tolerance of the best value (``10^-digits`` relative, a quarter of it, with an
absolute floor), or, when deciding ``sup <= below``, when it is at most ``below``. At the
end the enclosure is ``[best lo, max(best member's hi, every leaf's bound)]``: every law
lies in a leaf (:mod:`pdpsym.loss.class_branch_bound`), so it holds.

References:
    Li et al. (2019), Sec. III, Eq. 2; Kifer and Machanavajjhala (2014), Definition 3.1;
    Horst and Tuy, Global Optimization, 3rd ed. (1996), Ch. IV.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pdpsym.core.compare import proposal_float
from pdpsym.core.errors import InputError
from pdpsym.loss.class_branch_bound import Outcome, branch_and_bound
from pdpsym.loss.count_leakage import structured_leakage
from pdpsym.loss.leakage_result import Enclosed
from pdpsym.models.law_class import Box

#: the most significant digits the interval search aims at (its bounds are floats with a
#: proven error of about 1e-13 relative)
CLASS_DIGITS = 6
#: the digits of each exact evaluation of a member
MEMBER_DIGITS = 17

Upper = dict[str, float]


@dataclass(frozen=True)
class ClassQuery:
    """Eq. 2's question over a class: the adversaries ``A(i, K)`` for each target ``i``
    and the known records ``K`` (the max runs over their values), under Laplace noise of
    scale ``lam`` on the count weighted by ``weights`` (None: the sum).

    Every engine of the class searches (:mod:`pdpsym.loss.class_search`,
    :mod:`pdpsym.loss.class_search_k`) takes this one object.
    """

    targets: tuple[str, ...]
    known: tuple[str, ...] = ()
    lam: Fraction = Fraction(1)
    weights: Mapping[str, int] | None = None


@dataclass(frozen=True)
class ClassSearch:
    """How a class's sup is sought, in one place for every kind of class.

    ``digits``: significant digits (a member's certified value; the interval searches aim
    at most at :data:`CLASS_DIGITS`); ``jobs`` and ``scheduler``: worker processes or a
    Dask scheduler for a finite class's members; ``max_boxes``: the interval searches'
    limit; ``on_step``: progress (a member finished, or a box bounded); ``below``: decide
    ``sup <= below`` instead of enclosing the sup (interval searches).
    """

    digits: int = 15
    jobs: int = 1
    max_boxes: int = 2000
    on_step: Callable[[int], None] | None = None
    scheduler: str | None = None
    below: Fraction | None = None


@dataclass(frozen=True)
class ClassTarget:
    """One target's sup over the class: its enclosure and the worst law found (a member
    index for a finite class, the parameters ``(x_0, x_1[, y])`` for an interval
    chain), None when no member has two compatible values."""

    target: str
    value: Enclosed | None
    law: int | tuple[Fraction, ...] | None
    #: no finite upper bound was found (a guard of the float bounds failed, or a box
    #: touching a zero entry lost a value): the sup is at least ``value.lo``, and
    #: ``value.hi`` is the best member's upper end only
    open_above: bool = False


@dataclass(frozen=True)
class ClassLeakage:
    """Eq. 2's sup over a class for each target, whether the enclosures are tight (every
    box closed), and the boxes the search used (0 for a finite class)."""

    targets: tuple[ClassTarget, ...]
    tight: bool
    boxes: int
    #: why not tight: "box-limit" (the search stopped at ``max_boxes``) or "open-end" (a
    #: box at an end 0 or 1 of a row has no finite bound); "" when tight
    reason: str = ""

    def worst(self) -> ClassTarget | None:
        """The target with the largest lower end (the worst adversary and its law)."""
        ok = [t for t in self.targets if t.value is not None]
        if not ok:
            return None
        return max(ok, key=lambda t: t.value.lo)  # type: ignore[union-attr]

    def max_value(self) -> Enclosed | None:
        """The max over targets: ``[max lo, max hi]``."""
        ok = [t.value for t in self.targets if t.value is not None]
        if not ok:
            return None
        return Enclosed(max(v.lo for v in ok), max(v.hi for v in ok))


def check_names(names: Sequence[str], targets: Sequence[str], known: Sequence[str]) -> None:
    """Refuse unknown, repeated or known targets and unknown or repeated known records.

    Args:
        names: the class's records.
        targets: the target records.
        known: the known records.

    Raises:
        InputError: ``known`` or ``target``, naming the record.

    References:
        Li et al. (2019), Sec. III (the adversary ``A(i, K)``, ``i`` not in ``K``).
    """
    for k in known:
        if k not in names:
            raise InputError("known", f"unknown record {k!r}")
    if len(set(known)) != len(known):
        raise InputError("known", "duplicate record")
    for t in targets:
        if t not in names:
            raise InputError("target", f"unknown record {t!r}")
        if t in known:
            raise InputError("known", f"the target {t!r} cannot also be known")


class TargetBounds:
    """The per-target bookkeeping of an Eq. 2 search (module docstring).

    Args:
        query: the question (every member's exact evaluation answers it).
        search: the search's ``digits`` (a closed sub-box fixes at most
            :data:`CLASS_DIGITS` of them) and ``below`` (decide ``sup <= below``; None:
            the sup to those digits).
        member: the member model at a parameter tuple.
    """

    def __init__(
        self,
        query: ClassQuery,
        search: ClassSearch,
        member: Callable[[tuple[Fraction, ...]], Any],
    ) -> None:
        self.targets = list(query.targets)
        self.aim = min(search.digits, CLASS_DIGITS)
        self.below = search.below
        self.query = query
        self.search = search
        self.member = member
        self.lo: dict[str, Fraction | None] = dict.fromkeys(self.targets)
        self.hi_m: dict[str, Fraction | None] = dict.fromkeys(self.targets)
        self.law: dict[str, tuple[Fraction, ...] | None] = dict.fromkeys(self.targets)
        self.closed_hi = dict.fromkeys(self.targets, -math.inf)
        self.seen: set[tuple[Fraction, ...]] = set()

    def evaluate(self, theta: tuple[Fraction, ...]) -> None:
        """Evaluate the member at ``theta`` exactly (certified enclosures), once."""
        if theta in self.seen:
            return
        self.seen.add(theta)
        q = self.query
        res = structured_leakage(
            self.member(theta),
            self.targets,
            q.known,
            q.lam,
            q.weights,
            digits=MEMBER_DIGITS,
            exact=False,
        )
        for r in res:
            if r.value is None:
                continue
            t = r.target
            if self.lo[t] is None or r.value.lo > self.lo[t]:  # type: ignore[operator]
                self.lo[t], self.law[t] = r.value.lo, theta
            if self.hi_m[t] is None or r.value.hi > self.hi_m[t]:  # type: ignore[operator]
                self.hi_m[t] = r.value.hi

    def beats(self, est: Mapping[str, float], active: Iterable[str], skip_none: bool) -> bool:
        """Whether a float estimate beats some active target's best certified value (or
        the target has none yet): floats only rank candidates for exact evaluation.

        Args:
            est: the estimate per target (``-inf``: none).
            active: the targets still open.
            skip_none: ignore the targets whose estimate is ``-inf``.

        Returns:
            Whether to evaluate the candidate exactly.
        """
        return any(
            self.lo[t] is None or est[t] > proposal_float(self.lo[t]) * (1 - 1e-12)  # type: ignore[arg-type]
            for t in active
            if not (skip_none and est[t] == -math.inf)
        )

    def done(self, t: str, u: float) -> bool:
        """Whether a bound ``u`` closes target ``t`` (within the tolerance of its best)."""
        best = self.lo[t]
        if u == -math.inf:
            return True
        if self.below is not None:
            # deciding sup <= below: only a bound at most below closes a box (never the
            # tolerance, which could leave a law above below unseen)
            return u != math.inf and Fraction(u) <= self.below
        if best is None or u == math.inf:
            return False
        tol = Fraction(1, 10**self.aim) * max(abs(best), Fraction(1, 10**self.aim))
        return Fraction(u) <= best + tol / 4

    def close(self, t: str, u: float) -> None:
        """Record a closed bound of ``t``."""
        self.closed_hi[t] = max(self.closed_hi[t], u)

    def settle(self, upper: Upper) -> tuple[Upper | None, float]:
        """The open part of a sub-box's bounds (the closed ones recorded) and its heap key,
        minus the widest gap (the driver's ``settle``)."""
        live = {t: u for t, u in upper.items() if not self.done(t, u)}
        for t, u in upper.items():
            if t not in live:
                self.close(t, u)
        if not live:
            return None, 0.0
        return live, -max(u - proposal_float(self.lo[t] or 0) for t, u in live.items())

    def refuted(self) -> bool:
        """Whether a member is certified above ``below`` (the question is decided)."""
        return self.below is not None and any(
            v is not None and v > self.below for v in self.lo.values()
        )

    def result(self, out: Outcome[Upper], *, strict: bool) -> ClassLeakage:
        """The :class:`ClassLeakage` from the search's outcome: the point sub-boxes count
        as closed, the open and parked ones as open.

        Args:
            out: the branch and bound's outcome.
            strict: the binary search's reading: a target without any finite bound is
                open above, and a decided ``below`` question is tight; otherwise (the
                k-state search's) a target whose every bound was ``-inf`` keeps its
                members' upper end, and tight needs every sub-box closed.

        Returns:
            The :class:`ClassLeakage`.
        """
        for upper in out.points:
            for t, u in upper.items():
                self.close(t, u)
        open_hi = dict.fromkeys(self.targets, -math.inf)
        for upper in [*out.open, *out.parked]:
            for t, u in upper.items():
                open_hi[t] = max(open_hi[t], u)
        rows = []
        for t in self.targets:
            lo, hi_m = self.lo[t], self.hi_m[t]
            if lo is None:
                rows.append(ClassTarget(t, None, None))
                continue
            assert hi_m is not None
            u = max(open_hi[t], self.closed_hi[t])
            if u == math.inf or (strict and u == -math.inf):
                # no finite bound (a guard failed): the enclosure is open above
                rows.append(ClassTarget(t, Enclosed(lo, hi_m), self.law[t], open_above=True))
                continue
            hi = hi_m if u == -math.inf else max(hi_m, Fraction(u))
            rows.append(ClassTarget(t, Enclosed(lo, hi), self.law[t]))
        closed = not out.open and not out.parked and not any(r.open_above for r in rows)
        tight = closed or (strict and self.refuted())
        reason = "" if tight else ("box-limit" if out.open else "open-end")
        return ClassLeakage(tuple(rows), tight, out.boxes, reason)

    def run(
        self,
        root: Box,
        bound: Callable[[Box, Upper | None], Upper | None],
        *,
        strict: bool,
        **steer: Any,
    ) -> ClassLeakage:
        """Run the branch and bound of :mod:`pdpsym.loss.class_branch_bound` over ``root``
        with this bookkeeping (it settles the boxes, stops a decided ``below`` question)
        and the search's ``max_boxes`` and ``on_step``.

        Args:
            root: the parameter box.
            bound: each sub-box's proven upper bound per active target.
            strict: as for :meth:`result`.
            **steer: the driver's ``side`` and ``park`` (the binary search's).

        Returns:
            The :class:`ClassLeakage` (:meth:`result`).
        """
        out = branch_and_bound(
            root,
            bound,
            self.settle,
            max_boxes=self.search.max_boxes,
            on_box=self.search.on_step,
            stop=self.refuted,
            **steer,
        )
        return self.result(out, strict=strict)


__all__ = [
    "CLASS_DIGITS",
    "MEMBER_DIGITS",
    "ClassLeakage",
    "ClassQuery",
    "ClassSearch",
    "ClassTarget",
    "TargetBounds",
    "check_names",
]

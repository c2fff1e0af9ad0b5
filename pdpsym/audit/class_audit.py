"""Every notion over a finite class of laws: each member audited by today's engine
(:func:`pdpsym.audit.audit`), and per notion the sup over the members of ε, of each
δ(ε) and of ε(δ), certified, with the worst member.

A wrapper: it loops over the members and calls the one public entry point, so that the
notions and their engines stay where they are. Each member's figure is exact or a
certified enclosure; the class's sup is enclosed by ``[max lo, max hi]`` over the
members' enclosures (an unbounded figure makes the sup unbounded), and the worst member
is the first whose enclosure reaches the max's lower end (Kifer and Machanavajjhala,
TODS 2014, Definition 3.1: the guarantee must hold for every law of the class).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.audit import Audit, audit, registry
from pdpsym.core.certify import certify
from pdpsym.core.exp_sqrt_sums import Bracket, log_enclosure
from pdpsym.core.parallel import ordered_map
from pdpsym.loss.table_leakage import table_leakage
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.law_class import ModelClass

#: the digits each member's exact figure is enclosed to before the max
DIGITS = 25

Bounds = tuple[Fraction, Fraction] | None | str  # None: no figure; "inf": unbounded


def bounds_of(value: Any, ratio: tuple[Fraction, Fraction | None] | None = None) -> Bounds:
    """A member's figure as rational bounds (``"inf"`` when unbounded, None when absent).

    Args:
        value: an exact value (sympy or a core value type), a
            :class:`~pdpsym.core.exp_sqrt_sums.Bracket`, ``oo`` or None.
        ratio: for a figure given as ``e^eps`` enclosed (``lo, hi``), that enclosure.

    Returns:
        ``(lo, hi)``, ``"inf"`` or None.

    References:
        Moore, Kearfott, Cloud, Introduction to Interval Analysis (2009), Ch. 2.
    """
    if ratio is not None:
        lo, hi = ratio
        if hi is None:
            return "inf"
        return log_enclosure(lo, hi, 128)
    if value is None:
        return None
    if value is sympy.oo or (isinstance(value, sympy.Basic) and value == sympy.oo):
        return "inf"
    if isinstance(value, Bracket) and value.limit:  # an enclosure to keep as it is
        return value.lo, value.hi
    c = certify(value, DIGITS)
    return Fraction(c.enclosure[0]), Fraction(c.enclosure[1])


#: the figure's bounds enclose the sup over the class
SUP = "sup"
#: the sup over the class is at least the figure's lower end (the max over the laws
#: evaluated); no proven upper bound over the class
LOWER = "lower-bound"


@dataclass(frozen=True)
class ClassFigure:
    """One figure's sup over the members: its bounds, the worst member (an index into
    the laws evaluated) and whether the bounds enclose the sup (:data:`SUP`) or only
    bound it below (:data:`LOWER`)."""

    bounds: Bounds
    member: int | None
    status: str = SUP


def sup_of(figures: Sequence[Bounds]) -> ClassFigure:
    """The sup over the members of one figure.

    Args:
        figures: each member's bounds (:func:`bounds_of`).

    Returns:
        The :class:`ClassFigure` (``"inf"`` if any member is unbounded; None when no
        member has the figure).

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1.
    """
    if any(f == "inf" for f in figures):
        return ClassFigure("inf", next(j for j, f in enumerate(figures) if f == "inf"))
    have = [(j, f) for j, f in enumerate(figures) if isinstance(f, tuple)]
    if not have:
        return ClassFigure(None, None)
    lo = max(f[0] for _, f in have)
    hi = max(f[1] for _, f in have)
    return ClassFigure((lo, hi), next(j for j, f in have if f[1] >= lo))


@dataclass(frozen=True)
class ClassNotion:
    """A notion's sups over the class: ε, each δ(ε), and ε(δ); ``note`` says why a
    figure no law has is missing (the laws' own note, such as IBCDP's on a structured
    model)."""

    notion: str
    epsilon: ClassFigure
    delta_at_epsilon: tuple[tuple[Any, ClassFigure], ...]
    epsilon_at_delta: tuple[Fraction, ClassFigure] | None
    note: str | None = None


def audit_job(job: tuple[Any, ...]) -> Audit:
    """One law's audit (a module-level function: pickled to a worker).

    Args:
        job: ``(model, mechanism, target, known, eps, delta, notions)``.

    Returns:
        :func:`pdpsym.audit.audit`'s result.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1 (each law of the class).
    """
    model, mech, target, known, eps, delta, notions = job
    return audit(model, mech, target, known, eps, delta, notions)


def class_audit(
    cls: ModelClass,
    mechanism: Any,
    target: str,
    known: Sequence[str] = (),
    eps: Sequence[Any] = (),
    delta: Fraction | None = None,
    notions: Sequence[str] = registry.NOTIONS[:1],
    *,
    jobs: int = 1,
    on_member: Callable[[int], None] | None = None,
) -> tuple[list[ClassNotion], list[Audit]]:
    """Every notion's sup over a finite class (module docstring).

    Args:
        cls: the finite class.
        mechanism: the mechanism (one for every member: they share the records).
        target: the target record.
        known: the records the attacker knows.
        eps: the ε values at which δ is reported.
        delta: the δ at which the smallest ε is reported.
        notions: the notions (names of :data:`pdpsym.audit.notions.NOTIONS`).
        jobs: worker processes.
        on_member: progress (a member's index as it finishes).

    Returns:
        The per-notion sups and each member's own audit.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1; the notions' own references
        (:mod:`pdpsym.audit.notions`).
    """
    jobs_in = [
        (m, mechanism, target, tuple(known), list(eps), delta, list(notions)) for m in cls.members
    ]
    audits = ordered_map(audit_job, jobs_in, jobs, on_done=on_member)
    return sups_of(audits), audits


def sups_of(audits: Sequence[Audit]) -> list[ClassNotion]:
    """Per notion, the sup over several laws' audits of every figure (:func:`sup_of`).

    Args:
        audits: the laws' audits (same notions, ε values and δ).

    Returns:
        One :class:`ClassNotion` per notion; every figure has status :data:`SUP` (the
        laws are the whole class).

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1.
    """
    out = []
    for k, first in enumerate(audits[0].results):
        rows = [a.results[k] for a in audits]
        epsilon = sup_of([bounds_of(r.epsilon, r.ratio_enclosure) for r in rows])
        deltas = tuple(
            (e, sup_of([bounds_of(r.delta_at_epsilon[i][1]) for r in rows]))
            for i, (e, _, _) in enumerate(first.delta_at_epsilon)
        )
        at = None
        if first.epsilon_at_delta is not None:
            at = (
                first.epsilon_at_delta[0],
                sup_of(
                    [bounds_of(r.epsilon_at_delta[1]) if r.epsilon_at_delta else None for r in rows]
                ),
            )
        # an ε no law has: the laws' note says why (the first law's, as they agree)
        note = next((r.note for r in rows if r.note), None) if epsilon.bounds is None else None
        out.append(ClassNotion(first.notion, epsilon, deltas, at, note))
    return out


def table_class_leakage(
    cls: ModelClass,
    target: str,
    known: Sequence[str],
    lam: Fraction,
    weights: Mapping[str, Fraction] | None = None,
) -> tuple[int | None, list[Any]]:
    """Eq. 2's max over a finite class of tables (joint distributions), exactly.

    Each member by the exact table engine (:func:`pdpsym.loss.leakage.leakage`); the
    max is decided exactly between the members' closed forms.

    Args:
        cls: a finite class whose members are
            :class:`~pdpsym.models.joint.JointDistribution` tables.
        target: the target record.
        known: the records the adversary knows.
        lam: the Laplace scale (> 0).
        weights: the linear query's weights by name (default: the sum).

    Returns:
        The index of the worst member (None when no member has a compatible pair) and
        every member's :class:`~pdpsym.loss.adversary.LeakageResult`.

    References:
        Li et al. (2019), Sec. III, Eq. 2; Kifer and Machanavajjhala (2014), Definition
        3.1.
    """
    results = []
    for m in cls.members:
        query = LinearQuery({v: Fraction((weights or {}).get(v, 1)) for v in m.variables})
        results.append(table_leakage(m, target, list(known), lam, query))
    best: int | None = None
    top = None
    for j, r in enumerate(results):
        if r.value is None:
            continue
        if top is None or r.value.exact_compare(top) > 0:
            best, top = j, r.value
    return best, results


__all__ = [
    "LOWER",
    "SUP",
    "ClassFigure",
    "ClassNotion",
    "audit_job",
    "bounds_of",
    "class_audit",
    "sup_of",
    "sups_of",
    "table_class_leakage",
]

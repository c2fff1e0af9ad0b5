"""``pdpsym audit`` over a class of laws: a finite class (the max over its members), and
an interval class (an ``interval-markov-chain`` or an ``interval-product`` file): every
notion's sup over the class (or an enclosure of it) where it is certified, and otherwise a
certified lower bound, labelled so in the text and the JSON.

The engines load inside these functions, so that ``--help`` starts at once.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pdpsym.app import budget
from pdpsym.app.budget import Progress
from pdpsym.app.commands.law_class import (
    SHOWN_DIGITS,
    describe,
    describe_text,
    is_table_class,
    law_of,
    law_text,
    search_budget,
)
from pdpsym.app.output import print_json
from pdpsym.app.text import wrap
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str

#: points per parameter of the box audited exactly (its corners and centre among them)
GRID = 3
#: the figures' branch and bound: at most this many sub-boxes (fewer when --max-work
#: allows fewer), aiming at this many digits
FIGURE_BOXES = 2000
FIGURE_DIGITS = 3
#: the least work of one member's audit (steps of a microsecond: none measured is faster)
MEMBER_STEPS = 1000
#: the fewest sub-boxes of that search worth starting (refused up front below it)
MIN_FIGURE_BOXES = 16


def interval_audit_command(args: argparse.Namespace, cls: Any, ask: AuditAsk) -> int:
    """Every notion over an interval class (``pdpsym audit`` with an interval class)."""
    from pdpsym.app.audit_work import plan  # after --help, with the audit's estimates
    from pdpsym.app.commands import audit_models as structured  # after --help
    from pdpsym.audit.class_audit_boxes import bounded
    from pdpsym.audit.class_audit_interval import (
        EQ2_NOTIONS,
        interval_class_audit,
        laplace_of,
        posterior,
    )
    from pdpsym.audit.class_figure_search import steps_per_box

    spec, known, eps, delta, notions, digits = ask.parts()
    chain = cls.box_search  # an interval chain (else an interval product)
    probe = cls.member(cls.centre(cls.box())) if chain else cls.widest_member()
    mech = structured.read_mechanism(spec, probe)
    # the names first: the figures' search estimate below walks the target's position
    if args.target not in probe.variables:
        raise InputError("target", f"unknown record {args.target!r}")
    for name in known:
        if name not in probe.variables:
            raise InputError("known", f"unknown record {name!r}")
    n_laws = len(cls.audit_laws(GRID)) + 1 if chain else product_laws(cls, mech, args, ask)
    points = len(eps) + (delta is not None)
    # the figures' search and the laws' audits are estimated in microsecond steps, the
    # single-law unit: their limit is --max-work's (not the class searches' cell budget)
    limit = budget.max_work(args)
    budgets = []
    for want in (False, True):  # the hockey-stick figures' search, the posteriors' (IBCDP)
        group = [n for n in notions if bounded(n, mech) and posterior(n) is want]
        budgets.append(0)
        if chain and group and (eps or getattr(mech, "kind", None) != "laplace"):
            # one search for ε and δ(ε), and one per bounded notion for ε(δ)
            searches = 1 + (len(group) if delta is not None else 0)
            per = steps_per_box(cls, mech, args.target, known, group, len(eps)) * searches
            if MIN_FIGURE_BOXES * per > limit:
                raise InputError(
                    "--max-work",
                    f"the figures' search over the box needs about "
                    f"{float(MIN_FIGURE_BOXES * per):.1e} steps, above the limit "
                    f"{float(limit):.1e}; " + budget.runs_anyway(MIN_FIGURE_BOXES * per),
                )
            budgets[-1] = int(min(FIGURE_BOXES, limit // max(per, 1)))
    fig_boxes, post_boxes = budgets
    base = structured.RR_BASE if not hasattr(mech, "kind") else 0  # paid once, not per law
    per_law = max((limit - base) // n_laws + base, 1)
    share = argparse.Namespace(**{**vars(args), "max_work": str(per_law)})
    try:  # every law evaluated has the probe's shape: the limit is shared among them
        if chain:
            shared, own, fixed = structured.check_work(
                share, probe, mech, args.target, known, notions, points
            )
            plan(share, shared, own, True, fixed=fixed)  # the notions' own work too, together
        else:  # a member is audited for the notions whose candidates hold it
            product_work(args, cls, mech, probe, ask, n_laws)
    except InputError as err:
        if err.field != "--max-work":
            raise
        anyway = "raise --max-work to run it anyway"
        if "cannot run on this machine" in err.message:  # one law alone is over the ceiling
            anyway = budget.runs_anyway(budget.MAX_WORK_CEILING + 1)
        raise InputError(
            "--max-work",
            f"auditing the {n_laws} laws this audit evaluates needs more than the class's "
            f"limit {float(limit):.1e} steps; {anyway}",
        ) from None
    searched = laplace_of(mech) is not None and any(n in EQ2_NOTIONS for n in notions)
    max_boxes = search_budget(args, cls, 1, known) if searched and chain else 0
    total = max_boxes + n_laws + fig_boxes + post_boxes
    with Progress(total, "steps", enabled=args.progress, delay=2.0) as bar:
        res = interval_class_audit(
            cls,
            *(mech, args.target, known, eps, delta, notions),
            grid=GRID,
            max_boxes=max(max_boxes, 1),
            figure_boxes=max(fig_boxes, 1),
            posterior_boxes=max(post_boxes, 1),
            digits=FIGURE_DIGITS,
            on_step=lambda _i: bar.update(1),
        )
    digits = min(digits, SHOWN_DIGITS)
    laws = res.laws

    def fig(f: Any) -> Any:
        return _figure(cls, laws, f, digits)

    payload: dict[str, Any] = {
        "class": describe(cls),
        "target": args.target,
        "known": list(known),
        "laws_evaluated": len(laws),
        "figures_search": _search_payload(res.boxes),
        "posterior_search": _search_payload(res.posterior_boxes),
        "search": None
        if res.search is None
        else {
            "tight": res.search.tight,
            "not_tight_because": res.search.reason or None,
            "boxes": res.search.boxes,
        },
        "notions": _notions_payload(res.notions, fig),
    }
    if args.json:
        print_json(payload)
        return 0
    lines = [
        f"audit over {describe_text(cls)}",
        f"target {args.target}, known {{{', '.join(known)}}}",
        (
            f"{len(laws)} laws evaluated exactly ("
            + (
                "the polytopes' vertices and a member inside"
                if cls.clipped
                else "the box's grid, corners and centre among them"
            )
            + (", and the Eq. 2 search's worst law)" if res.search is not None else ")")
        )
        if chain
        else f"{len(laws)} members evaluated exactly (the widest and the rows' vertices: where "
        "each sup is attained)",
        "sup: the figure encloses the sup over the class; at least: only a certified lower",
        "bound of it (the max over the laws evaluated; no proven bound over the whole box)",
    ]
    for label, found in (("figures'", res.boxes), ("posteriors'", res.posterior_boxes)):
        if found is not None:
            closed = all(f.tight for f in found.figures)
            lines.append(
                f"{label} search: {found.boxes} boxes, "
                + (
                    f"sup to {FIGURE_DIGITS} digits"
                    if closed
                    else "not tight (the box budget): an enclosure of the sup"
                )
            )
    if res.search is not None and res.search.boxes:
        state = "every box closed" if res.search.tight else "not tight (--max-work)"
        lines.append(f"Eq. 2 search: {res.search.boxes} boxes, {state}")
    for name, n in payload["notions"].items():
        lines.append(f"\n{name}:")
        lines += _shown("epsilon (delta = 0)", n["epsilon"])
        for d in n["delta_at_epsilon"]:
            lines += _shown(f"delta at epsilon {d['eps']}", d["delta"])
        if n["epsilon_at_delta"] is not None:
            at = n["epsilon_at_delta"]
            lines += _shown(f"epsilon at delta {at['delta']}", at["epsilon"])
        if "note" in n:
            lines.append(wrap(f"  note: {n['note']}"))
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _search_payload(found: Any) -> dict[str, Any] | None:
    """A figures' search as JSON: its sub-boxes, whether every one closed, the digits."""
    if found is None:
        return None
    return {
        "boxes": found.boxes,
        "tight": all(f.tight for f in found.figures),
        "digits": FIGURE_DIGITS,
    }


def _notions_payload(rows: Any, fig: Any) -> dict[str, Any]:
    """Every notion's figures as JSON (``fig`` renders one figure): ε, each δ(ε), ε(δ)."""
    return {
        r.notion: {
            "epsilon": fig(r.epsilon),
            "delta_at_epsilon": [{"eps": str(e), "delta": fig(f)} for e, f in r.delta_at_epsilon],
            "epsilon_at_delta": None
            if r.epsilon_at_delta is None
            else {
                "delta": fraction_str(r.epsilon_at_delta[0]),
                "epsilon": fig(r.epsilon_at_delta[1]),
            },
            # why ε is missing, when it is (a figure found over the boxes needs no note)
            **({"note": r.note} if r.note and r.epsilon.bounds is None else {}),
        }
        for r in rows
    }


def _figure(cls: Any, laws: Any, f: Any, digits: int) -> Any:
    """A figure as JSON: its status (sup or lower-bound), certified digits, ends and
    worst law."""
    from pdpsym.core.decimals import decimal_string, enclosure_decimal  # after --help

    if f.bounds is None:
        return None
    law = laws[f.member] if f.member is not None else None
    worst = law_of(cls, law) if isinstance(law, tuple) else "widest member"
    text = law_text(cls, law) if isinstance(law, tuple) else "the widest member"
    if isinstance(law, tuple) and not isinstance(law[0], Fraction):  # a product's member
        worst, text = product_law(cls, law)
    if f.bounds == "inf":
        return {"value": "infinite", "status": f.status, "worst_law": worst, "law_text": text}
    lo, hi = f.bounds
    if f.status == "enclosure-unbounded":  # the sup's proven upper end is infinite
        low = decimal_string(lo, digits + 3, "down")
        return {
            "status": f.status,
            "decimal": None,
            "enclosure": [low, "infinity"],
            "worst_law": worst,
            "law_text": text,
        }
    dec, _ = enclosure_decimal(lo, hi, digits)
    return {
        "status": f.status,
        "decimal": dec,
        "enclosure": [decimal_string(lo, digits + 3, "down"), decimal_string(hi, digits + 3, "up")],
        "worst_law": worst,
        "law_text": text,
    }


def product_laws(cls: Any, mech: Any, args: argparse.Namespace, ask: AuditAsk) -> int:
    """How many members an interval product's audit evaluates (refused up front, naming
    --max-work, when even at a millisecond each they would pass the limit)."""
    from pdpsym.audit.class_audit_product import notion_laws, union_count  # after --help

    n = union_count(cls, mech, args.target, ask.known, ask.notions)
    if n * MEMBER_STEPS > budget.max_work(args):
        raise InputError(
            "--max-work",
            f"the interval product's audit evaluates up to {n:.3e} candidate members (the "
            f"rows' vertices), at least {float(n * MEMBER_STEPS):.1e} steps, above the limit "
            f"{float(budget.max_work(args)):.1e}; raise --max-work to run it anyway",
        )
    return len(notion_laws(cls, mech, args.target, ask.known, ask.notions)[0])


def product_work(
    args: argparse.Namespace, cls: Any, mech: Any, probe: Any, ask: AuditAsk, n_laws: int
) -> None:
    """Refuse (naming --max-work) an interval product's audit whose members' work would
    pass the limit: each member's shared part, and each notion's own part once per member
    of its candidates (the widest member's estimates, every member having its shape)."""
    from pdpsym.app import product_audit_work as product  # after --help
    from pdpsym.app.audit_work import plan  # after --help, with the audit's estimates
    from pdpsym.app.commands import audit_models as structured  # after --help
    from pdpsym.audit.class_audit_product import candidate_count  # after --help

    _, known, eps, delta, notions, _ = ask.parts()
    free = argparse.Namespace(**{**vars(args), "max_work": str(10**18)})
    points = len(eps) + (delta is not None)
    shared, own, fixed = structured.check_work(
        free, probe, mech, args.target, known, notions, points
    )
    plan(free, shared, own, True, fixed=fixed)  # the notions no limit runs
    counts = {n: candidate_count(cls, mech, args.target, known, [n]) + 1 for n in notions}
    # the audit's start (product.BASE: reading the files, the output) is paid once
    # (randomized response's own base, structured.RR_BASE, when it is the mechanism)
    base = structured.RR_BASE if not hasattr(mech, "kind") else product.BASE
    per_law = max(shared - base, 0) if product.is_product(probe) else shared
    total = shared + (n_laws - 1) * per_law + sum(counts[n] * own.get(n, 0) for n in notions)
    if total > budget.max_work(args):
        raise InputError("--max-work", f"about {total:.1e} steps")


def product_law(cls: Any, law: Any) -> tuple[Any, str]:
    """An interval product's member as JSON and on one line (the records whose law is not
    the widest member's; a probability of a long denominator shown to 6 digits, ~)."""
    from pdpsym.audit.class_audit_product import product_law_json, widest_law  # after --help

    def prob(p: Fraction) -> str:
        return fraction_str(p) if p.denominator <= 1000 else f"~{float(p):.6f}"

    moved = [
        f"{name} ({', '.join(prob(p) for p in ps)})"
        for name, ps, row in zip(cls.variables, law, cls.rows, strict=True)
        if ps != widest_law(row)
    ]
    if not moved:
        return product_law_json(cls, law), "the member of largest support (the widest)"
    shown: list[str] = []
    for item in moved:
        if len(", ".join([*shown, item])) > 48:
            return product_law_json(cls, law), (
                "the widest member but " + ", ".join(shown) + ", ... (--json has every record)"
            )
        shown.append(item)
    return product_law_json(cls, law), "the widest member but " + ", ".join(shown)


def _shown(label: str, f: Any) -> list[str]:
    """A figure's lines: the sup's digits and enclosure, or 'at least' its lower end; the
    worst law on the next line."""
    if f is None:
        return [f"  {label}: -"]
    if f.get("value") == "infinite":
        head = f"  {label}: infinite"
    elif f["status"] == "lower-bound":
        head = f"  {label}: at least {f['enclosure'][0]} (a lower bound)"
    elif f["status"] == "enclosure":
        lo, hi = f["enclosure"]
        head = f"  {label}: in [{lo}, {hi}] (an enclosure of the sup, not to the digits)"
    elif f["status"] == "enclosure-unbounded":  # the law-free bound (dp's) is infinite
        head = f"  {label}: in [{f['enclosure'][0]}, infinity) (an enclosure of the sup: dp is infinite)"
    else:
        lo, hi = f["enclosure"]
        head = f"  {label}: {f['decimal']} (sup, in [{lo}, {hi}])"
    return [head, f"    worst law: {f['law_text']}"]


def _member_figure(fig: Any, digits: int) -> Any:
    """A class figure as JSON: its certified digits and ends, and the worst member."""
    from pdpsym.core.decimals import decimal_string, enclosure_decimal  # after --help

    if fig.bounds is None:
        return None
    if fig.bounds == "inf":
        return {"value": "infinite", "worst_member": fig.member}
    lo, hi = fig.bounds
    dec, _ = enclosure_decimal(lo, hi, digits)
    return {
        "decimal": dec,
        "enclosure": [decimal_string(lo, digits + 3, "down"), decimal_string(hi, digits + 3, "up")],
        "worst_member": fig.member,
    }


@dataclass(frozen=True)
class AuditAsk:
    """What ``pdpsym audit`` was asked, parsed: the mechanism file's object, the known
    records, the ε values, δ (or None), the notions and the digits."""

    spec: Any
    known: list[str]
    eps: list[Any]
    delta: Any
    notions: list[str]
    digits: int

    def parts(self) -> tuple[Any, list[str], list[Any], Any, list[str], int]:
        """``(spec, known, eps, delta, notions, digits)``."""
        return self.spec, self.known, self.eps, self.delta, self.notions, self.digits


def class_audit_command(args: argparse.Namespace, ask: AuditAsk) -> int:
    """Every notion's sup over a class (``pdpsym audit`` with a class file); an interval
    class goes to :mod:`pdpsym.app.commands.law_class_audit`."""
    from pdpsym.app.commands import audit_models as structured  # after --help
    from pdpsym.app.readers import load_law_class
    from pdpsym.audit.class_audit import class_audit
    from pdpsym.models.law_class import ModelClass

    spec, known, eps, delta, notions, digits = ask.parts()
    cls = load_law_class(args.model)
    if args.curve is not None:
        raise InputError("--curve", "a class's audit writes no curve (give one member)")
    if args.ddp_reading is not None:
        raise InputError("--ddp-reading", "a class's audit takes the default reading")
    points = len(eps) + (delta is not None)
    if not isinstance(cls, ModelClass):
        return interval_audit_command(args, cls, ask)
    if is_table_class(cls):
        from pdpsym.app.audit_work import check_work, number_bits
        from pdpsym.app.commands.mechanism_files import read_mechanism  # after --help

        mech = read_mechanism(args.mechanism, cls.members[0])
        size = max(number_bits(spec), number_bits(args.delta))
        for m in cls.members:
            check_work(args, m, notions, size, spec, points)
    else:
        mech = structured.read_mechanism(spec, cls.members[0])
        from pdpsym.app.audit_work import plan  # after --help, with the audit's estimates

        for m in cls.members:  # each member's shared work and its notions' own, together
            shared, own, fixed = structured.check_work(
                args, m, mech, args.target, known, notions, points
            )
            plan(args, shared, own, True, fixed=fixed)
    with Progress(len(cls.members), "members", enabled=args.progress, delay=2.0) as bar:
        rows, _ = class_audit(
            cls,
            *(mech, args.target, known, eps, delta, notions),
            jobs=1,
            on_member=lambda _i: bar.update(1),
        )
    digits = min(digits, SHOWN_DIGITS)
    payload = {
        "class": describe(cls),
        "target": args.target,
        "known": list(known),
        "notions": _notions_payload(rows, lambda f: _member_figure(f, digits)),
    }
    if args.json:
        print_json(payload)
        return 0

    def shown(f: Any) -> str:
        if f is None:
            return "-"
        if f.get("value") == "infinite":
            return f"infinite (members[{f['worst_member']}])"
        lo, hi = f["enclosure"]
        return f"{f['decimal']} (in [{lo}, {hi}]; members[{f['worst_member']}])"

    lines = [
        f"audit over {describe_text(cls)}: target {args.target}, known {{{', '.join(known)}}}",
        "each figure is the sup over the members (the worst member in brackets)",
    ]
    for name, n in payload["notions"].items():  # type: ignore[union-attr]
        lines.append(f"\n{name}:")
        lines.append(f"  epsilon (delta = 0): {shown(n['epsilon'])}")
        for d in n["delta_at_epsilon"]:
            lines.append(f"  delta at epsilon {d['eps']}: {shown(d['delta'])}")
        if n["epsilon_at_delta"] is not None:
            at = n["epsilon_at_delta"]
            lines.append(f"  epsilon at delta {at['delta']}: {shown(at['epsilon'])}")
        if "note" in n:
            lines.append(wrap(f"  note: {n['note']}"))
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


__all__ = ["GRID", "AuditAsk", "class_audit_command", "interval_audit_command"]

"""``pdpsym leakage`` and ``pdpsym calibrate`` over a class of laws (a ``model-class``, an
``interval-markov-chain`` or an ``interval-product`` file): the sup over the class,
certified, with the worst law.

The engines load inside these functions, so that ``--help`` starts at once.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from typing import Any

from pdpsym.app import budget, options
from pdpsym.app.budget import Progress
from pdpsym.app.output import baseline_line, number_text, print_json
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str

#: the fewest boxes an interval search is allowed before it is refused (naming
#: --max-work): no search measured closed in fewer (37 to 127 boxes at 6 digits)
MIN_BOXES = 16
#: a class's default work limit (without --max-work): a class is many laws, so ten times
#: a single law's default, about a minute of CPU at the engines' measured 3 * 10^7 steps
#: a second (a search to 6 digits over a 2-parameter box at T = 100, every target, needs
#: about 69 boxes of 2 * 10^6 steps; 20 chains of T = 1,000 calibrated, 1.4 * 10^9)
CLASS_MAX_WORK = 20 * budget.DEFAULT_MAX_WORK
#: the most digits a class's enclosures are printed with (the interval search aims at 6)
SHOWN_DIGITS = 10


def describe(cls: Any) -> dict[str, Any]:
    """The class, in a few fields: its kind and size (members or parameter box)."""
    from pdpsym.models.law_class import ModelClass  # after --help

    if isinstance(cls, ModelClass):
        return {"kind": "model-class", "members": len(cls.members)}
    if cls.box_search:
        out: dict[str, Any] = {
            "kind": "interval-markov-chain",
            "box": [[fraction_str(a), fraction_str(b)] for a, b in cls.box()],
        }
        if cls.clipped:
            out["states"] = cls.k
        return out
    return {"kind": "interval-product", "records": len(cls.variables)}


def law_of(cls: Any, law: Any) -> Any:
    """The worst law as JSON: a member's index, or the member chain's object."""
    if law is None:
        return None
    if cls.box_search:
        return cls.law_json(law)
    return {"member": law}


def law_text(cls: Any, law: Any) -> str:
    """The worst law on one line."""
    from pdpsym.models.law_class import ModelClass  # after --help

    if law is None:
        return "-"
    if isinstance(cls, ModelClass):
        return f"members[{law}]"
    if cls.box_search:
        obj = cls.law_json(law)
        rows = "; ".join(", ".join(r) for r in obj["transition"])
        init = obj["initial"] if isinstance(obj["initial"], str) else ", ".join(obj["initial"])
        return f"transition [{rows}], initial {init}"
    return "the member of largest support (every value with a positive upper end)"


def class_limit(args: argparse.Namespace) -> int:
    """The work limit of a class: ``--max-work`` when given, else :data:`CLASS_MAX_WORK`."""
    if getattr(args, "max_work", None) is None:
        return CLASS_MAX_WORK
    return budget.max_work(args)


def search_budget(
    args: argparse.Namespace, cls: Any, n_targets: int, known: list[str], passes: int = 1
) -> int:
    """The interval search's box limit from the class's work limit (refused up front
    when even MIN_BOXES boxes exceed it); a finite class's members are checked against
    the limit together (``passes``: the command's work in units of one all-targets
    leakage pass, 6 for a calibration)."""
    from pdpsym.loss.class_search import class_work  # after --help

    per = class_work(cls, n_targets, known)
    limit = class_limit(args)
    search = cls.box_search
    need = MIN_BOXES * per if search else passes * per
    if need > limit:
        what = "this search over the class" if search else "the members"
        raise InputError(
            "--max-work",
            f"{what} needs about {float(need):.1e} steps, above the limit {float(limit):.1e}; "
            + budget.runs_anyway(need),
        )
    if search:
        return max(MIN_BOXES, limit // max(per, 1))
    return 0


def _steps(cls: Any, max_boxes: int) -> int:
    """The progress bar's total: the search's boxes, or the members."""
    members = getattr(cls, "members", None)
    return len(members) if members is not None else max(max_boxes, 1)


def class_leakage_command(args: argparse.Namespace, cls: Any) -> int:
    """Eq. 2's sup over the class, for ``--target`` or ``--all-targets``."""
    from pdpsym.loss.class_search import class_leakage  # after --help
    from pdpsym.mechanisms.laplace import parse_lambda

    if getattr(args, "all", False):
        raise InputError("--all", "a class takes --target or --all-targets")
    if ":" in str(args.lam):
        raise InputError("--lam", "a sweep is for table models; give one scale")
    digits = min(options.digits(args.digits), SHOWN_DIGITS)
    lam = parse_lambda(args.lam)
    known = options.names(args.known)
    weights = options.integer_weights(args.weights)
    options.target_or_all(args)
    if is_table_class(cls):
        return _table_leakage(args, cls, lam, known, digits)
    targets = (
        [v for v in cls.variables if v not in set(known)] if args.all_targets else [args.target]
    )
    max_boxes = search_budget(args, cls, len(targets), known)
    with Progress(_steps(cls, max_boxes), "steps", delay=1.0) as bar:
        res = class_leakage(
            cls,
            targets,
            known,
            lam,
            weights,
            digits=digits,
            jobs=options.jobs(args),
            max_boxes=max(max_boxes, 1),
            on_step=lambda _i: bar.update(1),
            scheduler=getattr(args, "scheduler", None),
        )
    worst = res.worst()
    payload: dict[str, Any] = {
        "class": describe(cls),
        "lam": fraction_str(lam),
        "known": list(known),
        "tight": res.tight,
        "not_tight_because": res.reason or None,
        "boxes": res.boxes,
        "targets": [
            {
                "target": t.target,
                "value": _value_json(t, digits),
                "worst_law": law_of(cls, t.law),
            }
            for t in res.targets
        ],
        "max": None,
    }
    mx = res.max_value()
    if worst is not None and mx is not None:
        opened = any(t.open_above for t in res.targets)
        payload["max"] = {
            "target": worst.target,
            "value": _value_json(replace(worst, value=mx, open_above=opened), digits),
            "worst_law": law_of(cls, worst.law),
        }
    if args.json:
        print_json(payload)
        return 0
    lines = [f"class: {describe_text(cls)}", f"lambda: {fraction_str(lam)}"]
    lines.append(f"known: {{{', '.join(known)}}}")
    for t in payload["targets"]:
        v = t["value"]
        shown = (
            "-"
            if v is None
            else f"{v['decimal'] or 'at least'}  [{v['enclosure'][0]}, {v['enclosure'][1]}]"
        )
        lines.append(f"{t['target']}: {shown}")
    if payload["max"] is not None and worst is not None:
        m = payload["max"]["value"]
        lines.append(
            f"sup over the class: {m['decimal'] or 'at least'}  "
            f"[{m['enclosure'][0]}, {m['enclosure'][1]}]"
            f" (target {worst.target})"
        )
        lines.append(f"worst law: {law_text(cls, worst.law)}")
    if res.reason == "box-limit":
        lines.append(
            f"not tight: the search stopped after {res.boxes} boxes (--max-work); the "
            "enclosure holds but does not fix the digits asked for"
        )
    elif res.reason == "open-end":
        lines.append(
            "not tight: near an end 0 or 1 of a row (where a state becomes impossible) the "
            "search finds no finite bound; the lower end holds"
        )
    elif res.boxes:
        lines.append(f"search: {res.boxes} boxes, every one closed")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _value_json(t: Any, digits: int) -> dict[str, Any] | None:
    """A target's enclosure; with no finite upper bound, ``[lo, inf)`` (the lower end)."""
    if t.value is None:
        return None
    if t.open_above:
        lo = t.value.lo
        from pdpsym.core.decimals import decimal_string  # after --help

        return {"decimal": None, "enclosure": [decimal_string(lo, digits, "down"), "inf"]}
    out: dict[str, Any] = t.value.as_json(digits)
    return out


def is_table_class(cls: Any) -> bool:
    """Whether the class's members are tables (joint distributions)."""
    from pdpsym.models.model_objects import is_table  # after --help

    members: tuple[Any, ...] = getattr(cls, "members", ())
    return bool(members) and is_table(members[0])


def _table_leakage(
    args: argparse.Namespace, cls: Any, lam: Fraction, known: list[str], digits: int
) -> int:
    """Eq. 2's max over a class of tables, exactly (``--target`` only)."""
    from pdpsym.audit.class_audit import table_class_leakage  # after --help
    from pdpsym.loss.table_leakage import leakage_work

    if args.all_targets:
        raise InputError("--all-targets", "a class of tables takes one --target")
    from pdpsym.mechanisms.laplace import LinearQuery

    weights = options.weights(args.weights) if args.weights else None
    for name in weights or {}:
        if name not in cls.variables:
            raise InputError("--weights", f"unknown record {name!r}")
    work = sum(
        leakage_work(
            m,
            args.target,
            known,
            LinearQuery({v: (weights or {}).get(v, Fraction(1)) for v in m.variables}),
        )
        for m in cls.members
    )
    budget.check(args, work, "Eq. 2 for every member")
    best, results = table_class_leakage(cls, args.target, known, lam, weights)
    payload: dict[str, Any] = {
        "class": describe(cls),
        "target": args.target,
        "known": list(known),
        "lam": fraction_str(lam),
        "tight": True,
        "value": None,
        "worst_law": None,
        "members": [r.as_json(digits)["value"] for r in results],
    }
    if best is not None:
        payload["value"] = results[best].as_json(digits)["value"]
        payload["worst_law"] = {"member": best}
        payload["witness"] = results[best].as_json(digits)["witness"]
    if args.json:
        print_json(payload)
        return 0
    lines = [
        f"class: {describe_text(cls)}",
        f"adversary: A({args.target}, {{{', '.join(known)}}})",
        f"lambda: {fraction_str(lam)}",
    ]
    if best is None:
        lines.append("status: no-compatible-pair (in every member)")
    else:
        v = payload["value"]
        lines += [
            f"sup over the class (exact): {number_text(v['exact'])}",
            f"sup over the class: {v['decimal']}  [{v['enclosure'][0]}, {v['enclosure'][1]}]",
            f"worst law: members[{best}]",
        ]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def describe_text(cls: Any) -> str:
    """The class on one line."""
    d = describe(cls)
    if d["kind"] == "model-class":
        return f"model-class of {d['members']} members"
    if d["kind"] == "interval-markov-chain" and "states" in d:
        wide = sum(a != b for a, b in d["box"])
        return (
            f"interval-markov-chain of {d['states']} states, {len(d['box'])} free coordinates "
            f"P[s][0..{d['states'] - 2}] (and the initial law's), {wide} of positive width"
        )
    if d["kind"] == "interval-markov-chain":
        box = ", ".join(f"[{a}, {b}]" for a, b in d["box"])
        return f"interval-markov-chain, parameters P[s][1] (and P(x1 = 1)) in {box}"
    return f"interval-product of {d['records']} records"


@contextlib.contextmanager
def _box_limit() -> Iterator[None]:
    """The library's box limit is the command's --max-work."""
    try:
        yield
    except InputError as err:
        if err.field == "max_boxes":
            raise InputError("--max-work", f"{err.message}; raise --max-work") from None
        raise


def class_calibrate_command(args: argparse.Namespace, cls: Any) -> int:
    """The smallest scale meeting ``--eps`` for every law of the class, with baselines."""
    from pdpsym.audit.calibrate import Goal  # after --help
    from pdpsym.audit.class_calibrate import class_calibrate
    from pdpsym.core.numbers import parse_positive

    if is_table_class(cls):  # as for one table: calibrate is for structured models
        raise InputError(
            "MODEL",
            "calibrate needs structured members (markov-chain, product or bayesian-network); "
            "a class of tables has leakage --target and audit",
        )
    eps = parse_positive(args.eps, "--eps")
    digits = min(options.digits(args.digits), SHOWN_DIGITS)
    known = options.names(args.known)
    targets = [args.target] if args.target else None
    n = 1 if args.target else len(cls.variables) - len(known)
    if cls.clipped:  # an interval chain of more than two states
        return _k_calibrate(args, cls, Fraction(eps), digits, known, targets, n)
    max_boxes = search_budget(args, cls, n, known, budget.CALIBRATION_PASSES)
    with Progress(_steps(cls, max_boxes), "steps", delay=1.0) as bar, _box_limit():
        weights = options.integer_weights(args.weights)
        cal = class_calibrate(
            cls,
            Goal(Fraction(eps), args.mechanism, known, targets, weights),
            baselines=not args.no_baselines,
            jobs=options.jobs(args),
            max_boxes=max(max_boxes, 1),
            on_step=lambda _i: bar.update(1),
            scheduler=getattr(args, "scheduler", None),
        )
    return _calibration_out(args, cls, cal, digits)


def _k_calibrate(
    args: argparse.Namespace,
    cls: Any,
    eps: Fraction,
    digits: int,
    known: list[str],
    targets: list[str] | None,
    n: int,
) -> int:
    """``calibrate`` over an interval chain of more than two states: the members'
    calibrations and the search's boxes are checked against the limit together."""
    from pdpsym.audit.calibrate import Goal  # after --help
    from pdpsym.audit.class_calibrate import class_calibrate, k_members_work

    if args.mechanism != "laplace":
        raise InputError("--mechanism", "more than two states are calibrated for laplace")
    members, per = k_members_work(cls, n, known, budget.CALIBRATION_PASSES)
    limit = class_limit(args)
    if members + MIN_BOXES * per > limit:
        raise InputError(
            "--max-work",
            f"this calibration over the class needs about {float(members + MIN_BOXES * per):.1e}"
            f" steps, above the limit {float(limit):.1e}; "
            + budget.runs_anyway(members + MIN_BOXES * per),
        )
    max_boxes = max(MIN_BOXES, (limit - members) // max(per, 1))
    with Progress(max_boxes, "steps", delay=1.0) as bar, _box_limit():
        weights = options.integer_weights(args.weights)
        cal = class_calibrate(
            cls,
            Goal(eps, "laplace", known, targets, weights),
            baselines=not args.no_baselines,
            digits=digits,
            max_boxes=max_boxes,
            on_step=lambda _i: bar.update(1),
        )
    return _calibration_out(args, cls, cal, digits)


def _calibration_out(args: argparse.Namespace, cls: Any, cal: Any, digits: int) -> int:
    """The class calibration as JSON or text."""
    out = {"class": describe(cls), **cal.as_json(digits)}
    if args.json:
        print_json(out)
        return 0
    s = out["scale"]
    lines = [
        f"class: {describe_text(cls)}",
        f"eps: {out['eps']}   mechanism: {out['mechanism']}",
        f"smallest scale for every law: {s['decimal']}  [{s['enclosure'][0]}, {s['enclosure'][1]}]",
        f"worst law: {law_text(cls, cal.law)} (worst target {out['worst_target']})",
    ]
    if not cal.tight:
        lines.append("not tight: the search's box limit (--max-work) widened the enclosure")
    for b in out["baselines"]:
        lines.append(baseline_line(b, "at the worst law"))
        if b.get("applicable") is not False:
            # a long note (a k-state chain's MQM labels) wrapped under 120 characters
            lines.append(
                textwrap.fill(f"({b['note']})", 118, initial_indent="  ", subsequent_indent="   ")
            )
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


__all__ = [
    "is_table_class",
    "CLASS_MAX_WORK",
    "class_calibrate_command",
    "class_leakage_command",
    "class_limit",
    "describe",
    "describe_text",
    "law_of",
    "law_text",
    "search_budget",
]

"""``pdpsym leakage`` for structured models (Markov chains, independent records)."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Any

from pdpsym.app import budget, options
from pdpsym.app.budget import Progress
from pdpsym.app.output import print_json, short_enclosure
from pdpsym.app.text import exact_form
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str
from pdpsym.loss.count_leakage import leakage_max, structured_leakage
from pdpsym.loss.count_leakage_work import TargetPlan, assignment_count, leakage_work, target_plan
from pdpsym.mechanisms.laplace import parse_lambda
from pdpsym.models import counts
from pdpsym.models.counts import CountModel
from pdpsym.models.model_objects import network_of


def _value(v: dict[str, Any] | None) -> str:
    if v is None:
        return "-"
    if "reason" in v:  # decided by the graph, not computed
        return f"{v['exact']} (exact: {v['reason']})"
    return f"{v['decimal']}  {short_enclosure(*v['enclosure'])}"


def structured_leakage_command(args: argparse.Namespace, model: CountModel) -> int:
    """Eq. 2 for one target (``--target``) or every target (``--all-targets``)."""
    if getattr(args, "all", False):
        raise InputError("--all", "structured models take --all-targets (every A(i, K) is 2^n)")
    if ":" in str(args.lam):
        raise InputError("--lam", "a sweep is for table models; give one scale")
    digits = options.digits(args.digits)
    lam = parse_lambda(args.lam)
    known = options.names(args.known)
    weights = options.integer_weights(args.weights)
    options.target_or_all(args)
    n_targets = counts.record_count(model) - len(known) if args.all_targets else 1
    histogram = getattr(args, "query", "sum") == "histogram"
    if histogram and weights is not None:
        raise InputError("--weights", "the histogram query takes no weights")
    if histogram:
        # imported here: the histogram engine's modules load only for --query histogram
        from pdpsym.loss import histogram as engine  # noqa: PLC0415
    # the limit is checked from the model's shape, before its records are even listed
    what = "this Eq. 2 dynamic programme"
    total = (n_targets if args.all_targets else 1) * assignment_count(model, known)
    label = "targets"
    network = network_of(model)
    plan: TargetPlan | None = None
    if network is not None and not histogram:
        # a network's graph passes load with the first network (a chain never needs them)
        from pdpsym.models.bayesnet_vacuous import without_vacuous
        from pdpsym.models.bayesnet_zeros import zero_plan

        declared = network.nodes
        network = without_vacuous(network)  # the same law; edges its tables ignore dropped
        for name in known:
            network.index(name, "known")
        if not args.all_targets:
            network.index(args.target, "target")
        asked = [v for v in network.variables if v not in known]
        if not args.all_targets:
            asked = [args.target]
        # the targets computed: those d-separated from the query and settled by the graph
        # are not (their leakage is exactly 0), so the estimate leaves them out too
        found = zero_plan(network, asked, known, weights, graph=declared, averaged=False)
        plan = target_plan(network, found, budget.max_work(args))
        chosen = list(plan.computed)
        n_targets = len(chosen)
        tree = network.targets_work(known, weights, chosen)
        what = f"the junction tree (induced width {tree.width})"
        if args.all_targets:
            what = f"every target at once (a junction tree of induced width {tree.width})"
        total, label = 2 * len(tree.order) * assignment_count(model, known), "cliques"
        model = dataclasses.replace(network, max_work=budget.max_work(args))
        work = leakage_work(model, n_targets, known, chosen, weights)
        if plan.per_target:  # each target on its own, smaller tree
            what = f"each target on its own junction tree (induced width up to {plan.width})"
            total, label, work = n_targets * assignment_count(model, known), "targets", plan.work
    else:
        work = (engine.histogram_work if histogram else leakage_work)(model, n_targets, known)
    budget.check(args, work, what)
    targets = (
        [v for v in model.variables if v not in set(known)] if args.all_targets else [args.target]
    )
    with Progress(total, label, delay=2.0) as bar:
        if histogram:
            results = engine.histogram_leakage(
                model, targets, known, lam, digits=digits, on_target=lambda _n: bar.update(1)
            )
        else:
            results = structured_leakage(
                model,
                targets,
                known,
                lam,
                weights,
                digits=digits,
                exact=not args.all_targets,
                on_target=None if label == "cliques" else lambda _name: bar.update(1),
                on_step=None if label != "cliques" else lambda _done, _total: bar.update(1),
                plan=plan,
            )
    head: dict[str, Any] = {"lam": fraction_str(lam), "known": list(known)}
    if histogram:
        head["query"] = "histogram"
    if not args.all_targets:
        r = results[0]
        out: dict[str, Any] = {"target": r.target, **head, "status": r.status, "value": None}
        if r.value is not None:
            out["value"] = r.value.as_json(digits)
        if args.json:
            print_json(out)
            return 0
        lines = [
            f"adversary: A({r.target}, {{{', '.join(known)}}})",
            f"lambda: {fraction_str(lam)}",
            f"status: {r.status}",
        ]
        if out["value"] is not None:
            v = out["value"]
            if "exact" in v:
                lines.append(f"leakage (exact): {exact_form(v['exact'])}")
            lines += [
                f"leakage: {v['decimal']}",
                f"enclosure: [{v['enclosure'][0]}, {v['enclosure'][1]}]",
            ]
        sys.stdout.write("\n".join(lines) + "\n")
        return 0
    best = leakage_max(results)
    payload: dict[str, Any] = {
        **head,
        "targets": [
            {"target": r.target, "value": r.value.as_json(digits) if r.value is not None else None}
            for r in results
        ],
        "max": None,
    }
    if best is not None:
        payload["max"] = {
            "target": best.target,
            "value": best.value.as_json(digits),
            "ties": list(best.ties),
        }
    if args.json:
        print_json(payload)
        return 0
    lines = [f"lambda: {fraction_str(lam)}", f"known: {{{', '.join(known)}}}"]
    lines += [f"{t['target']}: {_value(t['value'])}" for t in payload["targets"]]
    if best is not None:
        m = payload["max"]
        others = [t for t in best.ties if t != best.target]
        names = ", ".join(others[:5]) + (f" and {len(others) - 5} more" if len(others) > 5 else "")
        more = f" (within the enclosures, ties with {names})" if others else ""
        lines.append(f"max: {m['target']}{more}: {_value(m['value'])}")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0

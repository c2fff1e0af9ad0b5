"""``pdpsym calibrate``: the smallest noise scale meeting eps for every target, certified,
next to group DP and the Markov Quilt Mechanism."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Any

from pdpsym.app import budget, options
from pdpsym.app.budget import Progress
from pdpsym.app.output import baseline_line, print_json
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_positive


def register(sub: Any) -> None:
    p = sub.add_parser(
        "calibrate",
        help="smallest noise scale meeting eps for a correlated model, next to MQM and group DP",
        description="The smallest Laplace (or geometric) scale at which every target's Eq. 2 "
        "leakage, given the known records, is at most EPS: a certified enclosure [lo, hi] with "
        "hi - lo <= 1e-12 hi, and the worst target. Next to it, group DP's and the Markov Quilt "
        "Mechanism's (MQMExact and MQMApprox, chains) scales with the certified leakage they actually give. "
        "A class of laws (model-class, interval-markov-chain, interval-product) gives the smallest "
        "scale for every law of the class and the worst law, e.g. `pdpsym calibrate "
        "docs/examples/estimated-chain.json --eps 1` (docs/uncertain-laws.md).",
    )
    p.add_argument(
        "model",
        metavar="MODEL",
        help='structured model file ("kind": markov-chain, product or bayesian-network) or a '
        ".bif Bayesian network",
    )
    p.add_argument("--eps", required=True, help="the leakage bound eps > 0 (exact: 1, 1/2, 0.5)")
    p.add_argument("--mechanism", default="laplace", help="laplace (default) or geometric")
    p.add_argument("--known", default="", help="comma-separated records the adversary knows")
    p.add_argument("--target", default=None, help="one target (default: every record not known)")
    p.add_argument(
        "--weights", default=None, help="integer query weights NAME=w,... (default: the sum)"
    )
    p.add_argument(
        "--query",
        choices=("sum", "histogram"),
        default="sum",
        help="the weighted sum (default) or the histogram of the states, noise on every bin "
        "(e.g. calibrate chain.json --eps 1 --query histogram)",
    )
    p.add_argument("--no-baselines", action="store_true", help="skip group DP and MQM")
    options.add_output(p, 15)
    options.add_parallel(p, "a class's members")
    options.add_rows(p)
    options.add_network_query(p)
    p.set_defaults(func=run_calibrate)


def run_calibrate(args: argparse.Namespace) -> int:
    # imported here: the engines load sympy and flint, which `calibrate --help` does not need
    from pdpsym.app.readers import load_bayesian_network, read_model_object
    from pdpsym.audit.calibrate import calibrate
    from pdpsym.loss.count_leakage_work import leakage_work
    from pdpsym.loss.histogram import histogram_work
    from pdpsym.models import counts
    from pdpsym.models.counts import CountModel
    from pdpsym.models.model_objects import count_model_from_object, is_class_object

    # a .bif file or "kind": bayesian-network
    network = load_bayesian_network(args.model, options.row_tolerance(args))
    if network is not None:
        # the network's own limit is the command's (its estimate is checked below)
        network = dataclasses.replace(network, max_work=budget.max_work(args))
        model: CountModel = options.network_query(args, network)
    else:
        obj = read_model_object(args.model)
        if is_class_object(obj):  # a class of laws: every law must meet eps
            from pdpsym.app.commands.law_class import class_calibrate_command
            from pdpsym.app.readers import load_law_class

            return class_calibrate_command(args, load_law_class(args.model, obj))
        if "kind" not in obj:
            raise InputError(
                "MODEL",
                'calibrate needs a structured model ("kind": markov-chain, product or '
                "bayesian-network, or a .bif file)",
            )
        model = count_model_from_object(obj)
        options.network_query(args, model)  # --count / --sum: refused on other models
    eps = parse_positive(options.epsilon(args.eps, "--eps"), "--eps")
    digits = options.digits(args.digits)
    known = options.names(args.known)
    n_targets = 1 if args.target else counts.record_count(model) - len(known)
    # four full passes (the safe start, which is also group DP's, the final check, MQM's
    # two baselines) and a bisection on one target: measured on binary chains at
    # T = 300, 1000 and 3000, the run takes 6 to 7 times one pass (0.49, 2.6 and 29 s
    # of CPU); checked from the model's shape before its records are listed
    # an ε of many digits asks for a scale whose balls need as many bits: the run grows
    # with their square (measured on two records: 1.0 s at 60 digits, 3.8 s at 1000,
    # 15 s at 2000)
    bits = max(eps.numerator.bit_length(), eps.denominator.bit_length())
    histogram = args.query == "histogram"
    if histogram and args.weights:
        raise InputError("--weights", "the histogram query takes no weights")
    # the histogram: all-target passes at the safe start and the bracket's upper end, and
    # at MQM's two scales for the baselines, and a bisection on kept points costing about
    # three single-target sups; the exact laws (about half of a pass) are computed by the
    # first pass only and kept, so each later pass counts half (measured on the 4-state
    # chain staying with 7/10: 3.1 s of CPU at T = 40 for 5.3e6 steps, 18.5 s at T = 60
    # for 3.3e7, 280 s at T = 100 for 3.5e8)
    passes = 2 if args.no_baselines else 4
    work = (
        (
            (passes + 1) * histogram_work(model, n_targets, known) // 2
            + 3 * histogram_work(model, 1, known)
        )
        if histogram
        else budget.CALIBRATION_PASSES * leakage_work(model, n_targets, known)
    )
    budget.check(args, work * (1 + (bits // 32) ** 2), "this calibration")
    targets = [args.target] if args.target else [v for v in model.variables if v not in set(known)]
    with Progress(len(targets) * 8, "targets", delay=1.0) as bar:
        cal = calibrate(
            model,
            eps,
            mechanism=args.mechanism,
            known=known,
            targets=targets,
            weights=options.integer_weights(args.weights),
            baselines=not args.no_baselines,
            on_target=lambda _n: bar.update(1),
            query=args.query,
        )
    out = cal.as_json(digits)
    if histogram:
        out["query"] = "histogram"
    if args.json:
        print_json(out)
        return 0
    s = out["scale"]
    lines = [
        f"eps: {out['eps']}   mechanism: {out['mechanism']}",
        f"smallest scale: {s['decimal']}  [{s['enclosure'][0]}, {s['enclosure'][1]}]",
        f"worst target: {out['worst_target']}",
    ]
    lines += [baseline_line(b, "at that scale") for b in out["baselines"]]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0

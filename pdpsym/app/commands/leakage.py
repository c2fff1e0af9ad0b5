"""``pdpsym leakage`` (Eq. 2 for one adversary) and ``pdpsym table`` (exact example tables)."""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from typing import Any

from pdpsym.app import budget, options, sweep
from pdpsym.app.options import command
from pdpsym.app.output import number_text, print_json
from pdpsym.app.tables import FORMATS, render
from pdpsym.app.text import exact_form, wrap
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str

TABLES = ("li2019-examples",)


def register(sub: Any) -> None:
    p = command(sub, "leakage")
    options.add_instance(
        p, "the target tuple i (or --all)", "comma-separated tuples the adversary knows (K)"
    )
    p.add_argument(
        "--lam",
        default="1",
        help="Laplace scale lambda > 0 (exact: 1, 1/2, 0.5); a range START:STOP:COUNT writes "
        "a CSV sweep",
    )
    p.add_argument("--all", action="store_true", help="every adversary A(i, K) of the model")
    p.add_argument(
        "--all-targets",
        action="store_true",
        help="structured models: every record not in --known as the target, and the max",
    )
    p.add_argument("--out", metavar="FILE", help="write a sweep's CSV to FILE (default stdout)")
    p.add_argument(
        "--weights",
        default=None,
        help="linear query weights NAME=w,... (unnamed tuples keep weight 1)",
    )
    p.add_argument(
        "--query",
        choices=("sum", "histogram"),
        default="sum",
        help="structured models: the weighted sum (default) or the histogram of the states "
        "with noise of scale --lam on every bin (e.g. --query histogram --all-targets)",
    )
    options.add_output(p, 30)
    options.add_parallel(p, "a sweep's points")
    options.add_rows(p)
    options.add_network_query(p)
    p.set_defaults(func=run_leakage)

    t = command(sub, "table")
    t.add_argument("name", choices=TABLES)
    t.add_argument("--format", choices=FORMATS, default="md")
    t.add_argument("--digits", default="15", help="certified significant digits (default 15)")
    t.set_defaults(func=run_table)


def _leakage(args: argparse.Namespace) -> dict[str, Any]:
    # imported here (as in the other handlers): sympy and flint load after --help
    from pdpsym.app.readers import load_discrete
    from pdpsym.loss.adversary import Adversary
    from pdpsym.loss.table_leakage import (
        all_adversaries,
        leakage_all,
        leakage_work,
        table_leakage,
    )
    from pdpsym.mechanisms.laplace import LinearQuery, parse_lambda
    from pdpsym.papers.li2019.theorems import group_dp_bound

    digits = options.digits(args.digits)
    lam = parse_lambda(args.lam)
    model = load_discrete(args.model)
    query = LinearQuery.from_text(model, args.weights)
    if args.all:
        if args.target is not None or args.known:
            raise InputError("--all", "takes no --target or --known")
        advs = list(all_adversaries(model))
        work = sum(leakage_work(model, a.target, a.known, query) for a in advs)
        budget.check(args, work, "Eq. 2 for every adversary")
        rows = []
        for r in leakage_all(model, lam, query):
            row = r.as_json(digits)
            row["group_dp_bound"] = fraction_str(group_dp_bound(model, r.adversary, lam, query))
            rows.append(row)
        return {"lambda": fraction_str(lam), "adversaries": rows}
    if args.target is None:
        raise InputError("--target", "name the target tuple (or pass --all)")
    adv = Adversary.of(model, args.target, options.names(args.known))
    budget.check(args, leakage_work(model, adv.target, adv.known, query), "this Eq. 2 search")
    res = table_leakage(model, adv.target, adv.known, lam, query)
    out = res.as_json(digits)
    out["group_dp_bound"] = fraction_str(group_dp_bound(model, adv, lam, query))
    return out


def run_leakage(args: argparse.Namespace) -> int:
    # imported here: the engines load sympy, which `leakage --help` does not need
    from pdpsym.app.commands.leakage_models import structured_leakage_command
    from pdpsym.app.readers import load_bayesian_network, load_discrete, read_model_object
    from pdpsym.mechanisms.laplace import parse_lambda
    from pdpsym.models.model_objects import count_model_from_object, is_class_object

    network = load_bayesian_network(args.model, options.row_tolerance(args))  # BIF or JSON
    if network is not None:
        return structured_leakage_command(args, options.network_query(args, network))
    options.network_query(args, None)  # --count / --sum: refused on other models
    obj = read_model_object(args.model)
    if is_class_object(obj):  # a class of laws: the sup over it
        from pdpsym.app.commands.law_class import class_leakage_command
        from pdpsym.app.readers import load_law_class

        return class_leakage_command(args, load_law_class(args.model, obj))
    if "kind" in obj:
        return structured_leakage_command(args, count_model_from_object(obj))
    if args.all_targets:
        raise InputError(
            "--all-targets",
            "needs a structured model (markov-chain, product or bayesian-network, or a .bif "
            "file); on a table, --all lists every adversary",
        )
    if args.query != "sum":
        raise InputError("--query", "the histogram query needs a markov-chain or product model")
    if (points := sweep.values(args.lam, "--lam", False)) is not None:
        if args.all:
            raise InputError("--all", "sweep one adversary at a time (--target)")
        return sweep.run(args, "lam", "--lam", points, _leakage)
    out = _leakage(args)
    digits = options.digits(args.digits)
    if args.all:
        if args.json:
            print_json(out)
            return 0
        rows = [
            [
                f"A({r['target']}, {{{', '.join(r['known'])}}})",
                r["status"],
                r["value"]["decimal"] if r.get("value") else "-",
                number_text(r["group_dp_bound"]),
            ]
            for r in out["adversaries"]
        ]
        sys.stdout.write(render(["adversary", "status", "leakage", "group DP"], rows, "md"))
        return 0
    from pdpsym.loss.adversary import Adversary  # after the structured branch: sympy

    lam = parse_lambda(args.lam)
    adv = Adversary.of(load_discrete(args.model), args.target, options.names(args.known))
    status = out["status"]
    if args.json:
        print_json(out)
        return 0
    lines = [f"adversary: {adv}", f"lambda: {number_text(lam)}", f"status: {status}"]
    if status == "ok":
        v = out["value"]
        w = out["witness"]
        lines += [
            f"leakage (exact): {exact_form(number_text(v['exact']))}",
            f"leakage ({digits} digits): {v['decimal']}",
            f"enclosure: [{v['enclosure'][0]}, {v['enclosure'][1]}]",
            f"witness: x_i = {w['x_i']}, x_i' = {w['x_i_prime']}, x_K = {w['x_K']}, r = {w['r']}",
        ]
    lines.append(f"group-DP bound (Remark 1): {number_text(out['group_dp_bound'])}")
    sys.stdout.write("\n".join(wrap(line) for line in lines) + "\n")
    return 0


def li2019_examples_rows(digits: int = 15, fmt: str = "md") -> tuple[list[str], list[list[str]]]:
    """Examples 2-4: Tables (a)-(d), A(x1, {}) and A(x1, {x2}), lambda = 1, sum query."""
    import sympy  # imported here, with the engines: `pdpsym table --help` does not load them

    from pdpsym.loss.adversary import Adversary
    from pdpsym.loss.table_leakage import table_leakage
    from pdpsym.mechanisms.laplace import LinearQuery
    from pdpsym.papers.li2019.examples import DESCRIPTIONS, li2019_table
    from pdpsym.papers.li2019.theorems import group_dp_bound

    headers = ["table", "correlation", "adversary", "status", "exact", "decimal", "group DP"]
    rows = []
    for name in ("a", "b", "c", "d"):
        model = li2019_table(name)
        query = LinearQuery.sum(model.variables)
        for known in ((), ("x2",)):
            adv = Adversary("x1", known)
            res = table_leakage(model, "x1", known, 1, query)
            bound = fraction_str(group_dp_bound(model, adv, Fraction(1), query))
            if res.ok:
                c = res.certified(digits)
                exact = f"${sympy.latex(res.expression())}$" if fmt == "latex" else c.exact
                rows.append(
                    [f"({name})", DESCRIPTIONS[name], str(adv), res.status, exact, c.decimal, bound]
                )
            else:
                rows.append([f"({name})", DESCRIPTIONS[name], str(adv), res.status, "", "", bound])
    return headers, rows


def run_table(args: argparse.Namespace) -> int:
    digits = options.digits(args.digits)
    headers, rows = li2019_examples_rows(digits, args.format)
    sys.stdout.write(
        render(
            headers,
            rows,
            args.format,
            caption="Li et al. Examples 2-4: exact Eq. 2 leakage, lambda = 1, sum",
        )
    )
    return 0

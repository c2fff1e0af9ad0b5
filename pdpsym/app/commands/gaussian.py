"""``pdpsym gaussian``: Theorem 6 leakage of a Gaussian model (Li et al. Section VI)."""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pdpsym.app import budget, options
from pdpsym.app.options import command
from pdpsym.app.output import number_text, print_json
from pdpsym.app.tables import render
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_positive

if TYPE_CHECKING:
    from pdpsym.loss.gaussian import GaussianLeakage


def register(sub: Any) -> None:
    p = command(sub, "gaussian")
    options.add_instance(
        p,
        "the target tuple x_i (needs a range in the model)",
        "comma-separated tuples the adversary knows",
        model="Gaussian model file (JSON or TOML)",
    )
    p.add_argument("--lam", default="1", help="Laplace scale lam > 0 (exact, e.g. 1/2)")
    p.add_argument(
        "--weights",
        default="",
        help="query weights A=w,B=w (exact numbers; names not listed keep weight 1)",
    )
    options.add_output(p, 30)
    p.add_argument(
        "--all",
        action="store_true",
        help="tabulate every adversary A(i, K) whose target has a range",
    )
    p.set_defaults(func=run)


def _value(x: Fraction, digits: int) -> dict[str, Any]:
    from pdpsym.core.certify import certify  # imported here: sympy loads after --help

    return certify(x, digits).as_json()


def run(args: argparse.Namespace) -> int:
    # imported here: these load sympy and flint, which `pdpsym gaussian --help` does not need
    from pdpsym.app.readers import load_gaussian
    from pdpsym.core.certify import certify
    from pdpsym.loss.gaussian import THM6_READING, all_adversaries, gaussian_leakage

    args.digits = options.digits(args.digits)
    lam = parse_positive(args.lam, "--lam")
    weights = options.weights(args.weights)
    model = load_gaussian(args.model)
    for name in weights:
        if name not in model.variables:
            raise InputError("--weights", f"unknown variable {name!r}")
    if args.all:
        if args.target or args.known:
            raise InputError("--all", "tabulates every adversary; drop --target/--known")
        budget.check(args, 2**model.n * model.n**3, "every Gaussian adversary")
        rows = all_adversaries(model, lam, weights)
        if args.json:
            print_json(
                {"adversaries": [_row_json(g, args.digits) for g in rows], "reading": THM6_READING}
            )
            return 0
        headers = ["target", "known", "c", "s^2", "PL (exact)", "PL (certified)"]
        table = [
            [
                g.target,
                ",".join(g.known) or "-",
                number_text(g.coefficient),
                number_text(g.variance),
                number_text(g.value),
                certify(g.value, min(args.digits, 12)).decimal,
            ]
            for g in rows
        ]
        sys.stdout.write(render(headers, table, "md"))
        return 0
    if not args.target:
        raise InputError("--target", "required (or use --all)")
    g = gaussian_leakage(model, args.target, options.names(args.known), lam, weights)
    if args.json:
        print_json(_row_json(g, args.digits))
        return 0
    sys.stdout.write(
        f"PL(A({g.target}, {{{','.join(g.known)}}})) = {number_text(g.value)}"
        f" = {certify(g.value, args.digits).decimal}\n"
        f"coefficient c = {number_text(g.coefficient)}, conditional variance s^2 = "
        f"{number_text(g.variance)}, range [{number_text(g.query.low)}, "
        f"{number_text(g.query.high)}], lam = {number_text(g.query.lam)}\n"
    )
    return 0


def _row_json(g: GaussianLeakage, digits: int) -> dict[str, Any]:
    return {
        "value": _value(g.value, digits),
        "coefficient": _value(g.coefficient, digits),
        "conditional_variance": _value(g.variance, digits),
        "target": g.target,
        "known": list(g.known),
    }

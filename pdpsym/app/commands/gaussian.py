"""``pdpsym gaussian``: Theorem 6 leakage of a Gaussian model (Li et al. Section VI)."""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from typing import Any

from pdpsym.app import limits
from pdpsym.app.output import print_json
from pdpsym.app.readers import load_gaussian
from pdpsym.app.tables import render
from pdpsym.core.certify import certify
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str, parse_int, parse_positive, parse_rational
from pdpsym.papers.li2019.gaussian import (
    THM6_READING,
    GaussianLeakage,
    all_adversaries,
    gaussian_leakage,
)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "gaussian",
        help="exact PDP leakage for a multivariate Gaussian model (Theorem 6)",
        description=(
            "Leakage of the Laplace mechanism on f = sum_k w_k x_k for x ~ N(mean, cov) "
            "(Li et al. Section VI): PL(A(i,K)) = |c| (u_i - l_i) / lam, where c is the "
            "coefficient of x_i in E[f | x_i, x_K] (Lemma 1). For the sum this is the "
            "paper's |c| Delta_i / lam. MODEL is a JSON/TOML file {variables, mean, cov, ranges}."
        ),
    )
    p.add_argument("model", metavar="MODEL", help="Gaussian model file (JSON or TOML)")
    p.add_argument("--target", help="the target tuple x_i (needs a range in the model)")
    p.add_argument("--known", default="", help="comma-separated tuples the adversary knows")
    p.add_argument("--lam", default="1", help="Laplace scale lam > 0 (exact, e.g. 1/2)")
    p.add_argument(
        "--weights",
        default="",
        help="query weights A=w,B=w (exact numbers; names not listed keep weight 1)",
    )
    p.add_argument("--digits", default="30", help="certified significant digits (1-1000)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--all",
        action="store_true",
        help="tabulate every adversary A(i, K) whose target has a range",
    )
    p.set_defaults(func=run)


def parse_weights(text: str) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for part in (x.strip() for x in text.split(",")):
        if not part:
            continue
        if "=" not in part:
            raise InputError("--weights", f"expected NAME=w, got {part!r}")
        name, value = (s.strip() for s in part.split("=", 1))
        if not name or name in out:
            raise InputError("--weights", f"empty or repeated name in {part!r}")
        out[name] = parse_rational(value, "--weights")
    return out


def _known(text: str) -> list[str]:
    names = [x.strip() for x in text.split(",") if x.strip()]
    return names


def _value(x: Fraction, digits: int) -> dict[str, Any]:
    return certify(x, digits).as_json()


def run(args: argparse.Namespace) -> int:
    args.digits = parse_int(args.digits, "--digits", 1, 1000)
    lam = parse_positive(args.lam, "--lam")
    weights = parse_weights(args.weights)
    model = load_gaussian(args.model)
    for name in weights:
        if name not in model.variables:
            raise InputError("--weights", f"unknown variable {name!r}")
    if args.all:
        if args.target or args.known:
            raise InputError("--all", "tabulates every adversary; drop --target/--known")
        limits.check(args, 2**model.n * model.n**3, "every Gaussian adversary")
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
                fraction_str(g.coefficient),
                fraction_str(g.variance),
                fraction_str(g.value),
                certify(g.value, min(args.digits, 12)).decimal,
            ]
            for g in rows
        ]
        sys.stdout.write(render(headers, table, "md"))
        return 0
    if not args.target:
        raise InputError("--target", "required (or use --all)")
    g = gaussian_leakage(model, args.target, _known(args.known), lam, weights)
    if args.json:
        print_json(_row_json(g, args.digits))
        return 0
    sys.stdout.write(
        f"PL(A({g.target}, {{{','.join(g.known)}}})) = {fraction_str(g.value)}"
        f" = {certify(g.value, args.digits).decimal}\n"
        f"coefficient c = {fraction_str(g.coefficient)}, conditional variance s^2 = "
        f"{fraction_str(g.variance)}, range [{fraction_str(g.low)}, {fraction_str(g.high)}], "
        f"lam = {fraction_str(g.lam)}\n"
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

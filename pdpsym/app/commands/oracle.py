"""``pdpsym oracle export|check``: regression vectors of Li et al. Eq. 2 (:mod:`pdpsym.app.oracle`)."""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from pdpsym.app import budget, options
from pdpsym.app.budget import Progress
from pdpsym.app.help import FORMAT
from pdpsym.app.options import command
from pdpsym.app.output import print_json
from pdpsym.app.writes import check_output
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str, parse_int, parse_rational

# --help shows these without loading the engines (sympy, flint); tests/app/test_startup.py
# checks them against pdpsym.app.oracle.FAMILIES
FAMILIES = ("li2019-examples", "random-binary", "exhaustive-2x2")


def _int(text: str | None, field: str) -> int | None:
    return None if text is None else parse_int(text, field)


def register(sub: Any) -> None:
    p = command(sub, "oracle")
    osub = p.add_subparsers(dest="oracle_command", metavar="ACTION", parser_class=type(p))
    osub.required = True

    e = command(osub, "oracle export")
    e.add_argument(
        "--family",
        choices=FAMILIES,
        default=None,
        help="the family of Eq. 2 vectors (default li2019-examples); not with --model",
    )
    e.add_argument("--n", default=None, help="tuples (random-binary) or max denominator (2x2)")
    e.add_argument("--count", default=None, help="number of random tables (random-binary)")
    e.add_argument("--seed", default=None, help="seed of the random tables (random-binary)")
    e.add_argument(
        "--lam",
        action="append",
        default=None,
        metavar="L",
        help="Laplace scale lambda > 0 (repeatable; default 1); not with --model",
    )
    e.add_argument(
        "--model", default=None, metavar="FILE", help="your own model (with --mechanism)"
    )
    e.add_argument(
        "--mechanism",
        default=None,
        metavar="FILE",
        help="your own mechanism file (see `pdpsym audit --help`): vectors of its audit",
    )
    e.add_argument("--target", default=None, help="the target record (with --model)")
    e.add_argument("--known", default="", help="records the attacker knows (with --model)")
    e.add_argument("--eps", action="append", default=[], metavar="E", help="audit delta at E")
    e.add_argument("--delta", default=None, help="audit epsilon at this delta")
    e.add_argument(
        "--notions", default=None, help="audit notions (default: all but distributional-dp)"
    )
    e.add_argument("--digits", default="30", help="certified significant digits (default 30)")
    e.add_argument("--out", required=True, metavar="FILE", help="the vector file to write")
    e.add_argument("--json", action="store_true", help="print a one-object JSON summary")
    e.add_argument(
        "--progress",
        action="store_true",
        default=None,
        help="force the progress bar on stderr (default: only on a terminal)",
    )
    options.add_parallel(e, "the (model, lambda) pairs")
    e.set_defaults(func=run_export)

    c = command(osub, "oracle check")
    c.add_argument("vectors", metavar="VECTORS", help="vector file from `pdpsym oracle export`")
    c.add_argument("answers", metavar="ANSWERS", help="answer file of the implementation")
    c.add_argument("--rel-tol", default=None, help="relative tolerance (default 1e-9)")
    c.add_argument("--abs-tol", default=None, help="absolute tolerance (default 1e-12)")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.set_defaults(func=run_check)


def _export_audit(args: argparse.Namespace, digits: int) -> int:
    """Vectors of the audit of the user's own model and mechanism."""
    from pdpsym.app.audit_work import check_work, number_bits  # the audit's estimate
    from pdpsym.app.commands.mechanism_files import read_mechanism  # the readers
    from pdpsym.app.oracle import audit_vectors, write_vectors  # sympy loads after --help
    from pdpsym.app.readers import load_discrete, read_json
    from pdpsym.audit import ALL_NOTIONS, NOTIONS, audit
    from pdpsym.models.neighbours import DDPReading

    if args.target is None:
        raise InputError("--target", "required with --model")
    eps = [options.parse_eps(t) for t in args.eps]
    delta = None if args.delta is None else parse_rational(args.delta, "--delta")
    if delta is not None and not 0 <= delta < 1:
        raise InputError("--delta", "must lie in [0, 1)")
    notions = (
        list(NOTIONS)
        if args.notions is None
        else [t.strip() for t in args.notions.split(",") if t.strip()]
    )
    if not notions:
        raise InputError("--notions", "name at least one notion")
    if notions == ["all"]:
        notions = list(ALL_NOTIONS)
    model = load_discrete(args.model)
    spec = read_json(args.mechanism, "MECHANISM")
    mech = read_mechanism(args.mechanism, model)  # validates the file before the estimate
    size = max(number_bits(spec), number_bits(args.delta))
    check_work(args, model, notions, size, spec, len(eps) + (delta is not None))
    known = [t.strip() for t in args.known.split(",") if t.strip()]
    result = audit(model, mech, args.target, known, eps, delta, notions, DDPReading.NEIGHBOURS)
    generator = {
        "family": "audit",
        "target": args.target,
        "known": known,
        "eps": [str(e) for e in eps],
        "delta": None if delta is None else fraction_str(delta),
        "notions": notions,
    }
    vectors = audit_vectors(result, digits, generator)
    write_vectors(vectors, args.out)
    if args.json:
        print_json({"out": args.out, "cases": len(vectors["cases"]), "digits": digits})
    else:
        sys.stdout.write(f"wrote {len(vectors['cases'])} audit vectors to {args.out}\n")
    return 0


def run_export(args: argparse.Namespace) -> int:
    # imported here: the vectors load sympy and flint, which `oracle --help` does not need
    from pdpsym.app.oracle import (
        case_count,
        export_vectors,
        family_models,
        family_params,
        write_vectors,
    )
    from pdpsym.mechanisms.laplace import parse_lambda

    digits = _int(args.digits, "--digits")
    assert digits is not None
    if not 1 <= digits <= 1000:
        raise InputError("--digits", "must be between 1 and 1000")
    if (args.model is None) != (args.mechanism is None):
        raise InputError("--model", "give --model and --mechanism together")
    check_output(args.out, "--out")  # an unusable destination, before the computation
    if args.model is not None:
        # the vectors of your own model are its audit's: the Eq. 2 family options
        # do not apply, and are refused rather than silently ignored
        for flag, value in (
            ("--family", args.family),
            ("--lam", args.lam),
            ("--n", args.n),
            ("--count", args.count),
            ("--seed", args.seed),
        ):
            if value is not None:
                raise InputError(flag, "does not apply with --model (the audit's vectors)")
        return _export_audit(args, digits)
    for flag, value in (
        ("--target", args.target),
        ("--notions", args.notions),
        ("--delta", args.delta),
        ("--eps", args.eps or None),
        ("--known", args.known or None),
    ):
        if value is not None:
            raise InputError(flag, "applies only with --model and --mechanism")
    lams: list[Fraction] = []
    for text in args.lam or ["1"]:
        lam = parse_lambda(text)
        if lam in lams:
            raise InputError("--lam", f"repeated value {fraction_str(lam)}")
        lams.append(lam)
    out = Path(args.out)
    family = args.family or "li2019-examples"
    n = _int(args.n, "--n")
    count = _int(args.count, "--count")
    seed = _int(args.seed, "--seed")
    models = family_models(family, n, count, seed)  # validates --n and --count
    if family == "random-binary":  # count tables of n binary tuples, every adversary
        tuples = 3 if n is None else n
        per_case = 800 + 4**tuples  # certification dominates small tables (CPU, measured)
        cases = (10 if count is None else count) * len(lams) * tuples * 2 ** (tuples - 1)
        budget.check(args, cases * per_case, "this vector family")
    # every family: each case is one Eq. 2 search over the table's cells, certified
    # to --digits digits (~2000 CPU microseconds at 30 digits, measured)
    work = sum(
        len(lams) * m.n * 2 ** (m.n - 1) * (1000 * (1 + digits // 30) + 4 * m.cells)
        for _, m in models
    )
    budget.check(args, work, "this vector family")
    generator: dict[str, Any] = {
        "family": family,
        **family_params(family, n, count, seed),
    }
    if family == "exhaustive-2x2":
        generator["tables"] = len(models)
    generator["lam"] = [fraction_str(lam) for lam in lams]
    total = case_count(models, len(lams))
    with Progress(total, "oracle export", enabled=args.progress) as bar:
        vectors = export_vectors(
            models,
            lams,
            digits,
            generator=generator,
            progress=bar,
            jobs=options.jobs(args),
            scheduler=args.scheduler,
        )
    write_vectors(vectors, out)
    cases = vectors["cases"]
    summary = {
        "out": str(out),
        "format": FORMAT,
        "cases": len(cases),
        "ok": sum(1 for c in cases if c["status"] == "ok"),
        "no_compatible_pair": sum(1 for c in cases if c["status"] == "no-compatible-pair"),
    }
    if args.json:
        print_json(summary)
    else:
        sys.stdout.write(
            f"wrote {summary['cases']} cases ({summary['ok']} ok, "
            f"{summary['no_compatible_pair']} no-compatible-pair) to {out}\n"
        )
    return 0


def _tol(text: str | None, default: Fraction, field: str) -> Fraction:
    return default if text is None else parse_rational(text, field)


def run_check(args: argparse.Namespace) -> int:
    # imported here: the vectors load sympy and flint, which `oracle --help` does not need
    from pdpsym.app.oracle import load_vectors
    from pdpsym.app.oracle_check import (
        DEFAULT_ABS_TOL,
        DEFAULT_REL_TOL,
        check_vectors,
        load_answers,
        short_decimal,
    )

    rel_tol = _tol(args.rel_tol, DEFAULT_REL_TOL, "--rel-tol")
    abs_tol = _tol(args.abs_tol, DEFAULT_ABS_TOL, "--abs-tol")
    if not 0 <= rel_tol < 1:
        raise InputError("--rel-tol", f"must be >= 0 and < 1, got {short_decimal(rel_tol)}")
    if abs_tol < 0:
        raise InputError("--abs-tol", f"must be >= 0, got {short_decimal(abs_tol)}")
    vectors = load_vectors(args.vectors)
    answers = load_answers(args.answers)
    # each case: an exact comparison of the answer with the certified value
    budget.check(args, 200 * (len(vectors.get("cases", [])) + len(answers)), "this check")
    report = check_vectors(vectors, answers, rel_tol, abs_tol)
    if args.json:
        print_json(report.as_json())
    else:
        sys.stdout.write(report.markdown())
    return 0 if report.ok else 1

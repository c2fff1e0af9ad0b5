"""``pdpsym audit``: every privacy notion, exactly, for the user's model and mechanism."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdpsym.app import budget, options
from pdpsym.app.audit_work import number_bits, plan, round_up, steps_text, table_work
from pdpsym.app.budget import Progress
from pdpsym.app.commands import audit_histogram
from pdpsym.app.commands import audit_models as structured
from pdpsym.app.commands.mechanism_files import read_json_file, read_mechanism
from pdpsym.app.output import number_text, print_json, safe_json, short_enclosure
from pdpsym.app.text import wrap
from pdpsym.app.writes import check_output, write_output
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str, parse_int, parse_rational

if TYPE_CHECKING:
    from pdpsym.audit import Audit, NotionResult
    from pdpsym.core.eps import Eps

# The engines (sympy, flint) load inside the handlers, so that `audit --help` starts at
# once; --help shows these copies, which tests/app/test_startup.py checks against
# pdpsym.audit.NOTIONS, ALL_NOTIONS, NAMED_NOTIONS and pdpsym.models.neighbours.DDPReading.
NOTIONS = ("dp", "apkdp", "ppkdp", "np", "cdp", "ibcdp", "dependent-dp")
ALL_NOTIONS = (*NOTIONS, "distributional-dp")
NAMED_NOTIONS = (*ALL_NOTIONS, "renyi-dp")
DDP_READINGS = ("def4-neighbours", "def4-neighbours-in-support", "eq11-conditional")


DESCRIPTION = """\
Exact privacy figures of MECHANISM on data drawn from MODEL, for one target record,
under every notion: dp, apkdp and ppkdp (Desfontaines et al. Defs 12-13, B = the --known
records), np, cdp, ibcdp (Defs 3, 5, 6), dependent-dp (Liu et al. Def. 4, both readings)
and, asked for by name, distributional-dp (Desfontaines et al. Def. 4, certified LPs) and
renyi-dp (Renyi DP of order --alpha on dp's pairs, Mironov 2017; epsilon only).
For each: epsilon (delta = 0), delta at each --eps, epsilon at --delta, and the witness;
a default notion estimated over --max-work is listed, not run.

MODEL: a table {"variables": [...], "rows": [[<values>..., "<prob>"], ...]}, a
  structured model ("kind": "markov-chain", "product", "bayesian-network"; a .bif file)
  or a class of laws (docs/audit.md, bayesian-networks.md, uncertain-laws.md).
MECHANISM: {"kind": K, ...} with K one of table, randomized-response, laplace,
  geometric, count, threshold, histogram, e.g. {"kind": "laplace", "lam": "1"}
  (docs/audit.md, "The mechanism file"). "weights" such as {"x1": "1", "x2": "0"} give
  the query sum_k w_k x_k (here x1 alone); a variable not listed has weight 1.
"""


def register(sub: Any) -> None:
    p = options.described_command(
        sub, "audit", "every privacy notion, exactly, for your own model and mechanism", DESCRIPTION
    )
    options.add_instance(
        p,
        "the target record",
        "comma-separated records the attacker knows (B)",
        target_required=True,
    )
    p.add_argument("mechanism", metavar="MECHANISM", help="mechanism file (.json)")
    p.add_argument(
        "--eps",
        action="append",
        default=[],
        metavar="E",
        help="report delta at this epsilon (repeatable): 1/2, 0.1, ln(3), log(3/2)",
    )
    p.add_argument("--delta", default=None, help="report the smallest epsilon at this delta")
    p.add_argument(
        "--query",
        choices=("sum", "histogram"),
        default="sum",
        help='structured models: "histogram" puts the noise on every bin of the states\' histogram',
    )
    p.add_argument(
        "--notions",
        default=None,
        help="comma-separated notions named above, or all (default: all but "
        "distributional-dp and renyi-dp)",
    )
    p.add_argument(
        "--alpha",
        default="2",
        help="order of renyi-dp, a rational above 1 (default 2), e.g. --notions renyi-dp "
        "--alpha 3/2",
    )
    p.add_argument(
        "--ddp-reading",
        choices=DDP_READINGS,
        default=None,
        help="dependent-dp's reading of Liu et al. Definition 4 (default: the first and last)",
    )
    p.add_argument(
        "--curve",
        default=None,
        metavar="FILE",
        help="write delta(eps) of every notion as CSV (certified) on the --grid and --eps points",
    )
    p.add_argument(
        "--grid",
        default="0:2:21",
        metavar="START:STOP:STEPS",
        help="epsilon grid of --curve (default 0:2:21)",
    )
    p.add_argument(
        "--progress",
        action="store_true",
        default=None,
        help="force the progress bar (default: on a terminal, past 2 s)",
    )
    p.add_argument("--digits", default="20", help="certified significant digits (default 20)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    options.add_rows(p)
    options.add_network_query(p)
    p.set_defaults(func=run)


def _key(k: Any) -> str:
    if isinstance(k, tuple):
        return "(" + ", ".join(_key(v) for v in k) + ")"
    return fraction_str(k) if isinstance(k, Fraction) else str(k)


def _plain(x: Any) -> Any:
    if isinstance(x, Fraction):
        return fraction_str(x)
    if isinstance(x, Mapping):
        return {_key(k): _plain(v) for k, v in x.items()}
    if isinstance(x, tuple | list):
        return [_plain(v) for v in x]
    if x is None or isinstance(x, bool | int | str):
        return x
    return str(x)


def _enclosed(v: Any, digits: int) -> dict[str, Any] | None:
    """A certified enclosure (no closed form): its shared digits and its ends."""
    from pdpsym.core.exp_sqrt_sums import Bracket  # imported here (see NOTIONS above)

    if isinstance(v, Bracket) and v.limit:
        common, ends = v.decimal(digits)
        return {"exact": None, "decimal": common, "enclosure": list(ends)}
    if getattr(v, "closed_form", True) is False:  # certified digits, no formula to print
        from pdpsym.core.certify import certify

        c = certify(v, digits)
        return {"exact": None, "decimal": c.decimal, "enclosure": list(c.enclosure)}
    return None


def _value(v: Any, digits: int) -> Any:
    import sympy  # imported here (see NOTIONS above)

    from pdpsym.core.certify import certify

    if v is None:
        return None
    if v is sympy.oo or (isinstance(v, sympy.Basic) and v == sympy.oo):
        return "infinite"
    enc = _enclosed(v, digits)
    if enc is not None:
        return enc
    return certify(v, digits).as_json()


def _log_enclosure(enc: tuple[Fraction, Fraction | None], digits: int) -> dict[str, Any]:
    """ε = ln t with ``lo <= t <= hi``: the enclosure, and the digits both ends agree on."""
    import sympy  # imported here (see NOTIONS above)

    from pdpsym.core.certify import certify

    lo, hi = enc
    assert hi is not None
    a = certify(sympy.log(sympy.Rational(lo.numerator, lo.denominator)), digits)
    b = certify(sympy.log(sympy.Rational(hi.numerator, hi.denominator)), digits)
    return {
        "exact": None,
        "decimal": _common(a.decimal, b.decimal),
        "enclosure": [a.enclosure[0], b.enclosure[1]],
    }


def _common(a: str, b: str) -> str:
    """The leading digits two decimals share (both round the same way there)."""
    k = 0
    while k < min(len(a), len(b)) and a[k] == b[k]:
        k += 1
    out = a[:k].rstrip(".")
    return out + "…" if k < max(len(a), len(b)) else out


def result_json(r: NotionResult, digits: int) -> dict[str, Any]:
    """One notion's row of ``audit --json``: ε, δ(ε) and ε(δ), exact or enclosed."""
    eps_value = (
        _log_enclosure(r.ratio_enclosure, digits)
        if r.ratio_enclosure is not None
        else _value(r.epsilon, digits)
    )
    return {
        "notion": r.notion,
        "epsilon": eps_value,
        "witness": _plain(r.witness),
        "delta_at_epsilon": [
            {"eps": str(e), "delta": _value(d, digits), "witness": _plain(w)}
            for e, d, w in r.delta_at_epsilon
        ],
        "epsilon_at_delta": None
        if r.epsilon_at_delta is None
        else {
            "delta": fraction_str(r.epsilon_at_delta[0]),
            "epsilon": _value(r.epsilon_at_delta[1], digits),
            "witness": _plain(r.epsilon_at_delta[2]),
        },
        "reading": r.reading,
        "note": r.note,
    }


# an exact form longer than this is left to --json: the text line shows the decimal
SHORT_EXACT = 40


def _shown(decimal: str, exact: str | None = None, enclosure: Any = None) -> str:
    """A number for the text report: the decimal first, then a short exact form or a short
    enclosure; the long ones are in ``--json``."""
    if exact is not None and exact != decimal:
        more = f" (= {exact})" if len(exact) <= SHORT_EXACT else " (exact form: --json)"
    elif enclosure is not None:
        more = f" (in {short_enclosure(*enclosure)})"
    else:
        more = ""
    return decimal + more


def _short(v: Any, digits: int) -> str:
    import sympy  # imported here (see NOTIONS above)

    from pdpsym.core.certify import certify

    if v is None:
        return "-"
    if v is sympy.oo or (isinstance(v, sympy.Basic) and v == sympy.oo):
        return "infinite"
    enc = _enclosed(v, digits)
    if enc is not None:
        return _shown(enc["decimal"], enclosure=enc["enclosure"])
    c = certify(v, digits)
    return _shown(c.decimal, number_text(c.exact))  # a long exact form: scientific digits


def _text(a: Audit, digits: int) -> str:
    lines = [f"audit of target {a.target}, known {{{', '.join(a.known)}}}"]
    for r in a.results:
        lines.append(f"\n{r.notion}:")
        if r.ratio_enclosure is not None:
            enc = _log_enclosure(r.ratio_enclosure, digits)
            shown = _shown(enc["decimal"], enclosure=enc["enclosure"])
        else:
            shown = _short(r.epsilon, digits)
        lines.append(f"  epsilon (delta = 0): {shown}")
        if r.witness:
            lines.append(
                f"    witness: {safe_json(json.dumps(_plain(r.witness), ensure_ascii=False))}"
            )
        for e, d, _ in r.delta_at_epsilon:
            lines.append(f"  delta at epsilon {number_text(str(e))}: {_short(d, digits)}")
        if r.epsilon_at_delta is not None:
            dl, ev, _ = r.epsilon_at_delta
            lines.append(f"  epsilon at delta {number_text(dl)}: {_short(ev, digits)}")
        if r.reading:
            lines.append(f"  reading: {r.reading}")
        if r.note:
            lines.append(f"  note: {r.note}")
    return "\n".join(wrap(line) for line in lines) + "\n"


def not_run_json(refused: Mapping[str, int | str]) -> dict[str, Any]:
    """The notions left out: each one's estimate and the flags that run it, or the reason
    no ``--max-work`` runs it."""
    return {
        n: {"reason": w}
        if isinstance(w, str)
        else {"estimated_steps": w, "run_with": f"--notions {n} --max-work {round_up(w)}"}
        if w <= budget.MAX_WORK_CEILING
        else {"estimated_steps": w, "reason": budget.runs_anyway(w)}
        for n, w in refused.items()
    }


def not_run_text(refused: Mapping[str, int | str]) -> str:
    """The text lines of :func:`not_run_json` (empty when every notion ran)."""
    if not refused:
        return ""
    lines = ["", "not run (each estimated above --max-work, or over a fixed limit):"]
    for n, w in refused.items():
        if isinstance(w, str):
            lines.append(wrap(f"  {n}: {w}"))
            continue
        run_it = f"run it with --notions {n} --max-work {round_up(w)}"
        if w > budget.MAX_WORK_CEILING:
            run_it = budget.runs_anyway(w)
        lines.append(wrap(f"  {n}: about {steps_text(w)} steps; {run_it}"))
    return "\n".join(lines) + "\n"


def parse_grid(text: str) -> list[Eps]:
    """``start:stop:steps``: ``steps`` evenly spaced exact epsilons from start to stop."""
    from pdpsym.core.eps import Eps  # imported here (see NOTIONS above)

    parts = text.split(":")
    if len(parts) != 3:
        raise InputError("--grid", f"expected START:STOP:STEPS, got {text!r}")
    start, stop = parse_rational(parts[0], "--grid"), parse_rational(parts[1], "--grid")
    steps = parse_int(parts[2], "--grid", 1, 10_000)
    if start < 0 or stop < start:
        raise InputError("--grid", "needs 0 <= START <= STOP")
    if steps == 1:
        return [Eps.of(start)]
    return [Eps.of(start + (stop - start) * k / (steps - 1)) for k in range(steps)]


def _write_curve(path: str, a: Audit, digits: int) -> None:
    from pdpsym.core.certify import certify  # imported here (see NOTIONS above)

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["notion", "eps", "delta_exact", "delta_decimal", "delta_lo", "delta_hi"])
    for r in a.results:
        for e, d, _ in r.delta_at_epsilon:
            enc = _enclosed(d, digits)
            if enc is not None:
                w.writerow([r.notion, str(e), "", enc["decimal"], *enc["enclosure"]])
                continue
            c = certify(d, digits)
            w.writerow([r.notion, str(e), c.exact, c.decimal, *c.enclosure])
    write_output(path, buf.getvalue(), "--curve")


def class_file(path: str) -> bool:
    """Whether the model file is a class of laws (a JSON or TOML ``"kind"`` of a class)."""
    from pdpsym.app.readers import read_model_object  # model readers load after --help
    from pdpsym.models.model_objects import is_class_object

    if Path(path).suffix.lower() in (".bif", ".csv", ".txt"):
        return False
    return is_class_object(read_model_object(path))


def run(args: argparse.Namespace) -> int:
    from pdpsym.app.readers import load_discrete  # imported here (see NOTIONS above)
    from pdpsym.audit import Audit, audit
    from pdpsym.audit.registry import notion
    from pdpsym.models.neighbours import DDPReading

    digits = parse_int(args.digits, "--digits", 1, 1000)
    eps = [options.parse_eps(t) for t in args.eps]
    delta = None
    if args.delta is not None:
        delta = parse_rational(args.delta, "--delta")
        if not 0 <= delta < 1:
            raise InputError("--delta", "must lie in [0, 1)")
    alpha = parse_rational(args.alpha, "--alpha")
    if alpha <= 1:
        raise InputError("--alpha", "must be > 1")
    explicit = args.notions is not None
    notions = [t.strip() for t in (args.notions or ",".join(NOTIONS)).split(",") if t.strip()]
    if notions == ["all"]:
        notions = list(ALL_NOTIONS)
    if not notions:
        raise InputError("--notions", "name at least one notion")
    grid = parse_grid(args.grid) if args.curve is not None else []
    if args.curve is not None:
        check_output(args.curve, "--curve")
    known = [t.strip() for t in args.known.split(",") if t.strip()]
    spec = read_json_file(args.mechanism, "MECHANISM")
    if audit_histogram.wants_histogram(args, spec):
        structured.refuse_query(args, spec, "the histogram is of the records' states, not a query")
        return audit_histogram.run_histogram(args, spec, known, notions)
    if isinstance(spec, dict) and spec.get("query") == "sum":
        spec = {k: v for k, v in spec.items() if k != "query"}
    points = len(grid) + len(eps) + (delta is not None)
    model: Any
    mech: Any
    if class_file(args.model):  # a class of laws: each notion's sup over the members
        structured.refuse_query(args, spec, "needs a Bayesian network model")
        from pdpsym.app.commands.law_class_audit import AuditAsk, class_audit_command

        return class_audit_command(args, AuditAsk(spec, known, eps, delta, notions, digits))
    if structured.is_structured(args.model):  # a chain, independent records, a network
        model = structured.load(args.model, options.row_tolerance(args))
        kind = spec.get("kind") if isinstance(spec, dict) else None
        if kind in ("randomized-response", "histogram"):
            structured.refuse_query(args, spec, f"a {kind} mechanism releases the records' states")
        spec, model = structured.with_query(args, spec, model)  # a network's count or sum
        mech = structured.read_mechanism(spec, model)
        shared, own, fixed = structured.check_work(
            args, model, mech, args.target, known, notions, points, capped=True
        )
    else:
        structured.refuse_query(args, spec, "needs a Bayesian network model")
        model = load_discrete(args.model)
        mech = read_mechanism(args.mechanism, model)  # validates before the estimate
        size = max(number_bits(spec), number_bits(args.delta))
        shared, own = table_work(model, notions, bool(args.known), size, spec, points)
        fixed = {}
    refused = plan(args, shared, own, explicit, fixed=fixed)  # each alone within --max-work
    limit = budget.max_work(args)
    notions = [n for n in notions if n not in refused]
    results: list[NotionResult] = []
    with Progress(len(notions), "audit", enabled=args.progress, delay=2.0) as bar:
        for n in notions:  # one notion at a time, for the progress bar
            if args.ddp_reading is not None:
                readings = [DDPReading(args.ddp_reading)]
            elif notion(n).uses_reading:
                readings = [DDPReading.NEIGHBOURS, DDPReading.CONDITIONAL]
            else:
                readings = [DDPReading.NEIGHBOURS]  # not used by the other notions
            for k, reading in enumerate(readings):
                one = audit(
                    model,
                    mech,
                    args.target,
                    known,
                    [*grid, *eps],
                    delta,
                    [n],
                    reading,
                    alpha=alpha,
                    max_work=limit,  # the report cones stop there (each notion alone)
                )
                results += [
                    replace(r, notion=f"{r.notion}/conditional") if k else r for r in one.results
                ]
            bar.update(1, n)
    result = Audit(one.target, one.known, tuple(results))
    if args.curve is not None:
        _write_curve(args.curve, result, digits)
    if grid:  # the grid is for the curve file; the report keeps the --eps points
        result = Audit(
            result.target,
            result.known,
            tuple(
                replace(r, delta_at_epsilon=r.delta_at_epsilon[len(grid) :]) for r in result.results
            ),
        )
    if args.json:
        print_json(
            {
                "target": result.target,
                "known": list(result.known),
                "notions": {r.notion: result_json(r, digits) for r in result.results},
                "not_run": not_run_json(refused),
            }
        )
        return 0
    sys.stdout.write(_text(result, digits) + not_run_text(refused))
    return 0

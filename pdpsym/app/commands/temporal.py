"""``pdpsym temporal``: Cao et al.'s temporal privacy leakage (BPL, FPL, TPL) of a stream
of releases on one person's Markov chain, certified, next to the exact leakage of the
mechanism actually used."""

from __future__ import annotations

import argparse
import csv
import io
import sys
from fractions import Fraction
from typing import Any

from pdpsym.app import budget, options
from pdpsym.app.budget import Progress
from pdpsym.app.output import print_json
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_rational

DESCRIPTION = """\
One person's values over time follow the Markov chain MODEL (a "kind": "markov-chain"
file, x_1..x_T), and an eps_t-DP mechanism releases r_t from x_t at every step. For every
t, Cao et al.'s bounds on what r_1..r_t (BPL, backward), r_t..r_T (FPL, forward) and
r_1..r_T (TPL = BPL + FPL - eps_t) reveal about x_t, computed exactly by their closed
form (TKDE 2019 Theorem 4), the backward matrix P(x_t-1 | x_t) by Bayes from the chain's
own law, and every digit printed certified. The supremum over every length T (their
Theorem 10) is given for a homogeneous chain (one matrix, stationary start), or
"unbounded" with the reason. With --mechanism (randomized-response {"keep"},
geometric {"alpha"} noise on each record's integer value, or laplace {"lam"} noise on
each value of a two-state chain), the exact leakage of that mechanism at every t (certified
digits), next to the bound. With --budget, the largest constant eps keeping
every TPL_t <= ALPHA, and Cao et al.'s two allocations.

Example: pdpsym temporal docs/examples/chain6.json --eps 'ln(3)' --mechanism docs/examples/rr.json
"""


def register(sub: Any) -> None:
    p = options.described_command(
        sub,
        "temporal",
        "temporal privacy leakage (BPL, FPL, TPL) of a stream of releases, exact",
        DESCRIPTION,
    )
    p.add_argument("model", metavar="MODEL", help='a "kind": "markov-chain" model file')
    p.add_argument(
        "--eps",
        default=None,
        help="per-step eps > 0: one value, or a comma list of one per step (1/10, 0.5, "
        "ln(3)); default with --mechanism: the mechanism's own eps",
    )
    p.add_argument(
        "--mechanism",
        default=None,
        metavar="FILE",
        help='the mechanism at every step: {"kind": "randomized-response", "keep": "3/4"}, '
        '{"kind": "geometric", "alpha": "1/2"} or {"kind": "laplace", "lam": "2"} (noise on '
        "each value; Laplace on two states)",
    )
    p.add_argument(
        "--budget",
        default=None,
        metavar="ALPHA",
        help="the largest constant eps with every TPL_t <= ALPHA, and Cao et al.'s allocations",
    )
    p.add_argument(
        "--format", default="text", choices=("text", "csv"), help="text (default) or csv"
    )
    options.add_output(p, 10)
    p.set_defaults(func=run)


def _eps_list(text: str | None, T: int, mech: Any) -> list[Any]:
    from pdpsym.core.compare import compare  # the number layer loads after --help

    if text is None:
        if mech is None:
            raise InputError("--eps", "give --eps (or --mechanism, whose eps is then used)")
        return [mech.eps] * T
    parts = [s.strip() for s in text.split(",")]
    eps = [options.parse_eps(s, "--eps") for s in parts]
    if len(eps) == 1:
        eps = eps * T
    if len(eps) != T:
        raise InputError("--eps", f"{len(parts)} values for {T} steps (give one, or one per step)")
    seen: set[Any] = set()
    for t, e in enumerate(eps):
        if e.eps == 0:
            raise InputError("--eps", f"eps_{t + 1} must be > 0")
        if e in seen:
            continue  # each distinct value is compared once
        seen.add(e)
        if mech is not None and compare(e.sympy(), mech.eps.sympy()).sign < 0:
            raise InputError(
                "--eps",
                f"eps_{t + 1} = {e} is below the mechanism's own eps {mech.eps}: "
                "the bound would not hold",
            )
    return eps


def _mechanism(path: str, chain: Any) -> Any:
    from pdpsym.app.readers import read_json  # engines load after --help
    from pdpsym.audit import temporal_exact as te

    spec = read_json(path, "--mechanism")
    if not isinstance(spec, dict):
        raise InputError("--mechanism", "expected a JSON object")
    kind = spec.get("kind")
    allowed = {
        "randomized-response": {"kind", "keep"},
        "geometric": {"kind", "alpha"},
        "laplace": {"kind", "lam"},
    }
    if kind not in allowed:
        raise InputError(
            "--mechanism",
            f"kind {kind!r}: temporal computes randomized-response, and geometric or "
            "laplace noise on each record's value",
        )
    extra = set(spec) - allowed[kind]
    if extra:
        raise InputError("--mechanism", f"unknown key {sorted(extra)[0]!r}")
    try:
        if kind == "randomized-response":
            return te.randomized_response(parse_rational(spec.get("keep"), "keep"), chain.k)
        if kind == "laplace":
            return te.laplace(parse_rational(spec.get("lam", "1"), "lam"), chain.states)
        return te.geometric(parse_rational(spec.get("alpha"), "alpha"), chain.states)
    except InputError as err:  # a field of the mechanism file: name the flag that gave it
        raise InputError("--mechanism", f"{err.field}: {err.message}") from None


def _chain(path: str) -> Any:
    from pdpsym.app.readers import load_model  # engines load after --help
    from pdpsym.models.model_objects import chain_of  # engines load after --help

    chain = chain_of(load_model(path))
    if chain is None:
        raise InputError("MODEL", 'temporal needs a Markov chain ("kind": "markov-chain")')
    return chain


def _work(chain: Any, budget: bool) -> int:
    T, k = chain.length, chain.k
    pairs = k * k * k + 20
    marg = 0 if chain.stationary else T * T * k * k // 8  # the marginals' growing fractions
    return T * pairs * (60 if budget else 3) + marg


def run(args: argparse.Namespace) -> int:
    from pdpsym.audit import temporal_exact as te  # engines load after --help
    from pdpsym.loss import temporal as tp

    digits = options.digits(args.digits)
    chain = _chain(args.model)
    mech = None if args.mechanism is None else _mechanism(args.mechanism, chain)
    T = chain.length
    eps = _eps_list(args.eps, T, mech)
    alpha = None
    if args.budget is not None:
        alpha = parse_rational(args.budget, "--budget")
        if alpha <= 0:
            raise InputError("--budget", f"no eps > 0 keeps every TPL_t at most {args.budget}")
    work = _work(chain, alpha is not None)
    if isinstance(mech, te.LaplaceStream):
        work += 100 * chain.length
    elif mech is not None:
        work += te.stream_work(chain, mech)
    budget.check(args, work, "this temporal leakage")
    tc = tp.TemporalChain.of(chain)
    rows = tp.certified(lambda p: _bound_balls(tc, eps, p), digits)
    steps: list[dict[str, Any]] = [
        {
            "t": t + 1,
            "eps": str(eps[t]),
            "bpl": rows[3 * t],
            "fpl": rows[3 * t + 1],
            "tpl": rows[3 * t + 2],
        }
        for t in range(T)
    ]
    if isinstance(mech, te.LaplaceStream):

        def laplace_balls(prec: int) -> list[Any]:
            b, f, w = te.binary_stream_balls(chain, mech.eps, prec)
            return [tp.log_ball(v, prec) for t in range(T) for v in (b[t], f[t], w[t])]

        mrows = tp.certified(laplace_balls, digits)
    elif mech is not None:
        with Progress(2 * T, "steps", delay=2.0) as bar:
            leak = te.stream_leakage(chain, mech, tick=lambda: bar.update(1))
        vals = [v for t in range(T) for v in (leak.bpl[t], leak.fpl[t], leak.tpl[t])]
        mrows = tp.certified(lambda p: [tp.log_ball(v, p) for v in vals], digits)
    if mech is not None:
        for t in range(T):
            steps[t]["mechanism"] = {
                "bpl": mrows[3 * t],
                "fpl": mrows[3 * t + 1],
                "tpl": mrows[3 * t + 2],
            }
    out: dict[str, Any] = {
        "T": T,
        "mechanism": None if mech is None else {"kind": mech.kind, "eps": str(mech.eps)},
        "steps": steps,
        "supremum": _supremum(tc, eps, digits),
    }
    if alpha is not None:
        out["budget"] = _budget(tc, alpha, digits)
    if args.json:
        print_json(out)
    elif args.format == "csv":
        sys.stdout.write(_csv(out))
    else:
        sys.stdout.write("\n".join(_text(out)) + "\n")
    return 0


def _bound_balls(tc: Any, eps: list[Any], prec: int) -> list[Any]:
    from pdpsym.loss.temporal_balls import log_bounds  # engines load after --help

    b, f, w = log_bounds(tc, eps, prec)
    return [v for t in range(tc.length) for v in (b[t], f[t], w[t])]


def _supremum(tc: Any, eps: list[Any], digits: int) -> dict[str, Any]:
    from pdpsym.core.balls import working_precision  # engines load after --help
    from pdpsym.loss import temporal as tp
    from pdpsym.loss.temporal_balls import log_supremum

    none: dict[str, Any] = {"bpl": None, "fpl": None, "tpl": None}
    if not tc.homogeneous:
        return {**none, "reason": f"not given: {tc.why}"}
    if any(e != eps[0] for e in eps):
        return {**none, "reason": "not given: eps changes between steps"}
    e = eps[0]
    LB, LF = tc.steady
    ub, uf = log_supremum(LB, e, 64), log_supremum(LF, e, 64)
    if ub is None or uf is None:
        reasons = []
        if ub is None:
            reasons.append(tp.unbounded_reason(LB, e, "backward"))
        if uf is None:
            reasons.append(tp.unbounded_reason(LF, e, "forward"))
        out: dict[str, Any] = {
            "bpl": "unbounded" if ub is None else None,
            "fpl": "unbounded" if uf is None else None,
            "tpl": "unbounded",
            "reason": "; ".join(reasons),
        }
        if ub is None and uf is None:
            return out
        cands, key = (LF, "fpl") if ub is None else (LB, "bpl")

        def side(prec: int) -> list[Any]:
            v = log_supremum(cands, e, prec)
            assert v is not None
            return [v]

        return {**out, key: tp.certified(side, digits)[0]}

    def balls(prec: int) -> list[Any]:
        lb, lf = log_supremum(LB, e, prec), log_supremum(LF, e, prec)
        assert lb is not None and lf is not None
        with working_precision(prec):
            return [lb, lf, lb + lf - e.arb(prec)]

    vals = tp.certified(balls, digits)
    return {"bpl": vals[0], "fpl": vals[1], "tpl": vals[2], "reason": None}


def _budget(tc: Any, alpha: Fraction, digits: int) -> dict[str, Any]:
    from pdpsym.core.balls import ball_endpoints  # engines load after --help
    from pdpsym.core.decimals import decimal_string, enclosure_decimal
    from pdpsym.loss import temporal_budget as tb

    def enc(lo: Fraction, hi: Fraction) -> dict[str, Any]:
        # the digits the enclosure certifies (at most --digits), and the enclosure
        return {
            "decimal": enclosure_decimal(lo, hi, digits)[0],
            "enclosure": [
                decimal_string(lo, digits + 3, "down"),
                decimal_string(hi, digits + 3, "up"),
            ],
        }

    with Progress(3 * tb.STEPS, "bisection", delay=2.0) as bar:

        def tick() -> None:
            bar.update(1)

        out: dict[str, Any] = {
            "alpha": str(alpha),
            "constant_eps": enc(*tb.largest_constant_eps(tc, alpha, tick)),
        }
        if not tc.homogeneous:
            why = f"not given: {tc.why}"
            out["quantified"] = {"reason": why}
            out["upper_bound"] = {"reason": why}
            return out
        a = tb.quantified_allocation(tc, alpha, tick)
        ub = tb.upper_bound_allocation(tc, alpha, tick)
    out["quantified"] = {
        k: enc(*ball_endpoints(getattr(a, k))) for k in ("first", "middle", "last")
    }
    out["upper_bound"] = (
        {"reason": "unbounded for every eps > 0 (two rows with q_S = 1, d_S = 0)"}
        if ub is None
        else {"eps": enc(*ub)}
    )
    return out


def _v(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    return str(x["decimal"])


def _text(out: dict[str, Any]) -> list[str]:
    lines = []
    mech = out["mechanism"]
    if mech is not None:
        lines.append(f"mechanism: {mech['kind']} (eps {mech['eps']} per step); bound | exact")
    for s in out["steps"]:
        line = f"t={s['t']}  BPL {_v(s['bpl'])}  FPL {_v(s['fpl'])}  TPL {_v(s['tpl'])}"
        if "mechanism" in s:
            line += f"  | exact TPL {_v(s['mechanism']['tpl'])}"
        lines.append(line)
    sup = out["supremum"]
    lines.append(f"sup over T: BPL {_v(sup['bpl'])}  FPL {_v(sup['fpl'])}  TPL {_v(sup['tpl'])}")
    if sup["reason"]:
        lines.append(f"  ({sup['reason']})")
    bud = out.get("budget")
    if bud is not None:
        c = bud["constant_eps"]
        lines.append(
            f"budget {bud['alpha']}: constant eps {c['decimal']}  [{c['enclosure'][0]}, {c['enclosure'][1]}]"
        )
        q = bud["quantified"]
        if "reason" in q:
            lines.append(f"  Cao et al.'s allocation: {q['reason']}")
        else:
            lines.append(
                f"  Cao et al.'s allocation: eps_1 {_v(q['first'])}, middle {_v(q['middle'])}, "
                f"eps_T {_v(q['last'])}"
            )
        u = bud["upper_bound"]
        lines.append(f"  constant eps for every T: {_v(u['eps']) if 'eps' in u else u['reason']}")
    return lines


def _csv(out: dict[str, Any]) -> str:
    buf = io.StringIO()
    mech = out["mechanism"]
    buf.write(f"# T = {out['T']}\n")
    if mech is not None:
        buf.write(f"# mechanism: {mech['kind']}, eps {mech['eps']} per step\n")
    w = csv.writer(buf, lineterminator="\n")
    head = ["t", "eps", "bpl", "fpl", "tpl"]
    if mech is not None:
        head += ["mechanism_bpl", "mechanism_fpl", "mechanism_tpl"]
    w.writerow(head)
    for s in out["steps"]:
        row = [s["t"], s["eps"], _v(s["bpl"]), _v(s["fpl"]), _v(s["tpl"])]
        if "mechanism" in s:
            row += [_v(s["mechanism"][k]) for k in ("bpl", "fpl", "tpl")]
        w.writerow(row)
    return buf.getvalue()

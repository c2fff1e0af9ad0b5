"""``pdpsym counting`` and ``pdpsym threshold``: DMKB20 Section 4 bounds next to exact curves.

``counting`` prints the exact ``delta(eps)`` of the noiseless counting query (Section 4.1)
with Theorem 3's closed form and blanket bound and Proposition 7's bound; ``threshold``
prints Theorem 4's ``(r, eps, delta)`` and the exact ``delta`` of ``M_T`` at that ``eps``
(or at ``--eps``), maximized over both directions. Every number is exact with certified
digits. Where the printed formula is an erratum the corrected form is used and a
``reading`` field says so.
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from pdpsym.app import budget, options, sweep
from pdpsym.app.budget import Progress
from pdpsym.app.options import command
from pdpsym.app.output import number_text, print_json, value_json
from pdpsym.app.text import wrap
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str, parse_int, parse_rational

SMALL = 200  # up to this many records the O(n^2) exact Theorem 3 quantities are printed


def _int(text: str, field: str) -> int:
    return parse_int(text, field)


def _eps(text: str | None) -> Fraction | None:
    if text is None:
        return None
    e = options.epsilon(text, "--eps")
    if e < 0:
        raise InputError("--eps", f"must be >= 0, got {text!r}")
    return e


def read_p_values(path: str) -> list[Fraction]:
    """One probability per line (blank lines and ``#`` comments allowed)."""
    # imported here: the engines (and the reader's models) load sympy, which --help skips
    from pdpsym.app.readers import read_text_file
    from pdpsym.mechanisms.count_law import check_probability

    text = read_text_file(Path(path), "--p-values")  # the one reader: regular files, capped
    out: list[Fraction] = []
    seen: dict[str, Fraction] = {}  # a few distinct values over 10^5 lines: parse each once
    for lineno, line in enumerate(text.splitlines(), 1):
        s = line.split("#", 1)[0].strip()
        if not s:
            continue
        p = seen.get(s)
        if p is None:
            p = parse_rational(s, f"--p-values line {lineno}")
            check_probability(p, f"--p-values line {lineno}")
            seen[s] = p
        out.append(p)
    if len(out) < 1:
        raise InputError("--p-values", "no probabilities in the file")
    return out


def _bar(args: argparse.Namespace, targets: int, label: str) -> Progress:
    """One update per distinct target on stderr: on a terminal once the run passes 2 s,
    at once with --progress, never in a sweep's points."""
    forced = bool(getattr(args, "progress", None))
    return Progress(targets, label, enabled=args.progress, delay=0.0 if forced else 2.0)


def _val(x: Any, digits: int) -> dict[str, Any]:
    return value_json(x, digits)


def _sweep_options(p: Any, run: Any) -> None:
    """--out, the output options and --jobs/--scheduler, shared by counting and threshold."""
    p.add_argument("--out", metavar="FILE", help="write a sweep's CSV to FILE (default stdout)")
    options.add_output(p, 20)
    options.add_parallel(p, "a sweep's points")
    p.set_defaults(func=run)


def _records_command(sub: Any, name: str, p_values_help: str, swept: str, swept_help: str) -> Any:
    """The parser of counting or threshold: the records (--n with --p, or --p-values) and
    the required parameter whose range writes a CSV sweep."""
    p = command(sub, name)
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--n", help="number of records (with --p)")
    g.add_argument("--p-values", help=p_values_help)
    p.add_argument("--p", help="common probability p in (0, 1) (with --n)")
    p.add_argument(swept, required=True, help=swept_help)
    p.add_argument(
        "--progress",
        action="store_true",
        default=None,
        help="show the progress bar over the --p-values targets on stderr at once "
        "(default: on a terminal, once the run passes 2 s)",
    )
    return p


def register(sub: Any) -> None:
    p = _records_command(
        sub,
        "counting",
        "file with one p_i per line",
        "--eps",
        "eps >= 0 (exact, e.g. 1/10); a range START:STOP:COUNT writes a CSV sweep",
    )
    p.add_argument("--lambda", dest="lam", help="lambda with lambda < p_i < 1 - lambda")
    p.add_argument("--known", default="0", help="records known to the attacker (dropped)")
    _sweep_options(p, run_counting)

    t = _records_command(
        sub,
        "threshold",
        "file with one p_i per line (the first --known-size are known)",
        "--T",
        "threshold, 0 <= T < n; a range START:STOP[:STEP] writes a CSV sweep",
    )
    t.add_argument("--known-size", default="0", help="|B|, records known to the attacker")
    t.add_argument("--bmax", default=None, help="b_max of Theorem 4 (default: best)")
    t.add_argument(
        "--eps",
        default=None,
        help="evaluate the exact delta at this eps; a range START:STOP:COUNT writes a CSV sweep",
    )
    _sweep_options(t, run_threshold)


def _bits(p: Fraction) -> int:
    """The size of p's exact form: the exact binomials grow with it."""
    return max(p.numerator.bit_length(), p.denominator.bit_length(), 1)


def _n_and_p(args: argparse.Namespace, what: str) -> tuple[int, Fraction]:
    """``--n`` and ``--p``, refused before the work when the exact binomials are too big."""
    from pdpsym.mechanisms.count_law import check_probability  # imported here: sympy after --help

    n = _int(args.n, "--n")
    if n < 1:
        raise InputError("--n", "must be >= 1")
    # about 4 CPU microseconds a record (measured at n = 2000 and 20000)
    budget.check(args, 4 * n, f"the exact {what} delta over n records")
    p = check_probability(parse_rational(args.p, "--p"), "--p")
    budget.check(args, n * _bits(p) ** 2 // 64, "exact binomials with this many digits in p")
    return n, p


def _counting(args: argparse.Namespace) -> dict[str, Any]:
    # imported here: the engines load sympy and flint, which --help does not need
    from pdpsym.core.eps import Eps
    from pdpsym.loss.counting_loss import CountingLoss
    from pdpsym.papers.dmkb2020 import counting as pc

    digits = options.digits(args.digits, 200)
    eps = _eps(args.eps)
    assert eps is not None
    known = _int(args.known, "--known")
    if args.p_values is not None:
        if args.p is not None:
            raise InputError("--p", "use either --n/--p or --p-values")
        ps = read_p_values(args.p_values)
        n = len(ps)
    else:
        if args.p is None:
            raise InputError("--p", "required with --n")
        n, p = _n_and_p(args, "counting")
        ps = [p] * n
    if known < 0 or known > n - 1:
        raise InputError("--known", f"must satisfy 0 <= known <= n - 1 = {n - 1}")
    unknown = ps[known:]
    distinct = len(set(unknown))
    if args.p_values is not None and distinct > 1:
        # one Poisson-binomial law per distinct target p: a product of windowed ball
        # polynomials, about linear in m (measured: 10^5 records with 7 values of p take
        # a few seconds, docs/benchmarks.md); many distinct p: the worst-target search
        from pdpsym.mechanisms import population  # imported here: sympy after --help

        many = distinct >= population.MANY_DISTINCT
        budget.check(
            args,
            population.search_work(len(unknown)) if many else distinct * len(unknown) * distinct,
            f"the exact delta over {len(unknown)} records with {distinct} distinct p",
        )
    lam = None
    if args.lam is not None:
        lam = parse_rational(args.lam, "--lambda")
        budget.check(
            args, n * _bits(lam) ** 2 // 16, "exact bounds with this many digits in lambda"
        )
        if not (0 < lam < Fraction(1, 2)) or not all(lam < q < 1 - lam for q in unknown):
            raise InputError("--lambda", "need 0 < lambda < p_i < 1 - lambda for every unknown p_i")
    e = Eps.of(eps)
    if args.p_values is None:
        exact = CountingLoss.homogeneous(n, ps[0], known).delta(e)
        exact_json: dict[str, Any] = {"delta": _val(exact.value, digits)}
    else:
        with _bar(args, distinct, "counting") as bar:
            res = CountingLoss(ps, known, bar.update).delta(e)
        assert res.where is not None
        exact_json = {
            "delta": _val(res.value, digits),
            "target": res.where["target"],
            "direction": res.where["direction"],
        }
    m = len(unknown)  # the target plus its m-1 uncertain peers
    th3: dict[str, Any] = {}
    if lam is None:
        th3 = {"applicable": False, "reason": "needs --lambda"}
    else:
        closed = pc.theorem3_closed_form_delta(m, lam, eps)
        th3["closed_form_delta"] = None if closed is None else _val(closed, digits)
        th3["closed_form_note"] = (
            "delta = exp(-eps^2 lambda (n-1)/14), valid for 27/(lambda(n-1)) <= eps <= 1"
        )
        if m <= SMALL:
            xy = pc.xy_probability(m, lam, e, pc.XYReading.PRINTED)
            th3["xy_printed"] = _val(xy, digits) if xy is not None else None
            th3["blanket"] = _val(pc.blanket_delta(m, lam, e), digits)
        th3["reading"] = (
            "erratum (dmkb2020.thm3): the printed P[X/Y >= eps] is not an upper "
            "bound; 'blanket' is E_N[delta_N(eps)], N ~ Bin(n-1, 2 lambda)"
        )
    pr7: dict[str, Any] = {}
    if eps > 1 or m < 2:
        pr7 = {"applicable": False, "reason": "needs eps <= 1 (Fact 1 of GK17) and n >= 2"}
    else:
        for name, reading in (
            ("delta", pc.Prop7Reading.PRINTED),
            ("delta_berry_esseen", pc.Prop7Reading.BERRY_ESSEEN),
        ):
            r7 = pc.prop7_at_eps(unknown, eps, reading)
            pr7[name] = _val(r7.delta, digits)
        pr7["delta2"] = _val(r7.delta2, digits)
        pr7["reading"] = "printed mu_2^3; delta_berry_esseen uses mu_2^(3/2)"
    out = {
        "n": n,
        "known": known,
        "eps": fraction_str(eps),
        "exact": exact_json,
        "theorem3": th3,
        "prop7": pr7,
    }
    return out


def run_counting(args: argparse.Namespace) -> int:
    if (points := sweep.values(args.eps, "--eps", False)) is not None:
        args.progress = False  # no bar per point of a sweep
        return sweep.run(args, "eps", "--eps", points, _counting)
    out = _counting(args)
    if args.json:
        print_json(out)
        return 0
    sys.stdout.write(
        f"exact delta({number_text(out['eps'])}) = {out['exact']['delta']['decimal']}\n"
    )
    for k in ("target", "direction"):  # where the worst case is attained
        if k in out["exact"]:
            sys.stdout.write(f"exact.{k} = {out['exact'][k]}\n")
    vacuous = []
    for part in ("theorem3", "prop7"):
        for k, v in out[part].items():
            if isinstance(v, dict):
                sys.stdout.write(f"{part}.{k} = {v['decimal']}\n")
                if parse_rational(v["enclosure"][0], k) >= 1:  # certainly >= 1
                    vacuous.append(f"{part}.{k}")
    if vacuous:
        note = f"note: {', '.join(vacuous)} >= 1: a delta of 1 or more bounds nothing"
        sys.stdout.write(wrap(note + " (every mechanism has delta <= 1)") + "\n")
    return 0


def _threshold_p_values(args: argparse.Namespace, digits: int) -> dict[str, Any]:
    """``threshold --p-values``: the exact PPK delta over heterogeneous records (Theorem 4
    assumes a common p and is not evaluated)."""
    # imported here: the engines load sympy and flint, which `threshold --help` does not need
    from pdpsym.core.eps import Eps
    from pdpsym.loss.thresholding_loss import ThresholdingLoss

    if args.p is not None:
        raise InputError("--p", "use either --n/--p or --p-values")
    ps = read_p_values(args.p_values)
    n = len(ps)
    T = _int(args.T, "--T")
    size = _int(args.known_size, "--known-size")
    if size < 0 or size > n - 1:
        raise InputError("--known-size", f"must satisfy 0 <= |B| <= n - 1 = {n - 1}")
    if T < 0 or T >= n:
        raise InputError("--T", f"must satisfy 0 <= T < n = {n}")
    eps_arg = _eps(args.eps)
    if eps_arg is None:
        raise InputError("--eps", "required with --p-values (Theorem 4 needs a common p)")
    distinct = len(set(ps[size:]))
    from pdpsym.mechanisms import population  # imported here: sympy after --help

    # the worst-target search; known records add their weighted sums (measured: 10^5
    # records, |B| = 1: 15 s of CPU, |B| = 5: 27 s, against 12 s with none)
    searched = distinct >= population.MANY_DISTINCT
    budget.check(
        args,
        population.search_work(n) * (4 + size) // 4
        if searched
        else distinct * n * distinct + size * size * (size + 1),
        f"the exact thresholding delta over {n} records with {distinct} distinct p",
    )
    eps = Eps.of(eps_arg)
    with _bar(args, distinct, "threshold") as bar:
        res = ThresholdingLoss(n, T, size, ps=ps, progress=bar.update).delta(eps)
    assert res.where is not None
    v, target, direction = res.value, res.where["target"], res.where["direction"]
    return {
        "n": n,
        "T": T,
        "known_size": size,
        "theorem4": {"applicable": False, "reason": "Theorem 4 assumes a common p"},
        "exact": {
            "delta_at_epsilon": _val(v, digits),
            "target": target,
            "direction": f"{direction[0]},{direction[1]}",
            "epsilon": _val(eps.sympy(), digits),
            "kind": "PPK (Definition 13)" if size else "APK = PPK (no background knowledge)",
        },
        "reading": "independent Bernoulli(p_i) records; the worst target and direction",
    }


def _threshold(args: argparse.Namespace) -> dict[str, Any]:
    # imported here: the engines load sympy and flint, which --help does not need
    from pdpsym.core.eps import Eps
    from pdpsym.loss.thresholding_loss import ThresholdingLoss
    from pdpsym.papers.dmkb2020 import thresholding as pt

    digits = options.digits(args.digits, 200)
    if args.p_values is not None:
        return _threshold_p_values(args, digits)
    if args.p is None:
        raise InputError("--p", "required with --n")
    n, p = _n_and_p(args, "thresholding")
    # Theorem 4's numbers hold p^n and (1-p)^n, about n bits(p) bits: past a few words
    # of p their exact logs take sympy minutes, or end undecided at the precision budget
    # (measured: n = 20 and p of 4000 digits ran past 40 s; n = 100 and 100 digits ended
    # undecided in 3 s); a p of at most 64 bits (1/3, 0.15) adds nothing here
    budget.check(
        args,
        n * _bits(p) * max(_bits(p) - 64, 0) * 8,
        "Theorem 4's exact numbers with this many digits in p",
    )
    T = _int(args.T, "--T")
    size = _int(args.known_size, "--known-size")
    if size < 0 or size > n:
        raise InputError("--known-size", f"must satisfy 0 <= |B| <= n = {n}")
    if size > n - 1:
        raise InputError("--known-size", "the target cannot be known: |B| <= n - 1")
    if T < 0 or T >= n:
        raise InputError("--T", f"must satisfy 0 <= T < n = {n}")
    eps_arg = _eps(args.eps)
    if eps_arg is not None:  # exact comparisons at e^eps grow with eps's digits
        budget.check(
            args,
            n * (1 + size) * _bits(eps_arg) ** 2 // 16,
            "exact deltas with this many digits in eps",
        )
    bmax = None if args.bmax is None else _int(args.bmax, "--bmax")
    if size > 0 and bmax is None:
        bmax = pt.best_b_max(n, p, T, size)
    th = pt.theorem4(n, p, T, size, bmax)
    if th is not None and n > 400:  # print formulas, not 10^5-digit rationals
        th = pt.with_display(th, n, p, T, size)
    th4: dict[str, Any]
    if th is None:
        th4 = {
            "applicable": False,
            "reason": "hypotheses fail (r >= 1, r_b >= 1, T - b_max <= 0 or delta >= 1)",
        }
    else:
        th4 = {
            "r": _val(th.r, digits),
            "epsilon": _val(th.eps_sympy(), digits),
            "delta": _val(th.delta_sympy(), digits),
        }
        if th.r_b is not None:
            th4["r_b"] = _val(th.r_b, digits)
            th4["b_max"] = th.b_max
    r_printed = pt.r_printed(n, p, T) if size == 0 else None
    reading = (
        "r = p(n-1)/((1-p)T): the printed (1-p)^T is read as a product, as in r_b and "
        "r' (dmkb2020.thm4); the printed value is given as r_printed"
    )
    if r_printed is not None:
        th4["r_printed"] = _val(r_printed, digits)
    eps: Eps | None
    if eps_arg is not None:
        eps = Eps.of(eps_arg)
    else:
        eps = th.eps if th is not None else None
    exact: dict[str, Any] = {}
    if eps is None:
        exact["delta_at_epsilon"] = None
        exact["reason"] = "no eps: pass --eps (Theorem 4 does not apply)"
    else:
        ppk = ThresholdingLoss.homogeneous(n, p, T, size).delta(eps)
        assert ppk.where is not None
        v, direction = ppk.value, ppk.where["direction"]
        exact["delta_at_epsilon"] = _val(v, digits)
        exact["direction"] = f"{direction[0]},{direction[1]}"
        exact["epsilon"] = _val(eps.sympy(), digits)
        exact["kind"] = "PPK (Definition 13)" if size else "APK = PPK (no background knowledge)"
        if 0 < size <= 50:
            apk = ThresholdingLoss.homogeneous(n, p, T, size, "apk").delta(eps)
            assert apk.where is not None
            apk_v, apk_b, apk_dir = apk.value, apk.where["b"], apk.where["direction"]
            exact["apk_delta_at_epsilon"] = _val(apk_v, digits)
            exact["apk_worst_b"] = apk_b
            exact["apk_direction"] = f"{apk_dir[0]},{apk_dir[1]}"
    out = {
        "n": n,
        "p": fraction_str(p),
        "T": T,
        "known_size": size,
        "theorem4": th4,
        "exact": exact,
        "reading": reading,
    }
    return out


def run_threshold(args: argparse.Namespace) -> int:
    for attr, flag, integer in (("T", "--T", True), ("eps", "--eps", False)):
        if (points := sweep.values(getattr(args, attr), flag, integer)) is not None:
            args.progress = False  # no bar per point of a sweep
            return sweep.run(args, attr, flag, points, _threshold)
    out = _threshold(args)
    if args.json:
        print_json(out)
        return 0
    for k, v in out["theorem4"].items():
        if isinstance(v, dict):
            sys.stdout.write(f"theorem4.{k} = {v['decimal']}\n")
    shown = out["exact"].get("delta_at_epsilon")
    sys.stdout.write(f"exact.delta_at_epsilon = {shown['decimal'] if shown else None}\n")
    if shown is None:
        sys.stdout.write(f"exact.reason = {out['exact']['reason']}\n")
    # where the worst case is attained, and the active delta (as --json gives them)
    for k in ("target", "direction", "apk_delta_at_epsilon", "apk_worst_b", "apk_direction"):
        v = out["exact"].get(k)
        if v is not None:
            sys.stdout.write(f"exact.{k} = {v['decimal'] if isinstance(v, dict) else v}\n")
    sys.stdout.write(wrap(f"reading: {out['reading']}") + "\n")
    return 0

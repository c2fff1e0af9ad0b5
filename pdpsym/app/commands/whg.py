"""``pdpsym whg``: every WHG node's exact Eq. 2 value next to its chain-rule value
(Li et al. Section V, Theorems 2 and 5, Algorithms 1-2), or the chain rule on given edges.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import sys
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from pdpsym.app import budget, options
from pdpsym.app.budget import Progress
from pdpsym.app.options import command
from pdpsym.app.output import number_text, print_json
from pdpsym.app.tables import render
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_int, parse_rational

# --help shows these without loading the engines (sympy, flint); tests/app/test_startup.py
# checks them against pdpsym.papers.li2019 (EdgeReading, BottomRule, MAX_BATCH_DIGITS)
READINGS = ("right", "left", "both")
BOTTOMS = ("theorem4", "eq2")
BATCH_DIGITS = 13


def _positive_int(text: str, field: str, lo: int = 1, hi: int = 10**6) -> int:
    return parse_int(text, field, lo, hi)


def register(sub: Any) -> None:
    p = command(sub, "whg")
    p.add_argument("model", metavar="MODEL", nargs="?", help="discrete model (.json/.toml/.csv)")
    p.add_argument(
        "--edges",
        metavar="FILE",
        help="given edges: JSON {n, bottom, edges[i][p][mask]} instead of MODEL",
    )
    p.add_argument("--lam", default="1", help="Laplace scale lambda > 0 (exact)")
    p.add_argument("--weights", default=None, help="linear query weights A=w,... (default: sum)")
    p.add_argument("--fast", default=None, metavar="K", help="fast search: top-K nodes per layer")
    p.add_argument(
        "--digits",
        default="12",
        help=f"certified significant digits (default 12; up to {BATCH_DIGITS} binary "
        "sum-query tables are certified in batch at float speed, more use the exact engine)",
    )
    p.add_argument(
        "--exact-forms",
        action="store_true",
        help="also print each value's exact closed form (runs the exact per-node engine)",
    )
    p.add_argument(
        "--reading",
        choices=READINGS,
        default="right",
        help="Eq. 9 tail reading (default right: r -> +inf)",
    )
    p.add_argument(
        "--bottom",
        choices=BOTTOMS,
        default="theorem4",
        help="layer-1 values: printed Theorem 4 (Delta_i/lam) or exact Eq. 2",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    options.add_parallel(p, "the targets of the batch engine (13 or more tuples)")
    p.add_argument(
        "--progress", action="store_true", default=None, help="force the progress bar on stderr"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``pdpsym whg``: the weighted hierarchical graph of a table, with the cyclic garbage
    collector paused (the run builds ~10^5 small acyclic objects -- rows, node keys,
    decimals -- and the collector's passes over them were ~5% of a 12-tuple run)."""
    with _gc_paused():
        return _run(args)


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _run(args: argparse.Namespace) -> int:
    # imported here: the engines load sympy, flint and numpy, which --help does not need
    from pdpsym.app.readers import load_discrete
    from pdpsym.core.certify import certify
    from pdpsym.mechanisms.laplace import LinearQuery, parse_lambda
    from pdpsym.papers.li2019.edges import EdgeReading
    from pdpsym.papers.li2019.whg import (
        MAX_EXACT_N,
        BottomRule,
        max_chain,
        max_exact,
        whg_from_distribution,
    )
    from pdpsym.papers.li2019.whg.batch import (
        MAX_BATCH_DIGITS,
        MAX_BATCH_N,
        batch_applies,
    )

    digits = options.digits(args.digits)
    k = None if args.fast is None else _positive_int(args.fast, "--fast")
    if (args.model is None) == (args.edges is None):
        raise InputError("MODEL", "give exactly one of MODEL or --edges FILE")
    if args.edges is not None:
        return _run_edges(args, k, digits)
    model = load_discrete(args.model)
    bound = 10**MAX_LAM_EXPONENT
    for name, dom in zip(model.variables, model.domains, strict=True):
        for value in dom:
            # a value like 1e9999 mixes exponentials e^{-|r - s|/lam} whose signs no
            # precision budget decides (found by the fuzz run: minutes, then undecided)
            if value and not Fraction(1, bound) <= abs(value) <= bound:
                raise InputError(
                    "MODEL",
                    f"{name} = {_readable(str(value))} is outside "
                    f"1e-{MAX_LAM_EXPONENT}..1e{MAX_LAM_EXPONENT} in magnitude",
                )
    lam = parse_lambda(args.lam)
    if not Fraction(1, 10**MAX_LAM_EXPONENT) <= lam <= 10**MAX_LAM_EXPONENT:
        # every value is of order 1/lambda (or lambda's exponentials): deciding signs at
        # such scales outruns the exact engine's precision budget, and no digit of the
        # answer would be readable; the library itself accepts any lambda > 0
        raise InputError(
            "lam",
            f"{_readable(str(lam))} is outside 1e-{MAX_LAM_EXPONENT}..1e{MAX_LAM_EXPONENT} "
            "(the WHG values would be of order 1/lambda)",
        )
    query = LinearQuery.from_text(model, args.weights)
    batch = (
        k is None
        and not args.exact_forms
        and digits <= MAX_BATCH_DIGITS
        and model.n <= MAX_BATCH_N
        and batch_applies(model, lam, query)
    )
    if batch:
        budget.check(args, 3**model.n * (model.n + 1) * 4, "the batch WHG of this model")
        return _run_batch(args, model, lam, query, digits)
    if model.n > MAX_EXACT_N:
        raise InputError(
            "MODEL",
            f"{model.n} tuples: the exact WHG engine is limited to n <= {MAX_EXACT_N} (the "
            f"batch engine, for binary full-support tables with the sum query and at most "
            f"{MAX_BATCH_DIGITS} digits, to n <= {MAX_BATCH_N}); use --edges for the chain "
            "rule on given edge values",
        )
    size = model.n * 2 ** (model.n - 1)
    budget.check(args, model.cells * 2**model.n, "the exact WHG of this model")

    def val(v: Any) -> dict[str, Any] | None:
        return None if v is None else certify(v, digits).as_json()

    # three passes over the nodes: exact Eq. 2, chain rule, certification
    with Progress(3 * size, "whg", enabled=args.progress) as bar:
        g = whg_from_distribution(
            model,
            lam,
            query,
            reading=EdgeReading(args.reading),
            fast_k=k,
            bottom=BottomRule(args.bottom),
            progress=bar,
        )
        nodes = g.ordered()
        out_nodes: list[dict[str, Any]] = []
        for v in nodes:
            exact = v.exact.value if v.exact is not None and v.exact.ok else None
            out_nodes.append(
                {
                    "target": v.target,
                    "known": list(v.known),
                    "layer": v.layer,
                    "status": v.exact.status if v.exact is not None else "ok",
                    "generated": v.generated,
                    "exact": val(exact),
                    "chain": val(v.chain_value if v.generated else None),
                }
            )
            bar.update(1, "certifying")
    mc, me = max_chain(nodes), max_exact(nodes)
    mx: dict[str, Any] = {
        "exact": None if me is None else _max_node(me, val(me.exact.value)),  # type: ignore[union-attr]
        "chain": None if mc is None else _max_node(mc, val(mc.chain_value)),
    }
    meta = {
        "lam": str(lam),
        "reading": args.reading,
        "bottom": args.bottom,
        "search": "full" if k is None else f"fast k={k}",
    }
    columns = ["status", "Eq. 2", "chain rule"]
    return _emit(
        args,
        out_nodes,
        mx,
        meta,
        columns,
        lambda n: [n["status"], _dec(n["exact"]), _dec(n["chain"])],
    )


PARALLEL_FROM_N = 13
#: the largest |log10 lambda| the command accepts (see run)
MAX_LAM_EXPONENT = 1000
#: exact texts longer than this print in scientific form (the exact text stays in --json)
LONG_TEXT = 40


def _run_batch(args: argparse.Namespace, model: Any, lam: Fraction, query: Any, digits: int) -> int:
    # imported here: the engines load sympy, flint and numpy, which --help does not need
    import numpy as np

    from pdpsym.core.certify import ball_decimal, certify
    from pdpsym.core.compare import enclosure_argmax
    from pdpsym.core.decimals import certified_decimals
    from pdpsym.loss.table_leakage import table_leakage
    from pdpsym.papers.li2019.edges import EdgeReading, rational_log
    from pdpsym.papers.li2019.whg import (
        MAX_EXACT_N,
        BottomRule,
        ChainValue,
        compare_chain_values,
        whg_from_distribution,
    )
    from pdpsym.papers.li2019.whg.batch import (
        ChainRefiner,
        batch_whg,
        eq2_ball,
    )
    from pdpsym.papers.li2019.whg.tie_classes import DELTA_OVER_LAMBDA, TieClasses, tie_classes

    """Every node certified from batch enclosures; the exact engine only for a value whose
    enclosure does not fix ``digits`` digits and for a maximum the enclosures do not decide."""
    n, names = model.n, model.variables
    reading, bottom = EdgeReading(args.reading), BottomRule(args.bottom)
    with Progress(n * 2 ** (n - 1), "whg", enabled=args.progress) as bar:
        # below 13 tuples a second process costs more than it saves (measured)
        jobs = options.jobs(args) if n >= PARALLEL_FROM_N or args.scheduler else 1
        b = batch_whg(
            model,
            lam,
            reading,
            bottom is BottomRule.EQ2,
            progress=bar,
            jobs=jobs,
            scheduler=args.scheduler,
        )
    exact_graph: list[Any] = []  # the exact chain rule, built only if some value needs it

    def exact_nodes() -> dict[Any, Any]:
        if not exact_graph:
            g = whg_from_distribution(
                model, lam, query, reading=reading, bottom=bottom, with_exact=False
            )
            exact_graph.append(g.nodes)
        return exact_graph[0]

    def eq2_exact(i: int, known: tuple[str, ...]) -> Any:
        return ChainValue.of(table_leakage(model, names[i], known, lam, query).require())

    def chain_exact(i: int, known: tuple[str, ...]) -> Any:
        return exact_nodes()[(names[i], frozenset(known))].chain_value

    counts = model.counts
    refiner = ChainRefiner(
        b, lambda i, prec: eq2_exact(i, tuple(v for v in names if v != names[i])).arb(prec)
    )

    def value(
        i: int, K: int, known: tuple[str, ...], which: str, out: dict[str, Any] | None
    ) -> dict[str, Any]:
        # out: the decimal certified from the float enclosure, or None (then refine)
        for prec in (128, 512) if out is None else ():
            ball = (
                refiner.chain(i, K, prec) if which == "chain" else eq2_ball(counts, lam, i, K, prec)
            )
            out = ball_decimal(ball, digits)
            if out is not None:
                break
        if out is None:
            exact = eq2_exact(i, known) if which == "eq2" else chain_exact(i, known)
            out = certify(exact, digits).as_json()
            del out["exact"]
        return out

    # the known tuples once per mask (not once per node)
    known_of = [tuple(names[v] for v in range(n) if K >> v & 1) for K in range(1 << n)]
    keys = sorted(
        (n - len(known_of[K]), i, known_of[K], K)
        for i in range(n)
        for K in range(1 << n)
        if not K >> i & 1
    )
    order_i = np.array([i for _, i, _, _ in keys], dtype=np.int64)
    order_K = np.array([K for _, _, _, K in keys], dtype=np.int64)
    # every value's decimal from its float enclosure, in one pass (node order)
    eq2_dec = certified_decimals(
        b.eq2_lo[order_i, order_K].tolist(), b.eq2_hi[order_i, order_K].tolist(), digits
    )
    chain_dec = certified_decimals(
        b.chain_lo[order_i, order_K].tolist(), b.chain_hi[order_i, order_K].tolist(), digits
    )
    out_nodes = [
        {
            "target": names[i],
            "known": list(known),
            "layer": layer,
            "status": "ok",
            "generated": True,
            "exact": value(i, K, known, "eq2", e_dec),
            "chain": value(i, K, known, "chain", c_dec),
        }
        for (layer, i, known, K), e_dec, c_dec in zip(keys, eq2_dec, chain_dec, strict=True)
    ]
    by_key = {(i, K): node for (_, i, _, K), node in zip(keys, out_nodes, strict=True)}

    ties: list[TieClasses] = []  # the exact tie classes, built only if some maximum ties

    def classes() -> TieClasses:
        if not ties:
            ties.append(tie_classes(model.counts, bottom is BottomRule.EQ2))
        return ties[0]

    def argmax(lo: np.ndarray, hi: np.ndarray, which: str) -> dict[str, Any]:
        # the first maximum in node order: enclosures, then exact tie classes (equal
        # conditional laws, symmetries, Delta/lambda), then balls at raised precision,
        # then the exact engine for the candidates still tied
        def key_of(k: int) -> int:
            c = classes().eq2 if which == "eq2" else classes().chain
            return int(c[order_i[k], order_K[k]])

        def exact_of(k: int) -> Any:
            _, i, known, _ = keys[k]
            if key_of(k) == DELTA_OVER_LAMBDA:
                return ChainValue.of(rational_log(1 / lam))
            if which == "eq2":
                return eq2_exact(i, known)
            if n > MAX_EXACT_N:
                raise InputError(
                    "MODEL",
                    f"chain values tie for the maximum at 512 bits; deciding them exactly "
                    f"needs the exact engine (n <= {MAX_EXACT_N})",
                )
            return chain_exact(i, known)

        def ball_of(k: int, prec: int) -> Any:
            return refiner.chain(int(order_i[k]), int(order_K[k]), prec)

        best = enclosure_argmax(
            lo[order_i, order_K],
            hi[order_i, order_K],
            key_of,
            exact_of,
            compare_chain_values,
            ball_of if which == "chain" else None,
        )
        _, i, _, K = keys[best]
        node = by_key[(i, K)]
        field = "exact" if which == "eq2" else "chain"
        return {k: node[k] for k in ("target", "known", "layer")} | {"value": node[field]}

    mx = {
        "exact": argmax(b.eq2_lo, b.eq2_hi, "eq2"),
        "chain": argmax(b.chain_lo, b.chain_hi, "chain"),
    }
    meta = {"lam": str(lam), "reading": args.reading, "bottom": args.bottom, "search": "full"}
    return _emit(
        args,
        out_nodes,
        mx,
        meta,
        ["status", "Eq. 2", "chain rule"],
        lambda n: [n["status"], _dec(n["exact"]), _dec(n["chain"])],
    )


def _max_node(v: Any, value: Any) -> dict[str, Any]:
    return {"target": v.target, "known": list(v.known), "layer": v.layer, "value": value}


def _readable(text: str) -> str:
    """A rational's exact text, or its 12-digit scientific form when the text is long."""
    return text if len(text) <= LONG_TEXT else number_text(text, 12)


def _dec(v: dict[str, Any] | None) -> str:
    return v["decimal"] if v else "-"


def _node(n: dict[str, Any]) -> str:
    return f"A({n['target']}, {{{', '.join(n['known'])}}})"


def _emit(
    args: argparse.Namespace,
    nodes: list[dict[str, Any]],
    mx: dict[str, Any],
    meta: dict[str, Any],
    columns: list[str],
    cells: Any,
) -> int:
    """Print the nodes as JSON, or as a table with the maxima and the settings."""
    if args.json:
        print_json({"nodes": nodes, "max": mx, **meta}, compact=True)
        return 0
    rows = [[_node(n), str(n["layer"]), *cells(n)] for n in nodes]
    sys.stdout.write(render(["node", "layer", *columns], rows, "md"))
    for key in ("exact", "chain"):
        m = mx[key]
        if m is not None:
            exact = m["value"].get("exact")
            sys.stdout.write(
                f"max {key}: {_node(m)} layer {m['layer']} = "
                + (f"{exact} ~ " if exact is not None and len(exact) <= LONG_TEXT else "")
                + f"{m['value']['decimal']}"
                + (" (exact form: --json)" if exact is not None and len(exact) > LONG_TEXT else "")
                + "\n"
            )
    sys.stdout.write(", ".join(f"{a}: {_readable(str(b))}" for a, b in meta.items()) + "\n")
    return 0


def _run_edges(args: argparse.Namespace, k: int | None, digits: int) -> int:
    # imported here: the engines load sympy, flint and numpy, which --help does not need
    from pdpsym.app.readers import read_model_object
    from pdpsym.core.certify import certify
    from pdpsym.papers.li2019.whg import (
        ArrayEdges,
        fast_search,
        full_search,
    )

    obj = read_model_object(args.edges)
    src = ArrayEdges.from_json_object(obj, parse_rational)
    with Progress(src.n, "whg", enabled=args.progress) as bar:
        res = full_search(src, progress=bar) if k is None else fast_search(src, k)
    names = obj.get("variables") or [f"x{t + 1}" for t in range(src.n)]
    if (
        not isinstance(names, list)
        or len(names) != src.n
        or not all(isinstance(x, str) for x in names)
    ):
        raise InputError("edges.variables", f"expected {src.n} names")
    m = src.n - 1
    nodes: list[dict[str, Any]] = []
    best: tuple[Fraction, dict[str, Any]] | None = None
    for i, V in enumerate(res.values):
        others = [names[t] for t in range(src.n) if t != i]
        for mask in sorted(range(1 << m), key=lambda x: -bin(x).count("1")):
            v = V[mask]
            known = [others[p] for p in range(m) if mask >> p & 1]
            node = {
                "target": names[i],
                "known": known,
                "layer": src.n - len(known),
                "status": "ok" if v is not None else "not-generated",
                "exact": None,
                "chain": None if v is None else certify(v, digits).as_json(),
            }
            nodes.append(node)
            if v is not None and (best is None or v > best[0]):
                best = (v, node)
    nodes.sort(key=lambda x: (x["layer"], names.index(x["target"]), x["known"]))
    mx: dict[str, Any] = {
        "exact": None,
        "chain": None
        if best is None
        else {
            "target": best[1]["target"],
            "known": best[1]["known"],
            "layer": best[1]["layer"],
            "value": best[1]["chain"],
        },
    }
    meta = {"search": "full" if k is None else f"fast k={k}", "source": "given edges"}
    return _emit(args, nodes, mx, meta, ["chain rule"], lambda n: [_dec(n["chain"])])

"""``pdpsym audit`` on a structured model (a Markov chain, independent records, a Bayesian
network): the model file, the mechanism file and the work estimate.

The engines load inside these functions (see :mod:`pdpsym.app.commands.audit`), so that
``audit --help`` starts at once.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import types
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

from pdpsym.app import budget
from pdpsym.app.audit_work import posterior_work, table_work
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_rational

#: mechanism kinds a structured model is audited with (all act on the weighted sum)
ONE = Fraction(1)
SUM_KINDS = ("laplace", "geometric", "count", "threshold")
#: an audit's fixed steps under randomized response (the engines imported, the files
#: read, the output: 0.64 s of CPU measured for a 2-record chain's dp), paid once per
#: process: a class audit charges it once, not per law
RR_BASE = 5 * 10**5


def is_structured(path: str) -> bool:
    """Whether the model file is a structured model (a ``.bif`` file or a ``"kind"``)."""
    from pdpsym.app.readers import is_bif, read_model_object  # model readers: after --help

    if is_bif(path):
        return True
    return "kind" in read_model_object(path)


def load(path: str, tolerance: Fraction | None = None) -> Any:
    """The structured model of a model file (``tolerance``: a network's row tolerance)."""
    from pdpsym.app.readers import load_model  # model readers load after --help

    return load_model(path, tolerance)


def only_keys(obj: Mapping[str, Any], allowed: set[str]) -> None:
    """Refuse a mechanism object with a key outside ``allowed`` (field ``mechanism``)."""
    for k in obj:
        if k not in allowed:
            raise InputError("mechanism", f"unknown key {k!r}")


@contextlib.contextmanager
def mechanism_fields() -> Iterator[None]:
    """Errors raised inside name the field inside the mechanism file (``mechanism.rows[3]``),
    as distinct from the model file's (``rows[3]``)."""
    try:
        yield
    except InputError as err:
        field = err.field
        if field.split(".")[0].split("[")[0] not in ("mechanism", "MECHANISM"):
            field = f"mechanism.{field}"
        raise InputError(field, err.message) from None


def with_query(args: argparse.Namespace, spec: Any, model: Any) -> tuple[Any, Any]:
    """The mechanism object without its ``count`` / ``sum`` key and the model with the
    query they (or ``--count`` / ``--sum``) name: a Bayesian network's count
    ``{"nodes": [NODE, ...], "state": STATE}`` or sum ``[NODE, ...]``."""
    from pdpsym.app import options  # the option parsers load after --help

    keys = [k for k in ("count", "sum") if isinstance(spec, Mapping) and k in spec]
    flags = [f"--{k}" for k in ("count", "sum") if getattr(args, k, None) is not None]
    if not keys:
        return spec, options.network_query(args, model)
    if flags:
        raise InputError(flags[0], f"the mechanism file names the query too (key {keys[0]!r})")
    if len(keys) > 1:
        raise InputError("mechanism.count", "give count or sum, not both")
    key = keys[0]
    rest = {k: v for k, v in spec.items() if k != key}
    field = f"mechanism.{key}"
    if not hasattr(model, "count_query"):
        raise InputError(field, "needs a Bayesian network model")
    raw = spec[key]
    with mechanism_fields():
        if key == "sum":
            return rest, model.sum_query(raw)
        if not isinstance(raw, Mapping) or set(raw) != {"nodes", "state"}:
            raise InputError(field, 'expected {"nodes": [NODE, ...], "state": STATE}')
        if not isinstance(raw["state"], str):
            raise InputError(f"{field}.state", "expected a state name")
        return rest, model.count_query(raw["nodes"], raw["state"])


def refuse_query(args: argparse.Namespace, spec: Any, why: str) -> None:
    """Refuse ``--count`` / ``--sum`` (or the mechanism file's key) where the query is not
    what the audit releases (``why``)."""
    for k in ("count", "sum"):
        if getattr(args, k, None) is not None:
            raise InputError(f"--{k}", why)
        if isinstance(spec, Mapping) and k in spec:
            raise InputError(f"mechanism.{k}", why)


def read_mechanism(spec: Any, model: Any) -> Any:
    """The :class:`~pdpsym.mechanisms.base.SumMechanism` a mechanism file describes, for
    a structured model; its errors name the field inside the mechanism file."""
    with mechanism_fields():
        return _read(spec, model)


def _read(spec: Any, model: Any) -> Any:
    # the mechanisms load after --help
    from pdpsym.mechanisms.sum_kernels import CountSum, GeometricSum, LaplaceSum, ThresholdSum

    if not isinstance(spec, dict):
        raise InputError("MECHANISM", "expected a JSON object")
    kind = spec.get("kind")
    if kind == "randomized-response":
        return _read_rr(spec, model)
    if kind == "histogram":
        return _read_histogram(spec, model)
    if kind == "table":
        raise InputError(
            "kind",
            "'table' is not supported on a structured model (a table lists every "
            f"database); use one of {', '.join(SUM_KINDS)}, histogram or randomized-response",
        )
    if kind not in SUM_KINDS:
        raise InputError("kind", f"unknown kind {kind!r}; known: {', '.join(SUM_KINDS)}")
    weights = None
    raw = spec.get("weights")
    if raw is not None:
        if not isinstance(raw, Mapping):
            raise InputError("weights", "expected an object NAME -> weight")
        names = set(model.variables)
        weights = {}
        for k, v in raw.items():
            if k not in names:
                raise InputError("weights", f"unknown variable {k!r}")
            weights[k] = parse_rational(v, f"weights.{k}")
    if kind == "laplace":
        only_keys(spec, {"kind", "lam", "weights"})
        lam = parse_rational(spec.get("lam", "1"), "lam")
        if lam <= 0:
            raise InputError("lam", "must be > 0")
        return LaplaceSum(weights, lam=lam)
    if kind == "geometric":
        only_keys(spec, {"kind", "alpha", "weights"})
        alpha = parse_rational(spec.get("alpha"), "alpha")
        if not 0 < alpha < 1:
            raise InputError("alpha", "must lie in (0, 1)")
        return GeometricSum(weights, alpha=alpha)
    if kind == "count":
        only_keys(spec, {"kind", "weights"})
        return CountSum(weights)
    only_keys(spec, {"kind", "T", "weights"})
    if "T" not in spec:
        raise InputError("T", "missing")
    return ThresholdSum(weights, T=parse_rational(spec["T"], "T"))


def _read_histogram(spec: Mapping[str, Any], model: Any) -> Any:
    """The histogram of all values, where every record takes the same two values.

    Then the histogram ``(#v0, #v1)`` and the noiseless sum ``T v0 + (v1 - v0) #v1`` are
    functions of each other, so every notion's privacy loss is the same for both (each
    is a function of the output law's likelihood ratios, which a bijection of the outputs
    keeps): the audit runs the noiseless count. Over more than two values the histogram is
    a vector of counts, not computed here.
    """

    from pdpsym.mechanisms.sum_kernels import CountSum  # the mechanisms load after --help

    only_keys(spec, {"kind"})
    domains = {tuple(model.domain(v)) for v in model.variables}
    if len(domains) != 1 or len(next(iter(domains))) != 2:
        raise InputError(
            "kind",
            "'histogram' is computed on a structured model only when every record takes "
            "the same two values (then it is the count); use count, threshold, laplace, "
            "geometric or randomized-response",
        )
    return CountSum(None)


def _read_rr(spec: Mapping[str, Any], model: Any) -> Any:
    """Randomized response on the model's own domains (chains and independent records)."""
    from pdpsym.audit.rr_reports import check_rr  # the audit layer loads after --help
    from pdpsym.mechanisms.discrete import randomized_response

    only_keys(spec, {"kind", "keep"})
    keep = parse_rational(spec.get("keep"), "keep")
    if not 0 < keep <= 1:
        raise InputError("keep", "must lie in (0, 1]")
    mech = randomized_response(keep, [model.domain(v) for v in model.variables])
    reason = check_rr(model, mech)
    if reason is not None:
        raise InputError("kind", f"'randomized-response': {reason}")
    return mech


def check_work(
    args: argparse.Namespace,
    model: Any,
    mech: Any,
    target: str,
    known: Sequence[str],
    notions: Sequence[str],
    points: int,
    *,
    capped: bool = False,
) -> tuple[int, dict[str, int], dict[str, str]]:
    """The estimated steps of an audit of a structured model: the part every notion shares
    (refused here, before any work, when it alone exceeds ``--max-work``), each notion's
    own (:func:`pdpsym.app.audit_work.plan` decides which run), and the notions no
    ``--max-work`` runs, with the reason (a component over the rows a network lists).

    The estimate: ``m (A + 1)`` query laws (``m`` target values, ``A`` the assignments of
    the known records), each costing the model's ``size_hint()`` times the growth of the
    count by the weights (the known records' mixed-radix weights make ``A`` counts), then
    per notion ``m^2 A`` pairs of laws of ``S + 1`` values (``S`` the span of the sum),
    each walked at ``points + 4`` places with about 50 exact operations; geometric and
    Laplace pairs cost ``S`` more per value (the kernel's outputs, the breakpoints) and
    about 6000 steps more per point (a closed form built and certified per pair).
    ``capped``: the audit passes ``--max-work`` to the report cones of randomized
    response (:func:`_cone_estimate`), which stop there.
    """
    names = tuple(model.variables)
    if target not in names:
        raise InputError("target", f"unknown record {target!r}")
    for k in known:
        if k not in names:
            raise InputError("known", f"unknown record {k!r}")
    domains = {v: model.domain(v) for v in known}
    assignments = math.prod(len(d) for d in domains.values())
    m = len(model.domain(target))
    from pdpsym.models.model_objects import network_of  # the models load after --help

    if not hasattr(mech, "kind") and network_of(model) is not None:
        return _network_rr_work(args, model, target, notions, points)  # the target's component
    if not hasattr(mech, "kind"):  # randomized response: the reports around the target
        from pdpsym.app.rr_audit_work import law_work, rr_notion_work  # after --help

        # the query laws of the known values, then each notion's listed laws
        # (:mod:`pdpsym.app.rr_audit_work`, measured per law)
        n = len(names)
        laws = law_work(getattr(model, "k", m), n, m * (assignments + 2))
        i = names.index(target)  # the sides' cones, one per neighbour value
        cone = _cone_estimate(model, mech, i, capped) + _cone_estimate(
            model, mech, n - 1 - i, capped
        )
        cone *= m if known else 1
        conditional = getattr(args, "ddp_reading", None) == "eq11-conditional"
        rr_own = rr_notion_work(
            model, Fraction(mech.keep), target, known, notions, points, conditional, cone
        )
        budget.check(args, RR_BASE + laws, "this audit")
        return RR_BASE + laws, rr_own, {}
    from pdpsym.app import product_audit_work as product  # loads after --help

    ws = {k: Fraction(x) for k, x in (mech.weights or {}).items()}
    scale = math.lcm(1, *(Fraction(x).denominator for x in ws.values()))
    wmax = max([int(abs(Fraction(x)) * scale) for x in ws.values()] + [scale])
    per_law = model.size_hint() * wmax
    laws = m * (assignments + 1) * per_law + m * per_law * assignments
    if not product.is_product(model):  # a product model's laws are the notions' own
        budget.check(args, 10**5 + laws, "this audit")  # before walking every record
    memo: dict[tuple[int, Fraction], int] = {}
    span = 0
    for v in names:
        dom = model.domain(v)
        x = ws.get(v, ONE)
        key = (id(dom), x)
        if key not in memo:
            memo[key] = int((max(dom) - min(dom)) * abs(x) * scale)
        span += memo[key]
    if mech.lam is not None and product.is_product(model):  # calibrated on its own
        count = (assignments, span, scale)
        return product.product_work(args, model, mech, target, known, count, notions, points)
    if getattr(model, "query_values", None) is not None:  # a network's count or sum query
        from pdpsym.models.counts import query_contributions  # the models load after --help

        contrib = query_contributions(model, {v: int(ws.get(v, ONE) * scale) for v in names})
        span, scale = contrib.span, scale * contrib.scale  # the query's own count units
    per_pair = (span + 1) * (points + 4) * 50
    if mech.alpha is not None or mech.lam is not None:
        # each point's δ is a closed form built and certified per pair: about a
        # millisecond however small the span (measured: 16 Laplace pairs of a 2-record
        # chain at 10^4 points took 30 s)
        per_pair = per_pair * (span + 1) + (points + 4) * 6000
    from pdpsym.audit.registry import notion as notion_of  # the audit layer loads after --help

    own: dict[str, int] = {}
    for notion in notions:
        if not notion_of(notion).over_outputs:
            own[notion] = m * m * assignments * notion_of(notion).directions * per_pair
            continue
        sizes = (assignments, span, per_law, scale)
        with_delta = getattr(args, "delta", None) is not None
        own[notion] = posterior_work(notion, model, mech, target, known, sizes, points, with_delta)
    if product.is_product(model):  # dp reads no law: the laws are charged to the others
        kernel = (mech.kind, span, m, assignments, points)
        return product.laws_to_notions(
            args, model, 10**5 + laws, own, args.ddp_reading, kernel, mech
        )
    return 10**5 + laws, own, {}


def _cone_estimate(model: Any, mech: Any, n: int, capped: bool = False) -> int:
    """The extreme rays' programme of a long chain of three states or more
    (:func:`pdpsym.audit.rr_report_cones.cone_work`) on one side of the target, ``n``
    records long at most; 0 when it does not run (two states, independent records, a
    segment listed whole). ``capped``: the audit stops the cones at ``--max-work``
    (leaving ε uncomputed, with a note), so the estimate assumes the ``k`` rays most
    chains keep (measured: 3 to 14 on 3-state chains, one a step on others) instead of
    the most that could be carried."""
    from pdpsym.audit.rr_report_cones import cone_work
    from pdpsym.audit.rr_reports import MAX_OUTCOMES  # the audit layer loads after --help

    k = getattr(model, "k", 2)
    if k < 3 or n == 0 or k ** min(2 * n, 64) <= MAX_OUTCOMES:
        return 0
    keep = Fraction(mech.keep)
    other = (1 - keep) / (k - 1)
    bits = max(
        sum(x.denominator for x in (keep, other)).bit_length()
        + max(p.denominator for mat in model.matrices for row in mat for p in row).bit_length()
        + k.bit_length(),
        1,
    )
    return cone_work(n, k, bits, k if capped else None)


def _network_rr_work(
    args: argparse.Namespace, model: Any, target: str, notions: Sequence[str], points: int
) -> tuple[int, dict[str, int], dict[str, str]]:
    """The table estimate of :func:`pdpsym.app.audit_work.table_work` on the target's
    component (:mod:`pdpsym.audit.rr_network`), whose law grows by the bits of
    one table entry per record. Classic dp and dependent-dp's neighbours need no table;
    dependent-dp's conditional reading is the screened APKDP with nothing known. A
    component of more than ``MAX_ROWS`` rows is not listed at any ``--max-work``."""
    from pdpsym.audit.registry import notion  # the audit layer loads after --help
    from pdpsym.audit.rr_network import MAX_ROWS, component, table_notion
    from pdpsym.models.neighbours import DDPReading

    comp = component(model, target)
    domains = [model.domain(v) for v in comp]
    bits = max(
        max(p.numerator.bit_length(), p.denominator.bit_length())
        for v in comp
        for row in model.nodes[v].cpt.values()
        for p in row
    )
    cells = math.prod(len(d) for d in domains)
    shim = types.SimpleNamespace(cells=cells, domains=domains, n=len(comp))
    neighbours = args.ddp_reading not in (None, "eq11-conditional")
    reading = DDPReading.NEIGHBOURS if neighbours else DDPReading.CONDITIONAL
    as_table = {n: t.name for n in notions if (t := table_notion(notion(n), reading)) is not None}
    if not as_table:
        return 10**5, dict.fromkeys(notions, 0), {}
    shared, own = table_work(
        shim,  # type: ignore[arg-type]
        sorted(set(as_table.values())),
        bool(args.known),
        bits,
        {"kind": "randomized-response"},
        points,
    )
    over = (
        f"the target's component has {cells} joint rows, over the {MAX_ROWS} this audit "
        "lists (a fixed limit, not raised by --max-work)"
    )
    fixed = dict.fromkeys(as_table, over) if cells > MAX_ROWS else {}
    return shared, {n: own[as_table[n]] if n in as_table else 0 for n in notions}, fixed


__all__ = [
    "RR_BASE",
    "SUM_KINDS",
    "check_work",
    "is_structured",
    "load",
    "read_mechanism",
    "refuse_query",
    "with_query",
]

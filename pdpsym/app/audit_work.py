"""The audit command's work estimate: refuse, before any work, an audit whose estimated
exact steps exceed ``--max-work`` (:mod:`pdpsym.app.budget`).

Shared by ``pdpsym audit`` on tables, the table fallback of randomized response on a
network's component, and ``pdpsym oracle export --model``. Calibrated against measured
times (docs/reliability.md).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pdpsym.app import budget
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_rational

if TYPE_CHECKING:
    from pdpsym.models.joint import JointDistribution


# Calibrated on measured CPU time, a step being a microsecond (benchmarks/bench_estimates.py;
# docs/benchmarks.md records the ratios): the audit's setup and certified output (35 ms
# measured on two records), the exact steps of one (database, output) pair per delta, and
# distributional-dp's fixed cost of its LPs (0.5 s measured on two and three records; twice
# that under Laplace noise: 1.7 s measured on two records with --eps and --delta)
AUDIT_BASE = 3 * 10**4
EXACT_OPS = 15
LP_SETUP = 5 * 10**5


def number_bits(obj: Any) -> int:
    """The largest exact size (bits) of a number in a parsed JSON object."""
    if isinstance(obj, str):
        try:
            q = parse_rational(obj, "-")
        except InputError:
            return 0
        return max(q.numerator.bit_length(), q.denominator.bit_length())
    if isinstance(obj, dict):
        return max((number_bits(v) for v in obj.values()), default=0)
    if isinstance(obj, list):
        return max((number_bits(v) for v in obj), default=0)
    return 0


def _query_width(spec: Mapping[str, Any], model: JointDistribution) -> Fraction:
    """The largest value of the weighted count minus its least."""
    raw = spec.get("weights")
    ws = [
        parse_rational(raw.get(v, "1"), f"weights.{v}") if isinstance(raw, Mapping) else Fraction(1)
        for v in model.variables
    ]
    return sum(
        (
            max(w * v for v in dom) - min(w * v for v in dom)
            for w, dom in zip(ws, model.domains, strict=True)
        ),
        Fraction(0),
    )


def _query_span(spec: Mapping[str, Any], model: JointDistribution) -> int:
    """The integers from the least to the largest value of the weighted count (geometric
    noise has an output at each), or the number of databases when it is not an integer."""
    span = _query_width(spec, model)
    return int(span) + 1 if span.denominator == 1 else model.cells


def _outputs(spec: Mapping[str, Any], model: JointDistribution) -> tuple[int, int]:
    """An upper estimate of the outputs of one database, and of the bits their exact
    probabilities grow by (a geometric tail ``alpha^k`` has ``k`` times alpha's bits).
    Called after the mechanism file was validated (load_mechanism)."""
    kind = spec.get("kind")
    if kind == "table":
        return max(len({str(row[-2]) for row in spec["rows"]}), 1), 0
    if kind in ("randomized-response", "histogram"):
        return model.cells, 0
    if kind == "geometric":
        span = _query_span(spec, model)
        return span + 2, span * max(number_bits(spec.get("alpha")), 1)
    if kind in ("count", "threshold"):  # one value per database at most
        return min(_query_span(spec, model), model.cells) + 1, 0
    return model.n + 2, 0  # laplace: the breakpoints of the query, in closed form


def noise_bits(lam: Fraction | None, span: Fraction) -> int:
    """The bits of ``e^(span/λ)`` under Laplace noise of scale ``lam`` (0 without one).

    ibcdp's posteriors and distributional-dp's LPs hold such numbers exactly, and their
    cost grows with these bits: measured about 1 step per bit per case (ibcdp on two
    records: 3.2 s at ``span/λ = 2 10^6``, 25 s at ``2 10^7``).
    """
    if lam is None or lam <= 0:
        return 0
    return int(Fraction(145, 100) * span / lam)


def table_work(
    model: JointDistribution,
    notions: list[str],
    known: bool,
    size_bits: int = 0,
    mechanism: Any = None,
    points: int = 0,
) -> tuple[int, dict[str, int]]:
    """The estimated steps of an audit of a table: the part every notion shares, and each
    notion's own (a notion run alone costs the shared part plus its own).

    One step is about one exact operation on numbers of a few words. The estimate:
    databases x outputs per database x (4 + the epsilon and delta points) x EXACT_OPS
    exact operations, times the growth of the numbers (size_bits of the inputs, the bits of a
    geometric tail), per notion; dependent-dp also walks the dependent neighbours (about
    cells/4 more); distributional-dp solves about 40 exact LPs (bisection) of V = rest x
    outputs variables and C = 2 x groups x outputs constraints by a dense simplex
    ((C + V) pivots of C x V each) after a fixed setup.
    Calibrated against measured CPU times in docs/benchmarks.md.
    """
    from pdpsym.audit.registry import TableWork, notion  # the audit layer loads after --help

    cells = model.cells
    spec = mechanism if isinstance(mechanism, Mapping) else {}
    kind = spec.get("kind")
    outputs, tail_bits = _outputs(spec, model)
    grow = (1 + size_bits * model.n // 64 + tail_bits // 256) ** 2
    # randomized response, screened notions: float laws of about m^3 x cells (m the
    # largest domain), then a handful of candidate cases of cells outputs built exactly
    m = max((len(d) for d in model.domains), default=1)
    per_point = cells * outputs * points * EXACT_OPS * grow  # one exact delta per eps point
    screened = cells * (2 * m**3 + 16 * model.n * grow) + per_point
    exact = cells * outputs * 4 * EXACT_OPS * grow + per_point
    target_values = m
    rest = max(cells // max(target_values, 1), 1)
    groups = target_values * (cells // rest if known else 1)
    V, C = rest * outputs, 2 * groups * outputs
    # one set of LPs for eps and one per curve point (measured about 50 ms a point on two
    # records under Laplace noise)
    setup = 0 if kind == "table" else 2 * LP_SETUP if kind == "laplace" else LP_SETUP
    lp = setup + 8 * (C + V) * C * V * grow * (1 + points)
    if kind == "randomized-response" and m == 2:  # binary records: measured linear in the
        # cells x outputs (0.5 s at 4 records, 1.0 s at 5, 2.3 s at 6), far below the dense
        # simplex's bound (4 ternary records still take minutes: the bound stands there)
        lp = LP_SETUP + 450 * cells * outputs * grow * (1 + points)

    walks = TableWork(exact, screened, lp, cells, kind == "randomized-response")

    def one(n: str) -> int:
        if n == "-":
            return exact
        posterior = cells * big if notion(n).over_outputs else 0
        return notion(n).table_work(walks) + posterior

    # Laplace noise: ibcdp and distributional-dp hold e^(span/λ) exactly
    big = (
        noise_bits(parse_rational(spec.get("lam", "1"), "lam"), _query_width(spec, model))
        if kind == "laplace"
        else 0
    )
    # plus the audit's own setup and certified output, whatever the model
    return AUDIT_BASE, {n: one(n) for n in notions or ["-"]}


def check_work(
    args: argparse.Namespace,
    model: JointDistribution,
    notions: list[str],
    size_bits: int = 0,
    mechanism: Any = None,
    points: int = 0,
) -> None:
    """Refuse, before any work, a run of every notion of ``notions`` on a table whose
    estimate (:func:`table_work`, all notions together) exceeds ``--max-work``."""
    shared, own = table_work(model, notions, bool(args.known), size_bits, mechanism, points)
    budget.check(args, shared + sum(own.values()), "this audit", base=0)  # shared has the base


def round_up(k: int) -> str:
    """``3.4e9``: ``k`` rounded up to two significant digits, in a form ``--max-work``
    accepts (an integer at least ``k``)."""
    digits = str(k)
    if len(digits) <= 2:
        return digits
    head = int(digits[:2]) + (digits[2:].strip("0") != "")
    exp = len(digits) - 1
    if head == 100:
        head, exp = 10, exp + 1
    return f"{head // 10}.{head % 10}e{exp}" if head % 10 else f"{head // 10}e{exp}"


def run_with(k: int) -> str:
    """``--max-work 3.4e9 runs it``, or that no ``--max-work`` does when ``k`` is over the
    flag's ceiling (:func:`pdpsym.app.budget.runs_anyway`)."""
    if k <= budget.MAX_WORK_CEILING:
        return f"--max-work {round_up(k)} runs it"
    return budget.runs_anyway(k)


def steps_text(k: int) -> str:
    """``3.3e+09``, as the refusals of :mod:`pdpsym.app.budget` write a count."""
    return f"{float(k):.1e}" if k < 10**300 else f"10^{k.bit_length() * 30103 // 100000}"


def plan(
    args: argparse.Namespace,
    shared: int,
    own: Mapping[str, int],
    explicit: bool,
    what: str = "this audit",
    fixed: Mapping[str, str] | None = None,
) -> dict[str, int | str]:
    """The notions too costly to run, each with its estimate (shared part included).

    The part every notion shares (the laws of the query, the audit's setup) must fit
    ``--max-work``. Notions named by the user with ``--notions`` (``explicit``) must fit
    together, as one request, else the audit is refused naming the costliest one and the
    ``--max-work`` that runs them all. Otherwise (the default notions) each notion is held
    to ``--max-work`` on its own: those over it are left out and reported, and the audit
    is refused only when none would run. ``fixed`` names the notions no ``--max-work``
    runs (a fixed limit of the engine), with the reason.

    Args:
        args: the command line (its ``--max-work``).
        shared: the steps every notion needs.
        own: each notion's own steps.
        explicit: whether the notions were named by the user.
        what: how the refusal names the request.
        fixed: notion -> why it cannot run at any ``--max-work``.

    Returns:
        notion -> its estimated steps, or the reason it cannot run, for each notion left
        out (in ``own``'s order; empty when the notions were named).
    """
    budget.check(args, shared, what, base=0)  # shared holds the audit's own base
    limit = budget.max_work(args)
    fixed = fixed or {}
    if explicit:
        for n in own:
            if n in fixed:
                raise InputError("model", f"{what}: notion {n}: {fixed[n]}")
        total = shared + sum(own.values())
        if total > limit:
            worst = max(own, key=own.__getitem__)
            alone = "" if len(own) == 1 else f" (with the others named: {steps_text(total)})"
            raise InputError(
                "--max-work",
                f"{what}: notion {worst} needs about {steps_text(shared + own[worst])} steps"
                f"{alone}, above the limit {steps_text(limit)}; {run_with(total)}",
            )
        return {}
    refused: dict[str, int | str] = {}
    for n, w in own.items():
        if n in fixed:
            refused[n] = fixed[n]
        elif shared + w > limit:
            refused[n] = shared + w
    if len(refused) == len(own):
        reasons = [n for n in refused if isinstance(refused[n], str)]
        if len(reasons) == len(own):
            raise InputError("model", f"{what}: notion {reasons[0]}: {refused[reasons[0]]}")
        cheapest = min((n for n in refused if n not in reasons), key=lambda n: int(refused[n]))
        steps = int(refused[cheapest])
        raise InputError(
            "--max-work",
            f"{what}: every notion is over the limit {steps_text(limit)}, the cheapest "
            f"(notion {cheapest}) needs about {steps_text(steps)} steps; "
            + (f"--notions {cheapest} " if steps <= budget.MAX_WORK_CEILING else "")
            + run_with(steps),
        )
    return refused


def posterior_work(
    notion: str,
    model: Any,
    mech: Any,
    target: str,
    known: Sequence[str],
    sizes: tuple[int, int, int, int],
    points: int,
    with_delta: bool,
) -> int:
    """The estimated work of ibcdp or distributional-dp on a structured model (steps of
    about a microsecond; calibrated on measured times of chains up to 24 records).

    ``sizes`` is ``(A, S, L, D)``: the known values, the span of the sum in units of
    ``1/D``, the work of one query law and ``D``. Under Laplace noise of scale ``λ`` each of
    the ``m A`` laws read holds numbers of :func:`noise_bits` of ``S/D``. ibcdp: one joint
    law per known value, then ``2 m A`` posterior cases (``m`` target values); under Laplace
    noise each costs about ``(S + 1)^4 m + 10^4`` per point (the pieces and stationary
    points of mixtures of ``S + 1`` centres, in balls), 60 points for ε(δ) (an exact
    bisection), else ``m (S + 3)^2`` exact operations per output. distributional-dp: per
    known value and target value a law of the target's Markov blanket (``c`` joint values of
    its unknown records; every other unknown record when the model gives no blanket), then
    per known value about ``40 + 20 points`` LPs (40 more for ε(δ)) of ``V = c K`` variables
    and ``C = 2 m K`` constraints (``K`` outputs: ``S + 3``, or 64 cells per gap between
    query values under Laplace noise), each about ``(V + C)^2 / 200 + 5 10^4`` steps (times
    ``1 + S/64`` for finite outputs, whose exact masses grow to about ``S`` digits).
    """
    from pdpsym.audit import registry  # the audit layer loads after --help

    assignments, span, per_law, scale = sizes
    kind = mech.kind
    m = len(model.domain(target))
    noise = m * assignments * noise_bits(mech.lam, Fraction(span, scale))
    points -= with_delta
    if registry.notion(notion).compare is registry.Compare.POSTERIOR:
        cases = 2 * m * assignments
        if kind == "laplace":
            per_case = ((span + 1) ** 4 * m + 10**4) * (points + 2 + 60 * with_delta)
            return assignments * per_law + cases * per_case + noise
        return assignments * per_law + cases * m * (span + 3) ** 2 * (points + 4) * 10 + noise
    of = getattr(model, "markov_blanket", None)
    near = set(of(target)) if of is not None else set(model.variables)
    cols = math.prod(
        len(model.domain(v))
        for v in model.variables
        if v in near and v != target and v not in known
    )
    outputs = 64 * span + 1 if kind == "laplace" else span + 3
    size = cols * outputs + 2 * m * outputs
    grow = 1 if kind == "laplace" else 1 + span // 64  # exact masses of ~S-digit numbers
    lps = assignments * (40 + 40 * with_delta + 20 * points) * (size * size // 200 + 5 * 10**4)
    lps *= grow
    return m * assignments * (per_law + model.size_hint() * cols) + lps + noise


__all__ = [
    "posterior_work",
    "check_work",
    "noise_bits",
    "number_bits",
    "plan",
    "round_up",
    "steps_text",
    "table_work",
]

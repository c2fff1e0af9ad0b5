"""The audit command's work estimate: refuse, before any work, an audit whose estimated
exact steps exceed ``--max-work`` (:mod:`pdpsym.app.limits`).

Shared by ``pdpsym audit`` on tables, the table fallback of randomized response on a
network's component, and ``pdpsym oracle export --model``. Calibrated against measured
times (docs/reliability.md).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pdpsym.app import limits
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


def check_work(
    args: argparse.Namespace,
    model: JointDistribution,
    notions: list[str],
    size_bits: int = 0,
    mechanism: Any = None,
    points: int = 0,
) -> None:
    """Refuse, before any work, an audit estimated above ``--max-work`` steps.

    One step is about one exact operation on numbers of a few words. The estimate:
    databases x outputs per database x (4 + the epsilon and delta points) x EXACT_OPS
    exact operations, times the growth of the numbers (size_bits of the inputs, the bits of a
    geometric tail), per notion; dependent-dp also walks the dependent neighbours (about
    cells/4 more); distributional-dp solves about 40 exact LPs (bisection) of V = rest x
    outputs variables and C = 2 x groups x outputs constraints by a dense simplex
    ((C + V) pivots of C x V each) after a fixed setup.
    Calibrated against measured CPU times in docs/benchmarks.md.
    """
    from pdpsym.audit.screen import SCREENED  # the audit layer loads after --help

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
    groups = target_values * (cells // rest if args.known else 1)
    V, C = rest * outputs, 2 * groups * outputs
    # one set of LPs for eps and one per curve point (measured about 50 ms a point on two
    # records under Laplace noise)
    setup = 0 if kind == "table" else 2 * LP_SETUP if kind == "laplace" else LP_SETUP
    lp = setup + 8 * (C + V) * C * V * grow * (1 + points)
    if kind == "randomized-response" and m == 2:  # binary records: measured linear in the
        # cells x outputs (0.5 s at 4 records, 1.0 s at 5, 2.3 s at 6), far below the dense
        # simplex's bound (4 ternary records still take minutes: the bound stands there)
        lp = LP_SETUP + 450 * cells * outputs * grow * (1 + points)

    def one(n: str) -> int:
        if kind == "randomized-response" and n in SCREENED:
            return screened
        if n == "dependent-dp":
            return exact * (cells // 4 + 1)
        if n == "distributional-dp":
            return exact + lp
        return exact

    # Laplace noise: ibcdp and distributional-dp hold e^(span/λ) exactly
    big = (
        noise_bits(parse_rational(spec.get("lam", "1"), "lam"), _query_width(spec, model))
        if kind == "laplace"
        else 0
    )
    posterior = sum(cells * big for n in notions if n in ("ibcdp", "distributional-dp"))
    # plus the audit's own setup and certified output, whatever the model
    work = AUDIT_BASE + sum(one(n) for n in notions or ["-"]) + posterior
    limits.check(args, work, "this audit")


__all__ = ["check_work", "noise_bits", "number_bits"]

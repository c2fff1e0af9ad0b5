"""The audit's work estimate on independent records (a product model) under Laplace
noise, calibrated on measured CPU times (``benchmarks/bench_product_audit.py``; the
ratios are in docs/benchmarks.md).

The general estimate of :func:`pdpsym.app.commands.audit_models.check_work` charges
every notion the grouped products of the model's ``size_hint()``, which on records with
all-distinct ``p_i`` is off by 10^4 or more: ``dp`` reads no query law at all (Laplace
noise: the sensitivity over ``λ``), and the notions that do compare pairs of exact
Laplace mixtures whose cost grows with the number of records and the size of the
probabilities. Here each notion is charged what it runs.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from pdpsym.app import budget, options
from pdpsym.app.audit_work import posterior_work

# Measured (one step is about a microsecond of CPU): the audit's start, reading the
# model file and the certified output (0.45 s), and 34 µs a record (dp on 10^3 .. 10^5
# records: 0.49 s .. 3.9 s)
BASE = 45 * 10**4
PER_RECORD = 34
# one pair of exact Laplace mixtures over the count of N records of about b bits each
# (mean bits of a record's probabilities), at one ε point: about PAIR_C n^3.6 b^0.7
# steps (measured on 20..50 records of 10 and 20 bits: apkdp 0.05 s .. 0.96 s a pair)
PAIR_C = Fraction(91, 1000)


def is_product(model: Any) -> bool:
    """Whether the model is independent records with their laws' sizes known (this
    estimate applies)."""
    return callable(getattr(model, "law_bits", None))


def pair_steps(span: int, bits_per_record: float, points: int) -> int:
    """The steps of one pair of exact Laplace mixtures over a count of ``span + 1``
    values whose probabilities have about ``bits_per_record`` bits per record.

    Args:
        span: the largest count (``n`` for ``n`` binary records).
        bits_per_record: the mean bits of a record's probabilities.
        points: the ε and δ points asked for.

    Returns:
        The estimated steps (microseconds of CPU), at least 1.
    """
    one = float(PAIR_C) * max(span, 1) ** 3.6 * max(bits_per_record, 1.0) ** 0.7
    return max(int(one * (points + 4) / 5), 1)


def product_work(
    args: argparse.Namespace,
    model: Any,
    mech: Any,
    target: str,
    known: Sequence[str],
    count: tuple[int, int, int],
    notions: Sequence[str],
    points: int,
) -> tuple[int, dict[str, int], dict[str, str]]:
    """The estimated steps of an audit of independent records under Laplace noise: the
    part every notion shares (refused here when it alone exceeds ``--max-work``) and
    each notion's own.

    ``dp`` needs no query law (0 steps of its own). A notion comparing pairs of query
    laws pays :func:`pair_steps` per pair: ``apkdp`` and ``np`` one per ordered pair of
    target values and known assignment (``m (m - 1) A``), ``ppkdp`` and ``cdp`` twice
    that (weighted pairs; both directions), ``dependent-dp`` 1.5 per ordered pair of
    target values (its conditional reading; its neighbours reading needs no law).
    ``ibcdp`` and ``distributional-dp`` of a two-valued target past
    ``EXACT_RECORDS`` records pay :func:`closed_form_steps` (their closed forms); other
    targets keep the general estimate's formulas, with one query law costing one pair.

    Args:
        args: the command line (``--max-work``, ``--delta``, ``--ddp-reading``).
        model: the product model.
        mech: the Laplace :class:`~pdpsym.mechanisms.base.SumMechanism`.
        target: the target record.
        known: the known records.
        count: ``(A, S, D)`` as the general estimate computes them: the known records'
            assignments, the span of the weighted count in units of ``1/D`` and ``D``
            (the least common denominator of the weights).
        notions: the notions asked for.
        points: the ε and δ points asked for.

    Returns:
        ``(shared, own, fixed)`` as :func:`pdpsym.app.audit_work.plan` reads them.
    """
    # the audit layer loads after --help
    from pdpsym.audit.product_shifts import EXACT_RECORDS, ball_work
    from pdpsym.audit.registry import Pairs, notion

    names = tuple(model.variables)
    n = len(names)
    shared = BASE + PER_RECORD * n
    budget.check(args, shared, "this audit")
    m = len(model.domain(target))
    assignments, span, scale = count
    ws = {k: Fraction(x) for k, x in (mech.weights or {}).items()}
    pair = pair_steps(span, model.law_bits() / n, points)
    ordered = m * (m - 1)
    conditional = getattr(args, "ddp_reading", None) in (None, "eq11-conditional")
    balls = n > EXACT_RECORDS  # the ball cases of pdpsym.audit.product_shifts
    with_delta = getattr(args, "delta", None) is not None
    if balls and _no_law(args, model, target, ws, mech.lam):
        points = 0  # every δ asked is exactly 0: no law is built (ProductCases' setup)
    near = ball_near(args, model, target, mech) if balls else 1.0
    own: dict[str, int] = {}
    for name in notions:
        kind = notion(name)
        eps = getattr(args, "eps", None) or []
        closed = closed_form_steps(model, target, mech, name, points, with_delta, eps)
        if closed is not None:
            own[name] = closed
        elif kind.pairs is Pairs.NEIGHBOURS:
            own[name] = 0
        elif balls and kind.pairs.value in BALL_PAIRS:
            pairs = BALL_PAIRS[kind.pairs.value] * ordered
            lawful = kind.pairs is not Pairs.DEPENDENT or conditional
            own[name] = int(ball_work(n, pairs, points, with_delta) * near) if lawful else 0
        elif kind.pairs is Pairs.DEPENDENT:
            own[name] = 3 * ordered * pair // 2 if conditional else 0
        elif kind.pairs is Pairs.GIVEN_KNOWN:
            own[name] = ordered * assignments * pair
        elif kind.pairs in (Pairs.WEIGHTED_KNOWN, Pairs.CHANGED):
            own[name] = 2 * ordered * assignments * pair
        else:  # ibcdp, distributional-dp otherwise: the general formulas, a law a pair
            sizes = (assignments, span, pair, scale)
            own[name] = posterior_work(name, model, mech, target, known, sizes, points, with_delta)
    return shared, own, {}


def _no_law(args: argparse.Namespace, model: Any, target: str, ws: Any, lam: Any) -> bool:
    """Whether every δ the ball cases are asked is exactly 0: every ``--eps`` at least
    the largest ``|c_b - c_a|/λ`` (:func:`pdpsym.loss.shift_pairs.at_least`), no ``--delta``
    and no ``--curve``."""
    # the engines load after --help
    from pdpsym.loss.shift_pairs import at_least

    if getattr(args, "delta", None) is not None or getattr(args, "curve", None) is not None:
        return False
    texts = getattr(args, "eps", None) or []
    dom = model.domain(target)
    top = (max(dom) - min(dom)) * abs(ws.get(target, Fraction(1))) / Fraction(lam)
    return bool(texts) and all(at_least(options.parse_eps(t), top) for t in texts)


# Geometric, count and threshold noise on independent records (measured CPU of each
# notion alone, its steps beyond dp's: 10 to 160 records of 10 and 30 bits, and 640 under
# count noise; count and threshold again on 100 to 2000 records of 10, 30 and 60 bits;
# the tables are in tests/app/test_product_audit_work.py and docs/benchmarks.md). One
# unit is apkdp's steps with two target values and one binary known record: about
# ``KERNEL_FIXED + c span^a b^e + c3 span^3 b^e3`` for a span of ``span`` counts and
# ``b`` bits a record. Under count and threshold noise a unit is ``span`` exact products
# of numbers of about ``span b`` bits, ``span (x + x^2)`` for ``x = span b`` (apkdp on
# 10^3 records: 5.1 s of CPU at 10 bits, 31 s at 30, 112 s at 60; on 30 bits, 219 s at
# 2000 records); the earlier ``0.6 span^2.3 b^0.3`` was 4.5x high at 10 bits, 3.4x low
# at 60 and 1.7x low at 2000 records.
KERNEL_FIT: dict[str, tuple[float, float, float]] = {
    "geometric": (0.27, 2.7, 1.0),
    "count": (0.18, 2.0, 1.0),
    "threshold": (0.18, 2.0, 1.0),
}
KERNEL_CUBIC: dict[str, tuple[float, float]] = {
    "geometric": (0.0, 0.0),
    "count": (1.0e-5, 2.0),
    "threshold": (1.0e-5, 2.0),
}
# each notion's units per ``m (m - 1) A / 4`` (``dependent-dp``: per ``m (m - 1) / 4``)
# measured on the geometric kernel (ibcdp's posteriors, cdp's changed pairs both ways)
KERNEL_UNITS = {"given-known": 1.0, "weighted-known": 1.0, "changed": 2.1}
KERNEL_UNITS |= {"changed-posteriors": 2.2, "dependent": 1.2}
# a unit's fixed part (building and certifying the laws of one member): the 20-record
# interval product of docs/benchmarks.md, 496 members, 42 s of CPU
KERNEL_FIXED = 25000


def kernel_unit(kind: str, span: int, bits_per_record: float, points: int) -> int:
    """The steps of one unit of a product audit under geometric, count or threshold
    noise: apkdp's own steps with two target values and one binary known record.

    Args:
        kind: the mechanism's kind (``geometric``, ``count``, ``threshold``).
        span: the largest count (``n`` for ``n`` binary records).
        bits_per_record: the mean bits of a record's probabilities.
        points: the ε and δ points asked for.

    Returns:
        The estimated steps (microseconds of CPU), at least 1.
    """
    (c, a, e), (c3, e3) = KERNEL_FIT[kind], KERNEL_CUBIC[kind]
    s, b = max(span, 1), max(bits_per_record, 1.0)
    one = KERNEL_FIXED + c * s**a * b**e + c3 * s**3 * b**e3
    return max(int(one * (points + 4) / 5), 1)


def laws_to_notions(
    args: argparse.Namespace,
    model: Any,
    shared: int,
    own: dict[str, int],
    ddp: str | None,
    kernel: tuple[str, int, int, int, int] | None = None,
    mech: Any = None,
) -> tuple[int, dict[str, int], dict[str, str]]:
    """The estimate of a product model under geometric, count or threshold noise: the
    query laws charged to the notions that read them rather than shared (``dp``, and
    ``dependent-dp`` in its neighbours reading, compare point masses, no law), each
    notion charged :func:`kernel_unit` times its units (:data:`KERNEL_UNITS`);
    ``distributional-dp`` keeps the general estimate's total.

    Args:
        args: the command line (``--max-work``).
        model: the product model.
        shared: the general estimate's shared part (its query laws included).
        own: each notion's own steps in the general estimate.
        ddp: the ``--ddp-reading`` asked for (None: both readings).
        kernel: the mechanism's kind, the span of the count, the target's values ``m``,
            the known assignments ``A`` and the points asked for (None: the general
            estimate for every notion).
        mech: the mechanism (None: no closed form is looked for,
            :func:`closed_form_steps`).

    Returns:
        ``(shared, own, fixed)`` as :func:`pdpsym.app.audit_work.plan` reads them.
    """
    # the audit layer loads after --help
    from pdpsym.audit.product_shifts import ball_work
    from pdpsym.audit.registry import Pairs, notion

    n = len(model.variables)
    base = BASE + PER_RECORD * n
    budget.check(args, base, "this audit")
    unit = 0
    if kernel is not None and kernel[0] in KERNEL_FIT:
        kind, span, m, assignments, points = kernel
        unit = kernel_unit(kind, span, model.law_bits() / max(n, 1), points)
    # the ball cases of pdpsym.audit.product_shifts (geometric noise past EXACT_RECORDS)
    balls = kernel is not None and mech is not None and geometric_balls(model, mech)
    if balls:
        assert kernel is not None
        _, _, m, _, points = kernel
        near = ball_near(args, model, getattr(args, "target", None), mech)
    out: dict[str, int] = {}
    for name, steps in own.items():
        pairs = notion(name).pairs
        lawless = pairs is Pairs.NEIGHBOURS or (
            pairs is Pairs.DEPENDENT and ddp not in (None, "eq11-conditional")
        )
        target = getattr(args, "target", None)
        closed = None
        if target is not None and mech is not None:  # ibcdp's tails (geometric noise)
            points = kernel[4] if kernel is not None else 1
            with_delta = getattr(args, "delta", None) is not None
            eps = getattr(args, "eps", None) or []
            closed = closed_form_steps(model, target, mech, name, points, with_delta, eps)
        if lawless:
            out[name] = 0
        elif closed is not None:
            out[name] = closed
        elif balls and pairs.value in BALL_PAIRS:
            with_delta = getattr(args, "delta", None) is not None
            steps = ball_work(n, BALL_PAIRS[pairs.value] * m * (m - 1), points, with_delta)
            out[name] = int(steps * near)
        elif unit and pairs.value in KERNEL_UNITS:
            per = m * (m - 1) * (1 if pairs is Pairs.DEPENDENT else assignments) / 4
            out[name] = max(int(unit * KERNEL_UNITS[pairs.value] * per), 1)
        else:
            out[name] = steps + max(shared - base, 0)
    return base, out, {}


# the pairs each notion compares in the ball cases, per ordered pair of target values
# (cdp: both directions; dependent-dp: its conditional reading)
BALL_PAIRS = {"given-known": 1, "weighted-known": 1, "changed": 2, "dependent": 1}


# the ball cases' δ near their ε at δ = 0 (x = ε/ε_0 past 1/2) cost up to this many
# times their δ at x <= 1/2: measured on 10^5 records of 30 bits, apkdp at x = 0.72, 0.9,
# 0.99: Laplace 1.9x, 4.0x, 3.9x; geometric (x = 0.72, 0.87, 0.94, 0.99) 3.7x, 7.5x,
# 7.5x, 7.5x (docs/benchmarks.md)
BALL_NEAR_MOST = {"laplace": 4.0, "geometric": 8.0}


def ball_near(args: argparse.Namespace, model: Any, target: Any, mech: Any) -> float:
    """:func:`near_star` of the ball cases: ``ε_0 = |c_b - c_a|/λ`` (Laplace) or
    ``|c_b - c_a| ln(1/α)`` (geometric) for the target's widest change, capped at
    :data:`BALL_NEAR_MOST`; a ``--curve`` runs up to ``ε_0``: the cap. (``--delta``'s
    bisection does not pay it: its δ's stay near the δ asked, 12.7 s at 10^5 records and
    ``δ = 10^-6`` under both noises, as at ``x = 1/2``.)

    Args:
        args: the command line (``--eps``, ``--delta``).
        model: the product model.
        target: the target record (None: no factor).
        mech: the mechanism.

    Returns:
        The factor, at least 1.
    """
    most = BALL_NEAR_MOST[mech.kind]
    if target is None:
        return 1.0
    if getattr(args, "curve", None) is not None:
        return most
    dom = model.domain(target)
    width = float((max(dom) - min(dom)) * abs(Fraction(weights(mech).get(target, 1))))
    top = (
        width / float(mech.lam) if mech.lam is not None else width * math.log(1 / float(mech.alpha))
    )
    return near_star(getattr(args, "eps", None) or [], top, most) if top > 0 else 1.0


def geometric_balls(model: Any, mech: Any) -> bool:
    """Whether the audit runs the ball cases of independent records under geometric
    noise (:func:`pdpsym.audit.product_shifts.applies`): more than ``EXACT_RECORDS``
    records whose weighted values are integers (one count unit a query unit)."""
    from pdpsym.audit.product_shifts import EXACT_RECORDS  # loads after --help

    if mech.kind != "geometric" or not is_product(model):
        return False
    if len(model.variables) <= EXACT_RECORDS:
        return False
    ws = weights(mech)
    return all(
        (Fraction(x) * Fraction(ws.get(v, 1))).denominator == 1
        for v in model.variables
        for x in model.domain(v)
    )


# ibcdp and distributional-dp of a two-valued target past EXACT_RECORDS records
# (pdpsym.audit.product_posteriors): ibcdp is a closed form in the target's prior alone
# (IBCDP_STEPS a point, measured; no law), distributional-dp reads the count law's
# total variation and, below |shift|/(2 lambda) (Laplace) or |shift| ln(1/alpha)/2
# (geometric), two of its hockey sticks a point
# (measured at 10^3..10^5 records, with and without --delta: docs/benchmarks.md)
IBCDP_STEPS = 60000


def weights(mech: Any) -> dict[str, Any]:
    """The mechanism's weights (empty: every record weighs 1)."""
    return dict(getattr(mech, "weights", None) or {})


def closed_form_steps(
    model: Any,
    target: str,
    mech: Any,
    name: str,
    points: int,
    with_delta: bool,
    eps: Sequence[str] = (),
) -> int | None:
    """The steps of :func:`pdpsym.audit.product_posteriors.product_result` when it
    applies to this audit (None when the exact engines run instead).

    Args:
        model: the model.
        target: the target record.
        mech: the mechanism on the weighted sum.
        name: the notion.
        points: the ε and δ points asked for.
        with_delta: whether ε at a δ is asked.
        eps: the ``--eps`` texts (:func:`near_star`).

    Returns:
        The estimated steps (microseconds of CPU), or None.

    References:
        Desfontaines et al. (2020), Section 2.1, Definition 4; Section 2.2, Definition 6.
    """
    # the audit layer loads after --help
    from pdpsym.audit import product_shifts
    from pdpsym.audit.registry import Compare, notion

    kind = notion(name)
    n = len(model.variables)
    if not is_product(model) or n <= product_shifts.EXACT_RECORDS:
        return None
    weight = Fraction(weights(mech).get(target, 1))
    vals, ps = model.laws[list(model.variables).index(target)]
    if weight == 0 or sum(1 for p in ps if p) != 2:
        return None
    if kind.compare is Compare.POSTERIOR and (mech.lam is not None or mech.alpha is not None):
        return IBCDP_STEPS * (points + 1 + int(with_delta))
    unit = mech.lam is not None or (
        all(Fraction(w).denominator == 1 for w in weights(mech).values())
        and all(Fraction(x).denominator == 1 for xs, _ in model.laws for x in xs)
    )
    if kind.compare is Compare.SIMULATOR_LP and (mech.lam is not None or mech.alpha is not None):
        if not unit:  # geometric noise on a query of fractional weights: the exact LPs
            return None
        # the TV and two hockey sticks a point; ε at δ bisects (about 20 points)
        steps = product_shifts.ball_work(n, 5, points + 1 + (20 if with_delta else 0), False)
        support = [v for v, p in zip(vals, ps, strict=True) if p]
        shift = float(abs(weight * (support[1] - support[0])))
        noise = 1 / float(mech.lam) if mech.lam is not None else math.log(1 / float(mech.alpha))
        return int(steps * near_star(eps, shift * noise / 2))
    return None


def near_star(eps: Sequence[str], star: float, most: float = math.inf) -> float:
    """How much more the hockey sticks of distributional-dp's closed form cost at the
    ``--eps`` closest below ``ε* = r/2``: their δ shrinks toward the far tails as ``ε``
    nears ``ε*`` and the product trees need more bits (measured: 43 s at ``ε/ε* = 0.72``
    on 10^5 records, 13 s at 0.36 and 0.5). ``(0.5/(1 - x))^1.5`` past ``x = ε/ε* = 1/2``,
    1 below it and at or above ``ε*`` (no hockey stick), capped at ``x = 0.99`` and at
    ``most``. The ball cases' δ below their ``ε`` at δ = 0 slow the same way
    (:data:`BALL_NEAR_MOST`).

    Args:
        eps: the ``--eps`` texts.
        star: ``ε*``.
        most: the largest factor.

    Returns:
        The factor, at least 1.
    """
    worst = 1.0
    for text in eps:
        e = options.parse_eps(text)
        x = (float(e.eps) if e.eps is not None else math.log(float(e.w or 1))) / star
        if 0.5 < x < 1:
            worst = max(worst, min(most, (0.5 / (1 - min(x, 0.99))) ** 1.5))
    return worst


__all__ = [
    "IBCDP_STEPS",
    "KERNEL_CUBIC",
    "KERNEL_FIT",
    "KERNEL_FIXED",
    "KERNEL_UNITS",
    "BALL_NEAR_MOST",
    "BALL_PAIRS",
    "ball_near",
    "closed_form_steps",
    "geometric_balls",
    "near_star",
    "weights",
    "is_product",
    "kernel_unit",
    "laws_to_notions",
    "pair_steps",
    "product_work",
]

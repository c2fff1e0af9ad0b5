"""The audit of a joint table: every notion from the definitions, exactly.

A finite mechanism is audited through one privacy curve per notion (its cases built
exactly, or for randomized response ranked in float64 first and built exactly near the
top: :mod:`pdpsym.audit.screen`); Laplace noise on a linear query through the
closed-form pairs of :mod:`pdpsym.loss` (ε at δ = 0 of the known-record notions is Li et
al.'s Eq. 2, of ``dp`` ``Δ_i/λ``; ``ibcdp`` a certified posterior sup;
``distributional-dp`` enclosed between two LPs). The structured models' engines list a
network's component as a table and audit it here.

References:
    Desfontaines et al. (2020), Definitions 3-6, 12, 13 and Lemma 1; Li et al. (2019),
    Eq. 2; Liu et al. (2016), Definition 4 and Eq. 11; Mironov (2017), Definition 4.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.audit import registry, screen
from pdpsym.audit.distributional import (
    DistributionalLoss,
    distributional_dp,
    finite_blocks,
    laplace_blocks,
)
from pdpsym.audit.notions import Request, cases_of, curve_points, noise_losses
from pdpsym.audit.registry import Compare, Pairs, delta_over_lambda
from pdpsym.audit.results import Audit, NotionResult
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.loss import LaplacePair, PrivacyLoss, worst_case
from pdpsym.loss.curve import Case, CurvePoint, worst_delta, worst_ratio
from pdpsym.loss.posterior import PosteriorSup
from pdpsym.loss.posterior_pieces import PosteriorCase
from pdpsym.loss.table_leakage import table_leakage
from pdpsym.mechanisms.base import QueryMechanism, SumMechanism
from pdpsym.mechanisms.finite import Mechanism
from pdpsym.models.joint import JointDistribution
from pdpsym.models.scenario import Scenario


def _log(t: Fraction | None) -> sympy.Expr:
    if t is None:
        return sympy.oo
    return sympy.log(sympy.Rational(t.numerator, t.denominator))


class _Walk:
    """Every case of a notion, built exactly and walked once per figure.

    The cases are kept after the first complete walk when they hold at most ``KEEP``
    output entries (a curve walks them once per ε point, and building them is the larger
    part of a point's work); larger notions are rebuilt per walk, so that memory stays
    bounded by one case at a time.
    """

    KEEP = 2 * 10**5  # PMF entries kept at most (a few tens of megabytes)

    def __init__(self, cases: Callable[[], Iterator[Case]]) -> None:
        self._factory = cases
        self._kept: list[Case] | None = None

    def cases(self) -> Iterable[Case]:
        return self._kept if self._kept is not None else self._walk()

    def _walk(self) -> Iterator[Case]:
        kept: list[Case] | None = []
        size = 0
        for c in self._factory():
            if kept is not None:
                size += sum(len(p) for _, p, _ in c.terms)
                if size <= self.KEEP:
                    kept.append(c)
                else:
                    kept = None
            yield c
        if kept is not None:
            self._kept = kept

    def zero(self) -> CurvePoint:
        return worst_ratio(self.cases())

    def at_eps(self, eps: Eps) -> CurvePoint:
        return worst_delta(self.cases(), eps)

    def at_delta(self, delta: Fraction) -> CurvePoint:
        return worst_ratio(self.cases(), delta)


def _finite(
    notion: str,
    model: JointDistribution,
    mech: Mechanism,
    target: str,
    known: Sequence[str],
    req: Request,
    exhaustive: bool = False,
) -> NotionResult:
    eps, delta, reading = req.eps, req.delta, req.reading
    kind = registry.notion(notion)
    if kind.compare is Compare.RENYI:  # one divergence per pair, its sup; no δ(ε)
        cases = cases_of(notion, model, mech, target, known, reading)()
        pairs = ((c.where, p, q) for c in cases for _, p, q in c.terms)
        value, where = kind.sup_of_pairs(pairs, req.alpha)
        note = f"exact: the sup of the divergence of order {req.alpha} over the pairs"
        return NotionResult(notion, value, where, reading=kind.reading, note=note)
    if kind.compare is Compare.SIMULATOR_LP:
        i = model.index(target)
        sc = Scenario.from_model(model, known)
        enc = distributional_dp(sc, mech, i)
        exact = enc.hi is None or enc.lo == enc.hi
        value = _log(enc.hi) if exact else None
        ddp = DistributionalLoss(finite_blocks(sc, mech, i))
        # no ε(δ) when the sup is infinite (no simulator bounds it)
        at_eps, at_delta = curve_points(ddp, eps, delta if enc.hi is not None else None)
        return NotionResult(
            notion,
            value,
            {"simulator": enc.simulator} if enc.simulator is not None else None,
            at_eps,
            at_delta,
            reading=kind.reading,
            note="e^epsilon enclosed by exact LP bisection: a simulator exists at the upper "
            "end and none at the lower end; delta(epsilon) and epsilon(delta) are certified "
            "enclosures: an explicit simulator evaluated exactly (upper end) and LP dual "
            "weights evaluated exactly (lower end)"
            + (
                ""
                if enc.hi is not None or delta is None
                else "; no finite epsilon at delta = 0, epsilon(delta) not computed"
            ),
            ratio_enclosure=None if exact else (enc.lo, enc.hi),
        )
    curve: screen.Screened | _Walk
    if not exhaustive and screen.applies(kind, model, mech):
        # randomized response: floats rank the cases, the few near the top are exact
        curve = screen.Screened(kind, model, mech, target, known)  # type: ignore[arg-type]
    else:
        curve = _Walk(cases_of(notion, model, mech, target, known, reading))
    zero = curve.zero()
    walked = tuple((e, (pt := curve.at_eps(e)).value.sympy(), pt.where) for e in eps)
    walked_delta = None
    if delta is not None:
        pt = curve.at_delta(delta)
        walked_delta = (delta, _log(pt.value), pt.where)
    return NotionResult(
        notion, _log(zero.value), zero.where, walked, walked_delta, kind.label(reading)
    )


def _ibcdp_cases(
    model: JointDistribution, weights: Sequence[Fraction], target: str, known: Sequence[str]
) -> list[PosteriorCase]:
    """IBCDP's posterior pairs under noise on the query: for each known value and each
    ``b`` of the domain, the posteriors of ``D(i)`` given ``f(D) + noise = t`` and given
    ``f(D_{i→b}) + noise = t``, both directions (Desfontaines et al. Definition 6)."""
    i = model.index(target)
    sc = Scenario.from_model(model, known)

    def f(d: Sequence[Fraction]) -> Fraction:
        return sum((w * Fraction(x) for w, x in zip(weights, d, strict=True)), Fraction(0))

    out = []
    for bhat in sc.knowledge_values():
        rows = [(d, p) for (d, bb), p in sc.joint.items() if bb == bhat and p]
        for b in model.domains[i]:
            plain: dict[Any, dict[Fraction, Fraction]] = {}
            changed: dict[Any, dict[Fraction, Fraction]] = {}
            for d, p in rows:
                e = tuple(b if j == i else x for j, x in enumerate(d))
                for table, v in ((plain, f(d)), (changed, f(e))):
                    row = table.setdefault(d[i], {})
                    row[v] = row.get(v, Fraction(0)) + p
            where = {"b": b, "known": bhat}
            out.append(PosteriorCase(where, plain, changed))
            out.append(PosteriorCase({**where, "direction": "changed vs actual"}, changed, plain))
    return out


def _laplace_kernel(mechanism: QueryMechanism) -> SumMechanism:
    """The mechanism's Laplace kernel: a joint table's engine for a query mechanism."""
    kernel = mechanism.on_sum()
    if kernel.lam is None:
        raise InputError(
            "mechanism",
            "a joint table is audited with Laplace noise on a query or a finite mechanism",
        )
    return kernel


def _noise(
    notion: str,
    model: JointDistribution,
    noise: SumMechanism,
    target: str,
    known: Sequence[str],
    req: Request,
) -> NotionResult:
    """Every notion for Laplace noise on a linear query, through :mod:`pdpsym.loss`."""
    eps, delta, reading = req.eps, req.delta, req.reading
    kind = registry.notion(notion)
    query = noise.query_for(model)
    lam = noise.lam
    assert lam is not None  # a Laplace kernel (_laplace_kernel)
    weights = [query.weight(v) for v in model.variables]
    if kind.compare is Compare.RENYI:  # at the sensitivity (Mironov 2017, Table 2)
        sensitivity = query.sensitivity(model, target)
        rdp = kind.sup_of_laplace(sensitivity, lam, req.alpha)
        note = f"exact: the closed form of order {req.alpha} at the sensitivity Delta_i"
        return NotionResult(
            notion, rdp, {"sensitivity": sensitivity}, reading=kind.reading, note=note
        )
    if kind.compare is Compare.SIMULATOR_LP:
        i = model.index(target)

        def f(d: Sequence[Any]) -> Fraction:
            return sum((w * Fraction(x) for w, x in zip(weights, d, strict=True)), Fraction(0))

        ddp = DistributionalLoss(laplace_blocks(Scenario.from_model(model, known), i, f, lam))
        return NotionResult.of_loss(
            notion,
            ddp,
            eps,
            delta,
            reading=kind.reading,
            note="certified enclosures: the line is cut at every query value and evenly "
            "between; the cell masses (a post-processing) bound the best simulator from "
            "below through LP dual weights evaluated exactly, and an explicit simulator "
            "piecewise of the form a e^(-o/lambda) + b e^(o/lambda) bounds it from above",
        )
    loss: PrivacyLoss
    if kind.compare is Compare.POSTERIOR:
        loss = PosteriorSup(_ibcdp_cases(model, weights, target, known), lam)
        note = (
            "certified: the sup over the output is at a piece end or at a stationary point "
            "of closed form (exact signs), enclosed in balls to the digits asked"
        )
    else:
        cases = noise_losses(
            notion,
            model,
            weights,
            target,
            known,
            lambda p, q: LaplacePair(p, q, lam),
            reading,
        )
        loss = worst_case(cases)
        note = "exact: closed-form hockey stick of Laplace mixtures"
    at_eps, at_delta = curve_points(loss, eps, delta)
    label: str | None = None
    wit: Any
    if kind.eq2_at_zero:
        # ε at δ = 0 is Li et al.'s Eq. 2 leakage of A(target, known)
        res = table_leakage(model, target, known, lam, query)
        value: Any = res.expression() if res.ok else sympy.Integer(0)
        wit = res.witness.as_json() if res.ok and res.witness is not None else None
        note = "epsilon: Li et al. Eq. 2; " + note
        label = kind.apk_at_zero
    elif kind.pairs is Pairs.NEIGHBOURS:
        value, wit = delta_over_lambda(query.sensitivity(model, target), lam)
        note = "epsilon: Delta_i / lambda; " + note
    else:
        zero = loss.epsilon(0)
        value, wit = zero.value, dict(zero.where or {})
        label = kind.label(reading)
    return NotionResult(notion, value, wit, at_eps, at_delta, label, note)


def audit_table(
    model: JointDistribution,
    mechanism: Mechanism | QueryMechanism,
    target: str,
    known: Sequence[str],
    req: Request,
    exhaustive: bool = False,
) -> Audit:
    """Every notion of ``req`` for a joint table: a finite mechanism through one privacy
    curve, Laplace noise on a query through :mod:`pdpsym.loss`.

    Args:
        model: the joint table (its target and known records already checked).
        mechanism: a finite mechanism, or a query mechanism with a Laplace kernel.
        target: the target record.
        known: the records the attacker knows.
        req: the checked ε points, δ, notions and reading (:func:`pdpsym.audit.audit`).
        exhaustive: build every case exactly, with no float screening.

    Returns:
        :class:`~pdpsym.audit.results.Audit`, one result per notion, in the order asked.

    References:
        Desfontaines et al. Definitions 3-6, 12-13; Li et al. Eq. 2; Liu et al.
        Definition 4; Mironov (2017) Definition 4.
    """
    known = tuple(known)
    out = []
    for n in req.notions:
        if isinstance(mechanism, QueryMechanism):
            out.append(_noise(n, model, _laplace_kernel(mechanism), target, known, req))
        else:
            out.append(_finite(n, model, mechanism, target, known, req, exhaustive))
    return Audit(target, known, tuple(out))


__all__ = ["audit_table"]

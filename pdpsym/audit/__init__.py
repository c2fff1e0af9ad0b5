"""Audit a user's own model and mechanism under every privacy notion, exactly.

For a finite model θ (a :class:`~pdpsym.models.joint.JointDistribution`), a target
record and the records the attacker knows, :func:`audit` reports for each notion
(:mod:`pdpsym.audit.registry`; their cases: :mod:`pdpsym.audit.notions`):

* ``epsilon`` -- the smallest ε with δ = 0, exact (``ln`` of a rational, or ``oo``);
* ``delta_at_epsilon`` -- the smallest δ at each given ε, exact;
* ``epsilon_at_delta`` -- the smallest ε at the given δ, exact;
* ``witness`` -- where each worst case is attained.

Finite mechanisms (:mod:`pdpsym.mechanisms.discrete`) are computed from the
definitions through one privacy curve (:mod:`pdpsym.loss.curve`). For randomized
response the cases of dp, apkdp, np, ppkdp and cdp are ranked in float64 first and only
those near the top are built exactly (:mod:`pdpsym.audit.screen`; the figures are those
of building every case). Laplace noise on a
linear query (:class:`~pdpsym.mechanisms.laplace.LaplaceNoise`) has continuous outputs:
each notion's cases are pairs of Laplace mixtures over the query value, and δ(ε) and
ε(δ) go through :mod:`pdpsym.loss` (closed-form δ; ε(δ) by exact bisection). Its
``apkdp``/``np``/``ppkdp`` ε is Li et al.'s Eq. 2 leakage of ``A(target, known)`` (with
δ = 0 the active and passive notions coincide, Desfontaines et al. Theorem 1) and its
``dp`` ε is ``Δ_i/λ``; ``ibcdp`` (a sup over the continuous output of posterior
comparisons, attained at a piece end or a stationary point in closed form) is certified
to any number of digits; ``distributional-dp`` (a simulator over a
continuous output) is enclosed between two finite LPs
(:class:`~pdpsym.audit.distributional.DistributionalLoss`).

Examples:
    >>> import pdpsym as ps
    >>> m = ps.JointDistribution.from_rows(["x1", "x2"], [[0, 0, "1/2"], [1, 1, "1/2"]])
    >>> rr = ps.mechanisms.randomized_response("3/4", [[0, 1], [0, 1]])
    >>> a = audit(m, rr, target="x1", notions=["dp", "apkdp"])
    >>> [(r.notion, str(r.epsilon)) for r in a.results]
    [('dp', 'log(3)'), ('apkdp', 'log(9)')]
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
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
from pdpsym.audit.registry import ALL_NOTIONS, NOTIONS, Compare, Pairs, delta_over_lambda
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
from pdpsym.models.model_objects import is_table
from pdpsym.models.neighbours import DDPReading
from pdpsym.models.scenario import Scenario

__all__ = ["ALL_NOTIONS", "NOTIONS", "Audit", "NotionResult", "audit"]


def _log(t: Fraction | None) -> sympy.Expr:
    if t is None:
        return sympy.oo
    return sympy.log(sympy.Rational(t.numerator, t.denominator))


@dataclass(frozen=True)
class NotionResult:
    """One notion's exact figures for the audited instance.

    ``epsilon`` and the values in ``epsilon_at_delta`` are exact values (sympy, ``oo``
    when unbounded, or an exact value object of :mod:`pdpsym.core`); the δ values are
    exact values (``c0 + c1 e^ε`` for finite outputs). For continuous outputs a value
    may be a certified enclosure (:class:`~pdpsym.core.exp_sqrt_sums.Bracket`): its digits are
    certain, it has no closed form. ``None`` with a ``note`` means the figure is not
    computed for this mechanism.
    """

    notion: str
    epsilon: Any
    witness: Mapping[str, Any] | None
    delta_at_epsilon: tuple[tuple[Eps, Any, Mapping[str, Any] | None], ...] = ()
    epsilon_at_delta: tuple[Fraction, Any, Mapping[str, Any] | None] | None = None
    reading: str | None = None
    note: str | None = None
    # e^eps enclosed (lo, hi) where the exact value is not computed (distributional-dp)
    ratio_enclosure: tuple[Fraction, Fraction | None] | None = None

    @classmethod
    def of_loss(
        cls,
        notion: str,
        loss: PrivacyLoss,
        eps: Sequence[Eps],
        delta: Fraction | None,
        reading: str | None = None,
        note: str | None = None,
        shown: Callable[[Any], Any] = lambda v: v,
    ) -> NotionResult:
        """One notion's figures read off one privacy loss: ε at δ = 0 with its witness,
        δ at each ε and ε at δ (:func:`~pdpsym.audit.notions.curve_points`).

        Args:
            notion: the notion's name.
            loss: its privacy loss (the worst case over the notion's cases).
            eps: the ε values at which δ is reported.
            delta: the δ at which the smallest ε is reported.
            reading: the reading of the definition, shown with the figures.
            note: how the figures were computed.
            shown: the form in which a δ or ε value is shown.

        Returns:
            The :class:`NotionResult`.
        """
        at_eps, at_delta = curve_points(loss, eps, delta, shown)
        zero = loss.epsilon(0)
        return cls(notion, zero.value, dict(zero.where or {}), at_eps, at_delta, reading, note)


@dataclass(frozen=True)
class Audit:
    """The audit of one instance: the target, the known records and each notion."""

    target: str
    known: tuple[str, ...]
    results: tuple[NotionResult, ...] = field(default_factory=tuple)

    def __getitem__(self, notion: str) -> NotionResult:
        for r in self.results:
            if r.notion == notion:
                return r
        raise KeyError(notion)


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


def _request(
    eps: Iterable[Eps | Fraction | int | str],
    delta: Fraction | int | str | None,
    notions: Iterable[str],
    reading: DDPReading,
    alpha: Fraction | int = 2,
    max_work: int | None = None,
) -> Request:
    """The checked ε points, δ and notions of an audit request (tables and structured
    models alike)."""
    eps_list = [Eps.of(e) for e in eps]
    for e in eps_list:
        if e.eps is not None and e.eps < 0:
            raise InputError("eps", "must be >= 0")
    d = None
    if delta is not None:
        d = Eps.of(delta).eps if not isinstance(delta, Fraction) else delta
        if d is None or not 0 <= d < 1:
            raise InputError("delta", "must lie in [0, 1)")
    wanted = list(notions)
    for n in wanted:
        registry.notion(n)  # raises InputError for an unknown name
    if max_work is not None and max_work < 1:
        raise InputError("max_work", "must be >= 1")
    return Request(tuple(eps_list), d, tuple(wanted), reading, registry.order(alpha), max_work)


def audit(
    model: JointDistribution | Any,
    mechanism: Mechanism | QueryMechanism | Any,
    target: str,
    known: Iterable[str] = (),
    eps: Iterable[Eps | Fraction | int | str] = (),
    delta: Fraction | int | str | None = None,
    notions: Iterable[str] = NOTIONS,
    reading: DDPReading = DDPReading.NEIGHBOURS,
    *,
    exhaustive: bool = False,
    alpha: Fraction | int = 2,
    max_work: int | None = None,
) -> Audit:
    """Every notion's exact ε, δ(ε) and ε(δ) for the target record.

    Args:
        model: the joint distribution of the records, or a structured model (a Markov
            chain, independent records, a Bayesian network), audited from its query laws
            by :func:`pdpsym.audit.sum_mechanisms.audit_models`.
        mechanism: a finite mechanism ``D -> PMF`` (:mod:`pdpsym.mechanisms`), or
            :class:`~pdpsym.mechanisms.laplace.LaplaceNoise`.
        target: the target record (a variable of ``model``).
        known: the records the attacker knows (``B``; Li et al.'s ``K``).
        eps: the ε values at which δ is reported (:class:`~pdpsym.core.eps.Eps`, or
            exact numbers).
        delta: the δ at which the smallest ε is reported, in ``[0, 1)``.
        notions: names of :data:`~pdpsym.audit.registry.ALL_NOTIONS`.
        reading: the reading of Liu et al.'s Definition 4 for ``dependent-dp``.
        exhaustive: build every case exactly, with no float screening (the plain
            definition; the screened path for randomized response,
            :mod:`pdpsym.audit.screen`, gives identical results).
        alpha: the order of ``renyi-dp`` (a rational above 1; Mironov 2017).
        max_work: the most steps (about a microsecond each) the report cones of
            randomized response on a chain of three states or more may take; past it
            their notions' ε is left uncomputed, with a note saying so (None: no limit).

    Returns:
        :class:`Audit`, one :class:`NotionResult` per notion, in the order asked.

    References:
        Desfontaines et al. Definitions 3-6, 12-13; Li et al. Eq. 2; Liu et al.
        Definition 4; Mironov (2017) Definition 4.
    """
    known = tuple(known)
    if not is_table(model):
        req = _request(eps, delta, notions, reading, max_work=max_work)
        return _structured(model, mechanism, target, known, req)
    model.index(target, "target")
    for k in known:
        model.index(k, "known")
        if k == target:
            raise InputError("known", "the target cannot be a known record")
    req = _request(eps, delta, notions, reading, alpha)
    out = []
    for n in req.notions:
        if isinstance(mechanism, QueryMechanism):
            out.append(_noise(n, model, _laplace_kernel(mechanism), target, known, req))
        else:
            out.append(_finite(n, model, mechanism, target, known, req, exhaustive))
    return Audit(target, known, tuple(out))


def _structured(
    model: Any, mechanism: Any, target: str, known: tuple[str, ...], req: Request
) -> Audit:
    """:func:`audit` of a structured model (:mod:`pdpsym.audit.sum_mechanisms`)."""
    from pdpsym.audit.sum_mechanisms import audit_models  # it imports this module: no cycle

    for n in req.notions:
        if registry.notion(n).compare is Compare.RENYI:
            raise InputError(
                "notions", f"{n}: tables only (finite or Laplace), not structured models"
            )
    result: Audit = audit_models(model, mechanism, target, known, req)
    return result


class _CallableModule(types.ModuleType):
    """Importing this subpackage rebinds ``pdpsym.audit`` to it; calling it keeps the
    public ``pdpsym.audit(model, mechanism, target=...)`` working either way."""

    def __call__(self, *args: Any, **kwargs: Any) -> Audit:
        return audit(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule

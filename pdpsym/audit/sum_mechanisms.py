"""Audit a structured model (a Markov chain, independent records, a Bayesian network)
under every privacy notion, from the exact conditional laws of the query -- never by
listing databases.

Every mechanism here is a function of the weighted sum ``f(x) = Σ_k w_k x_k``: Laplace
noise (:class:`~pdpsym.mechanisms.laplace.LaplaceNoise`), two-sided geometric noise, the
noiseless count and the thresholded count: a
:class:`~pdpsym.mechanisms.base.QueryMechanism`, asked for its kernel
(:class:`~pdpsym.mechanisms.base.SumMechanism`). The output law of such
a mechanism under any condition on the records is its kernel mixed over the conditional
law of ``f`` (``model.query_law``), so each notion's cases are pairs of query laws:

* ``apkdp`` / ``np`` -- Desfontaines et al. Definitions 12 and 3: for ``a ≠ b`` in the
  support of ``x_i`` and every value ``v`` of the known records compatible with both, the
  law of ``f`` given ``x_i = a, x_K = v`` against the one given ``x_i = b, x_K = v``. The
  compatible ``v`` and ``P[x_K = v | x_i = a]`` come from one query law with mixed-radix
  weights on the known records (the sum determines ``v``), so only compatible values are
  ever visited.
* ``ppkdp`` -- Definition 13: the same pairs weighted by ``P[x_K = v | x_i = a]``; a ``v``
  impossible under ``b`` counts in full.
* ``cdp`` -- Definition 5: changing ``x_i`` from ``a`` to ``b`` shifts ``f`` by
  ``w_i (b - a)``, so the changed law is the conditional law translated.
* ``dp`` -- classic DP over the product of the domains: the pair of point masses at
  ``r + w_i a`` and ``r + w_i b``. For Laplace, geometric and the count only the shift
  matters; for the threshold the largest ``r`` is the worst. One case per ``(a, b)``.
* ``dependent-dp`` -- Liu et al. Definition 4, in the reading ``def4-neighbours``: two
  databases are dependent neighbours when they differ at ``x_i`` and agree outside the
  dependence set ``N_i``. Here ``N_i`` is the record's dependence group (the records not
  independent of it by the model's structure: a chain's run of linked steps, the
  connected component of a network's skeleton, ``{i}`` for independent records). That
  group contains the smallest ``N_i`` of Liu et al., with equality when ``x_i`` is
  dependent on every record of its group (a chain whose steps all have two distinct
  rows); otherwise the figure is an upper bound, never below the definition's. The worst
  pair is the one of largest shift (Liu et al.'s dependent sensitivity over the group),
  or for the threshold the one with the largest sum. In the reading
  ``eq11-conditional`` the cases are the laws of ``f`` given ``x_i = a`` and ``x_i = b``.

* ``ibcdp`` -- Definition 6: the posteriors of ``x_i`` given the output of ``D`` and of
  ``D_{i→b}``, from the joint law ``P(x_i = a, f = s | x_K = v)`` of the count
  polynomials; ``distributional-dp`` -- Definition 4: LPs whose columns are the values of
  the target's Markov blanket (:mod:`pdpsym.audit.sum_posteriors`, with the
  derivations).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from pdpsym.audit import registry
from pdpsym.audit.notions import Request
from pdpsym.audit.product_posteriors import product_result
from pdpsym.audit.product_shifts import product_cases
from pdpsym.audit.registry import Compare, Notion, Pairs, delta_over_lambda
from pdpsym.audit.results import Audit, NotionResult
from pdpsym.audit.rr_reports import audit_rr
from pdpsym.audit.sum_posteriors import (
    IBCDP_LAPLACE_NOTE,
    distributional_result,
    ibcdp_loss,
    pushed_laws,
)
from pdpsym.core.errors import InputError
from pdpsym.loss import LaplacePair, PrivacyLoss, Weighted, worst_case
from pdpsym.loss.pmf_pair import PMFPair
from pdpsym.mechanisms.base import QueryMechanism, ReportMechanism, SumMechanism
from pdpsym.mechanisms.sum_kernels import CountSum
from pdpsym.models.counts import query_contributions
from pdpsym.models.neighbours import DDPReading
from pdpsym.models.query_law import records_law

Law = dict[Fraction, Fraction]


def _as_sum_mechanism(mechanism: Any) -> SumMechanism:
    if isinstance(mechanism, QueryMechanism):
        return mechanism.on_sum()
    raise InputError(
        "mechanism",
        "a structured model is audited with a mechanism on the weighted sum "
        "(laplace, geometric, count or threshold)",
    )


class _Model:
    """The query laws of one structured model, target and known set, memoized."""

    def __init__(self, model: Any, mech: SumMechanism, target: str, known: Sequence[str]) -> None:
        self.model, self.target, self.known = model, target, tuple(known)
        names = tuple(model.variables)
        if target not in names:
            raise InputError("target", f"unknown record {target!r}")
        for k in self.known:
            if k not in names:
                raise InputError("known", f"unknown record {k!r}")
            if k == target:
                raise InputError("known", "the target cannot be a known record")
        if len(set(self.known)) != len(self.known):
            raise InputError("known", "a record is named twice")
        w = {v: Fraction(1) for v in names}
        for name, x in (mech.weights or {}).items():
            if name not in w:
                raise InputError("weights", f"unknown variable {name!r}")
            w[name] = Fraction(x)
        self.weights = w
        self.scale = math.lcm(1, *(x.denominator for x in w.values()))
        self.int_weights = {v: int(x * self.scale) for v, x in w.items()}
        self.domains = {v: tuple(model.domain(v)) for v in names}
        # the query's per-record integer contributions, from the model alone (a network's
        # count or sum query is not its records' values): f = (sum of c + offset) / unit
        self.contrib = query_contributions(model, self.int_weights)
        self.unit = self.contrib.scale * self.scale
        self.rows = dict(zip(names, self.contrib.table, strict=True))
        self._laws: dict[tuple[Fraction, tuple[Fraction, ...]], Law | None] = {}
        self._known_laws: dict[Fraction, dict[tuple[Fraction, ...], Fraction] | None] = {}

    def law(self, a: Fraction, v: tuple[Fraction, ...]) -> Law | None:
        """The law of ``f`` given ``x_i = a, x_K = v`` (None: probability zero)."""
        key = (a, v)
        if key not in self._laws:
            raw = self.model.query_law(
                self.target, a, dict(zip(self.known, v, strict=True)), self.int_weights
            )
            self._laws[key] = (
                None if raw is None else {s / self.scale: p for s, p in raw.items() if p}
            )
        return self._laws[key]

    def known_given(self, a: Fraction) -> dict[tuple[Fraction, ...], Fraction] | None:
        """``P[x_K = v | x_i = a]`` for every ``v`` of positive probability (None when
        ``x_i = a`` has probability zero): one query law whose mixed-radix weights on the
        known records make the sum determine their values."""
        if a not in self._known_laws:
            self._known_laws[a] = records_law(self.model, self.target, a, {}, self.known)
        return self._known_laws[a]

    def plain_law(self, a: Fraction) -> Law | None:
        """The law of ``f`` given ``x_i = a`` alone."""
        raw = self.model.query_law(self.target, a, {}, self.int_weights)
        return None if raw is None else {s / self.scale: p for s, p in raw.items() if p}

    def support(self) -> list[Fraction]:
        return [a for a in self.domains[self.target] if self.known_given(a) is not None]

    def group(self) -> tuple[str, ...]:
        groups = dependence_groups(self.model)
        for g in groups:
            if self.target in g:
                return tuple(g)
        return (self.target,)

    def shift(self, a: Fraction, b: Fraction) -> Fraction:
        """How much ``f`` moves when the target changes from ``a`` to ``b``."""
        row, dom = self.rows[self.target], self.domains[self.target]
        return Fraction(row[dom.index(b)] - row[dom.index(a)], self.unit)

    def value(self, count: int) -> Fraction:
        """The query value of the records' summed contributions ``count``."""
        return (count + self.contrib.offset) / self.unit

    def most(self, names: Iterable[str]) -> int:
        """The largest summed contribution of ``names`` (the least is 0)."""
        return sum(max(self.rows[v]) for v in names)


def dependence_groups(model: Any) -> list[tuple[str, ...]]:
    """The model's mutually independent groups of records.

    Args:
        model: a structured model; one with a ``dependence_groups()`` method names its
            groups (a chain is one group; independent records are one group each).

    Returns:
        The groups; one group of every record when the model does not say (a sound
        over-approximation: records in different groups are independent).

    References:
        Liu et al. (2016), Section V, Definition 3 (the dependence set of a tuple).
    """
    groups = getattr(model, "dependence_groups", None)
    return list(groups()) if groups is not None else [tuple(model.variables)]


# --- the mechanism as a kernel on the query value --------------------------------------


def _pair(mech: SumMechanism, p: Law, q: Law, where: Mapping[str, Any]) -> PrivacyLoss:
    """The privacy loss of the mechanism's outputs mixed over ``p`` against ``q``."""
    if mech.lam is not None:
        return LaplacePair(p, q, mech.lam, where)
    pp, pq = pushed_laws(mech, [p, q])
    return PMFPair(pp, pq, where)


def _weighted(
    mech: SumMechanism, terms: Sequence[tuple[Fraction, Law, Law]], where: Mapping[str, Any]
) -> PrivacyLoss:
    if mech.lam is not None:
        return Weighted([(w, LaplacePair(p, q, mech.lam, where)) for w, p, q in terms])
    pushed = pushed_laws(mech, [law for _, p, q in terms for law in (p, q)])
    return PMFPair.weighted(
        [(w, pushed[2 * k], pushed[2 * k + 1]) for k, (w, _, _) in enumerate(terms)], where
    )


def _shift(law: Law, d: Fraction) -> Law:
    return {s + d: p for s, p in law.items()}


# --- the cases of each notion -----------------------------------------------------------


def _apk(m: _Model, mech: SumMechanism) -> list[tuple[dict[str, Any], PrivacyLoss]]:
    out: list[tuple[dict[str, Any], PrivacyLoss]] = []
    sup = m.support()
    for a, b in itertools.permutations(sup, 2):
        ka, kb = m.known_given(a) or {}, m.known_given(b) or {}
        for v in ka:
            if v in kb:
                pa, pb = m.law(a, v), m.law(b, v)
                assert pa is not None and pb is not None
                where = {"a": a, "b": b, "known": v}
                out.append((where, _pair(mech, pa, pb, where)))
    return out


def _ppk(m: _Model, mech: SumMechanism) -> list[tuple[dict[str, Any], PrivacyLoss]]:
    out: list[tuple[dict[str, Any], PrivacyLoss]] = []
    for a, b in itertools.permutations(m.support(), 2):
        ka, kb = m.known_given(a) or {}, m.known_given(b) or {}
        terms = []
        for v, w in ka.items():
            pa = m.law(a, v)
            assert pa is not None
            pb = (m.law(b, v) or {}) if v in kb else {}
            terms.append((w, pa, pb))
        where = {"a": a, "b": b}
        out.append((where, _weighted(mech, terms, where)))
    return out


def _cdp(m: _Model, mech: SumMechanism) -> list[tuple[dict[str, Any], PrivacyLoss]]:
    out: list[tuple[dict[str, Any], PrivacyLoss]] = []
    sup = m.support()
    for a in sup:
        ka = m.known_given(a) or {}
        for v in ka:
            pa = m.law(a, v)
            assert pa is not None
            for b in m.domains[m.target]:
                if b == a or (b in sup and v not in (m.known_given(b) or {})):
                    continue
                pc = _shift(pa, m.shift(a, b))
                where = {"a": a, "b": b, "known": v}
                back = {**where, "direction": "changed vs actual"}
                out.append((where, _pair(mech, pa, pc, where)))
                out.append((back, _pair(mech, pc, pa, back)))
    return out


def _point_pairs(
    m: _Model, mech: SumMechanism, inside: Sequence[str]
) -> list[tuple[dict[str, Any], PrivacyLoss]]:
    """Pairs of databases over the product of the domains that differ at ``x_i`` and may
    differ on ``inside`` (the other records of the set), agreeing elsewhere: one worst
    representative per ``(a, b)``."""
    i = m.target
    others = [v for v in inside if v != i]
    outside = [v for v in m.model.variables if v not in inside and v != i]
    r = m.most(outside)  # the largest rest: the worst for the threshold
    ghi = m.most(others)  # in contribution units; the least is 0
    row, dom = m.rows[i], m.domains[i]
    out: list[tuple[dict[str, Any], PrivacyLoss]] = []
    for a, b in itertools.permutations(dom, 2):
        ca, cb = row[dom.index(a)], row[dom.index(b)]
        # the pair of largest shift, and the pair of largest sum among differing pairs
        cands = [(ca, cb + ghi), (ca + ghi, cb)]
        if mech.T is not None:
            cands = [(ca + ghi, cb + ghi), (ca + ghi, cb), (ca, cb + ghi)]
            diff = [c for c in cands if c[0] != c[1]]
            u, u2 = max(diff, key=lambda c: max(c)) if diff else cands[0]
        else:
            u, u2 = max(cands, key=lambda c: abs(c[0] - c[1]))
        x, x2 = m.value(r + u), m.value(r + u2)
        where: dict[str, Any] = {"a": a, "b": b, "values": (x, x2)}
        out.append((where, _pair(mech, {x: Fraction(1)}, {x2: Fraction(1)}, where)))
    return out


def _conditional(m: _Model, mech: SumMechanism) -> list[tuple[dict[str, Any], PrivacyLoss]]:
    laws = {a: m.plain_law(a) for a in m.domains[m.target]}
    sup = [a for a, law in laws.items() if law is not None]
    out: list[tuple[dict[str, Any], PrivacyLoss]] = []
    for a, b in itertools.permutations(sup, 2):
        pa, pb = laws[a], laws[b]
        assert pa is not None and pb is not None
        where = {"a": a, "b": b}
        out.append((where, _pair(mech, pa, pb, where)))
    return out


_DDP_NOTE = (
    "dependent neighbours differ at the target and agree outside its dependence group "
    "(a chain's run of linked steps, a network's connected component, the record alone "
    "for independent records), over the product of the domains; the group contains "
    "Liu et al.'s N_i, so the figure equals Definition 4 when the target depends on "
    "every record of its group and is an upper bound otherwise"
)


def _shown(v: Any) -> Any:
    """A value as printed under count, threshold or geometric noise: its sympy closed
    form, or the value itself when it has none (a ball-certified δ)."""
    if hasattr(v, "sympy") and getattr(v, "closed_form", True):
        return v.sympy()
    return v


def _result(
    kind: Notion,
    cases: Callable[[], list[tuple[dict[str, Any], PrivacyLoss]]],
    mech: SumMechanism,
    m: _Model,
    req: Request,
    apk_zero: Any = None,
) -> Any:

    eps, delta, reading = req.eps, req.delta, req.reading

    if kind.compare is Compare.SIMULATOR_LP:
        return distributional_result(m, mech, eps, delta, kind)
    posterior = kind.compare is Compare.POSTERIOR
    loss = ibcdp_loss(m, mech) if posterior else worst_case(cases())
    res = NotionResult.of_loss(
        kind.name,
        loss,
        eps,
        delta,
        shown=lambda v: _shown(v) if mech.lam is None else v,
    )
    value, wit = res.epsilon, res.witness
    note = "exact, from the conditional laws of the query (no database is listed)"
    if posterior and mech.lam is not None:
        note = IBCDP_LAPLACE_NOTE
    label = kind.label(reading)
    if kind.apk_at_zero is not None and apk_zero is not None:
        value, wit = apk_zero
        label = kind.apk_at_zero
    if kind.pairs is Pairs.NEIGHBOURS and mech.lam is not None:
        row = m.rows[m.target]
        value, wit = delta_over_lambda(Fraction(max(row) - min(row), m.unit), mech.lam)
    if kind.pairs is Pairs.DEPENDENT and reading is not DDPReading.CONDITIONAL:
        note = _DDP_NOTE
    return replace(res, epsilon=value, witness=wit, reading=label, note=note)


def audit_models(
    model: Any,
    mechanism: QueryMechanism | ReportMechanism,
    target: str,
    known: Iterable[str] = (),
    req: Request = Request(),  # noqa: B008 (a frozen, immutable value)
) -> Any:
    """Every notion's exact ε, δ(ε) and ε(δ) for a structured model (see the module
    docstring for each notion's cases).

    Args:
        model: a structured model (``query_law``, ``domain``, ``variables``).
        mechanism: a :class:`SumMechanism`, :class:`~pdpsym.mechanisms.laplace.LaplaceNoise`,
            or randomized response on the model's domains (chains and independent
            records: :mod:`pdpsym.audit.rr_reports`).
        target: the target record.
        known: the records the attacker knows (their values range over every value
            compatible with the target's).
        req: the ε values, δ, notions (names of :data:`pdpsym.audit.ALL_NOTIONS`) and
            reading of Liu et al.'s Definition 4 asked for.

    Returns:
        :class:`~pdpsym.audit.Audit`, one result per notion.

    References:
        Desfontaines et al. Definitions 3, 5, 12, 13 and Theorem 1; Li et al. Eq. 2;
        Liu et al. Definition 4 and Eq. 11.
    """
    if isinstance(mechanism, ReportMechanism) and mechanism.symmetric_keep() is not None:
        if getattr(model, "query_values", None) is not None:
            raise InputError(
                "query",
                "randomized response releases the records themselves, not a count or sum "
                "query; audit the query with laplace, geometric, count or threshold",
            )
        rm = _Model(model, CountSum(), target, tuple(known))
        results = audit_rr(
            model,
            mechanism,
            target,
            rm.known,
            req,
            rm.known_given,
            rm.group(),
        )
        return Audit(target, rm.known, tuple(results))
    mech = _as_sum_mechanism(mechanism)
    m = _Model(model, mech, target, tuple(known))
    if mech.alpha is not None:
        lo, hi = m.value(0), m.value(m.most(model.variables))
        if lo.denominator != 1 or hi.denominator != 1:
            raise InputError("weights", "geometric noise needs an integer-valued query")
    makers: dict[Pairs, Callable[[], list[tuple[dict[str, Any], PrivacyLoss]]]] = {
        Pairs.NEIGHBOURS: lambda: _point_pairs(m, mech, (target,)),
        Pairs.GIVEN_KNOWN: lambda: _apk(m, mech),
        Pairs.WEIGHTED_KNOWN: lambda: _ppk(m, mech),
        Pairs.CHANGED: lambda: _cdp(m, mech),
        Pairs.CHANGED_POSTERIORS: lambda: [],  # its loss: ibcdp_loss
        Pairs.SIMULATED: lambda: [],  # its result: distributional_result
        Pairs.DEPENDENT: (
            (lambda: _conditional(m, mech))
            if req.reading is DDPReading.CONDITIONAL
            else (lambda: _point_pairs(m, mech, m.group()))
        ),
    }
    balls = product_cases(model, mech, target, m.known, m.rows, m.unit)
    if balls is not None:  # many independent records: the same pairs, in balls
        makers[Pairs.GIVEN_KNOWN] = balls.given_known
        makers[Pairs.WEIGHTED_KNOWN] = balls.weighted_known
        makers[Pairs.CHANGED] = balls.changed
        if req.reading is DDPReading.CONDITIONAL:
            makers[Pairs.DEPENDENT] = balls.conditional
    out = []
    apk_zero = None
    for n in req.notions:
        kind = registry.notion(n)
        if kind.apk_at_zero is not None and mech.lam is not None:
            z = worst_case(makers[Pairs.GIVEN_KNOWN]()).epsilon(0)
            apk_zero = (z.value, dict(z.where or {}))
        res = product_result(kind, model, mech, m, req)  # closed forms at scale, or None
        if res is None:
            res = _result(kind, makers[kind.pairs], mech, m, req, apk_zero)
        if balls is not None and balls.covers(kind.pairs, req.reading):
            res = replace(res, note=balls.note)
        out.append(res)
    return Audit(target, tuple(m.known), tuple(out))


__all__ = ["audit_models"]

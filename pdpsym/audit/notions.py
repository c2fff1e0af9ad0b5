"""The cases of each privacy notion, for a finite mechanism on a finite model.

Each function yields :class:`~pdpsym.loss.curve.Case` objects: the pairs of output
distributions (and their weights) that the notion compares. The notion's δ(ε) is the
maximum over its cases (:mod:`pdpsym.loss.curve`).

Notation: ``model`` is the joint distribution θ of the records (its variables), ``i``
the target record, ``K`` the known records (Desfontaines et al.'s ``B``, Li et al.'s
``K``), ``B̂`` a value of the known records, ``M`` the mechanism ``D -> PMF``.

* ``dp`` -- classic DP for record ``i``: every ordered pair ``D, D_{i→b}`` of the product
  of the domains (θ plays no part).
* ``apkdp`` -- Desfontaines et al. Definition 12: ``M(D) | D(i)=a, B=B̂`` against
  ``M(D) | D(i)=b, B=B̂`` for every ``a ≠ b`` and every ``B̂`` compatible with both.
* ``ppkdp`` -- Definition 13: for ``a ≠ b``, the same pairs weighted by ``P[B̂ | D(i)=a]``
  (Theorem 1: ``PPK = E[APK]``). A ``B̂`` compatible with ``a`` but not with ``b`` tells
  the attacker that ``D(i) ≠ b``: its term counts in full (the PLRV is infinite there).
* ``np`` -- Definition 3: for one θ its pairs are those of ``apkdp``.
* ``cdp`` -- Definition 5: ``M(D) | D(i)=a, B̂`` against ``M(D_{i→b}) | D(i)=a, B̂`` for
  every ``b`` of the domain, both directions.
* ``ibcdp`` -- Definition 6: the posteriors of ``D(i)`` given ``M(D) = t`` and given
  ``M(D_{i→b}) = t`` (with ``B̂``), both directions.
* ``dependent-dp`` -- Liu et al. Definition 4 in the reading given
  (:class:`~pdpsym.models.neighbours.DDPReading`): dependent neighbouring pairs,
  or the conditional outputs of Eq. 11-12.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pdpsym.audit import registry
from pdpsym.audit.registry import Pairs
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.loss.base import PrivacyLoss, Weighted
from pdpsym.loss.curve import Case
from pdpsym.mechanisms.discrete import count
from pdpsym.mechanisms.finite import Mechanism, output_pmf
from pdpsym.models.joint import JointDistribution
from pdpsym.models.neighbours import DDPNeighbours, DDPReading, databases
from pdpsym.models.scenario import PMF, Database, Scenario

ONE = Fraction(1)


def _pmf(mech: Mechanism, d: Database) -> PMF:
    return {o: Fraction(p) for o, p in mech(d).items() if p}


def _replace(d: Database, i: int, b: Any) -> Database:
    return tuple(b if j == i else x for j, x in enumerate(d))


def dp_cases(model: JointDistribution, mech: Mechanism, i: int) -> Iterator[Case]:
    """The cases of classic DP for record ``i``: ``M(D)`` against ``M(D_{i→b})``.

    Every database ``D`` of the product of the domains (θ plays no part) and every value
    ``b ≠ D(i)`` of record ``i``'s domain give one ordered pair, weight 1.

    Args:
        model: the joint law of the records (only its domains are used).
        mech: the finite mechanism, ``D -> PMF``.
        i: the index of the target record.

    Yields:
        One :class:`~pdpsym.loss.curve.Case` per ``(D, b)``, where ``{"a", "b", "database"}``.

    References:
        Desfontaines et al. (2020), Section 2.1 (differential privacy, the baseline of
        Definitions 3-6).
    """
    for d in databases(model):
        for b in model.domains[i]:
            if b != d[i]:
                e = _replace(d, i, b)
                yield Case(
                    {"a": d[i], "b": b, "database": d}, ((ONE, _pmf(mech, d), _pmf(mech, e)),)
                )


def _apk_pairs(sc: Scenario, i: int) -> Iterator[tuple[Any, Any, Any]]:
    values = sc.record_values(i)
    for a, b in itertools.permutations(values, 2):
        for bhat in sc.knowledge_values():
            if sc.compatible(i, a, bhat) and sc.compatible(i, b, bhat):
                yield a, b, bhat


def apkdp_cases(sc: Scenario, mech: Mechanism, i: int) -> Iterator[Case]:
    """The cases of active partial-knowledge DP (also those of noiseless privacy).

    ``M(D) | D(i)=a, B=B̂`` against ``M(D) | D(i)=b, B=B̂`` for every ordered ``a ≠ b`` of
    the values record ``i`` takes and every ``B̂`` compatible with both, weight 1.

    Args:
        sc: the scenario (the records' law and the known records).
        mech: the finite mechanism, ``D -> PMF``.
        i: the index of the target record.

    Yields:
        One :class:`~pdpsym.loss.curve.Case` per ``(a, b, B̂)``, where
        ``{"a", "b", "known"}``.

    References:
        Desfontaines et al. (2020), Section 3.2, Definition 12; Section 2.1,
        Definition 3 (noiseless privacy: for one θ, the same pairs).
    """
    for a, b, bhat in _apk_pairs(sc, i):
        pa, pb = output_pmf(sc, mech, i, a, bhat), output_pmf(sc, mech, i, b, bhat)
        yield Case({"a": a, "b": b, "known": bhat}, ((ONE, pa, pb),))


def ppkdp_cases(sc: Scenario, mech: Mechanism, i: int) -> Iterator[Case]:
    """The cases of passive partial-knowledge DP: APK's pairs weighted by ``P[B̂ | a]``.

    For every ordered ``a ≠ b`` one case whose terms are, per ``B̂`` with
    ``P[B̂ | D(i)=a] > 0``, that weight with ``M(D) | a, B̂`` and ``M(D) | b, B̂``; a
    ``B̂`` compatible with ``a`` but not with ``b`` gets an empty second law (its term
    counts in full).

    Args:
        sc: the scenario (the records' law and the known records).
        mech: the finite mechanism, ``D -> PMF``.
        i: the index of the target record.

    Yields:
        One :class:`~pdpsym.loss.curve.Case` per ``(a, b)``, where ``{"a", "b"}``.

    References:
        Desfontaines et al. (2020), Section 3.3, Definition 13; Section 3.4, Theorem 1
        (``PPK = E[APK]``).
    """
    for a, b in itertools.permutations(sc.record_values(i), 2):
        terms = []
        for bhat in sc.knowledge_values():
            w = sc.prob_knowledge_given(i, a, bhat)
            if not w:
                continue
            pa = output_pmf(sc, mech, i, a, bhat)
            pb = output_pmf(sc, mech, i, b, bhat) if sc.compatible(i, b, bhat) else {}
            terms.append((w, pa, pb))
        yield Case({"a": a, "b": b}, tuple(terms))


def _changed(sc: Scenario, mech: Mechanism, i: int, a: Any, b: Any, bhat: Any) -> PMF:
    out: PMF = {}
    for d, p in sc.conditional(i, a, bhat).items():
        for o, q in _pmf(mech, _replace(d, i, b)).items():
            out[o] = out.get(o, Fraction(0)) + p * q
    return out


def cdp_cases(
    sc: Scenario, mech: Mechanism, i: int, domain: Sequence[Any], inference_based: bool = False
) -> Iterator[Case]:
    """The cases of causal DP (outputs) or inference-based causal DP (posteriors), both ways.

    CDP: for every ``B̂``, every value ``a`` compatible with it and every ``b ≠ a`` of
    ``domain`` (a ``b`` that record ``i`` takes but that ``B̂`` rules out is skipped),
    ``M(D) | a, B̂`` against ``M(D_{i→b}) | a, B̂``. IBCDP: for every ``B̂``, every ``b``
    of ``domain`` and every output ``t`` that both ``M(D)`` and ``M(D_{i→b})`` can
    produce given ``B̂``, the posterior of ``D(i)`` given ``M(D) = t, B̂`` against the one
    given ``M(D_{i→b}) = t, B̂``. Each pair is also yielded reversed.

    Args:
        sc: the scenario (the records' law and the known records).
        mech: the finite mechanism, ``D -> PMF``.
        i: the index of the target record.
        domain: the values ``b`` record ``i`` may be changed to.
        inference_based: False for CDP, True for IBCDP.

    Yields:
        :class:`~pdpsym.loss.curve.Case` objects, where ``{"a", "b", "known"}`` (CDP) or
        ``{"b", "known", "output"}`` over the values of ``D(i)`` (IBCDP), and
        ``"direction"`` for the reversed pair.

    References:
        Desfontaines et al. (2020), Section 2.2, Definitions 5 and 6.
    """
    if inference_based:
        yield from _posterior_cases(sc, mech, i, domain)
        return
    support = sc.record_values(i)
    for bhat in sc.knowledge_values():
        for a in support:
            if not sc.compatible(i, a, bhat):
                continue
            pa = output_pmf(sc, mech, i, a, bhat)
            for b in domain:
                if b == a or (b in support and not sc.compatible(i, b, bhat)):
                    continue
                pc = _changed(sc, mech, i, a, b, bhat)
                where = {"a": a, "b": b, "known": bhat}
                yield Case(where, ((ONE, pa, pc),))
                yield Case({**where, "direction": "changed vs actual"}, ((ONE, pc, pa),))


def _posterior_cases(
    sc: Scenario, mech: Mechanism, i: int, domain: Sequence[Any]
) -> Iterator[Case]:
    """IBCDP's cases (:func:`cdp_cases` with ``inference_based``)."""
    for bhat in sc.knowledge_values():
        rows = [(d, p) for (d, bb), p in sc.joint.items() if bb == bhat]
        for b in domain:
            plain: dict[Any, dict[Any, Fraction]] = {}
            changed: dict[Any, dict[Any, Fraction]] = {}
            for d, p in rows:
                for table, db in ((plain, d), (changed, _replace(d, i, b))):
                    for o, q in _pmf(mech, db).items():
                        row = table.setdefault(o, {})
                        row[d[i]] = row.get(d[i], Fraction(0)) + p * q
            for t in set(plain) & set(changed):
                z1, z2 = sum(plain[t].values()), sum(changed[t].values())
                post1 = {a: v / z1 for a, v in plain[t].items()}
                post2 = {a: v / z2 for a, v in changed[t].items()}
                where = {"b": b, "known": bhat, "output": t}
                yield Case(where, ((ONE, post1, post2),))
                yield Case({**where, "direction": "changed vs actual"}, ((ONE, post2, post1),))


def dependent_dp_cases(
    model: JointDistribution,
    mech: Mechanism,
    i: int,
    neighbours: DDPNeighbours,
) -> Iterator[Case]:
    """The cases of dependent DP for record ``i``, in the reading given.

    ``CONDITIONAL``: the output law given ``D(i) = v`` against the one given
    ``D(i) = v'`` for every ordered pair of values with positive probability (Eq. 11-12).
    ``NEIGHBOURS`` / ``NEIGHBOURS_IN_SUPPORT``: ``M(D)`` against ``M(D')`` for every
    ordered dependent neighbouring pair: ``D(i) ≠ D'(i)`` and ``D, D'`` agree outside
    record ``i``'s dependence set, over all databases or only those of positive
    probability under θ (:meth:`~pdpsym.models.neighbours.DDPNeighbours.pairs`).

    Args:
        model: the joint law θ of the records.
        mech: the finite mechanism, ``D -> PMF``.
        i: the index of the target record.
        neighbours: how Definition 4 quantifies and what "dependent" means
            (:class:`~pdpsym.models.neighbours.DDPNeighbours`).

    Yields:
        :class:`~pdpsym.loss.curve.Case` objects, where ``{"a", "b"}`` (conditional) or
        ``{"database", "neighbour"}``.

    References:
        Liu et al. (2016), Section V, Definition 4 (Eq. 11-12); Definition 3 (the
        dependence sets).
    """
    name = model.variables[i]
    if neighbours.reading is DDPReading.CONDITIONAL:
        conds: dict[Fraction, PMF] = {}
        for v in sorted({d[i] for d, p in model.probs.items() if p}):
            z = sum((p for d, p in model.probs.items() if d[i] == v), Fraction(0))
            acc: PMF = {}
            for d, p in model.probs.items():
                if d[i] == v and p:
                    for o, q in _pmf(mech, d).items():
                        acc[o] = acc.get(o, Fraction(0)) + p / z * q
            conds[v] = acc
        for v1, v2 in itertools.permutations(conds, 2):
            yield Case({"a": v1, "b": v2}, ((ONE, conds[v1], conds[v2]),))
        return
    for _, d, e in neighbours.pairs(model, target=name):
        yield Case({"database": d, "neighbour": e}, ((ONE, _pmf(mech, d), _pmf(mech, e)),))


def noise_losses(
    notion: str,
    model: JointDistribution,
    weights: Sequence[Fraction],
    target: str,
    known: Sequence[str],
    make: Callable[[Mapping[Any, Fraction], Mapping[Any, Fraction]], PrivacyLoss],
    reading: DDPReading = DDPReading.NEIGHBOURS,
) -> list[tuple[dict[str, Any], PrivacyLoss]]:
    """The cases of ``notion`` for additive noise on the linear query with ``weights``.

    The output law of ``f(D) + noise`` given any condition on ``D`` is the noise law mixed
    over the conditional law of the query value ``f(D)``. So the cases of the noiseless
    query (:func:`cases_of` with :func:`~pdpsym.mechanisms.discrete.count`) are pairs of
    laws of ``f(D)``: each pair ``(P, Q)`` becomes ``make(P, Q)`` (a
    :class:`~pdpsym.loss.LaplacePair` or :class:`~pdpsym.loss.GeometricPair`), and a
    weighted case a :class:`~pdpsym.loss.Weighted` sum. Cases equal up to a common
    translation of the query values are kept once (their δ and ε are equal).

    Args:
        notion: one of :data:`~pdpsym.audit.registry.NOTIONS`.
        model: the joint law of the records.
        weights: the query's coefficients, one per record (``f(D) = Σ_j w_j D(j)``).
        target: the name of the target record.
        known: the names of the known records.
        make: builds the loss of one pair of query-value laws.
        reading: the reading of dependent DP (ignored by the other notions).

    Returns:
        ``(where, loss)`` pairs; ``ibcdp`` is not of this form (see
        :mod:`pdpsym.loss.posterior`).

    References:
        Li et al. (2019), Section IV-A, Eq. 2 (a Laplace-noised linear query);
        Desfontaines et al. (2020), Definitions 3-6, 12, 13; Liu et al. (2016),
        Section V, Definition 4.
    """
    query = count(list(weights))
    out: list[tuple[dict[str, Any], PrivacyLoss]] = []
    seen: set[Any] = set()
    for case in cases_of(notion, model, query, target, known, reading)():
        terms = [(w, make(p, q)) for w, p, q in case.terms]
        key = tuple((w, _key(t)) for w, t in terms)
        if key in seen:
            continue
        seen.add(key)
        loss: PrivacyLoss = terms[0][1] if len(terms) == 1 and terms[0][0] == 1 else Weighted(terms)
        out.append((dict(case.where), loss))
    return out


def _key(loss: PrivacyLoss) -> Any:
    k = getattr(loss, "key", None)
    return k() if k is not None else id(loss)


def cases_of(
    notion: str,
    model: JointDistribution,
    mech: Mechanism,
    target: str,
    known: Sequence[str],
    reading: DDPReading = DDPReading.NEIGHBOURS,
) -> Callable[[], Iterator[Case]]:
    """A fresh iterator factory over the cases of ``notion`` (cases are re-walked per ε).

    The notion's pairs (:class:`~pdpsym.audit.registry.Pairs`) choose the cases: ``np``
    has the cases of ``apkdp`` (one θ); ``cdp`` and ``ibcdp`` change record ``i`` to
    every value of its domain; ``dependent-dp`` uses the joint dependence sets.

    Args:
        notion: one of :data:`~pdpsym.audit.registry.NOTIONS`.
        model: the joint law of the records.
        mech: the finite mechanism, ``D -> PMF``.
        target: the name of the target record.
        known: the names of the known records.
        reading: the reading of dependent DP (ignored by the other notions).

    Returns:
        A function of no argument returning a new iterator over the cases.

    Raises:
        InputError: ``notions``, when ``notion`` has no finite cases (not one of
            :data:`~pdpsym.audit.registry.NOTIONS`).

    References:
        Desfontaines et al. (2020), Section 2.1, Definition 3 (np); Section 2.2,
        Definitions 5-6 (cdp, ibcdp); Section 3.2, Definition 12 (apkdp); Section 3.3,
        Definition 13 (ppkdp); Liu et al. (2016), Section V, Definition 4
        (dependent-dp).
    """
    pairs = registry.notion(notion).pairs
    i = model.index(target)
    sc = Scenario.from_model(model, known)
    dom = list(model.domains[i])
    makers: dict[Pairs, Callable[[], Iterator[Case]]] = {
        Pairs.NEIGHBOURS: lambda: dp_cases(model, mech, i),
        Pairs.GIVEN_KNOWN: lambda: apkdp_cases(sc, mech, i),
        Pairs.WEIGHTED_KNOWN: lambda: ppkdp_cases(sc, mech, i),
        Pairs.CHANGED: lambda: cdp_cases(sc, mech, i, dom),
        Pairs.CHANGED_POSTERIORS: lambda: cdp_cases(sc, mech, i, dom, inference_based=True),
        Pairs.DEPENDENT: lambda: dependent_dp_cases(model, mech, i, DDPNeighbours(reading)),
    }
    if pairs not in makers:
        raise InputError("notions", f"unknown notion {notion!r}")
    return makers[pairs]


@dataclass(frozen=True)
class Request:
    """What an audit is asked, beyond the instance: δ at each ε, ε at one δ, the
    notions, and the reading of Liu et al.'s Definition 4.

    Args:
        eps: the ε values at which δ is reported.
        delta: the δ at which the smallest ε is reported (None: not asked).
        notions: the notions, in the order asked.
        reading: the reading of Liu et al.'s Definition 4 for ``dependent-dp``.
        alpha: the order of ``renyi-dp`` (Mironov 2017, Definition 4).
        max_work: the most steps (about a microsecond each) an engine that can stop part
            way may take: the report cones of randomized response on a chain of three
            states or more, whose ε is then left uncomputed, saying so (None: no limit).
    """

    eps: tuple[Eps, ...] = ()
    delta: Fraction | None = None
    notions: tuple[str, ...] = ()
    reading: DDPReading = DDPReading.NEIGHBOURS
    alpha: Fraction = Fraction(2)
    max_work: int | None = None


def curve_points(
    loss: PrivacyLoss,
    eps: Sequence[Any],
    delta: Any | None,
    shown: Callable[[Any], Any] = lambda v: v,
) -> tuple[tuple[tuple[Any, Any, Any], ...], tuple[Any, Any, Any] | None]:
    """The audit's two views of one privacy-loss curve: δ at every asked ε, ε at δ.

    Args:
        loss: the notion's privacy loss (its worst case over the notion's pairs).
        eps: the ε values asked for (``--eps``).
        delta: the δ asked for (``--delta``), or None.
        shown: how a δ value is reported (e.g. its sympy form); the identity by default.

    Returns:
        ``((ε, δ(ε), where), ...)`` and ``(δ, ε(δ), where)`` (None without ``delta``).

    References:
        Desfontaines et al. (2020), Section 3.1, Definition 11 and Lemma 1 (δ(ε) as the
        hockey stick of the privacy loss; ε(δ) its inverse).
    """
    at_eps = []
    for e in eps:
        pt = loss.delta(e)
        at_eps.append((e, shown(pt.value), pt.where))
    at_delta = None
    if delta is not None:
        pt = loss.epsilon(delta)
        at_delta = (delta, pt.value, pt.where)
    return tuple(at_eps), at_delta

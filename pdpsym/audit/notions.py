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
  (:class:`~pdpsym.papers.lmm2016.mechanism.DDPReading`): dependent neighbouring pairs,
  or the conditional outputs of Eq. 11-12.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

from pdpsym.core.errors import InputError
from pdpsym.loss.base import PrivacyLoss, Weighted
from pdpsym.loss.curve import Case
from pdpsym.mechanisms.discrete import count
from pdpsym.mechanisms.finite import Mechanism, output_pmf
from pdpsym.models.joint import JointDistribution
from pdpsym.models.scenario import PMF, Database, Scenario
from pdpsym.papers.lmm2016.dependence import DependenceReading, dependence_sets
from pdpsym.papers.lmm2016.mechanism import DDPReading, databases, neighbour_pairs

ONE = Fraction(1)


def _pmf(mech: Mechanism, d: Database) -> PMF:
    return {o: Fraction(p) for o, p in mech(d).items() if p}


def _replace(d: Database, i: int, b: Any) -> Database:
    return tuple(b if j == i else x for j, x in enumerate(d))


def dp_cases(model: JointDistribution, mech: Mechanism, i: int) -> Iterator[Case]:
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
    for a, b, bhat in _apk_pairs(sc, i):
        pa, pb = output_pmf(sc, mech, i, a, bhat), output_pmf(sc, mech, i, b, bhat)
        yield Case({"a": a, "b": b, "known": bhat}, ((ONE, pa, pb),))


def ppkdp_cases(sc: Scenario, mech: Mechanism, i: int) -> Iterator[Case]:
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


def cdp_cases(sc: Scenario, mech: Mechanism, i: int, domain: Sequence[Any]) -> Iterator[Case]:
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


def ibcdp_cases(sc: Scenario, mech: Mechanism, i: int, domain: Sequence[Any]) -> Iterator[Case]:
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
    reading: DDPReading,
    dependence: DependenceReading = DependenceReading.JOINT,
) -> Iterator[Case]:
    name = model.variables[i]
    if reading is DDPReading.CONDITIONAL:
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
    sets = dependence_sets(model, dependence)
    inside = reading is DDPReading.NEIGHBOURS_IN_SUPPORT
    for _, d, e in neighbour_pairs(model, {name: sets[name]}, inside):
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

    Returns:
        ``(where, loss)`` pairs; ``ibcdp`` is not of this form (see
        :mod:`pdpsym.loss.posterior`).
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


NOTIONS: tuple[str, ...] = (
    "dp",
    "apkdp",
    "ppkdp",
    "np",
    "cdp",
    "ibcdp",
    "dependent-dp",
)


def cases_of(
    notion: str,
    model: JointDistribution,
    mech: Mechanism,
    target: str,
    known: Sequence[str],
    reading: DDPReading = DDPReading.NEIGHBOURS,
) -> Callable[[], Iterator[Case]]:
    """A fresh iterator factory over the cases of ``notion`` (cases are re-walked per ε)."""
    i = model.index(target)
    sc = Scenario.from_model(model, known)
    dom = list(model.domains[i])
    makers: dict[str, Callable[[], Iterator[Case]]] = {
        "dp": lambda: dp_cases(model, mech, i),
        "apkdp": lambda: apkdp_cases(sc, mech, i),
        "np": lambda: apkdp_cases(sc, mech, i),
        "ppkdp": lambda: ppkdp_cases(sc, mech, i),
        "cdp": lambda: cdp_cases(sc, mech, i, dom),
        "ibcdp": lambda: ibcdp_cases(sc, mech, i, dom),
        "dependent-dp": lambda: dependent_dp_cases(model, mech, i, reading),
    }
    if notion not in makers:
        raise InputError("notions", f"unknown notion {notion!r}")
    return makers[notion]

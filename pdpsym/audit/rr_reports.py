"""Randomized response on structured models: every record's report is released.

Randomized response (:class:`~pdpsym.mechanisms.discrete.RandomizedResponse`) reports
``o_j`` for every record ``j``, kept with probability ``keep`` and otherwise replaced by
a uniformly drawn other value of the record's domain:
``R_j(o | x) = keep`` if ``o = x`` else ``(1 - keep) / (|X_j| - 1)``. The output law given
any condition on the records is ``sum_x P(x | condition) prod_j R_j(o_j | x_j)``.

**Independent records** (:class:`~pdpsym.models.product.ProductModel`). Given
``x_i = a`` and ``x_K = v`` the other records keep their own laws, so
``P(o | a, v) = R_i(o_i | a) * C(o_{-i})`` with ``C`` the same for ``a`` and ``b``. The
privacy loss is ``ln R_i(o_i | a) / R_i(o_i | b)``, and since ``C`` sums to 1,
``sum_o (P_a(o) - e^eps P_b(o))_+`` equals the local pair's: every notion is the local
randomized response on the target, exactly (known records change nothing).

**Markov chains.** Let ``l < i < r`` be the nearest known records around the target
(``l = 0`` / ``r = T + 1`` when there is none). Given ``x_i``, ``x_l`` and ``x_r`` the
reports before ``i``, at ``i`` and after ``i`` inside ``(l, r)`` are independent of each
other and of every other report, whose factor is the same for ``a`` and ``b`` (the Markov
property). So, with ``alpha(s) = P(o_{l+1..i-1}, x_i = s | x_l)`` (forward) and
``beta(s) = P(o_{i+1..r-1}, x_r | x_i = s)`` (backward),::

    L(o) = ln R(o_i|a)/R(o_i|b)
         + ln alpha(a)/alpha(b) - ln P(x_i=a | x_l)/P(x_i=b | x_l)
         + ln beta(a)/beta(b)   - ln P(x_r | x_i=a)/P(x_r | x_i=b)

and the three terms depend on disjoint reports, each combination possible (``keep < 1``
makes every report possible). Hence ``eps = max L`` is the sum of the three maxima.

*Exact maxima for two states*: a dynamic programme on the ratios of the forward and
backward messages (:class:`~pdpsym.audit.rr_report_laws.ReportChain`).

*δ(ε)* needs the whole law of the reports inside ``(l, r)``: ``k^(r - l - 1)`` outcomes.
It is computed exactly (PMF pairs, :class:`~pdpsym.loss.pmf_pair.PMFPair`) when that
count is at most :data:`MAX_OUTCOMES`; otherwise ε is exact (two states: the programme
above; more states: the extreme rays of the cones of forward and backward messages,
:mod:`pdpsym.audit.rr_report_cones`); δ(ε) and ε(δ) are enclosed between two windows
of reports (:mod:`pdpsym.audit.rr_report_windows`), which the note says.

**Notions.** ``apkdp``/``np``: the pairs above for every known value compatible with
``a`` and ``b`` (only ``x_l`` and ``x_r`` matter); ``ppkdp``: the same weighted by
``P(x_K = v | x_i = a)`` (a value impossible under ``b`` counts in full); ``dp`` and
``cdp``: changing ``x_i`` alone changes only ``o_i``, so the local pair (for every model);
``dependent-dp`` (``def4-neighbours``): neighbours differ at ``x_i`` and anywhere in its
dependence group; the worst pair differs at every record of the group (marginalising a
coordinate is post-processing), a product of ``n`` local pairs, whose law of
``(#reports equal to x, #equal to x')`` is multinomial (exact for ``n <=``
:data:`MAX_GROUP`); ``dependent-dp`` (``eq11-conditional``): the chain pair with no known
record. Bayesian networks: the target's component, listed as a table
(:mod:`pdpsym.audit.rr_network`).

References:
    Desfontaines et al., Definitions 3, 5, 12, 13 and Lemma 1; Liu et al. (2016),
    Definition 4 and Eq. 11; Warner (1965), randomized response; Rabiner (1989), the
    forward-backward recursions of a hidden Markov model.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from itertools import permutations
from typing import Any

import sympy

from pdpsym.audit import registry
from pdpsym.audit.notions import Request
from pdpsym.audit.registry import Compare, Pairs
from pdpsym.audit.results import NotionResult
from pdpsym.audit.rr_pairs import group_pair, other_prob
from pdpsym.audit.rr_report_cones import ConeBudget, OverBudget, TooManyRays, chain_max_ratio
from pdpsym.audit.rr_report_laws import ReportChain
from pdpsym.audit.rr_report_windows import enclose_curve
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.loss import PrivacyLoss, worst_case
from pdpsym.loss.pmf_pair import PMFPair
from pdpsym.mechanisms.base import ReportMechanism
from pdpsym.models.bayesnet import BayesianNetwork
from pdpsym.models.markov import MarkovChain
from pdpsym.models.model_objects import chain_of, is_structured, network_of
from pdpsym.models.neighbours import DDPReading
from pdpsym.models.product import ProductModel
from pdpsym.models.scenario import PMF

#: the largest number of report outcomes listed for δ(ε) (a segment of a chain)
MAX_OUTCOMES = 4096

#: the largest dependence group whose multinomial law is listed for δ(ε)
MAX_GROUP = 200


def _local(keep: Fraction, dom: Sequence[Fraction], x: Fraction) -> PMF:
    other = other_prob(keep, len(dom))
    return {o: (keep if o == x else other) for o in dom if (keep if o == x else other)}


def check_rr(model: Any, mech: ReportMechanism) -> str | None:
    """Why randomized response cannot be audited on ``model``, or None when it can.

    Args:
        model: a structured model.
        mech: the randomized response (its domains must be the model's).

    Returns:
        None, or a one-line reason.

    References:
        Warner (1965); Desfontaines et al., Definition 12 (the audited pairs).
    """
    if not is_structured(model):
        return (
            "randomized response is audited on Markov chains, independent records and "
            "Bayesian networks"
        )
    doms = tuple(tuple(model.domain(v)) for v in model.variables)
    if len(mech.domains) != len(doms) or any(
        tuple(Fraction(x) for x in d) != e for d, e in zip(mech.domains, doms, strict=True)
    ):
        return "the randomized response's domains are not the model's record domains"
    return None


def _pair_key(c: ReportChain, v: Mapping[str, Fraction], names: Sequence[str]) -> tuple[Any, Any]:
    idx = {x: j for j, x in enumerate(c.states)}
    vl = None if c.l is None else idx[v[names[c.l]]]
    vr = None if c.r is None else idx[v[names[c.r]]]
    return vl, vr


def audit_rr(
    model: MarkovChain | ProductModel | BayesianNetwork,
    mech: ReportMechanism,
    target: str,
    known: Sequence[str],
    req: Request,
    known_given: Callable[[Fraction], dict[tuple[Fraction, ...], Fraction] | None],
    group: tuple[str, ...],
) -> list[Any]:
    """Every notion's ε, δ(ε) and ε(δ) for randomized response on a chain or independent
    records (see the module docstring).

    Args:
        model: the chain or the independent records.
        mech: randomized response on the model's domains.
        target: the target record.
        known: the known records.
        req: the ε values, δ, notions and reading of Liu et al.'s Definition 4 asked
            for.
        known_given: ``P(x_K = v | x_i = a)`` by known values (None: ``a`` impossible).
        group: the target's dependence group.

    Returns:
        One :class:`~pdpsym.audit.NotionResult` per notion.

    References:
        Desfontaines et al., Definitions 3, 5, 12, 13, Lemma 1 and Theorem 1; Liu et al.
        (2016), Definition 4 and Eq. 11; Warner (1965).
    """
    eps, delta, notions, reading = req.eps, req.delta, req.notions, req.reading
    # the cones of a long chain of three states or more stop at the request's work limit
    cones = None if req.max_work is None else ConeBudget(req.max_work)
    reason = check_rr(model, mech)
    if reason is not None:
        raise InputError("mechanism", reason)
    network = network_of(model)
    if network is not None:
        # a network's passes load only when a network is audited
        from pdpsym.audit.rr_network import audit_rr_network

        return audit_rr_network(network, mech, target, known, req)
    as_chain = chain_of(model)
    keep = mech.symmetric_keep()
    assert keep is not None  # the engines of symmetric reports (the caller checks)
    names = tuple(model.variables)
    dom = tuple(model.domain(target))
    support = [a for a in dom if known_given(a) is not None]
    chain = ReportChain(as_chain, keep, target, known) if as_chain is not None else None
    small = chain is None or chain.outcomes <= MAX_OUTCOMES
    idx = {x: j for j, x in enumerate(dom)}

    def local_pair(a: Fraction, b: Fraction, where: dict[str, Any]) -> PrivacyLoss:
        return PMFPair(_local(keep, dom, a), _local(keep, dom, b), where)

    pmfs: dict[tuple[Any, ...], PMF] = {}

    def seg_pmf(a: Fraction, key: tuple[Any, Any]) -> PMF:
        if chain is None:
            return _local(keep, dom, a)
        if (a, key) not in pmfs:
            pmfs[(a, key)] = chain.pmf(idx[a], *key)
        return pmfs[(a, key)]

    def key_of(v: tuple[Fraction, ...], known_names: Sequence[str]) -> tuple[Any, Any]:
        if chain is None:
            return (None, None)
        return _pair_key(chain, dict(zip(known_names, v, strict=True)), names)

    def apk_cases(knw: Sequence[str]) -> list[tuple[dict[str, Any], tuple[Any, ...]]]:
        """(where, (a, b, key)) for every compatible case, one per distinct key."""
        out: list[tuple[dict[str, Any], tuple[Any, ...]]] = []
        seen: set[tuple[Any, ...]] = set()
        for a, b in itertools.permutations(support, 2):
            ka, kb = known_given(a) or {}, known_given(b) or {}
            for v in ka:
                if v in kb:
                    key = (a, b, key_of(v, knw))
                    if key not in seen:
                        seen.add(key)
                        where = {"a": a, "b": b, "known": v}
                        if chain is not None:
                            where["reports"] = chain.reported
                        out.append((where, key))
        return out

    results = []
    for n in notions:
        kind = registry.notion(n)
        conditional = kind.pairs is Pairs.DEPENDENT and reading is DDPReading.CONDITIONAL
        label: str | None = None
        note = "exact, from the reports' laws around the target (no database is listed)"
        if kind.compare is not Compare.HOCKEY_STICK:
            results.append(
                NotionResult(
                    n,
                    None,
                    None,
                    note="not computed for structured models: the notion compares posteriors "
                    "of the target over the joint law of the records and the output",
                )
            )
            continue
        cases: list[tuple[dict[str, Any], PrivacyLoss]] | None = None
        eps_only: tuple[Any, dict[str, Any]] | None = None
        window: tuple[Any, list[tuple[Any, ...]]] | None = None  # δ enclosed (long chains)
        if kind.pairs in (Pairs.NEIGHBOURS, Pairs.CHANGED):
            # cdp (Definition 5): a known value v compatible with a, and b either outside
            # the support or compatible with v (the cases of the sum mechanisms' cdp)
            pairs = (
                itertools.permutations(dom, 2)
                if kind.pairs is Pairs.NEIGHBOURS
                else dict.fromkeys(
                    (a, b)
                    for a in support
                    for v in known_given(a) or {}
                    for b in dom
                    if b != a and not (b in support and v not in (known_given(b) or {}))
                )
            )
            cases = [({"a": a, "b": b}, local_pair(a, b, {"a": a, "b": b})) for a, b in pairs]
            label = "changing the target alone changes only its own report"
        elif kind.pairs is Pairs.GIVEN_KNOWN or conditional:
            knw = () if conditional else tuple(known)
            label = kind.label(reading)
            if conditional:
                local_chain = (
                    ReportChain(as_chain, keep, target, ()) if as_chain is not None else None
                )
            else:
                local_chain = chain
            if conditional:
                laws = {a: model.query_law(target, a, {}, {v: 0 for v in names}) for a in dom}
                sup = [a for a in dom if laws[a] is not None]
                if local_chain is None or local_chain.outcomes <= MAX_OUTCOMES:
                    cases = []
                    for a, b in itertools.permutations(sup, 2):
                        where: dict[str, Any] = {"a": a, "b": b}
                        if local_chain is not None:
                            where["reports"] = local_chain.reported
                        if local_chain is None:
                            cases.append((where, local_pair(a, b, where)))
                        else:
                            pa = local_chain.pmf(idx[a], None, None)
                            pb = local_chain.pmf(idx[b], None, None)
                            cases.append((where, PMFPair(pa, pb, where)))
                else:
                    found = [
                        ({"a": a, "b": b}, (a, b, (None, None))) for a, b in permutations(sup, 2)
                    ]
                    eps_only = _chain_eps(local_chain, [(c, w) for w, c in found], idx, cones)
                    window = (local_chain, [(w, *c) for w, c in found])
            else:
                found = apk_cases(knw)
                if small:
                    cases = [
                        (where, PMFPair(seg_pmf(a, key), seg_pmf(b, key), where))
                        for where, (a, b, key) in found
                    ]
                else:
                    assert chain is not None
                    eps_only = _chain_eps(chain, [(c, w) for w, c in found], idx, cones)
                    window = (chain, [(w, *c) for w, c in found])
        elif kind.pairs is Pairs.WEIGHTED_KNOWN:
            label = kind.label(reading)
            cases = []
            inf_where: dict[str, Any] | None = None
            window = (chain, [])
            for a, b in itertools.permutations(support, 2):
                ka, kb = known_given(a) or {}, known_given(b) or {}
                merged: dict[tuple[Any, bool], Fraction] = {}
                for v, w in ka.items():
                    mk = (key_of(v, known), v in kb)
                    merged[mk] = merged.get(mk, Fraction(0)) + w
                    if v not in kb and inf_where is None:
                        inf_where = {"a": a, "b": b, "known": v}
                pwhere: dict[str, Any] = {"a": a, "b": b}
                if chain is not None:
                    pwhere["reports"] = chain.reported
                window[1].append((pwhere, a, b, [(w, k, ok) for (k, ok), w in merged.items()]))
                if small:
                    terms = [
                        (w, seg_pmf(a, k), seg_pmf(b, k) if ok else {})
                        for (k, ok), w in merged.items()
                    ]
                    cases.append((pwhere, PMFPair.weighted(terms, pwhere)))
            if not small:
                assert chain is not None
                if inf_where is not None:
                    eps_only = (sympy.oo, inf_where)
                else:
                    found = apk_cases(tuple(known))
                    eps_only = _chain_eps(chain, [(c, w) for w, c in found], idx, cones)
                cases = None
        elif kind.pairs is Pairs.DEPENDENT:
            label = kind.label(reading)
            note = (
                "dependent neighbours differ at the target and may differ anywhere in its "
                "dependence group; the worst pair differs at every record of the group "
                "(a product of local pairs)"
            )
            size = len(group)
            gwhere: dict[str, Any] = {
                "group": list(group),
                "outputs": "(reports equal to x_j, reports equal to x'_j) over the group",
            }
            pair = group_pair(keep, [len(dom)] * size) if size <= MAX_GROUP else None
            if pair is not None:
                cases = [(gwhere, PMFPair(*pair, gwhere))]
            else:
                other = other_prob(keep, len(dom))
                r = max(keep / other, other / keep) if other else None
                eps_only = (sympy.oo if r is None else size * sympy.log(_q(r)), gwhere)
        else:
            raise InputError("notions", f"unknown notion {n!r}")
        if cases is not None:
            results.append(_from_cases(n, cases, eps, delta, label, note))
        else:
            assert eps_only is not None
            value, wit = eps_only
            why = (
                f"the reports around the target have more than {MAX_OUTCOMES} outcomes"
                if kind.pairs is not Pairs.DEPENDENT or conditional
                else f"the dependence group has more than {MAX_GROUP} records"
            )
            if value is None and "steps" in wit:
                head = (
                    "ε not computed either: the exact programme of the report cones passed "
                    f"the work limit after {wit['steps']} steps of a side ({wit['rays']} "
                    "extreme rays)"
                )
            elif value is None:
                head = (
                    f"ε not computed either: a cone of report laws has {wit['rays']} extreme "
                    "rays, over the limit of the exact programme"
                )
            elif kind.pairs is Pairs.DEPENDENT and not conditional:
                head = "ε exact (the group's size times the local pair's largest loss)"
            elif chain is not None and chain.k > 2:
                head = "ε exact (extreme rays of the forward and backward report cones)"
            else:
                head = "ε exact (extremes of the forward and backward report ratios)"
            at_eps: tuple[Any, ...] = tuple((e, None, None) for e in eps)
            at_delta = None if delta is None else (delta, None, None)
            tail = f"δ(ε) and ε(δ) not computed: {why}"
            if window is not None:  # δ enclosed even when ε is not computed
                wpairs = [
                    (w, idx[a], idx[b], t if isinstance(t, list) else [(1, t, True)])
                    for w, a, b, t in window[1]
                ]
                at_eps, at_delta, tail = enclose_curve(window[0], wpairs, eps, delta)
            shown = None if value is None else wit
            results.append(
                NotionResult(n, value, shown, at_eps, at_delta, label, f"{head}; {tail}")
            )
    return results


def _q(x: Fraction) -> sympy.Rational:
    return sympy.Rational(x.numerator, x.denominator)


def _chain_eps(
    chain: ReportChain | None,
    found: Sequence[tuple[tuple[Any, ...], dict[str, Any]]],
    idx: Mapping[Fraction, int],
    cones: ConeBudget | None = None,
) -> tuple[Any, dict[str, Any]]:
    """The exact ε (max over the cases) of a long chain segment: the extremes' programme
    for two states, the cones' extreme rays (:mod:`pdpsym.audit.rr_report_cones`) for
    more; ``(None, {"rays": n})`` when a cone has more than its limit of rays, and
    ``(None, {"rays": n, "steps": j})`` when the cones pass ``cones``, their work limit,
    after ``j`` steps of a side."""
    if chain is None:
        return None, {}
    best: Fraction | None = Fraction(1)
    wit: dict[str, Any] = {}
    memo: dict[tuple[str, int | None], Any] = {}
    for (a, b, key), where in found:
        try:
            r = (
                chain.max_ratio(idx[a], idx[b], *key)
                if chain.k == 2
                else chain_max_ratio(chain, idx[a], idx[b], key[0], key[1], memo, cones)
            )
        except TooManyRays as err:
            return None, {"rays": err.args[0]}
        except OverBudget as err:
            return None, {"rays": err.args[1], "steps": err.args[0]}
        if r is None:
            return sympy.oo, where
        if best is not None and (r > best or not wit):
            best, wit = r, where
    # no compatible case: 0, as the maximum over no case is everywhere else
    assert best is not None
    return sympy.log(_q(best)), wit


def _from_cases(
    notion: str,
    cases: list[tuple[dict[str, Any], PrivacyLoss]],
    eps: Sequence[Eps],
    delta: Fraction | None,
    label: str | None,
    note: str,
) -> Any:

    return NotionResult.of_loss(notion, worst_case(cases), eps, delta, label, note, _sympy_form)


__all__ = ["MAX_GROUP", "MAX_OUTCOMES", "ReportChain", "audit_rr", "check_rr"]


def _sympy_form(value: Any) -> Any:
    return value.sympy() if hasattr(value, "sympy") else value

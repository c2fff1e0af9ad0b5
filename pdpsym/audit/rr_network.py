"""Randomized response on a Bayesian network: the target's component, audited as a table.

Every record ``j`` is reported through randomized response,
``R_j(o | x) = keep`` if ``o = x`` else ``(1 - keep) / (|X_j| - 1)``, and the output is
the whole report vector. Let ``C`` be the connected component of the target ``i`` in the
network's skeleton (:meth:`~pdpsym.models.bayesnet.BayesianNetwork.dependence_groups`)
and ``O`` the other records.

**The reduction.** A component is closed under parents (a parent and its child share an
edge of the skeleton), so the chain rule splits:
``θ(x) = Π_{v ∈ C} P(x_v | x_pa(v)) · Π_{v ∈ O} P(x_v | x_pa(v)) = θ_C(x_C) θ_O(x_O)``,
each factor a Bayesian network on its own records (the ancestral sub-network,
:meth:`~pdpsym.models.bayesnet.BayesianNetwork.ancestral`, of ``C`` is ``C`` itself) whose
law is the marginal of ``θ``: ``x_C`` and ``x_O`` are independent. The mechanism is a
product over records, so ``(x_C, o_C)`` and ``(x_O, o_O)`` are independent too, and given
any condition ``x_i = a, x_K = v`` with ``v = (v_C, v_O)`` (``K_C = K ∩ C``,
``K_O = K ∩ O``)::

    P(o | a, v) = P_C(o_C | a, v_C) · P_O(o_O | v_O),    P(a, v) = P_C(a, v_C) P_O(v_O).

The second factor is the same for every target value. For each notion:

* ``apkdp`` / ``np`` (Definitions 12, 3): ``v`` is compatible with ``a`` and ``b`` iff
  ``v_C`` is and ``P_O(v_O) > 0``. A pair ``(P_C^a ⊗ Q, P_C^b ⊗ Q)`` with a common factor
  ``Q`` (a probability law) has the likelihood ratios of ``(P_C^a, P_C^b)`` and the same
  hockey-stick divergence ``Σ_o (P^a(o) - e^ε P^b(o))_+ = Σ_{o_C} (P_C^a - e^ε P_C^b)_+
  Σ_{o_O} Q(o_O)``. Every case of the full network is a case of ``C`` (each ``v_C`` with
  at least one ``v_O``), so the maxima are ``C``'s.
* ``ppkdp`` (Definition 13): the weights ``P(v | a) = P_C(v_C | a) P_O(v_O)`` factor;
  the privacy-loss random variable ``ln P(o | a, v) / P(o | b, v)`` depends on
  ``(v_C, o_C)`` only, whose law under ``a`` is ``P_C(v_C | a) P_C(o_C | a, v_C)``
  (``v_O`` and ``o_O`` marginalize out), and ``v`` is impossible under ``b`` iff ``v_C``
  is: the same PLRV law, so the same ε and δ(ε).
* ``cdp`` (Definition 5): ``D ~ θ | a, v`` against ``D_{i→b}``: changing ``x_i`` changes
  ``C``'s factor only, the ``O`` factor ``P_O(o_O | v_O)`` is common (as above); the
  ``b`` allowed are those of ``C`` (compatibility of ``v`` with ``b`` is ``v_C``'s).
* ``dp`` (classic, over the product of every domain): ``M(D)`` and ``M(D_{i→b})`` differ
  only in the target's factor ``R_i``, every other factor common: the local pair
  ``(R_i(· | a), R_i(· | b))``, for every ``D``.
* ``dependent-dp`` (``def4-neighbours``): neighbours differ at ``x_i`` and anywhere in
  its dependence group ``C``; records outside ``C`` agree, so their reports are a common
  factor. The worst pair differs at every record of ``C`` (a pair differing on fewer is
  a marginal of one differing on all, and marginalizing is post-processing; every
  ``x ≠ x'`` of one record gives the same local pair up to relabelling the outputs): a
  product of local pairs, listed by the counts ``(#o_j = x_j, #o_j = x'_j)`` within each
  class of equal domain size (the likelihood ratio is constant on each such outcome, so
  δ(ε) is unchanged), or ε alone (the sum of the local maxima) when that list is long.
  ``eq11-conditional``: the laws given ``x_i = a`` and ``x_i = b`` (APKDP with nothing
  known), reduced to ``C`` as above.
* ``ibcdp`` (Definition 6): the posterior of ``x_i`` given ``(o, v)`` under ``D`` and
  under ``D_{i→b}`` is, in both, proportional in ``a`` to ``C``'s term times a factor
  ``P_O(v_O) P_O(o_O | v_O)`` free of ``a``: the normalization removes it, so every
  posterior comparison is ``C``'s.
* ``distributional-dp`` (Definition 4): a simulator ``S_C(v_C) ⊗ P_O(· | v_O)`` for the
  full network has ``C``'s divergences (common factor), and marginalizing any simulator
  of the full network onto ``o_C`` gives one for ``C`` with divergences no larger
  (post-processing): the best simulators have the same figures.

So the figures are those of the table audit (:func:`pdpsym.audit.audit`, randomized
response screened as in :mod:`pdpsym.audit.screen`) of ``θ_C`` listed by the chain rule
(:meth:`~pdpsym.models.bayesnet.BayesianNetwork.to_joint`) with the known records of
``C``. That table has ``Π_{v ∈ C} |X_v|`` rows and as many outputs; more than
:data:`MAX_ROWS` rows is refused before anything is listed (field ``model``), and the
command line refuses earlier by its work estimate. ``dp`` and ``dependent-dp``
(``def4-neighbours``) need no table.

References:
    Desfontaines et al., Definitions 3-6, 12, 13 and Lemma 1; Liu et al. (2016),
    Definition 4 and Eq. 11; Warner (1965); Koller and Friedman (2009), Section 3.2
    (the chain rule and independence of disconnected parts of a Bayesian network).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.audit import registry
from pdpsym.audit.notions import Request
from pdpsym.audit.registry import Notion, Pairs, first_with
from pdpsym.audit.results import NotionResult
from pdpsym.audit.rr_pairs import MAX_GROUP_OUTCOMES, group_pair, other_prob
from pdpsym.audit.table_audit import audit_table
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.loss.pmf_pair import PMFPair
from pdpsym.mechanisms.base import ReportMechanism
from pdpsym.mechanisms.discrete import randomized_response
from pdpsym.models.bayesnet import DEFAULT_MAX_JOINT_ROWS, BayesianNetwork
from pdpsym.models.joint import JointDistribution
from pdpsym.models.neighbours import DDPReading

#: the most rows of the target's component listed as a table
MAX_ROWS = DEFAULT_MAX_JOINT_ROWS


#: the pairs computed without listing the component (their pair is local)
NO_TABLE = (Pairs.NEIGHBOURS,)


def table_notion(notion: Notion, reading: DDPReading) -> Notion | None:
    """The notion whose audit of the component's table gives ``notion``'s figures, or
    None when ``notion`` needs no table.

    Args:
        notion: the notion asked for.
        reading: the reading of Liu et al.'s Definition 4.

    Returns:
        ``notion`` itself; for dependent DP's Eq. 11 reading the notion of the given-known
        pairs (with nothing known, they are the laws given ``x_i = a`` and ``x_i = b``);
        None for local pairs and dependent DP's neighbours (a product of local pairs).

    References:
        Liu et al. (2016), Definition 4 and Eq. 11-12; Desfontaines et al.,
        Definition 12.
    """
    if notion.pairs in NO_TABLE:
        return None
    if notion.pairs is Pairs.DEPENDENT:
        if reading is not DDPReading.CONDITIONAL:
            return None
        return first_with(Pairs.GIVEN_KNOWN)
    return notion


def component(model: BayesianNetwork, target: str) -> tuple[str, ...]:
    """The records of the target's connected component, in declaration order.

    Args:
        model: the network.
        target: the target record.

    Returns:
        The component (closed under parents, so a network of its own).

    References:
        Koller and Friedman (2009), Section 3.2 (the chain rule of a Bayesian network).
    """
    model.index(target, "target")
    for g in model.dependence_groups():
        if target in g:
            return tuple(g)
    raise AssertionError("every record lies in a component")  # pragma: no cover


def component_rows(model: BayesianNetwork, target: str) -> int:
    """The rows of the target's component listed as a table (product of its domains).

    Args:
        model: the network.
        target: the target record.

    Returns:
        ``Π_{v ∈ C} |X_v|``.

    References:
        Koller and Friedman (2009), Section 3.2.
    """
    return math.prod(len(model.domain(v)) for v in component(model, target))


def _local_table(model: BayesianNetwork, target: str) -> JointDistribution:
    """One record, the target, uniform on its domain (classic DP ignores the law)."""
    dom = model.domain(target)
    return JointDistribution.from_rows(
        [target], [[x, Fraction(1, len(dom))] for x in dom], {target: list(dom)}
    )


def audit_rr_network(
    model: BayesianNetwork,
    mech: ReportMechanism,
    target: str,
    known: Sequence[str],
    req: Request,
) -> list[Any]:
    """Every notion's ε, δ(ε) and ε(δ) for randomized response on a Bayesian network,
    from the target's component listed as a table (see the module docstring).

    Args:
        model: the network.
        mech: randomized response on the network's domains.
        target: the target record.
        known: the known records (those outside the target's component change nothing).
        req: the ε values, δ, notions and reading of Liu et al.'s Definition 4 asked
            for.

    Returns:
        One :class:`~pdpsym.audit.NotionResult` per notion.

    Raises:
        InputError: ``model`` when a notion needs the component's table and it has
            more than :data:`MAX_ROWS` rows (a fixed limit).

    References:
        Desfontaines et al., Definitions 3-6, 12, 13 and Lemma 1; Liu et al. (2016),
        Definition 4 and Eq. 11; Warner (1965).
    """
    eps, delta, notions, reading = req.eps, req.delta, req.notions, req.reading
    comp = component(model, target)
    inside = tuple(k for k in known if k in comp)
    keep = mech.symmetric_keep()
    assert keep is not None  # the engines of symmetric reports (the caller checks)
    rows = component_rows(model, target)
    table_notions = [n for n in notions if table_notion(registry.notion(n), reading) is not None]
    if table_notions and rows > MAX_ROWS:
        raise InputError(
            "model",
            f"randomized response on a network lists the target's component ({len(comp)} "
            f"records, {rows} joint rows and as many outputs), over the {MAX_ROWS} rows this "
            "audit lists in memory (a fixed limit: --max-work does not raise it); dp and "
            "dependent-dp need no table",
        )
    sub = model.ancestral(comp)
    assert sub.variables == comp  # a component is closed under parents
    joint: JointDistribution | None = sub.to_joint(MAX_ROWS) if table_notions else None
    rr_c = randomized_response(keep, [model.domain(v) for v in comp])
    base = (
        f"from the target's component ({len(comp)} of {len(model.variables)} records) "
        "listed as a table: the other records and their reports are independent of it and "
        "factor out (the witness lists the component's records and reports)"
    )
    out = []
    for n in notions:
        kind = registry.notion(n)
        table = table_notion(kind, reading)
        if kind.pairs in NO_TABLE:
            local = randomized_response(keep, [model.domain(target)])
            plain = replace(req, notions=(n,), reading=DDPReading.NEIGHBOURS)
            r = audit_table(_local_table(model, target), local, target, (), plain)[n]
            out.append(
                replace(
                    _witnesses(r, _only_pair),
                    reading="changing the target alone changes only its own report",
                    note="exact, the local randomized response on the target",
                )
            )
            continue
        if table is None:  # dependent DP's neighbours: a product of local pairs
            out.append(_group_result(n, model, comp, keep, eps, delta, reading))
            continue
        assert joint is not None
        if table is not kind:  # dependent DP's Eq. 11 reading: given-known, nothing known
            given = replace(req, notions=(table.name,), reading=DDPReading.NEIGHBOURS)
            r = audit_table(joint, rr_c, target, (), given)[table.name]
            r = replace(_witnesses(r, _no_known), notion=n, reading=kind.label(reading))
        else:
            r = audit_table(joint, rr_c, target, inside, replace(req, notions=(n,)))[n]
        note = f"exact, {base}" if r.note is None else f"{base}; {r.note}"
        out.append(replace(r, note=note))
    return out


def _witnesses(r: Any, f: Any) -> Any:
    """``r`` with every witness passed through ``f``."""
    at = r.epsilon_at_delta
    return replace(
        r,
        witness=f(r.witness),
        delta_at_epsilon=tuple((e, d, f(w)) for e, d, w in r.delta_at_epsilon),
        epsilon_at_delta=None if at is None else (at[0], at[1], f(at[2])),
    )


def _only_pair(w: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return None if w is None else {k: w[k] for k in ("a", "b") if k in w}


def _no_known(w: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return None if w is None else {k: v for k, v in w.items() if k != "known"}


def _group_result(
    notion: str,
    model: BayesianNetwork,
    comp: Sequence[str],
    keep: Fraction,
    eps: Sequence[Eps],
    delta: Fraction | None,
    reading: DDPReading,
) -> Any:
    """Dependent DP over the component: the product of local pairs (module docstring)."""
    sizes = [len(model.domain(v)) for v in comp]
    gwhere: dict[str, Any] = {
        "group": list(comp),
        "outputs": "(domain size, reports equal to x_j, reports equal to x'_j) over the group",
    }
    note = (
        "dependent neighbours differ at the target and may differ anywhere in its "
        "dependence group (the target's component); the worst pair differs at every record "
        "of the group (a product of local pairs)"
    )
    pair = group_pair(keep, sizes)
    if pair is not None:
        loss = PMFPair(pair[0], pair[1], gwhere)
        return NotionResult.of_loss(notion, loss, eps, delta, reading.value, note, _sympy_form)
    value: Any = sympy.Integer(0)
    for k in sizes:
        other = other_prob(keep, k)
        if not other:
            value = sympy.oo
            break
        r = max(keep / other, other / keep)
        value += sympy.log(sympy.Rational(r.numerator, r.denominator))
    return NotionResult(
        notion,
        value,
        gwhere,
        tuple((e, None, None) for e in eps),
        None if delta is None else (delta, None, None),
        reading.value,
        f"{note}; ε exact (the sum of the local pairs' largest losses); δ(ε) and ε(δ) not "
        f"computed: the pair has more than {MAX_GROUP_OUTCOMES} outcomes",
    )


def _sympy_form(value: Any) -> Any:
    return value.sympy() if hasattr(value, "sympy") else value


__all__ = [
    "NO_TABLE",
    "table_notion",
    "MAX_ROWS",
    "audit_rr_network",
    "component",
    "component_rows",
    "group_pair",
]

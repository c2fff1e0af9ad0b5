"""NP, DDP, CDP and IBCDP on finite scenarios (Desfontaines et al. Sec. 2, δ = 0).

* Definition 3 (NP): ``M(D)|θ,B̂,D(i)=a ≈_ε M(D)|θ,B̂,D(i)=b`` for B̂ compatible with a and b.
* Definition 4 (DDP): there is a simulator with ``M(D)|θ,B̂,D(i)=a ≈_ε Sim(D_{-i})|θ,B̂,D(i)=a``.
* Definition 5 (CDP): ``M(D)|θ,B̂,D(i)=a ≈_ε M(D_{i→b})|θ,B̂,D(i)=a`` for all b ∈ T.
* Definition 6 (IBCDP): ``D(i)|θ,B̂,M(D)=t ≈_ε D(i)|θ,B̂,M(D_{i→b})=t`` for all b, t, B̂
  compatible with both events.
* Definitions 7-8 (normalization): ``D = θ̂(φ_0, ..., φ_k)`` with independent φ's, θ̂
  injective, ``D(i) = f(φ_0)``, ``B = g(φ_I)``.

With δ = 0 and finite outputs, ε-indistinguishability reduces to singletons, so the
smallest ε is ``ln`` of the largest probability ratio; it is returned as that ratio
``e^ε`` (a Fraction ≥ 1, or ``None`` for ε = ∞), exactly.

Each ``*_ratio`` function is the maximum, over the targets i and the values B̂ of the
partial knowledge, of the ratios its definition compares at ``(i, B̂)``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

from pdpsym.core.eps import ExpRatio, ratio_max
from pdpsym.mechanisms.finite import Mechanism, output_pmf
from pdpsym.models.scenario import PMF, Database, Scenario

Ratio = ExpRatio  # e^ε; None = ∞
#: the values b that D(i) may be changed to, per record (None: its support)
Domain = Mapping[int, Sequence[Any]] | None
#: the target records (None: every record)
Targets = Iterable[int] | None


def indist_ratio(p: Mapping[Any, Fraction], q: Mapping[Any, Fraction]) -> Ratio:
    """Smallest ``e^ε`` with ``P ≈_ε Q`` (δ = 0): the largest probability ratio either way.

    With δ = 0 and finite outputs, ε-indistinguishability reduces to singletons.

    Args:
        p: the first law, output -> exact probability.
        q: the second law, output -> exact probability.

    Returns:
        ``e^ε`` exactly: a Fraction ≥ 1, or None (ε = ∞) when one law puts mass on an
        output the other does not.

    References:
        Desfontaines et al., Section 1.3, Definition 1 ((ε, δ)-indistinguishability).
    """
    best = Fraction(1)
    for o in set(p) | set(q):
        po, qo = Fraction(p.get(o, 0)), Fraction(q.get(o, 0))
        if po == qo:
            continue
        if po == 0 or qo == 0:
            return None
        best = max(best, po / qo, qo / po)
    return best


def replace(d: Database, i: int, b: Any) -> Database:
    """``D_{i→b}``: the database ``d`` with record ``i`` changed to ``b``.

    Args:
        d: the database, a tuple of record values.
        i: the index of the changed record.
        b: its new value.

    Returns:
        The new database tuple.

    References:
        Desfontaines et al., Section 2.2, Definition 5 (the notation ``D_{i→b}``).
    """
    return tuple(b if j == i else x for j, x in enumerate(d))


def _pairs(values: Sequence[Any]) -> Iterable[tuple[Any, Any]]:
    return ((a, b) for a in values for b in values if a != b)


def np_ratio(scenario: Scenario, mech: Mechanism, targets: Targets = None) -> Ratio:
    """Smallest ``e^ε`` with ``({θ}, ε)``-NP (Definition 3), exactly.

    The maximum, over targets i, values B̂ of the partial knowledge and pairs a ≠ b of
    values of D(i) compatible with B̂, of the indistinguishability ratio of
    ``M(D)|θ,B̂,D(i)=a`` and ``M(D)|θ,B̂,D(i)=b``.

    Args:
        scenario: the finite scenario (θ and the partial knowledge B).
        mech: the mechanism, database -> output PMF.
        targets: the target records (None: every record).

    Returns:
        ``e^ε`` as a Fraction ≥ 1, or None for ε = ∞.

    References:
        Desfontaines et al., Section 2.1, Definition 3 ((Θ, ε)-noiseless privacy).
    """

    def at(i: int, bhat: Any) -> Iterator[Ratio]:
        vals = [a for a in scenario.record_values(i) if scenario.compatible(i, a, bhat)]
        for a, b in _pairs(vals):
            yield indist_ratio(
                output_pmf(scenario, mech, i, a, bhat), output_pmf(scenario, mech, i, b, bhat)
            )

    return _sup_over(scenario, targets, at)


def _sup_over(
    scenario: Scenario, targets: Targets, at: Callable[[int, Any], Iterable[Ratio]]
) -> Ratio:
    """``ratio_sup`` of ``at(i, B̂)`` over the targets i and the values B̂, in that order."""
    chosen = range(scenario.n) if targets is None else targets
    knowledge = scenario.knowledge_values()
    return ratio_sup(r for i in chosen for bhat in knowledge for r in at(i, bhat))


def ratio_sup(ratios: Iterable[Ratio]) -> Ratio:
    """The largest ``e^ε`` (at least 1, ε = 0), stopping at the first infinite one.

    Args:
        ratios: ``e^ε`` values, each a Fraction or None (∞).

    Returns:
        Their maximum with 1, or None as soon as one is None.

    References:
        Desfontaines et al., Section 2.1, Definition 3 (the quantifier "for all θ, B̂, i,
        a, b" as a maximum).
    """
    best: Ratio = Fraction(1)
    for r in ratios:
        best = ratio_max(best, r)
        if best is None:
            return None
    return best


def changed_pmf(scenario: Scenario, mech: Mechanism, i: int, a: Any, b: Any, bhat: Any) -> PMF:
    """The law of ``M(D_{i→b})`` given ``D(i) = a`` and ``B̂`` (Definition 5's right side).

    Args:
        scenario: the finite scenario (θ and the partial knowledge).
        mech: the mechanism.
        i: the target record.
        a: the value D(i) is conditioned on.
        b: the value the record is changed to.
        bhat: the value of the partial knowledge.

    Returns:
        ``P[M(D_{i→b}) = . | D(i) = a, B̂]``, exactly.

    References:
        Desfontaines et al., Section 2.2, Definition 5.
    """
    return output_pmf(scenario, lambda d: mech(replace(d, i, b)), i, a, bhat)


def cdp_ratio(
    scenario: Scenario,
    mech: Mechanism,
    domain: Domain = None,
    targets: Targets = None,
    inference_based: bool = False,
) -> Ratio:
    """Smallest ``e^ε`` with ``({θ}, ε)``-CDP (Definition 5) or -IBCDP (Definition 6), exactly.

    CDP compares ``M(D)|a,B̂`` with ``M(D_{i→b})|a,B̂`` for a compatible with B̂ and b
    (when b is in the support) compatible with B̂. IBCDP compares the posteriors of D(i)
    given ``M(D) = t`` and given ``M(D_{i→b}) = t``, for every b, every t reachable both
    ways and every B̂. b ranges over ``domain[i]`` (default: the values of D(i) with
    positive probability).

    Args:
        scenario: the finite scenario (θ and the partial knowledge B).
        mech: the mechanism, database -> output PMF.
        domain: per record, the values b the record may be changed to (None: its
            support).
        targets: the target records (None: every record).
        inference_based: False for CDP (the outputs compared), True for IBCDP (the
            posteriors of D(i) compared).

    Returns:
        ``e^ε`` as a Fraction ≥ 1, or None for ε = ∞.

    References:
        Desfontaines et al., Section 2.2, Definition 5 ((Θ, ε)-causal DP) and Definition 6
        (inference-based causal DP).
    """

    def outputs_at(i: int, bhat: Any) -> Iterator[Ratio]:
        support = scenario.record_values(i)
        for a in support:
            if not scenario.compatible(i, a, bhat):
                continue
            for b in _changes(domain, i, support):
                if b == a or (b in support and not scenario.compatible(i, b, bhat)):
                    continue
                yield indist_ratio(
                    output_pmf(scenario, mech, i, a, bhat),
                    changed_pmf(scenario, mech, i, a, b, bhat),
                )

    def posteriors_at(i: int, bhat: Any) -> Iterator[Ratio]:
        rows = [(d, p) for (d, bb), p in scenario.joint.items() if bb == bhat]
        for b in _changes(domain, i, scenario.record_values(i)):
            plain = _posterior_counts(rows, mech, i, _UNCHANGED)
            changed = _posterior_counts(rows, mech, i, b)
            for t in set(plain) & set(changed):
                z1, z2 = sum(plain[t].values()), sum(changed[t].values())
                post1 = {a: v / z1 for a, v in plain[t].items()}
                post2 = {a: v / z2 for a, v in changed[t].items()}
                yield indist_ratio(post1, post2)

    return _sup_over(scenario, targets, posteriors_at if inference_based else outputs_at)


def _changes(domain: Domain, i: int, support: Sequence[Any]) -> Sequence[Any]:
    """The values b record ``i`` may be changed to: ``domain[i]``, else its support."""
    return list(domain[i]) if domain is not None else support


def ddp_ratio_with(
    scenario: Scenario,
    mech: Mechanism,
    sim: Callable[[int, Database], Mapping[Any, Fraction]],
    targets: Targets = None,
) -> Ratio:
    """``e^ε`` achieved by the given simulator ``Sim(i, D_{-i})`` in Definition 4.

    Only an upper bound on the DDP level (the definition asks for the best simulator).

    Args:
        scenario: the finite scenario (θ and the partial knowledge B).
        mech: the mechanism, database -> output PMF.
        sim: the simulator, ``(i, D_{-i}) -> output PMF`` (D_{-i} is the database without
            record i).
        targets: the target records (None: every record).

    Returns:
        The ratio this simulator achieves, an upper bound on the DDP ``e^ε`` (a Fraction
        ≥ 1, or None for ε = ∞).

    References:
        Desfontaines et al., Section 2.1, Definition 4 ((Θ, ε)-distributional DP).
    """

    def at(i: int, bhat: Any) -> Iterator[Ratio]:
        for a in scenario.record_values(i):
            if not scenario.compatible(i, a, bhat):
                continue
            simulated: PMF = {}
            for d, p in scenario.conditional(i, a, bhat).items():
                rest = tuple(x for j, x in enumerate(d) if j != i)
                for o, q in sim(i, rest).items():
                    simulated[o] = simulated.get(o, Fraction(0)) + p * Fraction(q)
            yield indist_ratio(output_pmf(scenario, mech, i, a, bhat), simulated)

    return _sup_over(scenario, targets, at)


_UNCHANGED: Any = object()


def _posterior_counts(
    rows: Sequence[tuple[Database, Fraction]], mech: Mechanism, i: int, b: Any
) -> dict[Any, dict[Any, Fraction]]:
    """output t -> (D(i) -> P[D, M(D) = t]), with ``M(D_{i→b})`` unless ``b`` is
    ``_UNCHANGED``."""
    out: dict[Any, dict[Any, Fraction]] = {}
    for d, p in rows:
        for o, q in mech(d if b is _UNCHANGED else replace(d, i, b)).items():
            if q:
                row = out.setdefault(o, {})
                row[d[i]] = row.get(d[i], Fraction(0)) + p * Fraction(q)
    return out


# --- normalizations (Definitions 7-8) -----------------------------------------------------------


def normalized_scenario(
    params: Sequence[Mapping[Any, Fraction]],
    theta_hat: Callable[[tuple[Any, ...]], Database],
    known: Sequence[int] = (),
) -> Scenario:
    """θ from independent parameters ``φ_0..φ_k`` (PMFs), ``D = θ̂(φ)``, ``B = (φ_j)_{j∈known}``.

    Args:
        params: the laws of the independent parameters φ_0..φ_k, value -> probability.
        theta_hat: the deterministic map θ̂ from a tuple of parameter values to a database;
            must be injective on the support.
        known: the indices j of the parameters the attacker knows (B = (φ_j)).

    Returns:
        The exact finite :class:`~pdpsym.models.scenario.Scenario` of ``(D, B)``.

    Raises:
        ValueError: ``θ̂`` is not injective on the support (Definition 7).

    References:
        Desfontaines et al., Section 2.3, Definitions 7-8 (normalization, acceptable
        parameters).
    """
    joint: dict[tuple[Database, Any], Fraction] = {}
    seen: dict[Database, tuple[Any, ...]] = {}
    for combo in itertools.product(*(sorted(p.items(), key=repr) for p in params)):
        phi = tuple(v for v, _ in combo)
        prob = Fraction(1)
        for _, q in combo:
            prob *= q
        if not prob:
            continue
        d = tuple(theta_hat(phi))
        if d in seen and seen[d] != phi:
            raise ValueError("theta_hat is not injective")
        seen[d] = phi
        key = (d, tuple(phi[j] for j in known))
        joint[key] = joint.get(key, Fraction(0)) + prob
    return Scenario.from_joint(joint)

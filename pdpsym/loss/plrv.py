"""PLRV with partial knowledge, APK and PPK, and the (ε,δ) checks (Desfontaines et al. Sec. 3).

* Definition 1: ``A ≈_{ε,δ} B`` iff ``P[A∈X] ≤ e^ε P[B∈X] + δ`` and symmetrically, for all X.
* Lemma 1 (hockey-stick form): for finite PMFs ``sup_X P(X) - e^ε Q(X)``
  ``= Σ_O max(0, P(O) - e^ε Q(O)) = E_{O~P}[max(0, 1 - e^{ε - L(O)})]`` with ``L = ln P/Q``.
* Definition 11: ``L_{i,a,b}(O, B̂) = ln P[M(D)=O | D(i)=a, B̂] / P[M(D)=O | D(i)=b, B̂]``
  (``x/0 = ∞``).
* Definition 12 (APKDP): for all i, a, b, B̂: ``APK_{i,a,b,B̂} ≤ δ`` where
  ``APK_{i,a,b,B̂} = E_{θ|D(i)=a,B̂, O~M(D)}[m(O, B̂)]``, ``m = max(0, 1 - e^{ε-L})``.
* Definition 13 (PPKDP): for all i, a, b: ``PPK_{i,a,b} = E_{θ|D(i)=a, O~M(D)}[m(O, B)] ≤ δ``.
* Theorem 1: ``PPK_{i,a,b} = E_{θ|D(i)=a}[APK_{i,a,b,B}]``.

Exactness: every δ computed here is ``c0 + c1·e^ε`` with rational ``c0, c1`` (a
:class:`~pdpsym.loss.exp_linear.WLin`), whose sign is decided exactly.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.core.eps import Eps
from pdpsym.loss.exp_linear import WLin, positive_part
from pdpsym.mechanisms.finite import Mechanism, check_mechanism, output_pmf
from pdpsym.models.scenario import PMF, Scenario

# --- Definition 1 and Lemma 1 -----------------------------------------------------------


def hockey_stick(p: PMF, q: PMF, eps: Eps) -> WLin:
    """``Σ_O max(0, P(O) - e^ε Q(O))``, each term's sign decided exactly.

    Lemma 1's right side, through the privacy-loss interface's
    :class:`~pdpsym.loss.pmf_pair.PMFPair` (the other sides below are computed from the
    definitions, independently of it).

    Args:
        p: the exact PMF ``P`` (output -> Fraction).
        q: the exact PMF ``Q``.
        eps: ε.

    Returns:
        The exact :class:`WLin` ``c0 + c1 e^ε``.

    References:
        Desfontaines et al. (2020), Section 3.1, Lemma 1 and Section 1.3, Definition 1.
    """
    # local import: pmf_pair builds on loss.curve, which imports WLin from this module
    from pdpsym.loss.pmf_pair import PMFPair  # noqa: PLC0415

    value: WLin = PMFPair(p, q).delta(Eps.of(eps)).value
    return value


def plrv_ratio(p: PMF, q: PMF, o: Any) -> Fraction | None:
    """``e^{L(O)} = P(O)/Q(O)``, with the paper's convention ``x/0 = ∞``.

    Args:
        p: the exact PMF of the numerator (absent outputs have probability 0).
        q: the exact PMF of the denominator.
        o: the output ``O``.

    Returns:
        The exact ratio as a Fraction (0 when ``P(O) = 0 < Q(O)``), or None for ``+∞``
        (``Q(O) = 0``, whatever ``P(O)``).

    References:
        Desfontaines et al. (2020), Section 3.1, Definitions 10-11.
    """
    qo = Fraction(q.get(o, 0))
    if qo == 0:
        return None
    return Fraction(p.get(o, 0)) / qo


def plrv(p: PMF, q: PMF, o: Any) -> sympy.Expr:
    """``L(O) = ln P(O)/Q(O)`` as an exact sympy value.

    Args:
        p: the exact PMF of the numerator.
        q: the exact PMF of the denominator.
        o: the output ``O``.

    Returns:
        ``log`` of a sympy Rational, ``oo`` when ``Q(O) = 0``, ``-oo`` when
        ``P(O) = 0 < Q(O)``.

    References:
        Desfontaines et al. (2020), Section 3.1, Definitions 10-11.
    """
    r = plrv_ratio(p, q, o)
    if r is None:
        return sympy.oo
    if r == 0:
        return -sympy.oo
    return sympy.log(sympy.Rational(r.numerator, r.denominator))


def m_value(ratio: Fraction | None, eps: Eps) -> WLin:
    """``m = max(0, 1 - e^{ε - L})`` with ``e^L = ratio``.

    Args:
        ratio: ``e^L`` as an exact rational ``≥ 0``; None stands for ``+∞`` (``m = 1``).
        eps: ε.

    Returns:
        The exact :class:`WLin` ``max(0, 1 - e^ε/ratio)`` (the sign decided exactly);
        0 when ``ratio = 0``.

    References:
        Desfontaines et al. (2020), Section 3.4, Theorem 1 (the notation ``m(O, B̂)``).
    """
    if ratio is None:
        return WLin.const(1, eps)
    if ratio == 0:
        return WLin.const(0, eps)
    return positive_part(WLin(Fraction(1), -1 / ratio, eps))


def plrv_expectation(p: PMF, q: PMF, eps: Eps) -> WLin:
    """Lemma 1's left side: ``E_{O~P}[max(0, 1 - e^{ε - L(O)})]``, term by term.

    Args:
        p: the exact PMF the expectation is over.
        q: the exact PMF of the PLRV's denominator.
        eps: ε.

    Returns:
        The exact :class:`WLin`.

    References:
        Desfontaines et al. (2020), Section 3.1, Lemma 1.
    """
    total = WLin.const(0, eps)
    for o, po in p.items():
        if po:
            total = total + m_value(plrv_ratio(p, q, o), eps).scale(Fraction(po))
    return total


def sup_over_sets(p: PMF, q: PMF, eps: Eps) -> WLin:
    """``max_X P(X) - e^ε Q(X)`` by enumerating every subset X of the joint support.

    Exponential in the support size (``2^|support|`` subsets): an independent check of
    Lemma 1 on small laws, not an engine.

    Args:
        p: the exact PMF ``P``.
        q: the exact PMF ``Q``.
        eps: ε.

    Returns:
        The exact :class:`WLin` of the best set (0 for the empty set at least).

    References:
        Desfontaines et al. (2020), Section 1.3, Definition 1.
    """
    outs = sorted(set(p) | set(q), key=repr)
    best = WLin.const(0, eps)  # X = ∅
    for r in range(1, len(outs) + 1):
        for xs in itertools.combinations(outs, r):
            val = WLin(
                sum((Fraction(p.get(o, 0)) for o in xs), Fraction(0)),
                -sum((Fraction(q.get(o, 0)) for o in xs), Fraction(0)),
                eps,
            )
            if val.exact_compare(best) > 0:
                best = val
    return best


def indistinguishable_by_sets(p: PMF, q: PMF, eps: Eps, delta: Fraction) -> bool:
    """Definition 1 verbatim: ``P ≈_{ε,δ} Q`` over all subsets, both inequalities.

    Args:
        p: the exact PMF ``P``.
        q: the exact PMF ``Q``.
        eps: ε.
        delta: δ, an exact rational.

    Returns:
        True iff ``P(X) ≤ e^ε Q(X) + δ`` and ``Q(X) ≤ e^ε P(X) + δ`` for every set X.

    References:
        Desfontaines et al. (2020), Section 1.3, Definition 1.
    """
    d = WLin.const(delta, eps)
    return sup_over_sets(p, q, eps).exact_compare(d) <= 0 and (
        sup_over_sets(q, p, eps).exact_compare(d) <= 0
    )


# --- Definitions 11-13 and Theorem 1 -----------------------------------------------------


def apk(scenario: Scenario, mech: Mechanism, i: int, a: Any, b: Any, bhat: Any, eps: Eps) -> WLin:
    """``APK_{i,a,b,B̂}``: Definition 12's expectation, output by output.

    Args:
        scenario: the joint law θ of the database and the partial knowledge ``B``.
        mech: the mechanism.
        i: the target record's index (0-based).
        a: the target's value under the expectation.
        b: the target's alternative value.
        bhat: the value ``B̂`` of the partial knowledge.
        eps: ε.

    Returns:
        The exact :class:`WLin`.

    Raises:
        InputError: when ``D(i) = a, B = B̂`` or ``D(i) = b, B = B̂`` has probability 0.

    References:
        Desfontaines et al. (2020), Section 3.2, Definition 12; Section 3.4, Theorem 1.
    """
    pa = output_pmf(scenario, mech, i, a, bhat)
    pb = output_pmf(scenario, mech, i, b, bhat)
    return plrv_expectation(pa, pb, eps)


def ppk(scenario: Scenario, mech: Mechanism, i: int, a: Any, b: Any, eps: Eps) -> WLin:
    """``PPK_{i,a,b}``: Definition 13 computed from the definition (a sum over D̂, B̂ and O).

    Args:
        scenario: the joint law θ.
        mech: the mechanism.
        i: the target record's index (0-based).
        a: the target's value under the expectation.
        b: the target's alternative value.
        eps: ε.

    Returns:
        The exact :class:`WLin`.

    Raises:
        InputError: when some ``B̂`` compatible with ``D(i) = a`` is not compatible with
            ``D(i) = b`` (the PLRV's denominator law is then undefined).

    References:
        Desfontaines et al. (2020), Section 3.3, Definition 13.
    """
    cache: dict[Any, tuple[PMF, PMF]] = {}
    total = WLin.const(0, eps)
    for (d, bhat), w in scenario.conditional_joint(i, a).items():
        if bhat not in cache:
            cache[bhat] = (
                output_pmf(scenario, mech, i, a, bhat),
                output_pmf(scenario, mech, i, b, bhat),
            )
        pa, pb = cache[bhat]
        for o, po in mech(d).items():
            if po:
                total = total + m_value(plrv_ratio(pa, pb, o), eps).scale(w * Fraction(po))
    return total


def ppk_via_apk(scenario: Scenario, mech: Mechanism, i: int, a: Any, b: Any, eps: Eps) -> WLin:
    """Theorem 1's right side: ``Σ_B̂ P[B̂ | D(i)=a] · APK_{i,a,b,B̂}``.

    Args:
        scenario: the joint law θ, which gives the weights ``P[B̂ | D(i)=a]``.
        mech: the mechanism of every :func:`apk` term.
        i: the target record's index (0-based).
        a: the value ``D(i)`` is conditioned on, in the weights and in each APK.
        b: the alternative value of each APK.
        eps: ε.

    Returns:
        The exact :class:`WLin`; by Theorem 1 it equals :func:`ppk`.

    References:
        Desfontaines et al. (2020), Section 3.4, Theorem 1.
    """
    total = WLin.const(0, eps)
    for bhat in scenario.knowledge_values():
        w = scenario.prob_knowledge_given(i, a, bhat)
        if w:
            total = total + apk(scenario, mech, i, a, b, bhat, eps).scale(w)
    return total


def default_targets(scenario: Scenario) -> list[int]:
    """The record indices whose every value is compatible with every ``B̂``.

    Args:
        scenario: the joint law θ.

    Returns:
        The 0-based indices, in increasing order.

    References:
        Desfontaines et al. (2020), Section 3 (the standing assumption that any ``B̂`` is
        compatible with any ``D(i) = a``, from Definition 8).
    """
    return [i for i in range(scenario.n) if scenario.fully_compatible(i)]


def _pairs(scenario: Scenario, i: int) -> Iterable[tuple[Any, Any]]:
    vals = scenario.record_values(i)
    return ((a, b) for a in vals for b in vals if a != b)


@dataclass(frozen=True)
class DeltaResult:
    """The smallest δ for a given ε, and where it is attained."""

    delta: WLin
    witness: dict[str, str] | None


#: an exact epsilon: an :class:`Eps`, or a rational (int, Fraction, number string)
EpsLike = Eps | Fraction | int | str
#: target record indices (None: :func:`default_targets`)
Targets = Iterable[int] | None


def _checked(
    scenario: Scenario, mech: Mechanism, eps: EpsLike, targets: Targets
) -> tuple[Eps, Iterable[int]]:
    """The exact eps, the targets (default: :func:`default_targets`), and ``mech``
    checked to be a probability law on every database of the scenario."""
    check_mechanism(scenario, mech)
    return Eps.of(eps), default_targets(scenario) if targets is None else targets


def _worst(eps: Eps, cases: Iterable[tuple[WLin, dict[str, str]]]) -> DeltaResult:
    """The first largest delta of the cases (0 and no witness when there are none)."""
    best, wit = WLin.const(0, eps), None
    for v, where in cases:
        if v.exact_compare(best) > 0:
            best, wit = v, where
    return DeltaResult(best, wit)


class Knowledge(Enum):
    """Who fixes the partial knowledge ``B̂`` in the PLRV's expectation.

    ``ACTIVE``: the adversary, for every ``B̂`` (APKDP, Definition 12); ``PASSIVE``: the
    joint law θ, ``B`` being drawn with the records (PPKDP, Definition 13).
    """

    ACTIVE = "active"
    PASSIVE = "passive"


def pkdp_delta(
    scenario: Scenario,
    mech: Mechanism,
    eps: EpsLike,
    knowledge: Knowledge,
    targets: Targets = None,
) -> DeltaResult:
    """The smallest δ with ``(θ, ε, δ)``-APKDP or -PPKDP, exactly.

    Active: ``max_{i, a≠b, B̂} APK_{i,a,b,B̂}``, where pairs ``(a, b, B̂)`` with ``B̂``
    incompatible with ``a`` or ``b`` are skipped. Passive: ``max_{i, a≠b} PPK_{i,a,b}``.

    Args:
        scenario: the joint law θ.
        mech: the mechanism; it must map every database of the scenario to a
            probability law.
        eps: ε, exact (an :class:`~pdpsym.core.eps.Eps`, an int, a Fraction or a number
            string).
        knowledge: :attr:`Knowledge.ACTIVE` (Definition 12) or
            :attr:`Knowledge.PASSIVE` (Definition 13).
        targets: the target indices; None means :func:`default_targets`.

    Returns:
        :class:`DeltaResult`: the exact δ (a :class:`WLin`) and the first maximizing
        ``{"i", "a", "b"}``, with ``"B"`` when active (None when δ = 0).

    Raises:
        InputError: for a row of ``mech`` that is not a law or an inexact ``eps``.

    References:
        Desfontaines et al. (2020), Section 3.2, Definition 12; Section 3.3, Definition 13.
    """
    e, ts = _checked(scenario, mech, eps, targets)
    if knowledge is Knowledge.PASSIVE:
        return _worst(
            e,
            (
                (ppk(scenario, mech, i, a, b, e), {"i": str(i), "a": repr(a), "b": repr(b)})
                for i in ts
                for a, b in _pairs(scenario, i)
            ),
        )
    return _worst(
        e,
        (
            (
                apk(scenario, mech, i, a, b, bhat, e),
                {"i": str(i), "a": repr(a), "b": repr(b), "B": repr(bhat)},
            )
            for i in ts
            for a, b in _pairs(scenario, i)
            for bhat in scenario.knowledge_values()
            if scenario.compatible(i, a, bhat) and scenario.compatible(i, b, bhat)
        ),
    )


def apkdp_delta(
    scenario: Scenario, mech: Mechanism, eps: EpsLike, targets: Targets = None
) -> DeltaResult:
    """The smallest δ with ``(θ, ε, δ)``-APKDP: ``max_{i, a≠b, B̂} APK_{i,a,b,B̂}``, exactly.

    :func:`pkdp_delta` with :attr:`Knowledge.ACTIVE`.

    Args:
        scenario: the joint law θ; the adversary may fix any value ``B̂`` of its knowledge.
        mech: the mechanism.
        eps: ε, exact.
        targets: the target indices; None means :func:`default_targets`.

    Returns:
        The exact δ and the first maximizing ``{"i", "a", "b", "B"}``.

    References:
        Desfontaines et al. (2020), Section 3.2, Definition 12.

    Examples:
        Two perfectly correlated bits and an adversary who knows ``x2``: the background already
        determines ``x1``, so no pair ``a != b`` is possible given it and, by hand, ``delta = 0``:

        >>> import pdpsym as ps
        >>> m = ps.JointDistribution.from_rows(["x1", "x2"], [[0, 0, "1/2"], [1, 1, "1/2"]])
        >>> sc = ps.Scenario.from_model(m, knowledge=["x2"])
        >>> ps.apkdp_delta(sc, ps.mechanisms.count(), ps.Eps.log(2)).delta.sympy()
        0
    """
    return pkdp_delta(scenario, mech, eps, Knowledge.ACTIVE, targets)


def ppkdp_delta(
    scenario: Scenario, mech: Mechanism, eps: EpsLike, targets: Targets = None
) -> DeltaResult:
    """The smallest δ with ``(θ, ε, δ)``-PPKDP: ``max_{i, a≠b} PPK_{i,a,b}``, exactly.

    :func:`pkdp_delta` with :attr:`Knowledge.PASSIVE`.

    Args:
        scenario: the joint law θ, from which the knowledge ``B`` is drawn.
        mech: the mechanism.
        eps: ε, exact.
        targets: the target indices; None means :func:`default_targets`.

    Returns:
        The exact δ and the first maximizing ``{"i", "a", "b"}``.

    References:
        Desfontaines et al. (2020), Section 3.3, Definition 13.

    Examples:
        One fair bit and the exact count: the output reveals it, so by hand the PPK gap of the
        two point masses is ``1 - e^eps * 0 = 1``:

        >>> import pdpsym as ps
        >>> m = ps.JointDistribution.from_rows(["x1"], [[0, "1/2"], [1, "1/2"]])
        >>> ps.ppkdp_delta(ps.Scenario.from_model(m), ps.mechanisms.count(), ps.Eps.log(2)).delta.sympy()
        1
    """
    return pkdp_delta(scenario, mech, eps, Knowledge.PASSIVE, targets)


def is_pkdp(
    scenario: Scenario,
    mech: Mechanism,
    eps: Eps,
    delta: Fraction,
    knowledge: Knowledge = Knowledge.ACTIVE,
) -> bool:
    """Whether the mechanism is ``(θ, ε, δ)``-APKDP (or -PPKDP), decided exactly.

    Args:
        scenario: the joint law θ.
        mech: the mechanism.
        eps: ε.
        delta: δ, an exact rational.
        knowledge: active (APKDP) or passive (PPKDP) partial knowledge.

    Returns:
        True iff :func:`pkdp_delta` (over the default targets) is ``≤ delta``.

    References:
        Desfontaines et al. (2020), Section 3.2, Definition 12; Section 3.3, Definition 13.
    """
    d = pkdp_delta(scenario, mech, eps, knowledge).delta
    return d.exact_compare(WLin.const(delta, eps)) <= 0


def apkdp_by_indistinguishability(
    scenario: Scenario, mech: Mechanism, eps: Eps, delta: Fraction
) -> bool:
    """Definition 12's second form: ``M(D)|a,B̂ ≈_{ε,δ} M(D)|b,B̂`` by Definition 1 (all sets).

    Over the default targets, every ordered pair ``a ≠ b`` and every ``B̂``; exponential
    in the output count (:func:`sup_over_sets`).

    Args:
        scenario: the joint law θ.
        mech: the mechanism.
        eps: ε.
        delta: δ, an exact rational.

    Returns:
        True iff every pair of conditional output laws is ``(ε, δ)``-indistinguishable.

    References:
        Desfontaines et al. (2020), Section 3.2, Definition 12 (second form) and
        Section 1.3, Definition 1.
    """
    for i in default_targets(scenario):
        for a, b in _pairs(scenario, i):
            for bhat in scenario.knowledge_values():
                pa = output_pmf(scenario, mech, i, a, bhat)
                pb = output_pmf(scenario, mech, i, b, bhat)
                if not indistinguishable_by_sets(pa, pb, eps, delta):
                    return False
    return True

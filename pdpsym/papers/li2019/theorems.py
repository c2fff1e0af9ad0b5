"""The short theorems of Li et al. Sec. IV around Eq. 2: the Bayes identity (Eq. 3), the
group-DP bound (Remark 1), Theorem 1 and Theorem 4, each in a function named for its label.
"""

from __future__ import annotations

from fractions import Fraction

from pdpsym.core.exp_polynomials import ExpPoly, LogRatio
from pdpsym.loss.adversary import Adversary
from pdpsym.loss.laplace_mixture import laplace_mixture_at
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.joint import JointDistribution


def conditional_density(
    model: JointDistribution,
    adv: Adversary,
    x_i: Fraction,
    x_K: dict[str, Fraction],
    r: Fraction,
    lam: Fraction,
    query: LinearQuery,
) -> ExpPoly:
    """``2 lambda p(r | x_i, x_K)`` as an exponential polynomial (the mixture of Eq. 2).

    Args:
        model: the joint distribution ``theta`` of the tuples, with exact probabilities.
        adv: the adversary ``A(i, K)`` (target and known tuples, names of ``model``).
        x_i: the target's value.
        x_K: the known tuples' values, by name (the conditioning event must have positive
            probability).
        r: the mechanism's output, a rational.
        lam: the Laplace scale, > 0.
        query: the linear query ``f``.

    Returns:
        The exact exponential polynomial ``sum_s theta(f = s | x_i, x_K) e^{-|r - s|/lam}``
        (rational coefficients and exponents), i.e. ``2 lam`` times the output density.

    References:
        Li et al. (2019), Section IV-A, Eq. 2 (the conditional output density), with the
        Laplace density of Section III-B.
    """
    given = {adv.target: Fraction(x_i), **x_K}
    cond = model.conditional(given)
    fixed = sum((query.weight(v) * Fraction(x) for v, x in given.items()), Fraction(0))
    weights: dict[Fraction, Fraction] = {}
    for row, p in cond.probs.items():
        f = fixed + sum(
            (query.weight(v) * x for v, x in zip(cond.variables, row, strict=True)), Fraction(0)
        )
        weights[f] = weights.get(f, Fraction(0)) + p
    return laplace_mixture_at(weights, Fraction(lam), r)


def bayes_identity_holds(
    model: JointDistribution,
    adv: Adversary,
    x_i: Fraction,
    x_i_prime: Fraction,
    x_K: dict[str, Fraction],
    r: Fraction,
    lam: Fraction,
    query: LinearQuery,
) -> bool:
    """Eq. 3, exactly: posterior log-odds minus prior log-odds equals the Eq. 2 ratio.

    The posterior ``theta(x_i | r, x_K)`` is computed by Bayes' rule with its own
    normalizer ``p(r | x_K) = sum_x theta(x | x_K) p(r | x, x_K)``; both sides are
    LogRatios of exp-polynomials and equality is the exact zero test of
    ``num_L den_R - num_R den_L``.

    Args:
        model: the joint distribution ``theta`` of the tuples, with exact probabilities.
        adv: the adversary ``A(i, K)`` (target and known tuples, names of ``model``).
        x_i: one target value; ``(x_i, x_K)`` must have positive probability.
        x_i_prime: the other target value; ``(x_i_prime, x_K)`` must have positive
            probability.
        x_K: the known tuples' values, by name (empty for ``K`` empty).
        r: the output, a rational.
        lam: the Laplace scale, > 0.
        query: the linear query ``f``.

    Returns:
        True when the two sides of Eq. 3 are exactly equal at this point, else False.

    References:
        Li et al. (2019), Section IV-A, Eq. 3 (Eq. 2 in Bayesian form).
    """
    prior = (
        model.marginal([adv.target, *adv.known]).conditional(x_K)
        if x_K
        else model.marginal([adv.target])
    )
    theta = {row[0]: p for row, p in prior.probs.items()}
    ta, tb = theta[Fraction(x_i)], theta[Fraction(x_i_prime)]
    dens = {
        x: conditional_density(model, adv, x, x_K, r, lam, query) for x in theta if theta[x] > 0
    }
    evidence = ExpPoly()
    for x, d in dens.items():
        evidence = evidence + d.scale(theta[x])
    # posterior(x) = theta(x) d(x) / evidence
    post_a = dens[Fraction(x_i)].scale(ta)
    post_b = dens[Fraction(x_i_prime)].scale(tb)
    # LHS = ln[(post_a/evidence)/(post_b/evidence)] - ln[ta/tb]
    lhs = LogRatio(
        post_a * evidence * ExpPoly.constant(tb), post_b * evidence * ExpPoly.constant(ta)
    )
    rhs = LogRatio(dens[Fraction(x_i)], dens[Fraction(x_i_prime)])
    return (lhs.num * rhs.den - rhs.num * lhs.den).is_zero()


def group_dp_bound(
    model: JointDistribution, adv: Adversary, lam: Fraction, query: LinearQuery
) -> Fraction:
    """Remark 1 / Eq. 4: ``sum over k in {i} u U of Delta_k / lambda``.

    Args:
        model: the joint distribution ``theta`` of the tuples, with exact probabilities.
        adv: the adversary ``A(i, K)``; its target ``i`` and the tuples ``U`` it does not
            know enter.
        lam: the Laplace scale, > 0.
        query: the linear query; ``Delta_k = |w_k| (max X_k - min X_k)``.

    Returns:
        The exact group-DP bound on the leakage of ``adv``, a Fraction.

    References:
        Li et al. (2019), Section IV-A, Remark 1, Eq. 4.
    """
    members = (adv.target, *adv.unknown(model))
    return sum((query.sensitivity(model, k) for k in members), Fraction(0)) / Fraction(lam)


def theorem1_value(
    model: JointDistribution, adv: Adversary, lam: Fraction, query: LinearQuery
) -> Fraction:
    """Theorem 1: with mutually independent tuples every adversary leaks ``Delta_i / lambda``.

    The function does not check independence: it returns the value the theorem predicts.

    Args:
        model: the joint distribution ``theta`` of the tuples, with exact probabilities.
        adv: the adversary ``A(i, K)``; only its target ``i`` enters.
        lam: the Laplace scale, > 0.
        query: the linear query; ``Delta_i = |w_i| (max X_i - min X_i)``.

    Returns:
        The exact ``Delta_i / lambda``, a Fraction.

    References:
        Li et al. (2019), Section IV-A, Theorem 1.
    """
    return query.sensitivity(model, adv.target) / Fraction(lam)


def theorem4_value(
    model: JointDistribution, adv: Adversary, lam: Fraction, query: LinearQuery
) -> Fraction | None:
    """Theorem 4 corrected: the bottom layer (U empty),
    ``max over compatible pairs |w_i (x_i - x_i')| / lambda``.

    Equals ``Delta_i / lambda`` only when some ``x_K`` is compatible with both extreme
    values of ``x_i`` (the printed "whatever theta" fails). Raises a ValueError when
    ``adv`` has unknown tuples.

    Args:
        model: the joint distribution ``theta`` of the tuples, with exact probabilities.
        adv: the adversary ``A(i, K)``, in the bottom layer (every other tuple known).
        lam: the Laplace scale, > 0.
        query: the linear query (only the target's weight ``w_i`` enters).

    Returns:
        The exact leakage, a Fraction, or None when no ``x_K`` of positive probability is
        compatible with two target values.

    References:
        Li et al. (2019), Section V-C, Theorem 4 (corrected: the max over compatible pairs
        instead of ``Delta_i / lambda`` for every joint distribution).
    """
    if adv.unknown(model):
        raise ValueError("Theorem 4 is about the bottom layer (no unknown tuples)")
    joint = model.marginal([adv.target, *adv.known])
    by_known: dict[tuple[Fraction, ...], list[Fraction]] = {}
    for row in joint.probs:
        by_known.setdefault(row[1:], []).append(row[0])
    w = abs(query.weight(adv.target))
    best: Fraction | None = None
    for xs in by_known.values():
        if len(xs) >= 2:
            v = w * (max(xs) - min(xs)) / Fraction(lam)
            best = v if best is None or v > best else best
    return best

"""Eq. 2 for independent records, in closed form (product models of any size).

**Lemma (independent records).** Let the records be independent and the query
``f = sum_t c_t(x_t)`` (integer contributions, scale ``D``) be released with Laplace noise
of scale ``lambda`` (or the two-sided geometric mechanism with ``alpha = e^{-1/lambda}``).
Given ``x_K``, the other records' count ``R`` does not depend on ``x_i``, so
``p(r | x_i = a) = sum_s R(s) k(r - s - c(a))`` with ``k`` the noise density. By the
triangle inequality each term's ratio to the ``b`` term is at most
``e^{|c(a) - c(b)| / (lambda D)}``, and for ``r`` beyond every support point (on the side
of the larger contribution) every term has exactly that ratio. So the leakage of
``A(i, K)`` is ``(max c - min c) / (lambda D)`` over the values of ``x_i`` with positive
probability, for every ``x_K``: exact, with no law built, and attained.

The generic engine of :mod:`pdpsym.loss.count_leakage` encloses the same number by balls;
models whose generic pass exceeds :data:`INDEPENDENT_FROM` steps (``10^4`` records each
with its own ``p``: ``10^12``) take the closed form, smaller ones keep the engine and its
printed enclosures.

References: Li et al. (2019), Section III, Eq. 2; Desfontaines et al. (2020), Section 4
(independent Bernoulli records with their own ``p_i``).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from pdpsym.models.counts import Contributions, CountModel
from pdpsym.models.model_objects import product_of

__all__ = ["INDEPENDENT_FROM", "independent_closed_form", "independent_leakages"]

#: product models whose generic pass exceeds this many steps take the closed form
INDEPENDENT_FROM = 10**8


def independent_closed_form(model: CountModel) -> bool:
    """Whether ``model``'s leakage takes the closed form of independent records.

    Args:
        model: a structured model.

    Returns:
        True for a product model whose generic pass exceeds :data:`INDEPENDENT_FROM`
        steps (the module's lemma then gives every target's leakage).

    References:
        Li et al. (2019), Section III, Eq. 2.
    """
    product = product_of(model)
    return product is not None and product.size_hint() > INDEPENDENT_FROM


def independent_leakages(
    model: CountModel, targets: Sequence[str], contrib: Contributions, lam: Fraction
) -> list[Fraction | None]:
    """Each target's exact leakage ``(max c - min c) / (lambda D)`` (the module's lemma).

    Args:
        model: a product model.
        targets: the target records.
        contrib: the query's integer contributions.
        lam: the noise scale, in query units.

    Returns:
        One exact value per target, None when fewer than two of its values are possible.

    References:
        Li et al. (2019), Section III, Eq. 2; the module's lemma.
    """
    product = product_of(model)
    assert product is not None
    out: list[Fraction | None] = []
    for t in targets:
        i = product.index(t, "target")
        _, probs = product.laws[i]
        cs = [contrib.table[i][j] for j, q in enumerate(probs) if q > 0]
        out.append(Fraction(max(cs) - min(cs)) / (lam * contrib.scale) if len(cs) >= 2 else None)
    return out

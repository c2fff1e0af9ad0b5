"""Exact shortcuts that spare the count engines, decided from the model's rational
parameters (never from floats): independent records in closed form, and the reversal
symmetry of a chain.

**Lemma (independent records).** Let the records be independent and the query
``f = sum_t c_t(x_t)`` (integer contributions, scale ``D``) be released with Laplace noise
of scale ``lambda`` (or the two-sided geometric mechanism with ``alpha = e^{-1/lambda}``).
Given ``x_K``, the other records' count ``R`` does not depend on ``x_i``, so
``p(r | x_i = a) = sum_s R(s) k(r - s - c(a))`` with ``k`` the noise density. By the
triangle inequality each term's ratio to the ``b`` term is at most
``e^{|c(a) - c(b)| / (lambda D)}``, and for ``r`` beyond every support point (on the side
of the larger contribution) every term has exactly that ratio. So the leakage of
``A(i, K)`` is

    V_i = (max c - min c) / (lambda D)

over the values of ``x_i`` with positive probability, for every ``x_K``: exact, with no
law built, and attained (Li et al., Theorem 1: on independent records the leakage is the
mechanism's ``epsilon``). Two models meet it:

- a product model (:func:`independent_leakages`); those whose generic pass exceeds
  :data:`INDEPENDENT_FROM` steps (``10^4`` records each with its own ``p``: ``10^12``)
  take the closed form (:func:`independent_closed_form`), smaller ones keep the engine of
  :mod:`pdpsym.loss.count_leakage` and its printed enclosures;
- a chain whose every step matrix has identical rows (``x_{t+1}`` does not depend on
  ``x_t``, :func:`independent_records`; with any fixed records too), whatever its size
  (:func:`independent_values`, with ``rho = 1 / (lambda D)`` the Laplace rate).

**Reversal.** If a chain has one transition matrix ``P`` for every step, its initial law
``pi`` is stationary (``pi P = pi``) and ``P`` is reversible (``pi_i P_ij = pi_j P_ji``,
detailed balance), then ``P(x_1, ..., x_T) = pi_{x_1} prod_t P_{x_t x_{t+1}} =
pi_{x_T} prod_t P_{x_{t+1} x_t}``: the reversed sequence has the same law. If moreover
the contributions are mirror-symmetric (``c_t = c_{T-1-t}``) and so are the fixed records
(``fixed[t] = fixed[T-1-t]``, both absent or both the same state), the map
``x -> reversed x`` preserves the joint law with the fixed records and the count ``S``
and sends ``x_t`` to ``x_{T-1-t}``: targets ``t`` and ``T-1-t`` have the same conditional
laws of the count, hence the same value of every function of them (Li et al.'s Eq. 2
included). :func:`mirror` returns the target that stands for ``t``.

References: Li et al. (2019), Section III, Eq. 2, Theorem 1; Desfontaines et al. (2020),
Section 4 (independent Bernoulli records with their own ``p_i``); Kelly, Reversibility
and Stochastic Networks (1979), Section 1.2.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from pdpsym.loss.chain_all_targets import CountChain
from pdpsym.models.counts import Contributions, CountModel
from pdpsym.models.model_objects import product_of

__all__ = [
    "INDEPENDENT_FROM",
    "independent_closed_form",
    "independent_leakages",
    "independent_records",
    "independent_values",
    "mirror",
    "reversal_symmetric",
]

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


def reversal_symmetric(chain: CountChain) -> bool:
    """Whether the chain with its contributions and fixed records is mirror-symmetric
    (module doc): one matrix, a stationary and reversible initial law, ``c_t = c_{T-1-t}``
    and ``fixed[t] = fixed[T-1-t]``, all decided exactly.

    Args:
        chain: the chain.

    Returns:
        True when targets ``t`` and ``T - 1 - t`` provably have the same value.

    References:
        Kelly, Reversibility and Stochastic Networks (1979), Section 1.2, Theorem 1.3
        (detailed balance: a stationary chain is reversible); Li et al. (2019), Section
        3.2, Eq. 2.
    """
    T, k = chain.length, chain.k
    if len({m for m in chain.matrices}) != 1:
        return False
    p = chain.matrices[0]
    pi = chain.initial
    for j in range(k):
        if sum((pi[i] * p[i][j] for i in range(k)), Fraction(0)) != pi[j]:
            return False
    for i in range(k):
        for j in range(i + 1, k):
            if pi[i] * p[i][j] != pi[j] * p[j][i]:
                return False
    for t in range(T // 2):
        if chain.table[t] != chain.table[T - 1 - t]:
            return False
        if chain.fixed.get(t) != chain.fixed.get(T - 1 - t):
            return False
    return True


def mirror(chain: CountChain, position: int, symmetric: bool) -> int:
    """The target that stands for ``position``: ``min(t, T - 1 - t)`` on a symmetric chain.

    Args:
        chain: the chain.
        position: the target record (0-based).
        symmetric: the result of :func:`reversal_symmetric`.

    Returns:
        The representative position.

    References:
        Kelly, Reversibility and Stochastic Networks (1979), Section 1.2.
    """
    return min(position, chain.length - 1 - position) if symmetric else position


def independent_records(chain: CountChain) -> bool:
    """Whether every step matrix has identical rows (the records are independent).

    Args:
        chain: the chain.

    Returns:
        True when ``x_{t+1}`` is independent of ``x_t`` at every step, decided exactly.

    References:
        Feller, An Introduction to Probability Theory and Its Applications, vol. 1 (1968),
        Ch. XV.1 (a Markov chain whose rows coincide is a sequence of independent trials).
    """
    return all(all(row == m[0] for row in m) for m in chain.matrices)


def independent_values(
    chain: CountChain, positions: Sequence[int], rate: Fraction
) -> dict[int, Fraction | None]:
    """Eq. 2 of each target of a chain with independent records, exactly (module doc):
    ``rate * (max_a c_t(a) - min_a c_t(a))`` over the states of positive probability.

    Args:
        chain: a chain with :func:`independent_records`.
        positions: the target records (0-based), not fixed.
        rate: the Laplace rate in count units (``1/b``).

    Returns:
        position -> the exact value, or None when fewer than two states are possible.

    Raises:
        ValueError: when the records are not independent or a target is fixed.

    References:
        Li et al. (2019), Section 3.2, Eq. 2 and Theorem 1 (independent tuples).
    """
    if not independent_records(chain):
        raise ValueError("the records are not independent")
    feasible = all(
        sum(p for s, p in enumerate(_law_of(chain, u)) if chain.allowed(u, s)) > 0
        for u in chain.fixed
    )
    out: dict[int, Fraction | None] = {}
    for t in positions:
        if t in chain.fixed:
            raise ValueError("a target cannot be fixed")
        values = [chain.table[t][s] for s, p in enumerate(_law_of(chain, t)) if p > 0]
        ok = feasible and len(values) >= 2
        out[t] = rate * (max(values) - min(values)) if ok else None
    return out


def _law_of(chain: CountChain, t: int) -> tuple[Fraction, ...]:
    """The marginal law of record ``t`` when the records are independent."""
    return chain.initial if t == 0 else chain.matrix(t - 1)[0]

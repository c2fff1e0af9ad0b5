"""Symmetries of a Markov chain that the histogram's leakage cannot see, decided exactly.

The histogram ``h(x) = (n_0, ..., n_{k-1})`` counts the records in each state and does
not depend on their order; Li et al.'s Eq. 2 is a max over ordered pairs of the target's
values and a sup over every output ``y`` in ``R^k``. Two kinds of exact maps of the chain
to itself therefore leave leakages unchanged (every test is on the chain's rational
parameters, never on floats):

**Relabellings (automorphisms).** Let ``sigma`` be a permutation of the ``k`` states with
``pi(sigma i) = pi(i)`` for the initial law and ``P_t(sigma i, sigma j) = P_t(i, j)`` for
every step's matrix, fixing the state of every known record. Then ``sigma(x)`` (each
record relabelled) has the law of ``x`` and the same known records. ``x_i = 0`` exactly
when ``sigma(x)_i = sigma(0) = a``, and the histogram of ``sigma(x)`` is ``m`` with
``m_{sigma(s)} = n_s``. So the law of the histogram given ``x_i = a`` is the law given
``x_i = 0`` with its counts permuted, ``m_c = n_{perm[c]}`` for ``perm = sigma^{-1}``:
one exact law and one float grid stand for every value in the orbit of state 0
(:mod:`pdpsym.loss.histogram_grid`, the relabelling lemma). Song, Wang and Chaudhuri's
activity chains (stay with ``p``, else move uniformly) have every permutation; a
circulant chain (move ``d`` states ahead with a weight depending on ``d`` only, a
uniform start) has the rotations.

**Reversal up to a relabelling.** Let the chain have one matrix ``P`` and a stationary
initial law ``pi > 0``; the reversed sequence ``z_s = x_{T+1-s}`` is then a chain with
the same start and the matrix ``P*(u, v) = pi_v P(v, u) / pi_u`` (Kelly, Reversibility
and Stochastic Networks, 1979, Section 1.2). If a permutation ``sigma`` has ``pi(sigma
i) = pi(i)`` and ``pi_{sigma j} P(sigma j, sigma i) = pi_i P(i, j)`` for all ``i, j``
(that is ``P*(sigma i, sigma j) = P(i, j)``), then ``w = sigma^{-1}(z)`` has the law of
``x``: ``P(w) = pi_{sigma w_1} prod_s P*(sigma w_s, sigma w_{s+1}) = pi_{w_1} prod_s
P(w_s, w_{s+1})``. The histogram of ``w`` is that of ``x`` with its bins permuted, and
``x_t = a`` exactly when ``w_{T+1-t} = sigma^{-1}(a)``; with no known records, the laws
of the histogram given the values of ``x_t`` are those given the values of
``x_{T+1-t}``, values and bins relabelled by ``sigma``. Eq. 2 maximizes over all ordered
pairs of values and over all outputs, and ``y -> y`` permuted is a bijection of ``R^k``
preserving the kernel ``q^{|y - n|_1}``, so targets ``t`` and ``T + 1 - t`` have the same
leakage. ``sigma`` the identity is detailed balance (a reversible chain,
:func:`pdpsym.loss.shortcuts.reversal_symmetric`); a circulant chain with a uniform
start has ``P* = P^T``, the chain relabelled by ``sigma(i) = -i mod k``.

Permutations are listed for ``k <=`` :data:`MAX_PERMUTED_STATES` (``k!`` candidates, each
checked on ``k^2`` entries per matrix); above it only the transpositions ``(0 a)`` are
tried.

**What the histogram engine asks** (:mod:`pdpsym.loss.histogram`), of any count model
(only chains have these symmetries): which values of a target have bin 0's law with its
bins permuted (:func:`relabellings`, :func:`law_perms`), whether the float screen may
read the sorted outputs only (:func:`law_symmetric`, the orbit lemma of
:mod:`pdpsym.loss.histogram_orbits`), and which targets leak as their mirror
(:func:`reversible`, :func:`mirrored_targets`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

from pdpsym.loss import chain_all_targets, histogram_orbits, shortcuts
from pdpsym.models.counts import CountModel
from pdpsym.models.model_objects import chain_of, network_of

#: the most states whose every permutation is tried (``6! = 720``)
MAX_PERMUTED_STATES = 6

Matrix = Sequence[Sequence[Fraction]]


def _candidates(k: int) -> Iterator[tuple[int, ...]]:
    """The transpositions ``(0 a)`` first, then (for small ``k``) every permutation."""
    for a in range(1, k):
        perm = list(range(k))
        perm[0], perm[a] = a, 0
        yield tuple(perm)
    if k <= MAX_PERMUTED_STATES:
        yield from itertools.permutations(range(k))


def automorphism_perms(
    initial: Sequence[Fraction], matrices: Sequence[Matrix], fixed: set[int]
) -> dict[int, tuple[int, ...]]:
    """For each state ``a >= 1`` in the orbit of state 0, the bins' permutation that maps
    the histogram's law given ``x_i = 0`` onto the law given ``x_i = a``.

    Args:
        initial: the chain's initial law.
        matrices: its transition matrices (one per step, or one for all).
        fixed: the states of the known records (each must be fixed by the relabelling).

    Returns:
        ``{a: perm}`` with ``perm = sigma^{-1}`` for an automorphism ``sigma`` of the chain
        with ``sigma(0) = a`` (a transposition ``(0 a)`` when one is an automorphism,
        which is its own inverse); states outside the orbit are absent.

    References:
        The relabelling lemma of this module's docstring; Song, Wang, Chaudhuri (2017),
        Section 6 (activity chains invariant under relabellings).

    Examples:
        >>> from fractions import Fraction as F
        >>> rows = [[F(6, 10), F(3, 10), F(1, 10)], [F(1, 10), F(6, 10), F(3, 10)],
        ...         [F(3, 10), F(1, 10), F(6, 10)]]
        >>> automorphism_perms([F(1, 3)] * 3, [rows], set())  # the rotations
        {1: (2, 0, 1), 2: (1, 2, 0)}
    """
    k = len(initial)
    out: dict[int, tuple[int, ...]] = {}
    for sigma in _candidates(k):
        a = sigma[0]
        if a == 0 or a in out or any(sigma[s] != s for s in fixed):
            continue
        if any(initial[sigma[i]] != initial[i] for i in range(k)):
            continue
        if all(
            m[sigma[i]][sigma[j]] == m[i][j] for m in matrices for i in range(k) for j in range(k)
        ):
            inverse = [0] * k
            for i, s in enumerate(sigma):
                inverse[s] = i
            out[a] = tuple(inverse)
    return dict(sorted(out.items()))


def reversal_relabelling(
    initial: Sequence[Fraction], matrices: Sequence[Matrix]
) -> tuple[int, ...] | None:
    """A permutation ``sigma`` under which the reversed chain is the chain relabelled.

    Args:
        initial: the chain's initial law.
        matrices: its transition matrices.

    Returns:
        ``sigma`` (``sigma[i]`` the image of state ``i``) with ``pi(sigma i) = pi(i)`` and
        ``pi_{sigma j} P(sigma j, sigma i) = pi_i P(i, j)``, for a chain with one matrix and
        a stationary initial law with no zero; the identity when the chain is reversible;
        None when there is none (or the chain is not of that kind).

    References:
        Kelly, Reversibility and Stochastic Networks (1979), Section 1.2 (the reversed
        chain); the reversal lemma of this module's docstring.

    Examples:
        >>> from fractions import Fraction as F
        >>> rows = [[F(7, 10), F(1, 10), F(2, 10)], [F(2, 10), F(7, 10), F(1, 10)],
        ...         [F(1, 10), F(2, 10), F(7, 10)]]
        >>> reversal_relabelling([F(1, 3)] * 3, [rows])  # circulant: sigma(i) = -i mod 3
        (0, 2, 1)
    """
    k = len(initial)
    if len(matrices) != 1 or k > MAX_PERMUTED_STATES or any(p <= 0 for p in initial):
        return None
    p, pi = matrices[0], initial
    if any(sum((pi[i] * p[i][j] for i in range(k)), Fraction(0)) != pi[j] for j in range(k)):
        return None
    for sigma in itertools.permutations(range(k)):
        if any(pi[sigma[i]] != pi[i] for i in range(k)):
            continue
        if all(
            pi[sigma[j]] * p[sigma[j]][sigma[i]] == pi[i] * p[i][j]
            for i in range(k)
            for j in range(k)
        ):
            return sigma
    return None


def relabellings(
    model: CountModel, assignment: dict[str, Fraction]
) -> dict[Fraction, tuple[int, ...]]:
    """The values ``a`` of a chain whose law is bin 0's with its bins permuted.

    **The relabelling lemma.** Let ``sigma`` be a permutation of the states with
    ``sigma(0) = a``. When the chain's initial law and every transition matrix are
    invariant under ``sigma`` (``pi(sigma i) = pi(i)``, ``P(sigma i, sigma j) = P(i, j)``)
    and ``sigma`` fixes the state of every known record, the sequence ``sigma(x)`` has the
    law of ``x`` and the same known records; ``x_i = 0`` exactly when ``sigma(x)_i = a``,
    and the histogram of ``sigma(x)`` is ``n`` with ``m_{sigma(s)} = n_s``. So the law of
    ``n`` given ``x_i = a, x_K`` is the law given ``x_i = 0, x_K`` with its counts
    permuted by ``perm = sigma^{-1}`` (``m_c = n_{perm[c]}``), and its mixture is
    ``G_a(y) = G_0(z)`` with ``z_{perm[c]} = y_c``. The transposition ``(0 a)`` is tried
    first, then (for a few states) every permutation
    (:func:`automorphism_perms`): a circulant chain has the
    rotations.

    Args:
        model: a count model (only Markov chains have relabellings here).
        assignment: the known records' values.

    Returns:
        ``{a: perm}`` with ``perm = sigma^{-1}`` (a tuple of bin indices; the
        transposition of bins ``0`` and ``a`` when that is a symmetry); empty for other
        models or no symmetry.

    References:
        Song, Wang, Chaudhuri (2017), Section 6 (symmetric activity chains: stay with
        ``p``, else move uniformly, are invariant under every relabelling of states).

    Examples:
        >>> import pdpsym as ps
        >>> rows = [["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/4", "1/4", "1/2"]]
        >>> chain = ps.MarkovChain(["0", "1", "2"], 4, "stationary", rows)
        >>> sorted(relabellings(chain, {}).values())
        [(1, 0, 2), (2, 1, 0)]
        >>> relabellings(chain, {"x2": Fraction(1)})
        {Fraction(2, 1): (2, 1, 0)}
    """
    markov = chain_of(model)
    if markov is None or network_of(model) is not None:
        return {}
    fixed = {markov.states.index(Fraction(v)) for v in assignment.values()}
    perms = automorphism_perms(markov.initial_law, markov.matrices, fixed)
    return {markov.states[a]: perm for a, perm in perms.items()}


def law_perms(
    model: CountModel, assignment: dict[str, Fraction], laws: dict[Fraction, Any]
) -> list[tuple[int, ...] | None] | None:
    """The ``perms`` argument of :func:`pdpsym.loss.histogram_grid.grid_sup` for one
    target's laws from :func:`histogram_laws` (None when bin 0's law is absent).

    Args:
        model: the model of the laws.
        assignment: the known records' values.
        laws: ``{value: law}`` in the model's value order.

    Returns:
        Per law, the transposition that maps the first law onto it, or None.

    References:
        The relabelling lemma (:func:`relabellings`).
    """
    markov = chain_of(model)
    if markov is None or not laws or next(iter(laws)) != markov.states[0]:
        return None
    moves = relabellings(model, assignment)
    return [moves.get(v) for v in laws] if moves else None


def law_symmetric(model: CountModel, assignment: dict[str, Fraction]) -> bool:
    """Whether the screen may read the sorted outputs only: a chain invariant under every
    relabelling of its states, with no known record (the orbit lemma of
    :mod:`pdpsym.loss.histogram_orbits`).

    Args:
        model: the model of the laws.
        assignment: the known records' values.

    Returns:
        True for such a chain.

    References:
        The orbit lemma of :mod:`pdpsym.loss.histogram_orbits`.
    """
    markov = chain_of(model)
    if markov is None or network_of(model) is not None or assignment:
        return False
    return histogram_orbits.fully_symmetric(markov.initial_law, markov.matrices)


def reversible(model: CountModel) -> bool:
    """Whether the model is a chain whose targets ``t`` and ``T + 1 - t`` leak alike (no
    known records; reversible, or reversed up to a relabelling of its states).

    Args:
        model: a count model (only Markov chains are reversible here).

    Returns:
        True for such a chain of at most ``10^5`` records (a longer one is not checked:
        the check lists every record).

    References:
        Kelly, Reversibility and Stochastic Networks (1979), Section 1.2; the reversal
        lemma of this module.
    """
    markov = chain_of(model)
    if markov is None or network_of(model) is not None:
        return False
    if markov.length > 10**5:
        # the check lists T rows; so long a chain is priced without the mirrors (2x more)
        return False
    row = tuple(range(markov.k))
    chain = chain_all_targets.CountChain(
        markov.initial_law, markov.matrices, (row,) * markov.length, {}
    )
    return shortcuts.reversal_symmetric(chain) or (
        reversal_relabelling(markov.initial_law, markov.matrices) is not None
    )


def mirrored_targets(
    model: CountModel, targets: Sequence[str], assignment: dict[str, Fraction]
) -> dict[str, str]:
    """Targets whose leakage equals their mirror's (``x_t`` and ``x_{T+1-t}`` of a
    reversal-symmetric chain, :func:`pdpsym.loss.shortcuts.reversal_symmetric`: the
    histogram does not depend on the order of the records; or, with no known record, of
    a chain reversed up to a relabelling of its states,
    :func:`reversal_relabelling`), mapped to that mirror.

    Args:
        model: a count model (only Markov chains have mirrors here).
        targets: the target records.
        assignment: the known records' values.

    Returns:
        ``{target: its mirror}`` for the targets whose mirror is among ``targets``.

    References:
        Kelly (1979), Section 1.2; the reversal lemma of this module.
    """
    markov = chain_of(model)
    if markov is None:
        return {}
    fixed = {markov.index(n): markov.states.index(Fraction(v)) for n, v in assignment.items()}
    row = tuple(range(markov.k))  # every record alike: the histogram counts each once
    chain = chain_all_targets.CountChain(
        markov.initial_law, markov.matrices, (row,) * markov.length, fixed
    )
    if not shortcuts.reversal_symmetric(chain) and (
        assignment or reversal_relabelling(markov.initial_law, markov.matrices) is None
    ):
        return {}
    pos = {name: markov.index(name) for name in targets}
    names = {p: name for name, p in pos.items()}
    out = {}
    for name, p in pos.items():
        rep = names.get(shortcuts.mirror(chain, p, True))
        if rep is not None and rep != name:
            out[name] = rep
    return out


__all__ = [
    "MAX_PERMUTED_STATES",
    "automorphism_perms",
    "law_perms",
    "law_symmetric",
    "mirrored_targets",
    "relabellings",
    "reversal_relabelling",
    "reversible",
]

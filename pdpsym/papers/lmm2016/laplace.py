"""The Laplace mechanism under dependent differential privacy, and Theorem 7's baseline.

``A(D) = Q(D) + Lap(b)`` for a real query Q given on every database of the product of the
domains of a :class:`~pdpsym.models.joint.JointDistribution` ``theta`` (the relationship
R). Under the neighbour readings of Definition 4
(:class:`~pdpsym.models.neighbours.DDPNeighbours`) the sup over outputs of the
log-ratio is ``|Q(D) - Q(D')| / b`` exactly; under ``CONDITIONAL`` it is the sup of a
log-ratio of two Laplace mixtures
(:func:`pdpsym.loss.laplace_mixture.laplace_mixture_sup`), decided exactly.

Theorem 7 (Sec. VI-A): the baseline ``A(D) = Q(D) + Lap(L * Delta Q / eps)``, with
``Delta Q`` the global sensitivity over one-tuple changes, is eps-DDP.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from pdpsym.core.errors import InputError
from pdpsym.core.exp_polynomials import LogRatio
from pdpsym.loss.laplace_mixture import MixtureCandidate, decided_sup, mixture_candidates
from pdpsym.models import neighbours as nbr
from pdpsym.models.joint import JointDistribution
from pdpsym.papers.lmm2016.dependence import exp_of
from pdpsym.papers.lmm2016.mechanism import database_str


@dataclass(frozen=True, eq=False)
class LaplaceMechanism:
    """A(D) = Q(D) + Lap(b) for a real query Q given on every database."""

    query: Mapping[nbr.Database, Fraction]
    b: Fraction

    def __post_init__(self) -> None:
        if self.b <= 0:
            raise InputError("b", "Laplace scale must be > 0")


def global_sensitivity(
    query: Mapping[nbr.Database, Fraction], theta: JointDistribution
) -> Fraction:
    """Delta Q = max |Q(D) - Q(D')| over D, D' differing in exactly one tuple.

    Args:
        query: the value of Q on every database of the product domain.
        theta: the joint law of the tuples (its domains give the databases).

    Returns:
        Delta Q, an exact Fraction.

    References:
        Liu et al. (2016), Section VI-A, Theorem 7 (the global sensitivity Delta Q).
    """
    best = Fraction(0)
    for d in nbr.databases(theta):
        for k in range(theta.n):
            for v in theta.domains[k]:
                if v != d[k]:
                    e = d[:k] + (v,) + d[k + 1 :]
                    best = max(best, abs(query[d] - query[e]))
    return best


def baseline_mechanism(
    query: Mapping[nbr.Database, Fraction],
    theta: JointDistribution,
    eps: Fraction,
    dependence: nbr.DependenceReading = nbr.DependenceReading.JOINT,
    size: int | None = None,
) -> LaplaceMechanism:
    """Theorem 7's mechanism Q(D) + Lap(L * Delta Q / eps); ``size`` = L if known.

    Args:
        query: the value of Q on every database of the product domain.
        theta: the joint law of the tuples (the relationship R).
        eps: the target eps, > 0.
        dependence: how the dependence size L is read (when ``size`` is None).
        size: L, if already known.

    Returns:
        The :class:`LaplaceMechanism` with the exact scale ``L * Delta Q / eps``.

    Raises:
        InputError: ``eps <= 0``, or the query is constant (Delta Q = 0).

    References:
        Liu et al. (2016), Section VI-A, Theorem 7 (the baseline approach).
    """
    if eps <= 0:
        raise InputError("eps", "must be > 0")
    dq = global_sensitivity(query, theta)
    if dq == 0:
        raise InputError("query", "constant query: sensitivity 0, no noise is needed")
    big_l = nbr.dependence_size(theta, dependence) if size is None else size
    return LaplaceMechanism(dict(query), big_l * dq / eps)


def laplace_ddp_epsilon(
    mech: LaplaceMechanism,
    theta: JointDistribution,
    neighbours: nbr.DDPNeighbours = nbr.DEFINITION4,
) -> tuple[LogRatio, dict[str, str]]:
    """The exact sup over outputs and pairs of the log probability ratio, as a LogRatio.

    Under the neighbour readings it is ``max |Q(D) - Q(D')| / b`` over dependent
    neighbours; under the conditional reading, the sup of a log-ratio of two Laplace
    mixtures, decided exactly.

    Args:
        mech: the Laplace mechanism ``Q(D) + Lap(b)``.
        theta: the joint law of the tuples (the relationship R).
        neighbours: what Definition 4 compares: its reading and the dependence sets
            (:class:`~pdpsym.models.neighbours.DDPNeighbours`).

    Returns:
        ``(eps, witness)``: eps as an exact :class:`~pdpsym.core.exp_polynomials.LogRatio` and
        where it is reached.

    References:
        Liu et al. (2016), Section V, Definition 4; Section VI-B, Eq. 11-12.
    """
    q, b = mech.query, mech.b
    if neighbours.reading is not nbr.DDPReading.CONDITIONAL:
        best = Fraction(0)
        witness: dict[str, str] = {}
        for i, d, e in neighbours.pairs(theta):
            v = abs(q[d] - q[e]) / b
            if v > best:
                best, witness = v, {"tuple": i, "D": database_str(d), "D'": database_str(e)}
        return exp_of(best), witness
    cands: list[MixtureCandidate] = []
    where: list[dict[str, str]] = []
    for k, name in enumerate(theta.variables):
        weights: dict[Fraction, dict[Fraction, Fraction]] = {}
        for d, p in theta.probs.items():
            w = weights.setdefault(d[k], {})
            w[q[d]] = w.get(q[d], Fraction(0)) + p
        for v1, v2 in itertools.permutations(sorted(weights), 2):
            z1, z2 = sum(weights[v1].values()), sum(weights[v2].values())
            w1 = {s: p / z1 for s, p in weights[v1].items()}
            w2 = {s: p / z2 for s, p in weights[v2].items()}
            for c in mixture_candidates(w1, w2, b):
                cands.append(c)
                where.append({"tuple": name, "d1": str(v1), "d2": str(v2), "output": c.where})
    if not cands:  # every tuple constant: nothing to distinguish
        return exp_of(Fraction(0)), {}
    top, idx = decided_sup(cands)
    return top, where[idx]


def laplace_satisfies(
    mech: LaplaceMechanism,
    theta: JointDistribution,
    eps: Fraction,
    neighbours: nbr.DDPNeighbours = nbr.DEFINITION4,
) -> bool:
    """Whether the Laplace mechanism is eps-DDP in the reading, decided exactly.

    Args:
        mech: the Laplace mechanism ``Q(D) + Lap(b)``.
        theta: the joint law of the tuples (the relationship R).
        eps: the eps to check, an exact rational.
        neighbours: what Definition 4 compares: its reading and the dependence sets
            (:class:`~pdpsym.models.neighbours.DDPNeighbours`).

    Returns:
        True iff the exact eps of the mechanism is at most ``eps``.

    References:
        Liu et al. (2016), Section V, Definition 4 (eps-dependent DP).
    """
    lr, _ = laplace_ddp_epsilon(mech, theta, neighbours)
    return lr.exact_compare(exp_of(eps)) <= 0

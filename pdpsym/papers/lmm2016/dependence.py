"""Dependence size L and dependence coefficient rho_ij (Liu, Chakraborty, Mittal, Sec. V-VI).

**Dependence size** (Sec. V, before Definition 3). "Any tuple in D is dependent on at most
L - 1 other tuples." The fragment does not say what "dependent on" means for a joint
distribution, so the reading is a parameter
(:class:`~pdpsym.models.neighbours.DependenceReading`, with the dependence sets):

* ``JOINT`` (default, the reading Definition 3 needs): the dependence set ``N_i`` of
  tuple ``i`` is a smallest set containing ``i`` such that ``D_i`` is independent of the
  *vector* of all tuples outside ``N_i``; changing ``D_i`` then changes the law of no
  tuple outside ``N_i`` (Definition 3: "causes change in at most L - 1 other tuple
  values").
* ``PAIRWISE`` (the literal words): ``N_i`` is ``i`` together with every ``k`` such that
  ``D_i`` and ``D_k`` are not independent as a pair.

``L = max_i |N_i|``. Both are computed exactly on a
:class:`~pdpsym.models.joint.JointDistribution`.

**Dependence coefficient** (Sec. VI-B, Eq. 14, lost in the fragment after "we define the
dependence coefficient rho_ij as"; rebuilt from the surviving line that follows it,
``exp(rho_ij Delta D_j / sigma(eps)) = max_{d_i1, d_i2}`` of the second term of Eq. 12):

    rho_ij = sigma/Delta D_j * ln max_{d_i1, d_i2} M(d_i1, d_i2, r),
    M = sum_dj P(D_j=dj | D_i=d_i1) f(r - dj) / sum_dj P(D_j=dj | D_i=d_i2) f(r - dj),

with ``f`` the Laplace density of scale ``sigma`` added to ``D_j`` and ``r`` the noisy
output of ``D_j``; ``Delta D_j`` is the largest change of ``D_j`` (diameter of its support).
Where ``r`` is quantified is lost: :class:`OutputReading` ``SUP`` takes the max over all
outputs ``r`` too (one number, the reading the mechanism needs), ``PER_OUTPUT`` keeps
``rho_ij(r)`` as a function of ``r``. Each ``M`` is a ratio of exponential polynomials
at rational ``r``; as a function of ``r`` it is a Mobius map of ``e^{2r/sigma}`` between
consecutive support points, so its sup is attained at a support point or in a tail
(``r -> +-inf``), which :func:`pdpsym.loss.laplace_mixture.laplace_mixture_sup`
evaluates exactly.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from pdpsym.core.errors import InputError
from pdpsym.core.exp_polynomials import LogRatio, ScaledLog
from pdpsym.loss.laplace_mixture import MixtureCandidate, decided_sup, mixture_candidates
from pdpsym.models.joint import JointDistribution


class OutputReading(Enum):
    """Where the noisy output r of D_j is quantified in Eq. 14."""

    SUP = "sup"
    PER_OUTPUT = "per-output"


def exp_of(a: Fraction) -> LogRatio:
    """``ln(e^a / 1) = a`` as a LogRatio, to compare LogRatios with a rational exactly.

    Args:
        a: the exact rational exponent.

    Returns:
        The exact :class:`~pdpsym.core.exp_polynomials.LogRatio` whose value is ``a``.

    References:
        Liu et al. (2016), Section V, Definition 4 (the bound exp(eps) on the ratio).
    """
    return LogRatio.of_rational(a)


# --- the dependence coefficient ------------------------------------------------------


@dataclass(frozen=True)
class Rho(ScaledLog):
    """rho = factor * ln(ratio) exactly (factor = sigma/Delta D_j); ``ratio`` None means 0.

    ``sympy``, ``arb`` and ``compare_rational`` (the sign of rho - q) come from
    :class:`~pdpsym.core.exp_polynomials.ScaledLog`.
    """

    factor: Fraction
    ratio: LogRatio | None
    witness: dict[str, str]

    def scaled_log(self) -> LogRatio | None:
        """The log-ratio whose logarithm, times ``factor``, is rho (None means rho = 0)."""
        return self.ratio


def _conditional_weights(
    theta: JointDistribution, i: str, j: str
) -> dict[Fraction, dict[Fraction, Fraction]]:
    """d_i -> (d_j -> P(D_j = d_j | D_i = d_i)) over the support of D_i."""
    pair = theta.marginal([i, j]).probs
    pi: dict[Fraction, Fraction] = {}
    for (di, _), p in pair.items():
        pi[di] = pi.get(di, Fraction(0)) + p
    out: dict[Fraction, dict[Fraction, Fraction]] = {di: {} for di in sorted(pi)}
    for (di, dj), p in pair.items():
        out[di][dj] = out[di].get(dj, Fraction(0)) + p / pi[di]
    return out


def delta_support(theta: JointDistribution, j: str) -> Fraction:
    """Delta D_j: the largest change of D_j, the diameter of its support.

    Args:
        theta: the joint law of the tuples.
        j: the name of tuple j.

    Returns:
        max - min of the support of D_j, an exact Fraction (0 when D_j is constant).

    References:
        Liu et al. (2016), Section VI-B (Delta D_j, the maximal difference due to a change
        of D_j, after Eq. 13).
    """
    vals = [v[0] for v in theta.marginal([j]).probs]
    return max(vals) - min(vals)


def dependence_coefficient(
    theta: JointDistribution,
    i: str,
    j: str,
    sigma: Fraction,
    output: Fraction | None = None,
) -> Rho:
    """rho_ij (Eq. 14 rebuilt): OutputReading.SUP if ``output`` is None, else rho_ij(output).

    The formula of Eq. 14 is lost in the text; it is rebuilt from the line that follows it,
    ``exp(rho_ij Delta D_j / sigma) = max_{d_i1, d_i2}`` of the second term of Eq. 12 (see the
    module docstring). Degenerate cases (D_j constant, so Delta D_j = 0, or D_i constant)
    give rho = 0: the second term of Eq. 12 is then identically 1.

    Args:
        theta: the joint law of the tuples (the relationship R).
        i: the name of the modified tuple D_i.
        j: the name of the dependent tuple D_j, different from ``i``.
        sigma: the scale of the Laplace noise added to D_j, > 0.
        output: None for the sup over all noisy outputs r of D_j; a rational r for
            rho_ij(r) at that output.

    Returns:
        The exact :class:`Rho` (``factor * ln ratio``, with the maximizing d_i1, d_i2 and
        output as its witness); ``sympy()`` and ``arb()`` give it exactly and as a
        certified enclosure.

    Raises:
        InputError: ``i == j``, an unknown tuple name, or ``sigma <= 0``.

    References:
        Liu et al. (2016), Section VI-B, Eq. 12 (second term) and Eq. 14 (the dependence
        coefficient rho_ij).
    """
    if i == j:
        raise InputError("j", "rho_ij needs two different tuples")
    theta.index(i, "i")
    theta.index(j, "j")
    sigma = Fraction(sigma)
    if sigma <= 0:
        raise InputError("sigma", "noise scale must be > 0")
    delta = delta_support(theta, j)
    cond = _conditional_weights(theta, i, j)
    if delta == 0 or len(cond) < 2:
        return Rho(Fraction(0), None, {"degenerate": "D_j or D_i is constant"})
    factor = sigma / delta
    cands: list[MixtureCandidate] = []
    where: list[dict[str, str]] = []
    for d1, d2 in itertools.permutations(cond, 2):
        if output is None:
            pair = mixture_candidates(cond[d1], cond[d2], sigma)
        else:
            pair = [MixtureCandidate(cond[d1], cond[d2], sigma, Fraction(output))]
        cands += pair
        where += [{"d_i1": str(d1), "d_i2": str(d2), "output": c.where} for c in pair]
    best, idx = decided_sup(cands)
    return Rho(factor, best, where[idx])


__all__ = [
    "OutputReading",
    "Rho",
    "delta_support",
    "dependence_coefficient",
    "exp_of",
]

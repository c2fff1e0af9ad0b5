"""Li et al.: one function per labelled result whose engine has another name.

Each is a thin, named entry point to the engine that computes the result, so that
``LABELS["Theorem 5"]`` is a function called ``theorem5_...``; see each engine's module
for the mathematics.

References:
    Li, Ren, Yang, Yang, "Impact of Prior Knowledge and Data Correlation on Privacy
    Leakage: A Unified Analysis", Sections IV-VI.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.core.exp_polynomials import LogRatio
from pdpsym.loss import gaussian
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.gaussian import GaussianModel
from pdpsym.models.joint import JointDistribution
from pdpsym.papers.li2019 import edges, gaussian_density, whg


def theorem3_increment_ratio(
    d: LogRatio, model: JointDistribution, j: str, lam: Fraction, query: LinearQuery
) -> edges.IncrementRatio | None:
    """Theorem 3: the increment ratio ``q = λ d_j / Δ_j`` of an edge (Eq. 13).

    Args:
        d: the edge's increment ``d_j`` (a leakage difference).
        model: the joint distribution.
        j: the tuple the edge adds.
        lam: the Laplace scale λ.
        query: the linear query (its weights give ``Δ_j``).

    Returns:
        q, or None when ``Δ_j = 0``.

    References:
        Section V, Theorem 3, Eq. 12-13.
    """
    return edges.increment_ratio(d, model, j, lam, query)


def theorem5_whg(
    model: JointDistribution,
    lam: Fraction | int = 1,
    query: LinearQuery | None = None,
    **options: Any,
) -> Any:
    """Theorem 5: the WHG of a distribution, node values by the chain rule (Eq. 14).

    Args:
        model: the joint distribution.
        lam: the Laplace scale λ.
        query: the linear query (default: the sum).
        **options: the keyword options of
            :func:`pdpsym.papers.li2019.whg.whg_from_distribution` (``reading``,
            ``fast_k``, ``with_exact``, ``with_paths``, ``bottom``, ``progress``).

    Returns:
        The WHG with every node's chain value.

    References:
        Section V, Theorem 5, Eq. 14.
    """
    return whg.whg_from_distribution(model, lam, query, **options)


def corollary1_layer_max(source: Any) -> list[Any]:
    """Corollary 1: the largest node value of each layer (where the maximum sits).

    Args:
        source: a WHG given by its edge values (an edge source).

    Returns:
        The max of each layer, layer 1 (the strongest adversaries) first.

    References:
        Section V, Corollary 1.
    """
    return list(whg.full_search(source).layer_max())


def lemma1_condition(model: GaussianModel, given: Sequence[int]) -> gaussian.Conditional:
    """Lemma 1: the conditional law of the unknowns given ``x_A`` (Schur complement).

    Args:
        model: the Gaussian model.
        given: the positions ``A`` of the given tuples.

    Returns:
        The conditional mean gain and covariance.

    References:
        Section VI, Lemma 1.
    """
    return gaussian.condition(model, given)


def lemma2_convolution_density(r: Any, m: Any, s2: Fraction | sympy.Expr, lam: Any) -> sympy.Expr:
    """Lemma 2: the Laplace-Gaussian convolution density.

    Args:
        r: the output at which the density is taken.
        m: the mean of the Gaussian ``f``.
        s2: its variance.
        lam: the Laplace scale λ.

    Returns:
        The density as a sympy expression.

    References:
        Section VI, Lemma 2.
    """
    return gaussian_density.convolution_density(r, m, s2, lam)


def corollary2_coefficients(
    model: GaussianModel, given: Sequence[int], w: Sequence[Fraction]
) -> tuple[list[Fraction], Fraction]:
    """Corollary 2: the regression coefficients ``σ_ij / σ_ii`` (K = ∅).

    Args:
        model: the Gaussian model.
        given: the positions of the given tuples.
        w: the query's weights.

    Returns:
        The coefficients of ``E[f | x_A]`` and the conditional variance.

    References:
        Section VI, Corollary 2.
    """
    return gaussian.regression_coefficients(model, given, w)

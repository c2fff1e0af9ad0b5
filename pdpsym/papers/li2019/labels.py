"""Li et al.: one function per labelled result whose engine has another name.

Each is a thin, named entry point to the engine that computes the result, so that
``LABELS["Theorem 5"]`` is a function called ``theorem5_...``; see each engine's module
for the mathematics.

References:
    Li, Ren, Yang, Yang, "Impact of Prior Knowledge and Data Correlation on Privacy
    Leakage: A Unified Analysis", Sections IV-VI.
"""

from __future__ import annotations

from typing import Any

from pdpsym.papers.li2019 import edges, gaussian, gaussian_density, whg


def theorem3_increment_ratio(*args: Any, **kwargs: Any) -> Any:
    """Theorem 3: the increment ratio ``q = λ d_j / Δ_j`` of an edge (Eq. 13).

    Args:
        *args: as :func:`pdpsym.papers.li2019.edges.increment_ratio`.
        **kwargs: as :func:`pdpsym.papers.li2019.edges.increment_ratio`.

    Returns:
        q, or None when ``Δ_j = 0``.

    References:
        Section V, Theorem 3, Eq. 12-13.
    """
    return edges.increment_ratio(*args, **kwargs)


def theorem5_whg(*args: Any, **kwargs: Any) -> Any:
    """Theorem 5: the WHG of a distribution, node values by the chain rule (Eq. 14).

    Args:
        *args: as :func:`pdpsym.papers.li2019.whg.whg_from_distribution`.
        **kwargs: as :func:`pdpsym.papers.li2019.whg.whg_from_distribution`.

    Returns:
        The WHG with every node's chain value.

    References:
        Section V, Theorem 5, Eq. 14.
    """
    return whg.whg_from_distribution(*args, **kwargs)


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


def lemma1_condition(*args: Any, **kwargs: Any) -> Any:
    """Lemma 1: the conditional law of the unknowns given ``x_A`` (Schur complement).

    Args:
        *args: as :func:`pdpsym.papers.li2019.gaussian.condition`.
        **kwargs: as :func:`pdpsym.papers.li2019.gaussian.condition`.

    Returns:
        The conditional mean gain and covariance.

    References:
        Section VI, Lemma 1.
    """
    return gaussian.condition(*args, **kwargs)


def lemma2_convolution_density(*args: Any, **kwargs: Any) -> Any:
    """Lemma 2: the Laplace-Gaussian convolution density.

    Args:
        *args: as :func:`pdpsym.papers.li2019.gaussian_density.convolution_density`.
        **kwargs: as :func:`pdpsym.papers.li2019.gaussian_density.convolution_density`.

    Returns:
        The density as a sympy expression.

    References:
        Section VI, Lemma 2.
    """
    return gaussian_density.convolution_density(*args, **kwargs)


def corollary2_coefficients(*args: Any, **kwargs: Any) -> Any:
    """Corollary 2: the regression coefficients ``σ_ij / σ_ii`` (K = ∅).

    Args:
        *args: as :func:`pdpsym.papers.li2019.gaussian.regression_coefficients`.
        **kwargs: as :func:`pdpsym.papers.li2019.gaussian.regression_coefficients`.

    Returns:
        The coefficients.

    References:
        Section VI, Corollary 2.
    """
    return gaussian.regression_coefficients(*args, **kwargs)

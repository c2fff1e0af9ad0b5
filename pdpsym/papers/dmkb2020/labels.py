"""Desfontaines et al.: one function per labelled result that has no engine of its own name.

Each is a thin, named entry point to the engine that computes the result's quantity, so
that ``LABELS["Proposition 4"]`` is a function called ``prop4_...``. The engines do the
work; see each one's module for the mathematics.

References:
    Desfontaines, Mohammadi, Krahmer, Basin (2020), "Differential privacy with partial
    knowledge", Sections 2-5.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from pdpsym.core.eps import Eps
from pdpsym.loss import KAnonymityLoss, LossPoint, ThresholdingLoss, plrv
from pdpsym.papers.dmkb2020 import composition, definitions, reducibility


def prop1_cdp_ibcdp_ratios(scenario: Any, mech: Any) -> tuple[Any, Any]:
    """Proposition 1: the smallest ``e^ε`` of CDP and of IBCDP (each within a factor 2 in ε).

    Args:
        scenario: the finite scenario (θ and the partial knowledge).
        mech: the mechanism.

    Returns:
        ``(e^ε_CDP, e^ε_IBCDP)``, None for ∞.

    References:
        Section 2.2, Proposition 1, Definitions 5 and 6.
    """
    return definitions.cdp_ratio(scenario, mech), definitions.cdp_ratio(
        scenario, mech, inference_based=True
    )


def prop3_np_ratio(scenario: Any, mech: Any) -> Any:
    """Proposition 3: the smallest NP ``e^ε`` (it can only fall with less background knowledge).

    Args:
        scenario: the finite scenario.
        mech: the mechanism.

    Returns:
        The smallest ``e^ε`` of ``({θ}, ε)``-NP, None for ∞.

    References:
        Section 2.3, Proposition 3, Definition 3.
    """
    return definitions.np_ratio(scenario, mech)


def prop4_np_cdp_ratios(scenario: Any, mech: Any) -> tuple[Any, Any]:
    """Proposition 4: the smallest NP and CDP ``e^ε`` (equal for acceptable Θ as printed).

    Args:
        scenario: the finite scenario.
        mech: the mechanism.

    Returns:
        ``(e^ε_NP, e^ε_CDP)``, None for ∞.

    References:
        Section 2.3, Proposition 4.
    """
    return definitions.np_ratio(scenario, mech), definitions.cdp_ratio(scenario, mech)


def prop5_ppkdp_delta(*args: Any, **kwargs: Any) -> Any:
    """Proposition 5: the PPKDP δ, closed under post-processing and convex combination.

    Args:
        *args: as :func:`pdpsym.loss.plrv.ppkdp_delta`.
        **kwargs: as :func:`pdpsym.loss.plrv.ppkdp_delta`.

    Returns:
        The smallest δ of PPKDP at the given ε.

    References:
        Section 3.3, Proposition 5, Definition 13.
    """
    return plrv.ppkdp_delta(*args, **kwargs)


def lemma1_plrv_expectation(*args: Any, **kwargs: Any) -> Any:
    """Lemma 1: δ as the expectation of ``max(0, 1 - e^{ε - L})``.

    Args:
        *args: as :func:`pdpsym.loss.plrv.plrv_expectation`.
        **kwargs: as :func:`pdpsym.loss.plrv.plrv_expectation`.

    Returns:
        The expectation.

    References:
        Section 3.1, Lemma 1 ([MM18, Lemma 1]).
    """
    return plrv.plrv_expectation(*args, **kwargs)


def theorem1_apk_ppk_deltas(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
    """Theorem 1: the quantities APKDP and PPKDP bound (APK is the expectation of PPK over B̂).

    Args:
        *args: as :func:`pdpsym.loss.plrv.apkdp_delta`.
        **kwargs: as :func:`pdpsym.loss.plrv.apkdp_delta`.

    Returns:
        ``(δ_APKDP, δ_PPKDP)``.

    References:
        Section 3.4, Theorem 1, Definitions 12 and 13.
    """
    return plrv.apkdp_delta(*args, **kwargs), plrv.ppkdp_delta(*args, **kwargs)


def theorem2_is_reducible(*args: Any, **kwargs: Any) -> Any:
    """Theorem 2: Θ-reducibility (Definition 14), under which APKDP ⇔ PPKDP.

    Args:
        *args: as :func:`pdpsym.papers.dmkb2020.reducibility.is_reducible`.
        **kwargs: as :func:`pdpsym.papers.dmkb2020.reducibility.is_reducible`.

    Returns:
        Whether the mechanism is Θ-reducible.

    References:
        Section 3.4, Theorem 2, Definition 14.
    """
    return reducibility.is_reducible(*args, **kwargs)


def cor1_histogram_delta(
    n: int, probs: Sequence[Fraction], k: int, k2: int, eps: Eps | Fraction | int | str
) -> LossPoint:
    """Corollary 1: the exact δ of the histogram of independent categorical records.

    Args:
        n: number of records (i.i.d. over values ``0..K-1``).
        probs: the values' probabilities.
        k: the target's value under ``P``.
        k2: the target's value under ``Q``.
        eps: ε.

    Returns:
        The exact δ at ε (:class:`~pdpsym.loss.KAnonymityLoss`).

    References:
        Section 4.1, Corollary 1.
    """
    return KAnonymityLoss.histogram(n, probs, k, k2).delta(eps)


def prop8_ppk_delta(
    n: int, p: Fraction, T: int, known_size: int, eps: Eps | Fraction | int | str
) -> LossPoint:
    """Proposition 8: the thresholding mechanism's PPK δ with ``|B|`` known records.

    Args:
        n: number of records (i.i.d. Bernoulli(p)).
        p: the records' probability.
        T: the threshold.
        known_size: ``|B|``.
        eps: ε.

    Returns:
        The exact δ at ε, worst direction (:class:`~pdpsym.loss.ThresholdingLoss`).

    References:
        Section 4.2, Proposition 8, Definition 13.
    """
    return ThresholdingLoss.homogeneous(n, p, T, known_size).delta(eps)


def prop9_bounded_dependence_nu(*args: Any, **kwargs: Any) -> Any:
    """Proposition 9: ν of (μ, ν)-bounded dependence (Definition 18).

    Args:
        *args: as :func:`pdpsym.papers.dmkb2020.composition.bounded_dependence_nu`.
        **kwargs: as :func:`pdpsym.papers.dmkb2020.composition.bounded_dependence_nu`.

    Returns:
        ``(ν, witness)``.

    References:
        Section 5.1, Proposition 9, Definitions 17 and 18.
    """
    return composition.bounded_dependence_nu(*args, **kwargs)

"""Eq. 2 for every target of a large Bayesian network from float64 count laws with a
proven error (:mod:`pdpsym.models.bayesnet_float_jtree`), certified.

Each law ``J_{t,a}`` comes as float coefficients ``c'_s = c_s (1 + theta_s)``,
``|theta_s| <= g`` (``g = gamma_kappa``, Higham's bound). Eq. 2 compares, at each output
``r``, the mixtures ``m_a(r) = sum_s c_s k(r, s) / sum_s c_s`` with a positive kernel
``k``: every term is non-negative, so the numerator and the denominator each move by a
factor in ``[1/(1 + g), 1/(1 - g)]`` and ``|ln m_a(r) - ln m'_a(r)| <= rho =
ln((1 + g)/(1 - g))``. The log-ratio of two mixtures moves by at most ``2 rho`` at every
``r``, so its sup and the max over pairs do too. The float coefficients are exact
dyadic rationals: Eq. 2 is enclosed for them by the certified engine (balls), and the
enclosure is widened by ``2 rho``. The floats thus decide nothing by themselves; they
are one more exactly accounted error, like the balls' radii.

References:
    Li et al. (2019), Sec. IV-A, Eq. 2; Higham, Accuracy and Stability of Numerical
    Algorithms (2002), Lemma 3.1 and Sec. 3.3.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from pdpsym.models import bayesnet_float_jtree

#: one target's certified enclosure ``(lo, hi, exact form)`` or None (fewer than two
#: compatible values)
Result = tuple[Fraction, Fraction, Any] | None


def float_results(
    laws: Iterable[tuple[str, dict[Any, tuple[Any, ...]], int]],
    enclose: Callable[[dict[Any, tuple[Any, ...]]], Result],
) -> dict[str, Result]:
    """Every target's Eq. 2 enclosure from float laws with a proven error (module
    docstring), or ``{}`` when the floats could underflow or overflow (the exact engine
    decides then).

    Args:
        laws: ``(target, {value: (J,)}, kappa)`` from
            :func:`pdpsym.models.bayesnet_float_jtree.network_float_laws`.
        enclose: the certified enclosure of Eq. 2 for exact laws (``target_enclosure``
            with the mechanism bound in).

    Returns:
        ``{target: (lo, hi, None) or None}``; the lower end stops at 0 (a leakage is
        non-negative: two densities of mass one have a ratio reaching 1).

    References:
        Li et al. (2019), Eq. 2; Higham (2002), Lemma 3.1.
    """
    out: dict[str, Result] = {}
    try:
        for name, values, kappa in laws:
            res = enclose(values)
            rho = 2 * bayesnet_float_jtree.log_ratio_bound(kappa)
            out[name] = (
                None if res is None else (max(res[0] - rho, Fraction(0)), res[1] + rho, None)
            )
    except bayesnet_float_jtree.FloatRange:
        return {}
    return out


__all__ = ["Result", "float_results"]

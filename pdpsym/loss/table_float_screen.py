"""Float screens of Eq. 2 on a joint table: which candidates floats may rank.

:func:`pdpsym.loss.table_leakage.table_leakage` decides Li et al.'s Eq. 2 over every
candidate ``(a, b, k, r)`` (two target values, a value of the known records, an output)
exactly, but only after floats have ranked them: a candidate is compared exactly only
when its float is within a certified margin of the best. Three screens, by the scale
``sigma = 1/(D lambda)`` of the exponent:

* :func:`plain_screen`: the log-sum-exp of every conditional density in float64, for
  every scale floats can represent;
* :func:`dominant_screen`: a tiny scale (``sigma >= 10^16``), where every float of the
  plain screen would lose the part that ranks near-ties: the leading exponent is decided
  in integers and the rest ranked by dominant terms;
* :func:`small_scale_screen`: a huge scale (``sigma < 10^-9``), where every value is
  within the plain margin of 0: the first-order term (the difference of mean distances)
  is ranked with its certified error.

Every screen takes one adversary's tables, in the scaled integer units of the query
(``D f`` is an integer): ``C[a, k, s] = D_theta P(x_i = a, x_K = k, f_U = S[s])`` (integer
counts), ``base[a, k]`` the target's and the known records' part of ``D f``, ``S`` the
values of ``D f_U``, ``R`` the candidate outputs ``D r``, ``Dlam = D lambda`` and
``P[a, k] = sum_s C[a, k, s]``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from pdpsym.core.compare import float_array, screenable_float
from pdpsym.loss.laplace_mixture import log_mixture_floats


def plain_screen(
    C: np.ndarray, base: np.ndarray, S: np.ndarray, R: np.ndarray, Dlam: Fraction, P: np.ndarray
) -> tuple[np.ndarray, float] | None:
    """Float64 values of every candidate ``(a, b, k, r)`` of Eq. 2, and their magnitude.

    Args:
        C, base, S, R, Dlam, P: one adversary's tables (the module docstring).

    Returns:
        ``(ratio, scale)``: ``ratio[a, b, k, r]`` the float of ``ln p(r | a, k) / p(r | b,
        k)``, and the magnitude of the intermediates (see
        :data:`~pdpsym.core.compare.SCREEN_MARGIN`); None when the inputs are out of
        float range, so that no float can rank.

    References:
        Li et al. (2019), Eq. 2; :func:`pdpsym.core.compare.screen_then_decide` decides
        what the floats leave within its margin.
    """
    dlam = screenable_float(Dlam)
    Cf, Pf = float_array(C), float_array(P)
    if dlam is None or Cf is None or Pf is None:
        return None
    # |r - f| in exact integers first: the float of a difference, not a difference of
    # floats (values such as 10^20 + 1 would cancel)
    dist = np.abs(R[None, None, None, :] - (base[:, :, None, None] + S[None, None, :, None]))
    dist_f = float_array(dist)
    if dist_f is None:
        return None
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        expo = -dist_f / dlam
        logC = np.log(Cf)
        logP = np.log(Pf)
        logE = log_mixture_floats(logC[:, :, :, None], expo, axis=2)
        logcond = logE - logP[:, :, None]
        ratio = logcond[:, None, :, :] - logcond[None, :, :, :]
    # magnitudes of the intermediates: |exponent| <= max |r - f| / (D lam), and the logs
    # of the positive counts lie between those of their min and max
    scale = float(dist_f.max(initial=0.0)) / dlam + _log_magnitude(Cf) + _log_magnitude(Pf)
    return ratio, scale


#: 1/(D lambda) from which the dominant-term screen is used: there every float of the
#: plain screen would be ~ A/(D lambda) with the part that ranks near-ties lost below
#: its last bit (2^53 ~ 9e15)
_DOMINANT_SIGMA = Fraction(10**16)


def _distances(C: np.ndarray, base: np.ndarray, S: np.ndarray, R: np.ndarray) -> np.ndarray:
    """``|r - (base + s)|`` for every (a, k, s, r), in exact integers (objects past int64)."""
    itype = object if C.dtype == object or base.dtype == object else np.int64
    return np.abs(
        R.astype(itype)[None, None, None, :]
        - (base.astype(itype)[:, :, None, None] + S.astype(itype)[None, None, :, None])
    )


def dominant_screen(
    C: np.ndarray,
    base: np.ndarray,
    S: np.ndarray,
    R: np.ndarray,
    Dlam: Fraction,
    P: np.ndarray,
    valid: np.ndarray,
) -> tuple[np.ndarray, tuple[np.ndarray, float]] | None:
    """The screen for a tiny scale, in exact integers first: ``(valid', (floats, scale))``.

    With ``sigma = 1/(D lambda)`` and integer distances ``d = |r - f|``, each candidate is
    ``V = A sigma + B`` where ``A = dmin_b - dmin_a`` (the least distances with positive
    count, an integer) and ``B = ln(sum_s C_a e^{-(d_s - dmin_a) sigma} P_b) - ln(the same
    for b, P_a)``. Counts are positive integers, so ``0 <= ln(sum C) <= ln(max sum C)`` and
    ``|B| <= beta = ln(max_ak sum_s C) + ln(max P)``. When ``sigma > 2 beta + 200``:

    * a candidate with a smaller ``A`` is smaller (``V1 - V2 >= sigma - 2 beta > 0``), so
      only the candidates of the largest ``A`` (decided exactly, in integers) stay valid;
    * among them ``B`` is ranked by its dominant terms, ``ln(C_a(dmin_a) P_b) -
      ln(C_b(dmin_b) P_a)``: the other terms change it by at most ``sum C e^{-sigma} <
      e^{-100}``, far below the screening margin.

    Args:
        C, base, S, R, Dlam, P: one adversary's tables (the module docstring).
        valid: the candidates ``(a, b, k, r)`` still in play.

    Returns:
        ``(valid', (floats, scale))``: the candidates of the largest ``A`` and the floats
        of their dominant terms with their magnitude; None when sigma is below the
        threshold (the plain screen applies).

    References:
        Li et al. (2019), Eq. 2; :func:`pdpsym.core.compare.screen_then_decide` decides
        what the floats leave within its margin.
    """
    sigma = 1 / Dlam
    if sigma < _DOMINANT_SIGMA:
        return None
    bits = 2 * int(np.max(P)).bit_length()
    beta = Fraction(7 * bits, 10)  # ln x < 0.7 * bit_length(x); each sum_s C is a P
    if sigma <= 2 * beta + 200:
        return None
    dist = _distances(C, base, S, R)  # (a, k, s, r)
    supp = (C > 0)[:, :, :, None]
    far = int(np.max(dist)) + 1 if dist.size else 1
    dmin = np.where(supp, dist, far).min(axis=2)  # (a, k, r)
    at_min = np.where(supp & (dist == dmin[:, :, None, :]), C[:, :, :, None], 0).sum(axis=2)
    A = dmin[None, :, :, :] - dmin[:, None, :, :]  # (a, b, k, r): dmin_b - dmin_a
    A_top = max(int(x) for x in A[valid])
    top = valid & (A == A_top)
    logs_min, logs_p = float_array(at_min), float_array(P)
    if logs_min is None or logs_p is None:
        return top, (np.zeros(top.shape), math.inf)  # decide the top-A candidates exactly
    # B ~ ln(at_min_a) + ln P_b - ln(at_min_b) - ln P_a (inf - inf only off the valid set)
    with np.errstate(divide="ignore", invalid="ignore"):
        la, lp = np.log(logs_min), np.log(logs_p)
        floats = la[:, None, :, :] + lp[None, :, :, None] - la[None, :, :, :] - lp[:, None, :, None]
    scale = _log_magnitude(logs_min) + _log_magnitude(logs_p)
    return top, (floats, scale)


#: 1/(D lambda) below which the first-order screen is used (there every Eq. 2 value is
#: within the plain screen's margin of 0, so the plain screen ranks nothing)
_SMALL_SIGMA = Fraction(1, 10**9)


def small_scale_screen(
    C: np.ndarray, base: np.ndarray, S: np.ndarray, R: np.ndarray, Dlam: Fraction, P: np.ndarray
) -> tuple[np.ndarray, float, float] | None:
    """The screen for a huge scale: ``(floats, scale, error)`` ranking ``V / sigma``.

    With ``sigma = 1/(D lambda)``, each candidate is ``V = K_a(sigma) - K_b(sigma)`` with
    ``K_a = ln E_a[e^{-d sigma}]`` (``d = |r - f|`` under the law ``C_a / P_a``). A
    cumulant generating function has ``K(0) = 0``, ``K'(0) = -mu`` (the mean distance)
    and ``0 <= K'' <= (d_max)^2 / 4``, so ``V = sigma (mu_b - mu_a) + E`` with
    ``|E| <= sigma^2 d_max^2 / 4``. Ranking ``G = mu_b - mu_a`` in floats with an absolute
    error of ``sigma d_max^2 / 4`` (on ``V / sigma``) is therefore sound.

    Args:
        C, base, S, R, Dlam, P: one adversary's tables (the module docstring).

    Returns:
        ``(floats, scale, error)``: ``G`` per candidate, the magnitude ``d_max`` and the
        absolute error; None above the threshold, or when the tables are out of float
        range.

    References:
        Li et al. (2019), Eq. 2; :func:`pdpsym.core.compare.screen_then_decide` decides
        what the floats leave within its margin.
    """
    sigma = 1 / Dlam
    if sigma >= _SMALL_SIGMA:
        return None
    dist = _distances(C, base, S, R)  # (a, k, s, r)
    Cf, Pf, dist_f = float_array(C), float_array(P), float_array(dist)
    if Cf is None or Pf is None or dist_f is None:
        return None
    d_max = float(dist_f.max(initial=0.0))
    try:  # a product past float range (distances of 1e308 under a weight 1e-308) is too
        with np.errstate(divide="ignore", invalid="ignore", over="raise"):
            mu = (Cf[:, :, :, None] * dist_f).sum(axis=2) / Pf[:, :, None]  # (a, k, r)
            G = mu[None, :, :, :] - mu[:, None, :, :]  # (a, b, k, r): mu_b - mu_a
    except FloatingPointError:
        return None
    error = float(sigma) * d_max * d_max / 4
    return G, d_max, error


def _log_magnitude(values: np.ndarray) -> float:
    """``max |ln v|`` over the positive entries (0 when there are none)."""
    pos = values[values > 0]
    if pos.size == 0:
        return 0.0
    return max(abs(math.log(float(pos.min()))), abs(math.log(float(pos.max()))))


__all__ = ["dominant_screen", "plain_screen", "small_scale_screen"]

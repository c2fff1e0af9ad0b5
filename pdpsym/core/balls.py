"""Rigorous balls (arb midpoint-radius intervals) for the engines above core.

The one door to python-flint outside :mod:`pdpsym.core.certify`: the ball type, its
construction from exact numbers and its exact rational ends (the two directions between
rationals and balls), and working precision as a context manager that always restores the
previous precision. Engines above core never import ``flint`` themselves.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

import numpy as np
from flint import arb, arb_poly, ctx, fmpq

#: the ball type (python-flint's ``arb``)
Ball = arb
#: polynomials with ball coefficients (python-flint's ``arb_poly``)
BallPoly = arb_poly


def to_ball(x: int | float | str | Fraction) -> Ball:
    """A ball holding ``x`` exactly (an int, a float, a decimal string read by arb with
    its rounding radius, or a Fraction divided out at the working precision).

    Args:
        x: the number.

    Returns:
        An arb ball containing ``x``.

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval
        arithmetic", IEEE Trans. Computers 66(8), 2017.
    """
    if isinstance(x, Fraction):
        return arb(x.numerator) / x.denominator
    return arb(x)


def arb_from_fraction(q: Fraction | int) -> arb:
    """An arb ball containing the rational ``q``, at the current working precision.

    The caller sets the precision (``flint.ctx.workprec``); the ball is exact when ``q``
    is a dyadic rational that fits, else it is rounded with a radius that covers ``q``.

    Args:
        q: a Fraction or an int.

    Returns:
        An arb ball containing ``q``.

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic",
        IEEE Trans. Computers 66(8), 2017; python-flint docs, ``arb`` from ``fmpq``.

    Examples:
        >>> from flint import ctx
        >>> with ctx.workprec(8):
        ...     ball_endpoints(arb_from_fraction(Fraction(1, 3)))
        (Fraction(169, 512), Fraction(171, 512))
    """
    q = Fraction(q)
    return arb(fmpq(q.numerator, q.denominator))


def _fraction_of_arf(x: arb) -> Fraction:
    """The exact value of an arb's midpoint or radius (a binary float)."""
    man_f, exp_f = x.man_exp()
    man, exp = int(man_f), int(exp_f)
    return Fraction(man * (1 << exp)) if exp >= 0 else Fraction(man, 1 << -exp)


def ball_endpoints(x: arb) -> tuple[Fraction, Fraction]:
    """The exact rational ends ``[mid - rad, mid + rad]`` of a finite ball.

    The midpoint and the radius of an arb are binary floating point numbers, so both ends
    are exact dyadic rationals: nothing is rounded.

    Args:
        x: an arb ball.

    Returns:
        ``(lo, hi)`` as Fractions, ``lo <= hi``.

    Raises:
        ArithmeticError: when the ball is not finite (an infinite or NaN midpoint or
            radius).

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic",
        IEEE Trans. Computers 66(8), 2017, Section 2 (midpoint-radius representation).
    """
    if not x.is_finite():
        raise ArithmeticError("ball is not finite")
    mid = _fraction_of_arf(x.mid())
    rad = _fraction_of_arf(x.rad())
    return mid - rad, mid + rad


@contextmanager
def working_precision(prec: int) -> Iterator[None]:
    """Run a block at ``prec`` bits; the previous precision is restored on exit, error or
    not (python-flint's ``ctx.workprec``).

    Args:
        prec: bits of working precision.

    Returns:
        A context manager.

    References:
        python-flint, ``flint.ctx.workprec``.
    """
    with ctx.workprec(prec):
        yield


def float_log_bounds(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Float enclosures ``[lo, hi]`` of ``ln x`` for positive floats ``x``.

    Vectorized in float64 with a proved error bound (:func:`_log_near`, a few ulps wide);
    entries that are not positive normal floats go through arb at 64 bits, each end
    moved one ulp outward.

    Args:
        x: a 1-d array of positive floats.

    Returns:
        ``(lo, hi)`` with ``lo <= ln x <= hi`` entrywise.

    References:
        Muller et al., Handbook of Floating-Point Arithmetic, 2nd ed. (2018), the
        chapter on elementary functions (table-driven logarithm); Knuth, TAOCP vol. 2,
        Sec. 4.2.2 (TwoSum); Johansson, Arb (2017) for the fallback.
    """
    x = np.asarray(x, dtype=np.float64).reshape(-1)
    normal = np.isfinite(x) & (x >= np.finfo(np.float64).tiny)
    y, d = _log_near(np.where(normal, x, 1.0))
    lo = np.nextafter(y - d, -np.inf)
    hi = np.nextafter(y + d, np.inf)
    for k in np.flatnonzero(~normal).tolist():
        lo[k], hi[k] = _arb_log_bounds(float(x[k]))
    return lo, hi


def _arb_log_bounds(v: float) -> tuple[float, float]:
    with ctx.workprec(64):
        g = arb(v).log()
        return (
            float(np.nextafter(float(g.lower()), -np.inf)),
            float(np.nextafter(float(g.upper()), np.inf)),
        )


_LOG_TABLE: list[np.ndarray] = []  # [hi, lo, ln2_hi, ln2_lo], built on first use


def _log_table() -> list[np.ndarray]:
    """``ln c`` as ``hi + lo`` (error below 2^-100) for the table points
    ``c = 1 + k/128`` (``k = 0..64``, index ``k``) and ``c = 1 - k/256`` (index
    ``65 + k``), and ``ln 2`` as a 40-bit ``hi`` plus a float ``lo`` (error below 2^-93)."""
    if not _LOG_TABLE:
        cs = [Fraction(128 + k, 128) for k in range(65)] + [
            Fraction(256 - k, 256) for k in range(65)
        ]
        hi, lo = np.empty(len(cs)), np.empty(len(cs))
        with ctx.workprec(256):
            for k, c in enumerate(cs):
                g = (arb(c.numerator) / c.denominator).log()  # c exact (dyadic): ln 1 = 0
                hi[k] = float(g.mid())
                lo[k] = float((g - hi[k]).mid())
                assert abs(g - hi[k] - lo[k]) < arb(2) ** -100
            assert hi[0] == 0.0 and lo[0] == 0.0  # the bound's case c = 1 needs ln c = 0
            ln2 = arb(2).log()
            l2_hi = round(float(ln2.mid()) * 2.0**40) / 2.0**40  # 40 bits
            l2_lo = float((ln2 - l2_hi).mid())
            assert abs(ln2 - l2_hi - l2_lo) < arb(2) ** -93
        _LOG_TABLE.extend([hi, lo, np.array(l2_hi), np.array(l2_lo)])
    return _LOG_TABLE


def _log_near(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(y, d)`` with ``|y - ln x| <= d`` for positive normal floats ``x`` (round to
    nearest float64 arithmetic, no fused operations assumed).

    Method: ``x = f 2^e`` with ``f`` in ``[3/4, 3/2)`` (exact); ``c`` the table point
    nearest ``f`` towards 1 (``c <= f`` above 1, ``c >= f`` below), so that
    ``r = (f - c)/c`` has ``|r| < 1/128`` and ``f - c`` is exact (same binade);
    ``ln(1 + r)`` by its series to ``r^9`` (truncation below ``2^-63 |r|``); then
    ``y = e ln 2 + ln c + ln(1 + r)`` with ``e hi(ln 2) + hi(ln c)`` split exactly by
    TwoSum and the small parts added to its low word.

    Error (``u = 2^-53``): ``ln(1 + r)`` is within ``3.1u`` relative (``r``, ``1 + r g``
    and the product each round once; the Horner terms of ``g`` perturb it by under
    ``0.02u``). For ``e != 0`` every part of the low word is below ``0.008`` and
    ``|y| >= ln 2 - ln(3/2) > 0.28``, so the total is below ``0.5 ulp(y) + 0.2u|y|``
    ``<= 1.2u|y|``; ``d = 2u|y|``. For ``e = 0``, ``ln c`` and ``ln(1 + r)`` have the sign
    of ``y`` (no cancellation), so the total is below ``0.5 ulp(y) + 5.1u|y| <= 6.2u|y|``;
    ``d = 8u|y|``. ``d`` is a power-of-two multiple of ``|y|`` (exact); the caller moves
    ``y -+ d`` one ulp outward for their own rounding."""
    hi_t, lo_t, l2_hi, l2_lo = _log_table()
    m, e = np.frexp(x)  # x = m 2^e, m in [1/2, 1)
    f = 2.0 * m
    e = e - 1
    big = f >= 1.5
    f = np.where(big, 0.5 * f, f)  # f in [3/4, 3/2), exact
    e = e + big
    below = f < 1.0
    k = np.where(below, np.floor((1.0 - f) * 256.0), np.floor((f - 1.0) * 128.0))
    c = np.where(below, 1.0 - k / 256.0, 1.0 + k / 128.0)
    r = (f - c) / c
    g = 1.0 / 9.0
    for j in range(8, 1, -1):  # g = -1/2 + r/3 - r^2/4 + ... + r^7/9
        g = (1.0 / j if j % 2 else -1.0 / j) + r * g
    L1 = r * (1.0 + r * g)
    idx = np.where(below, 65 + k, k).astype(np.int64)
    ef = e.astype(np.float64)
    a = ef * l2_hi  # exact: |e| < 2^11 and l2_hi has 40 bits
    s = a + hi_t[idx]
    bb = s - a
    s_lo = (a - (s - bb)) + (hi_t[idx] - bb)  # TwoSum: s + s_lo = a + hi(ln c) exactly
    y = s + (((s_lo + ef * l2_lo) + lo_t[idx]) + L1)
    d = np.abs(y) * np.where(e != 0, 2.0**-52, 2.0**-50)
    return y, d

"""Absolute truncation of count-law polynomials, with the dropped mass carried exactly.

A law's numerator ``J = prod_i f_i`` (non-negative integer polynomials) is replaced by
``2^S G`` with ``G = prod_i floor(f_i / 2^{s_i})`` and ``S = sum_i s_i``. Every
coefficient of ``f_i - 2^{s_i} floor(f_i / 2^{s_i})`` is in ``[0, 2^{s_i})``, so
``J >= 2^S G`` coefficient-wise and the dropped part ``J - 2^S G`` is non-negative with
total mass exactly ``Delta = J(1) - 2^S G(1)`` (both integers). A Laplace mixture value
``M(j) = sum_c J[c] q^{|j - c|}`` (kernel at most 1) is then in
``[2^S M_G(j), 2^S M_G(j) + Delta]``. Unlike :func:`pdpsym.core.poly.relative_floor`,
which keeps every coefficient to a relative accuracy, this drops the tiny tail
coefficients of a law whose range is wide (an alternating chain: ``10^-2000`` of the
largest), which cannot matter once ``Delta`` is far below every ``M(j)``; since
``M(j) >= q^N J(1)``, keeping about ``prec + N rate log2(e)`` bits of each factor's
total suffices.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from pdpsym.core.balls import Ball, working_precision

#: an opaque exact integer polynomial (python-flint ``fmpz_poly``)
IntPoly = Any
#: an opaque real ball (python-flint ``arb``)


def truncation_shift(total: int, degree: int, n: int, rate: Fraction, prec: int) -> int:
    """The largest ``s`` for which dropping below ``2^s`` in each coefficient of a factor
    (total ``total``, degree ``degree``) loses at most ``2^-(prec + 8) q^n`` of its total
    (``q = e^-rate``), so that the dropped mass of the law stays far below every mixture
    value.

    Args:
        total: the factor's value at 1 (its total mass), ``> 0``.
        degree: its degree.
        n: the largest support point of the law.
        rate: the Laplace rate in count units.
        prec: the working precision of the mixture values, in bits.

    Returns:
        ``s >= 0`` (0: nothing may be dropped).

    References:
        Knuth, TAOCP vol. 2, Section 4.6 (polynomial arithmetic); Li et al. (2019),
        Section 3.2, Eq. 2 (the mixtures).
    """
    if total <= 0:
        return 0
    # n rate log2(e) rounded up (log2(e) < 1.4427), exactly
    range_bits = math.ceil(Fraction(rate) * n * Fraction(14427, 10000)) + 2
    keep = prec + 8 + range_bits + (degree + 1).bit_length() + 2
    return max(0, total.bit_length() - 1 - keep)


def floor_shift(f: IntPoly, shift: int) -> IntPoly:
    """``floor(f / 2^shift)`` coefficient-wise.

    Args:
        f: a non-negative integer polynomial.
        shift: ``>= 0``.

    Returns:
        The truncated polynomial.

    References:
        FLINT docs, ``fmpz_poly``; Knuth, TAOCP vol. 2, Section 4.6.
    """
    return f // (1 << shift) if shift else f


def widen_up(values: Sequence[Ball], delta: int, shift: int, prec: int) -> list[Ball]:
    """Each ball plus ``[0, delta 2^-shift]`` (the dropped mass of the module doc).

    Args:
        values: the balls of the truncated law's mixture values.
        delta: the exact dropped mass (an integer ``>= 0``).
        shift: the scaling of the balls (they hold ``2^-shift`` times the values).
        prec: working precision in bits.

    Returns:
        The widened balls.

    References:
        Johansson, Arb (2017) (ball arithmetic).
    """
    if delta == 0:
        return list(values)
    with working_precision(prec):
        extra = Ball(0).union(Ball(int(delta)) * Ball(2) ** (-shift))
        return [v + extra for v in values]


__all__ = ["floor_shift", "truncation_shift", "widen_up"]

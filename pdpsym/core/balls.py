"""Rigorous balls (arb midpoint-radius intervals) for the engines above core.

The one door to python-flint outside :mod:`pdpsym.core.certify`: the ball type, its
construction from exact numbers, and working precision as a context manager that always
restores the previous precision. Engines above core never import ``flint`` themselves.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

import numpy as np
from flint import arb, ctx

#: the ball type (python-flint's ``arb``)
Ball = arb


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
    """Float enclosures ``[lo, hi]`` of ``ln x`` for positive floats ``x`` (arb at 64
    bits, each end moved one ulp outward).

    Args:
        x: a 1-d array of positive floats.

    Returns:
        ``(lo, hi)`` with ``lo <= ln x <= hi`` entrywise.

    References:
        Li et al. 2019, Sec. V (the batch WHG's rounding bound).
    """
    lo = np.empty(len(x))
    hi = np.empty(len(x))
    with ctx.workprec(64):
        for k, v in enumerate(x.tolist()):
            g = arb(v).log()
            lo[k], hi[k] = float(g.lower()), float(g.upper())
    return np.nextafter(lo, -np.inf), np.nextafter(hi, np.inf)

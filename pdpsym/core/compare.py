"""Decided comparisons: interval separation, else a symbolic proof of equality.

``compare(a, b)`` encloses both values in arb balls at rising precision. When the balls
separate, the order is decided. When they keep overlapping, equality is attempted as a
symbolic proof (an exact zero test where the values provide one, otherwise sympy's
``simplify``/``equals`` of the difference). If neither works, :class:`Undecided` is
raised with the precision reached: never a guess.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

import numpy as np
from flint import arb

from pdpsym.core.certify import as_sympy, enclose, exact_rational
from pdpsym.core.errors import Undecided

if TYPE_CHECKING:
    from pdpsym.core.certify import Exact


@dataclass(frozen=True)
class Comparison:
    """The decided sign of a - b, and how it was decided ("exact", "interval", "symbolic")."""

    sign: int
    method: str
    prec: int = 0


def compare(a: Exact, b: Exact, start_prec: int = 64, max_prec: int = 4096) -> Comparison:
    """Decide the sign of ``a - b`` exactly: never a guess.

    In order: when both values are rational (:func:`~pdpsym.core.certify.exact_rational`)
    the Fractions are compared; when ``a`` has an ``exact_compare`` method and ``b`` is of
    the same type, that exact comparison decides; otherwise both are enclosed in arb balls
    at ``start_prec`` bits, doubled up to ``max_prec``, until the balls separate. Once the
    precision reaches 512 bits (and again at the end), equality is tried as a symbolic proof
    (``sympy.simplify`` of the difference, then ``equals(0)``).

    Args:
        a: an exact value (Fraction, int, sympy expression, or an object with
            ``arb(prec)`` and ``sympy()``).
        b: another exact value.
        start_prec: the first working precision in bits.
        max_prec: the last working precision in bits.

    Returns:
        A :class:`Comparison`: ``sign`` in ``{-1, 0, 1}`` and ``method`` ``"exact"``,
        ``"interval"`` or ``"symbolic"`` (with the precision reached, 0 for exact).

    Raises:
        Undecided: when the balls still overlap at ``max_prec`` and equality is not
            proved (the values are equal or too close to separate).

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval
        arithmetic", IEEE Trans. Computers 66(8), 2017 (ball comparison); Moore, Kearfott,
        Cloud, Introduction to Interval Analysis, SIAM 2009, Ch. 2 (interval order).

    Examples:
        >>> import sympy
        >>> compare(sympy.sqrt(2), sympy.Rational(7, 5)).sign
        1
        >>> compare(sympy.log(4), 2 * sympy.log(2)).method
        'symbolic'
    """
    qa, qb = exact_rational(a), exact_rational(b)
    if qa is not None and qb is not None:
        return Comparison((qa > qb) - (qa < qb), "exact")
    exact_cmp = getattr(a, "exact_compare", None)
    if exact_cmp is not None and type(a) is type(b):
        return Comparison(exact_cmp(b), "exact")
    prec = start_prec
    tried_symbolic = False
    while prec <= max_prec:
        if prec >= 512 and not tried_symbolic:
            tried_symbolic = True
            if _symbolically_equal(a, b):
                return Comparison(0, "symbolic", prec)
        x, y = enclose(a, prec), enclose(b, prec)
        # arb's < and > hold only when the balls separate; comparing the balls directly
        # (not their rational ends) keeps huge values such as e^(10^10) cheap
        if x < y:
            return Comparison(-1, "interval", prec)
        if x > y:
            return Comparison(1, "interval", prec)
        prec *= 2
    if _symbolically_equal(a, b):
        return Comparison(0, "symbolic", max_prec)
    raise Undecided(f"sign of ({as_sympy(a)}) - ({as_sympy(b)})", max_prec)


def _symbolically_equal(a: Exact, b: Exact) -> bool:
    import sympy  # a symbolic proof of equality, the last resort, is the one use

    diff = sympy.simplify(as_sympy(a) - as_sympy(b))
    return bool(diff == 0 or diff.equals(0))


T = TypeVar("T")


def _compare_sign(a: Exact, b: Exact) -> int:
    return compare(a, b).sign


def decided_argmax(values: Sequence[T], cmp: Callable[[T, T], int]) -> int:
    """Index of the first maximum of ``values`` under a decided comparison.

    One left-to-right scan: candidate ``k`` replaces the best so far only when
    ``cmp(values[k], best) > 0``, so ties keep the earliest index. The one place a decided
    max is taken.

    Args:
        values: a non-empty sequence.
        cmp: the decided sign of ``x - y`` (``-1``, ``0`` or ``1``), such as
            ``lambda x, y: compare(x, y).sign``.

    Returns:
        The index of the first maximal element.

    Raises:
        ValueError: when ``values`` is empty.

    References:
        Knuth, TAOCP vol. 1, Section 1.2.10 (Algorithm M, finding the maximum).

    Examples:
        >>> decided_argmax([1, 3, 2, 3], lambda x, y: (x > y) - (x < y))
        1
    """
    if not values:
        raise ValueError("max of an empty sequence")
    best = 0
    for k in range(1, len(values)):
        if cmp(values[k], values[best]) > 0:
            best = k
    return best


def decided_argmin(values: Sequence[T], cmp: Callable[[T, T], int]) -> int:
    """Index of the first minimum of ``values`` under a decided comparison.

    Args:
        values: a non-empty sequence.
        cmp: the decided sign of ``x - y``.

    Returns:
        The index of the first minimal element.

    Raises:
        ValueError: when ``values`` is empty.

    References:
        Knuth, TAOCP vol. 1, Section 1.2.10 (Algorithm M).
    """
    return decided_argmax(values, lambda x, y: cmp(y, x))


def decided_max(values: Sequence[T], cmp: Callable[[T, T], int] | None = None) -> tuple[int, T]:
    """Index and value of the first maximum, every comparison decided.

    Args:
        values: a non-empty sequence of exact values (or of anything ``cmp`` compares).
        cmp: the decided sign of ``x - y``; None to use :func:`compare` (which may raise
            :class:`~pdpsym.core.errors.Undecided`).

    Returns:
        ``(index, value)`` of the first maximal element.

    Raises:
        ValueError: when ``values`` is empty.

    References:
        Knuth, TAOCP vol. 1, Section 1.2.10 (Algorithm M).
    """
    best = decided_argmax(values, cmp or _compare_sign)  # type: ignore[arg-type]
    return best, values[best]


def decided_min(values: Sequence[T], cmp: Callable[[T, T], int] | None = None) -> tuple[int, T]:
    """Index and value of the first minimum, every comparison decided.

    Args:
        values: a non-empty sequence of exact values (or of anything ``cmp`` compares).
        cmp: the decided sign of ``x - y``; None to use :func:`compare`.

    Returns:
        ``(index, value)`` of the first minimal element.

    Raises:
        ValueError: when ``values`` is empty.

    References:
        Knuth, TAOCP vol. 1, Section 1.2.10 (Algorithm M, the order reversed).
    """
    sign = cmp or _compare_sign
    return decided_max(values, lambda x, y: sign(y, x))  # type: ignore[arg-type]


# Screening margin. Candidates are ranked by float64 values computed from exact inputs
# with O(m) rounding steps (m << 10^6 terms); under the usual model of numpy's exp/log
# (a few ulp) the absolute error of a screened value is far below
# 1e-9 * (1 + |v| + scale), where ``scale`` bounds the magnitude of every intermediate
# quantity of the float computation (an error that cancellation cannot shrink). Every
# candidate within SCREEN_MARGIN * (1 + |top| + scale) of the float maximum is decided
# exactly, so float error only ever widens the set of exactly decided candidates. A
# candidate whose float is not finite (overflow, underflow to log 0, inf - inf) cannot
# be ranked: it is always decided exactly, never dropped. When ``scale`` itself is not
# finite, or the float inputs were out of range, the floats rank nothing and every
# candidate is decided exactly. Tests cross-check the screened result against a fully
# exact search.
SCREEN_MARGIN = 1e-7

#: the smallest positive normal float64; below it a float has lost relative precision
_TINY = sys.float_info.min


def screen_tolerance(top: float, scale: float = 0.0, margin: float = SCREEN_MARGIN) -> float:
    """How far below the float maximum ``top`` a candidate still has to be decided exactly.

    Args:
        top: the largest finite float among the candidates.
        scale: a bound on the magnitude of the intermediate quantities the floats were
            computed from (see :data:`SCREEN_MARGIN`).
        margin: the relative margin.

    Returns:
        ``margin * (1 + |top| + |scale|)`` as a float, or ``inf`` when ``top`` or
        ``scale`` is not finite (then the floats rank nothing).

    References:
        Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., SIAM 2002,
        Sections 2.2 and 3.1 (the standard model of rounding and its error bounds).
    """
    if not (math.isfinite(top) and math.isfinite(scale)):
        return math.inf
    return margin * (1.0 + abs(top) + abs(scale))


def screenable_float(q: Fraction | int) -> float | None:
    """``float(q)`` when it is a normal float64 (or an exact zero), else None.

    A None means the float screen is meaningless for a computation that uses ``q``: it
    overflows, or underflows into subnormals (or to 0) that have lost their relative
    precision; the caller then decides every candidate exactly.

    Args:
        q: an exact rational.

    Returns:
        The nearest float, or None when it is infinite, subnormal, or 0 for a non-zero
        ``q``.

    References:
        Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., Section 2.1
        (normalized and subnormal floating point numbers); IEEE 754-2008.
    """
    try:
        f = float(q)
    except OverflowError:
        return None
    if not math.isfinite(f) or (f != 0.0 and abs(f) < _TINY) or (f == 0.0 and q != 0):
        return None
    return f


def proposal_float(q: Fraction | int, cap: float = 1e300) -> float:
    """``float(q)`` clamped to ``[-cap, cap]``: a value for a float solver to propose from.

    For a quantity whose proposal exact arithmetic then certifies (an LP's simulator or
    dual weights evaluated exactly at the exact ``q``): a clamped proposal is a poorer
    proposal, never a wrong result. A ``q`` beyond the float range (``e^ε`` for ε above
    about 709) must not crash the float side.

    Args:
        q: an exact rational.
        cap: the largest magnitude returned, a finite float.

    Returns:
        The nearest float to ``q``, or ``±cap`` when ``|q| > cap``.

    References:
        IEEE 754-2008 (the float64 range); LP weak duality (Dantzig, Linear Programming
        and Extensions, 1963): any feasible proposal certifies a bound.
    """
    if q > cap:
        return cap
    if q < -cap:
        return -cap
    return float(q)


def float_array(values: np.ndarray) -> np.ndarray | None:
    """The values as a float64 array, or None when one is out of float range.

    Args:
        values: a numpy array of numbers; an integer or float array is converted with
            ``astype(float)`` directly, an object array (Python ints or Fractions) entry by
            entry.

    Returns:
        The float64 array (same shape), or None when an object entry overflows or converts
        to a non-finite float: such a table cannot be screened in floats. Non-object arrays
        are converted as they are (non-finite entries pass through).

    References:
        NumPy docs, ``ndarray.astype``; IEEE 754-2008 (the float64 range).
    """
    arr = np.asarray(values)
    if arr.dtype != object:
        return arr.astype(float)
    try:
        out = arr.astype(float)
    except OverflowError:
        return None
    return out if np.isfinite(out).all() else None


def screen_then_decide(
    floats: np.ndarray,
    exact_of: Callable[[int], T],
    cmp: Callable[[T, T], int],
    margin: float = SCREEN_MARGIN,
    key_of: Callable[[int], object] | None = None,
    *,
    valid: np.ndarray | None = None,
    scale: float = 0.0,
    error: float = 0.0,
) -> tuple[int, T, int]:
    """Rank candidates by ``floats``; decide the maximum exactly among the near-ties.

    Every counted candidate whose float lies within
    ``screen_tolerance(top, scale, margin) + 2 * error`` of the largest finite float
    ``top``, and every counted candidate whose float is not finite, is decided exactly:
    its exact value ``exact_of(i)`` is compared with the best so far by ``cmp``, the float
    winner first. Float error therefore only widens the set of candidates decided exactly.

    Args:
        floats: one float per candidate (any shape; flattened). Without ``valid``,
            ``-inf`` marks a candidate that does not count, and ``nan`` / ``+inf`` a
            candidate the floats could not rank.
        exact_of: the exact value of candidate ``i`` (a flat index).
        cmp: the decided sign of ``x - y`` on exact values.
        margin: the relative screening margin (see :data:`SCREEN_MARGIN`).
        key_of: optional; a hashable key of candidate ``i`` such that equal keys imply
            equal exact values, so duplicated candidates are decided once.
        valid: optional boolean mask of the same size saying which candidates count;
            with it every non-finite float of a valid candidate is unrankable.
        scale: a bound on the intermediate quantities of the float computation; widens
            the margin, and ``inf`` decides every counted candidate exactly.
        error: a further absolute bound on how far a float may lie from the quantity it
            ranks (a truncated expansion, say); twice it is added to the margin.

    Returns:
        ``(index, exact value, number of candidates decided exactly)``: the flat index of
        the maximum, its exact value, and how many exact values were computed.

    Raises:
        ValueError: when no candidate counts.

    References:
        Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., Section 2.2 (the
        float error the margin covers); Li et al. (2019), Section III, Eq. 2 (the maxima
        the engines take this way).

    Examples:
        >>> import numpy as np
        >>> from fractions import Fraction as F
        >>> vals = [F(1, 3), F(2, 3), F(2, 3) + F(1, 10**20)]
        >>> screen_then_decide(np.array([float(v) for v in vals]), vals.__getitem__,
        ...                    lambda x, y: (x > y) - (x < y))
        (2, Fraction(200000000000000000003, 300000000000000000000), 2)
    """
    flat = np.asarray(floats, dtype=float).ravel()
    if valid is None:
        ok = ~np.isneginf(flat)
    else:
        ok = np.asarray(valid, dtype=bool).ravel()
    finite = ok & np.isfinite(flat)
    unrankable = ok & ~finite
    if not ok.any():
        raise ValueError("no candidate")
    top = float(flat[finite].max()) if finite.any() else math.nan
    tol = screen_tolerance(top, scale, margin) + 2 * error
    if math.isinf(tol):
        near = np.flatnonzero(ok)
    else:
        near = np.flatnonzero(finite & (flat >= top - tol))
        # the float winner first (a good first guess), then the rest by float value
        near = near[np.argsort(-flat[near], kind="stable")]
        near = np.concatenate([near, np.flatnonzero(unrankable)])
    best_idx = int(near[0])
    best = exact_of(best_idx)
    seen = {key_of(best_idx)} if key_of else set()
    decided = 1
    for idx in near[1:]:
        idx = int(idx)
        if key_of is not None:
            k = key_of(idx)
            if k in seen:
                continue
            seen.add(k)
        value = exact_of(idx)
        decided += 1
        if cmp(value, best) > 0:
            best_idx, best = idx, value
    return best_idx, best, decided


def enclosure_argmax(
    lo: Sequence[float] | np.ndarray,
    hi: Sequence[float] | np.ndarray,
    key_of: Callable[[int], object],
    exact_of: Callable[[int], T],
    cmp: Callable[[T, T], int],
    ball_of: Callable[[int, int], arb] | None = None,
    precs: Sequence[int] = (128, 512),
) -> int:
    """The index of the first maximum of values known through float enclosures.

    Candidates are the values whose enclosure ``[lo[k], hi[k]]`` reaches the best lower
    end. Values with equal ``key_of`` are known to be exactly equal, so only the first
    of each class stays (the first maximum is the first member of a maximal class).
    The rest are separated by balls ``ball_of(k, prec)`` at rising precision ``precs``
    (``ball_of`` raises precision through a context that restores it), and what still overlaps is decided
    exactly: ``exact_of(k)`` compared by ``cmp``, for those candidates only.

    Args:
        lo: lower ends of the enclosures, in order (NaN for no value).
        hi: upper ends, in the same order.
        key_of: a class key; equal keys must imply equal exact values.
        exact_of: the exact value of candidate ``k`` (for the final decision).
        cmp: the decided sign of ``x - y`` on exact values.
        ball_of: an arb ball of candidate ``k`` at ``prec`` bits, or None.
        precs: the precisions tried for the balls.

    Returns:
        The index of the first maximal value.

    References:
        Li et al. 2019, Sec. V-D (the WHG maximum over every node).
    """
    lo_a, hi_a = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    top = np.nanmax(lo_a)
    reach = np.flatnonzero(hi_a >= top).tolist()
    if len(reach) == 1:
        return int(reach[0])
    seen: set[object] = set()
    cands: list[int] = []
    for k in reach:
        key = key_of(k)
        if key not in seen:
            seen.add(key)
            cands.append(k)
    if len(cands) > 1 and ball_of is not None:
        for prec in precs:
            balls = [ball_of(k, prec) for k in cands]
            floor = max(b.lower() for b in balls)  # exact points: decided comparisons
            cands = [k for k, b in zip(cands, balls, strict=True) if b.upper() >= floor]
            if len(cands) == 1:
                break
    if len(cands) == 1:
        return cands[0]
    return cands[decided_argmax([exact_of(k) for k in cands], cmp)]

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
    """Decide the sign of ``a - b``."""
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
    """Index of the first maximum of ``values`` under a decided comparison ``cmp``
    (``cmp(x, y)`` is the sign of ``x - y``). The one place a decided max is taken."""
    if not values:
        raise ValueError("max of an empty sequence")
    best = 0
    for k in range(1, len(values)):
        if cmp(values[k], values[best]) > 0:
            best = k
    return best


def decided_argmin(values: Sequence[T], cmp: Callable[[T, T], int]) -> int:
    """Index of the first minimum of ``values`` under a decided comparison ``cmp``."""
    return decided_argmax(values, lambda x, y: cmp(y, x))


def decided_max(values: Sequence[T], cmp: Callable[[T, T], int] | None = None) -> tuple[int, T]:
    """Index and value of a maximum, every comparison decided (by :func:`compare` unless
    ``cmp`` is given)."""
    best = decided_argmax(values, cmp or _compare_sign)  # type: ignore[arg-type]
    return best, values[best]


def decided_min(values: Sequence[T], cmp: Callable[[T, T], int] | None = None) -> tuple[int, T]:
    """Index and value of a minimum, every comparison decided."""
    best = decided_argmin(values, cmp or _compare_sign)  # type: ignore[arg-type]
    return best, values[best]


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

    ``scale`` bounds the magnitude of the intermediate quantities the floats were computed
    from (see :data:`SCREEN_MARGIN`); the result is ``inf`` when nothing can be ranked.
    """
    if not (math.isfinite(top) and math.isfinite(scale)):
        return math.inf
    return margin * (1.0 + abs(top) + abs(scale))


def screenable_float(q: Fraction | int) -> float | None:
    """``float(q)`` when it is a normal float64 (or zero), else None.

    A None means the float screen is meaningless for a computation that uses ``q``
    (it overflows, or underflows into subnormals that have lost their relative
    precision); the caller then decides every candidate exactly.
    """
    try:
        f = float(q)
    except OverflowError:
        return None
    if not math.isfinite(f) or (f != 0.0 and abs(f) < _TINY) or (f == 0.0 and q != 0):
        return None
    return f


def float_array(values: np.ndarray) -> np.ndarray | None:
    """The values as float64 (integer or object arrays), or None when one of them is out
    of float range: a table with such entries cannot be screened in floats."""
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

    ``valid`` (a boolean mask of the same size; default: every candidate) says which
    candidates count. Without a mask, ``-inf`` marks a candidate that does not count
    (the callers' convention for "no such candidate"); every other non-finite float
    (``nan``, ``+inf``) is a candidate the floats could not rank. With a mask every
    non-finite float of a valid candidate is unrankable. Unrankable candidates are
    always decided exactly; ``scale`` widens the margin (see :data:`SCREEN_MARGIN`), and
    ``scale = inf`` decides every valid candidate exactly. ``error`` is a further absolute
    bound on how far a float may lie from the quantity it ranks (a truncated expansion,
    say); twice it is added to the margin.

    Returns ``(index, exact value, number of candidates decided exactly)``. ``key_of``
    (optional) gives a hashable key such that equal keys imply equal exact values, so
    that duplicated candidates are decided once.
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

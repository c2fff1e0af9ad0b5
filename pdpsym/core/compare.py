"""Decided comparisons: interval separation, else a symbolic proof of equality.

``compare(a, b)`` encloses both values in arb balls at rising precision. When the balls
separate, the order is decided. When they keep overlapping, equality is attempted as a
symbolic proof (an exact zero test where the values provide one, otherwise sympy's
``simplify``/``equals`` of the difference). If neither works, :class:`Undecided` is
raised with the precision reached: never a guess.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import sympy

from pdpsym.core.certify import Exact, as_sympy, ball_endpoints, enclose, exact_rational
from pdpsym.core.errors import Undecided


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
        if x.is_finite() and y.is_finite():
            xl, xh = ball_endpoints(x)
            yl, yh = ball_endpoints(y)
            if xh < yl:
                return Comparison(-1, "interval", prec)
            if yh < xl:
                return Comparison(1, "interval", prec)
        prec *= 2
    if _symbolically_equal(a, b):
        return Comparison(0, "symbolic", max_prec)
    raise Undecided(f"sign of ({as_sympy(a)}) - ({as_sympy(b)})", max_prec)


def _symbolically_equal(a: Exact, b: Exact) -> bool:
    diff = sympy.simplify(as_sympy(a) - as_sympy(b))
    return bool(diff == 0 or diff.equals(0))


T = TypeVar("T")


def decided_max(values: Sequence[Exact]) -> tuple[int, Exact]:
    """Index and value of a maximum, every comparison decided."""
    if not values:
        raise ValueError("max of an empty sequence")
    best = 0
    for k in range(1, len(values)):
        if compare(values[k], values[best]).sign > 0:
            best = k
    return best, values[best]


# Screening margin. Candidates are ranked by float64 values computed from exact inputs
# with O(m) rounding steps (m << 10^6 terms); under the usual model of numpy's exp/log
# (a few ulp) their absolute error is far below 1e-9 * (1 + |v|). Every candidate within
# SCREEN_MARGIN of the float maximum is decided exactly, so float error only ever
# widens the set of exactly decided candidates. Tests cross-check the screened result
# against a fully exact search.
SCREEN_MARGIN = 1e-7


def screen_then_decide(
    floats: np.ndarray,
    exact_of: Callable[[int], T],
    cmp: Callable[[T, T], int],
    margin: float = SCREEN_MARGIN,
    key_of: Callable[[int], object] | None = None,
) -> tuple[int, T, int]:
    """Rank candidates by ``floats``; decide the maximum exactly among the near-ties.

    Returns ``(index, exact value, number of candidates decided exactly)``. ``key_of``
    (optional) gives a hashable key such that equal keys imply equal exact values, so
    that duplicated candidates are decided once.
    """
    flat = np.asarray(floats, dtype=float).ravel()
    finite = np.isfinite(flat)
    if not finite.any():
        raise ValueError("no finite candidate")
    top = float(flat[finite].max())
    near = np.flatnonzero(finite & (flat >= top - margin * (1.0 + abs(top))))
    near = near[np.argsort(-flat[near], kind="stable")]
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

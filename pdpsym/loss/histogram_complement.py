"""The last law of a target as the every-value total minus the others in the float screen,
with a proven error.

**The setting.** The complement lemma of :mod:`pdpsym.loss.histogram` gives a target's
laws ``w_0, ..., w_{k-1}`` (exact integers, one common scale) with ``w_{k-1}(n) = w_t(n) -
sum_{j < k-1} w_j(n)``, ``w_t`` the every-value total, the same law for every target. With
``W_a = sum_n w_a(n)`` and the normalized mixtures ``G_a(y) = sum_n w_a(n) q^{|y-n|_1} /
W_a`` (:mod:`pdpsym.loss.histogram_grid`) the identity is linear:

    G_{k-1} = c_t G_t - sum_{j < k-1} c_j G_j,    c_t = W_t / W_{k-1},  c_j = W_j / W_{k-1}.

So the float grid of ``G_t`` is computed once (the same for every target) and each target
takes ``k - 1`` mixtures of ``(T+1)^k`` points instead of ``k``. The decision at the
surviving points is unchanged (each law's own exact integers): a ball of the difference
would be wider, and the enclosures would no longer be the same rationals as without the
shortcut.

**The float error (the complement bound).** Let every float mixture ``G_f`` of a law lie in
``[G (1 - gamma) - s, G (1 + gamma) + s]`` (the screen's bound: ``gamma`` from Higham's
Lemma 3.1, ``s`` the underflow slack), ``gamma_m`` the largest of these ``gamma`` (the
direct laws' and the total's), and let ``G_{k-1}`` be computed as ``acc = fl(c_t G_t)``,
then ``acc = fl(acc - fl(c_j G_j))`` for each ``j`` (each ``c`` rounded once). Every
product errs by a factor in ``1 +- (gamma_m + 2.01 u)`` and by ``c s (1 + u)^2``; each of
the ``k - 1`` subtractions by ``u`` times the sum of the magnitudes. With ``S = c_t G_t +
sum_j c_j G_j <= 2 c_t G_t`` (the direct laws' weights sum to at most the total's, pointwise)
and ``c_t + sum_j c_j <= 2 c_t``,

    |acc - G_{k-1}| <= A G_t + B,   A = 2 c_t (gamma_m + (k + 2) u) (1 + 2^-40),
    B = 2 c_t s (1 + 2^-40)

(for ``gamma_m <= 2^-20`` the second-order terms, ``3 u gamma_m + (k - 1) u (gamma_m +
3 u)``, are below ``2^-40`` of the first-order ones). Next ``G_t`` is bounded
by the envelope: ``W_t G_t = sum_a W_a G_a``, the direct ``G_j <= (top_f + s)/(1 - gamma)``
and ``G_{k-1} <= acc + A G_t + B <= top_f + A G_t + B``, so

    G_t <= (top_f + B) c_1,   c_1 = 1 / ((1 - gamma) (1 - 4 (gamma_m + (k + 2) u)))

(``A W_{k-1}/W_t <= 2.01 (gamma_m + (k+2) u)``, rounded up to 4; ``B >= s``). Where every ``low_f > 2^40 B``
(``top_f + B <= top_f (1 + 2^-40)`` and ``B <= 2^-40 low_f``), ``G_{k-1} >= low_f - A G_t -
B`` gives ``A G_t / G_{k-1} <= X / (1 - X - 2^-40)`` with ``X = A c_1 (1 + 2^-39) r_max``,
``r_max`` the largest computed ``top_f / low_f`` (rounded once: ``(1 + 2u)`` is inside the
``2^-39``). So the complement's float lies in ``[G (1 - gamma_2) - B, G (1 + gamma_2) +
B]`` with ``gamma_2 = X / (1 - X - 2^-40)``, the screen's bound with ``gamma`` raised to
``max(gamma, gamma_2)`` and the slack to ``B``: nothing in the argument assumes
``gamma_2`` (it bounds ``G_t`` through ``A`` and ``B`` only). The screen uses it when
``X <= 2^-20`` and every ``low_f > 2^40 B``, and computes the last law's own mixture
otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from pdpsym.loss import histogram_mixture

_U = 2.0**-53
#: the largest ``X`` of the complement bound the screen accepts (else: the direct mixture)
MAX_X = 2.0**-20

#: one law: (the count vectors of its support, shape (m, k); their exact integer weights)
Law = tuple[np.ndarray, Sequence[int]]


class Total:
    """The every-value total law of one model and known assignment, with its float grid and
    its integer polynomials by point (kept across targets: the same law for each).

    Args:
        law: the total's support and exact integer weights (the common scale of the
            targets' laws).
    """

    def __init__(self, law: Law) -> None:
        self.law = law
        self.weight = sum(law[1])
        self._key: tuple[int, int, float] | None = None
        self._grid: np.ndarray | None = None
        self._eta = 0.0
        #: the screens that took the complement path with this total
        self.uses = 0

    def grid(
        self, T: int, k: int, q: float, last: np.ndarray, scratch: np.ndarray
    ) -> tuple[np.ndarray, float, list[int]]:
        """The total's float mixture in the screen's axis order (computed once per kernel).

        Args:
            T: the number of records.
            k: the number of bins.
            q: the kernel's ratio.
            last: the last axis's kernel.
            scratch: a grid-shaped array to use as scratch.

        Returns:
            ``(G_t, eta_in, order)`` as :func:`pdpsym.loss.histogram_mixture.mixture`.

        References:
            The complement bound of this module's docstring.
        """
        if self._key != (T, k, q) or self._grid is None:
            own = self._grid if self._grid is not None else np.empty(last.shape)
            self._eta, grid, _ = histogram_mixture.mixture(
                self.law[0], self.law[1], last, q, [own, scratch], natural=False
            )
            if grid is not own:
                np.copyto(own, grid)
            self._grid, self._key = own, (T, k, q)
        order = _order(k)
        return self._grid, self._eta, order


def _order(k: int) -> list[int]:
    """The axis order :func:`~pdpsym.loss.histogram_mixture.mixture` leaves (``natural=
    False``): it depends on ``k`` only."""
    order = list(range(k))
    for axis in range(1, k - 1):
        pos = order.index(axis)
        swap = [pos, *range(1, pos), 0, *range(pos + 1, k)]
        order = [order[s] for s in swap]
    return order


#: the elements of one block of the fused pass over the grids (a few blocks fit in cache)
BLOCK = 1 << 16


class Ratio(NamedTuple):
    """The float ratio of :func:`direct_ratio` and what the screen needs with it."""

    #: ``max_a G_a / min_b G_b`` at every grid point (in the axis order ``order``)
    r: np.ndarray
    #: the least ``min_b G_b`` over the grid
    low_min: float
    #: the largest ``r``
    r_max: float
    #: the grid axis of each array axis
    order: list[int]
    #: the largest ``gamma`` of the computed mixtures (the total's included)
    gamma: float
    #: ``W_t / W_{k-1}``, or None without the complement
    ct: Fraction | None
    #: the computed laws' heads (:func:`~pdpsym.loss.histogram_mixture.head_of`)
    heads: list[np.ndarray]
    #: their input errors
    etas: list[float]
    #: the largest ``r`` of each block of :data:`BLOCK` elements (flat order)
    block_max: np.ndarray


def direct_ratio(
    laws: Sequence[Law],
    last: np.ndarray,
    q: float,
    pool: list[np.ndarray],
    gamma_of: Callable[[float], float],
    total: Total | None = None,
) -> Ratio:
    """The float ratio ``r = max_a G_a / min_b G_b`` at every grid point, each law's
    mixture computed (no relabelling), the last one by the complement when ``total`` is
    given; the envelope, the complement and the ratio in one pass over blocks of the grids
    (the same floating-point operations as whole-grid ones, element by element).

    Args:
        laws: the laws (two or more), the last ``total`` minus the others when ``total``.
        last: the last axis's kernel.
        q: the kernel's ratio.
        pool: grid-shaped arrays, one per computed mixture and one more.
        gamma_of: a law's ``gamma`` from its input error ``eta_in``.
        total: the every-value total (:class:`Total`), or None.

    Returns:
        The :class:`Ratio` (its ``r`` an array of the pool).

    References:
        The complement bound of this module's docstring; Higham (2002), Section 3.1.
    """
    k = laws[0][0].shape[1]
    direct = laws[:-1] if total is not None else laws
    spare = pool[len(direct)]
    gamma = 0.0
    coefs: list[float] = []
    ct = None
    g_t = None
    sums = [sum(w) for _, w in laws]  # each law's total, once
    if total is not None:
        w_last = sums[-1]
        ct = Fraction(total.weight, w_last)
        g_t, eta_t, _ = total.grid(len(last) - 1, k, q, last, spare)
        gamma = gamma_of(eta_t)
        total.uses += 1
    grids = []
    heads: list[np.ndarray] = []
    etas: list[float] = []
    order: list[int] = list(range(k))
    for j, (counts, weights) in enumerate(direct):
        own = pool[j]
        eta, values, order = histogram_mixture.mixture(
            counts, weights, last, q, [own, spare], False, heads, sums[j]
        )
        etas.append(eta)
        gamma = max(gamma, gamma_of(eta))
        if values is spare:
            spare = own
        grids.append(values.reshape(-1))
        if total is not None:
            coefs.append(float(Fraction(sums[j], w_last)))
    n = grids[0].size
    block = min(BLOCK, n)
    top, low, acc, tmp = (np.empty(block) for _ in range(4))
    low_min, r_max = math.inf, -math.inf
    block_max = np.empty(-(-n // block))
    out = grids[0]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for s in range(0, n, block):
            e = min(n, s + block)
            m = e - s
            t, lo = top[:m], low[:m]
            first = grids[0][s:e]
            if len(grids) > 1:
                np.maximum(first, grids[1][s:e], out=t)
                np.minimum(first, grids[1][s:e], out=lo)
            else:
                np.copyto(t, first)
                np.copyto(lo, first)
            for g in grids[2:]:
                np.maximum(t, g[s:e], out=t)
                np.minimum(lo, g[s:e], out=lo)
            if g_t is not None and ct is not None:
                c = acc[:m]
                np.multiply(g_t.reshape(-1)[s:e], float(ct), out=c)
                for g, cj in zip(grids, coefs, strict=True):
                    np.multiply(g[s:e], cj, out=tmp[:m])
                    np.subtract(c, tmp[:m], out=c)
                np.maximum(t, c, out=t)
                np.minimum(lo, c, out=lo)
            low_min = min(low_min, float(lo.min()))
            np.divide(t, lo, out=out[s:e])
            block_max[s // block] = out[s:e].max()
            r_max = max(r_max, float(block_max[s // block]))
    return Ratio(out.reshape(last.shape), low_min, r_max, order, gamma, ct, heads, etas, block_max)


def refined_ratios(
    heads: Sequence[np.ndarray],
    etas: Sequence[float],
    last_law: Law,
    T: int,
    q: float,
    points: np.ndarray,
    gamma_of: Callable[[float], float],
    slack: float,
    last_total: int | None = None,
) -> tuple[np.ndarray, float] | None:
    """The ratio ``max_a G_a / min_b G_b`` at a few grid points from each law's own float
    probabilities (the last law's from its exact weights): no complement, so no
    ``gamma_2``. Each value is a sum of non-negative terms with the errors of the grid's
    (``gamma_of``) and at most ``(m - 1) u`` more from the summation order (``m`` the
    terms; Higham (2002), Section 4.2), doubled.

    Args:
        heads: the computed laws' heads (:func:`direct_ratio`).
        etas: their input errors.
        last_law: the last law (support and exact weights).
        T: the number of records.
        q: the kernel's ratio.
        points: int ``(c, k)`` grid points, in the grid's own axis order.
        gamma_of: a law's ``gamma`` from its input error.
        slack: the screen's absolute slack.
        last_total: the sum of the last law's weights when known.

    Returns:
        ``(r, gamma)``: the float ratios and the relative error of every value; None
        when some value is below ``2^40 slack`` (the screen keeps its own bounds).

    References:
        Higham (2002), Sections 3.1 and 4.2; the screen's bound in
        :mod:`pdpsym.loss.histogram_grid`.
    """
    head, eta = histogram_mixture.head_of(last_law[0], last_law[1], heads[0].shape, last_total)
    values, m = histogram_mixture.point_values([*heads, head], T, q, points)
    low = values.min(axis=0)
    if float(low.min()) <= 2.0**40 * slack:
        return None
    gamma = max(gamma_of(e) for e in [*etas, eta]) + 2 * m * _U
    return values.max(axis=0) / low, gamma


def complement_terms(ct: Fraction, gamma_m: float, slack: float, k: int) -> tuple[float, float]:
    """``(A, B)`` of the complement bound: ``|acc - G_{k-1}| <= A G_t + B``.

    Args:
        ct: ``W_t / W_{k-1}``.
        gamma_m: the largest ``gamma`` of the float mixtures used.
        slack: the mixtures' absolute slack ``s``.
        k: the number of bins.

    Returns:
        ``(A, B)``, rounded up generously.

    References:
        The complement bound of this module's docstring.
    """
    if gamma_m > MAX_X:
        return math.inf, math.inf
    c = float(ct) * (1 + 2.0**-40) ** 2  # the float of ct rounded once, and the 2^-40
    return 2 * c * (gamma_m + (k + 2) * _U), 2 * c * slack


def complement_gamma(A: float, gamma: float, gamma_m: float, k: int, rmax: float) -> float | None:
    """``gamma_2`` of the complement bound, or None when ``X > MAX_X``.

    Args:
        A: the bound's ``A`` (:func:`complement_terms`).
        gamma: the direct laws' largest ``gamma``.
        gamma_m: the largest ``gamma`` with the total's.
        k: the number of bins.
        rmax: the largest computed ``top_f / low_f``.

    Returns:
        ``gamma_2`` (a relative error of the complement's floats), or None.

    References:
        The complement bound of this module's docstring.
    """
    c1 = 1 / ((1 - gamma) * (1 - 4 * (gamma_m + (k + 2) * _U)))
    x = A * c1 * (1 + 2.0**-39) * rmax
    if not math.isfinite(x) or x > MAX_X:
        return None
    return x / (1 - x - 2.0**-40) * (1 + 2.0**-40)


__all__ = [
    "BLOCK",
    "MAX_X",
    "Ratio",
    "Total",
    "complement_gamma",
    "complement_terms",
    "direct_ratio",
    "refined_ratios",
]

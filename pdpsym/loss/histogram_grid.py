"""The sup of Eq. 2 for a histogram released with Laplace noise on every bin.

A histogram of ``T`` records over ``k`` states is the count vector ``n = (n_0, ...,
n_{k-1})`` (``sum_j n_j = T``); the mechanism releases ``y = n + (eta_0, ..., eta_{k-1})``
with independent ``eta_j ~ Lap(lambda)``. Given two conditional laws ``p_a, p_b`` of ``n``
(the target's value ``a`` or ``b``, with the same known records), Li et al.'s Eq. 2 is the
sup over ``y`` in ``R^k`` of ``ln G_a(y) / G_b(y)``, ``G(y) = sum_n p(n) q^{|y - n|_1}``,
``q = e^{-1/lambda}``.

**Where the sup is attained (the grid lemma).** Fix every coordinate but ``y_j`` and let
``y_j = y`` run over ``[m, m + 1]`` for an integer ``m``. Each term's factor
``q^{|y - n_j|}`` is ``e^{-(y - n_j)/lambda}`` when ``n_j <= m`` and ``e^{(y -
n_j)/lambda}`` when ``n_j >= m + 1``, so ``G_a = A e^{y/lambda} + B e^{-y/lambda}`` and
``G_b = C e^{y/lambda} + D e^{-y/lambda}`` with ``A, B, C, D >= 0`` not depending on
``y``. With ``u = e^{2y/lambda}`` the ratio is ``(A u + B) / (C u + D)``, a Möbius map of
``u`` with no pole on ``u > 0`` (``C u + D > 0``: the kernel is positive); its derivative
``(AD - BC)/(Cu + D)^2`` has one sign, so the ratio is monotone on ``[m, m + 1]`` and its
max there is at ``y = m`` or ``y = m + 1``. For ``y <= 0`` (``y >= T``) every count is on
one side, ``B = 0`` or ``A = 0`` and ``D = 0`` or ``C = 0`` likewise, and the ratio is
constant: it equals its value at ``0`` (at ``T``), so the ``±infinity`` limits add
nothing. Moving the coordinates one at a time to the better end of their cell never lowers
the ratio, so the sup over ``R^k`` is the max over the integer grid ``{0, ..., T}^k``
(attained: a max, not only a sup). Two-sided geometric noise on the integers gives the
same values on the grid, hence the same leakage.

**The grid, screened by floats with a proven error.** For each law ``G`` is computed on the
whole grid in float64: the last count is ``T`` minus the others, so the last axis is one
product with a power of ``q`` (``d`` roundings for ``q^d``), and every other axis takes two
first-order recurrences (``L[y] = p[y] + q L[y-1]`` and its mirror, one multiply and one
add a step, vectorized over the other axes); every term is a
sum of products of non-negative numbers. Higham (*Accuracy and Stability of Numerical
Algorithms*, 2nd ed., Sec. 3.1, Lemma 3.1) then bounds each computed value by ``G (1 +
eta)`` with ``|eta| <= gamma``: ``gamma = 2 k (2 T + 4) u + k T |theta| + eta_in`` (``u =
2^-53``; ``theta`` the relative error of the float ``q``, at most ``(2 + rate) u``;
``eta_in`` the error of the input probabilities, read as ``2^{log2 c - log2 C}`` from the
exact integers, at most ``(4 B + 2) u`` for ``B`` the largest bit length), doubled to
cover second-order terms. Values that underflow, and input probabilities below
``2^-1000`` (not stored), err by an absolute ``slack`` of at most ``(T + 1)^k (3 k (T + 1)
+ 1) 2^-1000`` (the kernel is at most 1, so no value gathers more than every grid
point's). So each true ``G_a`` lies in ``[(G_f - slack)/(1 + gamma), (G_f +
slack)/(1 - gamma)]``. The max over ordered pairs ``a != b`` of ``G_a/G_b`` is
``M/m`` with ``M = max_a G_a`` and ``m = min_b G_b`` (when both fall on the same value all
are equal and the ratio is 1), and the float max and min are exact operations, so at each
point the ratio lies in ``[(M_f - slack)/(m_f + slack)/w, (M_f + slack)/(m_f - slack)
w]``, ``w = (1 + gamma)/(1 - gamma) (1 + 2^-40)`` also covering the few roundings of
these formulas. Where every ``m_f > 2^40 slack`` this is within ``[r/w', r w']``, ``r =
M_f/m_f`` and ``w' = w (1 + 2^-38)``, so one division per point gives ``lb`` and ``ub``.
With ``LB = max_y lb(y)`` certain, only the points with ``ub(y) >= LB`` can carry the
max: the others are never listed again.

**Outside float range** (a small ``lambda``: ``q^{2T}`` underflows, and some mixture is
below ``2^40 slack``) the screen is redone in logs: ``ln G`` by the same recurrences with
``logaddexp`` (each step errs by at most ``3 u (1 + V)`` in absolute value, ``V`` the
largest ``|ln G|`` on the grid, over at most ``k (2 T + 3) + 2`` steps on any path, plus
the input's ``(4 B + 2) u``; doubled), so every point keeps a proven bound.

**Relabelled laws (the relabelling lemma).** If law ``j`` is law 0 with its counts
permuted, ``p_j(m) = p_0(n)`` for ``m_c = n_{perm[c]}``, then ``|y - m|_1 = |z - n|_1``
with ``z_{perm[c]} = y_c``, so ``G_j(y) = G_0(z)`` exactly: its float grid is law 0's
computed grid with the axes permuted (the same floats, the same error bound) and its ball
at ``y`` is law 0's at ``z``. Callers pass such permutations (``perms``) for laws that a
symmetry of the model relabels (:func:`pdpsym.loss.histogram_symmetry.relabellings`).

**Laws computed one by one** (no relabelling) go through
:mod:`pdpsym.loss.histogram_mixture` (the recurrences, each grid left in its transposed
axis order: the same floats) and :func:`pdpsym.loss.histogram_complement.direct_ratio`
(the envelope and the ratio in one pass over blocks of the grids, and, given the
every-value total, the last law's floats by the complement bound proved there; the points
that wider bound keeps are bounded again by each law's own float sums at them).

**The decision.** At each remaining point (the best by float, as many as
:data:`MAX_TERMS` support terms allow, the rest bounded by their ``ub``) every ``G_a`` is an arb ball: the exact integer weights of
the law grouped by their distance ``d = |y - n|_1`` give ``sum_d W_d q^d``, an integer
polynomial evaluated at the ball of ``q`` (Johansson, "Arb", IEEE Trans. Computers 66(8),
2017). The enclosure is ``[max lo, max hi]`` over points and ordered pairs (ties need no
decision), and the working precision doubles until the digits asked for are certain;
points whose certain ``ub`` is below the best ``lo`` so far are not evaluated (the max's
own point never is: its ``ub`` is at least the max).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from pdpsym.core.balls import BallPoly, arb_from_fraction, ball_endpoints, working_precision
from pdpsym.core.decimals import fixed_digits
from pdpsym.loss import histogram_complement, histogram_orbits
from pdpsym.loss.histogram_mixture import (
    DROP_BITS,
    envelope,
    last_view,
    log_screen,
    mixture,
    natural_points,
)
from pdpsym.loss.histogram_orbits import is_relabelling

#: the most support terms (points times laws times support) decided by balls; the
#: points beyond are bounded by their float ``ub`` (at least :data:`MIN_CANDIDATES`)
MAX_TERMS = 1_000_000
#: the fewest grid points decided by balls
MIN_CANDIDATES = 64
#: the largest working precision (bits) of the decision
MAX_BITS = 2048
_U = 2.0**-53

#: one law: (the count vectors of its support, shape (m, k); their exact integer weights)
Law = tuple[np.ndarray, Sequence[int]]
#: per law, None or the permutation of the bins that maps law 0 onto it
Perms = Sequence[tuple[int, ...] | None] | None


def decode_counts(codes: Sequence[int], k: int, radix: int, total: int) -> np.ndarray:
    """The count vectors of mixed-radix codes ``c = sum_{s >= 1} n_s radix^(s-1)``.

    Args:
        codes: the codes (non-negative ints).
        k: the number of states.
        radix: ``T + 1`` or more (every ``n_s`` is below it).
        total: ``T``, the sum of every count vector (``n_0 = T - sum_{s >= 1} n_s``).

    Returns:
        An int64 array of shape ``(len(codes), k)``.

    References:
        Knuth, TAOCP vol. 2, Section 4.1 (mixed-radix numbers).

    Examples:
        >>> decode_counts([0, 1, 4 + 2], 3, 4, 3).tolist()
        [[3, 0, 0], [2, 1, 0], [0, 2, 1]]
    """
    c = np.asarray(codes, dtype=np.int64)
    out = np.empty((len(c), k), dtype=np.int64)
    rest = c.copy()
    for s in range(1, k):
        out[:, s] = rest % radix
        rest //= radix
    out[:, 0] = total - out[:, 1:].sum(axis=1)
    return out


class Workspace:
    """The screen's float arrays, kept from one call to the next (a run over many targets
    of one chain allocates them once: fresh arrays of this size cost page faults)."""

    def __init__(self) -> None:
        self.key: tuple[int, int, float] | None = None
        self.last: np.ndarray | None = None
        self.arrays: list[np.ndarray] = []
        self.orbit: histogram_orbits.OrbitIndex | None = None

    def get(self, T: int, k: int, q: float, count: int = 4) -> tuple[np.ndarray, list[np.ndarray]]:
        """The last axis's kernel and ``count`` (or more) grid-shaped arrays for ``(T, k,
        q)``, allocated when first asked for.

        Args:
            T: the number of records.
            k: the number of states.
            q: the kernel's ratio.
            count: the arrays needed.

        Returns:
            ``(last, [a, b, ...])``.

        References:
            The module docstring (the last axis needs no recurrence).
        """
        if self.key != (T, k, q) or self.last is None:
            # a view of a small table, not a grid-sized array (the same floats)
            self.last = last_view(T, k, q)
            if self.arrays and self.arrays[0].shape != self.last.shape:
                self.arrays = []
            self.key = (T, k, q)
        while len(self.arrays) < count:
            self.arrays.append(np.empty(self.last.shape))
        return self.last, self.arrays

    def orbits(self, R: int, k: int) -> histogram_orbits.OrbitIndex:
        """The sorted points of the grid ``{0..R-1}^k`` and their positions (kept).

        Args:
            R: the grid's side.
            k: the number of coordinates.

        Returns:
            The :class:`~pdpsym.loss.histogram_orbits.OrbitIndex`.

        References:
            The orbit lemma of :mod:`pdpsym.loss.histogram_orbits`.
        """
        if self.orbit is None or self.orbit.shape != (R,) * k:
            self.orbit = histogram_orbits.OrbitIndex(R, k)
        return self.orbit


def screen(
    laws: Sequence[Law],
    T: int,
    rate: Fraction,
    alpha: Fraction | None = None,
    workspace: Workspace | None = None,
    perms: Perms = None,
    symmetric: bool = False,
    complement: histogram_complement.Total | None = None,
) -> tuple[np.ndarray, np.ndarray, float]:
    """The grid points that may carry the max of Eq. 2, best float first, and ``LB``.

    Args:
        laws: two or more laws of the count vector (each with a positive total).
        T: the number of records.
        rate: ``1/lambda`` (in count units).
        alpha: the kernel ``q`` itself, exact (the geometric mechanism's ``alpha``;
            then ``rate`` is ignored).
        workspace: arrays to reuse (None: fresh ones).
        perms: per law, None or a permutation ``perm`` of the bins such that the law is
            law 0's with its counts permuted (``m_c = n_{perm[c]}``); its mixture is then
            law 0's float grid with its axes permuted, not computed again (the relabelling
            lemma in the module docstring).
        symmetric: the laws are every value's of a chain invariant under every
            relabelling of its states, each law ``j > 0`` given by its ``perm``: only the
            sorted points are screened (:mod:`pdpsym.loss.histogram_orbits`).
        complement: the every-value total when the last law is it minus the others (no
            relabelling): that law's floats by the complement bound
            (:mod:`pdpsym.loss.histogram_complement`), one mixture fewer.

    Returns:
        ``(points, ubs, LB)``: the points that may carry the max (int ``(m, k)``) by
        decreasing ``ub``; their ``ub`` (certain upper bounds of the log of the max ratio
        there); a certain lower bound ``LB`` of the log of the max (a point left out is below
        the best kept one, and at most ``2^-40 (1 + |LB|)``, the float log's margin, above it).

    References:
        Li et al. (2019), Section IV-A, Eq. 2; Higham (2002), Section 3.1, Lemma 3.1.
    """
    k = laws[0][0].shape[1]
    if alpha is not None:
        q, theta = float(alpha), _U
    else:
        q, theta = math.exp(-float(rate)), (2 + float(rate)) * _U
    slack = float((T + 1) ** k * (3 * k * (T + 1) + 1)) * 2.0**-DROP_BITS

    def gamma_of(eta_in: float) -> float:
        return 2 * (2 * k * (2 * T + 4) * _U + k * T * theta + eta_in)

    gamma = 0.0
    ws = workspace or Workspace()
    perms = perms or [None] * len(laws)
    orbit = symmetric and all(p is not None for p in perms[1:])
    relabelled = any(p is not None for p in perms)
    if relabelled or orbit:
        complement = None
    direct = len(laws) - (complement is not None)
    last, arrays = ws.get(T, k, q, 2 if orbit else 4 if relabelled else direct + 1)
    where = None  # the sorted points' grid positions when only they are screened
    axes: list[int] | None = None  # the envelope's axis order when not the grid's own
    ct = None
    r = None  # the ratio, when the direct path computed it (with low_min and rmax)
    ratio: histogram_complement.Ratio | None = None
    if orbit:
        # law 0's mixture left in its transposed axis order (the same floats): the
        # sorted points' positions are read through that order
        eta_in, grid0, order0 = mixture(laws[0][0], laws[0][1], last, q, arrays[:2], False)
        gamma = gamma_of(eta_in)
        index = ws.orbits(T + 1, k)
        top, low = histogram_orbits.envelope(grid0, index, perms, tuple(order0))
        where = index.flat(None)
    elif not relabelled:
        ratio = histogram_complement.direct_ratio(laws, last, q, arrays, gamma_of, complement)
        r, low_min, rmax, axes, gamma, ct = ratio[:6]
    else:
        bufs, top, low = arrays[:2], arrays[2], arrays[3]
        # law 0 first, then the laws that are its relabellings (views of bufs[0]), then the rest
        sequence = [0] + [j for j in range(1, len(laws)) if perms[j] is not None]
        sequence += [j for j in range(1, len(laws)) if perms[j] is None]
        for j in sequence:
            counts, weights = laws[j]
            perm = perms[j]
            if perm is None:
                eta_in = mixture(counts, weights, last, q, bufs)[0]
                gamma = max(gamma, gamma_of(eta_in))
                values = bufs[0]
            else:
                values = np.transpose(bufs[0], perm)
            envelope(top, low, values, first=j == 0)
    gamma_eff, slack_eff, A = gamma, slack, 0.0
    if ct is not None:
        # the complement bound (pdpsym.loss.histogram_complement): the last law's floats
        # err by gamma_2 relative (found below from r_max) and B absolute
        A, slack_eff = histogram_complement.complement_terms(ct, gamma, slack, k)
    if r is None:
        low_min = float(low.min())
    if low_min > 2.0**40 * slack_eff:
        # every m_f > 2^40 slack: (M_f + slack)/(m_f - slack) <= (M_f/m_f)(1 + 2^-38), so
        # ub = r w and lb = r / w with r = M_f/m_f and w also covering the slack; compare
        # in the linear domain, take logs of the survivors only (widened for the float log)
        if r is None:
            r = np.divide(top, low, out=top)
            rmax = float(r.max())
        if ct is not None:
            g2 = histogram_complement.complement_gamma(A, gamma, gamma, k, rmax)
            if g2 is None:  # too much cancellation: the last law's own mixture
                return screen(laws, T, rate, alpha, ws, perms, symmetric)
            gamma_eff = max(gamma, g2)
        w = (1 + gamma_eff) / (1 - gamma_eff) * (1 + 2.0**-38) * (1 + 2.0**-40)
        cut = rmax / (w * w) * (1 - 2.0**-50)
        if ratio is None:
            idx = np.flatnonzero(r >= cut)
        else:  # the blocks whose largest r reaches the cut only (the same points)
            size, flat_r = histogram_complement.BLOCK, r.reshape(-1)
            idx = np.concatenate(
                [
                    b * size + np.flatnonzero(flat_r[b * size : (b + 1) * size] >= cut)
                    for b in np.flatnonzero(ratio.block_max >= cut)
                ]
                or [np.empty(0, dtype=np.int64)]
            )
        ub_log = np.log(r.ravel()[idx] * w)
        ub_log += 2.0**-40 * (1 + np.abs(ub_log))
        if axes is not None:
            # the grid's own positions, increasing (the order a natural screen lists them)
            cells = natural_points(np.stack(np.unravel_index(idx, last.shape), axis=1), axes)
            flat = np.ravel_multi_index(tuple(cells.T), last.shape)
            rank = np.argsort(flat, kind="stable")
            idx, ub_log = flat[rank], ub_log[rank]
        best = math.log(rmax / w)
        if ct is not None and ratio is not None and len(idx) > 1:
            # the complement's wider bound keeps more points: bound them again by each
            # law's own floats (every point dropped here or above is below the max)
            pts = np.stack(np.unravel_index(idx, last.shape), axis=1)
            got = histogram_complement.refined_ratios(
                ratio.heads, ratio.etas, laws[-1], T, q, pts, gamma_of, slack
            )
            if got is not None:
                w2 = (1 + got[1]) / (1 - got[1]) * (1 + 2.0**-38) * (1 + 2.0**-40)
                rmax2 = float(got[0].max())
                keep = np.flatnonzero(got[0] >= rmax2 / (w2 * w2) * (1 - 2.0**-50))
                idx = idx[keep]
                ub_log = np.log(got[0][keep] * w2)
                ub_log += 2.0**-40 * (1 + np.abs(ub_log))
                best = max(best, math.log(rmax2 / w2))
        order = np.argsort(-ub_log, kind="stable")
        pos = idx[order] if where is None else where[idx[order]]
        points = np.stack(np.unravel_index(pos, last.shape), axis=1)
        return points, ub_log[order], best - 2.0**-40 * (1 + abs(best))
    if ct is not None:  # the last law's own mixture, or the screen in logs
        return screen(laws, T, rate, alpha, ws, perms, symmetric)
    # some mixtures are too small for the linear screen: redo it in logs
    lq = (
        math.log(alpha.numerator) - math.log(alpha.denominator)
        if alpha is not None
        else -float(rate)
    )
    lb_log, ub_log = log_screen(laws, T, lq, ws.get(T, k, q, 4)[1])
    best = float(lb_log.max())
    idx = np.flatnonzero(ub_log >= best)
    order = np.argsort(-ub_log.ravel()[idx], kind="stable")
    flat = idx[order]
    points = np.stack(np.unravel_index(flat, ub_log.shape), axis=1)
    return points, ub_log.ravel()[flat], best


def _law_poly(
    y: np.ndarray,
    j: int,
    laws: Sequence[Law],
    perms: Sequence[tuple[int, ...] | None],
    cache: dict[tuple[int, tuple[int, ...]], tuple[list[int], int]],
    objs: dict[int, np.ndarray],
) -> tuple[list[int], int]:
    """``G_j(y) = sum_d W_d q^d / W`` as the integer list ``W_d`` and ``W``; a relabelled
    law's is law 0's at ``z`` (``z_{perm[c]} = y_c``). Kept in ``cache`` by law and point
    (the integers do not depend on the working precision)."""
    perm = perms[j]
    if perm is None and j > 0:
        key = (j, tuple(y.tolist()))
        z, law = y, laws[j]
    else:
        z = y.copy()
        if perm is not None:
            z[list(perm)] = y
        key = (0, tuple(z.tolist()))
        law = laws[0]
    if key not in cache:
        if key[0] not in objs:  # the law's weights as one object array, made once
            objs[key[0]] = np.array(law[1], dtype=object)
        cache[key] = _distance_poly(z, (law[0], objs[key[0]]))
    return cache[key]


def _distance_poly(y: np.ndarray, law: tuple[np.ndarray, Any]) -> tuple[list[int], int]:
    """The law's exact weights grouped by ``d = |y - n|_1``: ``(W_d for d = 0..max, sum)``."""
    counts, weights = law
    d = np.abs(counts - y).sum(axis=1)
    order = np.argsort(d, kind="stable")
    ds = d[order]
    starts = np.flatnonzero(np.r_[True, np.diff(ds) != 0])
    sums = np.add.reduceat(np.asarray(weights, dtype=object)[order], starts)
    w = [0] * (int(ds[-1]) + 1)
    for at, total in zip(ds[starts].tolist(), sums.tolist(), strict=True):
        w[at] = total  # exact integer sums of the weights at each distance
    return w, sum(sums.tolist())


def grid_sup(
    laws: Sequence[Law],
    T: int,
    rate: Fraction,
    digits: int,
    alpha: Fraction | None = None,
    workspace: Workspace | None = None,
    perms: Perms = None,
    found: list[np.ndarray] | None = None,
    symmetric: bool = False,
    complement: histogram_complement.Total | None = None,
) -> tuple[Fraction, Fraction] | None:
    """``[lo, hi]`` enclosing Eq. 2 for a histogram with Laplace noise of rate ``rate``.

    Args:
        laws: each compatible target value's law of the count vector: the support's count
            vectors (int array ``(m, k)``, each summing to ``T``) and their exact
            non-negative integer weights (any common scale per law).
        T: the number of records.
        rate: ``1/lambda > 0``, exact.
        digits: the significant digits wanted (fewer when :data:`MAX_BITS` is reached or
            more points survive the screen than :data:`MAX_TERMS` allows to decide).
        alpha: the kernel ``q = alpha`` exactly (geometric noise ``P(eta) ~ alpha^|eta|``
            with a rational ``alpha``; ``rate`` is then ignored).
        workspace: the screen's arrays to reuse across calls (None: fresh ones).
        perms: per law, None or a permutation ``perm`` of the bins with law ``j`` equal
            to law 0 relabelled (``m_c = n_{perm[c]}``, checked); its float grid and its
            balls are law 0's at the permuted point (the relabelling lemma).
        found: when given, the screened points decided by balls (best float first, an
            int array ``(m, k)``) are appended to it (for :func:`points_sup` later).
        symmetric: screen the sorted points only (as :func:`screen`).

    Returns:
        ``(lo, hi)`` exact rationals with ``lo <= max_{a != b} sup_y ln G_a/G_b <= hi``,
        or None when fewer than two laws are given.

    References:
        Li et al. (2019), Section IV-A, Eq. 2 (the sup over the output); Dwork, Roth,
        "The Algorithmic Foundations of Differential Privacy" (2014), Section 3.3 (the
        Laplace mechanism on a histogram, noise on every bin); the grid lemma of this
        module's docstring.
    """
    n_laws = len(laws)
    laws, perms = _kept(laws, perms)
    if len(laws) < 2:
        return None
    if len(laws) < n_laws or any(p is not None for p in perms or ()):
        complement = None  # the identity is the caller's for its laws as given
    points, ubs, _ = screen(laws, T, rate, alpha, workspace, perms, symmetric, complement)
    terms = sum(len(law[1]) for law in laws)
    cap = max(MIN_CANDIDATES, MAX_TERMS // max(terms, 1))
    decided = points[:cap]
    if found is not None:
        found.append(decided)
    rest_hi = None
    if len(points) > cap:
        top = float(ubs[cap])
        if not math.isfinite(top):  # pragma: no cover - the log screen bounds every point
            raise ArithmeticError("the float screen could not bound the grid")
        rest_hi = Fraction(top)
    return _decide(laws, perms, decided, rate, alpha, digits, rest_hi, {}, ubs[:cap])


def _kept(laws: Sequence[Law], perms: Perms) -> tuple[list[Law], Perms]:
    """The laws of positive total, with their permutations (checked cheaply)."""
    if perms is not None:
        keep = [j for j, law in enumerate(laws) if any(law[1])]  # weights are >= 0
        perms = [perms[j] for j in keep] if keep and keep[0] == 0 else None
        laws = [laws[j] for j in keep]
        for law, perm in zip(laws, perms or (), strict=False):
            # a cheap guard (is_relabelling is the full check, in the tests)
            if perm is not None and (
                len(law[1]) != len(laws[0][1]) or law[0].shape[1] != len(perm)
            ):
                raise ValueError("a law is not law 0 relabelled by its permutation")
    return [law for law in laws if any(law[1])], perms


def _decide(
    laws: Sequence[Law],
    perms: Perms,
    decided: np.ndarray,
    rate: Fraction,
    alpha: Fraction | None,
    digits: int,
    rest_hi: Fraction | None,
    cache: dict[tuple[int, tuple[int, ...]], tuple[list[int], int]],
    ubs: np.ndarray | None = None,
) -> tuple[Fraction, Fraction]:
    """``[max lo, max hi]`` of the balls of ``ln G_a/G_b`` over the points ``decided`` and
    ordered pairs (``rest_hi``: a bound of the points left out), raising the precision
    until ``digits`` are certain (or :data:`MAX_BITS`); ``cache`` keeps each law's
    integer polynomial by point (they do not depend on the scale). With ``ubs`` (each
    point's certain upper bound, decreasing) the points whose bound is below the best
    ``lo`` so far are not evaluated: their value is below the max (the max's own point is
    never skipped, its bound being at least the max), so the enclosure stays certified."""
    perms = perms or [None] * len(laws)
    big = alpha.denominator if alpha is not None else rate.numerator
    prec = max(64, int(digits * math.log2(10)) + 40, big.bit_length() + 64)
    objs: dict[int, np.ndarray] = {}
    while True:
        lo: Fraction | None = None
        hi: Fraction | None = rest_hi
        with working_precision(prec):
            qb = arb_from_fraction(alpha) if alpha is not None else (-arb_from_fraction(rate)).exp()
            for i, y in enumerate(decided):
                if ubs is not None and lo is not None and Fraction(float(ubs[i])) < lo:
                    break  # this point and the rest (decreasing bounds) are below the max
                logs = []
                for j in range(len(laws)):
                    w, total = _law_poly(y, j, laws, perms, cache, objs)
                    logs.append((BallPoly(w)(qb) / total).log())
                for a in range(len(logs)):
                    for b in range(len(logs)):
                        if a == b:
                            continue
                        e_lo, e_hi = ball_endpoints(logs[a] - logs[b])
                        lo = e_lo if lo is None else max(lo, e_lo)
                        hi = e_hi if hi is None else max(hi, e_hi)
        assert lo is not None and hi is not None
        if fixed_digits(lo, hi, digits) is not None or prec >= MAX_BITS or rest_hi is not None:
            return lo, hi
        prec *= 2


def points_sup(
    laws: Sequence[Law],
    rate: Fraction,
    points: np.ndarray,
    digits: int,
    perms: Perms = None,
    cache: dict[tuple[int, tuple[int, ...]], tuple[list[int], int]] | None = None,
) -> tuple[Fraction, Fraction] | None:
    """``[lo, hi]`` enclosing the max of ``ln G_a(y)/G_b(y)`` over the given grid points
    ``y`` and ordered pairs ``a != b``: a certified LOWER bound of Eq. 2 (its ``lo`` is
    below the max over every output), by the same balls as :func:`grid_sup`'s decision.

    Args:
        laws: the laws, as for :func:`grid_sup`.
        rate: ``1/lambda > 0``, exact.
        points: an int array ``(m, k)`` of grid points (``m >= 1``).
        digits: the significant digits wanted (fewer at :data:`MAX_BITS`).
        perms: the laws' relabellings, as for :func:`grid_sup`.
        cache: the laws' integer polynomials by point, kept across calls (None: fresh).

    Returns:
        ``(lo, hi)`` exact rationals enclosing that max, or None when fewer than two laws
        are given.

    References:
        Li et al. (2019), Section IV-A, Eq. 2 (a sup over outputs is at least its value at
        any one output); Johansson, "Arb", IEEE Trans. Computers 66(8), 2017.
    """
    laws, perms = _kept(laws, perms)
    if len(laws) < 2:
        return None
    return _decide(laws, perms, points, rate, None, digits, None, {} if cache is None else cache)


__all__ = [
    "MAX_TERMS",
    "Workspace",
    "decode_counts",
    "grid_sup",
    "is_relabelling",
    "points_sup",
    "screen",
]

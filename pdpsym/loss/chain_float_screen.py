"""The float64 screen of a count chain's interior outputs, with proven error bounds.

For a :class:`~pdpsym.loss.chain_all_targets.CountChain`, a target ``t`` and a state ``a``, the
law ``J_a = F_t(a) B_t(a)`` of the count and the Laplace mixtures
``M_a(j) = sum_c J_a[c] q^{|j - c|}`` decide Li et al.'s Eq. 2 at every output ``j``.
The extremes ``j = 0, N`` are enclosed by balls (:mod:`pdpsym.loss.chain_all_targets`); this
module bounds every interior output ``0 < j < N`` from one float64 pass over all targets:
the forward-backward on count vectors (each step rescaled by a power of two, which is
exact), the laws by direct convolution, and the mixtures by the two first-order
recurrences.

**Relative errors.** Every quantity is a sum of products of non-negative numbers, so each
computed value is ``x e^eta + alpha`` with ``x`` the exact one, ``|eta| <= d u'``
(``u' = -ln(1 - 2^-53)``, ``d`` the roundings on the value's longest path: Higham,
*Accuracy and Stability of Numerical Algorithms*, 2nd ed., Sec. 3.1, Lemma 3.1; a fused
multiply-add only rounds less).

**Absolute errors (underflow).** A product that underflows errs by at most ``2^-1075``
in absolute value (Higham, Sec. 2.2: ``fl(x op y) = (x op y)(1 + delta) + eta``); the
screen charges ``2^-1020`` per product, which also covers a flush-to-zero unit. These
``alpha`` are carried as L1 norms (:class:`_Slack`): a step of the chain does not increase
the L1 norm over counts and states of a forward vector, nor the largest L1 norm over
states of a backward vector (the rows of a transition matrix sum to 1); a rescaling by
``2^-e`` scales them; a convolution of vectors with entries at most 1 adds
``(N + 1)(|alpha_F| + |alpha_B|) + |alpha_F||alpha_B|``; a mixture value (kernel at most
1) errs by at most the law's norm. So a law whose tails underflow (an alternating chain:
``P(S = N)`` near ``10^-2000``) still gives mixtures with a proven relative error, as
long as they stay far above the absolute slack (checked: ``GUARD``).

**The bound at an interior output.** With ``R_a(j) = M_a(j)/J_a(1)``, every true
ordered-pair ratio at ``j`` is below ``top(j) (1 + kappa)``, where ``top(j)`` is the
float ``max_a up_a(j) / min_b low_b(j)`` of upper and lower bounds of each ``R_a(j)``
(the absolute slack added or taken). An output whose bound is below ``e^lo`` (``lo`` the
certified lower end of the extremes) cannot carry the max.

**Plateaus (the tail lemma).** When a law's tails fall faster than the kernel (an
alternating chain, independent-like records) the ratio is flat to far below float
accuracy near the ends, so the outputs there can be neither proven below the extremes
nor told apart from them; and an output whose mixtures fall below float range cannot be
bounded at all. For them (:func:`tail_bounds`, :func:`interior_enclosure`): with
``D_b(j) = sum_{c > j} J_b[c] (q^{j-c} - q^{c-j})`` and
``x_b(j) = q^{N-j} D_b(j) / M_b(N)``, splitting the sum at ``j`` gives exactly
``M_b(j) = q^{j - N} M_b(N) (1 - x_b(j))``, so for every ordered pair

    ln R_a(j)/R_b(j) = ln R_a(N)/R_b(N) + ln(1 + y),   y = (x_b - x_a) / (1 - x_b),

and ``y - y^2/2 <= ln(1 + y) <= y - y^2/2 + y^3/3`` for ``y >= 0``. In the tilted law
``J^{1/q}[c] = J_b[c] q^{-c}``, ``x_b(j) = (S(j) - V(j)) / S(-1)`` with
``S(j) = sum_{c > j} J^{1/q}[c]`` and ``V(j) = sum_{c > j} J^{1/q}[c] q^{2(c - j)} <= q^2
S(j)``: sums of non-negative terms (the same error model; the difference loses at most
the factor ``(1 + q^2)/(1 - q^2)``), scale-free, and accurate even where ``M_b(j)``
itself is far below float range. The left end is the same with ``J^q[c] = J_b[c] q^c``
summed over ``c < j``. Each such output is thus enclosed from the pair's certified value
at the end and the floats of ``x``: the value is ``V in [lo', hi']`` with ``lo'`` and
``hi'`` at most the certified ends plus these bounds, and a target whose enclosure then
misses the digits asked for is left to the exact path.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from pdpsym.core.balls import Ball, arb_from_fraction, ball_endpoints, working_precision
from pdpsym.loss.chain_all_targets import CountChain

#: bounds of mixture values and norms must stay at or above this (every quotient formed
#: from them is then a normal number, far above the absolute slack)
GUARD = 2.0**-960
#: the smallest multiplier (transition probability, kernel ratio) the screen accepts
MIN_FACTOR = 2.0**-60
#: the most states whose ordered pairs the tail bounds run over
MAX_TAIL_STATES = 8
_U = 2.0**-53


@dataclass(frozen=True)
class Screen:
    """Per target: ``top``, the largest float ratio ``max_a R_a(j) / min_b R_b(j)`` over
    interior outputs ``0 < j < N`` (``R_a(j) = M_a(j)/J_a(1)``; ``inf`` when some output's
    mixtures are too faint to bound), None when the screen cannot vouch for the target;
    ``ratios``, that ratio at each interior output; and ``kappa``: every true
    ordered-pair ratio at an interior output ``j`` is below ``ratios[j] * (1 + kappa)``."""

    top: dict[int, float | None]
    kappa: float
    ratios: dict[int, Any]


def interior_screen(chain: CountChain, positions: Sequence[int], rate: Fraction) -> Screen:
    """The float64 screen of every interior output of every target (see the module doc).

    Args:
        chain: the chain.
        positions: the target records (0-based).
        rate: the Laplace rate in count units.

    Returns:
        The :class:`Screen`.

    References:
        Li et al. (2019), Section 3.2, Eq. 2; Higham, Accuracy and Stability of Numerical
        Algorithms (2002), Sec. 2.2 (the model with underflow) and Sec. 3.1 (the
        rounding-error counter).
    """
    T, k, N = chain.length, chain.k, chain.span
    want = sorted(set(positions))
    # rounding counts on the longest path (see the module doc): a converted probability
    # 1; a step of the chain k + 1 (a product, then k - 1 additions in any order); a
    # convolution term 1 and at most N additions; the kernel ratio q 3 (the ball's
    # midpoint, then its float); a recurrence step 5 (q, a product, an addition), or a
    # power of q, a product and a running sum; the final bounds 3 each (the absolute
    # slack added or taken, the quotient)
    d_fb = 2 + T * (k + 1)
    d_j = d_fb + N + 1
    d_m = d_j + 5 * (N + 1) + 8
    d_n = d_j + N + 1
    m = 2 * (d_m + d_n + 3) + 1
    kappa = 3.0 * m * _U + 16 * _U
    none: dict[int, float | None] = dict.fromkeys(want)
    if not want or N < 2 or m * _U > 1e-4 or k > 64:
        return Screen(none, kappa, {})
    with working_precision(64):
        q_ball = (-arb_from_fraction(rate)).exp()
        q = float(q_ball.mid())
    mats = [np.array([[float(p) for p in row] for row in mm]) for mm in chain.matrices]
    positive = [x for mm in mats for x in mm.ravel() if x > 0]
    init = np.array([float(p) for p in chain.initial])
    if not q >= MIN_FACTOR or min(positive, default=1.0) < MIN_FACTOR:
        return Screen(none, kappa, {})
    if any(0 < x < MIN_FACTOR for x in init):
        return Screen(none, kappa, {})
    laws, errs = _laws(chain, want, N, mats, init)
    slack = _Slack(N, m)
    norms = laws.sum(axis=0)
    left = np.empty_like(laws)
    acc = np.zeros(laws.shape[1])
    for c in range(N + 1):
        np.multiply(acc, q, out=acc)
        acc += laws[c]
        left[c] = acc
    right = np.empty_like(laws)
    acc = np.zeros(laws.shape[1])
    right[N] = 0.0
    for c in range(N - 1, -1, -1):
        acc += laws[c + 1]
        np.multiply(acc, q, out=acc)
        right[c] = acc
    mix = (left + right)[1:N]
    del left, right
    tops: dict[int, float | None] = {}
    ratios: dict[int, Any] = {}
    possible = possible_states(chain, want)
    for i, t in enumerate(want):
        cols = slice(i * k, (i + 1) * k)
        e_mix, e_norm = slack.mixture(errs[i])
        n_cols = norms[cols]
        live = np.array(possible[t])
        if int(live.sum()) < 2 or float((n_cols[live] - e_norm).min()) < GUARD:
            tops[t] = None  # fewer than two states, or a state too faint to bound
            continue
        vals = mix[:, cols][:, live]
        low = vals - e_mix
        with np.errstate(all="ignore"):
            upper = (vals + e_mix) / (n_cols[live] - e_norm)
            lower = low / (n_cols[live] + e_norm)
            ratio = upper.max(axis=1) / lower.min(axis=1)
        # an output whose mixtures are too faint to bound is left to the tail lemma
        ratio[(low < GUARD).any(axis=1) | ~np.isfinite(ratio)] = math.inf
        tops[t] = float(ratio.max())
        ratios[t] = ratio
    return Screen(tops, kappa, ratios)


def _laws(
    chain: CountChain,
    want: list[int],
    N: int,
    mats: list[Any],
    init: Any,
    tilt: Mapping[int, float] | None = None,
) -> tuple[Any, list[Any]]:
    """The float laws ``J_{t,a}`` (column ``i k + a`` for the ``i``-th target) and, per
    target, a ball above the L1 norm of each law's absolute error. With ``tilt`` (the
    floats of ``theta^c`` for every contribution ``c``) the laws are the tilted ``J[c] theta^c``: each
    record's contribution ``c`` also multiplies by ``theta^c``."""
    T, k = chain.length, chain.k
    table = np.array(chain.table, dtype=np.int64)
    masks = np.ones((T, k))
    for t, s in chain.fixed.items():
        masks[t] = 0.0
        masks[t, s] = 1.0
    slack = _Slack(N, 4 * (T + N + 8) * (k + 2))

    def shifted(vec: Any, row: Any) -> Any:
        out = np.zeros((k, N + 1))
        for s in range(k):
            c = int(row[s])
            out[s, c:] = vec[s, : N + 1 - c] if tilt is None else vec[s, : N + 1 - c] * tilt[c]
        return out

    def rescale(vec: Any) -> tuple[Any, int]:
        top = float(vec.max())
        if top <= 0:
            return vec, 0
        e = math.frexp(top)[1]
        return np.ldexp(vec, -e), e

    def mat(step: int) -> Any:
        return mats[0] if len(mats) == 1 else mats[step]

    back: dict[int, tuple[Any, Any]] = {}
    cur = np.zeros((k, N + 1))
    cur[:, 0] = 1.0
    err = slack.zero
    if T - 1 in want:
        back[T - 1] = (cur, err)
    for t in range(T - 2, want[0] - 1, -1):
        nxt = shifted(cur * masks[t + 1][:, None], table[t + 1])
        cur, e = rescale(mat(t) @ nxt)
        # per state (the norm's max): N + 1 entries, k products and a tilt each
        err = slack.step(err, e, (N + 1) * (k + 1), N + 1)
        if t in want:
            back[t] = (cur, err)
    start = np.zeros((k, N + 1))
    start[:, 0] = init * masks[0]
    fwd, e = rescale(shifted(start, table[0]))
    f_err = slack.step(slack.zero, e, (N + 1) * k, (N + 1) * k)
    laws = np.zeros((N + 1, len(want) * k))
    errs = []
    for t in range(want[-1] + 1):
        if t > 0:
            fwd, e = rescale(shifted(mat(t - 1).T @ fwd, table[t]) * masks[t][:, None])
            # all states (the norm's sum): k (N + 1) entries, k products and a tilt each
            f_err = slack.step(f_err, e, (N + 1) * k * (k + 1), (N + 1) * k)
        if t in back:
            b, b_err = back.pop(t)
            errs.append(slack.law(f_err, b_err))
            col = len(errs) * k - k
            for s in range(k):
                f_row, b_row = fwd[s], b[s]
                if float(f_row.max()) > 0 and float(b_row.max()) > 0:
                    f_len = int(np.flatnonzero(f_row)[-1]) + 1
                    b_len = int(np.flatnonzero(b_row)[-1]) + 1
                    law = np.convolve(f_row[:f_len], b_row[:b_len])
                    laws[: min(N + 1, law.size), col + s] = law[: N + 1]
    return laws, errs


def tail_bounds(
    chain: CountChain, positions: Sequence[int], rate: Fraction
) -> dict[int, list[tuple[Any, Any, list[tuple[int, int]]]]]:
    """The tail lemma's bounds (module doc) of every interior output of each target, at
    both ends: ``[(up, down, pairs)]`` for output 0, then output ``N``.

    The sums come from tilted laws, so that they keep their relative accuracy when the
    mixtures themselves are too faint for floats: at the left end ``x M(0) = S(j) - V(j)``
    with ``S(j) = sum_{c < j} J^q[c]``, ``V(j) = sum_{c < j} J^q[c] q^{2(j - c)}`` and
    ``M(0) = sum_c J^q[c]`` (``J^q[c] = J[c] q^c``); at the right end the same with
    ``J^{1/q}`` summed over ``c > j``, up to the common factor ``q^N``. A tilted law is the
    forward-backward with each contribution ``c`` also multiplying by ``theta^c``.

    Args:
        chain: the chain.
        positions: the target records (0-based).
        rate: the Laplace rate in count units.

    Returns:
        position -> the two ends' bounds (targets the bounds cannot serve are absent).

    References:
        Li et al. (2019), Section 3.2, Eq. 2; Higham, Accuracy and Stability of Numerical
        Algorithms (2002), Sec. 2.2 and Sec. 3.1; Feller, An Introduction to Probability
        Theory and Its Applications, vol. 2 (1971), Ch. XVI.7 (exponential tilting).
    """
    T, k, N = chain.length, chain.k, chain.span
    want = sorted(set(positions))
    values = sorted({c for row in chain.table for c in row})
    # rounding counts on the longest path of each sum (S, V, M(0)): the converted
    # probabilities and powers 4; a step of the chain k + 1 (k - 1 additions, the
    # product, the tilt's product; the rescaling is exact); the convolution N + 1; a
    # running sum N, or the recurrence of V 2 per step and q^2's conversion 3. Each sum
    # is then its exact value times e^eta, |eta| <= d u' <= kappa (d u' < 10^-4)
    d_t = 4 + T * (k + 1) + (N + 1) + 2 * (N + 1) + 3 + 8
    kappa = 1.01 * d_t * 2.0**-53 * (1 + 2.0**-50) + 16 * _U
    if not want or N < 2 or kappa > 1e-4 or k > MAX_TAIL_STATES:
        return {}
    with working_precision(64):
        q_ball = (-arb_from_fraction(rate)).exp()
        q2 = float((q_ball * q_ball).mid())
        top = q_ball ** values[-1]
        if not (q2 >= MIN_FACTOR and float(top.mid()) >= MIN_FACTOR):
            return {}
        if not float((1 / top).mid()) <= 2.0**60:
            return {}
        tilts = [{c: float((q_ball**c).mid()) for c in values}]
        tilts.append({c: float((1 / q_ball**c).mid()) for c in values})
    mats = [np.array([[float(p) for p in row] for row in mm]) for mm in chain.matrices]
    init = np.array([float(p) for p in chain.initial])
    if min((x for mm in mats for x in mm.ravel() if x > 0), default=1.0) < MIN_FACTOR:
        return {}
    if any(0 < x < MIN_FACTOR for x in init):
        return {}
    slack = _Slack(N, d_t)
    possible = possible_states(chain, want)
    ends = []
    for side, tilt in enumerate(tilts):
        laws, errs = _laws(chain, want, N, mats, init, tilt)
        if side == 1:
            laws = laws[::-1]  # the right end is the left end of the reversed count
        sums = np.cumsum(laws, axis=0)  # row c: sum over c' <= c
        near = np.empty_like(laws)
        acc = np.zeros(laws.shape[1])
        for c in range(N + 1):  # near[c] = sum_{c' <= c} J[c'] q^(2 (c + 1 - c'))
            acc += laws[c]
            np.multiply(acc, q2, out=acc)
            near[c] = acc
        # output j >= 1 (in the order of this side): the sums over c < j, rows 0..N-2
        ends.append((sums[0 : N - 1], near[0 : N - 1], sums[N], errs))
    right = ends[1]
    ends[1] = (right[0][::-1], right[1][::-1], right[2], right[3])
    out: dict[int, list[tuple[Any, Any, list[tuple[int, int]]]]] = {}
    for i, t in enumerate(want):
        cols = slice(i * k, (i + 1) * k)
        live = np.array(possible[t])
        if int(live.sum()) < 2:
            continue
        states = [a for a in range(k) if live[a]]
        pairs = [(states[a], states[b]) for a, b in _pairs(len(states))]
        sides = []
        for s_sum, s_near, s_tot, errs in ends:
            e_abs, _ = slack.mixture(errs[i])
            up, down = _tail_bounds(
                s_sum[:, cols][:, live], s_near[:, cols][:, live], s_tot[cols][live], e_abs, kappa
            )
            sides.append((up, down, pairs))
        out[t] = sides
    return out


def _pairs(n: int) -> list[tuple[int, int]]:
    return [(a, b) for a in range(n) for b in range(n) if a != b]


def _tail_bounds(sums: Any, minus: Any, totals: Any, e_abs: float, kappa: float) -> tuple[Any, Any]:
    """At each interior output ``j`` and ordered pair ``(a, b)`` of live states, floats
    around ``ln(1 - x_a) - ln(1 - x_b)`` of the tail lemma (module doc) at one end, so that
    ``ln R_a(j)/R_b(j) = ln R_a(end)/R_b(end) + that = ln(1 + y)``,
    ``y = (x_b - x_a)/(1 - x_b)``: an upper bound ``y - y^2/2 + y^3/3`` at the largest
    ``y`` (0 when ``y <= 0`` may hold; ``inf`` where unusable) and a lower bound
    ``y - y^2/2`` at the smallest (``-inf`` unless it is positive).
    ``x M(end) = sums - minus`` (floats, with ``minus <= q^2 sums`` exactly), ``totals[a]``
    the float mixture ``M_a(end)``, ``e_abs`` above their absolute errors. Shapes
    ``(outputs, pairs)``."""
    pairs = _pairs(sums.shape[1])
    up = np.full((sums.shape[0], len(pairs)), math.inf)
    down = np.full((sums.shape[0], len(pairs)), -math.inf)
    if sums.shape[1] > MAX_TAIL_STATES or float((totals - e_abs).min()) < GUARD:
        return up, down
    with np.errstate(all="ignore"):
        diff = sums - minus
        rad = (sums + minus) * (2 * kappa) + 4 * e_abs
        x_hi = (diff + rad) / (totals - e_abs) * (1 + 2 * kappa)
        x_lo = np.maximum(diff - rad, 0.0) / (totals + e_abs) * (1 - 2 * kappa)
        bad = (x_hi >= 0.5) | ~np.isfinite(x_hi) | ~np.isfinite(x_lo)
        for i, (a, b) in enumerate(pairs):
            # y in [y_lo, y_hi]; ln(1 + y) is at most y - y^2/2 + y^3/3 for y >= 0 (the
            # difference grows, its derivative being y^3/(1 + y)) and at least
            # y - y^2/2 (derivative y^2/(1 + y)); each float formula is widened by 8u
            y_hi = np.maximum(x_hi[:, b] - x_lo[:, a], 0.0) / (1 - x_hi[:, b]) * (1 + 8 * _U)
            up[:, i] = y_hi * (1 - y_hi * 0.5 + y_hi * y_hi / 3) * (1 + 8 * _U)
            y = (x_lo[:, b] - x_hi[:, a]) / (1 - x_lo[:, b]) * (1 - 8 * _U)
            low = y * (1 - y * (0.5 + 8 * _U)) * (1 - 8 * _U)
            down[:, i] = np.where((y > 0) & (low > 0), low, -math.inf)
            up[bad[:, a] | bad[:, b], i] = math.inf
            down[bad[:, a] | bad[:, b], i] = -math.inf
    return up, down


def possible_states(chain: CountChain, positions: Sequence[int]) -> dict[int, list[bool]]:
    """Which states of each target have positive probability (with the fixed records),
    decided exactly from the zero pattern of the initial law and the matrices.

    ``P(x_t = a, fixed) > 0`` exactly when some path of positive-probability steps through
    the allowed states reaches ``a`` at ``t`` and continues to the end: a forward and a
    backward pass of booleans.

    Args:
        chain: the chain.
        positions: the target records (0-based).

    Returns:
        position -> one boolean per state.

    References:
        Li et al. (2019), Section 3.2, Eq. 2 (the secret pairs are the values of positive
        probability); Rabiner, "A tutorial on hidden Markov models", Proc. IEEE 77(2), 1989
        (forward-backward).
    """
    T, k = chain.length, chain.k
    want = set(positions)
    pattern = [[[p > 0 for p in row] for row in m] for m in chain.matrices]

    def pat(step: int) -> list[list[bool]]:
        return pattern[0] if len(pattern) == 1 else pattern[step]

    ahead = [True] * k
    after: dict[int, list[bool]] = {}
    for t in range(T - 1, -1, -1):
        if t < T - 1:
            nxt = [ahead[s2] and chain.allowed(t + 1, s2) for s2 in range(k)]
            ahead = [any(pat(t)[s][s2] and nxt[s2] for s2 in range(k)) for s in range(k)]
        if t in want:
            after[t] = ahead
    here = [p > 0 and chain.allowed(0, s) for s, p in enumerate(chain.initial)]
    out: dict[int, list[bool]] = {}
    for t in range(T):
        if t > 0:
            here = [
                chain.allowed(t, s2) and any(here[s] and pat(t - 1)[s][s2] for s in range(k))
                for s2 in range(k)
            ]
        if t in want:
            out[t] = [here[s] and after[t][s] for s in range(k)]
    return out


class _Slack:
    """Upper bounds of the absolute errors (underflows) of the screen, as arb balls (any
    exponent): the L1 norm of the error of a forward vector (all states), of a backward
    vector (the largest over states), of a law, of its mixture values and of its norm
    (module doc). ``d`` bounds the relative roundings a value sees, all charged at once
    per step."""

    def __init__(self, n: int, d: int) -> None:
        self.n = n
        with working_precision(64):
            self.tiny = Ball(2) ** -1020
            self.grow = 1 + Ball(4 * d) * Ball(2) ** -53
            self.zero = Ball(0)

    def step(self, err: Any, e: int, ops: int, entries: int) -> Any:
        """After a step whose entries (``entries`` of them in the norm) see ``ops``
        products in all, then a rescaling by ``2^-e`` (one more possible underflow each).

        Args:
            err: the bound before the step.
            e: the rescaling exponent.
            ops: the products of the step that the norm sums over.
            entries: the entries the norm sums over.

        Returns:
            The bound after the step.
        """
        with working_precision(64):
            fresh = self.tiny * ops
            return (err * self.grow + fresh) * Ball(2) ** (-e) + self.tiny * entries

    def law(self, f_err: Any, b_err: Any) -> Any:
        """The bound of a law from its factors' (whose entries are at most 1).

        Args:
            f_err: the forward vector's bound.
            b_err: the backward vector's bound.

        Returns:
            The bound of the law's L1 error.
        """
        with working_precision(64):
            n1 = self.n + 1
            conv = self.tiny * (n1 * n1)
            return (f_err * n1 + b_err * n1 + f_err * b_err + conv) * self.grow

    def mixture(self, law_err: Any) -> tuple[float, float]:
        """Floats above the absolute errors of a law's mixture values (and tail sums) and
        of its norm.

        Args:
            law_err: the law's bound.

        Returns:
            ``(mixture, norm)``.
        """
        with working_precision(64):
            n1 = self.n + 1
            mix = (law_err + self.tiny * (4 * n1 * n1 * n1)) * self.grow
            norm = law_err * self.grow
            out = [math.nextafter(float(ball_endpoints(b)[1]), math.inf) for b in (mix, norm)]
            return out[0], out[1]


def _threshold(lower: Fraction) -> float | None:
    """A float at or below ``e^lower`` (None when not usable)."""
    with working_precision(64):
        thr_ball = arb_from_fraction(lower).exp()
        if not thr_ball.is_finite():
            return None
        thr_lo, _ = ball_endpoints(thr_ball)
    thr = float(thr_lo)
    if not math.isfinite(thr) or thr <= 0:
        return None
    return math.nextafter(math.nextafter(thr, 0.0), 0.0)  # the float conversion rounds


def interior_enclosure(
    screen: Screen,
    tails: Mapping[int, list[tuple[Any, Any, list[tuple[int, int]]]]],
    position: int,
    extremes: tuple[Fraction, Fraction],
    pairs: Mapping[tuple[int, int, int], tuple[Fraction, Fraction]],
) -> tuple[Fraction, Fraction] | None:
    """The target's value over all outputs, from its extremes and the screen: the
    extremes' ``[lo, hi]`` when every interior output is proven below ``lo``
    (``ratios[j] (1 + kappa) < e^lo``); else the outputs that are not are enclosed by the
    tail lemma (module doc) from each ordered pair's value at each end.

    Args:
        screen: the :class:`Screen`.
        tails: :func:`tail_bounds` of the target (at least).
        position: the target record.
        extremes: ``[lo, hi]`` enclosing ``V_ext``, the max over pairs and both ends.
        pairs: ``(a, b, end) -> [lo, hi]`` enclosing ``ln R_a(end)/R_b(end)`` for every
            ordered pair of possible states, ``end`` 0 (output 0) or 1 (output ``N``).

    Returns:
        Exact ``[lo', hi']`` enclosing the value, or None when undecided.

    References:
        Li et al. (2019), Section 3.2, Eq. 2; Higham (2002), Sec. 3.1; Johansson, Arb
        (2017) for the threshold ``e^lo``.
    """
    lo, hi = extremes
    ratio = screen.ratios.get(position)
    if ratio is None or screen.top.get(position) is None or position not in tails:
        return None
    thr = _threshold(lo)
    if thr is None:
        return None
    with np.errstate(all="ignore"):
        near = ~(ratio * (1.0 + screen.kappa) < thr)
        if not bool(near.any()):
            return lo, hi
        # upper: ln R_ab(j) <= hi_ab(end) + up_ab(end, j) at each end, written as
        # hi + (hi_ab(end) - hi) + up, the difference rounded up
        sides = []
        for end, (up, _, names) in enumerate(tails[position]):
            if any((a, b, end) not in pairs for a, b in names):
                return None
            shift = np.array([_float_up(pairs[a, b, end][1] - hi) for a, b in names])
            g = up[near]
            # the addition's rounding: at most u times the operands' magnitudes
            sides.append(shift[None, :] + g + 4 * _U * (np.abs(shift)[None, :] + g) + 2.0**-1070)
        worst = float(np.minimum(sides[0], sides[1]).max())
        if not math.isfinite(worst):
            return None
        # lower: ln R_ab(j) >= lo_ab(end) + down_ab(end, j) at any end
        gain = Fraction(0)
        for end, (_, down, names) in enumerate(tails[position]):
            tops = down[near].max(axis=0)
            for i, (a, b) in enumerate(names):
                if math.isfinite(tops[i]):
                    gain = max(gain, pairs[a, b, end][0] + Fraction(float(tops[i])) - lo)
    upper = hi + Fraction(_float_up(Fraction(worst))) if worst > 0 else hi
    return lo + gain, upper


def _float_up(x: Fraction) -> float:
    """A float at or above ``x``."""
    return math.nextafter(float(x), math.inf)


def interior_below(screen: Screen, position: int, lower: Fraction) -> bool:
    """True when it is proven that no interior output of the target exceeds ``lower``
    (a certified lower end of the extremes' value): ``top (1 + kappa) < e^lower``.

    Args:
        screen: the :class:`Screen`.
        position: the target record.
        lower: an exact lower bound of the target's value at the extremes.

    Returns:
        Whether the interior is proven below ``lower`` (False: undecided here).

    References:
        Higham (2002), Sec. 3.1; Johansson, Arb (2017) for the threshold ``e^lower``.
    """
    top = screen.top.get(position)
    if top is None or not math.isfinite(top):
        return False
    thr = _threshold(lower)
    return thr is not None and top * (1.0 + screen.kappa) < thr


__all__ = [
    "GUARD",
    "MAX_TAIL_STATES",
    "MIN_FACTOR",
    "Screen",
    "interior_below",
    "interior_enclosure",
    "interior_screen",
    "possible_states",
    "tail_bounds",
]

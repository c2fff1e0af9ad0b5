"""The worst target of the counting query over a population with many distinct ``p_i``.

``M(D) = sum_i D(i)`` over independent Bernoulli(p_i) records (Desfontaines et al.,
Section 4.1). Target ``i``'s peers count ``S_i`` with law ``f_i = F / (1 - p_i + p_i z)``
(``F`` the law of the whole count), and ``delta_i(eps)`` is the larger of the two
directions of Definition 12. With ``10^5`` distinct ``p_i`` one exact curve per target is
out of reach; this module finds the few targets that can be the worst, by proofs, and
:mod:`pdpsym.mechanisms.counting` computes those exactly.

Write ``c = e^eps`` and, for a law ``f`` and an integer ``t``,
``L_t(f) = P_f[S >= t-1] - c P_f[S >= t]``. The summands ``f(o-1) - c f(o)`` of direction
``1,0`` are positive exactly for ``o >= t(f)``, the first ``o`` with ``f(o-1) > c f(o)``
(a Poisson binomial law is log-concave), so ``delta_{1,0}(f) = max_t L_t(f) = L_{t(f)}(f)``.
Direction ``0,1`` of ``f`` is direction ``1,0`` of the mirrored population
(``p -> 1 - p``), so both are handled by the statements below.

**Lemma A (thresholds).** For every target ``i``, ``t(f_i)`` is ``t(F) - 1`` or ``t(F)``.
*Proof.* Let ``h(o) = f(o-1) - c f(o)`` for ``f = f_i``, ``q = p_i``, and
``H(o) = F(o-1) - c F(o) = (1-q) h(o) + q h(o-1)``. ``h(o) > 0`` iff ``o >= t(f)``; so
``H(o) > 0`` for ``o > t(f)`` and ``H(o) <= 0`` for ``o < t(f)``: ``t(F)`` is ``t(f)`` or
``t(f) + 1``.

**Lemma B (one step between neighbours).** For targets ``i, j`` let ``g`` be the law of
the count without both. Then ``L_t(f_i) - L_t(f_j) = (p_j - p_i) (g(t-2) - c g(t-1))``.
*Proof.* ``f_i = (1 - p_j) g + p_j g(. - 1)``, ``L_t`` is linear, and
``L_t(g(. - 1)) - L_t(g) = g(t-2) - c g(t-1)``.

**Lemma C (unimodal in p).** Sort the distinct values ``v_1 < ... < v_K`` and let ``g_k``
be the count without one record of ``v_k`` and one of ``v_{k+1}``. If
``g_k(t-2) >= c g_k(t-1)`` then ``g_{k+1}(t-2) >= c g_{k+1}(t-1)``. *Proof.* With ``h``
the count without one record each of ``v_k, v_{k+1}, v_{k+2}`` (log-concave),
``g_k = h * Bernoulli(v_{k+2})`` and ``g_{k+1} = h * Bernoulli(v_k)``. Bernoulli laws are
ordered in likelihood ratio by their ``p``, and convolution with a log-concave law keeps
that order (Shanthikumar and Yao 1991), so ``g_{k+1}(t-1) g_k(t-2) <=
g_{k+1}(t-2) g_k(t-1)``; with ``g_k(t-2) >= c g_k(t-1)`` this gives the claim when
``g_k(t-1) > 0``, and both sides vanish otherwise (equal supports).

By Lemma B a step ``k -> k+1`` lowers ``L_t`` iff ``g_k(t-2) >= c g_k(t-1)``; by Lemma C
the steps rise then fall, so ``max_k L_t(f_{v_k})`` is at the first falling step, found by
bisection over ``k`` with O(log K) decided signs. By Lemma A,
``max_i delta_{1,0}(f_i) = max_{t in {t(F)-1, t(F)}} max_k L_t(f_{v_k})``: the worst
target of each direction is among at most two values of ``p``. Each value examined is a
target's exact curve, so the maximum over these (at most four) targets is the exact
``delta(eps)``; every other target is dominated by a proof, not by a float.

The signs are decided exactly (integer polynomials, for at most ``EXACT_LIMIT + 1``
records) or by balls (:mod:`pdpsym.models.count_deconvolve`: one exponentially tilted window of
``F``, divided by two records, Lemma 1 of :mod:`pdpsym.core.tails`: ``g(s) = G c'^(-s)
g_c'(s)``, so ``g(t-2) - c g(t-1)`` has the sign of ``g_c'(t-2) - (c / c') g_c'(t-1)``).

References: Desfontaines et al. (2020), Section 4.1, Theorem 3, Section 3.1, Lemma 1;
Shanthikumar and Yao, "Bivariate characterization of some stochastic order relations",
Adv. Appl. Prob. 23 (1991) (likelihood-ratio order under convolution with a log-concave
law); Hardy, Littlewood, Polya, "Inequalities", Section 2.22 (Poisson-binomial laws are
log-concave).
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from pdpsym.core import poly
from pdpsym.core.balls import Ball, arb_from_fraction
from pdpsym.core.certify import decide_sign
from pdpsym.core.count_law_balls import workprec
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.core.tails import tilt_for, tilted_mean
from pdpsym.mechanisms.count_law import EXACT_LIMIT, WINDOW_PREC, CountLaw
from pdpsym.mechanisms.divergence import ratio_exceeds_exp
from pdpsym.models.count_deconvolve import divide, point_ball

__all__ = [
    "MANY_DISTINCT",
    "bisect_first_true",
    "candidate_values",
    "exact_peer_pmf",
    "one_fewer",
    "search_sides",
    "search_work",
]

#: from this many distinct unknown ``p`` on, the worst target is searched (this module);
#: below it every distinct target's curve is computed
MANY_DISTINCT = 9


def search_work(n: int) -> int:
    """The work of the search and of its few exact curves over ``n`` unknown records, in
    steps (about ball or integer coefficient operations): a product tree whose nodes keep
    about 40 standard deviations of their count, ``40 n log2 n``, and below the exact
    limit the integer polynomials' ``n^2`` coefficient products.

    Args:
        n: the number of unknown records.

    Returns:
        The estimate (measured: ``10^5`` records, ``7e7`` steps, about 15 s of CPU).

    References:
        Desfontaines et al. (2020), Section 4.1 (the counting query whose curves are
        searched); the module's Lemmas A-C.
    """
    if n - 1 <= EXACT_LIMIT:
        return 4 * n * n
    return 40 * n * (n.bit_length() + 1)


def _gt(x: int | Fraction, y: int | Fraction, eps: Eps) -> bool:
    """``x > e^eps y`` for rationals ``x, y >= 0``, decided exactly."""
    if y == 0:
        return x > 0
    if x == 0:
        return False
    c = eps.exact_exp()
    if c is not None:
        return x > c * y
    return ratio_exceeds_exp(Fraction(x, y), eps)


def _ge(x: int | Fraction, y: int | Fraction, eps: Eps) -> bool:
    """``x >= e^eps y`` for rationals ``x, y >= 0``, decided exactly (for irrational
    ``e^eps`` never an equality, Lindemann)."""
    if y == 0:
        return True
    if x == 0:
        return False
    c = eps.exact_exp()
    if c is not None:
        return x >= c * y
    return ratio_exceeds_exp(Fraction(x, y), eps)


def _linear(q: Fraction) -> Any:
    """``den - num + num z``: a record's generating polynomial times its denominator."""
    return poly.from_coefficients([q.denominator - q.numerator, q.numerator])


def one_fewer(blocks: Mapping[Fraction, int], q: Fraction) -> dict[Fraction, int]:
    """The binomial blocks of the other records once one record with ``p = q`` is taken out.

    Args:
        blocks: ``{p: number of records with that p}`` (``blocks[q] >= 1``).
        q: the target's ``p``.

    Returns:
        A new ``{p: count}`` with one fewer ``q`` (and no block of count 0).

    References:
        Desfontaines et al. (2020), Sec. 4 (the count of the target's peers).
    """
    own = dict(blocks)
    own[q] -= 1
    if own[q] == 0:
        del own[q]
    return own


def bisect_first_true(lo: int, hi: int, pred: Callable[[int], bool]) -> int:
    """The smallest ``x`` in ``[lo, hi)`` with ``pred(x)`` (``hi`` when none), for ``pred``
    false then true, by bisection.

    Args:
        lo: the range's first integer.
        hi: one past its last.
        pred: a monotone predicate (false on a prefix, true on the rest).

    Returns:
        The boundary ``x``.

    References:
        Knuth, TAOCP vol. 3, Section 6.2.1 (binary search).
    """
    while lo < hi:
        mid = (lo + hi) // 2
        if pred(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


class _ExactSide:
    """One direction over integer polynomials: the values sorted ascending (``p`` for
    direction ``1,0``, ``1 - p`` for ``0,1``) and the whole count's scaled law."""

    def __init__(self, values: Sequence[Fraction], counts: Sequence[int], eps: Eps) -> None:
        self.values, self.eps = list(values), eps
        whole = poly.product(
            [poly.power(_linear(q), k) for q, k in zip(values, counts, strict=True)]
        )
        self.whole = whole
        self.coeffs = poly.coefficients(whole)
        self._g: dict[int, list[int]] = {}

    def _at(self, cs: list[int], s: int) -> int:
        return cs[s] if 0 <= s < len(cs) else 0

    @functools.cached_property
    def threshold(self) -> int:
        """``t(F)``: the first ``o`` with ``F(o-1) > c F(o)``."""
        cs = self.coeffs
        return bisect_first_true(
            0, len(cs), lambda o: _gt(self._at(cs, o - 1), self._at(cs, o), self.eps)
        )

    def _g_of(self, k: int) -> list[int]:
        if k not in self._g:
            pair = _linear(self.values[k]) * _linear(self.values[k + 1])
            self._g[k] = poly.coefficients(poly.exact_divide(self.whole, pair))
        return self._g[k]

    def falls(self, k: int, t: int) -> bool:
        """Whether the step ``v_k -> v_{k+1}`` does not raise ``L_t`` (Lemma B)."""
        g = self._g_of(k)
        return _ge(self._at(g, t - 2), self._at(g, t - 1), self.eps)

    def falls_weighted(self, k: int, pairs: Sequence[tuple[Fraction, int]]) -> bool:
        """Whether the step ``v_k -> v_{k+1}`` does not raise ``sum_b w_b L_{t_b}``
        (Lemma B, summed over the ``(w_b, t_b)`` of ``pairs``)."""
        g = self._g_of(k)
        x = sum((w * self._at(g, t - 2) for w, t in pairs), Fraction(0))
        y = sum((w * self._at(g, t - 1) for w, t in pairs), Fraction(0))
        return _ge(x, y, self.eps)


class _BallSide:
    """One direction by balls: a tilted window of the whole count (mirrored for ``0,1``)."""

    def __init__(self, law: CountLaw, values: Sequence[Fraction], eps: Eps, upper: bool):
        self.law, self.values, self.eps, self.upper = law, list(values), eps, upper
        n = law.m
        try:
            ce = (
                float(eps.exponent)
                if eps.exponent is not None
                else math.log((eps.w or Fraction(1)).numerator)
                - math.log((eps.w or Fraction(1)).denominator)
            )
        except OverflowError:
            ce = 40.0
        ce = min(max(ce, -40.0), 40.0)  # the tilt steers precision only
        saddle = tilted_mean(law.blocks, ce if upper else -ce)
        edge = min(max(int(saddle), 0), n)
        r = law.reference(upper, edge)
        self.c = tilt_for(law.blocks, float(r), 1 if upper else -1)
        self.n = n
        self._divided: dict[tuple[int, Fraction, int], Any] = {}
        self._tilts: dict[int, Fraction] = {}

    def _window(self, prec: int, c: Fraction | None = None) -> Any:
        return self.law.tilted_window(self.c if c is None else c, prec)[0]

    def _lam(self, prec: int, c: Fraction | None = None) -> Any:
        # F(s) = G c^(-s) F_c(s): F(o-1) - e^eps F(o) has the sign of F_c(o-1) - lam F_c(o)
        # (upper side), of F_c(n-o+1) - lam F_c(n-o) with lam = e^eps c (mirrored side)
        with workprec(prec):
            cb = arb_from_fraction(self.c if c is None else c)
            e = self.eps.arb_exp(prec)
            return e / cb if self.upper else e * cb

    def _sign(
        self,
        x_of: Callable[[int], Any],
        y_of: Callable[[int], Any],
        what: str,
        c: Fraction | None = None,
    ) -> int:
        def ball(prec: int) -> Any:
            p = max(prec, WINDOW_PREC)
            with workprec(p):
                return x_of(p) - self._lam(p, c) * y_of(p)

        return decide_sign(ball, what, WINDOW_PREC)

    def _tilt_at(self, pos: int) -> Fraction:
        """The tilt for balls at count ``pos`` of the whole law: the search's own when its
        window holds ``pos`` well inside, else one whose tilted mean is near ``pos``
        (thresholding's ``T`` far out in a tail); precision only, never rigor."""
        w = self._window(WINDOW_PREC)
        span = len(w.vals)
        if w.lo + span // 4 <= pos <= w.lo + 3 * span // 4:
            return self.c
        if pos not in self._tilts:
            side = 1 if pos >= tilted_mean(self.law.blocks, 0.0) else -1
            r = self.law.reference(side > 0, min(max(pos, 0), self.n))
            self._tilts[pos] = tilt_for(self.law.blocks, float(r), side)
        return self._tilts[pos]

    def _pos(self, s: int, top: int) -> int:
        return s if self.upper else top - s

    @functools.cached_property
    def threshold(self) -> int:
        """``t(F)`` of this side, by decided signs near the tilted mode."""
        n = self.n

        def pred(o: int) -> bool:
            if o <= 0 or o > n:  # F(-1) = 0 and F(n + 1) = 0
                return o > n
            a, b = self._pos(o - 1, n), self._pos(o, n)
            return (
                self._sign(
                    lambda p: point_ball(self._window(p), a),
                    lambda p: point_ball(self._window(p), b),
                    "the mode of a tilted count",
                )
                > 0
            )

        # floats guess the crossing; decided signs bracket it by galloping, then bisect
        w = self._window(WINDOW_PREC)
        mids = [float(v.mid()) for v in w.vals]
        if not self.upper:
            mids.reverse()
        offset = w.lo if self.upper else n - (w.lo + len(w.vals) - 1)
        lam = float(self._lam(64).mid())
        j = next((j for j in range(1, len(mids)) if mids[j - 1] > lam * mids[j]), len(mids))
        guess = offset + j
        step, lo = 1, guess - 1
        while lo > 0 and pred(lo):
            lo, step = lo - step, 2 * step
        step, hi = 1, guess
        while hi <= n and not pred(hi):
            hi, step = hi + step, 2 * step
        return bisect_first_true(max(lo, 0), min(hi, n + 1), pred)

    def falls(self, k: int, t: int) -> bool:
        """Whether the step ``v_k -> v_{k+1}`` does not raise ``L_t`` (Lemma B), decided
        by balls of the tilted count without the two records."""
        top = self.n - 2
        if not 0 <= t - 1 <= top:  # g(t-1) = 0: the step cannot rise
            return True
        if not 0 <= t - 2 <= top:  # g(t-2) = 0 < g(t-1)
            return False
        a, b = self._pos(t - 2, top), self._pos(t - 1, top)
        c = self._tilt_at(min(a, b) + 1)
        qs = []
        for v in (self.values[k], self.values[k + 1]):
            q = v  # the record's own p (the mirror only reverses positions)
            qs.append(q * c / (1 - q + q * c))

        def div(p: int) -> Any:
            key = (k, c, p)  # both thresholds ask for the same division
            if key not in self._divided:
                self._divided[key] = divide(self._window(p, c), qs)
            return self._divided[key]

        at_a = lambda p: div(p).at(a)  # noqa: E731
        at_b = lambda p: div(p).at(b)  # noqa: E731
        return self._sign(at_a, at_b, "a step of L_t", c) > 0

    def falls_weighted(self, k: int, pairs: Sequence[tuple[Fraction, int]]) -> bool:
        """Whether the step ``v_k -> v_{k+1}`` does not raise ``sum_b w_b L_{t_b}``
        (Lemma B summed over ``pairs``), by balls of the tilted count without the two
        records: ``g(x) = G c^(-x) g_c(x)``, so the sign is that of
        ``sum w_b c^(x0 - x) g_c(x)`` over ``x = t_b - 2`` less ``e^eps`` times the same
        over ``x = t_b - 1`` (positions mirrored on the ``0,1`` side)."""
        top = self.n - 2
        x_part = [(w, t - 2) for w, t in pairs if 0 <= t - 2 <= top]
        y_part = [(w, t - 1) for w, t in pairs if 0 <= t - 1 <= top]
        if not y_part:  # every g(t-1) = 0: the step cannot rise
            return True
        if not x_part:  # every g(t-2) = 0 < some g(t-1) (each count is possible)
            return False
        spots = [self._pos(r, top) for _, r in x_part + y_part]
        x0 = min(spots)
        c = self._tilt_at((x0 + max(spots)) // 2 + 1)
        qs = [v * c / (1 - v + v * c) for v in (self.values[k], self.values[k + 1])]

        def div(p: int) -> Any:
            key = (k, c, p)
            if key not in self._divided:
                self._divided[key] = divide(self._window(p, c), qs)
            return self._divided[key]

        def part(p: int, terms: list[tuple[Fraction, int]]) -> Any:
            dv = div(p)
            inv = 1 / arb_from_fraction(c)
            total = Ball(0)
            for w, r in terms:
                x = self._pos(r, top)
                total += arb_from_fraction(w) * inv ** (x - x0) * dv.at(x)
            return total

        def ball(prec: int) -> Any:
            p = max(prec, WINDOW_PREC)
            with workprec(p):
                return part(p, x_part) - self.eps.arb_exp(p) * part(p, y_part)

        return decide_sign(ball, "a step of a weighted sum of L_t", WINDOW_PREC) > 0


def search_sides(
    unknown: Sequence[Fraction], eps: Eps, law: CountLaw | None = None
) -> tuple[Any, Any, bool]:
    """The two directions' searchers over the sorted distinct values of ``unknown``.

    Args:
        unknown: the unknown records' probabilities (at least two distinct values, each
            strictly inside (0, 1)).
        eps: ε.
        law: the whole count's law (large populations; built when None).

    Returns:
        ``(up, down, exact)``: objects with ``values`` (ascending along the search),
        ``threshold`` (``t(F)`` of their direction, in their own coordinates) and
        ``falls_weighted(k, pairs)`` (Lemma B's sign for ``sum w_b L_{t_b}``); ``exact``
        says the ``0,1`` side's values are mirrored ``1 - p`` (map back by ``1 - v``).

    Raises:
        InputError: (field ``ps``) with fewer than two distinct values or a ``p`` of 0 or 1.

    References:
        Desfontaines et al. (2020), Section 4.1; the module's Lemmas A-C.
    """
    blocks = Counter(unknown)
    if len(blocks) < 2 or not all(0 < q < 1 for q in blocks):
        raise InputError("ps", "the search needs two distinct p, each strictly inside (0, 1)")
    vals = sorted(blocks, key=lambda q: (float(q), q))
    if len(unknown) - 1 <= EXACT_LIMIT:
        up = _ExactSide(vals, [blocks[q] for q in vals], eps)
        mirror_vals = [1 - q for q in reversed(vals)]
        down = _ExactSide(mirror_vals, [blocks[1 - q] for q in mirror_vals], eps)
        return up, down, True
    whole = law if law is not None else CountLaw(tuple(unknown), _blocks=dict(blocks))
    return (
        _BallSide(whole, vals, eps, True),
        _BallSide(whole, list(reversed(vals)), eps, False),
        False,
    )


def _peaks(side: _ExactSide | _BallSide, clamp: Callable[[int], int]) -> set[Fraction]:
    """The values of ``p`` that maximize ``L_t`` for ``t`` in ``{t(F) - 1, t(F)}``, each
    threshold moved by ``clamp`` (thresholding's outputs start above ``T``)."""
    t_f = side.threshold
    k_max = len(side.values) - 1
    out = set()
    for t in sorted({clamp(t_f - 1), clamp(t_f)}):

        def falls(k: int, t: int = t) -> bool:
            return side.falls(k, t)

        out.add(side.values[bisect_first_true(0, k_max, falls)])
    return out


def candidate_values(
    unknown: Sequence[Fraction],
    eps: Eps,
    law: CountLaw | None = None,
    threshold: int | None = None,
) -> tuple[list[Fraction], dict[str, int]]:
    """The values of ``p`` among which the worst target of the counting query lies.

    With a ``threshold`` ``T`` they are those of the thresholding mechanism ``M_T`` with no
    known records (Definition 15): its direction ``1,0`` is ``max_{t >= T+1} L_t(f_i)``
    (outputs ``k > T``; ``⊥`` never counts, ``c >= 1``) and its direction ``0,1`` is
    ``max(0, max_{u >= T} (P[S <= u] - c P[S <= u-1]))``, the mirrored
    ``max_{t <= m - T + 1} L_t`` (``⊥`` with the outputs up to ``u`` telescope); ``L_t``
    is unimodal in ``t`` with its top at the target's threshold, so the thresholds of
    Lemma A move to ``max(t, T + 1)`` and ``min(t, m - T + 1)`` and Lemmas B and C apply
    unchanged.

    Args:
        unknown: the unknown records' probabilities (at least two distinct values, each
            strictly between 0 and 1: the lemmas need every count possible).
        eps: ε.
        law: the whole count's law (large populations; built when None).
        threshold: ``T`` of ``M_T``, or None for the counting query.

    Returns:
        ``(values, thresholds)``: at most four values (the module's lemmas), and the
        thresholds ``t(F)`` of both directions (``"1,0"``: of ``F``; ``"0,1"``: of the
        mirrored count) as starting guesses for the exact curves.

    Raises:
        InputError: (field ``ps``) with fewer than two distinct values or a ``p`` of 0 or 1.

    References:
        Desfontaines et al. (2020), Section 4.1; the module's Lemmas A-C.
    """
    up, down, exact = search_sides(unknown, eps, law)
    m = len(unknown) - 1  # a target's peers

    def up_clamp(t: int) -> int:
        return t if threshold is None else max(t, threshold + 1)

    def down_clamp(t: int) -> int:
        return t if threshold is None else min(t, m - threshold + 1)

    down_peaks = _peaks(down, down_clamp)
    out = _peaks(up, up_clamp) | ({1 - q for q in down_peaks} if exact else down_peaks)
    thresholds = {"1,0": up.threshold, "0,1": down.threshold}
    return sorted(out, key=lambda q: (float(q), q)), thresholds


def exact_peer_pmf(unknown: Sequence[Fraction], target: Fraction) -> list[Fraction]:
    """The exact law of the others' count when a record with ``p = target`` is removed.

    One exact division of the whole population's integer polynomial (flint), instead of
    a quadratic product of Fractions per target.

    Args:
        unknown: the records' probabilities (``target`` among them).
        target: the removed record's probability.

    Returns:
        ``P[S = s]`` for ``s = 0..len(unknown) - 1``, exact.

    References:
        Desfontaines et al. (2020), Section 4.1 (the peers' count).
    """
    blocks = Counter(unknown)
    blocks[target] -= 1
    rest = poly.product([poly.power(_linear(q), k) for q, k in blocks.items() if k > 0])
    cs = poly.coefficients(rest)
    total = sum(cs)
    m = len(unknown) - 1
    cs = cs + [0] * (m + 1 - len(cs))
    return [Fraction(x, total) for x in cs]

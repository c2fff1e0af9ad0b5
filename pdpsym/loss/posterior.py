r"""Posteriors under Laplace noise: the sup over a continuous output, certified.

Desfontaines et al.'s inference-based notions (Definition 6, IBCDP) compare the
posteriors of ``D(i)`` given the output ``t`` of ``f(D) + Lap(λ)``:

    post(a | t) = u_a(t) / Σ_{a'} u_{a'}(t),   u_a(t) = Σ_s w_a(s) e^{-|t-s|/λ},

and take ``sup_t`` of ``g(t) = Σ_a (post_1(a|t) - e^ε post_2(a|t))_+`` (δ at ε) or of
``max_a ln post_1(a|t)/post_2(a|t)`` (ε at δ = 0).

**Monotone pieces.** Between consecutive centres ``u_a(t) = A_a e^{t/λ} + B_a e^{-t/λ}``,
so ``post(a|t) = (A_a v + B_a)/(A v + B)`` with ``v = e^{2t/λ}``: a Möbius function of
``v``, monotone on the piece. Beyond the extreme centres every ``u_a`` is a multiple of
the same exponential, so the posteriors are constant there (equal to their values at the
extreme centres). Hence on an interval ``[x, y]`` inside one piece each posterior lies
between its values at ``x`` and ``y``: that bounds ``g`` from above, and ``g`` at any
point bounds the sup from below.

**Certified enclosure.** A branch and bound over the pieces (of every case at once)
splits the interval with the largest upper bound until the bounds meet within the width
asked for. Every bound is a rational enclosure of exact values (balls at a precision
that grows with the width asked); the result is a :class:`~pdpsym.core.exp_sqrt_sums.Bracket`:
an enclosure, not a closed form (the sup sits at an interior critical point of a sum of
Möbius functions in general).

**Closed form (used first).** That critical point solves a quadratic whose coefficients
are exact exponential polynomials (:mod:`pdpsym.loss.posterior_pieces`), so
:class:`PosteriorSup` evaluates the piece ends and those roots in balls, the signs
decided exactly, and narrows to any width by raising the precision; the branch and
bound remains for a posterior that vanishes where the other does not.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError, Undecided
from pdpsym.core.exp_polynomials import ExpPoly
from pdpsym.core.exp_sqrt_sums import Bracket, exp_enclosure, log_enclosure, ratio_enclosure
from pdpsym.loss import posterior_pieces
from pdpsym.loss.base import LossPoint, PrivacyLoss, bisect_epsilon
from pdpsym.loss.laplace_mixture import laplace_mixture_at
from pdpsym.loss.posterior_pieces import Posterior, PosteriorCase

Bounds = tuple[Fraction, Fraction]


#: the largest ε whose e^ε is enclosed by a finite ball here (below 16384 ln 2)
HUGE_EPS = Fraction(11356)


class _Evaluator:
    """Rational enclosures of every posterior of every case at rational outputs ``t``."""

    def __init__(self, cases: Sequence[PosteriorCase], lam: Fraction) -> None:
        self.cases, self.lam = cases, lam
        self.prec = 0
        self.memo: dict[tuple[int, Fraction], tuple[dict[Any, Bounds], dict[Any, Bounds]]] = {}

    def set_prec(self, prec: int) -> None:
        if prec > self.prec:
            self.prec, self.memo = prec, {}

    def at(self, k: int, t: Fraction) -> tuple[dict[Any, Bounds], dict[Any, Bounds]]:
        key = (k, t)
        if key not in self.memo:
            c = self.cases[k]
            out = []
            for post in (c.first, c.second):
                u = {a: laplace_mixture_at(w, self.lam, t) for a, w in post.items()}
                total = ExpPoly()
                for p in u.values():
                    total = total + p
                out.append({a: ratio_enclosure(p, total, self.prec) for a, p in u.items()})
            self.memo[key] = (out[0], out[1])
        return self.memo[key]


#: objective(first_x, second_x, first_y, second_y) -> (lower bound at x, upper bound on [x, y])
Objective = Callable[
    [dict[Any, Bounds], dict[Any, Bounds], dict[Any, Bounds], dict[Any, Bounds]],
    tuple[Fraction, Fraction],
]


def _delta_objective(e_lo: Fraction, e_hi: Fraction) -> Objective:
    def f(
        p1x: dict[Any, Bounds],
        p2x: dict[Any, Bounds],
        p1y: dict[Any, Bounds],
        p2y: dict[Any, Bounds],
    ) -> tuple[Fraction, Fraction]:
        lower = upper = Fraction(0)
        for a in p1x:
            lower += max(Fraction(0), p1x[a][0] - e_hi * p2x[a][1])
            hi1 = max(p1x[a][1], p1y[a][1])
            lo2 = min(p2x[a][0], p2y[a][0])
            upper += max(Fraction(0), hi1 - e_lo * lo2)
        return lower, upper

    return f


def _ratio_objective(
    p1x: dict[Any, Bounds], p2x: dict[Any, Bounds], p1y: dict[Any, Bounds], p2y: dict[Any, Bounds]
) -> tuple[Fraction, Fraction]:
    lower = upper = Fraction(0)
    for a in p1x:
        lower = max(lower, p1x[a][0] / p2x[a][1])
        upper = max(upper, max(p1x[a][1], p1y[a][1]) / min(p2x[a][0], p2y[a][0]))
    return lower, upper


class _Search:
    """Branch and bound for ``sup`` over (case, t) of an objective; ``narrow`` halves the
    gap between the bounds (the Bracket's refinement)."""

    MAX_STEPS = 200_000

    def __init__(self, ev: _Evaluator, objective_at: Callable[[int], Objective]) -> None:
        self.ev, self.objective_at = ev, objective_at
        self.prec = 0
        self.best: tuple[Fraction, int, Fraction] | None = None  # (lower, case, t)
        self.heap: list[tuple[Fraction, int, Fraction, Fraction]] = []

    def _restart(self, prec: int) -> None:
        self.prec = prec
        self.ev.set_prec(prec)
        self.objective = self.objective_at(prec)
        self.best, self.heap = None, []
        for k, c in enumerate(self.ev.cases):
            cs = c.centres()
            pieces = list(zip(cs, cs[1:], strict=False)) or [(cs[0], cs[0])]
            for x, y in pieces:
                self._push(k, x, y)

    def _bounds(self, k: int, x: Fraction, y: Fraction) -> tuple[Fraction, Fraction]:
        p1x, p2x = self.ev.at(k, x)
        p1y, p2y = self.ev.at(k, y)
        low_x, upper = self.objective(p1x, p2x, p1y, p2y)
        low_y, _ = self.objective(p1y, p2y, p1y, p2y)
        for low, t in ((low_x, x), (low_y, y)):
            if self.best is None or low > self.best[0]:
                self.best = (low, k, t)
        return low_x, upper

    def _push(self, k: int, x: Fraction, y: Fraction) -> None:
        _, upper = self._bounds(k, x, y)
        if self.best is not None and upper < self.best[0]:
            return  # never above the best point found: the sup is not there
        heapq.heappush(self.heap, (-upper, k, x, y))

    def enclosure(self, width: Fraction) -> tuple[Fraction, Fraction]:
        """``lo <= sup <= hi`` with ``hi - lo <= width`` (precision grows as needed)."""
        bits = max(128, (1 / width).numerator.bit_length() + 64) if width > 0 else 128
        if bits > self.prec:
            self._restart(bits)
        for _ in range(self.MAX_STEPS):
            assert self.best is not None
            top = -self.heap[0][0]
            if top - self.best[0] <= width:
                return self.best[0], top
            _, k, x, y = heapq.heappop(self.heap)
            if x == y:  # a single point: its bound is as tight as the balls allow
                self._restart(self.prec * 2)
                continue
            m = (x + y) / 2
            self._push(k, x, m)
            self._push(k, m, y)
        raise Undecided("sup over a continuous output", self.prec)

    def witness(self) -> dict[str, Any]:
        assert self.best is not None
        _, k, t = self.best
        return {**self.ev.cases[k].where, "output": t}


def _case_key(c: PosteriorCase) -> Any:
    cs = c.centres()
    lo = cs[0] if cs else Fraction(0)
    return tuple(
        tuple(
            sorted(
                (repr(a), tuple(sorted((s - lo, w) for s, w in ws.items())))
                for a, ws in post.items()
            )
        )
        for post in (c.first, c.second)
    )


def _normalized(post: Posterior) -> dict[Any, dict[Fraction, Fraction]]:
    z = sum((w for ws in post.values() for w in ws.values()), Fraction(0))
    if not z:
        return {}
    out = {a: {s: w / z for s, w in ws.items() if w} for a, ws in post.items()}
    return {a: ws for a, ws in out.items() if ws}


def _trivial(c: PosteriorCase) -> bool:
    """Whether the two posteriors are equal at every output, decided exactly: both
    families put all their mass on one and the same value (both posteriors are 1 there,
    the Laplace mixtures being positive everywhere), or they are proportional (one factor
    for every value). Such a case adds 0 to the sup of the log ratio and to δ(ε) for
    ε >= 0, so an exact 0 is never left to an enclosure of a vanishing quantity."""
    first, second = _normalized(c.first), _normalized(c.second)
    return (len(first) == 1 and first.keys() == second.keys()) or first == second


class PosteriorSup(PrivacyLoss):
    """``sup`` over cases and outputs ``t`` of the posterior comparison (IBCDP under
    Laplace noise), as certified enclosures.

    Args:
        cases: the :class:`~pdpsym.loss.posterior_pieces.PosteriorCase` of the notion.
        lam: the Laplace scale ``λ``.

    References:
        Desfontaines et al. Definition 6 (IBCDP); Li et al. Eq. 2 (the mixtures).
    """

    def __init__(self, cases: Sequence[PosteriorCase], lam: Fraction) -> None:
        kept: dict[Any, PosteriorCase] = {}
        for c in cases:  # cases equal up to a translation of the outputs: kept once
            if not _trivial(c):  # each kept case's sup is >= 0, so these add nothing
                kept.setdefault(_case_key(c), c)
        self.cases, self.lam = tuple(kept.values()), Fraction(lam)
        self.where: Mapping[str, Any] | None = None

    #: the width of the enclosures reported (a bound-and-branch search converges
    #: linearly at a smooth interior maximum: finer widths cost more than they show)
    WIDTH = Fraction(1, 1 << 16)

    def _bracket(self, search: _Search, label: str, log: bool = False) -> LossPoint:
        lo, hi = search.enclosure(self.WIDTH)
        self.where = search.witness()

        def narrow(a: Fraction, b: Fraction) -> tuple[Fraction, Fraction]:
            width = (b - a) / 4
            x, y = search.enclosure(width if not log else width / 8)
            if log:
                prec = max(128, (1 / width).numerator.bit_length() + 64)
                x, y = log_enclosure(max(x, Fraction(1)), max(y, Fraction(1)), prec)
                x, y = max(x, Fraction(0)), max(y, Fraction(0))
            return max(a, x), min(b, y)

        if log:
            lo, hi = log_enclosure(max(lo, Fraction(1)), max(hi, Fraction(1)), 128)
            lo, hi = max(lo, Fraction(0)), max(hi, Fraction(0))
        if lo == hi:
            return LossPoint(lo, self.where)
        return LossPoint(Bracket(lo, hi, narrow, label, limit=2 * self.WIDTH), self.where)

    def _delta_search(self, eps: Eps) -> _Search:
        def objective_at(prec: int) -> Objective:
            return _delta_objective(*exp_enclosure(eps.arb_exp, prec))

        return _Search(_Evaluator(self.cases, self.lam), objective_at)

    def _exponent_bits(self) -> int:
        """The bits of the largest exponent ``2 (d - c) / λ`` of the pieces' balls."""
        cs = [x for case in self.cases for x in case.centres()]
        span = 2 * (max(cs) - min(cs)) / self.lam if cs else Fraction(0)
        return max(span.numerator.bit_length(), span.denominator.bit_length())

    def _closed(
        self,
        values: Callable[..., list[tuple[Any, bool]]],
        objective: Callable[[int], Objective],
        label: str,
        log: bool = False,
    ) -> LossPoint | None:
        """The sup as a Bracket from the closed form (None: unbounded in balls, left to
        the branch and bound)."""
        # the balls start precise enough to hold every exponent 2 (d - c) / λ exactly
        # (a coarser ball of a huge exponent has a non-finite exp)
        prec = max(128, self._exponent_bits() + 64)
        lo, hi, where = posterior_pieces.sup_enclosure(self.cases, self.lam, prec, values)
        if hi is None:
            return None
        self.where = where
        state = {"prec": prec}

        def ends(x: Fraction, y: Fraction) -> tuple[Fraction, Fraction]:
            if log:
                x, y = log_enclosure(max(x, Fraction(1)), max(y, Fraction(1)), state["prec"])
            return max(x, Fraction(0)), max(y, Fraction(0))

        def narrow(a: Fraction, b: Fraction) -> tuple[Fraction, Fraction]:
            while state["prec"] < 1 << 15:
                state["prec"] *= 2
                x, y_, _ = posterior_pieces.sup_enclosure(
                    self.cases, self.lam, state["prec"], values
                )
                if y_ is None:
                    continue
                x, y = ends(x, y_)
                if (max(a, x), min(b, y)) != (a, b):
                    return max(a, x), min(b, y)
            # a candidate the balls cannot pin down: the branch and bound narrows instead
            search = _Search(_Evaluator(self.cases, self.lam), lambda prec: objective(prec))
            x, y = search.enclosure((b - a) / (64 if log else 4))
            return max(a, *ends(x, x)[:1]), min(b, ends(y, y)[1])

        lo, hi = ends(lo, hi)
        if lo == hi:
            return LossPoint(lo, where)
        return LossPoint(Bracket(lo, hi, narrow, label), where)

    def delta(self, eps: Eps | Fraction | int | str) -> LossPoint:
        """``sup_t Σ_a (post_1(a|t) - e^ε post_2(a|t))_+`` over every case, certified.

        Args:
            eps: ε.

        Returns:
            :class:`LossPoint` holding a Bracket that narrows to any width.
        """
        e = Eps.of(eps)
        if not self.cases:
            return LossPoint(Fraction(0))
        if e.exponent is not None and e.exponent > HUGE_EPS:
            # e^ε has no finite ball; δ(ε) does not increase with ε, so a zero at
            # HUGE_EPS is a zero here, and anything else is refused naming ε
            at = self.delta(Eps(exponent=HUGE_EPS))
            if at.value == 0:
                return LossPoint(Fraction(0))
            raise InputError("eps", f"epsilon {e} is too large to enclose e^epsilon")
        label = f"sup over outputs at epsilon {e} (closed form: piece ends and stationary points)"
        closed = self._closed(
            posterior_pieces.delta_values(e),
            lambda prec: _delta_objective(*exp_enclosure(e.arb_exp, prec)),
            label,
        )
        if closed is not None:
            return closed
        return self._bracket(
            self._delta_search(e), f"sup over outputs at epsilon {e} (certified enclosure)"
        )

    def exceeds(self, eps: Eps, delta: Fraction) -> bool:
        """Whether ``δ(ε) > delta``, decided by enclosures at rising precision.

        Args:
            eps: ε.
            delta: the rational δ compared with.

        Returns:
            True when the enclosure lies above ``delta``, False when at or below it.
        """
        values = posterior_pieces.delta_values(eps)
        prec = 128
        while prec <= 1 << 14:
            lo, hi, where = posterior_pieces.sup_enclosure(self.cases, self.lam, prec, values)
            if hi is None:
                break
            if lo > delta:
                self.where = where
                return True
            if hi <= delta:
                return False
            prec *= 2
        return self._search_exceeds(eps, delta)

    def _search_exceeds(self, eps: Eps, delta: Fraction) -> bool:
        search = self._delta_search(eps)
        width = Fraction(1, 1 << 16)
        while width > Fraction(1, 1 << 200):
            lo, hi = search.enclosure(width)
            if lo > delta:
                self.where = search.witness()
                return True
            if hi <= delta:
                return False
            width /= 16
        raise Undecided(f"delta at epsilon {eps} against {delta}", search.prec)

    def epsilon(self, delta: Fraction | int | str = 0) -> LossPoint:
        """The smallest ε with ``δ(ε) <= delta``: bisection with every step decided.

        Args:
            delta: a rational in ``[0, 1)``.

        Returns:
            :class:`LossPoint` (a Bracket, or an exact value at an end).
        """
        d = Fraction(delta) if isinstance(delta, Fraction | int) else Eps.of(delta).eps
        if not d:
            return self.epsilon_zero()
        return bisect_epsilon(self, Fraction(d))

    def epsilon_zero(self) -> LossPoint:
        """``sup_t max_a ln post_1(a|t) / post_2(a|t)`` over every case, certified.

        Returns:
            :class:`LossPoint` holding a Bracket on ε that narrows to any width.
        """
        if not self.cases:
            return LossPoint(Fraction(0))
        closed = self._closed(
            posterior_pieces.ratio_values,
            lambda prec: _ratio_objective,
            "sup over outputs of the log posterior ratio (closed form: piece ends and "
            "stationary points)",
            log=True,
        )
        if closed is not None:
            return closed
        search = _Search(_Evaluator(self.cases, self.lam), lambda prec: _ratio_objective)
        return self._bracket(
            search, "sup over outputs of the log posterior ratio (certified enclosure)", log=True
        )


__all__ = ["PosteriorSup"]

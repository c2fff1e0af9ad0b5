"""The report laws of randomized response on a Markov chain, around one target.

Randomized response reports ``o_j`` for every record, kept with probability ``keep`` and
otherwise a uniformly drawn other state: ``R(o | s) = keep`` if ``o = s``, else
``(1 - keep) / (k - 1)``. Let ``l < i < r`` be the nearest known records around the
target ``i`` (none: the chain's ends). Given ``x_i``, ``x_l`` and ``x_r`` the reports
inside ``(l, r)`` split into the past (before ``i``), ``o_i`` and the future, independent
of each other and of every other report (the Markov property), with the forward and
backward messages of a hidden Markov model::

    alpha(s) = P(o_{l+1..i-1}, x_i = s | x_l),    beta(s) = P(o_{i+1..r-1}, x_r | x_i = s).

:class:`ReportChain` computes them exactly, lists the law of the reports inside
``(l, r)`` given ``x_i = a`` (``k^(r - l - 1)`` outcomes) and, for two states, the
exact largest ratio of the past's (or the future's) messages without listing them.

**Exact maxima for two states (the dynamic programme).** Write ``rho = alpha(0)/alpha(1)``
in ``[0, inf]``. One forward step with report ``o`` gives
``rho' = (P00 u + P10) / (P01 u + P11)`` with ``u = c_o rho``, ``c_o = R(o|0)/R(o|1) > 0``
(``P`` the step's matrix, rows from-states): a Möbius map of ``u`` whose derivative has
the sign of ``det P``, so it is monotone on ``[0, inf]`` (the denominator vanishes only
at ``u = 0`` when ``P11 = 0``, where the map tends to ``+inf`` monotonically). Over every
report sequence, the largest and smallest ``u`` are ``c_max rho_max`` and
``c_min rho_min``; a monotone map sends them to the extremes of ``rho'``. By induction
the extremes of ``rho`` at ``x_i`` are found by propagating two values, evaluating the
map at the four products ``c_o rho_ext`` and keeping the largest and smallest, all in
exact Fractions (ratios as pairs ``(p, q)`` compared by ``p q' - p' q``, so ``inf`` needs
no special case). The backward ratio ``beta(0)/beta(1)`` obeys
``(P00 u + P01) / (P10 u + P11)``, the same argument. Then
``max alpha(a)/alpha(b)`` is ``rho_max`` (``a = 0``) or ``1/rho_min`` (``a = 1``).

The audit (:mod:`pdpsym.audit.rr_reports`) compares these laws by each notion; long
segments of more states go through :mod:`pdpsym.audit.rr_report_cones` and
:mod:`pdpsym.audit.rr_report_windows`.

References:
    Warner (1965), randomized response; Rabiner (1989), the forward-backward recursions
    of a hidden Markov model.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from pdpsym.audit.rr_pairs import other_prob
from pdpsym.models.markov import MarkovChain
from pdpsym.models.scenario import PMF

Pair = tuple[Fraction, Fraction]  # a ratio p / q in [0, inf] as (p, q)


class ReportChain:
    """The report laws of a chain around one target (0-based positions)."""

    def __init__(self, model: MarkovChain, keep: Fraction, target: str, known: Sequence[str]):
        self.m, self.keep = model, keep
        self.i = model.index(target, "target")
        pos = sorted(model.index(k, "known") for k in known)
        left = [p for p in pos if p < self.i]
        right = [p for p in pos if p > self.i]
        self.l = left[-1] if left else None
        self.r = right[0] if right else None
        self.k = model.k
        self.states = model.states

    @property
    def outcomes(self) -> int:
        """The number of report outcomes inside the segment ``(l, r)`` (capped at
        ``k^64``)."""
        lo = -1 if self.l is None else self.l
        hi = self.m.length if self.r is None else self.r
        return int(
            self.k ** min(hi - lo - 1, 64)
        )  # k^64 > rr_reports.MAX_OUTCOMES: no need for more

    def report_prob(self, o: int, s: int) -> Fraction:
        """``R(o | s)``: the probability of reporting state ``o`` from true state ``s``."""
        return self.keep if o == s else other_prob(self.keep, self.k)

    def past_start(self, vl: int | None) -> tuple[int, list[Fraction]]:
        """The position of the first past report and the law there (no report yet)."""
        if self.l is None:
            return 0, list(self.m.initial_law)
        assert vl is not None
        return self.l + 1, list(self.m.matrix(self.l)[vl])

    def future_end(self, vr: int | None) -> tuple[int, list[Fraction]]:
        """The position of the last future report and the backward law there
        (``P(x_r = vr | x_pos = s)``, or ones with no known record to the right)."""
        if self.r is None:
            return self.m.length - 1, [Fraction(1)] * self.k
        assert vr is not None
        P = self.m.matrix(self.r - 1)
        return self.r - 1, [P[s][vr] for s in range(self.k)]

    def forward(self, alpha: list[Fraction], pos: int, o: int | None) -> list[Fraction]:
        """One forward step: the law over ``x_pos`` times the report ``o`` (None: no
        report), carried to ``x_{pos + 1}``."""
        P, k = self.m.matrix(pos), self.k
        w = [alpha[s] * (1 if o is None else self.report_prob(o, s)) for s in range(k)]
        return [sum((w[s] * P[s][t] for s in range(k)), Fraction(0)) for t in range(k)]

    def backward(self, beta: list[Fraction], pos: int, o: int | None) -> list[Fraction]:
        """One backward step: ``beta`` over ``x_pos`` times the report ``o`` (None: no
        report), carried back to ``x_{pos - 1}``."""
        P, k = self.m.matrix(pos - 1), self.k
        w = [beta[t] * (1 if o is None else self.report_prob(o, t)) for t in range(k)]
        return [sum((P[s][t] * w[t] for t in range(k)), Fraction(0)) for s in range(k)]

    def norms(self, vl: int | None, vr: int | None) -> tuple[list[Fraction], list[Fraction]]:
        """``P(x_i = s | x_l)`` and ``P(x_r | x_i = s)`` for every ``s``."""
        p0, alpha = self.past_start(vl)
        for pos in range(p0, self.i):
            alpha = self.forward(alpha, pos, None)
        p1, beta = self.future_end(vr)
        for pos in range(p1, self.i, -1):
            beta = self.backward(beta, pos, None)
        return alpha, beta

    def past_laws(self, vl: int | None) -> dict[tuple[int, ...], list[Fraction]]:
        """``alpha`` for every past report sequence (DFS over the reports)."""
        p0, alpha = self.past_start(vl)
        out: dict[tuple[int, ...], list[Fraction]] = {(): alpha}
        for pos in range(p0, self.i):
            out = {
                seq + (o,): self.forward(a, pos, o) for seq, a in out.items() for o in range(self.k)
            }
        return out

    def future_laws(self, vr: int | None) -> dict[tuple[int, ...], list[Fraction]]:
        """``beta`` for every future report sequence."""
        p1, beta = self.future_end(vr)
        out: dict[tuple[int, ...], list[Fraction]] = {(): beta}
        for pos in range(p1, self.i, -1):
            out = {
                (o,) + seq: self.backward(b, pos, o)
                for seq, b in out.items()
                for o in range(self.k)
            }
        return out

    def pmf(self, a: int, vl: int | None, vr: int | None) -> PMF:
        """The law of the reports inside ``(l, r)`` given ``x_i = a`` (and ``x_l``, ``x_r``):
        ``past(o) R(o_i|a) future(o)``, each side normalized by its no-report law."""
        na, nb = self.norms(vl, vr)
        past = {s: v[a] / na[a] for s, v in self.past_laws(vl).items()}
        fut = {s: v[a] / nb[a] for s, v in self.future_laws(vr).items()}
        out: PMF = {}
        for (sp, pp), o, (sf, pf) in itertools.product(past.items(), range(self.k), fut.items()):
            p = pp * self.report_prob(o, a) * pf
            if p:
                out[tuple(self.states[j] for j in sp + (o,) + sf)] = p
        return out

    @property
    def reported(self) -> str:
        """The records whose reports the segment's outcomes list, as ``first..last``."""
        names = self.m.variables
        lo = 0 if self.l is None else self.l + 1
        hi = self.m.length - 1 if self.r is None else self.r - 1
        return f"{names[lo]}..{names[hi]}" if hi > lo else names[lo]

    def max_ratio(self, a: int, b: int, vl: int | None, vr: int | None) -> Fraction | None:
        """``max_o P(o | a) / P(o | b)`` over the reports inside ``(l, r)`` for two states,
        by the extreme-propagating programme (None: infinite)."""
        assert self.k == 2
        if self.keep == 1:
            return None
        na, nb = self.norms(vl, vr)

        def bigger(x: Pair, y: Pair) -> bool:
            return x[0] * y[1] > y[0] * x[1]

        def extremes(cands: list[Pair]) -> tuple[Pair, Pair]:
            hi = lo = cands[0]
            for c in cands[1:]:
                hi = c if bigger(c, hi) else hi
                lo = c if bigger(lo, c) else lo
            return hi, lo

        def sweep(step: Any, seed: Sequence[Fraction], positions: range) -> Pair:
            # the extremes of the ratio carried through every report (monotone maps)
            hi = lo = (seed[0], seed[1])
            for pos in positions:
                cands = [step([v[0], v[1]], pos, o) for v in {hi, lo} for o in range(2)]
                hi, lo = extremes([(x[0], x[1]) for x in cands])
            return (hi[0], hi[1]) if a == 0 else (lo[1], lo[0])

        p0, alpha = self.past_start(vl)
        past = sweep(self.forward, alpha, range(p0, self.i))
        p1, beta = self.future_end(vr)
        fut = sweep(self.backward, beta, range(p1, self.i, -1))
        other = other_prob(self.keep, 2)
        own = max(self.keep / other, other / self.keep)
        if past[1] == 0 or fut[1] == 0 or na[a] == 0 or nb[a] == 0:
            return None
        # max over o of P(o|a)/P(o|b): the three independent factors' maxima, each side
        # divided by its normalization ratio (the law of x_i given x_l, of x_r given x_i)
        return own * (past[0] / past[1]) * (na[b] / na[a]) * (fut[0] / fut[1]) * (nb[b] / nb[a])


__all__ = ["ReportChain"]

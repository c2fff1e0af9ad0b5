"""Distributional DP (Desfontaines et al. Definition 4): the best simulator, certified.

``M`` is ``({θ}, ε, δ)``-distributional-DP for record ``i`` when there is a simulator
``Sim`` that sees only the other records, with

    M(D) | D(i)=a, B=B̂   ≈_{ε,δ}   Sim(D_{-i}) | D(i)=a, B=B̂

for every value ``a`` and known value ``B̂`` compatible with it (Definition 4 is the
case δ = 0). With ``S_{a,B̂} = Σ_r π_{a,B̂}(r) Sim(r)`` (``π`` the law of ``D_{-i}``
given ``a, B̂``) and ``t = e^ε`` the smallest δ is a linear program over the simulators
(``δ_LP`` below), and the smallest ε at a δ is where ``δ_LP`` falls to δ.

Every LP is answered by a certified pair, never by a solver's word: a simulator whose
objective is evaluated exactly in rationals (an upper end) and dual weights whose
objective is evaluated exactly (a lower end, by weak duality). The solver (HiGHS, in
floats) only proposes them; a poor proposal widens the enclosure, it cannot make it
wrong. Whether any finite ε works at δ = 0 is decided exactly first, from the supports.
Laplace noise (a continuous output) is enclosed between two finite LPs (the notes in
:mod:`pdpsym.audit.distributional_lp`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pdpsym.audit.distributional_lp import (
    Candidate,
    LPData,
    Matrix,
    dual_bound,
    laplace_lp_data,
    simulator_delta,
    simulator_ratio,
    threshold,
)
from pdpsym.core.compare import proposal_float
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.core.exp_sqrt_sums import Bracket, exp_enclosure, log_enclosure
from pdpsym.loss.base import LossPoint, PrivacyLoss
from pdpsym.mechanisms.finite import Mechanism, output_pmf
from pdpsym.models.scenario import Scenario


@dataclass(frozen=True)
class Enclosure:
    """``lo ≤ e^ε ≤ hi`` for the smallest ε (``hi`` None: no simulator works at all)."""

    lo: Fraction
    hi: Fraction | None
    simulator: Mapping[Any, Mapping[Any, Fraction]] | None


def _rest(d: tuple[Any, ...], i: int) -> tuple[Any, ...]:
    return d[:i] + d[i + 1 :]


def distributional_dp(sc: Scenario, mech: Mechanism, i: int) -> Enclosure:
    """Enclose the smallest ``e^ε`` of Definition 4 for record ``i`` (δ = 0).

    Args:
        sc: the scenario (records and known records).
        mech: the finite mechanism.
        i: the target record.

    Returns:
        :class:`Enclosure`: ``lo <= e^ε <= hi`` (``lo`` proved by dual weights, ``hi``
        met by the simulator returned, keyed by the rest ``D_{-i}``), or ``hi`` None
        when no simulator works at any ε.

    References:
        Desfontaines et al., Section 2.1, Definition 4.

    Randomized response on two uniform independent records: ``Sim`` must serve both
    values of ``x1`` with one law ``S``, so ``S ≤ t min_a P_a`` pointwise and
    ``1 = Σ S ≤ t Σ_o min_a P_a(o) = t/2``: ``e^ε = 2`` (hand; the pointwise ratio
    alone would allow ``sqrt(3)``).

    >>> from pdpsym.models.joint import JointDistribution
    >>> from pdpsym.mechanisms.discrete import randomized_response
    >>> m = JointDistribution.from_rows(["x1", "x2"], [[0, 0, "1/4"], [0, 1, "1/4"],
    ...                                                [1, 0, "1/4"], [1, 1, "1/4"]])
    >>> rr = randomized_response("3/4", m.domains)
    >>> e = distributional_dp(Scenario.from_model(m), rr, 0)
    >>> 1.9999999 < float(e.lo) <= float(e.hi) < 2.0000001
    True

    The simulator at the upper end is a simulator (each ``Sim(r)`` sums to 1) and
    satisfies Definition 4 at ``t = hi`` (checked here directly; ``D_{-i} = x2`` is
    uniform):

    >>> all(sum(law.values()) == 1 for law in e.simulator.values())
    True
    >>> def sim_out(a):  # law of Sim(x2) and of M(D) given x1 = a
    ...     s, p = {}, {}
    ...     for x2 in (0, 1):
    ...         for o, q in e.simulator[(x2,)].items():
    ...             s[o] = s.get(o, 0) + q / 2
    ...         for o, q in rr((a, x2)).items():
    ...             p[o] = p.get(o, 0) + q / 2
    ...     return s, p
    >>> all(p[o] <= e.hi * s.get(o, 0) and s.get(o, 0) <= e.hi * p[o]
    ...     for a in (0, 1) for s, p in [sim_out(a)] for o in p)
    True
    """
    groups = []  # (P_{a,B̂}, π_{a,B̂})
    for bhat in sc.knowledge_values():
        for a in sc.record_values(i):
            if not sc.compatible(i, a, bhat):
                continue
            pi: dict[Any, Fraction] = {}
            for d, p in sc.conditional(i, a, bhat).items():
                r = _rest(d, i)
                pi[r] = pi.get(r, Fraction(0)) + p
            groups.append((output_pmf(sc, mech, i, a, bhat), pi))
    rs = sorted({r for _, pi in groups for r in pi}, key=repr)
    outs = sorted({o for p, _ in groups for o in p}, key=repr)
    # finiteness, exactly: Sim(o|r) must vanish where some group sees r but not o
    allowed = {
        r: [o for o in outs if all(p.get(o, 0) > 0 for p, pi in groups if pi.get(r, 0) > 0)]
        for r in rs
    }
    if any(not allowed[r] for r in rs) or any(
        not any(pi.get(r, 0) > 0 and o in allowed[r] for r in rs)
        for p, pi in groups
        for o in p
        if p[o] > 0
    ):
        return Enclosure(Fraction(1), None, None)
    lo = hi = Fraction(1)
    simulator: dict[Any, dict[Any, Fraction]] = {}
    for bhat, block in _groups(sc, i):
        rests, pis = _pi(i, block)
        laws = [output_pmf(sc, mech, i, a, bhat) for a, _ in block]
        block_outs = sorted({o for law in laws for o in law}, key=repr)
        m = tuple(tuple(Fraction(law.get(o, 0)) for o in block_outs) for law in laws)
        if all(row == m[0] for row in m):  # one law for every value: Sim(r) = that law
            for r in rests:
                simulator[r] = {o: q for o, q in zip(block_outs, m[0], strict=True) if q}
            continue
        data = LPData(pis, m, m)
        a, b, zeta = threshold(data, data, Fraction(0))
        lo, hi = max(lo, a), max(hi, b)
        for r, row in zip(rests, zeta, strict=True):
            simulator[r] = {o: q for o, q in zip(block_outs, row, strict=True) if q}
    return Enclosure(lo, hi, simulator)


# --- δ(ε) and ε(δ): finite outputs and Laplace noise -------------------------------------
#
# The notes below are the argument; docs/audit.md repeats it for users.
#
# **Blocks.** The known records are among ``D_{-i}``, so the simulator sees ``B̂``: the
# conditions of the known value ``B̂`` only involve ``Sim(r)`` for the rests ``r``
# compatible with it. The optimal simulator is chosen block by block and
# ``δ*(ε) = max_B̂ δ*_B̂(ε)``.
#
# The LP of one block and its certificates: :mod:`pdpsym.audit.distributional_lp`.


def _groups(sc: Scenario, i: int) -> list[tuple[Any, list[tuple[Any, dict[Any, Fraction]]]]]:
    """Per known value ``B̂``: each compatible value ``a`` and the law of the databases
    (grouped by rest) given ``a, B̂``."""
    out = []
    for bhat in sc.knowledge_values():
        groups = []
        for a in sc.record_values(i):
            if sc.compatible(i, a, bhat):
                groups.append((a, dict(sc.conditional(i, a, bhat))))
        if groups:
            out.append((bhat, groups))
    return out


def _pi(i: int, groups: Sequence[tuple[Any, Mapping[Any, Fraction]]]) -> tuple[list[Any], Matrix]:
    rests = sorted({_rest(d, i) for _, law in groups for d in law}, key=repr)
    col = {r: k for k, r in enumerate(rests)}
    pi = []
    for _, law in groups:
        row = [Fraction(0)] * len(rests)
        for d, p in law.items():
            row[col[_rest(d, i)]] += p
        pi.append(tuple(row))
    return rests, tuple(pi)


Levels = Callable[[int], tuple[LPData, LPData]]

#: A rational below e^ε when ε is too large for a ball of e^ε (ε >= 16384 ln 2 is checked)
HUGE_T = Fraction(2**16384)

#: The largest e^ε a float LP is asked to solve at before falling back to smaller ones.
_FLOAT_T = (1e300, 2.0**64, 2.0**16)


def _proposal(data: LPData, t: Fraction, with_dual: bool) -> Candidate:
    """A float LP's proposal for ``δ_LP(t)``: solved at ``t`` if it can, else at the
    first smaller float ``e^ε`` it can (a proposal from a smaller t is certified at ``t``
    all the same; it is only poorer)."""
    cand = Candidate(data, proposal_float(t), with_dual=with_dual)
    for cap in _FLOAT_T:
        if cand.ok:
            break
        if t > cap:
            cand = Candidate(data, cap, with_dual=with_dual)
    return cand


def finite_blocks(sc: Scenario, mech: Mechanism, i: int) -> list[tuple[dict[str, Any], Levels]]:
    """The blocks of Definition 4 for a finite mechanism: exact output masses.

    Args:
        sc: the scenario (records and known records).
        mech: the finite mechanism.
        i: the target record.

    Returns:
        ``(where, levels)`` per known value; ``levels(n)`` gives the same exact LP data
        twice (lower and upper) whatever ``n``.

    References:
        Desfontaines et al., Section 2.1, Definition 4.
    """
    out: list[tuple[dict[str, Any], Levels]] = []
    for bhat, groups in _groups(sc, i):
        _, pi = _pi(i, groups)
        laws = [output_pmf(sc, mech, i, a, bhat) for a, _ in groups]
        outs = sorted({o for law in laws for o in law}, key=repr)
        m = tuple(tuple(Fraction(law.get(o, 0)) for o in outs) for law in laws)
        if all(row == m[0] for row in m):
            continue  # one output law for every value: δ = 0 with Sim(r) = that law
        data = LPData(pi, m, m)

        def same(n: int, data: LPData = data) -> tuple[LPData, LPData]:
            return data, data

        out.append(({"known": bhat}, same))
    return out


def laplace_blocks(
    sc: Scenario, i: int, query: Callable[[Any], Fraction], lam: Fraction
) -> list[tuple[dict[str, Any], Levels]]:
    """The blocks of Definition 4 for Laplace noise on a query: LP enclosures.

    Args:
        sc: the scenario (records and known records).
        i: the target record.
        query: the query value of a database.
        lam: the Laplace scale λ.

    Returns:
        ``(where, levels)`` per known value; ``levels(n)`` is :func:`laplace_lp_data`
        with ``n`` cells per gap.

    References:
        Desfontaines et al., Section 2.1, Definition 4; Li et al. (2019), Eq. 2.
    """
    out: list[tuple[dict[str, Any], Levels]] = []
    for bhat, groups in _groups(sc, i):
        _, pi = _pi(i, groups)
        centres = []
        for _, law in groups:
            c: dict[Fraction, Fraction] = {}
            for d, p in law.items():
                v = query(d)
                c[v] = c.get(v, Fraction(0)) + p
            centres.append(c)
        if all(c == centres[0] for c in centres):
            continue  # one output law for every value: δ = 0 with Sim(r) = that law

        def levels(
            n: int, pi: Matrix = pi, centres: list[dict[Fraction, Fraction]] = centres
        ) -> tuple[LPData, LPData]:
            return laplace_lp_data(pi, centres, lam, n)

        out.append(({"known": bhat}, levels))
    return out


class DistributionalLoss(PrivacyLoss):
    """δ(ε) and ε(δ) of Definition 4 (distributional DP) with (ε, δ)-indistinguishability.

    ``δ*(ε) = max_B̂ min_Sim max_a max(H_ε(M | a, B̂ ‖ Sim | a, B̂), H_ε(Sim ‖ M))`` with
    ``H_ε`` the hockey stick. Each block (known value) gives a lower and an upper LP
    (:func:`finite_blocks`, :func:`laplace_blocks`); each LP is answered by a certified
    pair: an explicit simulator evaluated exactly (upper) and dual weights evaluated
    exactly (lower). Values are :class:`~pdpsym.core.exp_sqrt_sums.Bracket` enclosures.

    Args:
        blocks: ``(where, levels)`` per known value.
        level: the discretization of the first answer (cells per gap; finite outputs
            ignore it).

    References:
        Desfontaines et al., Section 2.1, Definition 4 and Lemma 1.
    """

    def __init__(self, blocks: Sequence[tuple[Mapping[str, Any], Levels]], level: int = 64) -> None:
        self.blocks = tuple(blocks)
        self.level = level
        self.where: Mapping[str, Any] | None = None

    def _block_delta(
        self, levels: Levels, n: int, t_lo: Fraction, t_hi: Fraction | None
    ) -> tuple[Fraction, Fraction]:
        low, up = levels(n)
        if t_hi is None:  # no rational above e^ε at hand: the lower bound is 0
            cand_up = _proposal(up, t_lo, with_dual=False)
            upper = simulator_delta(up, t_lo, cand_up.zeta) if cand_up.ok else Fraction(1)
            return Fraction(0), min(upper, Fraction(1))
        # Any dual weights bound δ_LP(t_hi) from below and any simulator bounds δ_LP(t_lo)
        # from above, both evaluated exactly at the exact t; floats only propose them, at
        # t itself or, when e^ε is beyond what the float LP can take, at a smaller t.
        cand_low = _proposal(low, t_hi, with_dual=True)
        lower = (
            max(Fraction(0), dual_bound(low, t_hi, cand_low.dual)) if cand_low.ok else Fraction(0)
        )
        cand_up = _proposal(up, t_lo, with_dual=False)
        upper = simulator_delta(up, t_lo, cand_up.zeta) if cand_up.ok else Fraction(1)
        if upper and cand_up.ok and cand_up.value <= 1e-12:
            # δ = 0 within floats: a simulator found at a smaller t has room to spare
            for power in (0.5, 0.9, 0.99):
                c = Candidate(up, proposal_float(t_lo) ** power, with_dual=False)
                r = simulator_ratio(up, c.supported) if c.ok else None
                if r is not None and r <= t_lo:
                    upper = Fraction(0)
                    break
        return lower, min(upper, Fraction(1))

    def _delta_at(self, e: Eps, n: int) -> tuple[Fraction, Fraction]:
        t_hi: Fraction | None
        if e.w is not None:
            t_lo = t_hi = e.w
        else:
            try:
                t_lo, t_hi = exp_enclosure(e.arb_exp, 128)
            except ArithmeticError:
                # e^ε beyond any ball at this precision (ε of hundreds of digits): δ is
                # non-increasing in e^ε, so a rational below e^ε bounds it from above and
                # 0 from below
                if e.exp_sign_bound(HUGE_T) != -1:
                    raise
                t_lo, t_hi = HUGE_T, None
        lo = hi = Fraction(0)
        for where, levels in self.blocks:
            a, b = self._block_delta(levels, n, t_lo, t_hi)
            lo = max(lo, a)
            if b > hi or self.where is None:
                hi, self.where = max(hi, b), dict(where)
        return lo, hi

    def delta(self, eps: Eps | Fraction | int | str) -> LossPoint:
        """δ*(ε), enclosed (see the class docstring).

        Args:
            eps: ε.

        Returns:
            :class:`LossPoint` holding a Fraction (the ends met) or a Bracket.
        """
        e = Eps.of(eps)
        if not self.blocks:
            return LossPoint(Fraction(0))
        self.where = None
        lo, hi = self._delta_at(e, self.level)
        where = self.where
        if lo == hi:
            return LossPoint(lo, where)
        state = {"n": self.level}

        def narrow(a: Fraction, b: Fraction) -> tuple[Fraction, Fraction]:
            state["n"] *= 2
            x, y = self._delta_at(e, state["n"])
            return max(a, x), min(b, y)

        label = f"distributional DP delta at epsilon {e} (certified enclosure)"
        return LossPoint(Bracket(lo, hi, narrow, label, limit=hi - lo), where)

    def _epsilon_at(self, delta: Fraction, n: int) -> tuple[Fraction, Fraction]:
        lo = hi = Fraction(1)
        self.where = None
        for where, levels in self.blocks:
            a, b, _ = threshold(*levels(n), delta)
            lo = max(lo, a)
            if b > hi or self.where is None:
                hi, self.where = max(hi, b), dict(where)
        return lo, hi

    def epsilon(self, delta: Fraction | int | str = 0) -> LossPoint:
        """The smallest ε with ``δ*(ε) <= δ``, enclosed.

        Args:
            delta: a rational in ``[0, 1)``.

        Returns:
            :class:`LossPoint`: ``0`` when ε = 0 works, else a Bracket on ε.
        """
        d = Fraction(delta) if isinstance(delta, Fraction | int) else Eps.of(delta).eps
        if d is None or not 0 <= d < 1:
            raise InputError("delta", "must lie in [0, 1)")
        if not self.blocks:
            return LossPoint(Fraction(0))
        lo, hi = self._epsilon_at(d, self.level)
        where = self.where
        if hi == 1:
            return LossPoint(Fraction(0), where)
        a, b = log_enclosure(lo, hi, 128)
        a = max(a, Fraction(0))
        state = {"n": self.level}

        def narrow(x: Fraction, y: Fraction) -> tuple[Fraction, Fraction]:
            state["n"] *= 2
            p, q = self._epsilon_at(d, state["n"])
            u, v = log_enclosure(p, q, 128)
            return max(x, u), min(y, v)

        label = f"distributional DP epsilon at delta {d} (certified enclosure)"
        return LossPoint(Bracket(a, b, narrow, label, limit=b - a), where)

    def epsilon_zero(self) -> LossPoint:
        """The smallest ε with δ* = 0 (Definition 4 as printed), enclosed.

        Returns:
            :class:`LossPoint` (see :meth:`epsilon`).
        """
        return self.epsilon(0)

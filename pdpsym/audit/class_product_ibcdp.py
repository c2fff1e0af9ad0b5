r"""IBCDP's δ(ε) and ε(δ) over an interval product whose target is binary: the sup over
the target's probability in closed form, certified in balls, for the count, the
thresholded count, geometric and Laplace noise on the weighted sum.

**The posteriors.** For independent records (:mod:`pdpsym.audit.class_audit_product`,
Lemma 3) IBCDP (Desfontaines et al., Definition 6) compares, per known value ``v`` and
output ``t`` of positive probability, the posterior ``q`` of ``x_i`` given ``M(D) = t``
with the prior. With the target's values ``a_0, a_1``, ``p = P(x_i = a_1)`` and
``u_k = P(M = t | x_i = a_k, v)``::

    q(p) = p u_1 / U(p),     U(p) = u_0 + p (u_1 - u_0),

and the hockey sticks of the two directions are (binary laws: at most one term of each
is positive, their differences summing to ``1 - e^ε < 0``), with ``E = e^ε``::

    h_1 = q - E p,   h_2 = (1 - q) - E (1 - p),   h_3 = p - E q,   h_4 = (1 - p) - E (1 - q).

Only the ratio ``u_1 / u_0`` enters, so the kernel's normaliser is dropped; for geometric
noise the outputs beyond the extreme centres have the posteriors of the ends
(:mod:`pdpsym.audit.sum_posteriors`), so ``t`` runs over the centres' range.

**Lemma (the sup over p).** ``H(x; a, b) = x b / (a + x (b - a)) - E x`` is concave in
``x`` when ``b > a`` (the first term is ``b/(b-a) (1 - a/(a + x(b-a)))``), with its
stationary point where ``(a + x(b - a))^2 = a b / E``, and convex (or linear) when
``b <= a``; ``G(x; a, b) = x - E x b / (a + x (b - a))`` is concave when ``b < a``,
stationary where ``(a + x(b - a))^2 = E a b``, and convex otherwise. Then ``h_1 =
H(p; u_0, u_1)``, ``h_2 = H(1 - p; u_1, u_0)``, ``h_3 = G(p; u_0, u_1)``, ``h_4 = G(1 - p;
u_1, u_0)``; the sup of each over an interval is at its ends, or at the stationary point
when the function is concave and the point inside. With ``u_0 = 0`` (or ``u_1 = 0``)
``q`` is constant on ``0 < p`` (``p < 1``) and every ``h`` is linear. Each value is a
ball (``E``, a square root); a stationary point whose ball meets an end gives its value
as the upper end and the ends as the lower end. The sup over the class is the max of
these over the others' candidate laws (Lemma 3 of that module: the rows' vertices), the
known records' support and the outputs: an enclosure, certified. The value at the true
stationary point is attained by a member of the class (``p`` real), and an end's value
by a member or as a limit of members (``p -> 0`` when ``u_0 = 0``), so the lower end is
at most the class's sup.

**Laplace noise.** Every ``h`` depends on the output only through the evidence ratio
``r = u_1 / u_0`` (``q = p r / (1 - p + p r)``): ``h_1`` and ``h_4`` increase with ``r``,
``h_2`` and ``h_3`` decrease, so their max is quasi-convex in ``r`` (each sublevel set
an interval) and so is its sup over ``p``: the sup over the outputs is at the extremes
of ``r``. For Laplace noise of scale ``λ`` the two laws are mixtures of the same kernels
shifted by ``Δ = w_i (a_1 - a_0)``, so ``e^{-|Δ|/λ} <= r <= e^{|Δ|/λ}``, both ends
approached in the tails, whatever the others' laws (Li et al. Theorem 1's argument):
the sup is ``max(S(e^{|Δ|/λ}), S(e^{-|Δ|/λ}))`` with ``S`` the sup over ``p`` above.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from pdpsym.audit import registry
from pdpsym.audit.class_audit import LOWER, ClassFigure, ClassNotion, audit_job
from pdpsym.core.balls import Ball, ball_endpoints, to_ball, working_precision
from pdpsym.mechanisms.base import QueryMechanism, SumMechanism
from pdpsym.models.law_class import IntervalProduct
from pdpsym.models.product import ProductModel

#: the mechanisms on the sum handled here
KINDS = ("count", "threshold", "geometric", "laplace")
#: bits of the balls
PREC = 160

Law = dict[Fraction, Fraction]


@dataclass(frozen=True)
class IbcdpSup:
    """An enclosure ``[lo, hi]`` of IBCDP's sup of δ(ε) over the class, and where it is
    (nearly) attained: the index of the others' candidate law and the target's ``p``."""

    lo: Fraction
    hi: Fraction
    rest: int
    p: Fraction


def applies(cls: IntervalProduct, mechanism: Any, target: str) -> bool:
    """Whether this module encloses IBCDP's δ(ε) (a binary target, a mechanism of
    :data:`KINDS` on the sum).

    Args:
        cls: the interval product.
        mechanism: the mechanism.
        target: the target record.

    Returns:
        True when it applies.

    References:
        Desfontaines et al. (2020), Definition 6.
    """
    if not isinstance(mechanism, QueryMechanism):
        return False
    kind = mechanism.on_sum()
    j = cls.variables.index(target)
    return kind.kind in KINDS and len(cls.values[j]) == 2


def _outputs(law: Law, shift: Fraction, mech: SumMechanism) -> dict[Any, Fraction]:
    """The output masses of the mechanism on ``f + shift`` (``f`` of law ``law``), the
    geometric kernel's normaliser dropped."""
    out: dict[Any, Fraction] = {}
    if mech.kind == "geometric":
        return {s + shift: p for s, p in law.items()}  # centres: mixed by the caller
    for s, p in law.items():
        x = s + shift
        o = x if mech.kind == "count" or (mech.T is not None and x > mech.T) else "bottom"
        out[o] = out.get(o, Fraction(0)) + p
    return out


def _pairs(
    l0: dict[Any, Fraction], l1: dict[Any, Fraction], mech: SumMechanism
) -> list[tuple[Fraction, Fraction]]:
    """``(u_0, u_1)`` for every output either value can produce."""
    if mech.kind != "geometric":
        return [(l0.get(t, Fraction(0)), l1.get(t, Fraction(0))) for t in set(l0) | set(l1)]
    assert mech.alpha is not None
    alpha = mech.alpha
    centres = [int(s) for s in (*l0, *l1)]
    out = []
    for t in range(min(centres), max(centres) + 1):
        u = [
            sum((p * alpha ** abs(t - int(s)) for s, p in law.items()), Fraction(0))
            for law in (l0, l1)
        ]
        out.append((u[0], u[1]))
    return out


def _sum_law(records: Sequence[tuple[Sequence[Fraction], Sequence[Fraction], Fraction]]) -> Law:
    law: Law = {Fraction(0): Fraction(1)}
    for vals, ps, w in records:
        nxt: Law = {}
        for s, q in law.items():
            for v, p in zip(vals, ps, strict=True):
                if p:
                    nxt[s + w * v] = nxt.get(s + w * v, Fraction(0)) + q * p
        law = nxt
    return law


def _h_sup(
    a: Fraction | Ball,
    b: Fraction | Ball,
    lo: Fraction,
    hi: Fraction,
    e: Ball,
    kind: str,
    b_above: bool | None = None,
) -> tuple[Fraction, Fraction, Fraction]:
    """``sup_{x in [lo, hi]} F(x; a, b)`` for ``F = H`` (kind "H") or ``G``: its
    enclosure and a rational point where it is (nearly) reached. ``a`` and ``b`` are exact,
    or positive balls whose order ``b > a`` is given (``b_above``)."""
    ball_a = a if isinstance(a, Ball) else to_ball(a)
    ball_b = b if isinstance(b, Ball) else to_ball(b)
    if b_above is None:
        assert isinstance(a, Fraction) and isinstance(b, Fraction)
        a_pos, b_pos, above, below = a > 0, b > 0, b > a, b < a
    else:  # positive balls
        a_pos, b_pos, above, below = True, True, b_above, not b_above

    def value(x: Ball) -> Ball:
        q = x * ball_b / (ball_a + x * (ball_b - ball_a)) if a_pos else to_ball(1)
        if not b_pos:
            q = to_ball(0)
        return q - e * x if kind == "H" else x - e * q

    ends = [(ball_endpoints(value(to_ball(x))), x) for x in (lo, hi)]
    (low, _), at = max(ends, key=lambda v: v[0][0])
    up = max(v[0][1] for v in ends)
    concave = above if kind == "H" else below
    if concave and a_pos and b_pos:
        prod = ball_a * ball_b
        root = (prod / e).sqrt() if kind == "H" else (prod * e).sqrt()
        xs = (root - ball_a) / (ball_b - ball_a)
        x_lo, x_hi = ball_endpoints(xs)
        if x_hi >= lo and x_lo <= hi:  # the stationary point may lie inside
            v_lo, v_hi = ball_endpoints(value(xs))
            up = max(up, v_hi)
            if x_lo >= lo and x_hi <= hi and v_lo > low:
                low = v_lo
                at = min(max(((x_lo + x_hi) / 2).limit_denominator(10**9), lo), hi)
    return low, up, at


def _laplace_ratios(mech: SumMechanism, shift: Fraction) -> list[tuple[Ball, Ball, bool]]:
    """Laplace noise: every output's evidence ratio ``u_1/u_0`` lies in ``[e^{-|Δ|/λ},
    e^{|Δ|/λ}]`` (a mixture of kernels shifted by ``Δ``), both ends approached in the
    tails: the quasi-convex sup over the ratio (module docstring) is at these two."""
    assert mech.lam is not None
    if not shift:
        return []
    big = (to_ball(abs(shift)) / to_ball(mech.lam)).exp()
    one = to_ball(1)
    return [(one, big, True), (big, one, False)]


def _evidence(
    cls: IntervalProduct,
    mech: SumMechanism,
    target: str,
    known: Sequence[str],
    rests: Sequence[Sequence[tuple[Fraction, ...]]],
) -> list[tuple[int, Any, Any, bool | None]]:
    """Every output's ``(u_0, u_1)`` (exact, or positive balls with ``u_1 > u_0`` given:
    Laplace's two extreme ratios) with the index of the others' candidate law, over the
    known records' widest supports (call inside :func:`working_precision`)."""
    names = cls.variables
    w = {v: Fraction((mech.weights or {}).get(v, 1)) for v in names}
    i = names.index(target)
    (a0, a1) = cls.values[i]
    kidx = [names.index(k) for k in known]
    known_supports = [
        [v for v, (_, hi) in zip(cls.values[k], cls.rows[k], strict=True) if hi > 0] for k in kidx
    ]
    shifts = sorted(
        {
            sum((w[names[k]] * v for k, v in zip(kidx, vs, strict=True)), Fraction(0))
            for vs in itertools.product(*known_supports)
        }
    )
    if mech.kind == "laplace":  # the ratios' range: the same for every law
        return [(0, u0, u1, up) for u0, u1, up in _laplace_ratios(mech, w[target] * (a1 - a0))]
    out: list[tuple[int, Any, Any, bool | None]] = []
    for r, law in enumerate(rests):
        rest = [
            (cls.values[j], law[j], w[names[j]])
            for j in range(len(names))
            if j != i and j not in kidx
        ]
        base = _sum_law(rest)
        for c in shifts:
            l0 = _outputs(base, c + w[target] * a0, mech)
            l1 = _outputs(base, c + w[target] * a1, mech)
            out += [(r, u0, u1, None) for u0, u1 in _pairs(l0, l1, mech) if u0 or u1]
    return out


def ibcdp_eps_sup(
    cls: IntervalProduct,
    mechanism: Any,
    target: str,
    known: Sequence[str],
    rests: Sequence[Sequence[tuple[Fraction, ...]]],
) -> tuple[Fraction, Fraction, int, Fraction] | None:
    """IBCDP's ε (δ = 0) over the class for a binary target: with ``U = (1 - p) u_0 + p
    u_1`` the ratios of the posterior to the prior are ``u_1/U``, ``u_0/U``, ``U/u_1``,
    ``U/u_0``, each monotone in ``p``, so their sup over the target's interval is at its
    ends (limits when an end is 0 or 1, where the support changes: the members near it
    approach the value). An output that only one value produces makes ε infinite at every
    inner ``p`` (the widest member's own audit shows it): skipped here.

    Args:
        cls: the interval product.
        mechanism: the mechanism on the sum (:func:`applies`).
        target: the target record.
        known: the known records.
        rests: the others' candidate laws (:func:`ibcdp_delta_sup`).

    Returns:
        ``(lo, hi, rest, p)``: an enclosure of the largest log-ratio, the index of the
        others' law and the end of the target's interval where it is reached; None when
        no output has both masses positive.

    References:
        Desfontaines et al. (2020), Definition 6 and Lemma 1.
    """
    mech = mechanism.on_sum()
    plo, phi = cls.rows[cls.variables.index(target)][1]
    best: tuple[Fraction, Fraction, int, Fraction] | None = None
    with working_precision(PREC):
        for r, u0, u1, up1 in _evidence(cls, mech, target, known, rests):
            if up1 is None and not (u0 and u1):
                continue
            b0 = u0 if up1 is not None else to_ball(u0)
            b1 = u1 if up1 is not None else to_ball(u1)
            for p in (plo, phi):
                big = (1 - to_ball(p)) * b0 + to_ball(p) * b1
                for x in (b1 / big, b0 / big, big / b1, big / b0):
                    lo, hi = ball_endpoints(x.log())
                    if best is None or lo > best[0] or hi > best[1]:
                        top = best is None or lo > best[0]
                        best = (
                            lo if best is None else max(lo, best[0]),
                            hi if best is None else max(hi, best[1]),
                            r if top or best is None else best[2],
                            p if top or best is None else best[3],
                        )
    return best


def ibcdp_delta_sup(
    cls: IntervalProduct,
    mechanism: Any,
    target: str,
    known: Sequence[str],
    rests: Sequence[Sequence[tuple[Fraction, ...]]],
    eps: Fraction | None,
    ratio: Fraction | None = None,
) -> IbcdpSup:
    """IBCDP's sup of δ(eps) over the class (module docstring), enclosed.

    Args:
        cls: the interval product (a binary target: :func:`applies`).
        mechanism: the mechanism on the sum (:data:`KINDS`).
        target: the target record.
        known: the known records (their values range over the widest supports).
        rests: candidate laws of every record (each one law per record; the target's and
            the known records' entries are ignored): the others' row vertices.
        eps: ε, a rational (None: given by ``ratio``).
        ratio: ``e^ε``, a rational (for ``ε = ln ratio``), when ``eps`` is None.

    Returns:
        The :class:`IbcdpSup`.

    References:
        Desfontaines et al. (2020), Definition 6; Boyd and Vandenberghe, Convex
        Optimization (2004), Sec. 3.1 (concavity, stationary points).
    """
    mech = mechanism.on_sum()
    plo, phi = cls.rows[cls.variables.index(target)][1]
    best: IbcdpSup | None = None
    with working_precision(PREC):
        e = to_ball(eps).exp() if eps is not None else to_ball(ratio)  # type: ignore[arg-type]
        for r, u0, u1, up1 in _evidence(cls, mech, target, known, rests):
            terms = (
                (u0, u1, plo, phi, "H", up1),
                (u1, u0, 1 - phi, 1 - plo, "H", None if up1 is None else not up1),
                (u0, u1, plo, phi, "G", up1),
                (u1, u0, 1 - phi, 1 - plo, "G", None if up1 is None else not up1),
            )
            for k, (a, b, lo, hi, kind, above) in enumerate(terms):
                low, up, x = _h_sup(a, b, lo, hi, e, kind, above)
                low, up = max(low, Fraction(0)), max(up, Fraction(0))
                p = x if k in (0, 2) else 1 - x
                if best is None:
                    best = IbcdpSup(low, up, r, p)
                elif low > best.lo or up > best.hi:
                    top = low > best.lo
                    best = IbcdpSup(
                        max(low, best.lo),
                        max(up, best.hi),
                        r if top else best.rest,
                        p if top else best.p,
                    )
    return best or IbcdpSup(Fraction(0), Fraction(0), 0, plo)


def _member(
    cls: IntervalProduct,
    mechanism: Any,
    ask: tuple[str, tuple[str, ...], list[Any], Fraction | None],
    state: tuple[list[Any], list[Any], list[ClassNotion]],
    law: Sequence[tuple[Fraction, ...]],
) -> int:
    """The index of a member among the laws evaluated, audited (ibcdp) and added when new."""
    laws, audits, _ = state
    member = tuple(law)
    if member not in laws:
        target, known, eps, delta = ask
        model = ProductModel(list(zip(cls.values, member, strict=True)), cls.names)
        laws.append(member)
        audits.append(
            audit_job((model, mechanism, target, known, eps, delta, [registry.IBCDP.name]))
        )
    return laws.index(member)


def _ratio_of(e: Any) -> tuple[Fraction | None, Fraction | None]:
    """``(ε, None)`` for a rational ε, ``(None, w)`` for ``ε = ln w``."""
    exponent, w = getattr(e, "exponent", None), getattr(e, "w", None)
    if exponent is None and w is None:
        exponent = Fraction(e)
    return exponent, w


def ibcdp_rows(
    cls: IntervalProduct,
    mechanism: Any,
    ask: tuple[str, tuple[str, ...], list[Any], Fraction | None],
    state: tuple[list[Any], list[Any], list[ClassNotion]],
    idx: Sequence[int],
) -> None:
    """IBCDP's δ(ε) and ε(δ) over the whole box for a binary target (:func:`applies`),
    into the notion's row of ``state`` (the laws evaluated, their audits, the rows).

    δ(ε): the enclosure of :func:`ibcdp_delta_sup` joins the candidates' max, and the
    member near its maximizer is audited and added (the worst law shown). ε(δ), the least
    ε with ``δ(ε) <= δ`` (Desfontaines et al. Lemma 1; δ(ε) decreases in ε for every law):
    from the candidates' max ``m``, ``ε* = m (1 + 2^k 10^-3) + 10^-6`` for ``k = 0, 1, ...``;
    once ``sup δ(ε*) <= δ`` every law's ε(δ) is at most ``ε*``, and while a member has
    ``δ(ε*) > δ`` (the enclosure's lower end) its ε(δ) is above ``ε*``, which raises the
    lower end; then bisection by the same two decisions, to 3 digits.

    Args:
        cls: the interval product.
        mechanism: the mechanism on the sum.
        ask: ``(target, known, eps values, delta)``.
        state: ``(laws, audits, rows)``, updated in place.
        idx: the indices of ibcdp's candidate members among the laws.

    References:
        Desfontaines et al. (2020), Definition 6 and Lemma 1.
    """
    laws, _, rows = state
    target, known, eps, delta = ask
    k = next(j for j, r in enumerate(rows) if r.notion == registry.IBCDP.name)
    row = rows[k]
    i = cls.variables.index(target)
    if all(lo == hi for lo, hi in cls.rows[i]):
        return  # the target's law is a point: the candidates' max is the sup, exactly
    rests = [laws[j] for j in idx]

    def sup_at(e: Any) -> tuple[IbcdpSup, int]:
        found = ibcdp_delta_sup(cls, mechanism, target, known, rests, *_ratio_of(e))
        law = list(rests[found.rest])
        law[i] = (1 - found.p, found.p)
        return found, _member(cls, mechanism, ask, state, law)

    eps_fig = row.epsilon
    top = ibcdp_eps_sup(cls, mechanism, target, known, rests)
    if top is not None and isinstance(eps_fig.bounds, tuple):
        e_lo, e_hi, r, p = top
        member = eps_fig.member
        if e_lo > eps_fig.bounds[0] and p in (0, 1):  # a limit: the member just inside
            plo, phi = cls.rows[i][1]
            near = p + (phi - plo) / 10**6 if p == plo else p - (phi - plo) / 10**6
            law = list(rests[r])
            law[i] = (1 - near, near)
            member = _member(cls, mechanism, ask, state, law)
        eps_fig = ClassFigure((max(e_lo, eps_fig.bounds[0]), max(e_hi, eps_fig.bounds[1])), member)
    out = []
    for (e, fig), e_raw in zip(row.delta_at_epsilon, eps, strict=True):
        found, j = sup_at(e_raw)
        if not isinstance(fig.bounds, tuple):
            out.append((e, fig))
            continue
        ends = (max(found.lo, fig.bounds[0]), max(found.hi, fig.bounds[1]))
        out.append((e, ClassFigure(ends, j if found.lo >= fig.bounds[0] else fig.member)))
    at = row.epsilon_at_delta
    if at is not None and delta is not None and isinstance(at[1].bounds, tuple):
        lo, member = at[1].bounds[0], at[1].member
        hi: Fraction | None = None
        for step in range(12):
            raw = lo * (1 + Fraction(2**step, 10**3)) + Fraction(1, 10**6)
            star = Fraction(-((-raw.numerator * 10**9) // raw.denominator), 10**9)
            found, j = sup_at(star)
            if found.hi <= delta:
                hi = star
                break
            if found.lo > delta:  # a member's δ(ε*) > δ: its ε(δ) > ε*
                lo, member = star, j
        for _ in range(12):  # bisect [lo, hi] to 3 digits where the decisions allow
            if hi is None or hi - lo <= lo / 10**3 + Fraction(1, 10**6):
                break
            mid = (lo + hi) / 2
            found, j = sup_at(mid)
            if found.hi <= delta:
                hi = mid
            elif found.lo > delta:
                lo, member = mid, j
            else:
                break
        fig = (
            ClassFigure(
                (lo, hi),
                member,
                "sup" if hi - lo <= lo / 10**3 + Fraction(1, 10**6) else "enclosure",
            )
            if hi is not None
            else replace(at[1], status=LOWER)
        )
        at = (at[0], fig)
    rows[k] = replace(row, epsilon=eps_fig, delta_at_epsilon=tuple(out), epsilon_at_delta=at)


__all__ = ["KINDS", "IbcdpSup", "applies", "ibcdp_delta_sup", "ibcdp_eps_sup", "ibcdp_rows"]

"""A law-free upper end, from dp, for the figures of distributional-dp, cdp and IBCDP
over an interval class: each such figure is enclosed by ``[max over the laws evaluated,
a bound that holds at every law]`` (the proof in :func:`dp_enclosed`).

References:
    Desfontaines et al. (2020), Definitions 4, 5, 6; Kifer and Machanavajjhala (2014),
    Definition 3.1.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from pdpsym.audit import registry
from pdpsym.audit.class_audit import LOWER, SUP, ClassFigure, ClassNotion
from pdpsym.core.balls import ball_endpoints, to_ball, working_precision
from pdpsym.core.eps import Eps

#: the figure's bounds enclose the sup over the class, but not to the asked digits (the
#: branch and bound's budget ran out first, or the upper end is a law-free bound)
ENCLOSED = "enclosure"

#: notions whose figures a law-free bound from dp's encloses (:func:`dp_enclosed`)
DP_BOUNDED = (registry.DistributionalDP.name, registry.CDP.name, registry.IBCDP.name)
#: an enclosure of the sup whose proven upper end is infinite (dp's figure is): the
#: bounds are the laws' max, the sup is at least their lower end
OPEN = "enclosure-unbounded"


def has_lower(row: ClassNotion) -> bool:
    """Whether a figure of the row is still only a lower bound.

    Args:
        row: a notion's figures over the class.

    Returns:
        True when ε, a δ(ε) or ε(δ) has status :data:`~pdpsym.audit.class_audit.LOWER`.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1.
    """
    figs = [row.epsilon, *(f for _, f in row.delta_at_epsilon)]
    if row.epsilon_at_delta is not None:
        figs.append(row.epsilon_at_delta[1])
    return any(f.status == LOWER for f in figs)


def dp_enclosed(row: ClassNotion, dp: ClassNotion) -> ClassNotion:
    r"""The figures of ``row`` still a lower bound (:data:`~pdpsym.audit.class_audit.LOWER`)
    enclosed by ``[max over the laws evaluated, a law-free bound from dp]``.

    **dp.** For record ``i`` the repository's dp compares ``M(D)`` with ``M(D_{i→b})`` for
    every ``D`` of the product of the records' declared domains and every ``b ≠ D(i)`` of
    the target's, both orders (known records play no part): ``δ_dp(ε) = sup H_ε(M(D) ‖
    M(D_{i→b}))``, ``ε_dp`` the largest log-ratio, ``ε_dp(δ)`` the least ε with
    ``δ_dp(ε) <= δ``. It reads no law, so it is the same at every member. Below ``r``
    is the rest ``D_{-i}`` (in the declared domains) and ``M(r, a)`` the mechanism on
    ``r`` with ``x_i = a``; ``H_ε(P ‖ Q) = Σ_o max(0, P(o) - e^ε Q(o))`` (an integral for
    Laplace noise) is jointly convex in ``(P, Q)``.

    **distributional-dp** (Desfontaines et al. Definition 4). Fix a value ``a_0`` of the
    target's domain; ``Sim(r) = M(r, a_0)`` sees only ``r``: a simulator. Given ``a`` and
    the known value ``v``, with ``π_{a,v}(r) = P(D_{-i} = r | a, v)``, ``M(D) | a, v =
    Σ_r π_{a,v}(r) M(r, a)`` and ``Sim | a, v = Σ_r π_{a,v}(r) M(r, a_0)``: the same
    weights. By joint convexity ``H_ε(M | a, v ‖ Sim | a, v) <= Σ_r π_{a,v}(r) H_ε(M(r, a)
    ‖ M(r, a_0)) <= δ_dp(ε)`` (a pair of dp's, or 0 when ``a = a_0``), and the same the
    other way; so the best simulator's ``δ(ε) <= δ_dp(ε)`` at every law. At δ = 0
    ``M(r, a) <= e^{ε_dp} M(r, a_0)`` pointwise for every ``r`` and mixing keeps it: ``ε
    <= ε_dp``. Since ``δ(ε) <= δ_dp(ε)`` for every ε, ``ε(δ) <= ε_dp(δ)``.

    **cdp** (Definition 5) compares ``M(D) | a, v`` with ``M(D_{i→b}) | a, v = Σ_r
    π_{a,v}(r) M(r, b)``: the same mixture of dp's pairs, so every figure is at most
    dp's, as above.

    **IBCDP** (Definition 6). For a known value ``v``, a value ``b`` and an output ``t``,
    ``post_1(a) ∝ P(a | v) u_1(a)``, ``u_1(a) = Σ_r π_{a,v}(r) M(r, a)(t)``, and
    ``post_2(a) ∝ P(a | v) u_2(a)``, ``u_2(a) = Σ_r π_{a,v}(r) M(r, b)(t)``. Each ratio
    ``M(r, a)(t) / M(r, b)(t)`` lies in ``[e^{-ε_dp}, e^{ε_dp}]`` (dp's pairs, both
    orders; equal supports when ``ε_dp`` is finite), so ``u_1(a) / u_2(a)`` (a mediant)
    does too, and ``post_1(a) / post_2(a) = (u_1(a) / u_2(a)) (Σ_c P(c | v) u_2(c) / Σ_c
    P(c | v) u_1(c)) <= e^B``, ``B = 2 ε_dp``, both ways: ε (δ = 0) and ε(δ) are at most
    ``B`` and ``δ(ε) <= Σ_a post_1(a) max(0, 1 - e^{ε - B}) = max(0, 1 - e^{ε - B})``
    (the argument of
    :func:`~pdpsym.audit.class_audit_interval.laplace_kernel_bound`, for any mechanism).

    Over the class each bound is law-free, so the sup lies in ``[max over the laws
    evaluated, bound]``: :func:`_within`. With ``ε_dp`` (or ``ε_dp(δ)``) infinite the
    upper end of an ε is infinite (status :data:`OPEN`) and of a δ is 1.

    Args:
        row: the notion's figures over the class.
        dp: dp's figures over the class (the same ε values and δ).

    Returns:
        The row, its lower bounds enclosed (other figures unchanged).

    References:
        Desfontaines et al. (2020), Definitions 4, 5, 6 and Lemma 1; Dwork and Roth
        (2014), Definition 2.4; Liese and Vajda (2006), "On divergences and
        informations", Theorem 6 (joint convexity of f-divergences).
    """
    if row.notion not in DP_BOUNDED:
        return row

    def top(f: ClassFigure) -> Fraction | None:
        return f.bounds[1] if isinstance(f.bounds, tuple) else None  # "inf": no finite top

    def cap(f: ClassFigure, hi: Fraction | None, is_eps: bool) -> ClassFigure:
        if f.status != LOWER or not isinstance(f.bounds, tuple):
            return f
        if hi is None:
            return replace(f, status=OPEN) if is_eps else within(f, Fraction(1))
        return within(f, hi)

    at = row.epsilon_at_delta
    if registry.notion(row.notion).compare is registry.Compare.POSTERIOR:
        half = top(dp.epsilon)
        if half is None:
            return ClassNotion(
                row.notion,
                cap(row.epsilon, None, True),
                tuple((e, cap(f, None, False)) for e, f in row.delta_at_epsilon),
                None if at is None else (at[0], cap(at[1], None, True)),
                row.note,
            )
        wide = posterior_enclosed(row, 2 * half)
        at_w = wide.epsilon_at_delta
        return ClassNotion(
            row.notion,
            wide.epsilon if row.epsilon.status == LOWER else row.epsilon,
            tuple(
                (e, w if f.status == LOWER else f)
                for (e, f), (_, w) in zip(row.delta_at_epsilon, wide.delta_at_epsilon, strict=True)
            ),
            None
            if at is None or at_w is None
            else (at[0], at_w[1] if at[1].status == LOWER else at[1]),
            row.note,
        )
    dp_at = dp.epsilon_at_delta
    return ClassNotion(
        row.notion,
        cap(row.epsilon, top(dp.epsilon), True),
        tuple(
            (e, cap(f, top(g), False))
            for (e, f), (_, g) in zip(row.delta_at_epsilon, dp.delta_at_epsilon, strict=True)
        ),
        None if at is None else (at[0], cap(at[1], top(dp_at[1]) if dp_at else None, True)),
        row.note,
    )


def posterior_enclosed(row: ClassNotion, top: Fraction | None) -> ClassNotion:
    """IBCDP's figures, each enclosed by ``[max over the laws evaluated, a law-free
    bound]``: ε and ε(δ) at most ``top`` (``B``), δ(ε) at most ``max(0, 1 - e^{ε - B})``.

    Args:
        row: IBCDP's figures over the class.
        top: ``B`` (None: the row unchanged).

    Returns:
        The row, every figure enclosed (:func:`within`).

    References:
        Desfontaines et al. (2020), Definition 6 and Lemma 1.
    """
    if top is None:
        return row
    deltas = []
    for e, fig in row.delta_at_epsilon:
        r = Eps.of(e).eps
        if r is not None and r >= top:  # ε >= B: δ(ε) = 0 at every law, exactly
            deltas.append((e, within(fig, Fraction(0))))
            continue
        lo_exp = ball_endpoints(Eps.of(e).arb_exp(128))[0]
        with working_precision(128):
            shrink = ball_endpoints((-to_ball(top)).exp())[0]  # a lower end of e^{-B}
        deltas.append((e, within(fig, max(Fraction(0), 1 - lo_exp * shrink))))
    at = row.epsilon_at_delta
    return ClassNotion(
        row.notion,
        within(row.epsilon, top),
        tuple(deltas),
        None if at is None else (at[0], within(at[1], top)),
        row.note,
    )


def within(fig: ClassFigure, top: Fraction) -> ClassFigure:
    """A figure whose every law is at most ``top``: the sup, enclosed by ``[max over the
    laws evaluated, top]`` (the laws' own enclosure when it contains ``top``).

    Args:
        fig: the max over the laws evaluated.
        top: a bound of the figure at every law of the class.

    Returns:
        The figure, a sup (when the laws reach ``top``) or an enclosure.

    References:
        Moore, Kearfott, Cloud, Introduction to Interval Analysis (2009), Ch. 2.
    """
    if not isinstance(fig.bounds, tuple):
        return replace(fig, status=LOWER)
    lo, hi = fig.bounds
    if lo <= top <= hi:
        return replace(fig, status=SUP)
    return ClassFigure((lo, max(top, hi)), fig.member, ENCLOSED)


__all__ = [
    "DP_BOUNDED",
    "ENCLOSED",
    "OPEN",
    "dp_enclosed",
    "has_lower",
    "posterior_enclosed",
    "within",
]

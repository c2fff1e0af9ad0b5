"""δ(ε) of randomized response on a long chain, enclosed between two exact windows.

Around the target ``i`` (nearest known records ``l < i < r``) the reports inside
``(l, r)`` are too many to list (:mod:`pdpsym.audit.rr_reports`). Take a window
``[L, R] ∋ i`` of report positions inside ``(l, r)`` and the states just outside it,
``x_{L-1}`` (when ``L - 1 > l``) and ``x_{R+1}`` (when ``R + 1 < r``).

* **Lower end.** The window's reports ``W`` are a function of all the reports (drop the
  others): a post-processing, so ``δ_W(ε) ≤ δ(ε)`` for every pair of laws (the
  data-processing inequality of the hockey-stick divergence).
* **Upper end.** All the reports are a randomized function of ``(x_{L-1}, W, x_{R+1})``
  whose kernel is the same given ``x_i = a`` and given ``x_i = b``: by the Markov
  property the states and reports at positions ``≤ L - 1`` other than ``x_{L-1}``
  (down to ``x_l``, which is given) are independent of everything at positions ``≥ L``
  given ``x_{L-1}`` (the report at ``L - 1`` depends on ``x_{L-1}`` alone), and the same
  on the right. So ``δ(ε) ≤ δ_{(x_{L-1}, W, x_{R+1})}(ε)``.

Both laws are listed exactly (the forward and backward messages of the module above,
with the boundary state revealed instead of its report) when they have at most
:data:`WINDOW_OUTCOMES` outcomes, the window as wide as that allows and centred on the
target. For APKDP / NP / dependent-dp (conditional), a maximum over pairs of laws, each
pair's bounds hold, so the maxima of the bounds enclose the maximum; PPKDP's δ is, per
pair, a weighted sum of such divergences with the same weights on both sides (a known
value impossible under ``b`` counts in full in both), so termwise bounds hold. ``ε(δ)`` is enclosed
by the two curves' inverses (the curves are non-increasing: ``δ_U(ε) ≤ δ`` implies
``δ(ε) ≤ δ``, and ``δ(ε) ≤ δ`` implies ``δ_W(ε) ≤ δ``). The ends are exact values,
enclosed in balls whose rational ends are reported (:class:`~pdpsym.core.exp_sqrt_sums.Bracket`).

References:
    Desfontaines et al., Definition 12 and Lemma 1; Liu et al. (2016), Eq. 11;
    Polyanskiy and Wu, Information Theory (2024), Section 7.2 (data processing for
    f-divergences, the hockey stick among them); Rabiner (1989).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.core.balls import ball_endpoints
from pdpsym.core.certify import enclose
from pdpsym.core.eps import Eps
from pdpsym.core.exp_sqrt_sums import Bracket
from pdpsym.loss import worst_case
from pdpsym.loss.pmf_pair import PMFPair
from pdpsym.models.scenario import PMF

#: the most outcomes of a window's law (with its boundary states)
WINDOW_OUTCOMES = 4096


def window(chain: Any) -> tuple[int, int]:
    """The report positions ``[L, R]`` of the widest window around the target whose law
    with both boundary states has at most :data:`WINDOW_OUTCOMES` outcomes.

    Args:
        chain: the chain around the target (``pdpsym.audit.rr_report_laws.ReportChain``).

    Returns:
        ``(L, R)``, 0-based positions inside ``(l, r)``.

    References:
        Rabiner (1989) (the report positions of a hidden Markov model).
    """
    lo = 0 if chain.l is None else chain.l + 1
    hi = chain.m.length - 1 if chain.r is None else chain.r - 1
    width = max(int(math.log(WINDOW_OUTCOMES) / math.log(chain.k)) - 2, 1)
    while chain.k ** (width + 2) > WINDOW_OUTCOMES and width > 1:
        width -= 1
    left = right = chain.i
    while right - left + 1 < width and (left > lo or right < hi):
        if right < hi and (right - chain.i <= chain.i - left or left == lo):
            right += 1
        elif left > lo:
            left -= 1
    return left, right


def window_law(chain: Any, a: int, vl: int | None, vr: int | None, boundary: bool) -> PMF:
    """The law given ``x_i = a`` (and ``x_l``, ``x_r``) of the window's reports, with the
    boundary states when ``boundary`` (outcome keys ``(left state, reports, right
    state)``, a state None where there is none).

    Args:
        chain: the chain around the target.
        a: the target's state index.
        vl: the left known record's state index (None: none).
        vr: the right one's.
        boundary: whether the boundary states are part of the outcome.

    Returns:
        The exact law.

    References:
        Rabiner (1989), the forward-backward recursions.
    """
    L, R = window(chain)
    k, i = chain.k, chain.i
    na, nb = chain.norms(vl, vr)
    p0, alpha = chain.past_start(vl)
    for pos in range(p0, L - 1):
        alpha = chain.forward(alpha, pos, None)
    lefts: dict[int | None, list[Fraction]] = {}
    if L > p0:  # alpha is over x_{L-1}
        if boundary:
            for s in range(k):
                if alpha[s]:
                    unit = [alpha[s] if t == s else Fraction(0) for t in range(k)]
                    lefts[s] = chain.forward(unit, L - 1, None)
        else:
            lefts[None] = chain.forward(alpha, L - 1, None)
    else:
        lefts[None] = alpha
    p1, beta = chain.future_end(vr)
    for pos in range(p1, R + 1, -1):
        beta = chain.backward(beta, pos, None)
    rights: dict[int | None, list[Fraction]] = {}
    if R < p1:  # beta is over x_{R+1}
        if boundary:
            for u in range(k):
                if beta[u]:
                    unit = [beta[u] if t == u else Fraction(0) for t in range(k)]
                    rights[u] = chain.backward(unit, R + 1, None)
        else:
            rights[None] = chain.backward(beta, R + 1, None)
    else:
        rights[None] = beta
    past: dict[tuple[Any, ...], Fraction] = {}
    for sl, vec in lefts.items():
        laws: dict[tuple[int, ...], list[Fraction]] = {(): vec}
        for pos in range(L, i):
            laws = {q + (o,): chain.forward(v, pos, o) for q, v in laws.items() for o in range(k)}
        for q, v in laws.items():
            if v[a]:
                past[(sl, q)] = v[a] / na[a]
    fut: dict[tuple[Any, ...], Fraction] = {}
    for ur, vec in rights.items():
        laws = {(): vec}
        for pos in range(R, i, -1):
            laws = {(o,) + q: chain.backward(v, pos, o) for q, v in laws.items() for o in range(k)}
        for q, v in laws.items():
            if v[a]:
                fut[(q, ur)] = v[a] / nb[a]
    out: PMF = {}
    for ((s, qp), pp), o, ((qf, u), pf) in itertools.product(past.items(), range(k), fut.items()):
        p = pp * chain.report_prob(o, a) * pf
        if p:
            out[(s, tuple(chain.states[j] for j in qp + (o,) + qf), u)] = p
    return out


def _ends(value: Any, upper: bool) -> Fraction | None:
    """A rational bound of an exact value (None: infinite)."""
    if value is sympy.oo or (isinstance(value, sympy.Basic) and value == sympy.oo):
        return None
    lo, hi = ball_endpoints(enclose(value, 256))
    return hi if upper else lo


def _bracket(lo: Any, hi: Any, label: str) -> Any:
    a, b = _ends(lo, False), _ends(hi, True)
    if b is None:
        return None if a is not None else sympy.oo
    assert a is not None
    return Bracket(a, b, lambda x, y: (x, y), label, limit=b - a)


def enclose_curve(
    chain: Any,
    pairs: Sequence[tuple[dict[str, Any], int, int, Sequence[tuple[Any, Any, bool]]]],
    eps: Sequence[Eps],
    delta: Fraction | None,
) -> tuple[tuple[tuple[Eps, Any, Any], ...], tuple[Fraction, Any, Any] | None, str]:
    """δ at each ε and ε at δ of the worst of the pairs, enclosed between the window's
    curve and the window-with-boundaries' curve (see the module docstring).

    Args:
        chain: the chain around the target.
        pairs: ``(where, a, b, terms)`` per case (state indices), ``terms`` the
            ``(weight, (vl, vr), compatible with b)`` of its known values (one of weight 1
            for APKDP; PPKDP's weights ``P(x_K = v | x_i = a)``, an incompatible value
            counting in full, as in Definition 13).
        eps: the ε values.
        delta: the δ, or None.

    Returns:
        The δ(ε) points, the ε(δ) point (enclosures, or None where an end is infinite
        and the other finite) and a note naming the window.

    References:
        Desfontaines et al., Lemma 1; Polyanskiy and Wu (2024), Section 7.2.
    """
    memo: dict[tuple[Any, ...], PMF] = {}

    def law(a: int, vl: int | None, vr: int | None, b: bool) -> PMF:
        if (a, vl, vr, b) not in memo:
            memo[(a, vl, vr, b)] = window_law(chain, a, vl, vr, b)
        return memo[(a, vl, vr, b)]

    def case(w: dict[str, Any], a: int, b: int, terms: Any, edge: bool) -> Any:
        return PMFPair.weighted(
            [
                (
                    Fraction(x),
                    law(a, key[0], key[1], edge),
                    law(b, key[0], key[1], edge) if ok else {},
                )
                for x, key, ok in terms
            ],
            w,
        )

    low = worst_case([(w, case(w, a, b, t, False)) for w, a, b, t in pairs])
    up = worst_case([(w, case(w, a, b, t, True)) for w, a, b, t in pairs])
    at_eps = []
    for e in eps:
        dl, du = low.delta(e), up.delta(e)
        at_eps.append((e, _bracket(dl.value, du.value, f"δ at ε {e} (enclosure)"), du.where))
    at_delta = None
    if delta is not None:
        el, eu = low.epsilon(delta), up.epsilon(delta)
        at_delta = (delta, _bracket(el.value, eu.value, f"ε at δ {delta} (enclosure)"), eu.where)
    L, R = window(chain)
    names = chain.m.variables
    shown = f"{names[L]}..{names[R]}" if R > L else names[L]
    note = (
        f"δ(ε) and ε(δ) enclosed: below, the reports of {shown} alone (a post-processing); "
        "above, those reports with the states just outside them (every report is a "
        "randomized function of these, the same for both values of the target)"
    )
    return tuple(at_eps), at_delta, note


__all__ = ["WINDOW_OUTCOMES", "enclose_curve", "window", "window_law"]

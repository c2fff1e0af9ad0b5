"""Enclosures of an interval chain's conditional query laws over a sub-box of its
parameters, with enclosures of their gradients (for the mean-value bounds of
:mod:`pdpsym.audit.class_audit_boxes`).

Each member's joint law ``J(a, v, s) = P[x_i = a, x_K = v, f = s]`` is a sum over the
records' sequences of products of the initial law's and the transition rows' entries,
all non-negative. On a sub-box each entry lies in an interval of non-negative numbers
(``P[s][1] = x_s`` in ``[lo_s, hi_s]``, ``P[s][0] = 1 - x_s`` in ``[1 - hi_s, 1 - lo_s]``;
the stationary ``pi_1 = x_0 / (x_0 + 1 - x_1)`` is increasing in both parameters, so it
lies between its values at the box's lowest and highest corners), so the forward pass
through the chain in exact interval arithmetic encloses every ``J`` (Moore et al.,
Ch. 2: products and sums of non-negative intervals are those of their ends). The same
pass carries each entry's gradient in the parameters (``±1`` for a row's entries; for
``pi_1``, ``(1 - x_1, x_0) / (x_0 + 1 - x_1)^2``, enclosed by interval arithmetic) by
the product rule, so it encloses ``∇J`` over the sub-box too.

A conditional law ``c_s = J_s / (J_s + R)``, with ``R`` the rest of its row, is
increasing in ``J_s`` and decreasing in ``R``: it lies in
``[J_s^lo / (J_s^lo + R^hi), J_s^hi / (J_s^hi + R^lo)]``; its gradient
``(∇J_s Σ J - J_s ∇Σ J) / (Σ J)^2`` is enclosed by interval arithmetic. The same holds
for ``P[x_K = v | x_i = a]``. A box of width 0 gives the exact laws.

References:
    Moore, Kearfott, Cloud, Introduction to Interval Analysis (SIAM 2009), Ch. 2-3 and
    6 (the mean-value form); Desfontaines et al. (2020), Definitions 12-13.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pdpsym.models.law_class import IntervalChain

Iv = tuple[Fraction, Fraction]
Box = tuple[Iv, ...]
#: a law's enclosure: (lo, hi) dicts over the query value
Enc = tuple[dict[Fraction, Fraction], dict[Fraction, Fraction]]
ZERO = Fraction(0)


def imul(a: Iv, b: Iv) -> Iv:
    """The product of two intervals (Moore et al., Ch. 2).

    Args:
        a: ``(lo, hi)``.
        b: ``(lo, hi)``.

    Returns:
        The interval of every ``x y``.

    References:
        Moore, Kearfott, Cloud (2009), Ch. 2.
    """
    p = (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])
    return min(p), max(p)


def idiv(a: Iv, b: Iv) -> Iv:
    """The quotient by an interval of positive numbers (Moore et al., Ch. 2).

    Args:
        a: ``(lo, hi)``.
        b: ``(lo, hi)`` with ``lo > 0``.

    Returns:
        The interval of every ``x / y``.

    References:
        Moore, Kearfott, Cloud (2009), Ch. 2.
    """
    return imul(a, (1 / b[1], 1 / b[0]))


@dataclass
class BoxLaws:
    """A sub-box's enclosed laws: ``laws[(a, v)]`` the law of ``f`` given ``x_i = a,
    x_K = v`` and ``grads[(a, v)][k]`` its partial derivative in parameter ``k``
    (:data:`Enc` each); ``known[a][v]`` the interval of ``P[x_K = v | x_i = a]`` and
    ``known_grads[a][v][k]`` its derivative's; ``shift[(a, b)]`` how far ``f`` moves when
    ``x_i`` changes from ``a`` to ``b``; ``steps`` the keys the pass visited."""

    laws: dict[tuple[Fraction, tuple[Fraction, ...]], Enc]
    grads: dict[tuple[Fraction, tuple[Fraction, ...]], list[Enc] | None]
    known: dict[Fraction, dict[tuple[Fraction, ...], Iv]]
    known_grads: dict[Fraction, dict[tuple[Fraction, ...], list[Iv]] | None]
    shift: dict[tuple[Fraction, Fraction], Fraction]
    states: tuple[Fraction, ...]
    steps: int
    #: the joint masses' jets ``joint[(a, v)][s]``: ``P[x_i = a, x_K = v, f = s]``'s
    #: enclosure and its gradient's, ``[value, d/dθ_0, ...]`` as intervals (the
    #: posteriors of :mod:`pdpsym.audit.class_audit_posteriors`)
    joint: dict[tuple[Fraction, tuple[Fraction, ...]], dict[Fraction, list[Iv]]] = field(
        default_factory=dict
    )


def _entries(cls: IntervalChain, box: Box) -> tuple[list[list[list[Iv]]], list[list[Iv]]]:
    """Each transition entry's and initial entry's jet over ``box``: ``[value, d/dθ_0,
    ...]`` as intervals."""
    n = len(box)
    (a0, b0), (a1, b1) = box[0], box[1]

    def unit(k: int, sign: int) -> list[Iv]:
        return [(Fraction(sign), Fraction(sign)) if j == k else (ZERO, ZERO) for j in range(n)]

    trans = [
        [[(1 - b0, 1 - a0), *unit(0, -1)], [(a0, b0), *unit(0, 1)]],
        [[(1 - b1, 1 - a1), *unit(1, -1)], [(a1, b1), *unit(1, 1)]],
    ]
    if cls.initial == "stationary":  # pi_1 increasing in x_0 and in x_1
        lo1, hi1 = a0 / (a0 + 1 - a1), b0 / (b0 + 1 - b1)
        den = ((a0 + 1 - b1) ** 2, (b0 + 1 - a1) ** 2)
        g = [idiv((1 - b1, 1 - a1), den), idiv((a0, b0), den)] + [(ZERO, ZERO)] * (n - 2)
        init = [[(1 - hi1, 1 - lo1), *[(-h, -lo) for lo, h in g]], [(lo1, hi1), *g]]
    elif isinstance(cls.initial[0], tuple):
        y0, y1 = box[2]
        init = [[(1 - y1, 1 - y0), *unit(2, -1)], [(y0, y1), *unit(2, 1)]]
    else:
        init = [[(p, p)] + [(ZERO, ZERO)] * n for p in cls.initial]  # type: ignore[misc]
    return trans, init


def _times(u: list[Iv], t: list[Iv]) -> list[Iv]:
    """The jet of ``u t`` (values non-negative): the product rule in intervals."""
    out = [(u[0][0] * t[0][0], u[0][1] * t[0][1])]
    for k in range(1, len(u)):
        x, y = imul(u[k], t[0]), imul(u[0], t[k])
        out.append((x[0] + y[0], x[1] + y[1]))
    return out


def _scaled(jet: list[Iv], r: Fraction | None) -> list[Iv]:
    """The jet times a non-negative constant (None: 1)."""
    return jet if r is None else [(x * r, y * r) for x, y in jet]


def _add(d: dict[Any, list[Iv]], key: Any, jet: list[Iv]) -> None:
    if jet[0][1] == 0:
        return
    e = d.get(key)
    if e is None:
        d[key] = list(jet)
    else:
        d[key] = [(p[0] + q[0], p[1] + q[1]) for p, q in zip(e, jet, strict=True)]


def box_laws(
    cls: IntervalChain,
    box: Box,
    target: str,
    known: Sequence[str],
    weights: Any,
    emit: Emission | None = None,
) -> BoxLaws:
    """Enclose every conditional law of the query, and its gradient, over a sub-box
    (module docstring).

    Args:
        cls: the interval chain.
        box: the sub-box of :meth:`IntervalChain.box` (a point gives the exact laws).
        target: the target record.
        known: the known records.
        weights: the query's weights (record -> weight; None: all 1).
        emit: randomized response's report laws (:func:`report_emission`): the laws
            are then of the reports of every record, not of the sum.

    Returns:
        The :class:`BoxLaws`.

    References:
        Moore, Kearfott, Cloud (2009), Ch. 2; Desfontaines et al. (2020), Definition 12.
    """
    trans, init = _entries(cls, box)
    return forward_laws(trans, init, cls.states, cls.variables, target, known, weights, emit)


#: per state index, the reports it may give and their probabilities (randomized response)
Emission = tuple[tuple[tuple[int, Fraction], ...], ...]


def report_emission(keep: Fraction, k: int) -> Emission:
    """Randomized response's report laws over ``k`` states: ``R(o | x) = keep`` if
    ``o = x``, else ``(1 - keep) / (k - 1)`` (Warner 1965), the reports of probability 0
    left out.

    Args:
        keep: the probability of reporting the true value.
        k: the number of states.

    Returns:
        Per state, ``(report, probability)`` pairs.

    References:
        Warner (1965); Desfontaines et al. (2020), Section 5 (randomized response).
    """
    other = (1 - keep) / (k - 1)
    return tuple(
        tuple((o, keep if o == x else other) for o in range(k) if (keep if o == x else other) > 0)
        for x in range(k)
    )


def forward_laws(
    trans: Sequence[Sequence[list[Iv]]],
    init: Sequence[list[Iv]],
    vals: Sequence[Fraction],
    names: Sequence[str],
    target: str,
    known: Sequence[str],
    weights: Any,
    emit: Emission | None = None,
) -> BoxLaws:
    """The forward pass through a chain whose entries are jets of non-negative intervals
    (module docstring), for any number of states: :func:`box_laws`'s, and the k-state
    chains' (:mod:`pdpsym.audit.class_box_laws_k`). With ``emit`` (randomized response)
    the output is the tuple of every record's report, each step multiplying by the
    report's probability (a non-negative constant), instead of the weighted sum.

    Args:
        trans: ``trans[s][s']``, the jet ``[value, d/dθ_0, ...]`` of each transition entry.
        init: the initial law's jets.
        vals: the states' values (the query's).
        names: the records, in the chain's order.
        target: the record the laws are conditioned on.
        known: the records whose values the attacker knows.
        weights: record -> the query's weight (None: all 1).
        emit: the report laws, or None (the output is the weighted sum).

    Returns:
        The enclosures of every conditional law, of the known records' law given the
        target, and of the joint masses (:class:`BoxLaws`).

    References:
        Moore, Kearfott, Cloud (2009), Ch. 2-3 (products and sums of intervals).
    """
    w = {v: Fraction(1) for v in names}
    w.update({k: Fraction(x) for k, x in (weights or {}).items()})
    it, kpos = names.index(target), {names.index(k): j for j, k in enumerate(known)}
    blank = (ZERO,) * len(known)
    states = range(len(vals))

    def place(t: int, j: int, a: Fraction, v: tuple[Fraction, ...]) -> Any:
        if t == it:
            a = vals[j]
        if t in kpos:
            v = v[: kpos[t]] + (vals[j],) + v[kpos[t] + 1 :]
        return a, v

    def outputs(s: Any, t: int, k: int) -> list[tuple[Any, Fraction | None]]:
        """The output so far after record ``t`` takes state ``k``, and its factor."""
        if emit is None:
            return [(s + w[names[t]] * vals[k], None)]
        return [((*s, vals[o]), r) for o, r in emit[k]]

    cur: dict[Any, list[Iv]] = {}  # (state, a, v, s) -> jet
    for j in states:
        a, v = place(0, j, ZERO, blank)
        for s0, r in outputs(ZERO if emit is None else (), 0, j):
            _add(cur, (j, a, v, s0), _scaled(init[j], r))
    steps = 0
    for t in range(1, len(names)):
        nxt: dict[Any, list[Iv]] = {}
        for (j, a, v, s), jet in cur.items():
            for k in states:
                a2, v2 = place(t, k, a, v)
                step = _times(jet, trans[j][k])
                for s2, r in outputs(s, t, k):
                    _add(nxt, (k, a2, v2, s2), _scaled(step, r))
                    steps += 1
        cur = nxt
    joint: dict[Any, dict[Fraction, list[Iv]]] = {}
    for (_, a, v, s), jet in cur.items():
        _add(joint.setdefault((a, v), {}), s, jet)
    laws, grads = {}, {}
    for key, row in joint.items():
        laws[key], grads[key] = conditional(row)
    margins: dict[Fraction, dict[tuple[Fraction, ...], list[Iv]]] = {}
    for (a, v), row in joint.items():
        for jet in row.values():
            _add(margins.setdefault(a, {}), v, jet)
    kn: dict[Fraction, dict[tuple[Fraction, ...], Iv]] = {}
    kg: dict[Fraction, dict[tuple[Fraction, ...], list[Iv]] | None] = {}
    for a, mrow in margins.items():
        (lo, hi), g = conditional(mrow)
        kn[a] = {v: (lo[v], hi[v]) for v in mrow}
        kg[a] = None if g is None else {v: [(gl[v], gh[v]) for gl, gh in g] for v in mrow}
    shift = {(a, b): w[target] * (b - a) for a in vals for b in vals if a != b}
    return BoxLaws(laws, grads, kn, kg, shift, tuple(vals), steps, joint)


def conditional(row: dict[Any, list[Iv]]) -> tuple[Any, Any]:
    """Enclose ``c_s = J_s / Σ J`` and its gradient for every ``s`` (module docstring).

    Args:
        row: ``s -> [value, d/dθ_0, ...]`` as intervals, values non-negative.

    Returns:
        ``((lo, hi), grads)``: dicts over ``s`` of the enclosure's ends, and per
        parameter ``(lo, hi)`` dicts of the gradient's; ``grads`` is None when ``Σ J``
        may vanish in the box (no finite bound).

    References:
        Moore, Kearfott, Cloud (2009), Ch. 2-3 (interval quotients).
    """
    n = len(next(iter(row.values())))
    tot = [
        (sum((j[k][0] for j in row.values()), ZERO), sum((j[k][1] for j in row.values()), ZERO))
        for k in range(n)
    ]
    lo, hi = {}, {}
    gl: list[dict[Fraction, Fraction]] = [{} for _ in range(n - 1)]
    gh: list[dict[Fraction, Fraction]] = [{} for _ in range(n - 1)]
    for s, jet in row.items():
        (jl, jh) = jet[0]
        den_lo = jl + (tot[0][1] - jh)
        lo[s] = jl / den_lo if den_lo > 0 else ZERO
        den_hi = jh + (tot[0][0] - jl)
        hi[s] = jh / den_hi if den_hi > 0 else Fraction(1)
        for k in range(1, n if tot[0][0] > 0 else 1):
            x, y = imul(jet[k], tot[0]), imul(jet[0], tot[k])
            g = idiv((x[0] - y[1], x[1] - y[0]), (tot[0][0] ** 2, tot[0][1] ** 2))
            gl[k - 1][s], gh[k - 1][s] = g
    if tot[0][0] <= 0:  # the row's mass may vanish in the box: no finite derivative bound
        return (lo, hi), None
    return (lo, hi), [(gl[k], gh[k]) for k in range(n - 1)]


__all__ = [
    "BoxLaws",
    "Emission",
    "Enc",
    "box_laws",
    "conditional",
    "forward_laws",
    "idiv",
    "imul",
    "report_emission",
]

"""Every target's forward and backward count polynomials of a one-matrix chain, from one
checkpointed forward-backward on row-reduced integers (the histogram's exact laws).

A chain with one transition matrix ``P`` is written as integers ``A = d P`` (``d`` the
common denominator) and ``A[s][j] = g_s A'[s][j]`` (``g_s`` the gcd of row ``s``, ``L =
lcm_s g_s``; :class:`pdpsym.loss.histogram_products.RowContents`). Each record in state
``s`` contributes ``z^{c_s}`` (the mixed-radix code of its bin).

**The reduced forward-backward.** Run the usual recursions with ``A'`` in place of ``A``:
``F'_0(s) = init(s) z^{c_s}``, ``F'_t(s') = z^{c_{s'}} sum_s F'_{t-1}(s) A'[s][s']``, and
``B'_{T-1}(s) = L / g_s``, ``B'_t(s) = sum_{s'} A'[s][s'] z^{c_{s'}} B'_{t+1}(s')``
(``t`` 0-based; a known record keeps its state only). A sequence's forward weight with
``A`` is ``init(x_0) prod_{u<t} g_{x_u} A'[x_u][x_{u+1}]`` and ``prod_{u<t} g_{x_u} =
prod_s g_s^{n_s} / g_{x_t}`` (``n`` the counts of records ``0..t``), so ``F'_t(a)`` is
exactly the row-content lemma's ``F~ = F g_a / prod_s g_s^{n_s}``; likewise ``prod_{u=t}^
{T-2} g_{x_u} = g_a prod_s g_s^{m_s} / g_{x_{T-1}}`` (``m`` the counts of records
``t+1..T-1``), so ``B'_t(a)`` with the terminal ``L / g_{x_{T-1}}`` is exactly ``B~ = B L
/ (g_a prod_s g_s^{m_s})``. The lemma's law ``(F B)(n) = (F~ B~)(n) prod_s g_s^{n_s} / L``
then follows with no division of ``F`` or ``B`` and smaller integers all along (the
same polynomials :meth:`~pdpsym.loss.histogram_products.RowContents.law` divides out).

**Checkpoints.** The backward pass runs once from the end, keeping ``B'_t`` only at every
``C``-th position (``C`` about ``sqrt T``); the forward pass then walks the targets in
order and, entering each segment of ``C`` positions, recomputes that segment's ``B'``
from the checkpoint after it. About ``3 T`` steps for every target at once, against a
backward and a forward pass per batch of targets before, and at most ``T / C + C``
backward vectors held.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pdpsym.core import poly

#: one vector of k integer polynomials (None: a state a known record excludes)
Vector = list[Any]


def checkpoint_spacing(T: int) -> int:
    """The checkpoint spacing ``C`` of the backward pass (about ``sqrt T``, at least 4).

    Args:
        T: the number of records.

    Returns:
        ``C``.

    References:
        Griewank, "Achieving logarithmic growth of temporal and spatial complexity in
        reverse automatic differentiation" (1992) (checkpointing a backward sweep).

    Examples:
        >>> checkpoint_spacing(200), checkpoint_spacing(10)
        (15, 4)
    """
    return max(4, math.isqrt(T) + 1)


def reduced_factors(
    init: Sequence[int],
    reduced: Sequence[Sequence[int]],
    terminal: Sequence[int],
    codes: Sequence[int],
    T: int,
    positions: Sequence[int],
    fixed: Mapping[int, int],
) -> Iterator[tuple[int, list[tuple[Any, Any]]]]:
    """``(F'_t(s), B'_t(s))`` for every state ``s`` at each position ``t`` asked for.

    Args:
        init: the initial law as integers (one common scale).
        reduced: the row-reduced integer matrix ``A'`` (``k x k``).
        terminal: ``B'_{T-1}(s)``, the integers ``L / g_s``.
        codes: each state's exponent ``c_s`` (non-negative ints).
        T: the number of records.
        positions: the target positions, 0-based, increasing, distinct.
        fixed: the known records' states by position.

    Yields:
        ``(t, [(F'_t(s), B'_t(s)) for s in range(k)])`` in increasing ``t`` (integer
        polynomials; ``F'_t(s)`` is zero when no sequence has ``x_t = s``).

    References:
        Rabiner, "A tutorial on hidden Markov models" (1989), Sec. III-A (the
        forward-backward recursions); the reduced forward-backward and the checkpoints
        of this module's docstring.
    """
    k = len(init)
    if not positions:
        return
    C = checkpoint_spacing(T)

    def allowed(t: int, s: int) -> bool:
        return t not in fixed or fixed[t] == s

    def back(cur: Vector) -> Vector:
        """``B'_t`` from ``B'_{t+1}`` (``cur``) for the step ``t -> t + 1``."""
        return [
            poly.linear_combination([(cur[s2], reduced[s][s2]) for s2 in range(k)])
            for s in range(k)
        ]

    def masked(cur: Vector, t: int) -> Vector:
        """``z^{c_s} B'_t(s)`` with the states record ``t`` cannot take left out."""
        return [poly.monomial(cur[s], codes[s]) if allowed(t, s) else None for s in range(k)]

    first = positions[0]
    # the backward pass, keeping B'_t at every position t = C m (and the terminal)
    cur: Vector = [poly.monomial(int(v), 0) for v in terminal]
    checkpoints: dict[int, Vector] = {T - 1: cur}
    for t in range(T - 2, first - 1, -1):
        cur = back(masked(cur, t + 1))
        if t % C == 0:
            checkpoints[t] = cur
    segment: dict[int, Vector] = {}
    segment_start = -1
    fwd: Vector = [
        poly.monomial(int(init[s]), codes[s]) if allowed(0, s) else poly.zero() for s in range(k)
    ]
    wanted = iter(positions)
    target = next(wanted)
    for t in range(positions[-1] + 1):
        if t > 0:
            fwd = poly.forward_step(fwd, reduced, codes, [allowed(t, s2) for s2 in range(k)])
        if t != target:
            continue
        start = t - t % C
        if start != segment_start:
            # recompute this segment's B' from the checkpoint after it
            end = min(start + C, T - 1)
            cur = checkpoints[end]
            segment = {end: cur}
            for u in range(end - 1, max(start, first) - 1, -1):
                cur = back(masked(cur, u + 1))
                segment[u] = cur
            segment_start = start
            checkpoints = {u: v for u, v in checkpoints.items() if u >= start}
        yield t, [(fwd[s], segment[t][s]) for s in range(k)]
        target = next(wanted, -1)


__all__ = ["checkpoint_spacing", "reduced_factors"]

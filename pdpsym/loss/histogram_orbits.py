"""The float screen of a histogram on the sorted outputs only, for chains invariant under
every relabelling of their states.

**The orbit lemma.** Let the chain be invariant under every permutation ``sigma`` of its
``k`` states (a uniform initial law; every transition matrix with one value on its
diagonal and one off it), with no known record. Then ``x`` and ``sigma(x)`` have one law,
so the law of the histogram given ``x_i = sigma(a)`` is the law given ``x_i = a`` with its
counts permuted by ``sigma``, and (the relabelling lemma of
:mod:`pdpsym.loss.histogram_grid`) ``G_{sigma(a)}(sigma y) = G_a(y)`` for every output
``y`` (``(sigma y)_{sigma(c)} = y_c``). So the values ``{G_a(y) : a}`` at ``sigma y`` are
those at ``y``, and the max over ordered pairs of ``ln G_a/G_b`` takes one value on each
orbit of the grid ``{0..T}^k`` under permuting coordinates. Every orbit meets the sorted
points ``y_0 <= y_1 <= ... <= y_{k-1}`` (``binom(T + k, k)`` of the ``(T + 1)^k``: about
``1/k!``), so the screen's bounds are needed there only: the max over the sorted points is
the max over the grid, and the points that may carry it have a sorted point of their orbit
with the same value (and the same balls: the decision evaluates the same integer
polynomials at a permuted point).

The float values gathered at a sorted point are those the full screen reads there (law
``j``'s value is law 0's grid at the relabelled point), with the same proven error.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: one law: (the count vectors of its support, shape (m, k); their exact integer weights)
Law = tuple[np.ndarray, Sequence[int]]


def sorted_points(R: int, k: int) -> np.ndarray:
    """The points of ``{0..R-1}^k`` with ``y_0 <= ... <= y_{k-1}``, in lexicographic order
    (increasing position in the C-ordered grid).

    Args:
        R: the side of the grid (``T + 1``).
        k: the number of coordinates, ``>= 1``.

    Returns:
        An int array of shape ``(binom(R + k - 1, k), k)``.

    References:
        Stanley, Enumerative Combinatorics vol. 1, Sec. 1.2 (multisets: ``binom(R + k -
        1, k)`` sorted ``k``-tuples of ``R`` values).

    Examples:
        >>> sorted_points(3, 2).tolist()
        [[0, 0], [0, 1], [0, 2], [1, 1], [1, 2], [2, 2]]
    """
    pts = np.arange(R, dtype=np.int64)[:, None]
    for _ in range(k - 1):
        last = pts[:, -1]
        counts = R - last
        ends = np.cumsum(counts)
        # each prefix is followed by every value from its last one to R - 1
        new = np.arange(int(ends[-1]), dtype=np.int64) + np.repeat(last - (ends - counts), counts)
        pts = np.column_stack([np.repeat(pts, counts, axis=0), new])
    return pts


class OrbitIndex:
    """The sorted points of a grid and, per relabelling, where law 0's grid holds each
    law's value at them (kept: a run screens many targets of one grid).

    Args:
        R: the side of the grid.
        k: the number of coordinates.
    """

    def __init__(self, R: int, k: int) -> None:
        self.shape = (R,) * k
        self.points = sorted_points(R, k)
        self._flat: dict[tuple[tuple[int, ...] | None, tuple[int, ...] | None], np.ndarray] = {}

    def flat(
        self, perm: tuple[int, ...] | None, order: tuple[int, ...] | None = None
    ) -> np.ndarray:
        """The C-order positions of ``z`` with ``z_{perm[c]} = y_c`` (``z = y`` for None)
        for each sorted point ``y``: where ``np.transpose(g, perm)`` reads ``g``; in an
        array whose axis ``j`` is the grid's axis ``order[j]`` when ``order`` is given (a
        mixture left in its transposed order, :func:`pdpsym.loss.histogram_mixture.mixture`).

        Args:
            perm: a permutation of the coordinates, or None.
            order: the grid axis of each array axis, or None (the grid's own order).

        Returns:
            An int array, one position per sorted point.

        References:
            The relabelling lemma of :mod:`pdpsym.loss.histogram_grid`.
        """
        if (perm, order) not in self._flat:
            z = self.points if perm is None else np.empty_like(self.points)
            if perm is not None:
                z[:, list(perm)] = self.points
            if order is not None:
                z = z[:, list(order)]
            self._flat[perm, order] = np.ravel_multi_index(tuple(z.T), self.shape)
        return self._flat[perm, order]


def envelope(
    grid: np.ndarray,
    index: OrbitIndex,
    perms: Sequence[tuple[int, ...] | None],
    order: tuple[int, ...] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The max and min over the laws of their float values at the sorted points, each law
    ``j`` read from law 0's float grid at its relabelled point.

    Args:
        grid: law 0's float grid (shape ``index.shape``).
        index: the sorted points' positions.
        perms: per law, its permutation (None for law 0 itself).
        order: the grid axis of each of ``grid``'s axes (None: the grid's own order).

    Returns:
        ``(top, low)``, float arrays over the sorted points.

    References:
        The orbit lemma of this module's docstring.
    """
    flat = grid.reshape(-1)
    top = flat[index.flat(perms[0], order)]
    low = top.copy()
    for perm in perms[1:]:
        values = flat[index.flat(perm, order)]
        np.maximum(top, values, out=top)
        np.minimum(low, values, out=low)
    return top, low


def is_relabelling(law0: Law, law: Law, perm: Sequence[int]) -> bool:
    """Whether ``law`` is ``law0`` with its counts permuted, ``m_c = n_{perm[c]}`` (the
    same integer weight on each relabelled count vector).

    Args:
        law0: a law (count vectors, exact integer weights).
        law: another law.
        perm: a permutation of the bins.

    Returns:
        True when the two agree vector by vector (zero weights ignored).

    References:
        The relabelling lemma of :mod:`pdpsym.loss.histogram_grid`.

    Examples:
        >>> a = (np.array([[2, 0, 1], [1, 1, 1]]), [3, 5])
        >>> b = (np.array([[0, 2, 1], [1, 1, 1]]), [3, 5])
        >>> is_relabelling(a, b, (1, 0, 2)), is_relabelling(a, a, (1, 0, 2))
        (True, False)
    """

    def table(counts: np.ndarray, weights: Sequence[int]) -> tuple[list[int], list[int]]:
        nz = [j for j, w in enumerate(weights) if w]
        radix = int(counts.max(initial=0)) + 1
        codes = [int(c) for c in (counts[nz] @ (radix ** np.arange(counts.shape[1])))]
        order = sorted(range(len(nz)), key=codes.__getitem__)
        return [codes[j] for j in order], [weights[nz[j]] for j in order]

    if law[0].shape[1] != law0[0].shape[1] or int(law[0].max(initial=0)) != int(
        law0[0].max(initial=0)
    ):
        return False
    return table(law0[0][:, list(perm)], law0[1]) == table(*law)


def fully_symmetric(
    initial: Sequence[object], matrices: Sequence[Sequence[Sequence[object]]]
) -> bool:
    """Whether a chain is invariant under every relabelling of its states: a uniform
    initial law and every matrix constant on its diagonal and off it.

    Args:
        initial: the initial law.
        matrices: the transition matrices.

    Returns:
        True for such a chain (with at least two states).

    References:
        Song, Wang, Chaudhuri (2017), Section 6 (activity chains that stay with ``p``
        and otherwise move uniformly).

    Examples:
        >>> from fractions import Fraction as F
        >>> stay = [[F(1, 2), F(1, 4), F(1, 4)], [F(1, 4), F(1, 2), F(1, 4)],
        ...         [F(1, 4), F(1, 4), F(1, 2)]]
        >>> fully_symmetric([F(1, 3)] * 3, [stay]), fully_symmetric([F(1, 2), F(1, 4), F(1, 4)], [stay])
        (True, False)
    """
    k = len(initial)
    if k < 2 or len(set(initial)) != 1:
        return False
    for m in matrices:
        diagonal = {m[i][i] for i in range(k)}
        off = {m[i][j] for i in range(k) for j in range(k) if i != j}
        if len(diagonal) != 1 or len(off) != 1:
            return False
    return True


__all__ = ["OrbitIndex", "envelope", "fully_symmetric", "is_relabelling", "sorted_points"]

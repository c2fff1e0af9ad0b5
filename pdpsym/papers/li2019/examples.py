"""The joint distributions of Li et al. Examples 2-4 (Tables II/III of the paper).

Rows are ``x1``, columns ``x2``; the query is the sum and ``lambda = 1``
(Li et al. Examples 2-4). Tables (a') and (b') of Example 3 are lost, so
Example 3 is checked on the one-parameter family :func:`correlated_pair`, which gives
(a) at ``t = 1/5`` and (b) at ``t = -1/5``.
"""

from __future__ import annotations

from fractions import Fraction

from pdpsym.models.joint import JointDistribution

_ROWS: dict[str, list[list[str]]] = {
    "a": [["0", "0", "3/10"], ["0", "1", "1/5"], ["1", "0", "1/5"], ["1", "1", "3/10"]],
    "b": [["0", "0", "1/5"], ["0", "1", "3/10"], ["1", "0", "3/10"], ["1", "1", "1/5"]],
    "c": [["0", "0", "1/2"], ["1", "1", "1/2"]],
    "d": [["0", "0", "1/2"], ["5", "1", "1/2"]],
}

DESCRIPTIONS = {
    "a": "positive correlation",
    "b": "negative correlation",
    "c": "perfect positive correlation",
    "d": "as (c), x1 takes values {0, 5}",
}


def li2019_table(name: str) -> JointDistribution:
    """Table (a), (b), (c) or (d) of Examples 2-4.

    Args:
        name: ``"a"``, ``"b"``, ``"c"`` or ``"d"`` (a KeyError otherwise).

    Returns:
        The joint distribution of ``x1`` (rows) and ``x2`` (columns), exact.

    References:
        Li et al. (2019), Section IV-B, Examples 2-4, Tables II/III (a)-(d).
    """
    return JointDistribution.from_rows(["x1", "x2"], _ROWS[name])


def correlated_pair(t: Fraction) -> JointDistribution:
    """Binary pair with ``P(0,0) = P(1,1) = (1+t)/4``, ``P(0,1) = P(1,0) = (1-t)/4``.

    Pearson correlation ``t``; it gives Table (a) at ``t = 1/5`` and Table (b) at
    ``t = -1/5``.

    Args:
        t: the correlation, a rational with ``-1 < t < 1`` (else a ValueError) so that every
            cell is positive.

    Returns:
        The exact joint distribution of ``x1`` and ``x2``.

    References:
        Li et al. (2019), Section IV-B, Example 3 (its stronger-correlation tables (a') and
        (b') are lost from the text; this family stands in for them).
    """
    t = Fraction(t)
    if not -1 < t < 1:
        raise ValueError("t must lie in (-1, 1)")
    same, diff = (1 + t) / 4, (1 - t) / 4
    return JointDistribution.from_rows(
        ["x1", "x2"], [[0, 0, same], [0, 1, diff], [1, 0, diff], [1, 1, same]]
    )

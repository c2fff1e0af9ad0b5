"""Certified cells of Desfontaines et al.'s figure tables, shared by the figure modules
(``figures_thresholding``, ``figures_counting``, ``figures_noise``).

References:
    Desfontaines, Mohammadi, Krahmer, Basin (2020), "Differential privacy with partial
    knowledge", Figures 2-6.
"""

from __future__ import annotations

from pdpsym.claims.figure import table
from pdpsym.core.certify import certify

DIGITS = 15


def dec(x: object) -> str:
    """A value's certified decimal, ``DIGITS`` significant digits, for a table cell.

    Args:
        x: an exact or certified value.

    Returns:
        The decimal whose every printed digit is certain.

    References:
        Johansson, Arb (2017), ball arithmetic.
    """
    return certify(x, DIGITS).decimal  # type: ignore[arg-type]


def row(columns: tuple[str, ...], row: dict[str, str], reasons: list[str]) -> dict[str, str]:
    """``row`` with every column (missing cells empty) and the ``reasons`` joined as its reason.

    Args:
        columns: the figure's columns.
        row: the cells computed.
        reasons: why cells are empty or capped (joined by ``"; "``).

    Returns:
        The complete row.

    References:
        Desfontaines et al. (2020), Figures 2-6 (the tables behind the plots).
    """
    return table(columns, [row | {"reason": "; ".join(reasons)}])[0]

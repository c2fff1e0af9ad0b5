"""Desfontaines et al.'s thresholding figure as certified data (see :mod:`pdpsym.claims.figure`).

* Fig. 4 (Section 4.2): Theorem 4's ``eps`` and ``delta`` for the thresholding mechanism
  ``M_T`` against ``T``, ``|B| = 0``, ``p = 0.5%``, ``n = 1000, 10^4, 10^5``; next to them,
  the exact ``delta`` of ``M_T`` at the theorem's ``eps`` (Definition 13, worst direction).
  The paper prints ``r = p(n-1)/((1-p)^T)``; the theorem's proof needs
  ``r = p(n-1)/((1-p)T)`` (claim dmkb2020.thm4). The corrected ``r`` gives the ``epsilon``
  and ``delta`` columns; the printed one gives the ``*_printed`` columns, empty (with the
  reason) where the printed ``r >= 1`` and the theorem does not apply.
"""

from __future__ import annotations

from fractions import Fraction

from pdpsym.claims.figure import Axis, FigureSpec, GridPoints, Line, OneRow, Plot, Scale, Words
from pdpsym.core.numbers import fraction_str
from pdpsym.loss.thresholding_loss import ThresholdingLoss
from pdpsym.papers.dmkb2020 import figure_cells
from pdpsym.papers.dmkb2020 import thresholding as pt

FIG4_P = Fraction(1, 200)
FIG4_COLUMNS = (
    "n",
    "T",
    "r",
    "epsilon",
    "delta",
    "exact_delta_at_epsilon",
    "r_printed",
    "epsilon_printed",
    "delta_printed",
    "reason",
)


def fig4_grid(scale: Scale) -> list[tuple[int, list[int]]]:
    """The (n, thresholds) of Fig. 4.

    The paper's axis ranges are lost with its figures; the thresholds run from the first
    ``T`` where Theorem 4 applies (``r < 1``) to about ``pn + 9 sqrt(pn) + 10``, where
    ``delta`` is far below any useful level.

    Args:
        scale: the figure scale (paper: n = 1000, 10^4, 10^5; quick: two small grids).

    Returns:
        A list of ``(n, thresholds)``.

    References:
        Desfontaines et al., Section 4.2, Figure 4 (n = 1000, 10,000, 100,000).
    """
    if scale is Scale.QUICK:
        return [(1000, list(range(6, 21, 2))), (10_000, list(range(55, 96, 5)))]
    return [
        (1000, list(range(6, 36))),
        (10_000, list(range(51, 126))),
        (100_000, list(range(505, 711, 5))),
    ]


def fig4_row(n: int, T: int, p: Fraction = FIG4_P) -> dict[str, str]:
    """One point of Fig. 4: Theorem 4 with the corrected and the printed ``r``.

    Next to them, the exact ``delta`` of ``M_T`` at the corrected theorem's ``eps``. The
    printed ``r = p(n-1)/((1-p)^T)`` is an erratum: the corrected ``r = p(n-1)/((1-p)T)``
    gives the ``epsilon`` and ``delta`` columns.

    Args:
        n: the number of records.
        T: the threshold.
        p: the records' probability (default 0.5%).

    Returns:
        One row (column -> text): certified decimals, cells left empty where a reading of
        the theorem does not apply, with the reasons in ``reason``.

    References:
        Desfontaines et al., Section 4.2, Theorem 4 and Figure 4; Section 3.3,
        Definition 13 (the exact δ).
    """
    row = {"n": str(n), "T": str(T)}
    reasons = []
    th = pt.theorem4(n, p, T)
    if th is None:
        reasons.append("corrected r >= 1 or delta >= 1: Theorem 4 does not apply")
    else:
        if n > 400:  # unexpanded formulas: the expanded rationals have n-digit parts
            th = pt.with_display(th, n, p, T, 0)
        exact = ThresholdingLoss.homogeneous(n, p, T).delta(th.eps).value
        row |= {
            "r": figure_cells.dec(th.r),
            "epsilon": figure_cells.dec(th.eps_sympy()),
            "delta": figure_cells.dec(th.delta_sympy()),
            "exact_delta_at_epsilon": figure_cells.dec(exact),
        }
    row["r_printed"] = figure_cells.dec(pt.r_printed(n, p, T))
    printed = pt.theorem4(n, p, T, reading=pt.RReading.PRINTED)
    if printed is None:
        reasons.append(f"printed r = {row['r_printed']} >= 1: the printed theorem does not apply")
    else:
        if n > 400:
            printed = pt.with_display(printed, n, p, T, 0)
        row["epsilon_printed"] = figure_cells.dec(printed.eps_sympy())
        row["delta_printed"] = figure_cells.dec(printed.delta_sympy())
    return figure_cells.row(FIG4_COLUMNS, row, reasons)


# one axis per quantity (r, eps, delta); the printed r next to the corrected one, and the
# printed theorem's eps and delta, which have no point here (the printed r >= 1)
FIG4_AXES = (
    Axis("r", "r", log=True),
    Axis("eps", "eps", log=True),
    Axis("delta", "delta", log=True),
)
FIG4_LINES = (
    Line("r", "r = p(n-1)/((1-p)T) (corrected)", axis="r"),
    Line("r_printed", "r = p(n-1)/((1-p)^T) (printed)", dashed=True, axis="r"),
    Line("epsilon", "eps (Theorem 4, corrected r)", axis="eps"),
    Line("epsilon_printed", "eps (printed r)", dashed=True, axis="eps"),
    Line("delta", "delta (Theorem 4, corrected r)", axis="delta"),
    Line("exact_delta_at_epsilon", "exact delta of M_T at eps", dashed=True, axis="delta"),
    Line("delta_printed", "delta (printed r)", dashed=True, axis="delta"),
)


def _fig4_params(scale: Scale) -> dict[str, str]:
    """Fig. 4's params at ``scale`` (its n differ)."""
    return {
        "p": fraction_str(FIG4_P),
        "known_size": "0",
        "n": ",".join(str(n) for n, _ in fig4_grid(scale)),
        "scale": scale.value,
        "digits": f"{figure_cells.DIGITS} significant, certified",
        "r": "p(n-1)/((1-p)T) (corrected); r_printed = p(n-1)/((1-p)^T)",
    }


FIG4 = FigureSpec(
    "dmkb2020.fig4",
    "Theorem 4: eps and delta of thresholding against T",
    GridPoints(fig4_grid),
    OneRow(fig4_row),
    Words(
        "Thresholding (Theorem 4): eps and delta against the threshold T",
        "Theorem 4 for the T-thresholding of a count of n Bernoulli(p) records, |B| = 0, "
        "p = 0.5%, with r = p(n-1)/((1-p)T) (the printed (1-p)^T is an erratum: with it "
        "r >= 1 for every T here, so the printed theorem gives nothing). Plots: r, corrected "
        "and as printed (dashed); eps; delta, with the exact delta of the mechanism at "
        "the theorem's eps (dashed). The paper's T ranges are lost; T runs from the "
        "first value where the theorem applies.",
        _fig4_params,
    ),
    columns=FIG4_COLUMNS,
    plot=Plot("T", FIG4_LINES, "threshold T", "", panel="n", axes=FIG4_AXES),
).register()

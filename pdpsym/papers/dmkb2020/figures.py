"""Desfontaines et al.'s figures as certified data (see :mod:`pdpsym.papers.figure`).

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

from pdpsym.core.certify import certify
from pdpsym.core.numbers import fraction_str
from pdpsym.papers.dmkb2020 import thresholding as pt
from pdpsym.papers.figure import FigureData, Line, Plot, Scale, figure, table

DIGITS = 15
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


def _dec(x: object) -> str:
    return certify(x, DIGITS).decimal  # type: ignore[arg-type]


def fig4_grid(scale: Scale) -> list[tuple[int, list[int]]]:
    """The (n, thresholds) of Fig. 4. The paper's axis ranges are lost with its figures; the
    thresholds run from the first ``T`` where Theorem 4 applies (``r < 1``) to about
    ``pn + 9 sqrt(pn) + 10``, where ``delta`` is far below any useful level."""
    if scale is Scale.QUICK:
        return [(1000, list(range(6, 21, 2))), (10_000, [55, 60, 70])]
    return [
        (1000, list(range(6, 36))),
        (10_000, list(range(51, 126))),
        (100_000, list(range(505, 711, 5))),
    ]


def fig4_points(scale: Scale) -> list[tuple[int, int]]:
    return [(n, T) for n, Ts in fig4_grid(scale) for T in Ts]


def fig4_point(args: tuple[int, int]) -> list[dict[str, str]]:
    return [fig4_row(*args)]


def fig4_row(n: int, T: int, p: Fraction = FIG4_P) -> dict[str, str]:
    """One point of Fig. 4: Theorem 4 with the corrected and the printed ``r``, and the
    exact ``delta`` of ``M_T`` at the corrected theorem's ``eps``."""
    row = {"n": str(n), "T": str(T)}
    reasons = []
    th = pt.theorem4(n, p, T)
    if th is None:
        reasons.append("corrected r >= 1 or delta >= 1: Theorem 4 does not apply")
    else:
        if n > 400:  # unexpanded formulas: the expanded rationals have n-digit parts
            th = pt.with_display(th, n, p, T, 0)
        exact, _ = pt.exact_delta_at(n, p, T, th.eps)
        row |= {
            "r": _dec(th.r),
            "epsilon": _dec(th.eps_sympy()),
            "delta": _dec(th.delta_sympy()),
            "exact_delta_at_epsilon": _dec(exact),
        }
    row["r_printed"] = _dec(pt.r_printed(n, p, T))
    printed = pt.theorem4(n, p, T, reading=pt.RReading.PRINTED)
    if printed is None:
        reasons.append(f"printed r = {row['r_printed']} >= 1: the printed theorem does not apply")
    else:
        if n > 400:
            printed = pt.with_display(printed, n, p, T, 0)
        row["epsilon_printed"] = _dec(printed.eps_sympy())
        row["delta_printed"] = _dec(printed.delta_sympy())
    row["reason"] = "; ".join(reasons)
    return table(FIG4_COLUMNS, [row])[0]


@figure(
    "dmkb2020.fig4", "Theorem 4: eps and delta of thresholding against T", fig4_points, fig4_point
)
def fig4(scale: Scale, rows: list[dict[str, str]]) -> FigureData:
    grid = fig4_grid(scale)
    return FigureData(
        id="dmkb2020.fig4",
        title="Thresholding (Theorem 4): eps and delta against the threshold T",
        caption=(
            "Theorem 4 for the T-thresholding of a count of n Bernoulli(p) records, |B| = 0, "
            "p = 0.5%, with r = p(n-1)/((1-p)T) (the printed (1-p)^T is an erratum: with it "
            "r >= 1 for every T here, so the printed theorem gives nothing). Dashed: the exact "
            "delta of the mechanism at the theorem's eps. The paper's T ranges are lost; "
            "T runs from the first value where the theorem applies."
        ),
        params={
            "p": fraction_str(FIG4_P),
            "known_size": "0",
            "n": ",".join(str(n) for n, _ in grid),
            "scale": scale.value,
            "digits": f"{DIGITS} significant, certified",
            "r": "p(n-1)/((1-p)T) (corrected); r_printed = p(n-1)/((1-p)^T)",
        },
        columns=FIG4_COLUMNS,
        rows=tuple(rows),
        plot=Plot(
            x="T",
            lines=(
                Line("epsilon", "eps (Theorem 4)"),
                Line("delta", "delta (Theorem 4)"),
                Line("exact_delta_at_epsilon", "exact delta of M_T at eps", dashed=True),
            ),
            xlabel="threshold T",
            ylabel="value",
            panel="n",
            logy=True,
        ),
    )

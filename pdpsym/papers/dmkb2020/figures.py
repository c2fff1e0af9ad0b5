"""Desfontaines et al.'s figures as certified data (see :mod:`pdpsym.papers.figure`).

* Fig. 5 (Section 5): Theorem 3's closed-form ``eps`` for ``delta = 10^-10``, ``lambda = 0.05``,
  ``n = 10^5`` against the number of known records ``|B|``, without noise and with Laplace
  noise of scale 2 on the count (which alone is ``1/2``-DP, so ``eps`` is capped at 1/2).
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
from pdpsym.core.compare import compare
from pdpsym.core.numbers import fraction_str
from pdpsym.papers.dmkb2020 import counting as pc
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


# --- Figure 5: known records against the closed form, with and without noise ------------------

FIG5_N, FIG5_LAM, FIG5_DELTA, FIG5_SCALE = 100_000, Fraction(1, 20), Fraction(1, 10**10), 2


def fig5_points(scale: Scale) -> list[int]:
    n = FIG5_N
    step = 5000 if scale is Scale.PAPER else 20000
    return [*range(0, n - step, step), n - 1000, n - 100, n - 10]


def fig5_point(known: int) -> list[dict[str, str]]:
    """Theorem 3's closed-form eps for the n - |B| unknown records; Laplace noise of scale 2
    on the count (sensitivity 1) caps it at 1/2 (pure DP of the noise alone)."""
    eps = pc.closed_form_eps(FIG5_N - known, FIG5_LAM, FIG5_DELTA)
    cap = Fraction(1, FIG5_SCALE)
    noisy = cap if compare(eps, cap).sign > 0 else eps
    return [{"known": str(known), "epsilon": _dec(eps), "epsilon_with_laplace": _dec(noisy)}]


@figure(
    "dmkb2020.fig5",
    "Theorem 3: eps against the known records, with and without noise",
    fig5_points,
    fig5_point,
)
def fig5(scale: Scale, rows: list[dict[str, str]]) -> FigureData:
    return FigureData(
        id="dmkb2020.fig5",
        title="Theorem 3 (closed form): eps against |B|, with and without Laplace noise",
        caption=(
            "eps = max(sqrt(14 ln(1/delta)/(lambda(n-|B|-1))), 27/(lambda(n-|B|-1))) for the "
            "n - |B| unknown records, delta = 1e-10, lambda = 0.05, n = 100,000; with Laplace "
            "noise of scale 2 on the count the guarantee is min(eps, 1/2)."
        ),
        params={
            "n": str(FIG5_N),
            "lambda": "1/20",
            "delta": "1e-10",
            "laplace_scale": "2",
            "scale": scale.value,
        },
        columns=("known", "epsilon", "epsilon_with_laplace"),
        rows=tuple(rows),
        plot=Plot(
            x="known",
            lines=(
                Line("epsilon", "no noise"),
                Line("epsilon_with_laplace", "Laplace(2) noise", dashed=True),
            ),
            xlabel="records known to the attacker |B|",
            ylabel="epsilon",
            logy=True,
        ),
    )

"""Desfontaines et al.'s counting figures as certified data (see :mod:`pdpsym.claims.figure`).

* Fig. 2 (Section 5): Theorem 3's closed form against Proposition 7's exact delta of
  the counting mechanism, for four families of record probabilities p_i;
* Fig. 3 (Section 5): the smallest eps (on a grid of 10^-4) with
  delta = 0.01/n, against lambda.
"""

from __future__ import annotations

from fractions import Fraction

from pdpsym.claims.figure import FigureSpec, GridPoints, Line, OneRow, Plot, Scale, Words, table
from pdpsym.core.eps import Eps
from pdpsym.core.numbers import fraction_str
from pdpsym.loss.counting_loss import CountingLoss
from pdpsym.papers.dmkb2020 import counting as pc
from pdpsym.papers.dmkb2020 import figure_cells
from pdpsym.papers.dmkb2020.theorem3_bound import blanket_enclosures

# --- Figure 2: Theorem 3 against Proposition 7 --------------------------------------------------

FIG2_LAM = Fraction(1, 20)
FIG2_COLUMNS = (
    "case",
    "n",
    "epsilon",
    "exact_delta",
    "theorem3_closed",
    "theorem3_numerical",
    "prop7",
    "prop7_printed",
    "reason",
)
FIG2_EXACT_MAX_TARGETS = 200  # the exact delta examines one target per distinct p_i


def fig2_ps(case: int, n: int) -> list[Fraction]:
    """The records' probabilities p_i of each case of Fig. 2.

    Case 1: ``p_1 = lambda = 0.05``, every other ``p_i = 0.5``. Case 2: ``p_i`` evenly spaced
    over ``[0.05, 0.95]`` (both ends included), a deterministic stand-in for the paper's
    "distributed uniformly".

    Args:
        case: 1 or 2.
        n: the number of records, ≥ 2.

    Returns:
        The n exact probabilities.

    References:
        Desfontaines et al., Section 4.1, Figure 2 (cases 1 and 2 of its caption).
    """
    if case == 1:
        return [FIG2_LAM] + [Fraction(1, 2)] * (n - 1)
    return [FIG2_LAM + Fraction(9, 10) * Fraction(i, n - 1) for i in range(n)]


def fig2_grid(scale: Scale) -> list[tuple[int, list[Fraction]]]:
    """The (n, eps grid) pairs of Fig. 2.

    The caption's ``n = 100`` and ``n = 10,000`` (the text says ``10^3`` and ``10^5``), ``eps``
    on an even grid.

    Args:
        scale: the figure scale (quick: n = 40 and three values of ε).

    Returns:
        A list of ``(n, eps values)``.

    References:
        Desfontaines et al., Section 4.1, Figure 2.
    """
    if scale is Scale.QUICK:
        return [(40, [Fraction(1, 2), Fraction(1), Fraction(3, 2)])]
    return [
        (100, [Fraction(k, 10) for k in range(1, 21)]),
        (10_000, [Fraction(k, 40) for k in range(1, 41)]),
    ]


def fig2_points(scale: Scale) -> list[tuple[int, int, Fraction]]:
    """One point per (case, n, ε).

    Args:
        scale: the figure scale.

    Returns:
        The list of ``(case, n, eps)`` arguments.

    References:
        Desfontaines et al., Section 4.1, Figure 2.
    """
    return [(case, n, e) for case in (1, 2) for n, grid in fig2_grid(scale) for e in grid]


def fig2_point(args: tuple[int, int, Fraction]) -> list[dict[str, str]]:
    """The row of one (case, n, ε), as a one-row list.

    Args:
        args: ``(case, n, eps)`` as listed by :func:`fig2_points`.

    Returns:
        ``[fig2_row(case, n, eps)]``.

    References:
        Desfontaines et al., Section 4.1, Figure 2.
    """
    return [fig2_row(*args)]


def fig2_row(case: int, n: int, eps: Fraction) -> dict[str, str]:
    """One point of Fig. 2: the exact δ of the count, Theorem 3 and Proposition 7.

    Theorem 3 as its closed form and as the numerical bound of its proof; Proposition 7 with
    the corrected ``mu_3`` and as printed (an erratum).

    Args:
        case: 1 or 2 (see :func:`fig2_ps`).
        n: the number of records.
        eps: ε, an exact rational.

    Returns:
        One row (column -> text) of certified decimals, cells left empty where a bound does
        not apply or is not computed, with the reasons in ``reason``.

    References:
        Desfontaines et al., Section 4.1, Theorem 3, Proposition 7 and Figure 2.
    """
    ps = fig2_ps(case, n)
    row = {"case": str(case), "n": str(n), "epsilon": fraction_str(eps)}
    reasons = []
    if len(set(ps)) <= FIG2_EXACT_MAX_TARGETS:
        row["exact_delta"] = figure_cells.dec(CountingLoss(ps).delta(Eps.of(eps)).value)
    else:
        reasons.append(
            f"exact delta not computed: {len(set(ps))} distinct p_i, each target an exact "
            f"Poisson binomial of {n - 1} records"
        )
    closed = pc.theorem3_closed_form_delta(n, FIG2_LAM, eps)
    if closed is None:
        reasons.append("Theorem 3's closed form needs 27/(lambda(n-1)) <= eps <= 1")
    else:
        row["theorem3_closed"] = figure_cells.dec(closed)
    enc = blanket_enclosures(n, FIG2_LAM, [eps])[0]
    row["theorem3_numerical"] = enc.decimal(figure_cells.DIGITS)
    if not row["theorem3_numerical"]:
        reasons.append(f"numerical Theorem 3 <= {enc.upper()} (no digit certain)")
    if eps <= 1:
        row["prop7"] = figure_cells.dec(
            pc.prop7_at_eps(ps, eps, pc.Prop7Reading.PRINTED, pc.Mu3Reading.ABSOLUTE).delta
        )
        row["prop7_printed"] = figure_cells.dec(
            pc.prop7_at_eps(ps, eps, pc.Prop7Reading.PRINTED, pc.Mu3Reading.PRINTED).delta
        )
    else:
        reasons.append("Proposition 7 needs eps <= 1 (Fact 1 of GK17)")
    return figure_cells.row(FIG2_COLUMNS, row, reasons)


FIG2_LINES = (
    Line("exact_delta", "exact delta"),
    Line("theorem3_numerical", "Theorem 3 (numerical)"),
    Line("theorem3_closed", "Theorem 3 (closed form)", dashed=True),
    Line("prop7", "Proposition 7 (corrected mu_3)"),
    Line("prop7_printed", "Proposition 7 (printed mu_3)", dashed=True),
)


def _fig2_params(scale: Scale) -> dict[str, str]:
    """Fig. 2's params at ``scale`` (its n and eps grids differ)."""
    grid = fig2_grid(scale)
    return {
        "lambda": "1/20",
        "n": ",".join(str(n) for n, _ in grid),
        "epsilon": "; ".join(
            f"n = {n}: {fraction_str(g[0])}..{fraction_str(g[-1])} step {fraction_str(g[1] - g[0])}"
            for n, g in grid
        ),
        "scale": scale.value,
        "digits": f"up to {figure_cells.DIGITS} significant, certified",
        "prop7": "mu_2^3 as printed, mu_3 = mean of p(1-p)(p^2+(1-p)^2); prop7_printed: "
        "mu_3 = mean of p(1-p)|1-2p| as printed",
        "delta_2": "1.25 exp(-eps^2 n mu_2/2) (Proposition 7's eps formula solved)",
    }


FIG2 = FigureSpec(
    "dmkb2020.fig2",
    "Theorem 3 against Proposition 7: delta against eps",
    fig2_points,
    fig2_point,
    Words(
        "Theorem 3 against Proposition 7: delta against eps, lambda = 0.05",
        "delta against eps for the count of n independent Bernoulli(p_i) records, "
        "lambda = 0.05. Case 1: p_1 = 0.05, every other p_i = 0.5. Case 2: p_i evenly "
        "spaced over [0.05, 0.95]. Theorem 3's closed form exp(-eps^2 lambda (n-1)/14) "
        "(where 27/(lambda(n-1)) <= eps <= 1), its numerical bound E_N[delta_N(eps)] "
        "(N ~ Bin(n-1, 2 lambda)), Proposition 7 with the absolute third moment "
        "p(1-p)(p^2+(1-p)^2) and as printed (p(1-p)|1-2p|, an erratum), and the exact "
        "delta of the count (worst target). The paper's caption says n = 100 and "
        "n = 10,000, its text n = 10^3 and 10^5: the caption's values are used. "
        "p_1 = lambda sits on the boundary of Theorem 3's strict lambda < p_i; the "
        "decomposition of its proof holds there too.",
        _fig2_params,
        notes=(
            "case 2 at n = 10,000: the exact delta would examine 10,000 targets, each an "
            "exact Poisson binomial of 9,999 records; it is left empty",
        ),
    ),
    columns=FIG2_COLUMNS,
    plot=Plot("epsilon", FIG2_LINES, "epsilon", "delta", panel="case", group="n", logy=True),
).register()


# --- Figure 3: eps for delta = 0.01/n against lambda --------------------------------------------

FIG3_GRID = Fraction(1, 10_000)  # eps is searched on multiples of 10^-4
FIG3_TOL = Fraction(1, 10**30)
FIG3_COLUMNS = ("n", "lambda", "delta_target", "epsilon", "epsilon_below", "reason")


def fig3_grid(scale: Scale) -> list[tuple[int, list[Fraction]]]:
    """The n and λ of Fig. 3: n = 100, 1000, 10000 (the paper's n are lost), λ from 0.025 to 0.45.

    Args:
        scale: the figure scale (quick: n = 100, 1000 and three λ).

    Returns:
        ``[(n, lambdas), ...]``, the same λ for every n.

    References:
        Desfontaines et al., Section 4.1, Figure 3.
    """
    if scale is Scale.QUICK:
        ns, lams = [100, 1000], [Fraction(1, 10), Fraction(1, 4), Fraction(2, 5)]  # evenly spaced
    else:
        ns = [100, 1000, 10_000]
        lams = [Fraction(1, 40), Fraction(1, 20)] + [Fraction(k, 20) for k in range(2, 10)]
    return [(n, lams) for n in ns]


def smallest_grid_eps(
    n: int, lam: Fraction, target: Fraction, step: Fraction = FIG3_GRID, tol: Fraction = FIG3_TOL
) -> tuple[int | None, bool, str]:
    """The smallest grid point ``k step`` where Theorem 3's numerical δ is certified ≤ target.

    ``delta`` is Theorem 3's numerical bound, nonincreasing in ε. ``below`` says whether
    ``delta((k-1) step) > target`` is certified too (then ``k step`` is the smallest such grid
    point). ``k`` is None when no ε reaches the target: ``delta(oo) = E[2^-N] =
    (1-lambda)^(n-1)``.

    Args:
        n: the number of records.
        lam: the λ of Theorem 3, in (0, 1/2).
        target: the δ to reach, > 0.
        step: the grid step of ε.
        tol: the tolerance of the enclosures (see
            :func:`pdpsym.papers.dmkb2020.theorem3_bound.blanket_enclosures`).

    Returns:
        ``(k, below, reason)``: ``k`` an int or None, ``below`` a bool, and a reason (empty
        when both ends are certified).

    References:
        Desfontaines et al., Section 4.1, Theorem 3 (its numerical bound) and Figure 3.
    """
    if (1 - lam) ** (n - 1) >= target:
        return None, False, "(1-lambda)^(n-1) = delta(oo) >= target: no eps reaches it"

    def ok(ks: list[int]) -> list[bool]:
        encs = blanket_enclosures(n, lam, [k * step for k in ks], tol=tol)
        return [e.hi <= target for e in encs]

    lo, hi = 0, round(1 / step)  # delta(0) > target is checked at the end
    while not ok([hi])[0]:
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        ks = sorted({lo + (hi - lo) * j // 16 for j in range(1, 16)} - {lo, hi})
        for k, good in zip(ks, ok(ks), strict=True):
            if good:
                hi = min(hi, k)
                break
            lo = max(lo, k)
    below = blanket_enclosures(n, lam, [(hi - 1) * step], tol=tol)[0]
    if below.lo > target:
        return hi, True, ""
    return hi, False, f"delta at eps - 10^-4 not certified above the target (<= {below.upper()})"


def _grid_text(k: int) -> str:
    """``k / 10^4`` exactly, as a decimal."""
    return f"{k // 10_000}.{k % 10_000:04d}"


def fig3_row(n: int, lam: Fraction) -> dict[str, str]:
    """One point of Fig. 3: the smallest grid ε with δ certified ≤ 0.01/n, and the one below.

    Args:
        n: the number of records.
        lam: the λ of Theorem 3.

    Returns:
        One row (column -> text): ``epsilon`` and ``epsilon_below`` exact decimals of the
        grid (the exact ε lies in (epsilon_below, epsilon]), or empty with a reason.

    References:
        Desfontaines et al., Section 4.1, Theorem 3 and Figure 3 (δ = 0.01/n).
    """
    target = Fraction(1, 100 * n)
    row = {"n": str(n), "lambda": fraction_str(lam), "delta_target": fraction_str(target)}
    k, below, reason = smallest_grid_eps(n, lam, target)
    if k is not None:
        row["epsilon"] = _grid_text(k)
        if below:
            row["epsilon_below"] = _grid_text(k - 1)
    row["reason"] = reason
    return table(FIG3_COLUMNS, [row])[0]


def _fig3_params(scale: Scale) -> dict[str, str]:
    """Fig. 3's params at ``scale`` (its n and lambda differ)."""
    grid = fig3_grid(scale)
    return {
        "n": ",".join(str(n) for n, _ in grid),
        "lambda": ",".join(fraction_str(x) for x in grid[0][1]),
        "delta": "1/(100 n)",
        "epsilon_grid": "multiples of 1/10000",
    }


FIG3_TITLE = "Theorem 3 (numerical): eps for delta = 0.01/n against lambda"
FIG3 = FigureSpec(
    "dmkb2020.fig3",
    FIG3_TITLE,
    GridPoints(fig3_grid),
    OneRow(fig3_row),
    Words(
        FIG3_TITLE,
        "The smallest eps on the grid of multiples of 10^-4 at which Theorem 3's numerical "
        "bound E_N[delta_N(eps)] (N ~ Bin(n-1, 2 lambda), delta_N the curve of "
        "Bin(N, 1/2) + 1 against Bin(N, 1/2)) is certified <= 0.01/n; epsilon_below = "
        "epsilon - 10^-4, where the bound is certified > 0.01/n, so the exact eps lies "
        "in (epsilon_below, epsilon]. Empty where no eps reaches the target "
        "((1-lambda)^(n-1) >= 0.01/n). The paper's values of n are lost; n = 100, 1000 "
        "and 10,000 are shown.",
        _fig3_params,
    ),
    columns=FIG3_COLUMNS,
    plot=Plot(
        "lambda",
        (Line("epsilon", "eps (delta = 0.01/n)"),),
        "lambda",
        "epsilon",
        group="n",
        logy=True,
    ),
).register()

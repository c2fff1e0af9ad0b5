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

from pdpsym.core.certify import certify, enclosure_decimal
from pdpsym.core.compare import compare
from pdpsym.core.eps import Eps
from pdpsym.core.numbers import fraction_str
from pdpsym.loss.counting_loss import CountingLoss
from pdpsym.loss.thresholding_loss import ThresholdingLoss
from pdpsym.papers.dmkb2020 import counting as pc
from pdpsym.papers.dmkb2020 import thresholding as pt
from pdpsym.papers.dmkb2020.blanket import PREC, blanket_enclosures
from pdpsym.papers.figure import Axis, Line, Plot, Scale, Text, figure, table

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


def _row(columns: tuple[str, ...], row: dict[str, str], reasons: list[str]) -> dict[str, str]:
    """``row`` with every column (missing cells empty) and the ``reasons`` joined as its reason."""
    return table(columns, [row | {"reason": "; ".join(reasons)}])[0]


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


def fig4_points(scale: Scale) -> list[tuple[int, int]]:
    """One point per (n, T) of the grid.

    Args:
        scale: the figure scale.

    Returns:
        The list of ``(n, T)`` arguments.

    References:
        Desfontaines et al., Section 4.2, Figure 4.
    """
    return [(n, T) for n, Ts in fig4_grid(scale) for T in Ts]


def fig4_point(args: tuple[int, int]) -> list[dict[str, str]]:
    """The row of one (n, T), as a one-row list.

    Args:
        args: ``(n, T)`` as listed by :func:`fig4_points`.

    Returns:
        ``[fig4_row(n, T)]``.

    References:
        Desfontaines et al., Section 4.2, Figure 4.
    """
    return [fig4_row(*args)]


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
    return _row(FIG4_COLUMNS, row, reasons)


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


@figure(
    "dmkb2020.fig4",
    "Theorem 4: eps and delta of thresholding against T",
    fig4_points,
    fig4_point,
    columns=FIG4_COLUMNS,
    plot=Plot(x="T", lines=FIG4_LINES, xlabel="threshold T", ylabel="", panel="n", axes=FIG4_AXES),
)
def fig4(scale: Scale) -> Text:
    """The words of Fig. 4: title, caption and parameters.

    References:
        Desfontaines et al., Section 4.2, Figure 4.
    """
    return Text(
        title="Thresholding (Theorem 4): eps and delta against the threshold T",
        caption=(
            "Theorem 4 for the T-thresholding of a count of n Bernoulli(p) records, |B| = 0, "
            "p = 0.5%, with r = p(n-1)/((1-p)T) (the printed (1-p)^T is an erratum: with it "
            "r >= 1 for every T here, so the printed theorem gives nothing). Plots: r, corrected "
            "and as printed (dashed); eps; delta, with the exact delta of the mechanism at "
            "the theorem's eps (dashed). The paper's T ranges are lost; T runs from the "
            "first value where the theorem applies."
        ),
        params={
            "p": fraction_str(FIG4_P),
            "known_size": "0",
            "n": ",".join(str(n) for n, _ in fig4_grid(scale)),
            "scale": scale.value,
            "digits": f"{DIGITS} significant, certified",
            "r": "p(n-1)/((1-p)T) (corrected); r_printed = p(n-1)/((1-p)^T)",
        },
    )


# --- Figure 5: known records against the closed form, with and without noise ------------------

FIG5_N, FIG5_LAM, FIG5_DELTA, FIG5_SCALE = 100_000, Fraction(1, 20), Fraction(1, 10**10), 2


def fig5_points(scale: Scale) -> list[int]:
    """The numbers of known records ``|B|`` plotted (every 5000, or 20000 at quick scale).

    Args:
        scale: the figure scale.

    Returns:
        The values of ``|B|``, increasing, ending near n.

    References:
        Desfontaines et al., Section 5.2, Figure 5.
    """
    n = FIG5_N
    step = 5000 if scale is Scale.PAPER else 20000
    return [*range(0, n - step, step), n - 1000, n - 100, n - 10]


def fig5_point(known: int) -> list[dict[str, str]]:
    """Theorem 3's closed-form ε for the n - |B| unknown records, without and with noise.

    Laplace noise of scale 2 on the count (sensitivity 1) caps ε at 1/2 (pure DP of the
    noise alone).

    Args:
        known: ``|B|``, the number of records known to the attacker.

    Returns:
        One row with ``known``, ``epsilon`` and ``epsilon_with_laplace`` (certified
        decimals).

    References:
        Desfontaines et al., Section 5.2, Figure 5; Section 4.1, Theorem 3 (the closed
        form).
    """
    eps = pc.closed_form_eps(FIG5_N - known, FIG5_LAM, FIG5_DELTA)
    cap = Fraction(1, FIG5_SCALE)
    noisy = cap if compare(eps, cap).sign > 0 else eps
    return [{"known": str(known), "epsilon": _dec(eps), "epsilon_with_laplace": _dec(noisy)}]


FIG5_LINES = (
    Line("epsilon", "no noise"),
    Line("epsilon_with_laplace", "Laplace(2) noise", dashed=True),
)


@figure(
    "dmkb2020.fig5",
    "Theorem 3: eps against the known records, with and without noise",
    fig5_points,
    fig5_point,
    columns=("known", "epsilon", "epsilon_with_laplace"),
    plot=Plot(
        x="known",
        lines=FIG5_LINES,
        xlabel="records known to the attacker |B|",
        ylabel="epsilon",
        logy=True,
    ),
)
def fig5(scale: Scale) -> Text:
    """The words of Fig. 5: title, caption and parameters.

    References:
        Desfontaines et al., Section 5.2, Figure 5.
    """
    return Text(
        title="Theorem 3 (closed form): eps against |B|, with and without Laplace noise",
        caption=(
            "eps = max(sqrt(14 ln(1/delta)/(lambda(n-|B|-1))), 27/(lambda(n-|B|-1))) for the "
            "n - |B| unknown records, delta = 1e-10, lambda = 0.05, n = 100,000; with Laplace "
            "noise of scale 2 on the count the guarantee is min(eps, 1/2)."
        ),
        params={"n": str(FIG5_N), "lambda": "1/20", "delta": "1e-10", "laplace_scale": "2"},
    )


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
        row["exact_delta"] = _dec(CountingLoss(ps).delta(Eps.of(eps)).value)
    else:
        reasons.append(
            f"exact delta not computed: {len(set(ps))} distinct p_i, each target an exact "
            f"Poisson binomial of {n - 1} records"
        )
    closed = pc.theorem3_closed_form_delta(n, FIG2_LAM, eps)
    if closed is None:
        reasons.append("Theorem 3's closed form needs 27/(lambda(n-1)) <= eps <= 1")
    else:
        row["theorem3_closed"] = _dec(closed)
    enc = blanket_enclosures(n, FIG2_LAM, [eps])[0]
    row["theorem3_numerical"] = enc.decimal(DIGITS)
    if not row["theorem3_numerical"]:
        reasons.append(f"numerical Theorem 3 <= {enc.upper()} (no digit certain)")
    if eps <= 1:
        row["prop7"] = _dec(
            pc.prop7_at_eps(ps, eps, pc.Prop7Reading.PRINTED, pc.Mu3Reading.ABSOLUTE).delta
        )
        row["prop7_printed"] = _dec(
            pc.prop7_at_eps(ps, eps, pc.Prop7Reading.PRINTED, pc.Mu3Reading.PRINTED).delta
        )
    else:
        reasons.append("Proposition 7 needs eps <= 1 (Fact 1 of GK17)")
    return _row(FIG2_COLUMNS, row, reasons)


FIG2_LINES = (
    Line("exact_delta", "exact delta"),
    Line("theorem3_numerical", "Theorem 3 (numerical)"),
    Line("theorem3_closed", "Theorem 3 (closed form)", dashed=True),
    Line("prop7", "Proposition 7 (corrected mu_3)"),
    Line("prop7_printed", "Proposition 7 (printed mu_3)", dashed=True),
)


@figure(
    "dmkb2020.fig2",
    "Theorem 3 against Proposition 7: delta against eps",
    fig2_points,
    fig2_point,
    columns=FIG2_COLUMNS,
    plot=Plot(
        x="epsilon",
        lines=FIG2_LINES,
        xlabel="epsilon",
        ylabel="delta",
        panel="case",
        group="n",
        logy=True,
    ),
)
def fig2(scale: Scale) -> Text:
    """The words of Fig. 2: title, caption, parameters and notes.

    References:
        Desfontaines et al., Section 4.1, Figure 2.
    """
    grid = fig2_grid(scale)
    return Text(
        title="Theorem 3 against Proposition 7: delta against eps, lambda = 0.05",
        caption=(
            "delta against eps for the count of n independent Bernoulli(p_i) records, "
            "lambda = 0.05. Case 1: p_1 = 0.05, every other p_i = 0.5. Case 2: p_i evenly "
            "spaced over [0.05, 0.95]. Theorem 3's closed form exp(-eps^2 lambda (n-1)/14) "
            "(where 27/(lambda(n-1)) <= eps <= 1), its numerical bound E_N[delta_N(eps)] "
            "(N ~ Bin(n-1, 2 lambda)), Proposition 7 with the absolute third moment "
            "p(1-p)(p^2+(1-p)^2) and as printed (p(1-p)|1-2p|, an erratum), and the exact "
            "delta of the count (worst target). The paper's caption says n = 100 and "
            "n = 10,000, its text n = 10^3 and 10^5: the caption's values are used. "
            "p_1 = lambda sits on the boundary of Theorem 3's strict lambda < p_i; the "
            "decomposition of its proof holds there too."
        ),
        params={
            "lambda": "1/20",
            "n": ",".join(str(n) for n, _ in grid),
            "epsilon": "; ".join(
                f"n = {n}: {fraction_str(g[0])}..{fraction_str(g[-1])} step "
                f"{fraction_str(g[1] - g[0])}"
                for n, g in grid
            ),
            "scale": scale.value,
            "digits": f"up to {DIGITS} significant, certified",
            "prop7": "mu_2^3 as printed, mu_3 = mean of p(1-p)(p^2+(1-p)^2); prop7_printed: "
            "mu_3 = mean of p(1-p)|1-2p| as printed",
            "delta_2": "1.25 exp(-eps^2 n mu_2/2) (Proposition 7's eps formula solved)",
        },
        notes=(
            "case 2 at n = 10,000: the exact delta would examine 10,000 targets, each an exact "
            "Poisson binomial of 9,999 records; it is left empty",
        ),
    )


# --- Figure 3: eps for delta = 0.01/n against lambda --------------------------------------------

FIG3_GRID = Fraction(1, 10_000)  # eps is searched on multiples of 10^-4
FIG3_TOL = Fraction(1, 10**30)
FIG3_COLUMNS = ("n", "lambda", "delta_target", "epsilon", "epsilon_below", "reason")


def fig3_grid(scale: Scale) -> tuple[list[int], list[Fraction]]:
    """The n and λ of Fig. 3: n = 100, 1000, 10000 (the paper's n are lost), λ from 0.025 to 0.45.

    Args:
        scale: the figure scale (quick: n = 100, 1000 and three λ).

    Returns:
        ``(ns, lambdas)``.

    References:
        Desfontaines et al., Section 4.1, Figure 3.
    """
    if scale is Scale.QUICK:
        return [100, 1000], [Fraction(1, 10), Fraction(1, 4), Fraction(2, 5)]  # evenly spaced
    lams = [Fraction(1, 40), Fraction(1, 20)] + [Fraction(k, 20) for k in range(2, 10)]
    return [100, 1000, 10_000], lams


def fig3_points(scale: Scale) -> list[tuple[int, Fraction]]:
    """One point per (n, λ).

    Args:
        scale: the figure scale.

    Returns:
        The list of ``(n, lambda)`` arguments.

    References:
        Desfontaines et al., Section 4.1, Figure 3.
    """
    ns, lams = fig3_grid(scale)
    return [(n, lam) for n in ns for lam in lams]


def fig3_point(args: tuple[int, Fraction]) -> list[dict[str, str]]:
    """The row of one (n, λ), as a one-row list.

    Args:
        args: ``(n, lambda)`` as listed by :func:`fig3_points`.

    Returns:
        ``[fig3_row(n, lambda)]``.

    References:
        Desfontaines et al., Section 4.1, Figure 3.
    """
    return [fig3_row(*args)]


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
            :func:`pdpsym.papers.dmkb2020.blanket.blanket_enclosures`).

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


@figure(
    "dmkb2020.fig3",
    "Theorem 3 (numerical): eps for delta = 0.01/n against lambda",
    fig3_points,
    fig3_point,
    columns=FIG3_COLUMNS,
    plot=Plot(
        x="lambda",
        lines=(Line("epsilon", "eps (delta = 0.01/n)"),),
        xlabel="lambda",
        ylabel="epsilon",
        group="n",
        logy=True,
    ),
)
def fig3(scale: Scale) -> Text:
    """The words of Fig. 3: title, caption and parameters.

    References:
        Desfontaines et al., Section 4.1, Figure 3.
    """
    ns, lams = fig3_grid(scale)
    return Text(
        title="Theorem 3 (numerical): eps for delta = 0.01/n against lambda",
        caption=(
            "The smallest eps on the grid of multiples of 10^-4 at which Theorem 3's numerical "
            "bound E_N[delta_N(eps)] (N ~ Bin(n-1, 2 lambda), delta_N the curve of "
            "Bin(N, 1/2) + 1 against Bin(N, 1/2)) is certified <= 0.01/n; epsilon_below = "
            "epsilon - 10^-4, where the bound is certified > 0.01/n, so the exact eps lies "
            "in (epsilon_below, epsilon]. Empty where no eps reaches the target "
            "((1-lambda)^(n-1) >= 0.01/n). The paper's values of n are lost; n = 100, 1000 "
            "and 10,000 are shown."
        ),
        params={
            "n": ",".join(map(str, ns)),
            "lambda": ",".join(fraction_str(x) for x in lams),
            "delta": "1/(100 n)",
            "epsilon_grid": "multiples of 1/10000",
        },
    )


# --- Figure 6: Theorem 3 (numerical) with two-sided geometric noise ---------------------------

FIG6_LAM = Fraction(1, 20)
FIG6_NOISE: tuple[Fraction | None, ...] = (None, Fraction(1, 2), Fraction(3, 4))
FIG6_COLUMNS = ("noise", "epsilon", "delta", "delta_upper", "digits", "reason")


def fig6_n(scale: Scale) -> int:
    """The number of records of Fig. 6: 10,000 (paper) or 1000 (quick).

    Args:
        scale: the figure scale.

    Returns:
        n.

    References:
        Desfontaines et al., Section 5.2, Figure 6 (n = 10,000).
    """
    return 10_000 if scale is Scale.PAPER else 1000


def fig6_eps(scale: Scale) -> list[Fraction]:
    """40 points ``eps = k/50``, ``k = 1..40`` (``0.02..0.8``); 8 at quick scale.

    Args:
        scale: the figure scale.

    Returns:
        The exact values of ε, increasing.

    References:
        Desfontaines et al., Section 5.2, Figure 6 (its ε range is lost; this grid is
        ours).
    """
    step = 1 if scale is Scale.PAPER else 5
    return [Fraction(k, 50) for k in range(step, 41, step)]


def _noise_name(p: Fraction | None) -> str:
    return "none" if p is None else f"geometric p = {fraction_str(p)}"


def fig6_points(scale: Scale) -> list[tuple[int, Fraction | None, tuple[Fraction, ...]]]:
    """One point per noise level (none, p = 1/2, p = 3/4), each a whole curve.

    Args:
        scale: the figure scale.

    Returns:
        The list of ``(n, p, eps values)`` arguments (p None: no noise).

    References:
        Desfontaines et al., Section 5.2, Figure 6 and Definition 19.
    """
    return [(fig6_n(scale), p, tuple(fig6_eps(scale))) for p in FIG6_NOISE]


def fig6_point(args: tuple[int, Fraction | None, tuple[Fraction, ...]]) -> list[dict[str, str]]:
    """One curve of Fig. 6: E_N[delta_N(eps)] for every ε, with or without the noise.

    Args:
        args: ``(n, p, eps values)`` as listed by :func:`fig6_points`.

    Returns:
        One row per ε: ``delta`` holds only the digits the certified enclosure fixes (or
        the exact value), ``delta_upper`` the enclosure's upper end rounded up.

    References:
        Desfontaines et al., Section 5.2, Figure 6 and Definition 19; Section 4.1,
        Theorem 3 (the numerical bound).
    """
    n, p, eps_list = args
    rows = []
    for eps, enc in zip(eps_list, blanket_enclosures(n, FIG6_LAM, eps_list, p), strict=True):
        text, digits = (
            (fraction_str(enc.lo), "exact")
            if enc.lo == enc.hi
            else (lambda t: (t[0], str(t[1])))(enclosure_decimal(enc.lo, enc.hi, DIGITS))
        )
        reason = ""
        if enc.lo == enc.hi == 0:
            reason = "e^eps >= 1/p: the geometric noise alone is eps-DP, delta = 0 exactly"
        elif not text:
            reason = "the enclosure certifies no digit; delta_upper is a certified bound"
        rows.append(
            {
                "noise": _noise_name(p),
                "epsilon": fraction_str(eps),
                "delta": text,
                "delta_upper": enc.upper(),
                "digits": digits,
                "reason": reason,
            }
        )
    return list(table(FIG6_COLUMNS, rows))


FIG6_LINES = (Line("delta_upper", "delta"),)


@figure(
    "dmkb2020.fig6",
    "Theorem 3 (numerical) with and without two-sided geometric noise",
    fig6_points,
    fig6_point,
    columns=FIG6_COLUMNS,
    plot=Plot(
        x="epsilon", lines=FIG6_LINES, xlabel="epsilon", ylabel="delta", group="noise", logy=True
    ),
)
def fig6(scale: Scale) -> Text:
    """The words of Fig. 6: title, caption and parameters.

    References:
        Desfontaines et al., Section 5.2, Figure 6.
    """
    n = fig6_n(scale)
    return Text(
        title=f"Theorem 3 (numerical), n = {n}, lambda = 0.05, with geometric noise",
        caption=(
            f"Theorem 3's numerical bound E_N[delta_N(eps)], N ~ Bin(n-1, 2 lambda), n = {n}, "
            "lambda = 0.05, with delta_N the curve of X + 1 against X, X = Bin(N, 1/2) alone "
            "or plus two-sided geometric noise P[G = k] = (1-p)/(1+p) p^|k| (Definition 19), "
            "p = 0.5 and 0.75, combined by convolution. delta holds only the digits that a "
            "certified enclosure fixes (digits says how many); delta_upper is the enclosure's "
            "upper end rounded up. With noise delta = 0 once eps >= ln(1/p)."
        ),
        params={
            "n": str(n),
            "lambda": "1/20",
            "noise_p": "1/2,3/4",
            "epsilon": "k/50, k = 1..40" if scale is Scale.PAPER else "k/50, k = 5,10,..,40",
            "window": "N with all but < 1e-60 of Bin(n-1, 2 lambda)'s mass (added to the "
            "upper end)",
            "noise_cut": "G cut to [-K, K], cut mass 2 p^(K+1)/(1+p) < 1e-60 (in the enclosure)",
            "precision": f"{PREC}-bit arb balls",
        },
    )

"""Desfontaines et al.'s figures of the counting mechanism with known records and noise, as
certified data (see :mod:`pdpsym.claims.figure`).

* Fig. 5 (Section 5): Theorem 3's closed-form ``eps`` for ``delta = 10^-10``, ``lambda = 0.05``,
  ``n = 10^5`` against the number of known records ``|B|``, without noise and with Laplace
  noise of scale 2 on the count (which alone is ``1/2``-DP, so ``eps`` is capped at 1/2).
* Fig. 6 (Section 5): Theorem 3 computed numerically with two-sided geometric noise on the
  count, certified ``delta`` against ``eps``.
"""

from __future__ import annotations

from fractions import Fraction

from pdpsym.claims.figure import (
    FigureSpec,
    Line,
    Multiples,
    Plot,
    Scale,
    Text,
    Words,
    figure,
    table,
)
from pdpsym.core.compare import compare
from pdpsym.core.decimals import enclosure_decimal
from pdpsym.core.numbers import fraction_str
from pdpsym.papers.dmkb2020 import counting as pc
from pdpsym.papers.dmkb2020 import figure_cells
from pdpsym.papers.dmkb2020.theorem3_bound import PREC, blanket_enclosures

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
    return [
        {
            "known": str(known),
            "epsilon": figure_cells.dec(eps),
            "epsilon_with_laplace": figure_cells.dec(noisy),
        }
    ]


FIG5_LINES = (
    Line("epsilon", "no noise"),
    Line("epsilon_with_laplace", "Laplace(2) noise", dashed=True),
)


FIG5 = FigureSpec(
    "dmkb2020.fig5",
    "Theorem 3: eps against the known records, with and without noise",
    fig5_points,
    fig5_point,
    Words(
        "Theorem 3 (closed form): eps against |B|, with and without Laplace noise",
        "eps = max(sqrt(14 ln(1/delta)/(lambda(n-|B|-1))), 27/(lambda(n-|B|-1))) for the "
        "n - |B| unknown records, delta = 1e-10, lambda = 0.05, n = 100,000; with Laplace "
        "noise of scale 2 on the count the guarantee is min(eps, 1/2).",
        {"n": str(FIG5_N), "lambda": "1/20", "delta": "1e-10", "laplace_scale": "2"},
    ),
    columns=("known", "epsilon", "epsilon_with_laplace"),
    plot=Plot("known", FIG5_LINES, "records known to the attacker |B|", "epsilon", logy=True),
).register()


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


#: Fig. 6's ε: 40 points ``k/50``, ``k = 1..40`` (``0.02..0.8``); 8 (``k/10``) at quick scale.
#: Desfontaines et al., Section 5.2, Figure 6: its ε range is lost; this grid is ours.
fig6_eps = Multiples(paper=(Fraction(1, 50), 1, 40), quick=(Fraction(1, 10), 1, 8))


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
            else (lambda t: (t[0], str(t[1])))(
                enclosure_decimal(enc.lo, enc.hi, figure_cells.DIGITS)
            )
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

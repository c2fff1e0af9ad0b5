"""The figure ``correlated.calibration`` (not one of the papers'): the Laplace scale a
symmetric binary Markov chain needs for eps = 1, against its stay probability, by exact
calibration (Li et al. Eq. 2, every record a target), the Markov Quilt Mechanism
(MQMExact and MQMApprox, Song, Wang, Chaudhuri, SIGMOD 2017) and group DP.

Every value is certified: the calibrated scale is an enclosure of relative width at most
1e-12 (:func:`pdpsym.audit.calibrate.calibrate`); the baselines' scales are exact
expressions, and the leakage each actually gives is Eq. 2 at that scale.
"""

from __future__ import annotations

from fractions import Fraction

from pdpsym.audit.calibrate import calibrate
from pdpsym.claims.figure import Line, Plot, Scale, Text, figure
from pdpsym.models.markov import MarkovChain

COLUMNS = (
    "stay",
    "exact_scale",
    "mqm_exact_scale",
    "mqm_approx_scale",
    "group_dp_scale",
    "mqm_exact_leakage",
    "mqm_approx_leakage",
    "group_dp_leakage",
)
#: the figure's lines: the calibrated scale, then the baselines' (dashed)
LINES = (
    Line("exact_scale", "exact calibration (Eq. 2)"),
    Line("mqm_exact_scale", "Markov Quilt Mechanism (exact)", dashed=True),
    Line("mqm_approx_scale", "Markov Quilt Mechanism (approx)", dashed=True),
    Line("group_dp_scale", "group DP", dashed=True),
)
STAYS = ("1/2", "3/5", "7/10", "4/5", "17/20", "9/10", "19/20", "97/100", "99/100")
QUICK_STAYS = ("1/2", "7/10", "9/10", "99/100")


def calibration_plot(xlabel: str, ylabel: str) -> Plot:
    """The plot of a calibration figure: :data:`LINES` against the stay probability, log y.

    Args:
        xlabel: the x axis's label (which chain's stay probability).
        ylabel: the y axis's label (which scale).

    Returns:
        The figure's plot.

    References:
        Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 6.
    """
    return Plot(x="stay", lines=LINES, xlabel=xlabel, ylabel=ylabel, logy=True)


def _length(scale: Scale) -> int:
    return 100 if scale == Scale.PAPER else 12


def points(scale: Scale) -> list[tuple[int, str]]:
    """One point per stay probability.

    Args:
        scale: the figure's scale (paper: T = 100; quick: T = 12).

    Returns:
        ``(T, stay)`` pairs.

    References:
        Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 6 (symmetric binary chains).
    """
    stays = STAYS if scale == Scale.PAPER else QUICK_STAYS
    return [(_length(scale), s) for s in stays]


def point(args: tuple[int, str]) -> list[dict[str, str]]:
    """One row: the calibrated scale and each baseline's scale and leakage.

    Args:
        args: ``(T, stay)``.

    Returns:
        One row of the figure's columns (certified decimals).

    References:
        Li et al. (2019), Eq. 2; Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 5.
    """
    T, stay_text = args
    stay = Fraction(stay_text)
    chain = MarkovChain(["0", "1"], T, "stationary", [[stay, 1 - stay], [1 - stay, stay]])
    cal = calibrate(chain, Fraction(1))
    return [{"stay": str(float(stay)), **cal.scale_columns(12)}]


@figure(
    "correlated.calibration",
    "Correlated records: the Laplace scale for eps = 1 against the stay probability",
    points,
    point,
    columns=COLUMNS,
    plot=calibration_plot(
        "stay probability of the symmetric binary chain", "Laplace scale for eps = 1"
    ),
)
def describe(scale: Scale) -> Text:
    """The figure's title, caption and parameters.

    References:
        Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 6.
    """
    T = _length(scale)
    return Text(
        title=f"Laplace scale for eps = 1, symmetric binary chain of {T} records",
        caption=(
            "The smallest scale at which every record's Eq. 2 leakage (the Pufferfish "
            "leakage of x_i = 0 against x_i = 1 under the chain's own law) is at most 1, "
            "next to the scales of the Markov Quilt Mechanism (MQMExact, and MQMApprox "
            "from the eigengap of P P*) and of group DP (T / eps), and the leakage those "
            "scales actually give. Stationary start; "
            "transition rows are from-states."
        ),
        params={"T": str(T), "eps": "1", "query": "count of ones", "start": "stationary"},
    )


__all__ = ["COLUMNS", "LINES", "calibration_plot", "describe", "point", "points"]

"""The figure ``correlated.calibration`` (not one of the papers'): the Laplace scale a
symmetric binary Markov chain needs for eps = 1, against its stay probability, by exact
calibration (Li et al. Eq. 2, every record a target), the Markov Quilt Mechanism
(MQMExact and MQMApprox, Song, Wang, Chaudhuri, SIGMOD 2017) and group DP.

Every value is certified: the calibrated scale is an enclosure of relative width at most
1e-12 (:func:`pdpsym.audit.calibrate.calibrate`); the baselines' scales are exact
expressions, and the leakage each actually gives is Eq. 2 at that scale.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pdpsym.audit.calibrate import calibrate
from pdpsym.audit.calibration import Calibration
from pdpsym.claims.figure import FigureSpec, Line, Plot, Scale, Text
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


@dataclass(frozen=True)
class StayScan:
    """The points and words of a calibration figure: one chain length per scale, one
    point per stay probability; the title (with ``{T}``), caption and parameters (after
    ``T``) are data."""

    paper_length: int
    quick_length: int
    stays: tuple[str, ...]
    quick_stays: tuple[str, ...]
    title: str
    caption: str
    params: dict[str, str]

    def length(self, scale: Scale) -> int:
        """The chain's number of records at ``scale``."""
        return self.paper_length if scale == Scale.PAPER else self.quick_length

    def points(self, scale: Scale) -> list[tuple[int, str]]:
        """One point per stay probability.

        Args:
            scale: the figure's scale.

        Returns:
            ``(T, stay)`` pairs.

        References:
            Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 6 (symmetric chains).
        """
        stays = self.stays if scale == Scale.PAPER else self.quick_stays
        return [(self.length(scale), s) for s in stays]

    def describe(self, scale: Scale) -> Text:
        """The figure's title, caption and parameters at ``scale``.

        Args:
            scale: the figure's scale.

        Returns:
            The figure's :class:`Text`.

        References:
            Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 6.
        """
        T = self.length(scale)
        return Text(self.title.format(T=T), self.caption, {"T": str(T), **self.params})


@dataclass(frozen=True)
class StayPoint:
    """A figure's point (picklable when its fields are module-level functions): the chain
    of ``T`` records at a stay probability, calibrated for eps = 1, as one row of
    :data:`COLUMNS`."""

    chain: Callable[[int, Fraction], Any]
    calibrate: Callable[[Any, Fraction], Calibration]

    def __call__(self, args: tuple[int, str]) -> list[dict[str, str]]:
        """One row: the calibrated scale and each baseline's scale and leakage.

        Args:
            args: ``(T, stay)``.

        Returns:
            One row of the figure's columns (certified decimals).

        References:
            Li et al. (2019), Eq. 2; Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 5-6.
        """
        T, stay_text = args
        stay = Fraction(stay_text)
        cal = self.calibrate(self.chain(T, stay), Fraction(1))
        return [{"stay": str(float(stay)), **cal.scale_columns(12)}]


def calibration_figure(
    figure_id: str, title: str, scan: StayScan, point: StayPoint, axes: tuple[str, str]
) -> FigureSpec:
    """Register a calibration figure: :data:`COLUMNS` at the points of ``scan``, plotted
    as :data:`LINES` against the stay probability, log y.

    Args:
        figure_id: the figure's id.
        title: the one-line title the figure list shows.
        scan: the figure's chain lengths, stay probabilities and words.
        point: computes one point's row.
        axes: the x axis's label (which chain's stay probability) and the y axis's
            (which scale).

    Returns:
        The registered figure.

    References:
        Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 6.
    """
    xlabel, ylabel = axes
    plot = Plot(x="stay", lines=LINES, xlabel=xlabel, ylabel=ylabel, logy=True)
    spec = FigureSpec(figure_id, title, scan.points, point, scan.describe, COLUMNS, plot)
    return spec.register()


def binary_chain(T: int, stay: Fraction) -> MarkovChain:
    """The symmetric binary chain: stay with ``stay``, else flip.

    Args:
        T: the number of records.
        stay: the stay probability.

    Returns:
        The chain (stationary start).

    References:
        Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 6 (symmetric binary chains).
    """
    return MarkovChain(["0", "1"], T, "stationary", [[stay, 1 - stay], [1 - stay, stay]])


#: the binary chain's figure: T = 100 (paper) or 12 (quick)
SCAN = StayScan(
    100,
    12,
    STAYS,
    QUICK_STAYS,
    title="Laplace scale for eps = 1, symmetric binary chain of {T} records",
    caption=(
        "The smallest scale at which every record's Eq. 2 leakage (the Pufferfish "
        "leakage of x_i = 0 against x_i = 1 under the chain's own law) is at most 1, "
        "next to the scales of the Markov Quilt Mechanism (MQMExact, and MQMApprox "
        "from the eigengap of P P*) and of group DP (T / eps), and the leakage those "
        "scales actually give. Stationary start; "
        "transition rows are from-states."
    ),
    params={"eps": "1", "query": "count of ones", "start": "stationary"},
)
point = StayPoint(binary_chain, calibrate)
FIGURE = calibration_figure(
    "correlated.calibration",
    "Correlated records: the Laplace scale for eps = 1 against the stay probability",
    SCAN,
    point,
    ("stay probability of the symmetric binary chain", "Laplace scale for eps = 1"),
)


__all__ = [
    "COLUMNS",
    "FIGURE",
    "LINES",
    "SCAN",
    "StayPoint",
    "StayScan",
    "binary_chain",
    "calibration_figure",
    "point",
]

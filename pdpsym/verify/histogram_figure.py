"""The figure ``correlated.histogram`` (not one of the papers'): the per-bin Laplace scale
the histogram of a symmetric 4-state Markov chain needs for eps = 1, against its stay
probability, by exact calibration (Li et al. Eq. 2 on the histogram, every record a
target), the Markov Quilt Mechanism (MQMExact and MQMApprox, Song, Wang, Chaudhuri,
SIGMOD 2017, with their histogram's ``Lap(2 sigma_max)`` per bin) and group DP
(``2T/eps`` per bin).

Every value is certified: the calibrated scale is an enclosure of relative width at most
1e-12 (:func:`pdpsym.audit.calibrate.calibrate` with ``query="histogram"``); the baselines'
scales are exact expressions, and the leakage each actually gives is Eq. 2 at that scale.
The grid of outputs has ``(T + 1)^4`` points per law; the chain is invariant under every
relabelling of its states, so each target's four laws are one law with two bins swapped
(:func:`pdpsym.loss.histogram_symmetry.relabellings`) and one float grid is screened per target
and scale, not four. Each calibration bisects on a few kept grid points and screens each
target's grid about four times (the safe start, the bracket's upper end, MQMExact's and
MQMApprox's scales; :mod:`pdpsym.audit.calibrate_histogram`); the chain has every
relabelling, so each screen reads the sorted outputs only
(:mod:`pdpsym.loss.histogram_orbits`), and the passes share one set of grid arrays and
the exact laws (computed once, they do not depend on the scale). The paper scale is a
chain of 100 records, the size of Song et al.'s experiments (``101^4 = 10^8`` outputs,
0.8 GB an array): about 280 s of CPU and 4.6 GB a point (597 s and 6.1 GB before the laws
were kept, about 19 minutes and 10 GB before the sorted outputs), eight points about 40
minutes of CPU, above the default work limit, so the figure with no ``--scale`` draws the
quick version (5 records) and names the ``--max-work`` the paper scale needs.
"""

from __future__ import annotations

from fractions import Fraction

from pdpsym.audit.calibrate import calibrate
from pdpsym.audit.calibration import Calibration
from pdpsym.models.markov import MarkovChain
from pdpsym.verify.correlated_figure import COLUMNS, StayPoint, StayScan, calibration_figure

STATES = 4
STAYS = ("1/4", "2/5", "1/2", "3/5", "7/10", "4/5", "9/10", "19/20")
QUICK_STAYS = ("1/4", "1/2", "9/10")
#: the records of the paper scale (100 records: about 5 minutes of CPU a point, see above)
PAPER_T = 100


def chain(T: int, stay: Fraction) -> MarkovChain:
    """The symmetric chain on four states: stay with ``stay``, else move uniformly.

    Args:
        T: the number of records.
        stay: the stay probability.

    Returns:
        The chain (stationary start: uniform).

    References:
        Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 6 (activity chains).
    """
    move = (1 - stay) / (STATES - 1)
    rows = [[stay if i == j else move for j in range(STATES)] for i in range(STATES)]
    return MarkovChain(["a", "b", "c", "d"], T, "stationary", rows)


#: the 4-state chain's figure: T = 100 (paper) or 5 (quick)
SCAN = StayScan(
    PAPER_T,
    5,
    STAYS,
    QUICK_STAYS,
    title="Per-bin Laplace scale of the histogram for eps = 1, 4-state chain of {T} records",
    caption=(
        "The smallest per-bin scale at which every record's Eq. 2 leakage for the "
        "histogram of the states (the Pufferfish leakage of any two values of x_i under "
        "the chain's own law) is at most 1, next to the Markov Quilt Mechanism's "
        "2 sigma_max (MQMExact, and MQMApprox from the eigengap of P P*) and group DP's "
        "2T / eps, and the leakage those scales actually give. The chain stays with the "
        "given probability and otherwise moves to one of the other three states "
        "uniformly; stationary (uniform) start."
    ),
    params={"k": "4", "eps": "1", "query": "histogram", "start": "stationary"},
)


def histogram_at(model: MarkovChain, eps: Fraction) -> Calibration:
    """The histogram's calibration of ``model`` for ``eps`` (every target, no known record).

    Args:
        model: the chain.
        eps: the leakage bound.

    Returns:
        :func:`~pdpsym.audit.calibrate.calibrate` of the histogram query.

    References:
        Li et al. (2019), Eq. 2; Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 6.
    """
    return calibrate(model, eps, query="histogram")


point = StayPoint(chain, histogram_at)
FIGURE = calibration_figure(
    "correlated.histogram",
    "Correlated records: the histogram's per-bin scale for eps = 1 against the stay probability",
    SCAN,
    point,
    ("stay probability of the symmetric 4-state chain", "per-bin Laplace scale for eps = 1"),
)


__all__ = ["COLUMNS", "FIGURE", "SCAN", "chain", "point"]

"""Liu, Chakraborty, Mittal: one function per labelled result whose engine has another name.

References:
    Liu, Chakraborty, Mittal (2016), "Dependence makes you vulnerable: differential privacy
    under dependent tuples", Sections IV-V.
"""

from __future__ import annotations

from typing import Any

from pdpsym.papers.lmm2016 import laplace, mechanism


def theorem4_parallel(*mechs: Any) -> Any:
    """Theorem 4: the pair of mechanisms on (disjoint) subsets, run with independent coins.

    Args:
        *mechs: finite mechanisms, each reading its own subset of the tuples.

    Returns:
        The composed mechanism, whose DDP level Theorem 4 bounds.

    References:
        Section IV-C, Theorem 4.
    """
    return mechanism.sequential(*mechs)


def theorem7_baseline_mechanism(*args: Any, **kwargs: Any) -> Any:
    """Theorem 7: the baseline mechanism ``Q + Lap(L ΔQ / ε)``.

    Args:
        *args: as :func:`pdpsym.papers.lmm2016.laplace.baseline_mechanism`.
        **kwargs: as :func:`pdpsym.papers.lmm2016.laplace.baseline_mechanism`.

    Returns:
        The mechanism.

    References:
        Section V, Theorem 7.
    """
    return laplace.baseline_mechanism(*args, **kwargs)

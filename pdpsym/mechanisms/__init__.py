"""Mechanisms: what is released about a database.

* finite mechanisms, exact PMFs over outputs for every database
  (:mod:`~pdpsym.mechanisms.finite`, named kinds in :mod:`~pdpsym.mechanisms.discrete`:
  :func:`table`, :func:`count`, :func:`threshold`, :func:`histogram`,
  :func:`randomized_response`);
* Laplace noise on a linear query (:class:`LinearQuery`; Li et al. Eq. 1-2), two-sided
  geometric noise, and the counting, thresholding and k-anonymity mechanisms of
  Desfontaines et al. Section 4 (:mod:`~pdpsym.mechanisms.counting`,
  :mod:`~pdpsym.mechanisms.thresholding`, :mod:`~pdpsym.mechanisms.kanonymity`).
"""

from pdpsym.mechanisms.discrete import (
    count,
    geometric,
    histogram,
    randomized_response,
    table,
    threshold,
)
from pdpsym.mechanisms.finite import BOTTOM, Mechanism, compose, mixture, post_process
from pdpsym.mechanisms.laplace import LaplaceNoise, LinearQuery, laplace

__all__ = [
    "BOTTOM",
    "LaplaceNoise",
    "LinearQuery",
    "Mechanism",
    "compose",
    "count",
    "geometric",
    "histogram",
    "laplace",
    "mixture",
    "post_process",
    "randomized_response",
    "table",
    "threshold",
]

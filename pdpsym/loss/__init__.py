"""Privacy-loss engines: one interface (:class:`PrivacyLoss`, δ(ε) and ε(δ)) and its families.

* :class:`PMFPair` -- a pair of finite PMFs (and weighted sums of pairs);
* :class:`LaplacePair` -- a pair of Laplace mixtures (closed-form δ(ε));
* :class:`GeometricPair` -- a pair of two-sided geometric mixtures;
* :class:`Weighted`, :class:`WorstCase` / :func:`worst_case` -- ``Σ w_k loss_k`` and the
  maximum over a notion's cases.
"""

from pdpsym.loss.base import LossPoint, PrivacyLoss, Weighted, WorstCase, worst_case
from pdpsym.loss.geometric_pair import GeometricPair
from pdpsym.loss.laplace_pair import LaplacePair
from pdpsym.loss.pmf_pair import PMFPair

__all__ = [
    "GeometricPair",
    "LaplacePair",
    "LossPoint",
    "PMFPair",
    "PrivacyLoss",
    "Weighted",
    "WorstCase",
    "worst_case",
]

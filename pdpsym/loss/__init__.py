"""Privacy-loss engines: one interface (:class:`PrivacyLoss`, δ(ε) and ε(δ)) and its families.

* :class:`PMFPair` -- a pair of finite PMFs (and weighted sums of pairs);
* :class:`LaplacePair` -- a pair of Laplace mixtures (closed-form δ(ε));
* :class:`GeometricPair` -- a pair of two-sided geometric mixtures;
* :class:`CountingLoss`, :class:`ThresholdingLoss` -- the closed-form counting and
  thresholding laws (Desfontaines et al. 4.1-4.2);
* :class:`KAnonymityLoss` -- the histogram and the k-anonymity mechanism (4.3);
* :class:`GeometricConvolutionLoss` -- a count plus two-sided geometric noise (Def. 19);
* :class:`Weighted`, :class:`WorstCase` / :func:`worst_case` -- ``Σ w_k loss_k`` and the
  maximum over a notion's cases.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names load on first use: `pdpsym.loss.count_leakage` needs no sympy
    from pdpsym.loss.base import LossPoint, PrivacyLoss, Weighted, WorstCase, worst_case
    from pdpsym.loss.counting_loss import CountingLoss
    from pdpsym.loss.geometric_convolution import GeometricConvolutionLoss
    from pdpsym.loss.geometric_pair import GeometricPair
    from pdpsym.loss.kanonymity_loss import KAnonymityLoss
    from pdpsym.loss.laplace_pair import LaplacePair
    from pdpsym.loss.pmf_pair import PMFPair
    from pdpsym.loss.thresholding_loss import ThresholdingLoss

_LAZY: dict[str, str] = {
    "LossPoint": "pdpsym.loss.base",
    "PrivacyLoss": "pdpsym.loss.base",
    "Weighted": "pdpsym.loss.base",
    "WorstCase": "pdpsym.loss.base",
    "worst_case": "pdpsym.loss.base",
    "CountingLoss": "pdpsym.loss.counting_loss",
    "GeometricConvolutionLoss": "pdpsym.loss.geometric_convolution",
    "GeometricPair": "pdpsym.loss.geometric_pair",
    "KAnonymityLoss": "pdpsym.loss.kanonymity_loss",
    "LaplacePair": "pdpsym.loss.laplace_pair",
    "PMFPair": "pdpsym.loss.pmf_pair",
    "ThresholdingLoss": "pdpsym.loss.thresholding_loss",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pdpsym.loss' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [
    "CountingLoss",
    "GeometricConvolutionLoss",
    "GeometricPair",
    "KAnonymityLoss",
    "LaplacePair",
    "LossPoint",
    "PMFPair",
    "PrivacyLoss",
    "ThresholdingLoss",
    "Weighted",
    "WorstCase",
    "worst_case",
]

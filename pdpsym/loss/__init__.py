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

if TYPE_CHECKING:  # the names below load on first use (see __getattr__)
    from pdpsym.loss.base import LossPoint, PrivacyLoss, Weighted, WorstCase, worst_case
    from pdpsym.loss.counting_loss import CountingLoss
    from pdpsym.loss.geometric_convolution import GeometricConvolutionLoss
    from pdpsym.loss.geometric_pair import GeometricPair
    from pdpsym.loss.kanonymity_loss import KAnonymityLoss
    from pdpsym.loss.laplace_pair import LaplacePair
    from pdpsym.loss.pmf_pair import PMFPair
    from pdpsym.loss.thresholding_loss import ThresholdingLoss

_LAZY: dict[str, str] = {
    **dict.fromkeys(
        ("LossPoint", "PrivacyLoss", "Weighted", "WorstCase", "worst_case"), "pdpsym.loss.base"
    ),
    "CountingLoss": "pdpsym.loss.counting_loss",
    "GeometricConvolutionLoss": "pdpsym.loss.geometric_convolution",
    "GeometricPair": "pdpsym.loss.geometric_pair",
    "KAnonymityLoss": "pdpsym.loss.kanonymity_loss",
    "LaplacePair": "pdpsym.loss.laplace_pair",
    "PMFPair": "pdpsym.loss.pmf_pair",
    "ThresholdingLoss": "pdpsym.loss.thresholding_loss",
}


def __getattr__(name: str) -> Any:
    # PEP 562: importing one engine (laplace_mixture, for the batch WHG) does not load
    # the others, which bring sympy
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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

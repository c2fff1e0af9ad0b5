"""Li, Ren, Yang, Yang, "Impact of Prior Knowledge and Data Correlation on Privacy
Leakage: A Unified Analysis" (prior differential privacy, PDP).

* :mod:`~pdpsym.loss.leakage` -- Sec. IV, Eq. 2-4: the leakage of a Laplace-noised
  linear query to the adversary ``A(i, K)`` (:mod:`~pdpsym.loss.adversary`),
  exactly, with its witness;
* :mod:`~pdpsym.papers.li2019.theorems` -- Sec. IV: Eq. 3, Remark 1, Theorems 1 and 4;
* :mod:`~pdpsym.papers.li2019.edges` -- Sec. V, Eq. 9-13: WHG edges, Theorems 2-3;
  :mod:`~pdpsym.papers.li2019.edge_tables` (every ``W_ij`` at once) and
  :mod:`~pdpsym.papers.li2019.correlation` (conditional Pearson sign, Lemma 3);
* :mod:`~pdpsym.papers.li2019.whg` -- Sec. V: the chain rule (Theorem 5, Eq. 14), the
  full and fast searches (Sec. V-D, Algorithms 1-2) and the certified batch;
* :mod:`~pdpsym.loss.gaussian` -- Sec. VI: the Gaussian model's leakage (Lemma 1,
  Theorem 6, Corollary 2; a generic engine the labels point at) and :mod:`~pdpsym.papers.li2019.gaussian_density` (Lemma 2, Eq. 19);
* :mod:`~pdpsym.papers.li2019.examples`, :mod:`~pdpsym.papers.li2019.experiments` --
  Examples 2-4 and Section VII.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from pdpsym.papers import Labels

if TYPE_CHECKING:  # the submodules and LABELS load on first use (see __getattr__)
    from pdpsym.papers.li2019 import correlation as correlation
    from pdpsym.papers.li2019 import edges as edges
    from pdpsym.papers.li2019 import labels as labels
    from pdpsym.papers.li2019 import theorems as theorems
    from pdpsym.papers.li2019 import whg as whg

    LABELS: Labels

_SUBMODULES = ("correlation", "edges", "labels", "theorems", "whg")


def _labels() -> Labels:
    """label -> (function, claim id)."""
    from pdpsym.loss import gaussian  # the engines behind the labels: on first use
    from pdpsym.loss import leakage as eq2  # the engines behind the labels: on first use
    from pdpsym.papers.li2019 import (  # the engines behind the labels: sympy, on first use
        correlation,
        edges,
        labels,
        theorems,
        whg,
    )

    return {
        "Eq. 2": (eq2.leakage, "li2019.breakpoints"),
        "Eq. 3": (theorems.bayes_identity_holds, "li2019.eq3"),
        "Remark 1": (theorems.group_dp_bound, "li2019.remark1"),
        "Theorem 1": (theorems.theorem1_value, "li2019.thm1"),
        "Theorem 2": (edges.theorem2_step, "li2019.thm2"),
        "Theorem 3": (labels.theorem3_increment_ratio, "li2019.thm3.1"),
        "Lemma 3": (correlation.lemma3_sides, "li2019.lemma3"),
        "Theorem 4": (theorems.theorem4_value, "li2019.thm4"),
        "Theorem 5": (labels.theorem5_whg, "li2019.thm5"),
        "Corollary 1": (labels.corollary1_layer_max, "li2019.cor1.2"),
        "Algorithm 1": (whg.full_search, "li2019.fastsearch"),
        "Algorithm 2": (whg.fast_search, "li2019.fastsearch"),
        "Lemma 1": (labels.lemma1_condition, "li2019.lemma1"),
        "Lemma 2": (labels.lemma2_convolution_density, "li2019.lemma2"),
        "Theorem 6": (gaussian.theorem6_value, "li2019.thm6"),
        "Corollary 2": (labels.corollary2_coefficients, "li2019.cor2"),
    }


def __getattr__(name: str) -> Any:
    # PEP 562: importing one engine (the batch WHG of ``pdpsym whg``) does not load the
    # others, which bring sympy; ``li2019.LABELS`` works as before
    if name in _SUBMODULES:
        value: Any = importlib.import_module(f"{__name__}.{name}")
    elif name == "LABELS":
        value = _labels()
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value

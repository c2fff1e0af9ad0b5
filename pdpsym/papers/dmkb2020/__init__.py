"""Desfontaines, Mohammadi, Krahmer, Basin, "Differential Privacy with Partial Knowledge".

* :mod:`~pdpsym.papers.dmkb2020.definitions` -- Sec. 2: NP, CDP, IBCDP and
  distributional DP on correlated data, and normalizations;
* :mod:`pdpsym.loss.plrv` -- Sec. 3: the PLRV, APK and PPK (Definitions 10-13);
* :mod:`~pdpsym.papers.dmkb2020.reducibility` -- Sec. 3.4: Θ-reducibility (Definition
  14, Theorem 2, Proposition 6);
* :mod:`~pdpsym.papers.dmkb2020.counting` -- Sec. 4.1: Theorem 3, Proposition 7,
  Corollary 1;
* :mod:`~pdpsym.papers.dmkb2020.thresholding` -- Sec. 4.2: Theorem 4, Lemma 2;
* :mod:`~pdpsym.papers.dmkb2020.composition` -- Sec. 5: Theorem 6, Proposition 9.
"""

from __future__ import annotations

from pdpsym.loss import plrv
from pdpsym.papers import Labels
from pdpsym.papers.dmkb2020 import (
    composition,
    counting,
    kanonymity,
    labels,
    reducibility,
    thresholding,
)
from pdpsym.proofs import pk_independence

# label -> (function, claim id)
LABELS: Labels = {
    "Definition 12": (plrv.apkdp_delta, "dmkb2020.def12"),
    "Definition 13": (plrv.ppkdp_delta, "dmkb2020.thm1"),
    "Lemma 1": (labels.lemma1_plrv_expectation, "dmkb2020.lemma1"),
    "Proposition 1": (labels.prop1_cdp_ibcdp_ratios, "dmkb2020.prop1"),
    "Proposition 2": (pk_independence.proposition2, "dmkb2020.prop2"),
    "Proposition 3": (labels.prop3_np_ratio, "dmkb2020.prop3"),
    "Proposition 4": (labels.prop4_np_cdp_ratios, "dmkb2020.prop4"),
    "Proposition 5": (labels.prop5_ppkdp_delta, "dmkb2020.prop5"),
    "Theorem 1": (labels.theorem1_apk_ppk_deltas, "dmkb2020.thm1"),
    "Theorem 2": (labels.theorem2_is_reducible, "dmkb2020.thm2"),
    "Definition 14": (reducibility.is_reducible, "dmkb2020.thm2"),
    "Proposition 6": (reducibility.prop6_maps, "dmkb2020.prop6"),
    "Theorem 3": (counting.theorem3_closed_form_delta, "dmkb2020.thm3"),
    "Proposition 7": (counting.prop7_at_eps, "dmkb2020.prop7"),
    "Corollary 1": (labels.cor1_histogram_delta, "dmkb2020.cor1"),
    "Theorem 4": (thresholding.theorem4, "dmkb2020.thm4"),
    "Lemma 2": (thresholding.lemma2_bound, "dmkb2020.lemma2"),
    "Proposition 8": (labels.prop8_ppk_delta, "dmkb2020.prop8"),
    "Theorem 5": (kanonymity.theorem5_corrected, "dmkb2020.thm5"),
    "Theorem 6": (composition.theorem6_identity_holds, "dmkb2020.thm6"),
    "Proposition 9": (labels.prop9_bounded_dependence_nu, "dmkb2020.prop9"),
}

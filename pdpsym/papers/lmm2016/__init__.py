"""Liu, Chakraborty, Mittal, "Dependence Makes You Vulnerable: Differential Privacy Under
Dependent Tuples" (dependent differential privacy, DDP).

* :mod:`~pdpsym.papers.lmm2016.dependence` -- Sec. V: dependence sets and the dependence
  coefficient ρ_ij;
* :mod:`~pdpsym.papers.lmm2016.mechanism` -- Sec. V-VI: the DDP level of a finite
  mechanism (Definition 4, three readings, :class:`~.mechanism.DDPNeighbours`) and
  composition;
* :mod:`~pdpsym.papers.lmm2016.laplace` -- Sec. VI: the DDP level of a Laplace mechanism and
  the baseline mechanism (Theorem 7).
"""

from __future__ import annotations

from pdpsym.papers import Labels
from pdpsym.papers.lmm2016 import dependence, labels, mechanism
from pdpsym.proofs import ddp_composition

# label -> (function, claim id)
LABELS: Labels = {
    "Definition 4": (mechanism.dependent_dp_level, "lmm2016.thm3"),
    "dependence coefficient": (dependence.dependence_coefficient, "lmm2016.rho"),
    "Theorem 3": (ddp_composition.theorem3, "lmm2016.thm3"),
    "Theorem 4": (labels.theorem4_parallel, "lmm2016.thm4"),
    "Theorem 5": (ddp_composition.theorem5, "lmm2016.thm5"),
    "Theorem 6": (ddp_composition.theorem6, "lmm2016.thm6"),
    "Theorem 7": (labels.theorem7_baseline_mechanism, "lmm2016.thm7"),
}

"""pdpsym: exact and certified privacy leakage under correlation and partial knowledge.

Implements and checks, claim by claim:

* Li, Ren, Yang, Yang, "Impact of Prior Knowledge and Data Correlation on Privacy
  Leakage: A Unified Analysis" (prior differential privacy, PDP) -- ``pdpsym.papers.li2019``;
* Desfontaines, Mohammadi, Krahmer, Basin, "Differential privacy with partial
  knowledge" -- ``pdpsym.papers.dmkb2020``;
* Liu, Mittal, Mittal, "Dependence Makes You Vulnerable" -- ``pdpsym.papers.lmm2016``.

Every number is exact (a rational or a sympy expression) or certified (an arb ball
whose stated digits are certain); see ``pdpsym.core``.
"""

from pdpsym.core.errors import InputError

__all__ = ["InputError", "__version__"]
__version__ = "0.1.0"

"""pdpsym: exact and certified privacy leakage under correlation and partial knowledge.

Implements and checks, claim by claim:

* Li, Ren, Yang, Yang, "Impact of Prior Knowledge and Data Correlation on Privacy
  Leakage: A Unified Analysis" (prior differential privacy, PDP) -- ``pdpsym.pdp``;
* Desfontaines, Mohammadi, Krahmer, Basin, "Differential privacy with partial
  knowledge" -- ``pdpsym.partial``;
* Liu, Mittal, Mittal, "Dependence Makes You Vulnerable" -- ``pdpsym.ddp``.

Every number is exact (a rational or a sympy expression) or certified (an arb ball
whose stated digits are certain); see ``pdpsym.exact``.
"""

from pdpsym.errors import InputError

__all__ = ["InputError", "__version__"]
__version__ = "0.1.0"

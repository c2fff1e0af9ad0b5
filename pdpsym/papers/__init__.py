"""The three papers, one package each, named by their claim-id prefix.

* :mod:`pdpsym.papers.li2019` -- Li, Ren, Yang, Yang (prior differential privacy);
* :mod:`pdpsym.papers.dmkb2020` -- Desfontaines, Mohammadi, Krahmer, Basin (partial
  knowledge);
* :mod:`pdpsym.papers.lmm2016` -- Liu, Chakraborty, Mittal (dependent differential privacy).

Each package's ``LABELS`` maps a label of the paper ("Theorem 4", "Eq. 2") to the
function that computes it and the catalogue id of the claim that checks it. The claim
checkers live beside the math (``claims*.py``) and register with
:func:`pdpsym.claims.claim.checker`.
"""

from collections.abc import Callable
from typing import Any

#: a paper's labels: label ("Theorem 4", "Eq. 2") -> (the function that computes it, the
#: catalogue id of the claim that checks it)
Labels = dict[str, tuple[Callable[..., Any], str]]

__all__ = ["Labels"]

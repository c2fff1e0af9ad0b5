"""The number kernel: exact rationals, sympy expressions, certified evaluation.

* :mod:`~pdpsym.core.numbers` -- strict parsing of user numbers into Fractions;
* :mod:`~pdpsym.core.certify` -- arb enclosures raised until the digits are certain;
* :mod:`~pdpsym.core.compare` -- decided comparisons and max, screen-then-decide;
* :mod:`~pdpsym.core.expoly` -- exponential polynomials with an exact zero test.
"""

from pdpsym.core.certify import Certified, certify, enclose, exact_str
from pdpsym.core.compare import Comparison, compare, decided_max, screen_then_decide
from pdpsym.core.expoly import ExpPoly, LogRatio
from pdpsym.core.numbers import fraction_str, parse_positive, parse_rational, to_sympy

__all__ = [
    "Certified",
    "Comparison",
    "ExpPoly",
    "LogRatio",
    "certify",
    "compare",
    "decided_max",
    "enclose",
    "exact_str",
    "fraction_str",
    "parse_positive",
    "parse_rational",
    "screen_then_decide",
    "to_sympy",
]

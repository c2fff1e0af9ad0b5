"""The number kernel: exact rationals, sympy expressions, certified evaluation.

* :mod:`~pdpsym.core.numbers` -- strict parsing of user numbers into Fractions;
* :mod:`~pdpsym.core.certify` -- arb enclosures raised until the digits are certain (the
  only precision-raising loops: :func:`certify`, :func:`decide_sign`, :func:`refine`),
  and the :data:`ExactValue` protocol of exact value types;
* :mod:`~pdpsym.core.balls` -- the ball type, :func:`~pdpsym.core.balls.to_ball` and
  :func:`~pdpsym.core.balls.working_precision` (restores the precision) for engines above core;
* :mod:`~pdpsym.core.compare` -- decided comparisons, max and min, screen-then-decide
  (floats rank, exact comparisons decide);
* :mod:`~pdpsym.core.exp_polynomials` -- exponential polynomials with an exact zero test;
* :mod:`~pdpsym.core.eps` -- the one :class:`Eps`, and ``e^eps`` or infinity.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names below load on first use: errors and numbers stay sympy-free
    from pdpsym.core.certify import (
        Certified,
        ExactValue,
        certify,
        decide_sign,
        enclose,
        exact_str,
        refine,
    )
    from pdpsym.core.compare import (
        Comparison,
        compare,
        decided_argmax,
        decided_argmin,
        decided_max,
        decided_min,
        screen_then_decide,
    )
    from pdpsym.core.eps import Eps, ExpRatio, ratio_log, ratio_max, ratio_of
    from pdpsym.core.exp_polynomials import ExpPoly, LogRatio
    from pdpsym.core.numbers import fraction_str, parse_positive, parse_rational, to_sympy

_LAZY: dict[str, str] = {
    **dict.fromkeys(
        ("Certified", "ExactValue", "certify", "decide_sign", "enclose", "exact_str", "refine"),
        "pdpsym.core.certify",
    ),
    **dict.fromkeys(
        (
            "Comparison",
            "compare",
            "decided_argmax",
            "decided_argmin",
            "decided_max",
            "decided_min",
            "screen_then_decide",
        ),
        "pdpsym.core.compare",
    ),
    **dict.fromkeys(("Eps", "ExpRatio", "ratio_log", "ratio_max", "ratio_of"), "pdpsym.core.eps"),
    **dict.fromkeys(("ExpPoly", "LogRatio"), "pdpsym.core.exp_polynomials"),
    **dict.fromkeys(
        ("fraction_str", "parse_positive", "parse_rational", "to_sympy"), "pdpsym.core.numbers"
    ),
}


class _Core(types.ModuleType):
    """``pdpsym.core.certify`` and ``pdpsym.core.compare`` name functions, as they did when
    this file imported them eagerly: importing the submodule of the same name would
    otherwise bind the module over the function."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("certify", "compare") and isinstance(value, types.ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Core


def __getattr__(name: str) -> Any:
    # PEP 562: `import pdpsym.core.errors` (which the command line needs before it parses
    # a flag) runs this file; sympy and flint load only when a name below is used
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'pdpsym.core' has no attribute {name!r}")


__all__ = [
    "Certified",
    "Comparison",
    "Eps",
    "ExactValue",
    "ExpPoly",
    "ExpRatio",
    "LogRatio",
    "certify",
    "compare",
    "decide_sign",
    "decided_argmax",
    "decided_argmin",
    "decided_max",
    "decided_min",
    "enclose",
    "exact_str",
    "fraction_str",
    "parse_positive",
    "parse_rational",
    "ratio_log",
    "ratio_max",
    "ratio_of",
    "refine",
    "screen_then_decide",
    "to_sympy",
]

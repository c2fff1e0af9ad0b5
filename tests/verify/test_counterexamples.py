"""Counterexamples of refuted and erratum verdicts, re-checked outside the checkers.

Each test rebuilds the counterexample from its JSON and recomputes the disputed
quantity with code that shares nothing with the checker (tests/oracles/eq2_leakage.py: mpmath
brute force, or a hand derivation written here).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from oracles.eq2_leakage import eq2_bruteforce

from pdpsym.models.joint import JointDistribution
from pdpsym.verify import run_claim


def _model(obj: dict) -> JointDistribution:
    return JointDistribution.from_rows(obj["variables"], obj["rows"], obj.get("domains"))


def test_li2019_thm4_counterexample_leaks_one_not_two() -> None:
    cx = run_claim("li2019.thm4").counterexample
    assert cx is not None
    m = _model(cx["model"])
    # Theorem 4 as printed: bottom-layer PL = Delta_i / lam = (2 - 0) / 1 = 2.
    # Brute force (dense r-grid, mpmath): the adversary knowing x2 sees x1 in {0, 1}
    # when x2 = 1 and only x1 = 2 when x2 = 0, so the worst pair differs by 1: PL = 1.
    pl = eq2_bruteforce(m, "x1", ("x2",), Fraction(1))
    assert pl is not None and abs(pl - 1) < mpmath.mpf(10) ** -20
    assert len(m.probs) == 3  # three cells of 1/3

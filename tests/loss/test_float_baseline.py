"""The float64 WHG baseline of benchmarks/ agrees with the certified Eq. 2 values.

The certified values come from pdpsym's exact engine; the baseline shares no code with
it (a numpy generating tensor), so agreement to 1e-12 on every node checks both.
"""

from __future__ import annotations

import itertools
import random
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from float_eq2 import eq2_all_binary  # noqa: E402

from pdpsym.loss.table_leakage import all_adversaries, leakage_all
from pdpsym.models.joint import JointDistribution  # noqa: E402


def test_every_node_agrees_with_the_certified_value() -> None:
    rng = random.Random(5)
    n = 5
    cells = list(itertools.product((0, 1), repeat=n))
    w = [rng.randint(0, 6) for _ in cells]  # zeros: some nodes have no compatible pair
    names = [f"x{k + 1}" for k in range(n)]
    m = JointDistribution.from_rows(names, [[*c, Fraction(x, sum(w))] for c, x in zip(cells, w)])
    P = np.zeros((2,) * n)
    for c, x in zip(cells, w):
        P[c] = x / sum(w)
    L = eq2_all_binary(P, 1.0)
    for adv, res in zip(all_adversaries(m), leakage_all(m, 1), strict=True):
        i = names.index(adv.target)
        others = [v for v in names if v != adv.target]
        mask = sum(1 << others.index(k) for k in adv.known)
        if res.ok:
            assert abs(L[i, mask] - float(res.certified(20).decimal)) < 1e-12, adv
        else:
            assert np.isnan(L[i, mask]), adv

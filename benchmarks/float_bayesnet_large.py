"""The float64 baseline for large networks: ``pdpsym leakage NET.bif --all-targets --lam
LAM [--count NODE,...=STATE]`` in floats, uncertified.

The fastest float path written here: the same float64 junction tree over count
polynomials that pdpsym certifies (``pdpsym.models.bayesnet_float_jtree``: min-fill
clique tree, one upward and one downward pass, numpy broadcast convolutions; a per-target
variable elimination as in ``float_bayesnet.py`` takes minutes on andes), then Eq. 2 in
float64 at the support points (the breakpoint lemma), with no error bound, no balls and
no exact rationals. The ratio of the two whole processes is thus the price of
certifying (the balls of Eq. 2 and the exact reading of the file).

    python benchmarks/float_bayesnet_large.py NET.bif.gz LAM [NODE,...=STATE [--skip-independent]]

``--skip-independent``: the targets d-separated from the counted records print 0 and
are not computed (as pdpsym does; the d-separation search is pdpsym's
``independent_targets``), so the tree holds only what the other targets need.
"""

from __future__ import annotations

import gzip
import itertools
import sys
from fractions import Fraction

import numpy as np

from pdpsym.core import poly
from pdpsym.models import bayesnet_float_jtree
from pdpsym.models.bayesnet import BayesianNetwork
from pdpsym.models.bayesnet_build import independent_targets


def leakage(laws: list[np.ndarray], rate: float) -> float:
    """Eq. 2's sup at the support points, max over ordered pairs of target values."""
    mixes = []
    for law in laws:
        if law.sum() > 0:
            c = np.arange(len(law))
            mixes.append(
                np.log(np.exp(-rate * np.abs(c[:, None] - c[None, :])) @ (law / law.sum()))
            )
    best = -np.inf
    for m1, m2 in itertools.permutations(mixes, 2):
        n = min(len(m1), len(m2))
        best = max(best, float(np.max(m1[:n] - m2[:n])))
    return best


def main(path: str, lam: float, count: str | None, skip: bool = False) -> None:
    text = gzip.open(path, "rt").read() if path.endswith(".gz") else open(path).read()
    net = BayesianNetwork.from_bif_text(text, tolerance=Fraction(1, 10**6), max_work=10**15)
    if count:
        names, state = count.split("=")
        net = net.count_query(names.split(","), state)
    contrib = net.contributions()
    rate = 1 / (lam * contrib.scale)
    best = (-np.inf, "")
    targets = list(net.variables)
    if skip:
        counted = [v for v, row in zip(net.variables, contrib.table, strict=True) if any(row)]
        zeros = set(independent_targets(net.nodes, counted, targets, ()))
        for t in zeros:
            print(f"{t}: 0")
        targets = [t for t in targets if t not in zeros]
    for t, values, _ in bayesnet_float_jtree.network_float_laws(net, targets, {}):
        span = contrib.span + 1
        laws = []
        for v in values.values():
            c = np.array([float(x) for x in poly.coefficients(v[0])] or [0.0])
            laws.append(np.pad(c / max(c.max(), 1e-300), (0, span - len(c))))
        value = leakage(laws, rate)
        print(f"{t}: {value:.12g}")
        best = max(best, (value, t))
    print(f"max: {best[1]}: {best[0]:.12g}")


if __name__ == "__main__":
    main(
        sys.argv[1],
        float(sys.argv[2]),
        sys.argv[3] if len(sys.argv) > 3 else None,
        "--skip-independent" in sys.argv[4:],
    )

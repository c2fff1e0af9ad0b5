"""dmkb2020.ex1 -- Desfontaines et al. 2020 (DP with partial knowledge), Section 2.1, Example 1.

Claim. With a hidden global parameter ``μ = ±1`` (each with probability 1/2) and records
``D(j) = μ + noise`` drawn i.i.d., the mean is not noiseless-private (Definition 3): no
finite ``ε`` works, because the record reveals ``μ`` and the mean follows ``μ``.

Argument (the normal noise discretized to ``±σ``, ``σ = 1/10``, ``n = 3`` records).
1. General step: with bounded noise ``|e| <= σ < 1``, ``D(i) = a`` near +1 forces
   ``μ = 1`` (``a >= 1 - σ > -1 + σ``), and then the mean is ``>= 1 - σ > 0``; near -1 the
   mean is ``<= -1 + σ < 0``. The output laws given ``D(i) = 1 + σ`` and
   ``D(i) = -1 + σ`` have disjoint supports, so the ratio in Definition 3 is infinite.
   (Checked symbolically: ``(1 - σ) - (-1 + σ) = 2(1 - σ) > 0`` for ``0 < σ < 1``.)
2. Exact instance: the joint law of the 16 databases is enumerated with sympy Rationals;
   the mean's law given ``D(0) = 1 + σ`` and given ``D(0) = -1 + σ`` are computed by
   conditioning, and their supports are disjoint (so Definition 3's ratio is ∞ at this
   pair, whatever ``ε``).
"""

from __future__ import annotations

import itertools

import sympy as sp
from spot import run

CLAIM = "dmkb2020.ex1"
R = sp.Rational
N, SIGMA = 3, R(1, 10)


def joint() -> dict[tuple[sp.Rational, ...], sp.Rational]:
    """The law of the database: μ = ±1 (1/2 each), records μ ± σ i.i.d. (1/2 each)."""
    out: dict[tuple[sp.Rational, ...], sp.Rational] = {}
    for mu, es in itertools.product((-1, 1), itertools.product((-SIGMA, SIGMA), repeat=N)):
        d = tuple(mu + e for e in es)
        out[d] = out.get(d, 0) + R(1, 2) / 2**N
    return out


def output_law(i: int, a: sp.Rational) -> dict[sp.Rational, sp.Rational]:
    """The law of the mean given ``D(i) = a``."""
    rows = {d: p for d, p in joint().items() if d[i] == a}
    total = sum(rows.values())
    law: dict[sp.Rational, sp.Rational] = {}
    for d, p in rows.items():
        o = sum(d) / N
        law[o] = law.get(o, 0) + p / total
    return law


def main() -> bool:
    """Example 1; True when every step holds."""
    s = sp.Symbol("sigma", positive=True)
    gap = (1 - s) - (-1 + s)
    assert sp.factor(gap) == -2 * (s - 1) or sp.simplify(gap - 2 * (1 - s)) == 0, "step 1"
    assert sum(joint().values()) == 1, "a probability law"
    up, down = output_law(0, 1 + SIGMA), output_law(0, -1 + SIGMA)
    assert sum(up.values()) == 1 and sum(down.values()) == 1
    assert not set(up) & set(down), "disjoint supports: NP epsilon is infinite"
    assert min(up) >= 1 - SIGMA and max(down) <= -1 + SIGMA, "the means follow mu"
    return True


if __name__ == "__main__":
    run(CLAIM, main)

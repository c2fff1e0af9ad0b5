"""dmkb2020.thm3.decomposition -- Desfontaines et al. 2020, Section 4.1, proof of Theorem 3.

Claim. A Bernoulli(``p``) record with ``λ < p < 1 - λ`` (``0 < λ < 1/2``) is the two-stage
process of the proof of Theorem 3: with probability ``2λ`` a fair coin, otherwise a
Bernoulli(``(p - λ)/(1 - 2λ)``) draw; the inner probability lies in ``(0, 1)``.

Argument.
1. ``P[1] = 2λ · 1/2 + (1 - 2λ)(p - λ)/(1 - 2λ) = p`` (sympy).
2. ``(p - λ)/(1 - 2λ) > 0`` iff ``p > λ`` (the denominator is positive), and
   ``1 - (p - λ)/(1 - 2λ) = (1 - λ - p)/(1 - 2λ) > 0`` iff ``p < 1 - λ`` (sympy for the
   identity; the signs with ``p = λ + a``, ``1 - λ - p = b``, ``a, b > 0``).
The 50-digit spot check draws ``λ`` and ``p`` in range and evaluates the mixture.
"""

from __future__ import annotations

import random

import sympy as sp
from spot import holds_at_random_points, run

CLAIM = "dmkb2020.thm3.decomposition"


def main() -> bool:
    """The decomposition; True when every step holds."""
    lam, p = sp.symbols("lam p", positive=True)
    q = (p - lam) / (1 - 2 * lam)
    mean = 2 * lam * sp.Rational(1, 2) + (1 - 2 * lam) * q
    assert sp.simplify(mean - p) == 0, "step 1"
    assert sp.simplify(1 - q - (1 - lam - p) / (1 - 2 * lam)) == 0, "step 2: identity"
    a, b = sp.symbols("a b", positive=True)  # p = lam + a, 1 - lam - p = b, so 1 - 2 lam = a + b
    assert sp.simplify(q.subs(p, lam + a).subs(lam, (1 - a - b) / 2) - a / (a + b)) == 0
    assert (a / (a + b)).is_positive and (b / (a + b)).is_positive, "step 2: signs"
    x, y = sp.symbols("x y")  # x, y in (0, 1): lam = x/4, p = lam + y (1 - 2 lam)
    lam_v, p_v = x / 4, x / 4 + y * (1 - x / 2)
    mix = (2 * lam * sp.Rational(1, 2) + (1 - 2 * lam) * q).subs({lam: lam_v, p: p_v})

    def unit_open(rng: random.Random) -> sp.Rational:
        return sp.Rational(rng.randint(1, 39), 40)

    return holds_at_random_points(mix, p_v, [(x, unit_open), (y, unit_open)])


if __name__ == "__main__":
    run(CLAIM, main)

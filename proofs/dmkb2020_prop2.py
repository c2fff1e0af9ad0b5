"""dmkb2020.prop2 -- Desfontaines et al. 2020 (DP with partial knowledge), Section 2.3, Prop. 2.

Claim. If the records are mutually independent given the partial knowledge ``B̂``, then
``(Θ, ε)``-noiseless privacy (Definition 3) and ``(Θ, ε)``-causal privacy (Definition 5)
are equivalent, for every ``ε``.

Argument. Independence: ``P(d_{-i}, D(i) = x | B̂) = P(d_{-i} | B̂) P(D(i) = x | B̂)``.
1. Conditioning on ``D(i) = x`` does not move the other records:
   ``P(d_{-i} | D(i) = x, B̂) = P(d_{-i} | B̂)`` (the factor ``P(x | B̂)`` leaves the sum
   and cancels; an indexed sum over the ``N`` values of ``d_{-i}``).
2. ``P[M(D_{i→b}) = o | D(i) = a, B̂] = Σ_{d_{-i}} P(d_{-i} | a, B̂) M(d_{-i}, b)(o)
   = Σ_{d_{-i}} P(d_{-i} | b, B̂) M(d_{-i}, b)(o) = P[M(D) = o | D(i) = b, B̂]``, term by
   term by step 1.
3. So Definition 5's law ``M(D_{i→b})|_{a, B̂}`` is Definition 3's ``M(D)|_{b, B̂}``: the
   two definitions compare the same pairs of laws, and their ``ε`` coincide.
The 50-digit spot check draws random independent laws of ``(D(i), d_{-i})`` and random
mechanisms and compares the two laws at every output.
"""

from __future__ import annotations

import random

import mpmath
import sympy as sp
from spot import DIGITS, run

CLAIM = "dmkb2020.prop2"


def spot_check(points: int = 6, seed: int = 2020) -> bool:
    """Random independent laws and mechanisms: Definition 5's law equals Definition 3's."""
    rng = random.Random(seed)
    with mpmath.workdps(DIGITS):
        for _ in range(points):
            pi = [mpmath.mpf(rng.randint(1, 9)) for _ in range(2)]
            pr = [mpmath.mpf(rng.randint(1, 9)) for _ in range(4)]
            rows = [[mpmath.mpf(rng.randint(1, 9)) for _ in range(3)] for _ in range(4)]
            M = [[v / sum(row) for v in row] for row in rows]  # M(d_-i = k, b)(o)
            joint = {(x, k): pi[x] * pr[k] for x in range(2) for k in range(4)}
            for o in range(3):
                # Definition 5: given D(i) = 0, feed b = 1; Definition 3: given D(i) = 1
                laws = []
                for x in (0, 1):
                    tot = sum(joint[x, k] for k in range(4))
                    laws.append(sum(joint[x, k] / tot * M[k][o] for k in range(4)))
                if abs(laws[0] - laws[1]) > mpmath.mpf(10) ** -40:
                    return False
    return True


def main() -> bool:
    """Proposition 2; True when every step holds."""
    k, N = sp.symbols("k N", integer=True, positive=True)
    rest = sp.IndexedBase("P_rest", positive=True)
    mech = sp.IndexedBase("M_b", nonnegative=True)
    pa, pb = sp.symbols("p_a p_b", positive=True)
    z = sp.Sum(rest[k], (k, 1, N))
    for px in (pa, pb):
        marginal = sp.Sum(rest[k] * px, (k, 1, N))
        assert sp.simplify(marginal - px * z) == 0, "step 1: the factor leaves the sum"
        assert sp.simplify(rest[k] * px / (px * z) - rest[k] / z) == 0, "step 1: cancels"
    changed = sp.Sum((rest[k] * pa / (pa * z)) * mech[k], (k, 1, N))
    other = sp.Sum((rest[k] * pb / (pb * z)) * mech[k], (k, 1, N))
    assert sp.simplify(changed - other) == 0, "step 2"
    return spot_check()


if __name__ == "__main__":
    run(CLAIM, main)

"""Desfontaines et al. Proposition 2 (independent records: NP ⇔ CDP), proved with sympy.

Let the records be mutually independent given the partial knowledge ``B̂``:
``P(d_{-i}, D(i) = x | B̂) = P(d_{-i} | B̂) P(D(i) = x | B̂)``. Then, for every output ``o``:

1. conditioning on ``D(i) = x`` does not move the others:
   ``P(d_{-i} | D(i) = x, B̂) = P(d_{-i} | B̂)`` (the factor ``P(x | B̂)`` cancels);
2. ``P[M(D_{i→b}) = o | D(i) = a, B̂] = Σ_{d_{-i}} P(d_{-i} | a, B̂) M(d_{-i}, b)(o)``
   ``= Σ_{d_{-i}} P(d_{-i} | b, B̂) M(d_{-i}, b)(o) = P[M(D) = o | D(i) = b, B̂]``,
   termwise equal by step 1.

So ``M(D_{i→b})|_{a, B̂}`` (Definition 5's right side) is the same law as
``M(D)|_{b, B̂}`` (Definition 3's), and ``(Θ, ε)``-NP holds iff ``(Θ, ε)``-CDP does, for
every ε. The symbolic steps use an indexed sum over the ``N`` values of ``d_{-i}``; a
50-digit spot check draws random independent laws and mechanisms.
"""

from __future__ import annotations

import random

import mpmath
import sympy as sp

from pdpsym.proofs.spot_check import DIGITS

STEPS_PROP2 = (
    "sympy: with P(d_-i, x | B) = P(d_-i | B) P(x | B), P(d_-i | D(i) = x, B) = P(d_-i | B) "
    "(the factor cancels, for every x); so P[M(D_(i->b)) = o | a, B] = sum P(d_-i | a, B) "
    "M(d_-i, b)(o) equals P[M(D) = o | b, B] term by term (indexed sum over N values of "
    "d_-i): Definition 5's law is Definition 3's, NP <=> CDP for every eps; 50-digit spot "
    "check on random independent laws and mechanisms"
)


def proposition2() -> bool:
    """Proposition 2: records independent given B̂ ⇒ NP ⇔ CDP (Desfontaines et al., Sec. 2.3)."""
    k, N = sp.symbols("k N", integer=True, positive=True)
    rest = sp.IndexedBase("P_rest", positive=True)  # P(d_-i = k | B)
    mech = sp.IndexedBase("M_b", nonnegative=True)  # M(d_-i = k, b)(o)
    pa, pb = sp.symbols("p_a p_b", positive=True)  # P(D(i) = a | B), P(D(i) = b | B)
    # step 1: the conditional of the others given D(i) = x
    for px in (pa, pb):
        joint = rest[k] * px
        marginal = sp.Sum(rest[k] * px, (k, 1, N))
        if (
            sp.simplify(marginal - px * sp.Sum(rest[k], (k, 1, N))) != 0
        ):  # the factor leaves the sum
            return False
        cond = joint / (px * sp.Sum(rest[k], (k, 1, N)))
        if sp.simplify(cond - rest[k] / sp.Sum(rest[k], (k, 1, N))) != 0:
            return False
    # step 2: the two laws of o, term by term
    z = sp.Sum(rest[k], (k, 1, N))
    changed = sp.Sum((rest[k] * pa / (pa * z)) * mech[k], (k, 1, N))
    other = sp.Sum((rest[k] * pb / (pb * z)) * mech[k], (k, 1, N))
    if sp.simplify(changed - other) != 0:
        return False
    return _spot_check()


def _spot_check(points: int = 6, seed: int = 2020) -> bool:
    """Random independent laws of (D(i), d_-i) and a random mechanism: the two laws agree."""
    rng = random.Random(seed)
    with mpmath.workdps(DIGITS):
        for _ in range(points):
            pi = [mpmath.mpf(rng.randint(1, 9)) for _ in range(2)]
            pr = [mpmath.mpf(rng.randint(1, 9)) for _ in range(4)]
            M = [[mpmath.mpf(rng.randint(0, 9)) for _ in range(3)] for _ in range(4)]
            M = [[v / sum(row) if sum(row) else mpmath.mpf(1) / 3 for v in row] for row in M]
            joint = {(x, k): pi[x] * pr[k] for x in range(2) for k in range(4)}
            for o in range(3):
                laws = []
                for x in (0, 1):  # condition on D(i) = x, then feed b = 1 to M
                    tot = sum(joint[x, k] for k in range(4))
                    laws.append(sum(joint[x, k] / tot * M[k][o] for k in range(4)))
                if abs(laws[0] - laws[1]) > mpmath.mpf(10) ** -40:
                    return False
    return True


def main() -> bool:
    """Proposition 2 of Desfontaines et al.; True when every step holds."""
    return proposition2()


if __name__ == "__main__":
    print("Proposition 2:", "proved" if main() else "FAILED")

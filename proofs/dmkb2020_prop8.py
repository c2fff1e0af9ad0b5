"""dmkb2020.prop8 -- Desfontaines et al. 2020 (DP with partial knowledge), Section 4.2, Prop. 8.

Claim. For the thresholding mechanism ``M_T(D) = ⊥`` if ``k = Σ D(j) <= T`` else ``k``
(Definition 15), over i.i.d. Bernoulli(``p``) records, an attacker who knows ``|B| <= T``
records (active partial knowledge, Definition 12: the worst number ``b`` of ones among
them) faces exactly the passive (Definition 13) guarantee of ``M_{T - |B|}`` on the other
``n - |B|`` records: the two ``δ(ε)`` curves are equal.

Argument. Given the target's value ``a`` and ``b`` ones in ``B``, the count is
``k = b + a + S`` with ``S ~ Bin(n - |B| - 1, p)``; the output is ``⊥`` iff
``a + S <= T - b``.
1. ``b = |B|``: the output is ``⊥`` iff ``a + S <= T - |B|``, else ``|B| + a + S``:
   relabelling the outputs (``k ↦ k - |B|``), this is ``M_{T-|B|}`` on ``n - |B|`` records
   with no knowledge -- the same pair of laws, the same ``δ(ε)``.
2. ``b < |B|``: the threshold ``T - b`` is higher; the output is the image of the ``b =
   |B|``-type output ``Y = ⊥ or a + S`` under ``g(y) = ⊥`` for ``y <= T - b``. Hockey-stick
   divergences cannot grow under post-processing: ``max(0, Σ_{o ∈ g^{-1}(y)} (P_o -
   e^ε Q_o)) <= Σ_{o ∈ g^{-1}(y)} max(0, P_o - e^ε Q_o)`` (the positive part is
   subadditive: checked with sympy on the four sign cases of two terms). So the worst
   ``b`` is ``|B|``.
3. Exhaustive exact check (the checker's grid): ``n = 3..7``, ``p ∈ {1/10, 1/4}``,
   ``T = 1..n-2``, ``|B| = 0..min(T, n - 2)``, ``e^ε ∈ {11/10, 2}``, both directions:
   the APK curve of ``M_T`` (max over ``b`` and direction) equals the PPK curve of
   ``M_{T-|B|}`` on ``n - |B|`` records, in exact rationals.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import sympy as sp
from spot import run

CLAIM = "dmkb2020.prop8"
BOT = "bottom"


def output_law(a: int, b: int, m: int, p: Fraction, T: int) -> dict[object, Fraction]:
    """The law of ``M_T`` given the target ``a`` and ``b`` known ones; ``S ~ Bin(m, p)``."""
    law: dict[object, Fraction] = {}
    for s in range(m + 1):
        k = b + a + s
        o = BOT if k <= T else k
        law[o] = law.get(o, Fraction(0)) + comb(m, s) * p**s * (1 - p) ** (m - s)
    return law


def hockey(P: dict, Q: dict, c: Fraction) -> Fraction:
    """``Σ_o max(0, P_o - c Q_o)``."""
    return sum((max(Fraction(0), v - c * Q.get(o, Fraction(0))) for o, v in P.items()), Fraction(0))


def apk(n: int, p: Fraction, T: int, size: int, c: Fraction) -> Fraction:
    """Definition 12's δ: max over b and direction."""
    m = n - size - 1
    return max(
        hockey(output_law(a, b, m, p, T), output_law(1 - a, b, m, p, T), c)
        for b in range(size + 1)
        for a in (0, 1)
    )


def ppk_no_knowledge(n: int, p: Fraction, T: int, c: Fraction) -> Fraction:
    """Definition 13's δ with ``|B| = 0``: max over direction."""
    return max(
        hockey(output_law(a, 0, n - 1, p, T), output_law(1 - a, 0, n - 1, p, T), c) for a in (0, 1)
    )


def main() -> bool:
    """Proposition 8; True when every step holds."""
    # step 2: max(0, x + y) <= max(0, x) + max(0, y) (the positive part is subadditive; by
    # induction it carries to any finite merge of outputs), on the four sign cases of x, y
    a, c = sp.symbols("a c", nonnegative=True)
    for x, y in ((a, c), (-a, -c), (a + c, -c), (a, -(a + c))):  # the four sign cases
        slack = sp.simplify(sp.Max(0, x) + sp.Max(0, y) - sp.Max(0, x + y))
        assert slack.is_nonnegative, f"positive part at x={x}, y={y}"
    P = {0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)}
    Q = {0: Fraction(1, 6), 1: Fraction(1, 2), 2: Fraction(1, 3)}
    merged_laws = ({BOT: P[0] + P[1], 2: P[2]}, {BOT: Q[0] + Q[1], 2: Q[2]})
    assert hockey(*merged_laws, Fraction(1)) <= hockey(P, Q, Fraction(1)), "step 2 example"
    cases = 0
    for n in range(3, 8):
        for p, T in itertools.product((Fraction(1, 10), Fraction(1, 4)), range(1, n - 1)):
            for size, c in itertools.product(
                range(min(T, n - 2) + 1), (Fraction(11, 10), Fraction(2))
            ):
                active = apk(n, p, T, size, c)
                reduced = ppk_no_knowledge(n - size, p, T - size, c)
                assert active == reduced, f"n={n} p={p} T={T} |B|={size} e^eps={c}"
                cases += 1
    return cases > 0


if __name__ == "__main__":
    run(CLAIM, main)

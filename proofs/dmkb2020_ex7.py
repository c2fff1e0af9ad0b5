"""dmkb2020.ex7 -- Desfontaines et al. 2020 (DP with partial knowledge), Section 3, Example 7.

Claim. Thresholding (``M_T(D) = ⊥`` if the count ``k <= T`` else ``k``) over
``n = 1000`` Bernoulli(``p = 10^-7``) records with ``T = 100`` is private against a passive
attacker who knows ``|B| = 100`` records, but not against an active one who fills ``B``
with 100 "Yes" votes: at ``ε = ln 2`` the active ``δ`` (Definition 12, ``b = 100``) exceeds
1/2 while the passive ``δ`` (Definition 13) is below ``10^-9``.

Argument. The target's ``m = n - |B| - 1 = 899`` unknown peers count ``S ~ Bin(899, p)``;
given the target ``a`` and ``b`` ones in ``B`` the count is ``k = b + a + S``.
1. Active, ``b = 100``: given ``a = 0`` the output is ``⊥`` exactly when ``S = 0``
   (probability ``(1 - p)^899``); given ``a = 1`` the count is at least 101 and ``⊥``
   never happens. So ``δ >= (1 - p)^899 - 2 · 0 > 1/2`` (direction ``(0, 1)``).
2. Passive: ``δ = max over directions of Σ_b P[b] δ_b(ln 2)`` with ``b ~ Bin(100, p)``.
   Computed exactly: every probability is an integer over ``10^{7·899}`` (resp.
   ``10^{700}``), so the whole sum is one exact rational; it is below ``10^-9``.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from spot import run

CLAIM = "dmkb2020.ex7"
N, T, SIZE = 1000, 100, 100
SCALE = 10**7  # p = 1/SCALE
M = N - SIZE - 1


def peer_numerators() -> list[int]:
    """``f(s) · SCALE^M`` for ``s = 0..M``: the exact law of S as integers."""
    q = SCALE - 1
    return [comb(M, s) * q ** (M - s) for s in range(M + 1)]


def delta_b(num: list[int], b: int, a: int, c: int) -> int:
    """``SCALE^M · Σ_o max(0, P[o | a, b] - c P[o | 1 - a, b])``, an integer."""

    def law(x: int) -> dict[object, int]:
        out: dict[object, int] = {}
        for s, v in enumerate(num):
            k = b + x + s
            o = "bottom" if k <= T else k
            out[o] = out.get(o, 0) + v
        return out

    P, Q = law(a), law(1 - a)
    return sum(max(0, v - c * Q.get(o, 0)) for o, v in P.items())


def main() -> bool:
    """Example 7; True when every step holds."""
    num = peer_numerators()
    assert sum(num) == SCALE**M, "a probability law"
    active = Fraction(delta_b(num, SIZE, 0, 2), SCALE**M)
    assert active > Fraction(1, 2), "active delta > 1/2"
    assert active == Fraction(num[0], SCALE**M), "active delta = (1 - p)^899"
    weights = [comb(SIZE, b) * (SCALE - 1) ** (SIZE - b) for b in range(SIZE + 1)]
    assert sum(weights) == SCALE**SIZE
    passive = max(
        Fraction(sum(w * delta_b(num, b, a, 2) for b, w in enumerate(weights)), SCALE ** (M + SIZE))
        for a in (0, 1)
    )
    assert 0 < passive < Fraction(1, 10**9), "passive delta < 1e-9"
    return True


if __name__ == "__main__":
    run(CLAIM, main)

"""The hockey-stick divergence of two finite laws, from its definition (no pdpsym import).

``δ(ε) = Σ_O max(0, P(O) - e^ε Q(O))``: exactly for a rational ``e^ε``, at the mpmath
working precision otherwise, and for the law of ``X + 1`` against that of ``X``.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

import mpmath


def hockey(
    P: dict[Hashable, Fraction], Q: dict[Hashable, Fraction], e_eps: mpmath.mpf
) -> mpmath.mpf:
    """Σ_O max(0, P(O) - e^ε Q(O)) at the working precision."""

    def mp(q: Fraction) -> mpmath.mpf:
        return mpmath.mpf(q.numerator) / q.denominator

    return mpmath.fsum(max(0, mp(p) - e_eps * mp(Q.get(o, Fraction(0)))) for o, p in P.items())


def hockey_exact(
    P: dict[Hashable, Fraction], Q: dict[Hashable, Fraction], e_eps: Fraction
) -> Fraction:
    """Σ_O max(0, P(O) - e^ε Q(O)) for a rational e^ε, exactly."""
    return sum(
        (max(Fraction(0), p - e_eps * Q.get(o, Fraction(0))) for o, p in P.items()), Fraction(0)
    )


def hockey_shift(x: dict[int, mpmath.mpf], eps: mpmath.mpf) -> mpmath.mpf:
    """sum_o max(0, P(o) - e^eps Q(o)) with Q = law of X, P = law of X + 1."""
    e = mpmath.exp(eps)
    outs = set(x) | {o + 1 for o in x}
    zero = mpmath.mpf(0)
    return sum(max(zero, x.get(o - 1, zero) - e * x.get(o, zero)) for o in outs)

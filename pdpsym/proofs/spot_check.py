"""The 50-digit numeric spot check every symbolic proof ends with.

A proof checks its identity or inequality symbolically; it then evaluates both sides at
seeded random points at 50 digits, so that a sympy simplification that went wrong would
also have to agree with plain arithmetic. Precision is a restored context
(``mpmath.workdps``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import mpmath
import sympy as sp

DIGITS = 50


def holds_at_random_points(
    lhs: sp.Expr,
    rhs: sp.Expr,
    draws: Sequence[tuple[sp.Symbol, Callable[[random.Random], object]]],
    relation: str = "==",
    points: int = 8,
    seed: int = 2019,
) -> bool:
    """Whether ``lhs relation rhs`` at ``points`` seeded random points, at 50 digits.

    Args:
        lhs: the left side, a sympy expression.
        rhs: the right side.
        draws: each free symbol with a function drawing its value (exact rationals) from
            a ``random.Random``; every draw must respect the proof's assumptions.
        relation: ``"=="`` (agreement to 40 digits) or ``"<="`` (up to 10^-40).
        points: how many points.
        seed: the generator's seed.

    Returns:
        True when the relation holds at every point.

    References:
        The proofs of :mod:`pdpsym.proofs` (each names its paper and equation).
    """
    rng = random.Random(seed)
    syms = [sym for sym, _ in draws]
    f_lhs, f_rhs = (sp.lambdify(syms, side, modules="mpmath") for side in (lhs, rhs))
    with mpmath.workdps(DIGITS):
        tol = mpmath.mpf(10) ** -40
        for _ in range(points):
            at = [sp.Rational(draw(rng)) for _, draw in draws]
            vals = [mpmath.mpf(int(q.p)) / int(q.q) for q in at]
            a, b = mpmath.mpf(f_lhs(*vals)), mpmath.mpf(f_rhs(*vals))
            ok = abs(a - b) <= tol * max(1, abs(b)) if relation == "==" else a <= b + tol
            if not ok:
                return False
    return True


def positive_rational(rng: random.Random) -> sp.Rational:
    """A random rational in (0, 9]."""
    return sp.Rational(rng.randint(1, 360), 40)


def nonnegative_rational(rng: random.Random) -> sp.Rational:
    """A random rational in [0, 9]."""
    return sp.Rational(rng.randint(0, 360), 40)


def rational(rng: random.Random) -> sp.Rational:
    """A random rational in [-9, 9]."""
    return sp.Rational(rng.randint(-360, 360), 40)


def unit_rational(rng: random.Random) -> sp.Rational:
    """A random rational in [0, 1]."""
    return sp.Rational(rng.randint(0, 40), 40)


def main() -> bool:
    """Self-check: a true identity passes, a false inequality is caught (x² >= 0 is not <= 0)."""
    x, y = sp.symbols("x y")
    draws = [(x, rational), (y, rational)]
    ok = holds_at_random_points((x + y) ** 2, x**2 + 2 * x * y + y**2, draws)
    caught = not holds_at_random_points(x**2 + 1, sp.Integer(0), draws, "<=")
    return ok and caught

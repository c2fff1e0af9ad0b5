"""Shared helpers of the proof scripts: the 50-digit spot check and exact sign decisions.

Imports sympy and mpmath only (never pdpsym): every script in this directory is a
standalone re-derivation of one claim.

* :func:`holds_at_random_points` -- after a script has checked an identity or inequality
  symbolically, it evaluates both sides at seeded random rational points at 50 digits, so
  that a sympy simplification that went wrong would also have to agree with plain
  arithmetic.
* :func:`sign` -- the exact sign of a real constant that is a polynomial, with rational
  coefficients, in ``e`` or in ``e^(1/k)`` (the numbers the exact instances produce). Zero
  is decided exactly (every coefficient vanishes: ``e`` is transcendental); a nonzero value
  is evaluated at 50 digits and must clear 10^-40, else the script fails rather than guess.
* :func:`run` -- the command-line entry: prints ``<claim>: proved`` and exits 0, or
  ``<claim>: FAILED (...)`` and exits 1.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence

import mpmath
import sympy as sp

DIGITS = 50
TOL = sp.Rational(1, 10**40)


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
        draws: each free symbol with a function drawing its value (an exact rational) from
            a ``random.Random``; every draw must respect the proof's assumptions.
        relation: ``"=="`` (agreement to 40 digits) or ``"<="`` (up to 10^-40).
        points: how many points.
        seed: the generator's seed.

    Returns:
        True when the relation holds at every point.
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


def sign(value: sp.Expr, root: int = 1) -> int:
    """The exact sign of a polynomial in ``u = e^(1/root)`` with rational coefficients.

    Args:
        value: a real constant built from rationals and integer powers of ``e^(1/root)``
            (e.g. ``exp(3/4)`` with ``root = 4``); negative powers are cleared first.
        root: the root of ``e`` the exponents are multiples of.

    Returns:
        -1, 0 or 1. Zero exactly when every coefficient of the polynomial vanishes (``u``
        is transcendental); otherwise the 50-digit value, which must exceed 10^-40 in size.

    Raises:
        AssertionError: the value is not such a polynomial, or is too close to 0 to decide.
    """
    u = sp.Symbol("u", positive=True)
    expr = sp.expand(sp.powsimp(sp.sympify(value)))
    expr = expr.replace(
        lambda e: isinstance(e, sp.exp), lambda e: u ** sp.Integer(e.args[0] * root)
    )
    expr = expr.subs(sp.E, u**root)
    num, den = sp.fraction(sp.together(expr))
    poly_num, poly_den = sp.Poly(sp.expand(num), u), sp.Poly(sp.expand(den), u)
    assert all(c.is_Rational for c in poly_num.coeffs() + poly_den.coeffs()), value
    if poly_num.is_zero:
        return 0
    with mpmath.workdps(DIGITS):
        at = mpmath.exp(mpmath.mpf(1) / root)
        n = poly_num.eval(sp.Float(at, DIGITS)).evalf(DIGITS)
        d = poly_den.eval(sp.Float(at, DIGITS)).evalf(DIGITS)
    assert abs(n) > TOL and abs(d) > TOL, f"too close to 0 to decide: {value}"
    return 1 if (n > 0) == (d > 0) else -1


def run(claim: str, main: Callable[[], bool]) -> None:
    """Run a proof script's ``main`` and exit 0 when it returns True, 1 otherwise.

    Args:
        claim: the claim id, printed first.
        main: the script's ``main``; an AssertionError counts as a failure.
    """
    try:
        ok = main()
        why = ""
    except AssertionError as failed:
        ok, why = False, f" ({failed})"
    print(f"{claim}: {'proved' if ok else 'FAILED' + why}")
    sys.exit(0 if ok else 1)


def main() -> bool:
    """Self-check: a true identity passes, false ones are caught, signs are decided."""
    x, y = sp.symbols("x y")
    draws = [(x, rational), (y, rational)]
    ok = holds_at_random_points((x + y) ** 2, x**2 + 2 * x * y + y**2, draws)
    caught = not holds_at_random_points((x + y) ** 2, x**2 + y**2, draws)
    caught = caught and not holds_at_random_points(x**2 + 1, sp.Integer(0), draws, "<=")
    signs = (sign(sp.E - 3), sign(sp.exp(2) - sp.E * sp.E), sign(sp.exp(sp.Rational(1, 2)) - 1, 2))
    return ok and caught and signs == (-1, 0, 1)


if __name__ == "__main__":
    run("spot", main)

"""Sums of exponential polynomials and square roots of them, exactly: the δ(ε) of Laplace noise.

A :class:`SqrtExpSum` is ``E_0 + sum_k c_k sqrt(E_k)`` with :class:`~pdpsym.core.exp_polynomials.ExpPoly`
``E_0``, positive ExpPolys ``E_k`` and rational ``c_k``. The hockey-stick divergence of
two Laplace mixtures is such a sum (one square root per sign change of ``p - e^eps q``
between two centres). It implements the exact-value protocol of
:mod:`pdpsym.core.certify` (``arb(prec)``, ``sympy()``, ``exact_text()``, ``as_rational()``,
``exact_compare``), so :func:`~pdpsym.core.certify.certify` and
:func:`~pdpsym.core.compare.compare` accept it.

:class:`Bracket` is a real number known through a bisection: an object that narrows a
rational bracket ``[lo, hi]`` on demand, enclosed in balls like every exact value (the
ε at a given δ of a continuous mechanism, where no closed form is known).

>>> from fractions import Fraction as F
>>> x = SqrtExpSum(ExpPoly.constant(1), {ExpPoly.constant(2): F(-1, 4)})
>>> x.as_rational(), str(x.sympy())
(None, '1 - sqrt(2)/4')
>>> SqrtExpSum(ExpPoly.constant(1), {ExpPoly.constant(4): F(-1, 4)}).as_rational()
Fraction(1, 2)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import sympy
from flint import arb, ctx

from pdpsym.core.balls import arb_from_fraction
from pdpsym.core.certify import MAX_PREC, decide_sign
from pdpsym.core.errors import Undecided
from pdpsym.core.exp_polynomials import ExpPoly


def _isqrt_exact(n: int) -> int | None:
    if n < 0:
        return None
    k = math.isqrt(n)
    return k if k * k == n else None


def _monomial_sqrt(r: ExpPoly) -> ExpPoly | None:
    """``sqrt(c e^a) = sqrt(c) e^{a/2}`` when ``r`` is one term with a square rational c."""
    if len(r.terms) != 1:
        return None
    ((a, c),) = r.terms.items()
    n, d = _isqrt_exact(c.numerator), _isqrt_exact(c.denominator)
    if n is None or d is None:
        return None
    return ExpPoly({a / 2: Fraction(n, d)})


class SqrtExpSum:
    """``poly + sum_k c_k sqrt(radicand_k)``: radicand (a positive ExpPoly) -> c_k."""

    __slots__ = ("poly", "roots")

    def __init__(self, poly: ExpPoly, roots: Mapping[ExpPoly, Fraction] | None = None) -> None:
        kept: dict[ExpPoly, Fraction] = {}
        for r, c in (roots or {}).items():
            c = Fraction(c)
            if not c or r.is_zero():
                continue
            root = _monomial_sqrt(r)
            if root is not None:  # sqrt(k^2 e^a) = k e^{a/2}
                poly = poly + root.scale(c)
            else:
                kept[r] = kept.get(r, Fraction(0)) + c
        self.poly = poly
        self.roots = {r: c for r, c in kept.items() if c}

    @classmethod
    def of(cls, value: Any) -> SqrtExpSum:
        """A SqrtExpSum from an ExpPoly, a rational, or a SqrtExpSum."""
        if isinstance(value, SqrtExpSum):
            return value
        if isinstance(value, ExpPoly):
            return cls(value)
        return cls(ExpPoly.constant(Fraction(value)))

    def __add__(self, other: SqrtExpSum) -> SqrtExpSum:
        roots = dict(self.roots)
        for r, c in other.roots.items():
            roots[r] = roots.get(r, Fraction(0)) + c
        return SqrtExpSum(self.poly + other.poly, roots)

    def __neg__(self) -> SqrtExpSum:
        return SqrtExpSum(-self.poly, {r: -c for r, c in self.roots.items()})

    def __sub__(self, other: SqrtExpSum) -> SqrtExpSum:
        return self + (-other)

    def scale(self, c: Fraction) -> SqrtExpSum:
        """The sum times the rational ``c``, exactly."""
        c = Fraction(c)
        return SqrtExpSum(self.poly.scale(c), {r: c * v for r, v in self.roots.items()})

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, SqrtExpSum) and self.poly == other.poly and self.roots == other.roots
        )

    def __hash__(self) -> int:
        return hash((self.poly, frozenset(self.roots.items())))

    def is_zero(self) -> bool:
        """True when the sum is syntactically zero (no terms)."""
        return self.poly.is_zero() and not self.roots

    def as_rational(self) -> Fraction | None:
        """The value as a Fraction when the sum is syntactically a rational constant (no square
        roots, at most the exponent-0 term), else None.
        """
        if self.roots:
            return None
        terms = self.poly.terms
        if not terms:
            return Fraction(0)
        if set(terms) == {Fraction(0)}:
            return terms[Fraction(0)]
        return None

    def arb(self, prec: int) -> arb:
        """An arb ball containing the value at ``prec`` bits (precision restored on exit)."""
        with ctx.workprec(prec):
            total = self.poly.arb(prec)
            for r, c in self.roots.items():
                total += arb_from_fraction(c) * r.arb(prec).sqrt()
            return total

    def sympy(self) -> sympy.Expr:
        """The value as an exact sympy expression (``poly + sum c_k sqrt(E_k)``)."""
        out = self.poly.sympy()
        for r, c in self.roots.items():
            out += sympy.Rational(c.numerator, c.denominator) * sympy.sqrt(r.sympy())
        return out

    def exact_text(self) -> str:
        """sympy-readable text of the value, built directly (the same value as :meth:`sympy`)."""
        parts = [] if self.poly.is_zero() and self.roots else [self.poly.text()]
        for r, c in sorted(self.roots.items(), key=lambda rc: rc[0].text()):
            coef = str(abs(c)) if abs(c) != 1 else ""
            body = f"{coef}*sqrt({r.text()})" if coef else f"sqrt({r.text()})"
            parts.append(("- " if c < 0 else "+ ") + body)
        text = " ".join(parts)
        return text[2:] if text.startswith("+ ") else text

    def sign(self, max_prec: int = MAX_PREC) -> int:
        """The sign, decided by balls at rising precision; 0 only when syntactically
        zero. A non-zero sum equal to 0 raises :class:`Undecided`."""
        if self.is_zero():
            return 0
        if not self.roots:
            return self.poly.sign(max_prec)
        return decide_sign(self.arb, "sign of a sum of square roots", 64, max_prec)

    def exact_compare(self, other: SqrtExpSum) -> int:
        """Sign of ``self - other``: equal forms are 0; otherwise balls, then a symbolic
        proof of equality (sympy) when the balls never separate."""
        diff = self - other
        if diff.is_zero():
            return 0
        try:
            return diff.sign(4096)
        except Undecided:
            if sympy.simplify(diff.sympy()) == 0:
                return 0
            raise

    def compare_rational(self, q: Fraction) -> int:
        """Sign of ``self - q``."""
        return self.exact_compare(SqrtExpSum.of(q))

    def __float__(self) -> float:
        return float(self.arb(64).mid())

    def __repr__(self) -> str:
        return f"SqrtExpSum({self.exact_text()})"


class Bracket:
    """A real number ``x`` known through exact bisection: ``narrow(lo, hi)`` returns a
    smaller rational bracket still containing ``x``.

    ``arb(prec)`` narrows the bracket until its width is below ``2^-prec`` times its
    size, and returns a ball containing it; ``sympy()`` has no closed form to give and
    returns the midpoint of the current bracket as a *label* only, while
    ``exact_text()`` says what the number is.
    """

    __slots__ = ("lo", "hi", "narrow", "label", "limit")

    def __init__(
        self,
        lo: Fraction,
        hi: Fraction,
        narrow: Callable[[Fraction, Fraction], tuple[Fraction, Fraction]],
        label: str,
        limit: Fraction = Fraction(0),
    ) -> None:
        self.lo, self.hi, self.narrow, self.label = Fraction(lo), Fraction(hi), narrow, label
        #: the finest width ``arb`` narrows to (0: as fine as asked); a bracket with a
        #: limit is an enclosure to print as such (:meth:`decimal`), not to certify
        self.limit = Fraction(limit)

    def decimal(self, digits: int) -> tuple[str, tuple[str, str]]:
        """The digits both ends share (``…`` marks a cut), and the enclosure's ends."""
        from pdpsym.core.decimals import decimal_string  # noqa: PLC0415

        a = decimal_string(self.lo, digits, "down")
        b = decimal_string(self.hi, digits, "up")
        k = 0
        while k < min(len(a), len(b)) and a[k] == b[k]:
            k += 1
        common = a[:k].rstrip(".")
        if k < max(len(a), len(b)):
            common += "…"
        return common, (a, b)

    def tighten(self, width: Fraction) -> None:
        """Narrow the bracket until ``hi - lo <= width``."""
        while self.hi - self.lo > width:
            lo, hi = self.narrow(self.lo, self.hi)
            if not (self.lo <= lo <= hi <= self.hi) or (lo, hi) == (self.lo, self.hi):
                raise ArithmeticError("the bracket did not narrow")
            self.lo, self.hi = lo, hi

    def arb(self, prec: int) -> arb:
        """An arb ball containing the number, at ``prec`` bits.

        Narrows the bracket in place until its width is at most ``max(|lo|, |hi|, 1) *
        2^-min(prec, MAX_PREC)`` (or :attr:`limit`, when larger), then returns the ball of
        ``[lo, hi]``. Raises ``ArithmeticError`` when ``narrow`` stops making progress.
        """
        size = max(abs(self.lo), abs(self.hi), Fraction(1))
        self.tighten(max(size / (1 << min(prec, MAX_PREC)), self.limit))
        with ctx.workprec(prec):
            lo, hi = arb_from_fraction(self.lo), arb_from_fraction(self.hi)
            return lo.union(hi)

    def as_rational(self) -> Fraction | None:
        """The number as a Fraction when the bracket has shrunk to one point, else None."""
        return self.lo if self.lo == self.hi else None

    def sympy(self) -> sympy.Expr:
        """The midpoint of the current bracket as a sympy Rational: a label only, not the value
        (no closed form is known).
        """
        mid = (self.lo + self.hi) / 2
        return sympy.Rational(mid.numerator, mid.denominator)

    def exact_text(self) -> str:
        """The label saying what the number is (there is no closed form to print)."""
        return self.label

    def __float__(self) -> float:
        return float((self.lo + self.hi) / 2)

    def __repr__(self) -> str:
        return f"Bracket({self.label}; [{self.lo}, {self.hi}])"


# --- rational enclosures for bound-and-branch searches ---------------------------------


def ratio_enclosure(num: ExpPoly, den: ExpPoly, prec: int) -> tuple[Fraction, Fraction]:
    """Rational bounds ``lo <= num/den <= hi`` from balls at ``prec`` bits.

    Args:
        num: the numerator, an exponential polynomial.
        den: the denominator, an exponential polynomial with a positive value.
        prec: working precision in bits (set for the evaluation only, then restored).

    Returns:
        ``(lo, hi)``, the exact rational ends of the quotient ball.

    Raises:
        ArithmeticError: when the quotient ball is not finite (the ball of ``den``
            contains 0, or an exponent is too large for a finite ball).

    References:
        Moore, Kearfott, Cloud, Introduction to Interval Analysis, SIAM 2009, Ch. 2
        (interval division); Johansson, "Arb", IEEE Trans. Computers 66(8), 2017.
    """
    from pdpsym.core.balls import ball_endpoints  # noqa: PLC0415 (same layer)

    with ctx.workprec(prec):
        return ball_endpoints(num.arb(prec) / den.arb(prec))


def exp_enclosure(x: Any, prec: int) -> tuple[Fraction, Fraction]:
    """Rational bounds ``lo <= x <= hi`` of a value given by its ball function.

    Args:
        x: a function from a precision in bits to an arb ball containing the value, such
            as the bound method ``eps.arb_exp`` of an :class:`~pdpsym.core.eps.Eps`.
        prec: working precision in bits (set for the call only, then restored).

    Returns:
        ``(lo, hi)``, the exact rational ends of the ball ``x(prec)``.

    Raises:
        ArithmeticError: when the ball is not finite.

    References:
        Moore, Kearfott, Cloud, Introduction to Interval Analysis, SIAM 2009, Ch. 2;
        Johansson, "Arb", IEEE Trans. Computers 66(8), 2017.
    """
    from pdpsym.core.balls import ball_endpoints  # noqa: PLC0415

    with ctx.workprec(prec):
        return ball_endpoints(x(prec))


def log_enclosure(lo: Fraction, hi: Fraction, prec: int) -> tuple[Fraction, Fraction]:
    """Rational bounds ``a <= ln lo`` and ``ln hi <= b`` (so ``[a, b]`` holds ``ln x`` for
    every ``x`` in ``[lo, hi]``, the logarithm being increasing).

    Args:
        lo: the lower end, a rational ``> 0``.
        hi: the upper end, a rational ``>= lo``.
        prec: working precision in bits (set for the evaluation only, then restored).

    Returns:
        ``(a, b)``, the lower end of the ball of ``ln lo`` and the upper end of the ball
        of ``ln hi``, as exact Fractions.

    Raises:
        ArithmeticError: when ``lo <= 0`` (the ball of the logarithm is not finite).

    References:
        Moore, Kearfott, Cloud, Introduction to Interval Analysis, SIAM 2009, Ch. 5
        (interval functions: a monotone one takes its bounds at the ends); Johansson,
        "Arb", IEEE Trans. Computers 66(8), 2017.
    """
    from pdpsym.core.balls import ball_endpoints  # noqa: PLC0415

    with ctx.workprec(prec):
        a = ball_endpoints(arb_from_fraction(lo).log())[0]
        b = ball_endpoints(arb_from_fraction(hi).log())[1]
    return a, b


__all__ = ["Bracket", "SqrtExpSum", "exp_enclosure", "log_enclosure", "ratio_enclosure"]

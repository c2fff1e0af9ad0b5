"""``c0 + c1·e^ε`` with rational coefficients: every δ of the partial-knowledge engines,
exact.

With ``ε = ln w`` for rational ``w`` a :class:`WLin` is a rational; with rational
``ε ≠ 0``, ``e^ε`` is transcendental, so the sign of ``c0 + c1 e^ε`` is decided exactly
by :class:`~pdpsym.core.exp_polynomials.ExpPoly` (zero iff both coefficients are zero).

References:
    Desfontaines, Mohammadi, Krahmer, Basin (2020), "Differential privacy with partial
    knowledge", Section 3, Lemma 1 (δ as an expectation of ``max(0, 1 - e^{ε-L})``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.core.eps import Eps
from pdpsym.core.exp_polynomials import ExpPoly


@dataclass(frozen=True)
class WLin:
    """``c0 + c1·e^ε`` with rational coefficients: a δ value, exact."""

    c0: Fraction
    c1: Fraction
    eps: Eps

    def __post_init__(self) -> None:
        # every delta of this module is built here: an inexact eps is refused once, by
        # name (an InputError), instead of an AttributeError deep inside
        if not isinstance(self.eps, Eps):
            object.__setattr__(self, "eps", Eps.of(self.eps))

    @classmethod
    def const(cls, c: Fraction | int, eps: Eps) -> WLin:
        """The constant ``c`` (``c1 = 0``) at ``eps``.

        Args:
            c: the exact constant.
            eps: the ε the value belongs to.

        Returns:
            ``WLin(c, 0, eps)``.
        """
        return cls(Fraction(c), Fraction(0), eps)

    def _same(self, other: WLin) -> None:
        if self.eps != other.eps:
            raise ValueError("WLin values with different ε")

    def __add__(self, other: WLin) -> WLin:
        self._same(other)
        return WLin(self.c0 + other.c0, self.c1 + other.c1, self.eps)

    def __sub__(self, other: WLin) -> WLin:
        self._same(other)
        return WLin(self.c0 - other.c0, self.c1 - other.c1, self.eps)

    def scale(self, c: Fraction) -> WLin:
        """``c · (c0 + c1 e^ε)``, exactly.

        Args:
            c: the exact factor.

        Returns:
            The scaled value at the same ε.
        """
        return WLin(self.c0 * c, self.c1 * c, self.eps)

    def rational(self) -> Fraction | None:
        """The value as a rational when it is one (``e^ε`` rational, or ``c1 = 0``).

        Returns:
            The Fraction, or None when ``e^ε`` is transcendental and ``c1 ≠ 0``.
        """
        if self.eps.w is not None:
            return self.c0 + self.c1 * self.eps.w
        return self.c0 if self.c1 == 0 else None

    def sign(self) -> int:
        """Exact sign (Lindemann-Weierstrass when e^ε is transcendental)."""
        q = self.rational()
        if q is not None:
            return (q > 0) - (q < 0)
        assert self.eps.exponent is not None
        return ExpPoly({Fraction(0): self.c0, self.eps.exponent: self.c1}).sign()

    def exact_compare(self, other: WLin) -> int:
        """The exact sign of ``self - other`` (both at the same ε).

        Args:
            other: a value at the same ε.

        Returns:
            ``-1``, ``0`` or ``1``.

        Raises:
            ValueError: when the two values belong to different ε.
        """
        return (self - other).sign()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WLin) and self.eps == other.eps and (self - other).sign() == 0

    def __hash__(self) -> int:
        q = self.rational()
        return hash(q) if q is not None else hash((self.c0, self.c1, self.eps))

    def arb(self, prec: int) -> Any:
        """An arb ball (through core: ``c0 + c1 e^ε`` as an exponential polynomial)."""
        if self.eps.w is not None:
            return ExpPoly.constant(self.c0 + self.c1 * self.eps.w).arb(prec)
        assert self.eps.exponent is not None
        return ExpPoly({Fraction(0): self.c0, self.eps.exponent: self.c1}).arb(prec)

    def sympy(self) -> sympy.Expr:
        """The exact value as a sympy expression (a Rational, or ``c0 + c1·exp(ε)``).

        Returns:
            The sympy expression.
        """
        q = self.rational()
        if q is not None:
            return sympy.Rational(q.numerator, q.denominator)
        assert self.eps.exponent is not None
        e = sympy.exp(sympy.Rational(self.eps.exponent.numerator, self.eps.exponent.denominator))
        c0 = sympy.Rational(self.c0.numerator, self.c0.denominator)
        c1 = sympy.Rational(self.c1.numerator, self.c1.denominator)
        return c0 + c1 * e

    def __str__(self) -> str:
        return str(self.sympy())

    def __repr__(self) -> str:
        return f"WLin({self.sympy()})"


def positive_part(x: WLin) -> WLin:
    """``max(0, x)``, decided exactly.

    Args:
        x: the value.

    Returns:
        ``x`` when it is positive, else 0 at the same ε.

    References:
        Desfontaines et al. (2020), Section 3, Lemma 1 (the ``max(0, ·)`` of the
        hockey-stick form).
    """
    return x if x.sign() > 0 else WLin.const(0, x.eps)

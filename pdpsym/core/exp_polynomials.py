"""Exponential polynomials with rational data, and their logarithmic ratios.

An :class:`ExpPoly` is a finite sum ``sum_k c_k e^{a_k}`` with rational ``c_k`` and
distinct rational ``a_k``. By the Lindemann-Weierstrass theorem the numbers ``e^{a_k}``
for distinct rationals (indeed algebraics) ``a_k`` are linearly independent over the
algebraic numbers, so an ExpPoly is zero **iff** all its coefficients are zero. That
makes equality exactly decidable, and the sign of a non-zero ExpPoly is decided by arb
balls at rising precision (the loop terminates because the value is not zero).

Every Laplace-mechanism density in Li et al. Eq. 2 evaluated at a rational output ``r``
is such a sum (``e^{-|r-s|/lambda}``), so every Eq. 2 log-ratio is a :class:`LogRatio`
of two positive ExpPolys, compared exactly by cross-multiplication.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from flint import arb, ctx

from pdpsym.core import count_law_balls
from pdpsym.core.balls import arb_from_fraction
from pdpsym.core.certify import MAX_PREC, decide_sign
from pdpsym.core.numbers import fraction_str

if TYPE_CHECKING:
    import sympy


#: :func:`pdpsym.core.count_law_balls.exp_ball` with an LRU cache of 16,384 balls keyed by
#: ``(a, prec)``: exponents repeat across the terms of a search, and arbs are immutable, so
#: sharing them is safe.
exp_ball = functools.lru_cache(maxsize=1 << 14)(count_law_balls.exp_ball)


class ExpPoly:
    """``sum_k c_k e^{a_k}``: exponent -> coefficient, zero coefficients dropped."""

    __slots__ = ("terms",)

    def __init__(self, terms: Mapping[Fraction, Fraction] | Iterable[tuple[Any, Any]] = ()):
        items = terms.items() if isinstance(terms, Mapping) else terms
        acc: dict[Fraction, Fraction] = {}
        for a, c in items:
            a, c = Fraction(a), Fraction(c)
            acc[a] = acc.get(a, Fraction(0)) + c
        self.terms = {a: c for a, c in acc.items() if c != 0}

    @classmethod
    def trusted(cls, terms: dict[Fraction, Fraction]) -> ExpPoly:
        """Trusted constructor: ``terms`` has Fraction keys and non-zero Fraction values
        already, so no summing or dropping is needed (a hot path of the Eq. 2 engine)."""
        obj = cls.__new__(cls)
        obj.terms = terms
        return obj

    @classmethod
    def constant(cls, c: Fraction | int) -> ExpPoly:
        """The constant ``c`` as an ExpPoly (``c e^0``; empty when ``c = 0``)."""
        return cls({Fraction(0): Fraction(c)})

    def __add__(self, other: ExpPoly) -> ExpPoly:
        return ExpPoly(list(self.terms.items()) + list(other.terms.items()))

    def __neg__(self) -> ExpPoly:
        return ExpPoly({a: -c for a, c in self.terms.items()})

    def __sub__(self, other: ExpPoly) -> ExpPoly:
        return self + (-other)

    def __mul__(self, other: ExpPoly) -> ExpPoly:
        return ExpPoly(
            (a1 + a2, c1 * c2) for a1, c1 in self.terms.items() for a2, c2 in other.terms.items()
        )

    def scale(self, c: Fraction) -> ExpPoly:
        """The ExpPoly times the rational ``c``, exactly (empty when ``c = 0``)."""
        c = Fraction(c)
        if c == 0:
            return ExpPoly()
        return ExpPoly.trusted({a: c * v for a, v in self.terms.items()})

    def shift(self, a: Fraction) -> ExpPoly:
        """Multiply by ``e^a``."""
        a = Fraction(a)
        return ExpPoly.trusted({b + a: c for b, c in self.terms.items()})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ExpPoly) and self.terms == other.terms

    def __hash__(self) -> int:
        return hash(frozenset(self.terms.items()))

    def is_zero(self) -> bool:
        """True when there are no terms, which by Lindemann-Weierstrass is exactly when the value
        is 0.
        """
        return not self.terms

    def arb(self, prec: int) -> arb:
        """An arb ball containing the value, at ``prec`` bits (precision restored on exit).

        A term with a huge exponent (``e^(10^40)``) gives a non-finite ball;
        :meth:`sign` shifts the exponents first for that reason.
        """
        with ctx.workprec(prec):
            total = arb(0)
            for a, c in self.terms.items():
                total += arb_from_fraction(c) * exp_ball(a, prec)
            return total

    def sign(self, max_prec: int = MAX_PREC) -> int:
        """The exact sign: 0 iff no terms, else decided by balls at rising precision."""
        if not self.terms:
            return 0
        if all(c > 0 for c in self.terms.values()):
            return 1
        if all(c < 0 for c in self.terms.values()):
            return -1
        # e^{-top} > 0 does not change the sign: with the largest exponent at 0 the balls
        # stay finite however large the exponents are (e^(10^40) is not an arb at any
        # sensible precision; e^(-10^40) is a tiny ball).
        poly = self.shift(-max(self.terms))
        dominant = poly._dominant_sign()
        if dominant:
            return dominant
        return decide_sign(poly.arb, "sign of a non-zero exponential polynomial", 64, max_prec)

    def _dominant_sign(self) -> int:
        """The sign of the top term when it outweighs all others together, else 0.

        With the top exponent 0 and the next one ``a1 < 0``, the rest is at most
        ``S e^{a1}`` (``S`` the sum of their |c|), so ``|c0| > S e^{a1}`` decides. It holds
        when ``a1 < ln(|c0| / S)``; we test a rational lower bound of that log
        (``ln y >= -k ln 2 > -7k/10`` for ``1/y <= 2^k``). Exact, and it settles the
        widely spread exponents of extreme scales (``lambda = 10^-320``) without balls.
        """
        ordered = sorted(self.terms.items(), reverse=True)
        (a0, c0), rest = ordered[0], ordered[1:]
        if a0 != 0 or not rest:
            return 0
        total = sum(abs(c) for _, c in rest)
        y = abs(c0) / total
        if y >= 1:
            bound = Fraction(0)
        else:
            inv = 1 / y
            k = (inv.numerator // inv.denominator + 1).bit_length()  # 2^k > 1/y
            bound = Fraction(-7 * k, 10)
        if rest[0][0] < bound:
            return 1 if c0 > 0 else -1
        return 0

    def sympy(self) -> sympy.Expr:
        """The sum as an exact sympy expression, terms in increasing exponent."""
        import sympy  # the exact symbolic form only, on request (balls never need it)

        return sympy.Add(
            *(
                sympy.Rational(c.numerator, c.denominator)
                * sympy.exp(sympy.Rational(a.numerator, a.denominator))
                for a, c in sorted(self.terms.items())
            )
        )

    def text(self) -> str:
        """The sum as sympy-readable text, built directly (sympy's own printing is slow)."""
        parts = []
        for a, c in sorted(self.terms.items()):
            mag = abs(c)
            if a == 0:
                body = fraction_str(mag)
            else:
                e = "E" if a == 1 else f"exp({fraction_str(a)})"
                body = e if mag == 1 else f"{fraction_str(mag)}*{e}"
            parts.append(("-" if c < 0 else "+", body))
        if not parts:
            return "0"
        head = ("-" if parts[0][0] == "-" else "") + parts[0][1]
        return head + "".join(f" {sign} {body}" for sign, body in parts[1:])

    def __float__(self) -> float:
        return float(self.arb(64).mid())

    def __repr__(self) -> str:
        return f"ExpPoly({self.text()})"


_UNSET: Any = object()

#: exponents up to this size are evaluated as they are (e^256 is an ordinary arb)
_DIRECT_EXPONENT = 256


class LogRatio:
    """``ln(num / den)`` for positive ExpPolys, with an exact comparison."""

    __slots__ = ("num", "den", "_monomial", "_normalized", "_shifted")

    def __init__(self, num: ExpPoly, den: ExpPoly) -> None:
        if num.is_zero() or den.is_zero():
            raise ValueError("LogRatio needs non-zero numerator and denominator")
        self.num, self.den = num, den
        self._monomial: Any = _UNSET
        self._normalized: Any = _UNSET
        self._shifted: Any = _UNSET

    @classmethod
    def of_rational(cls, q: Fraction | int) -> LogRatio:
        """The rational ``q`` as ``ln(e^q / 1)``, to compare LogRatios with a rational."""
        return cls(ExpPoly.trusted({Fraction(q): Fraction(1)}), ExpPoly.constant(1))

    def compare_rational(self, q: Fraction | int) -> int:
        """Exact sign of ``ln(num/den) - q`` = sign(num - e^q den) (den > 0)."""
        return (self.num - self.den.shift(Fraction(q))).sign()

    def exact_compare(self, other: LogRatio) -> int:
        """Sign of self - other: sign(n1 d2 - n2 d1), the denominators being positive."""
        return (self.num * other.den - other.num * self.den).sign()

    def sign(self) -> int:
        """The exact sign of ``ln(num/den)``: the sign of ``num - den`` (:meth:`ExpPoly.sign`)."""
        return (self.num - self.den).sign()

    def __neg__(self) -> LogRatio:
        return LogRatio(self.den, self.num)

    def __abs__(self) -> LogRatio:
        return -self if self.sign() < 0 else self

    def monomial_ratio(self) -> tuple[Fraction, Fraction] | None:
        """(c, a) with num = c e^a den exactly, if such a monomial exists (cached)."""
        if self._monomial is _UNSET:
            self._monomial = None
            if len(self.num.terms) == len(self.den.terms):
                (a1, c1) = max(self.num.terms.items())
                (a2, c2) = max(self.den.terms.items())
                c, a = c1 / c2, a1 - a2
                if self.num == self.den.scale(c).shift(a):
                    self._monomial = (c, a)
        return self._monomial

    def as_rational(self) -> Fraction | None:
        """The value as a Fraction when ``num = e^a den`` exactly (then it is ``a``), else None."""
        m = self.monomial_ratio()
        return m[1] if m is not None and m[0] == 1 else None

    def normalized(self) -> LogRatio:
        """Same value; exponents shifted so the smallest is 0, coefficients made integral."""
        if self._normalized is _UNSET:
            self._normalized = self._normalize()
        return self._normalized

    def _normalize(self) -> LogRatio:
        shift = -min(min(self.num.terms), min(self.den.terms))
        coeffs = list(self.num.terms.values()) + list(self.den.terms.values())
        scale = Fraction(math.lcm(*(c.denominator for c in coeffs)))
        scale /= math.gcd(*((c * scale).numerator for c in coeffs))
        return LogRatio(self.num.shift(shift).scale(scale), self.den.shift(shift).scale(scale))

    def arb(self, prec: int) -> arb:
        """An arb ball containing ``ln(num/den)`` at ``prec`` bits (precision restored on exit).

        When an exponent exceeds 256 in absolute value, each polynomial is first divided by
        ``e`` to its top exponent (an exact rational offset is added back), so the balls stay
        finite at any scale.
        """
        if self._shifted is _UNSET:
            self._shifted = self._shift_for_arb()
        with ctx.workprec(prec):
            if self._shifted is None:
                return self.num.arb(prec).log() - self.den.arb(prec).log()
            offset, num, den = self._shifted
            return arb_from_fraction(offset) + num.arb(prec).log() - den.arb(prec).log()

    def _shift_for_arb(self) -> tuple[Fraction, ExpPoly, ExpPoly] | None:
        """None when the exponents are small enough to evaluate as they are; else
        ``(top_n - top_d, num e^-top_n, den e^-top_d)``: ln(num/den) is their combination,
        and polynomials with exponents <= 0 have finite balls at any scale."""
        num, den = self.num.terms, self.den.terms
        top_n, top_d = max(num), max(den)
        if max(abs(top_n), abs(min(num)), abs(top_d), abs(min(den))) <= _DIRECT_EXPONENT:
            return None
        return top_n - top_d, self.num.shift(-top_n), self.den.shift(-top_d)

    def sympy(self) -> sympy.Expr:
        """The value as an exact sympy expression: ``log(c) + a`` when ``num = c e^a den``,
        else ``log(num/den)`` of the normalized polynomials.
        """
        import sympy  # the exact symbolic form only, on request (balls never need it)

        m = self.monomial_ratio()
        if m is not None:
            c, a = m
            return sympy.log(sympy.Rational(c.numerator, c.denominator)) + sympy.Rational(
                a.numerator, a.denominator
            )
        n = self.normalized()
        return sympy.log(n.num.sympy() / n.den.sympy())

    def exact_text(self) -> str:
        """sympy-readable text of the value (equal to ``str(self.sympy())`` in content)."""
        m = self.monomial_ratio()
        if m is not None:
            return str(self.sympy())
        n = self.normalized()
        num, den = n.num.text(), n.den.text()
        if len(n.num.terms) > 1 or num.startswith("-"):
            num = f"({num})"
        if not (den.isdigit() or den == "E"):
            den = f"({den})"
        return f"log({num}/{den})"

    def __float__(self) -> float:
        return float(self.arb(64).mid())

    def __repr__(self) -> str:
        return f"LogRatio({self.exact_text()})"


class ScaledLog:
    """``factor * ln(ratio)`` for a rational ``factor > 0`` and a :class:`LogRatio`
    (``None`` standing for 0): the shared arithmetic of such values (Liu et al.'s
    ``rho_ij``, Li et al.'s increment ratio ``q_ij``). Subclasses give ``factor`` and
    :meth:`scaled_log`."""

    factor: Fraction

    def scaled_log(self) -> LogRatio | None:
        """The :class:`LogRatio` ``ln(ratio)`` that :attr:`factor` multiplies, or None for the
        value 0; subclasses implement it.
        """
        raise NotImplementedError

    def sympy(self) -> sympy.Expr:
        """``factor * ln(ratio)`` as an exact sympy expression (0 when the ratio is None)."""
        import sympy  # the exact symbolic form only, on request (balls never need it)

        log = self.scaled_log()
        if log is None:
            return sympy.Integer(0)
        f = self.factor
        return sympy.Rational(f.numerator, f.denominator) * log.sympy()

    def arb(self, prec: int) -> arb:
        """An arb ball containing ``factor * ln(ratio)`` at ``prec`` bits (precision restored)."""
        log = self.scaled_log()
        with ctx.workprec(prec):
            if log is None:
                return arb(0)
            return arb_from_fraction(self.factor) * log.arb(prec)

    def compare_rational(self, q: Fraction | int) -> int:
        """Exact sign of ``factor * ln(ratio) - q``."""
        log = self.scaled_log()
        if log is None:
            return (0 > q) - (0 < q)
        return log.compare_rational(Fraction(q) / self.factor)

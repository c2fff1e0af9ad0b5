"""The privacy parameter epsilon, exactly: one :class:`Eps` for every paper.

An epsilon is given in one of two exact forms:

* ``Eps.of(q)``: ``eps = q`` rational (so ``e^eps`` is transcendental unless ``q = 0``,
  Lindemann-Weierstrass);
* ``Eps.log(w)``: ``eps = ln w`` for a rational ``w > 0`` (so ``e^eps = w`` is rational;
  the form Desfontaines et al. Theorem 4 produces, ``eps = -ln(1 - delta)``).

Either way every comparison of ``e^eps`` with a rational, or of ``c0 + c1 e^eps`` with
zero, is decided exactly. Floats are refused: ``Eps.of(0.1)`` is an
:class:`~pdpsym.core.errors.InputError` naming ``eps`` (0.1 is not the rational 1/10).

"e^eps or infinity" (``ExpRatio``: a Fraction, ``None`` for an infinite ``eps``) is the
value of a smallest-epsilon search with delta = 0 (Desfontaines et al. Sec. 2; Liu et
al.'s dependent-DP level ``gamma``); :func:`ratio_max`, :func:`ratio_of` and
:func:`ratio_log` are its arithmetic.

>>> Eps.log(2).exact_exp()
Fraction(2, 1)
>>> Eps.of(0) == Eps.log(1)
True
>>> str(Eps.of("1/2"))
'1/2'
>>> ratio_max(Fraction(3), None) is None
True
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeAlias

import sympy
from flint import arb, ctx
from sympy import Expr

from pdpsym.core.balls import arb_from_fraction
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_rational

#: ``e^eps`` exactly, ``None`` standing for ``+infinity`` (``x/0 = infinity``)
ExpRatio: TypeAlias = Fraction | None


def exact_number(x: object, name: str) -> Fraction:
    """An exact rational from an int, a Fraction (any ``numbers.Rational``) or a number string.

    Args:
        x: the value: an int, a Fraction or other ``numbers.Rational`` (converted through
            its numerator and denominator), or a string in the grammar of
            :func:`~pdpsym.core.numbers.parse_rational`. Floats and bools are refused
            (0.1 is not the rational 1/10).
        name: the field named by the :class:`~pdpsym.core.errors.InputError`.

    Returns:
        The value as an exact :class:`~fractions.Fraction` (a Fraction argument is
        returned as it is).

    Raises:
        InputError: naming ``name``, for a float, a bool, or text outside the grammar.

    References:
        Python docs, :mod:`fractions` and :mod:`numbers` (the ``Rational`` ABC).

    Examples:
        >>> exact_number("1/10", "eps")
        Fraction(1, 10)
    """
    if isinstance(x, float):
        raise InputError(
            name, f"must be exact (an int, a Fraction or a string such as '1/10'), got float {x!r}"
        )
    if isinstance(x, Fraction):
        return x  # already in lowest terms: no gcd of (possibly million-digit) parts
    if isinstance(x, numbers.Rational) and not isinstance(x, bool | int):
        return Fraction(int(x.numerator), int(x.denominator))
    return parse_rational(x, name)


@dataclass(frozen=True, init=False)
class Eps:
    """``eps = exponent`` (rational) or ``eps = ln w`` (rational ``w > 0``), exactly one given.

    ``eps = 0`` is stored as ``w = 1``. ``display`` (optional, not compared) is an equal,
    shorter sympy formula for ``e^eps`` to print instead of a huge rational.

    Examples:
        >>> from pdpsym import Eps
        >>> Eps.log(2), Eps.log(2).w, Eps(1).sympy()
        (Eps.log(2), Fraction(2, 1), 1)
    """

    exponent: Fraction | None
    w: Fraction | None
    display: Any = field(default=None, compare=False)

    def __init__(
        self,
        eps: Any = None,
        exp_eps: Any = None,
        display: Any = None,
        *,
        exponent: Any = None,
        w: Any = None,
    ) -> None:
        # two historical spellings: (eps=, exp_eps=) and (exponent=, w=)
        rational = eps if exponent is None else exponent
        if eps is not None and exponent is not None:
            raise ValueError("give eps or exponent, not both")
        ratio = exp_eps if w is None else w
        if exp_eps is not None and w is not None:
            raise ValueError("give exp_eps or w, not both")
        if (rational is None) == (ratio is None):
            raise ValueError("give exactly one of eps (the exponent) and e^eps")
        if rational is not None:
            q = exact_number(rational, "eps")
            e, r = (None, Fraction(1)) if q == 0 else (q, None)
        else:
            r = exact_number(ratio, "eps")
            if r <= 0:
                raise InputError("eps", f"e^eps must be > 0, got {r}")
            e = None
        object.__setattr__(self, "exponent", e)
        object.__setattr__(self, "w", r)
        object.__setattr__(self, "display", display)

    @classmethod
    def of(cls, x: Eps | Fraction | int | str) -> Eps:
        """``eps = x`` (rational; an Eps is returned as it is)."""
        return x if isinstance(x, Eps) else cls(eps=x)

    @classmethod
    def log(cls, w: Fraction | int | str) -> Eps:
        """``eps = ln w`` for a rational ``w > 0``."""
        return cls(exp_eps=w)

    @classmethod
    def from_exp(cls, c: Fraction | int | str) -> Eps:
        """Same as :meth:`log`: the Eps whose ``e^eps`` is ``c``."""
        return cls(exp_eps=c)

    # -- the two views ------------------------------------------------------------------

    @property
    def eps(self) -> Fraction | None:
        """``eps`` when it is rational (given so, or ``ln 1 = 0``), else None."""
        if self.exponent is not None:
            return self.exponent
        return Fraction(0) if self.w == 1 else None

    @property
    def exp_eps(self) -> Fraction | None:
        """``e^eps`` when it is rational, else None."""
        return self.w

    def rational(self) -> Fraction | None:
        """``eps`` when it is rational, else None (the same as :attr:`eps`)."""
        return self.eps

    def exact_exp(self) -> Fraction | None:
        """``e^eps`` when it is rational, else None (the same as :attr:`exp_eps`)."""
        return self.w

    # -- evaluation -----------------------------------------------------------------------

    def arb_exp(self, prec: int) -> arb:
        """``e^eps`` as an arb ball."""
        with ctx.workprec(prec):
            if self.w is not None:
                return arb_from_fraction(self.w)
            assert self.exponent is not None
            return arb_from_fraction(self.exponent).exp()

    exp_arb = arb_exp

    def arb(self, prec: int) -> arb:
        """``eps`` as an arb ball (``ln`` of the rational ``e^eps`` when given so)."""
        with ctx.workprec(prec):
            rational = self.exponent is not None
            value = arb_from_fraction(self.exponent if rational else self.w)  # type: ignore[arg-type]
            return value if rational else value.log()

    def sympy_exp(self) -> sympy.Expr:
        """``e^eps`` as an exact sympy expression: :attr:`display` when set, else the rational
        ``w`` or ``exp(eps)``.
        """
        if self.display is not None:
            return self.display
        if self.w is not None:
            return sympy.Rational(self.w.numerator, self.w.denominator)
        assert self.exponent is not None
        return sympy.exp(sympy.Rational(self.exponent.numerator, self.exponent.denominator))

    def sympy(self) -> sympy.Expr:
        """``eps`` as an exact sympy expression: the rational exponent, or ``log(w)`` (of
        :attr:`display`, unevaluated, when set).
        """
        if self.display is not None:
            return sympy.log(self.display, evaluate=False)
        if self.w is not None:
            return sympy.log(sympy.Rational(self.w.numerator, self.w.denominator))
        assert self.exponent is not None
        return sympy.Rational(self.exponent.numerator, self.exponent.denominator)

    def exp_sign_bound(self, x: Fraction) -> int:
        """The sign of ``x - e^eps`` when exact bit-length bounds of ``ln x`` settle it
        (``eps`` far from ``ln x``, such as ``eps = 10^9999``), else 0 (undecided here)."""
        if self.w is not None:
            return (x > self.w) - (x < self.w)
        if x <= 0:
            return -1
        assert self.exponent is not None
        bn, bd = x.numerator.bit_length(), x.denominator.bit_length()
        # 2^(bn-1-bd) < x < 2^(bn-bd+1), and 693/1000 < ln 2 < 694/1000
        hi, lo = bn - bd + 1, bn - 1 - bd
        upper = Fraction(hi * (694 if hi >= 0 else 693), 1000)
        lower = Fraction(lo * (693 if lo >= 0 else 694), 1000)
        if self.exponent > upper:
            return -1
        if self.exponent < lower:
            return 1
        return 0

    def affine(self, a: Fraction, b: Fraction) -> Fraction | Expr:
        """``a - e^eps b`` exactly: a Fraction when ``e^eps`` is rational (or ``b = 0``),
        else a sympy expression."""
        if self.w is not None or b == 0:
            return a - (self.w or 0) * b
        return sympy.Rational(a.numerator, a.denominator) - self.sympy_exp() * sympy.Rational(
            b.numerator, b.denominator
        )

    def __str__(self) -> str:
        return str(self.sympy())

    def __repr__(self) -> str:
        if self.exponent is not None:
            return f"Eps.of({self.exponent})"
        return f"Eps.log({self.w})"


# --- e^eps or infinity -----------------------------------------------------------------


def ratio_of(num: Fraction, den: Fraction) -> ExpRatio:
    """``num / den`` as an ``e^eps`` value, with ``x/0 = infinity``.

    Args:
        num: the numerator, a non-negative rational (a probability).
        den: the denominator, likewise.

    Returns:
        The exact Fraction ``num / den``; None (infinity) when ``den = 0`` and
        ``num > 0``; ``Fraction(0)`` when ``den = 0`` and ``num <= 0`` (``0/0`` is read as
        0, which only the callers' supports can rule out).

    References:
        Desfontaines et al. (2020), Section 3.1, Definition 11 (the convention
        ``x/0 = infinity``).

    Examples:
        >>> ratio_of(Fraction(1, 2), Fraction(1, 4)), ratio_of(Fraction(1), Fraction(0))
        (Fraction(2, 1), None)
    """
    if den == 0:
        return None if num > 0 else Fraction(0)
    return num / den


def ratio_max(x: ExpRatio, y: ExpRatio) -> ExpRatio:
    """The larger of two ``e^eps`` values, None standing for infinity.

    Args:
        x: an ``e^eps`` value (a Fraction, or None for infinity).
        y: another.

    Returns:
        None when either is None, else the larger Fraction (exact comparison).

    References:
        Desfontaines et al. (2020), Section 3.2, Definition 12 (the smallest ``eps`` is a
        maximum over secrets and partial knowledge).
    """
    if x is None or y is None:
        return None
    return max(x, y)


def ratio_log(x: ExpRatio) -> sympy.Expr:
    """``eps = ln x`` exactly, for an ``e^eps`` value ``x``.

    Args:
        x: a non-negative Fraction, or None for infinity.

    Returns:
        A sympy expression: ``oo`` for None, ``-oo`` for 0, else ``log(x)`` (sympy
        simplifies ``log(1)`` to 0).

    References:
        Desfontaines et al. (2020), Section 3.1, Definition 11 (the PLRV is a log-ratio).

    Examples:
        >>> ratio_log(Fraction(4)), ratio_log(None)
        (log(4), oo)
    """
    if x is None:
        return sympy.oo
    if x == 0:
        return -sympy.oo
    return sympy.log(sympy.Rational(x.numerator, x.denominator))


__all__ = ["Eps", "ExpRatio", "exact_number", "ratio_log", "ratio_max", "ratio_of"]

"""Certified evaluation: exact values to digits that are certain.

A value is exact -- a :class:`fractions.Fraction`, a sympy expression built from
rationals with ``exp``, ``log``, ``sqrt``, ``erf``/``erfc``, ``pi``, ``binomial`` ...,
or any object with ``arb(prec)`` and ``sympy()`` methods (such as
:class:`pdpsym.core.exp_polynomials.LogRatio`). It is evaluated as a python-flint ``arb`` ball
at a working precision that is raised until both ends of the ball round to the same
``digits`` significant decimal digits. The rounded string is then the correctly rounded
value and every digit of it is certain; the ball's ends are reported, outward rounded,
as the enclosure.

Precision is handled through ``flint.ctx.workprec`` (a context manager) and is never
left changed, in the spirit of mpmath's explicit contexts.

References: Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval
arithmetic", IEEE Trans. Computers 66(8), 2017 (the balls); Ziv, "Fast evaluation of
elementary mathematical functions with correctly rounded last bit", ACM TOMS 17(3), 1991
(raising the precision until the answer is certain).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, runtime_checkable

from flint import arb, ctx, fmpq

from pdpsym.core.balls import arb_from_fraction, ball_endpoints
from pdpsym.core.decimals import decimal_string, fixed_digits
from pdpsym.core.errors import Undecided

if TYPE_CHECKING:  # sympy loads on first use: ball and decimal helpers do not need it
    import sympy

MAX_PREC = 1 << 14  # bits; beyond this a value is "undecided", never guessed


@runtime_checkable
class ArbEvaluable(Protocol):
    """An exact value that knows how to enclose itself in an arb ball."""

    def arb(self, prec: int) -> arb:
        """An arb ball containing the value, at ``prec`` bits."""

    def sympy(self) -> sympy.Expr:
        """The value as an exact sympy expression."""


#: The one protocol of exact value types (LogRatio, ExpPoly, ChainValue, Hockey, WLin, ...):
#: ``arb(prec)`` encloses the value, ``sympy()`` gives its exact expression; optional
#: ``as_rational()``, ``exact_text()`` and ``exact_compare(other)`` (same type) are used
#: by :func:`certify` and :func:`~pdpsym.core.compare.compare` when present.
ExactValue = ArbEvaluable

Exact: TypeAlias = "Fraction | int | sympy.Expr | ArbEvaluable"


# --- sympy -> arb -----------------------------------------------------------------


@functools.cache
def _unary() -> dict[Any, Callable[[arb], arb]]:
    import sympy  # noqa: PLC0415 (lazily: sympy loads only for sympy values)

    return {
        sympy.exp: lambda a: a.exp(),
        sympy.log: lambda a: a.log(),
        sympy.erf: lambda a: a.erf(),
        sympy.erfc: lambda a: a.erfc(),
        sympy.sqrt: lambda a: a.sqrt(),
        sympy.Abs: lambda a: abs(a),
        sympy.sinh: lambda a: a.sinh(),
        sympy.cosh: lambda a: a.cosh(),
        sympy.tanh: lambda a: a.tanh(),
        sympy.gamma: lambda a: a.gamma(),
    }


def sympy_to_arb(expr: sympy.Expr, prec: int, log1p: bool = False) -> arb:
    """Enclose a sympy expression in an arb ball at ``prec`` bits (precision restored on exit).

    The expression is evaluated bottom-up in ball arithmetic: rationals, ``pi``, ``E``,
    sums, products, powers (integer exponents by repeated products, others by ``arb``
    powers), ``exp``, ``log``, ``erf``, ``erfc``, ``sqrt``, ``Abs``, ``sinh``, ``cosh``,
    ``tanh``, ``gamma``, ``binomial`` and ``factorial`` of integers, ``Max`` and ``Min``.
    The ball may be non-finite (a logarithm of a ball holding 0, an overflowing
    exponential); callers test ``is_finite()``.

    Args:
        expr: an exact sympy expression built by the library (it is passed to
            ``sympy.sympify``, so never pass user text).
        prec: working precision in bits.
        log1p: whether ``log((1 + x)^k)`` is enclosed as ``k log1p(x)`` (the same number;
            a relative enclosure of ``x`` then gives one of the logarithm, where
            ``1 + x`` rounds to 1 for a tiny ``x``: ``log(1/(1 - 10^-47000))``).

    Returns:
        An arb ball containing the value of ``expr``.

    Raises:
        TypeError: for a sympy Float (not an exact value) or a function outside the list
            above.

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic",
        IEEE Trans. Computers 66(8), 2017; python-flint docs (the ``arb`` functions used).
    """
    import sympy  # noqa: PLC0415 (lazily: sympy loads only for sympy values)

    with ctx.workprec(prec):
        return _to_arb(sympy.sympify(expr), sympy, _unary(), log1p)


def _log1p_form(e: sympy.Basic, sp: Any) -> tuple[sympy.Basic, int] | None:
    """``(x, k)`` with ``e = (1 + x)^k`` syntactically (``k`` an integer), else None."""
    k = 1
    if e.is_Pow and e.args[1].is_Integer:
        e, k = e.args[0], int(e.args[1])
    if not e.is_Add or sp.S.One not in e.args:
        return None
    rest = list(e.args)
    rest.remove(sp.S.One)
    x = rest[0] if len(rest) == 1 else sp.Add(*rest, evaluate=False)
    return x, k


def _to_arb(
    e: sympy.Basic, sp: Any, unary: dict[Any, Callable[[arb], arb]], log1p: bool = False
) -> arb:
    # sp: the sympy module, passed down with the function table (no import per node)
    if log1p and e.func is sp.log and (form := _log1p_form(e.args[0], sp)) is not None:
        x, k = form
        return k * _to_arb(x, sp, unary, log1p).log1p()
    if e.is_Rational:
        return arb(fmpq(int(e.p), int(e.q)))  # type: ignore[attr-defined]
    if e is sp.pi:
        return arb.pi()
    if e is sp.E:
        return arb(1).exp()
    if e.is_Float:
        raise TypeError("floats are not exact values; build expressions from rationals")
    if e.is_Add:
        total = arb(0)
        for term in e.args:
            total += _to_arb(term, sp, unary, log1p)
        return total
    if e.is_Mul:
        prod = arb(1)
        for factor in e.args:
            prod *= _to_arb(factor, sp, unary, log1p)
        return prod
    if e.is_Pow:
        base, exponent = e.args
        if exponent.is_Integer:
            b = _to_arb(base, sp, unary, log1p)
            n = int(exponent)
            return b**n if n >= 0 else 1 / b ** (-n)
        return _to_arb(base, sp, unary, log1p) ** _to_arb(exponent, sp, unary, log1p)
    func = e.func
    if func in unary:
        return unary[func](_to_arb(e.args[0], sp, unary, log1p))
    if func is sp.binomial:
        n, k = e.args
        if n.is_Integer and k.is_Integer:
            return arb(int(sp.binomial(n, k)))
    if func is sp.factorial and e.args[0].is_Integer:
        return arb(int(sp.factorial(e.args[0])))
    if isinstance(e, sp.CRootOf) and e.is_real:
        # a real algebraic number: sympy refines its isolating interval exactly, so the
        # rational it returns lies within dx of the root (Sturm sequences, no floats)
        dx = sp.Rational(1, 2 ** (ctx.prec + 8))
        mid = e.eval_rational(dx=dx, dy=dx)
        return arb(fmpq(int(mid.p), int(mid.q)), fmpq(int(dx.p), int(dx.q)))
    if func in (sp.Max, sp.Min):
        vals = [_to_arb(a, sp, unary, log1p) for a in e.args]
        out = vals[0]
        for v in vals[1:]:
            out = out.max(v) if func is sp.Max else out.min(v)
        return out
    raise TypeError(f"cannot enclose {func} in an arb ball")


def enclose(value: Exact, prec: int) -> arb:
    """An arb ball containing ``value`` at working precision ``prec`` bits.

    Args:
        value: an exact value: a Fraction or int (converted at ``prec`` bits), an
            :data:`ExactValue` (its own ``arb(prec)``, which handles the precision), or a
            sympy expression (:func:`sympy_to_arb`).
        prec: working precision in bits.

    Returns:
        An arb ball containing ``value`` (possibly non-finite; see :func:`sympy_to_arb`).

    Raises:
        TypeError: for a sympy expression :func:`sympy_to_arb` cannot enclose.

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic",
        IEEE Trans. Computers 66(8), 2017.
    """
    if isinstance(value, Fraction | int):
        with ctx.workprec(prec):
            return arb_from_fraction(value)
    if isinstance(value, ArbEvaluable):
        return value.arb(prec)
    return sympy_to_arb(value, prec)


def as_sympy(value: Exact) -> sympy.Expr:
    """The value as an exact sympy expression.

    Args:
        value: a Fraction or int (a sympy ``Rational``), an :data:`ExactValue` (its
            ``sympy()``), or a sympy expression (returned through ``sympy.sympify``; never
            pass user text).

    Returns:
        An exact sympy expression equal to ``value``.

    References:
        SymPy docs, ``sympy.sympify`` and ``sympy.Rational``.
    """
    import sympy  # noqa: PLC0415 (lazily: sympy loads only for sympy values)

    if isinstance(value, Fraction | int):
        q = Fraction(value)
        return sympy.Rational(q.numerator, q.denominator)
    if isinstance(value, ArbEvaluable):
        return value.sympy()
    return sympy.sympify(value)


def exact_rational(value: Exact) -> Fraction | None:
    """The value as a Fraction when it is (syntactically) rational, else None.

    No simplification is tried: ``sqrt(4)`` is rational because sympy evaluates it on
    construction, but ``(1 + sqrt(2))**2 - 2*sqrt(2)`` (equal to 3) is not recognized.

    Args:
        value: a Fraction or int (always rational), an :data:`ExactValue` (rational when
            its optional ``as_rational()`` says so), or a sympy expression (rational when
            it is a sympy ``Rational``).

    Returns:
        The exact Fraction, or None.

    References:
        Python docs, :mod:`fractions`; SymPy docs, ``Expr.is_Rational``.
    """
    if isinstance(value, Fraction | int):
        return Fraction(value)
    if isinstance(value, ArbEvaluable):
        as_q = getattr(value, "as_rational", None)
        return as_q() if as_q else None
    import sympy  # noqa: PLC0415 (lazily: sympy loads only for sympy values)

    e = sympy.sympify(value)
    if e.is_Rational:
        return Fraction(int(e.p), int(e.q))  # type: ignore[attr-defined]
    return None


def decide_sign(
    ball_of: Callable[[int], arb],
    what: str,
    start_prec: int = 64,
    max_prec: int = MAX_PREC,
    exact_zero: bool = False,
) -> int:
    """The sign of a value given as arb balls, precision doubled until the ball excludes 0.

    The precision-raising loop of the sign decisions (by :func:`refine`): ``ball_of`` is
    called at ``start_prec``, ``2 start_prec``, ... up to ``max_prec`` bits. With
    ``exact_zero``, an exact zero ball (both ends 0) decides 0. Otherwise a value that is 0
    never separates from 0, and :class:`~pdpsym.core.errors.Undecided` is raised: never a
    guess.

    Args:
        ball_of: a function from a precision in bits to an arb ball containing the value
            (it sets and restores the precision itself).
        what: a description of the value, for the ``Undecided`` message.
        start_prec: the first precision tried, in bits.
        max_prec: the largest precision tried, in bits.
        exact_zero: whether an exact zero ball decides the sign 0.

    Returns:
        ``1``, ``-1``, or ``0`` (the last only with ``exact_zero``).

    Raises:
        Undecided: naming ``what`` and ``max_prec``, when the last ball still holds 0.

    References:
        Johansson, Arb (2017), and Ziv (1991), cited in full in the module docstring:
        precision raised until a decision is certain.

    Examples:
        >>> import sympy
        >>> decide_sign(lambda p: enclose(sympy.sqrt(2) - Fraction(7, 5), p), "x")
        1
    """

    def settled(b: arb) -> bool:
        return bool(b > 0 or b < 0 or (exact_zero and b.is_exact() and b == 0))

    ball = refine(ball_of, settled, start_prec, max_prec)
    if ball > 0:
        return 1
    if ball < 0:
        return -1
    if exact_zero and ball.is_exact() and ball == 0:
        return 0
    raise Undecided(what, max_prec)


def separate(
    x_of: Callable[[int], arb],
    y_of: Callable[[int], arb],
    start_prec: int,
    max_prec: int = 1 << 13,
) -> int:
    """The sign of ``x - y`` from balls at rising precision when their overlap is only
    imprecision, else 0 (undecided here: the caller decides exactly).

    At ``start_prec`` balls whose difference has a radius at most ``2^-60`` times the
    values' size overlap because the values are equal or nearly so: then no precision is
    raised (0 at once), which keeps ordinary runs free of this loop. Balls that are wide for
    their values (values near ``10^320`` carry a radius near ``10^282`` at 128 bits;
    values near ``10^-300`` one far above them) are refined from ``2 start_prec`` up to
    ``max_prec`` bits. Never raises :class:`~pdpsym.core.errors.Undecided`.

    Args:
        x_of: a function from a precision in bits to a ball containing ``x``.
        y_of: likewise for ``y``.
        start_prec: the first precision, in bits.
        max_prec: the largest precision tried, in bits.

    Returns:
        ``1`` or ``-1`` when the balls separate, ``0`` when they do not (which proves
        nothing about equality).

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic",
        IEEE Trans. Computers 66(8), 2017; Moore, Kearfott, Cloud, Introduction to Interval
        Analysis, SIAM 2009, Ch. 2 (order of disjoint intervals).
    """
    with ctx.workprec(start_prec):
        bx, by = x_of(start_prec), y_of(start_prec)
        d = bx - by
    if d > 0:
        return 1
    if d < 0:
        return -1
    size = bx.abs_upper()
    if by.abs_upper() > size:
        size = by.abs_upper()
    if d.rad() <= size * arb(2) ** -60:
        return 0

    def diff(prec: int) -> arb:
        with ctx.workprec(prec):
            return x_of(prec) - y_of(prec)

    ball = refine(diff, lambda b: bool(b > 0 or b < 0), start_prec * 2, max_prec)
    return 1 if ball > 0 else -1 if ball < 0 else 0


def refine(
    ball_of: Callable[[int], arb],
    settled: Callable[[arb], bool],
    start_prec: int = 64,
    max_prec: int = MAX_PREC,
) -> arb:
    """``ball_of(prec)`` at doubling precision until ``settled(ball)``.

    Precisions ``start_prec, 2 start_prec, ...`` are tried while the doubled precision
    stays ``<= max_prec``. The caller decides what an unsettled ball means
    (:func:`decide_sign` raises ``Undecided``).

    Args:
        ball_of: a function from a precision in bits to an arb ball.
        settled: whether a ball is good enough.
        start_prec: the first precision, in bits.
        max_prec: the bound on the precisions tried, in bits.

    Returns:
        The first settled ball, or the last one computed when none settles.

    References:
        Ziv (1991), cited in full in the module docstring.
    """
    prec = start_prec
    ball = ball_of(prec)
    while not settled(ball) and prec * 2 <= max_prec:
        prec *= 2
        ball = ball_of(prec)
    return ball


# --- certification ------------------------------------------------------------------


@dataclass(frozen=True)
class Certified:
    """An exact value with a certified decimal and its enclosure.

    ``decimal`` holds ``digits`` significant digits, all certain (correct rounding of
    the exact value); the exact value lies in ``[enclosure[0], enclosure[1]]``.
    """

    exact: str
    decimal: str
    enclosure: tuple[str, str]
    digits: int
    prec: int

    def as_json(self) -> dict[str, Any]:
        """The JSON form: ``{"exact", "decimal", "enclosure"}`` (the enclosure as a list; the
        digits and the precision are left out).
        """
        return {"exact": self.exact, "decimal": self.decimal, "enclosure": list(self.enclosure)}


def certify(value: Exact, digits: int = 30, max_prec: int = MAX_PREC) -> Certified:
    """Evaluate ``value`` until ``digits`` significant digits are certain.

    A rational value (:func:`exact_rational`) is rounded exactly (``prec`` 0). Otherwise
    the value is enclosed (:func:`enclose`) at ``max(64, 3.33 digits + 32)`` bits, doubled
    while ``<= max_prec``, until the ball is finite, excludes 0 and both of its ends round
    to the same digits (:func:`fixed_digits`). When no precision suffices, ``simplify``
    rewrites it (not past a power above ``max_prec``); a rational result is certified so.
    Nothing is ever guessed from digits.

    Args:
        value: an exact value (Fraction, int, sympy expression or :data:`ExactValue`).
        digits: the number of significant digits, ``>= 1``.
        max_prec: the largest working precision tried, in bits.

    Returns:
        A :class:`Certified`: the exact text (:func:`exact_str`), the correctly rounded
        decimal (ties to even), the enclosure rounded outward to ``digits + 3`` digits,
        ``digits``, and the precision used.

    Raises:
        ValueError: when ``digits < 1``.
        Undecided: when ``max_prec`` bits do not suffice and simplification finds no
            rational: a non-rational expression sitting exactly on a rounding tie, or
            equal to zero without being syntactically zero.
        TypeError: for a sympy expression that cannot be enclosed (:func:`sympy_to_arb`).

    References:
        Johansson, Arb (2017); Ziv (1991), precision raised until the rounding is certain
        (both cited in full in the module docstring).

    Examples:
        >>> import sympy
        >>> c = certify(sympy.sqrt(2), 5)
        >>> c.exact, c.decimal, c.enclosure
        ('sqrt(2)', '1.4142', ('1.4142135', '1.4142136'))
    """
    if digits < 1:
        raise ValueError("digits must be >= 1")
    exact_text = exact_str(value)
    q = exact_rational(value)
    if q is not None:
        dec = decimal_string(q, digits)
        lo_text = decimal_string(q, digits + 3, "down")
        hi_text = decimal_string(q, digits + 3, "up")
        return Certified(exact_text, dec, (lo_text, hi_text), digits, 0)
    prec = max(64, int(digits * 3.33) + 32)
    while prec <= max_prec:
        ball = enclose(value, prec)
        if ball.is_finite():
            fixed = fixed_digits(*ball_endpoints(ball), digits)
            if fixed is not None:
                return Certified(exact_text, fixed[0], fixed[1], digits, prec)
        prec *= 2
    # An expression that is rational (or zero) without looking it: a symbolic proof. Only
    # exact rewriting: nsimplify guesses a closed form from digits, and "proved" a leakage
    # of about 1e-5000 to be exactly 0 (leakage at lam = 1e5000)
    import sympy  # noqa: PLC0415 (lazily: sympy loads only for sympy values)

    # not past powers, binomials or factorials of size beyond max_prec: no rational the balls
    # missed, and a log of one ran a 47,000-digit primality test for half an hour
    expr = as_sympy(value)
    sizes = (
        a.exp if a.is_Pow else a.args[0]
        for a in sympy.preorder_traversal(expr)
        if a.is_Pow or isinstance(a, sympy.binomial | sympy.factorial)
    )
    if all(not n.is_Integer or abs(int(n)) <= max_prec for n in sizes):
        simplified = sympy.simplify(expr)
        if simplified.is_Rational:
            return certify(simplified, digits, max_prec)
    # a logarithm of 1 + x with a tiny x (Theorem 4's eps = log(1/(1 - delta)) at
    # delta = 1e-47000): the same number, enclosed by log1p; tried last, so every value
    # certified before keeps its enclosure
    if not isinstance(value, Fraction | int) and not hasattr(value, "arb"):
        prec = max(64, int(digits * 3.33) + 32)
        while prec <= max_prec:
            ball = sympy_to_arb(as_sympy(value), prec, log1p=True)
            if ball.is_finite():
                fixed = fixed_digits(*ball_endpoints(ball), digits)
                if fixed is not None:
                    return Certified(exact_text, fixed[0], fixed[1], digits, prec)
            prec *= 2
    raise Undecided(f"certifying {exact_text}", max_prec)


def exact_str(value: Exact) -> str:
    """The exact value as text.

    Args:
        value: an exact value.

    Returns:
        The value's own ``exact_text()`` when it has one, else ``sympy.sstr`` of its
        exact expression (which ``sympy.parse_expr`` reads back). A
        :class:`~pdpsym.core.exp_sqrt_sums.Bracket` gives its label, which is not a formula.

    References:
        SymPy docs, ``sympy.sstr`` and ``sympy.parse_expr``.
    """
    text = getattr(value, "exact_text", None)
    if text is not None:
        return str(text())
    import sympy  # noqa: PLC0415 (lazily: sympy loads only for sympy values)

    return sympy.sstr(as_sympy(value))


def certified_float(value: Exact) -> float:
    """A float near the value, for ranking and plotting only, never for deciding.

    Args:
        value: an exact value.

    Returns:
        The midpoint of the value's ball at 64 bits, as a float (``inf`` or ``nan`` when
        the ball is not finite or out of float range).

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic",
        IEEE Trans. Computers 66(8), 2017.
    """
    return float(enclose(value, 64).mid())


def ball_decimal(x: arb, digits: int) -> dict[str, Any] | None:
    """``{"decimal", "enclosure"}`` from an arb ball, as :meth:`Certified.as_json` gives
    them (without the closed form).

    Args:
        x: an arb ball.
        digits: the number of significant digits, ``>= 1``.

    Returns:
        The decimal and its outward-rounded enclosure (a list of two strings) when the ball
        is finite and fixes ``digits`` digits by the rule of :func:`fixed_digits`, else
        None.

    References:
        Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic",
        IEEE Trans. Computers 66(8), 2017; Moore, Kearfott, Cloud, Introduction to Interval
        Analysis, SIAM 2009, Ch. 2.
    """
    fixed = fixed_digits(*ball_endpoints(x), digits) if x.is_finite() else None
    return None if fixed is None else {"decimal": fixed[0], "enclosure": list(fixed[1])}


__all__ = [
    "MAX_PREC",
    "ArbEvaluable",
    "Certified",
    "Exact",
    "ExactValue",
    "ball_decimal",
    "certified_float",
    "certify",
    "decide_sign",
    "refine",
    "separate",
    "enclose",
    "exact_rational",
    "exact_str",
    "sympy_to_arb",
]

"""The number kernel: strict parsing, certified digits, decided comparisons, exp-polynomials."""

from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from pdpsym.core import ExpPoly, LogRatio, certify, compare, decided_max, parse_rational
from pdpsym.core.compare import screen_then_decide
from pdpsym.core.decimals import decimal_string
from pdpsym.core.errors import InputError, Undecided


@pytest.mark.parametrize(
    "text,value",
    [
        ("3/10", Fraction(3, 10)),
        ("0.3", Fraction(3, 10)),
        ("-2", Fraction(-2)),
        ("1e-3", Fraction(1, 1000)),
        (" 7/14 ", Fraction(1, 2)),
        (".5", Fraction(1, 2)),
    ],
)
def test_parse_rational_accepts_the_grammar(text, value):
    assert parse_rational(text, "f") == value


@pytest.mark.parametrize(
    "text", ["1/0", "nan", "inf", "2**3", "__import__('os')", "1/2/3", "", "0x10", "1,5", True, 0.3]
)
def test_parse_rational_rejects_everything_else(text):
    with pytest.raises(InputError) as err:
        parse_rational(text, "rows[0][1]")
    assert err.value.field == "rows[0][1]"


@given(st.fractions(max_denominator=10**6))
def test_parse_rational_round_trips_fractions(q):
    assert parse_rational(f"{q.numerator}/{q.denominator}", "f") == q


@given(st.integers(1, 40), st.fractions(min_value=-50, max_value=50, max_denominator=97))
def test_certified_digits_are_the_correct_rounding(digits, q):
    expr = sympy.exp(sympy.Rational(q.numerator, q.denominator)) - 1
    c = certify(expr, digits)
    with mpmath.workdps(digits + 60):
        truth = mpmath.exp(mpmath.mpf(q.numerator) / q.denominator) - 1
        assert mpmath.mpf(c.enclosure[0]) <= truth <= mpmath.mpf(c.enclosure[1])
        expected = mpmath.nstr(truth, digits, strip_zeros=False, min_fixed=-6, max_fixed=21)
    assert Fraction(c.decimal) == Fraction(expected) or mpmath.mpf(c.decimal) == mpmath.mpf(
        expected
    )


def test_certify_rationals_exactly_and_transcendentals_with_enclosures():
    assert certify(Fraction(1, 3), 5).decimal == "0.33333"
    assert certify(sympy.Integer(0), 5).decimal == "0"
    assert certify(sympy.log(2), 10).decimal == "0.6931471806"
    # a value equal to a rational without looking it: decided by a symbolic proof
    assert certify(sympy.log(sympy.exp(sympy.Rational(1, 2)) * sympy.E), 4, max_prec=256).exact in (
        "3/2",
        "log(exp(3/2))",
    )


def test_decimal_rounding_modes():
    assert decimal_string(Fraction(2, 3), 3) == "0.667"
    assert decimal_string(Fraction(2, 3), 3, "down") == "0.666"
    assert decimal_string(Fraction(-2, 3), 3, "up") == "-0.666"
    assert decimal_string(Fraction(999996, 1000000), 3, "nearest") == "1.00"


def test_compare_decides_by_intervals_and_by_symbolic_proof():
    assert compare(sympy.pi, Fraction(22, 7)).sign == -1
    assert compare(sympy.log(4), 2 * sympy.log(2)).method == "symbolic"
    assert compare(Fraction(1, 3), Fraction(1, 3)).sign == 0
    idx, _ = decided_max([sympy.log(3), sympy.Rational(109, 100), sympy.sqrt(2) - 1])
    assert idx == 0


def test_compare_says_undecided_rather_than_guess():
    class Opaque:
        """Enclosures of width 1 forever: no precision separates it from 0."""

        def arb(self, prec):
            from flint import arb

            return arb(0, 1)

        def sympy(self):
            return sympy.Symbol("opaque")

    with pytest.raises(Undecided):
        compare(Opaque(), Fraction(0), max_prec=256)


def test_expoly_zero_test_is_exact():
    e = ExpPoly({Fraction(1): Fraction(2), Fraction(0): Fraction(-1)})
    assert not e.is_zero() and (e - e).is_zero()
    assert e.sign() == 1  # 2e - 1 > 0
    assert ExpPoly({Fraction(1): 1, Fraction(0): Fraction(-27183, 10000)}).sign() == -1


@given(
    st.lists(
        st.tuples(st.fractions(-3, 3, max_denominator=5), st.fractions(-5, 5, max_denominator=7)),
        min_size=1,
        max_size=5,
    )
)
def test_expoly_sign_agrees_with_high_precision(terms):
    e = ExpPoly(terms)
    with mpmath.workdps(80):
        v = mpmath.fsum(
            mpmath.mpf(c.numerator)
            / c.denominator
            * mpmath.exp(mpmath.mpf(a.numerator) / a.denominator)
            for a, c in e.terms.items()
        )
    expected = 0 if e.is_zero() else (1 if v > 0 else -1)
    assert e.sign() == expected


def test_logratio_monomial_ratios_are_rational():
    num = ExpPoly({Fraction(2): 3, Fraction(1): 6})
    den = ExpPoly({Fraction(1): 3, Fraction(0): 6})
    assert LogRatio(num, den).as_rational() == 1
    assert str(LogRatio(num, den).sympy()) == "1"


def test_screen_then_decide_returns_the_exact_maximum_among_near_ties():
    import numpy as np

    exact = [sympy.log(3), sympy.log(3) + sympy.Rational(1, 10**12), sympy.Integer(0)]
    floats = np.array([float(v) for v in exact])
    idx, value, decided = screen_then_decide(
        floats, lambda k: exact[k], lambda a, b: compare(a, b).sign
    )
    assert idx == 1 and decided == 2


_terms = st.lists(
    st.tuples(st.fractions(-3, 3, max_denominator=4), st.fractions(1, 5, max_denominator=5)),
    min_size=1,
    max_size=4,
)


@given(_terms, _terms)
def test_logratio_exact_text_reads_back_as_the_same_value(a, b):
    value = LogRatio(ExpPoly(a), ExpPoly(b))
    assert sympy.simplify(sympy.parse_expr(value.exact_text()) - value.sympy()) == 0


def test_parse_int_is_the_strict_grammar_with_bounds() -> None:
    from pdpsym.core.errors import InputError
    from pdpsym.core.numbers import parse_int

    assert (
        parse_int("12", "f") == 12 and parse_int("4/2", "f") == 2 and parse_int("1e3", "f") == 1000
    )
    for bad, lo, hi in [("1/2", None, None), ("0", 1, None), ("7", 1, 5), ("abc", None, None)]:
        with pytest.raises(InputError) as err:
            parse_int(bad, "--count", lo, hi)
        assert "--count" in str(err.value)

"""A logarithm of ``1 + x`` with a tiny ``x``, certified (``log1p``) where ``1 + x`` rounds to 1
at every precision the plain enclosure tries: Theorem 4's ``eps = log(1/(1 - delta))`` at
``delta`` near ``1e-47670`` (``threshold --n 100000 --p 1/3 --T 99990 --eps 1``)."""

from __future__ import annotations

import contextlib
import io
import json
from fractions import Fraction

import mpmath
import pytest
import sympy

from pdpsym.app.cli import main
from pdpsym.core.certify import certify


def test_log_of_one_over_one_minus_tiny() -> None:
    # source: mpmath at 200 digits of -log1p(-x) with x = 3^-100000 (mpmath keeps the
    # exponent; log(1/(1-x)) = x + x^2/2 + ..., so its leading digits are x's)
    x = sympy.Pow(sympy.Rational(1, 3), 100000, evaluate=False)
    value = sympy.log(1 / (1 - x), evaluate=False)
    got = certify(value, 20)
    with mpmath.workdps(200):
        ref = -mpmath.log1p(-(mpmath.mpf(3) ** -100000))
        assert got.decimal == mpmath.nstr(ref, 20, min_fixed=1, max_fixed=0)


def test_plain_values_keep_their_enclosure() -> None:
    # source: hand derivation: log(1 + 1/2) needs no rewriting, and its enclosure is the
    # one of the plain evaluation (log1p is tried only when nothing else certifies)
    got = certify(sympy.log(1 + sympy.Rational(1, 2)), 10)
    assert got.decimal == "0.4054651081"  # ln(3/2) = 0.405465108108164...
    assert Fraction(got.enclosure[0]) < Fraction("0.4054651081081644") < Fraction(got.enclosure[1])


@pytest.mark.slow
def test_threshold_far_tail_certified() -> None:
    # source: Theorem 4 with |B| = 0: eps = log(1/(1 - delta)) and delta < 1e-47000, so
    # eps and delta agree in every printed digit (eps - delta = delta^2/2 + ...)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(
            [
                "threshold",
                "--n",
                "100000",
                "--p",
                "1/3",
                "--T",
                "99990",
                "--eps",
                "1",
                "--json",
                "--digits",
                "20",
            ]
        )
    assert code == 0
    th4 = json.loads(out.getvalue())["theorem4"]
    assert th4["epsilon"]["decimal"] == th4["delta"]["decimal"]
    assert th4["delta"]["decimal"].endswith("e-47670")


def test_no_rewriting_past_a_power_above_the_precision(monkeypatch) -> None:
    # source: mpmath at 60 digits of x = (2/3)^9 3^-99990 binomial(99999, 9) 22220/11109
    # (Theorem 4's delta at n = 100000, T = 99990); log(1/(1 - x)) = x + x^2/2 + ... and
    # x^2 is 47,670 orders below x, so the first 20 digits are x's. The plain enclosure
    # cannot show them (1 - x rounds to 1); sympy.simplify must not be tried (it evaluates
    # 3^-99990, and a logarithm of the result once ran a 47,000-digit primality test for
    # half an hour): the log1p enclosure certifies it
    x = sympy.Mul(
        sympy.Pow(sympy.Rational(2, 3), 9, evaluate=False),
        sympy.Pow(sympy.Rational(1, 3), 99990, evaluate=False),
        sympy.binomial(99999, 99990, evaluate=False),
        sympy.Rational(22220, 11109),
        evaluate=False,
    )
    value = sympy.log(1 / sympy.Add(1, -x, evaluate=False), evaluate=False)

    def no_simplify(*_args, **_kwargs):
        raise AssertionError("sympy.simplify was tried")

    monkeypatch.setattr(sympy, "simplify", no_simplify)
    got = certify(value, 20)
    with mpmath.workdps(60):
        ref = (
            mpmath.mpf(2) ** 9 / mpmath.mpf(3) ** 99999 * mpmath.binomial(99999, 9) * 22220 / 11109
        )
        assert got.decimal == mpmath.nstr(ref, 20, min_fixed=1, max_fixed=0)

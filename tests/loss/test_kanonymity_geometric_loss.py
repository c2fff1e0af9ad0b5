"""KAnonymityLoss and GeometricConvolutionLoss against enumeration and hand closed forms.

Every expected value is computed IN the test: by enumerating every database of the other
records (Fractions), or from a closed form derived by hand in the comment.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction as F

import mpmath
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.core.eps import Eps
from pdpsym.loss import GeometricConvolutionLoss, KAnonymityLoss, PrivacyLoss
from pdpsym.mechanisms.count_law import CountLaw


def _hockey(P: dict[object, F], Q: dict[object, F], c: F) -> F:
    """Σ_o (P(o) - c Q(o))_+ over the union of supports (Lemma 1, by hand)."""
    return sum((max(F(0), P.get(o, F(0)) - c * Q.get(o, F(0))) for o in set(P) | set(Q)), F(0))


def _laws(
    n: int, probs: dict[str, F], t: str, t2: str, view: Callable[[tuple[str, ...]], object]
) -> tuple[dict[object, F], dict[object, F]]:
    """The laws of ``view(database)`` with record 0 fixed to ``t`` / ``t2``, by enumeration."""
    out: tuple[dict[object, F], dict[object, F]] = ({}, {})
    for side, first in enumerate((t, t2)):
        for others in itertools.product(list(probs), repeat=n - 1):
            w = F(1)
            for v in others:
                w *= probs[v]
            o = view((first, *others))
            out[side][o] = out[side].get(o, F(0)) + w
    return out


def _value(loss: PrivacyLoss, c: F) -> sympy.Expr:
    return sympy.simplify(loss.delta(Eps.from_exp(c)).sympy())


def test_histogram_against_enumeration() -> None:
    probs = {"0": F(1, 5), "1": F(3, 10), "2": F(1, 2)}

    def hist(db: tuple[str, ...]) -> object:
        return tuple(db.count(v) for v in "012")

    for n, (k, k2), c in itertools.product((2, 3, 4), ((0, 1), (2, 0)), (F(1), F(3, 2), F(4))):
        P, Q = _laws(n, probs, str(k), str(k2), hist)
        loss = KAnonymityLoss.histogram(n, list(probs.values()), k, k2)
        assert _value(loss, c) == sympy.Rational(str(_hockey(P, Q, c)))


def test_kanon3_against_enumeration() -> None:
    probs = {"a": F(1, 10), "b": F(3, 5), "⊥": F(3, 10)}
    for n, T, c in itertools.product((3, 4), (0, 1, 2), (F(1), F(2))):

        def view(db: tuple[str, ...], T: int = T) -> object:
            return tuple(db.count(v) if db.count(v) > T else "⊥" for v in "ab")

        for t, t2 in itertools.permutations("ab⊥", 2):
            P, Q = _laws(n, probs, t, t2, view)
            loss = KAnonymityLoss.kanon3(n, probs, t, t2, T)
            assert _value(loss, c) == sympy.Rational(str(_hockey(P, Q, c)))


def test_histogram_unbounded_loss() -> None:
    # every other record also k: the count of k is n under P, impossible under Q -> ε(0) = ∞,
    # and lim δ = Σ_{o: Q(o)=0} P(o) = P[no other record is k2] = (1 - p_k2)^(n-1) by hand
    loss = KAnonymityLoss.histogram(3, (F(1, 2), F(1, 4), F(1, 4)), 0, 1)
    assert loss.epsilon_zero().is_infinite()
    assert loss.mass_without_q() == F(3, 4) ** 2


@settings(max_examples=25, deadline=None)
@given(
    alpha=st.fractions(min_value=F(1, 20), max_value=F(19, 20), max_denominator=1000),
    c=st.fractions(min_value=F(1), max_value=F(20), max_denominator=1000),
)
def test_geometric_noise_alone_closed_form(alpha: F, c: F) -> None:
    # m = 0: G + 1 against G. Hand: P(o)/Q(o) = 1/α for o >= 1 and α for o <= 0, so for
    # c < 1/α the positive part is o >= 1: P[G >= 0] - c P[G >= 1] = (1 - cα)/(1 + α)
    loss = GeometricConvolutionLoss(CountLaw.homogeneous(0, F(1, 2)), alpha)
    expected = max(F(0), (1 - c * alpha) / (1 + alpha))
    assert _value(loss, c) == sympy.Rational(str(expected))
    # ε(0) = ln(1/α): the tails' ratio (hand)
    assert (
        sympy.simplify(loss.epsilon_zero().sympy() - sympy.log(1 / sympy.Rational(str(alpha)))) == 0
    )


def test_geometric_convolution_against_truncated_quadrature() -> None:
    # S ~ Bin(3, 1/3) plus G(α = 1/2); both directions summed over |o| <= 400 in mpmath
    # (the rest weighs < 2^-390), the maximum compared with the exact value
    m, q, alpha, c = 3, F(1, 3), F(1, 2), F(3, 2)
    pmf = [sympy.binomial(m, s) * q**s * (1 - q) ** (m - s) for s in range(m + 1)]
    with mpmath.workdps(60):
        a = mpmath.mpf(alpha.numerator) / alpha.denominator

        def law(o: int, shift: int) -> mpmath.mpf:
            return sum(
                mpmath.mpf(int(w.p)) / int(w.q) * (1 - a) / (1 + a) * a ** abs(o - s - shift)
                for s, w in enumerate(pmf)
            )

        cm = mpmath.mpf(c.numerator) / c.denominator
        best = max(
            mpmath.fsum(max(0, law(o, x) - cm * law(o, y)) for o in range(-400, 401))
            for x, y in ((1, 0), (0, 1))
        )
        got = GeometricConvolutionLoss(CountLaw.homogeneous(m, q), alpha).delta(Eps.from_exp(c))
        assert abs(mpmath.mpf(sympy.N(got.sympy(), 60)) - best) < mpmath.mpf(10) ** -50

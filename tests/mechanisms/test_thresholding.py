"""M_T's exact curves against enumeration; Lemma 2 and Theorem 4 on exhaustive grids."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from pdpsym.core.eps import Eps
from pdpsym.loss.thresholding_loss import ThresholdingLoss
from pdpsym.mechanisms.thresholding import Thresholding, apk_delta, ppk_delta
from pdpsym.papers.dmkb2020 import thresholding as pt


def brute_threshold(
    n: int, p: Fraction, T: int, size: int, c: Fraction
) -> tuple[Fraction, Fraction]:
    """(PPK, APK) deltas by enumerating all databases; records 1..size are known (B)."""
    target = 0
    known = list(range(1, size + 1))
    out = {}  # (a, B values) -> {output: prob}
    for db in itertools.product((0, 1), repeat=n):
        w = Fraction(1)
        for j, d in enumerate(db):
            if j != target and j not in known:
                w *= p if d else 1 - p
        k = sum(db)
        o = "⊥" if k <= T else k
        key = (db[target], tuple(db[j] for j in known))
        out.setdefault(key, {})
        out[key][o] = out[key].get(o, Fraction(0)) + w
    ppk = Fraction(0)
    apk = Fraction(0)
    for a, b in ((0, 1), (1, 0)):
        total = Fraction(0)
        for bv in itertools.product((0, 1), repeat=size):
            pb = Fraction(1)
            for x in bv:
                pb *= p if x else 1 - p
            P, Q = out[(a, bv)], out[(b, bv)]
            d = sum(
                (max(Fraction(0), P.get(o, 0) - c * Q.get(o, 0)) for o in set(P) | set(Q)),
                Fraction(0),
            )
            total += pb * d
            apk = max(apk, d)
        ppk = max(ppk, total)
    return ppk, apk


@given(
    st.integers(2, 7),
    st.sampled_from([Fraction(1, 10), Fraction(1, 3), Fraction(1, 2)]),
    st.data(),
    st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(4)]),
)
def test_threshold_matches_enumeration(
    n: int, p: Fraction, data: st.DataObject, c: Fraction
) -> None:
    T = data.draw(st.integers(0, n - 1))
    size = data.draw(st.integers(0, min(3, n - 1)))
    mech = Thresholding.homogeneous(n, p, T, size)
    eps = Eps.from_exp(c)
    ppk, _ = ppk_delta(mech, p, eps)
    apk, _, _ = apk_delta(mech, eps)
    assert (ppk, apk) == brute_threshold(n, p, T, size, c)


def test_lemma2_exhaustive_grid() -> None:
    for n in range(1, 31):
        for p in [Fraction(k, 20) for k in range(1, 20)]:
            for m in range(1, n + 1):
                bound = pt.lemma2_bound(m, n, p)
                if bound is not None:
                    assert pt.binomial_tail(m, n, p) < bound
    assert pt.lemma2_bound(2, 1, Fraction(1, 10)) == 0  # m > n: both sides vanish


def test_theorem4_example_values() -> None:
    th = pt.theorem4(50, Fraction(1, 50), 4)
    assert th is not None and th.r == Fraction(1, 4)
    exact = ThresholdingLoss.homogeneous(50, Fraction(1, 50), 4).delta(th.eps).value
    assert exact <= th.delta  # rational: e^eps = 1/(1 - delta)


def test_theorem4_printed_r_never_smaller() -> None:
    for n in range(2, 20):
        for p in (Fraction(1, 50), Fraction(1, 5)):
            for T in range(1, n):
                a = pt.theorem4(n, p, T, reading=pt.RReading.CORRECTED)
                b = pt.theorem4(n, p, T, reading=pt.RReading.PRINTED)
                if b is not None:
                    assert a is not None and b.r >= a.r and b.delta >= a.delta


def test_printed_plrv_wrong_corrected_right() -> None:
    n, p, T, size, b = 8, Fraction(1, 3), 3, 2, 0
    mech = Thresholding.homogeneous(n, p, T, size)
    true = mech.plrv(5, 0, b)
    assert pt.same_ratio(pt.plrv_ratio(n, p, T, size, b, 5), true)
    assert not pt.same_ratio(pt.plrv_ratio(n, p, T, size, b, 5, printed=True), true)


def test_poisson_limit_and_printed_power() -> None:
    true, corrected = pt.poisson_limit(2, pt.PoissonReading.CORRECTED)
    _, printed = pt.poisson_limit(2, pt.PoissonReading.PRINTED)
    import sympy

    assert sympy.simplify(true - corrected) == 0
    assert sympy.simplify(true - printed) != 0


def test_large_law_binary_search_matches_per_output_decisions() -> None:
    from pdpsym.core.certify import certify
    from pdpsym.mechanisms.divergence import hockey

    n, p = 450, Fraction(1, 100)  # 449 > EXACT_LIMIT records: arb balls, monotone search
    for T, size, eps in ((8, 0, Eps.of(Fraction(1, 100))), (6, 3, Eps.from_exp(Fraction(3, 2)))):
        mech = Thresholding.homogeneous(n, p, T, size)
        for b in range(size + 1):
            for a, a2 in ((1, 0), (0, 1)):
                fast = mech.apk(b, eps, (a, a2)).value()
                slow = hockey(mech.output_law(a, b), mech.output_law(a2, b), eps).value()
                assert certify(fast, 20).decimal == certify(slow, 20).decimal

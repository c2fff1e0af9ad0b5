"""Two-sided geometric noise and the histogram / k-anonymity curves against enumeration."""

from __future__ import annotations

import itertools
from fractions import Fraction

from pdpsym.core.eps import Eps
from pdpsym.mechanisms.count_law import CountLaw
from pdpsym.mechanisms.geometric import (
    convolution_delta,
    convolution_total,
    geometric_delta,
    geometric_pmf,
)
from pdpsym.mechanisms.kanonymity import histogram_delta, kanon3_delta


def test_convolution_against_truncated_sum() -> None:
    m, q, p, c = 4, Fraction(1, 3), Fraction(1, 2), Fraction(3, 2)
    law = CountLaw.homogeneous(m, q)
    assert convolution_total(law, p) == 1
    pmf = law.exact_pmf()

    def P(o: int, shift: int) -> Fraction:
        return sum((w * geometric_pmf(o - s - shift, p) for s, w in enumerate(pmf)), Fraction(0))

    K = 60  # the outputs beyond |o| > K carry mass < 2^-55
    for a, b in ((1, 0), (0, 1)):
        trunc = sum((max(Fraction(0), P(o, a) - c * P(o, b)) for o in range(-K, K)), Fraction(0))
        exact = convolution_delta(law, p, Eps.from_exp(c))
        assert exact >= trunc - Fraction(1, 2**50)
    assert geometric_delta(p, Eps.from_exp(c)) == (1 - c * p) / (1 + p)


def brute_histogram(n: int, probs: list[Fraction], k: int, k2: int, c: Fraction) -> Fraction:
    K = len(probs)
    laws: dict[int, dict[tuple[int, ...], Fraction]] = {k: {}, k2: {}}
    for others in itertools.product(range(K), repeat=n - 1):
        w = Fraction(1)
        for v in others:
            w *= probs[v]
        for t in (k, k2):
            h = tuple(sum(1 for v in (*others, t) if v == j) for j in range(K))
            laws[t][h] = laws[t].get(h, Fraction(0)) + w
    P, Q = laws[k], laws[k2]
    return sum(
        (max(Fraction(0), P.get(h, 0) - c * Q.get(h, 0)) for h in set(P) | set(Q)), Fraction(0)
    )


def test_histogram_against_enumeration() -> None:
    probs = [Fraction(1, 5), Fraction(1, 2), Fraction(3, 10)]
    for n in (2, 3, 5):
        for k, k2 in ((0, 1), (2, 0)):
            c = Fraction(6, 5)
            assert histogram_delta(n, probs, k, k2, Eps.from_exp(c)) == brute_histogram(
                n, probs, k, k2, c
            )


def test_kanon3_against_enumeration() -> None:
    probs = {"a": Fraction(1, 10), "b": Fraction(1, 2), "⊥": Fraction(2, 5)}
    names = ["a", "b", "⊥"]
    n, T, c = 5, 1, Fraction(3, 2)
    for t, t2 in (("a", "b"), ("⊥", "a")):
        laws: dict[str, dict[tuple, Fraction]] = {t: {}, t2: {}}
        for others in itertools.product(names, repeat=n - 1):
            w = Fraction(1)
            for v in others:
                w *= probs[v]
            for x in (t, t2):
                counts = [sum(1 for v in (*others, x) if v == name) for name in ("a", "b")]
                o = tuple(cnt if cnt > T else "⊥" for cnt in counts)
                laws[x][o] = laws[x].get(o, Fraction(0)) + w
        P, Q = laws[t], laws[t2]
        brute = sum(
            (max(Fraction(0), P.get(o, 0) - c * Q.get(o, 0)) for o in set(P) | set(Q)), Fraction(0)
        )
        assert kanon3_delta(n, probs, t, t2, T, Eps.from_exp(c)) == brute

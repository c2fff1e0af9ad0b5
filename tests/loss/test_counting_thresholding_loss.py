"""CountingLoss and ThresholdingLoss (the privacy-loss interface for Desfontaines et al.
Section 4) against Fraction brute forces written here and hand closed forms."""

from __future__ import annotations

from fractions import Fraction as F
from math import comb

import sympy
from oracles import poisson_binomial as pb
from oracles.thresholding import threshold_brute

from pdpsym.core.certify import certify
from pdpsym.core.compare import compare
from pdpsym.core.eps import Eps
from pdpsym.loss.counting_loss import CountingLoss
from pdpsym.loss.thresholding_loss import ThresholdingLoss


def _counting_brute(ps: list[F], c: F) -> F:
    # Definition 12 with Lemma 1: max over targets and both directions of
    # Σ_o (P[S + a = o] - c P[S + a' = o])_+, S the peers' count.
    best = F(0)
    for i in range(len(ps)):
        s = pb.pmf(ps[:i] + ps[i + 1 :])

        def at(k: int, s: list[F] = s) -> F:
            return s[k] if 0 <= k < len(s) else F(0)

        for sh in (1, -1):
            best = max(
                best, sum((max(F(0), at(o - sh) - c * at(o)) for o in range(-1, len(s) + 2)), F(0))
            )
    return best


def test_counting_loss_heterogeneous_brute_force() -> None:
    ps = [F(1, 5), F(1, 3), F(1, 2), F(2, 3), F(1, 3), F(3, 4)]
    for c in (F(1), F(3, 2), F(4)):
        assert CountingLoss(ps).delta(Eps.log(c)).value == _counting_brute(ps, c)


def test_counting_loss_common_p_binomial_closed_form() -> None:
    # Hand closed form for a common p: S ~ Bin(m, p), δ_{1,0}(ε) = Σ_o (f(o-1) - e^ε f(o))_+
    # with f(s) = C(m, s) p^s (1-p)^(m-s); the direction 0,1 mirrors p -> 1 - p.
    n, p, c = 12, F(1, 3), F(2)
    m = n - 1

    def f(s: int, q: F) -> F:
        return F(comb(m, s)) * q**s * (1 - q) ** (m - s) if 0 <= s <= m else F(0)

    want = max(
        sum((max(F(0), f(o - 1, q) - c * f(o, q)) for o in range(m + 2)), F(0)) for q in (p, 1 - p)
    )
    assert CountingLoss.homogeneous(n, p).delta(Eps.log(c)).value == want


def test_counting_loss_epsilon_round_trip() -> None:
    # ε(δ) is the exact bisection: δ(ε(δ)) <= δ at the upper end of its bracket
    loss = CountingLoss.homogeneous(20, F(1, 3))
    assert loss.epsilon(0).value is sympy.oo
    d = F(1, 100)
    eps = loss.epsilon(d).value
    hi = eps.hi if hasattr(eps, "hi") else eps
    assert compare(loss.delta(Eps.of(hi)).value, d).sign <= 0


def _threshold_brute(n: int, p: F, T: int, size: int, c: F, reading: str) -> F:
    # Definition 15 with |B| known records of which b are ones (P[b] = Bin(|B|, p)):
    # P[⊥ | a, b] = P[S <= T - b - a], P[k | a, b] = P[S = k - b - a], S ~ Bin(n-|B|-1, p).
    m = n - size - 1
    s = [F(comb(m, j)) * p**j * (1 - p) ** (m - j) for j in range(m + 1)]

    def at(j: int) -> F:
        return s[j] if 0 <= j <= m else F(0)

    def law(a: int, b: int) -> list[F]:
        return [sum((at(j) for j in range(T - b - a + 1)), F(0))] + [
            at(k - b - a) for k in range(T + 1, n + 1)
        ]

    def hs(a: int, a2: int, b: int) -> F:
        return sum((max(F(0), x - c * y) for x, y in zip(law(a, b), law(a2, b))), F(0))

    w = [F(comb(size, b)) * p**b * (1 - p) ** (size - b) for b in range(size + 1)]
    if reading == "apk":
        return max(hs(a, 1 - a, b) for a in (0, 1) for b in range(size + 1))
    return max(sum((w[b] * hs(a, 1 - a, b) for b in range(size + 1)), F(0)) for a in (0, 1))


def test_thresholding_loss_brute_force() -> None:
    for n, p, T, size in ((8, F(1, 3), 3, 0), (9, F(2, 5), 4, 3), (10, F(1, 2), 2, 2)):
        for reading in ("ppk", "apk"):
            loss = ThresholdingLoss.homogeneous(n, p, T, size, reading)
            for c in (F(3, 2), F(3)):
                want = _threshold_brute(n, p, T, size, c, reading)
                assert loss.delta(Eps.log(c)).value == want
            # the limit ε -> ∞: at e^ε = 10^9 only outputs with Q = 0 count (to 20 digits)
            big = _threshold_brute(n, p, T, size, F(10**30), reading)
            assert certify(loss.mass_without_q(), 15).decimal == certify(big, 15).decimal


def test_thresholding_loss_heterogeneous_matches_brute() -> None:
    ps = [F(1, 5), F(1, 3), F(1, 2)] * 6
    loss = ThresholdingLoss(len(ps), 7, 2, ps=ps)
    assert loss.delta(Eps.log(F(3, 2))).value == threshold_brute(ps, 7, 2, F(3, 2))

"""``M_T`` over heterogeneous records on the large (windowed) path: the tilted tails and
the shared window products (Lemmas 1 and 2 of pdpsym.core.tails), the saddle-point
guesses and the one-direction rule at eps = 0, against brute forces written here
(Definitions 13 and 15 of Desfontaines et al.)."""

from __future__ import annotations

import math
from fractions import Fraction as F
from unittest import mock

import mpmath
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from oracles import poisson_binomial as pb

from pdpsym.core.balls import ball_endpoints
from pdpsym.core.certify import certify
from pdpsym.core.eps import Eps
from pdpsym.mechanisms import count_law
from pdpsym.mechanisms.count_law import peer_laws
from pdpsym.mechanisms.thresholding import (
    Thresholding,
    ppk_delta,
    ppk_delta_heterogeneous,
)

POOL = [F(1, 2), F(1, 3), F(2, 3), F(1, 10), F(9, 10), F(1, 2**40), 1 - F(1, 2**40)]
DIRECTIONS = ((1, 0), (0, 1))


def _brute_masses(
    ps: list[F], T: int, size: int, target: int, direction: tuple[int, int], eps: F
) -> tuple[F, F] | None:
    """``(A, B)`` of the PPK curve ``A - e^eps B`` for one target and direction, from
    Definition 15 (``M_T = ⊥`` if ``k <= T`` else ``k``) and Definition 13 (weights
    ``P[b]``); each summand's sign by mpmath at 80 digits (None on a near tie)."""
    n = len(ps)
    w = pb.pmf(ps[:size])
    others = ps[size:target] + ps[target + 1 :]
    s = pb.pmf(others)

    def at(j: int) -> F:
        return s[j] if 0 <= j < len(s) else F(0)

    def law(a: int, b: int) -> list[F]:
        bot = sum((at(j) for j in range(0, T - b - a + 1)), F(0))
        return [bot] + [at(k - b - a) for k in range(T + 1, n + 1)]

    a, a2 = direction
    A = B = F(0)
    with mpmath.workdps(80):
        e = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator)
        for b, wb in enumerate(w):
            for x, y in zip(law(a, b), law(a2, b), strict=True):
                if x == 0:
                    continue
                d = mpmath.mpf(x.numerator) / x.denominator - e * y.numerator / y.denominator
                if abs(d) <= mpmath.mpf(10) ** -60 * (mpmath.mpf(x.numerator) / x.denominator):
                    return None
                if d > 0:
                    A += wb * x
                    B += wb * y
    return A, B


def _contains(ball: object, x: F) -> bool:
    lo, hi = ball_endpoints(ball)  # type: ignore[arg-type]
    return lo <= x <= hi


@given(
    ps=st.lists(st.sampled_from(POOL), min_size=2, max_size=8),
    data=st.data(),
    eps=st.sampled_from([F(1, 10), F(1, 2), F(1), F(3)]),
    tail_bits=st.sampled_from([192, 1]),
)
def test_windowed_tilted_curve_equals_the_exact_masses(
    ps: list[F], data: st.DataObject, eps: F, tail_bits: int
) -> None:
    # The large path forced on n <= 8 records (EXACT_LIMIT = 0): windows, shared
    # products, and with tail_bits = 1 a tilt for nearly every range. Each target's and
    # direction's A and B must be the brute force's exact masses.
    n = len(ps)
    T = data.draw(st.integers(0, n - 1))
    size = data.draw(st.integers(0, min(2, n - 1)))
    unknown = ps[size:]
    weights = pb.pmf(ps[:size])
    with (
        mock.patch.object(count_law, "EXACT_LIMIT", 0),
        mock.patch.object(count_law, "TAIL_BITS", tail_bits),
    ):
        for i, law in peer_laws(unknown).values():
            mech = Thresholding(n, T, law)
            for d in DIRECTIONS:
                want = _brute_masses(ps, T, size, size + i, d, eps)
                assume(want is not None)
                assert want is not None
                h = mech.ppk(Eps.of(eps), weights, d)
                assert _contains(h.a.arb(256), want[0])
                assert _contains(h.b.arb(256), want[1])


def _int_pmf(js: list[int]) -> list[int]:
    # records Bernoulli(j/10): P[S = s] = out[s] / 10^len(js), exact integers
    out = [1]
    for j in js:
        nxt = [0] * (len(out) + 1)
        for s, x in enumerate(out):
            nxt[s] += x * (10 - j)
            nxt[s + 1] += x * j
        out = nxt
    return out


def _brute_delta(js: list[int], T: int, eps: F) -> mpmath.mpf:
    """max over targets and directions of sum_o max(0, P(o) - e^eps Q(o)) (Definition 15
    with no background knowledge), mpmath at 60 digits on exact integer masses."""
    n = len(js)
    best = mpmath.mpf(0)
    e = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator)
    for j in sorted(set(js)):
        others = list(js)
        others.remove(j)
        pm = [mpmath.mpf(x) / mpmath.mpf(10) ** (n - 1) for x in _int_pmf(others)]

        def at(s: int, pm: list[mpmath.mpf] = pm) -> mpmath.mpf:
            return pm[s] if 0 <= s < len(pm) else mpmath.mpf(0)

        cdf = [mpmath.mpf(0)]
        for x in pm:
            cdf.append(cdf[-1] + x)

        def law(a: int, cdf: list[mpmath.mpf] = cdf) -> list[mpmath.mpf]:
            t = min(max(T - a + 1, 0), len(cdf) - 1)
            return [cdf[t]] + [at(k - a) for k in range(T + 1, n + 1)]

        for a, a2 in DIRECTIONS:
            P, Q = law(a), law(a2)
            best = max(best, mpmath.fsum(max(0, x - e * y) for x, y in zip(P, Q, strict=True)))
    return best


@pytest.mark.parametrize(
    ("T", "eps"),
    [(10, F(1, 10)), (196, F(1, 10)), (300, F(1, 10)), (420, F(1, 10)), (485, F(1, 10))]
    + [(10, F(3)), (420, F(3)), (200, F(0))],
)
def test_490_records_far_tails_match_brute_force(T: int, eps: F) -> None:
    # 70 records each of p = 1/10 .. 7/10: 489 peers (windowed). Mean 196, sd about 10.6:
    # T = 420 and 485 put the worst curve at 10^-100 and beyond (tilted windows); eps = 3
    # puts the crossing beyond the mode window (saddle-point guess); eps = 0 is the total
    # variation, both directions equal.
    js = [j for j in range(1, 8) for _ in range(70)]
    ps = [F(j, 10) for j in js]
    got = certify(ppk_delta_heterogeneous(ps, T, 0, Eps.of(eps))[0], 15).decimal
    with mpmath.workdps(60):
        want = _brute_delta(js, T, eps)
        assert abs(mpmath.mpf(got) - want) <= want * mpmath.mpf(10) ** -14


def test_eps_zero_is_one_direction_for_a_common_p() -> None:
    # eps = 0 on a large homogeneous law: both directions are the total variation
    # distance (equal), which balls could not prove: the value is that of (1, 0).
    # Independent source: mpmath, TV of law(S + 1 + ...) against law(S), S ~ Bin(449, 1/3),
    # through the same M_T outputs (T = 150).
    n, p, T = 450, F(1, 3), 150
    v, d = ppk_delta(Thresholding.homogeneous(n, p, T), p, Eps.of(F(0)))
    assert d == (1, 0)
    with mpmath.workdps(50):
        m = n - 1
        pm = [
            mpmath.binomial(m, s) * mpmath.mpf(1) / 3**s * (mpmath.mpf(2) / 3) ** (m - s)
            for s in range(m + 1)
        ]
        one = [mpmath.fsum(pm[:T])] + [pm[k - 1] for k in range(T + 1, n + 1)]
        zero = [mpmath.fsum(pm[: T + 1])] + [pm[k] if k <= m else 0 for k in range(T + 1, n + 1)]
        tv = mpmath.fsum(max(0, x - y) for x, y in zip(one, zero, strict=True))
        assert abs(mpmath.mpf(certify(v, 15).decimal) - tv) <= tv * mpmath.mpf(10) ** -14


@pytest.mark.slow
def test_100000_records_top_tail_matches_exact_polynomial() -> None:
    # 10^5 records, p = j/10 (j = 1..7) in turn; T = 99990: every output k > T leaves at
    # most 10 zeros among the m = 99999 peers. Independent source: P[m - S = z] =
    # prod p * [x^z] prod_q (1 + r_q x)^(k_q), r_q = (1 - q)/q, exact Fractions truncated
    # at degree 11; then the hockey stick over ⊥ and k = T+1..n with mpmath signs.
    n, T, eps = 100_000, 99_990, F(1, 10)
    ps = [F(1 + i % 7, 10) for i in range(n)]
    got = certify(ppk_delta_heterogeneous(ps, T, 0, Eps.of(eps))[0], 15).decimal
    m = n - 1
    deg = n - T + 1
    best = mpmath.mpf(0)
    with mpmath.workdps(60):
        e = mpmath.exp(mpmath.mpf(1) / 10)
        for j in range(1, 8):
            counts = {F(i, 10): (n // 7 + (1 if i - 1 < n % 7 else 0)) for i in range(1, 8)}
            counts[F(j, 10)] -= 1
            top = F(1)
            for q, k in counts.items():
                top *= q**k
            poly = [F(1)] + [F(0)] * deg
            for q, k in counts.items():
                r = (1 - q) / q
                factor = [F(math.comb(k, z)) * r**z for z in range(deg + 1)]
                poly = [sum(poly[i] * factor[z - i] for i in range(z + 1)) for z in range(deg + 1)]

            # P[S = s] for s >= m - deg
            def pmf(s: int, top: F = top, poly: list[F] = poly) -> F:
                z = m - s
                return top * poly[z] if 0 <= z <= deg else F(0)

            def mp(x: F) -> mpmath.mpf:
                return mpmath.mpf(x.numerator) / x.denominator

            tail = {t: sum((pmf(s) for s in range(t, m + 1)), F(0)) for t in range(T - 1, m + 2)}
            for a, a2 in DIRECTIONS:
                # ⊥ has P[S <= T - a] = 1 - P[S >= T - a + 1]
                P = [1 - tail[T - a + 1]] + [pmf(k - a) for k in range(T + 1, n + 1)]
                Q = [1 - tail[T - a2 + 1]] + [pmf(k - a2) for k in range(T + 1, n + 1)]
                best = max(
                    best, mpmath.fsum(max(0, mp(x) - e * mp(y)) for x, y in zip(P, Q, strict=True))
                )
        assert abs(mpmath.mpf(got) - best) <= best * mpmath.mpf(10) ** -14

"""Relabellings beyond transpositions and reversal up to a relabelling
(:mod:`pdpsym.loss.histogram_symmetry`): decided by hand on small matrices, and the
leakage of every target of chains that use them against a brute force written here
(every sequence and every grid point, Fraction laws and mpmath densities, not the code
under test)."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
import pytest

import pdpsym as ps
from pdpsym.loss import histogram_symmetry
from pdpsym.loss.histogram import histogram_leakage
from pdpsym.loss.histogram_symmetry import (
    automorphism_perms,
    relabellings,
    reversal_relabelling,
    reversible,
)

mpmath.mp.dps = 50


def brute(init, rows, T, target, known, lam):
    """max over the grid {0..T}^k and ordered pairs of ln G_a / G_b (this file)."""
    k = len(rows)
    laws: dict[int, dict[tuple[int, ...], F]] = {}
    for seq in itertools.product(range(k), repeat=T):
        if any(seq[t] != v for t, v in known.items()):
            continue
        p = F(init[seq[0]])
        for s, u in itertools.pairwise(seq):
            p *= F(rows[s][u])
        if p:
            h = tuple(seq.count(s) for s in range(k))
            law = laws.setdefault(seq[target], {})
            law[h] = law.get(h, F(0)) + p
    if len(laws) < 2:
        return None
    lam_m = mpmath.mpf(lam.numerator) / lam.denominator
    best = None
    for y in itertools.product(range(T + 1), repeat=k):
        vals = []
        for law in laws.values():
            tot = sum(law.values())
            vals.append(
                mpmath.fsum(
                    mpmath.mpf((p / tot).numerator)
                    / (p / tot).denominator
                    * mpmath.exp(-sum(abs(a - b) for a, b in zip(y, h, strict=True)) / lam_m)
                    for h, p in law.items()
                )
            )
        r = mpmath.log(max(vals) / min(vals))
        best = r if best is None else max(best, r)
    return best


def _encloses(got, want):
    lo = mpmath.mpf(got.lo.numerator) / got.lo.denominator
    hi = mpmath.mpf(got.hi.numerator) / got.hi.denominator
    return lo - mpmath.mpf(10) ** -30 <= want <= hi + mpmath.mpf(10) ** -30


# moves one state ahead with 3/10, two ahead with 1/10: a rotation is a symmetry, no
# transposition is, and the chain is not reversible
ROTATE = [["3/5", "3/10", "1/10"], ["1/10", "3/5", "3/10"], ["3/10", "1/10", "3/5"]]
# to the state d ahead with weight proportional to d (benchmarks/bench_histogram.py)
UNEVEN4 = [
    [F(7, 10) if i == j else F(3, 10) * F((j - i) % 4, 6) for j in range(4)] for i in range(4)
]


def test_rotations_by_hand():
    # sigma(i) = i + 1 maps 0 to 1; its inverse is perm = (2, 0, 1) (m_c = n_{c - 1})
    rows = [[F(x) for x in r] for r in ROTATE]
    assert automorphism_perms([F(1, 3)] * 3, [rows], set()) == {1: (2, 0, 1), 2: (1, 2, 0)}
    # a non-uniform start breaks it; a known record fixes its state: no rotation fixes one
    assert automorphism_perms([F(1, 2), F(1, 4), F(1, 4)], [rows], set()) == {}
    assert automorphism_perms([F(1, 3)] * 3, [rows], {1}) == {}


def test_reversal_relabelling_by_hand():
    rows = [[F(x) for x in r] for r in ROTATE]
    # P* = P^T (uniform start), and P^T(i, j) = P(-i, -j): sigma = (0, 2, 1)
    assert reversal_relabelling([F(1, 3)] * 3, [rows]) == (0, 2, 1)
    # a reversible chain: the identity
    sym = [[F(1, 2), F(1, 4), F(1, 4)], [F(1, 4), F(1, 2), F(1, 4)], [F(1, 4), F(1, 4), F(1, 2)]]
    assert reversal_relabelling([F(1, 3)] * 3, [sym]) == (0, 1, 2)
    # not stationary, or a zero in the start, or two matrices: none
    assert reversal_relabelling([F(1, 2), F(1, 4), F(1, 4)], [rows]) is None
    assert reversal_relabelling([F(1, 3)] * 3, [rows, rows]) is None
    # a chain with none, by hand: only the identity and (0 2) fix pi below; the identity
    # fails detailed balance (pi_0 P(0,1) = 1/7, pi_1 P(1,0) = 0) and (0 2) fails at
    # (i, j) = (0, 1): pi_1 P(1,2) = 3/14 but pi_0 P(0,1) = 1/7
    other = [[F(1, 2), F(1, 2), F(0)], [F(0), F(1, 2), F(1, 2)], [F(1, 2), F(1, 4), F(1, 4)]]
    pi = [F(2, 7), F(3, 7), F(2, 7)]  # stationary for `other` (checked by hand: pi P = pi)
    assert all(sum(pi[i] * other[i][j] for i in range(3)) == pi[j] for j in range(3))
    assert reversal_relabelling(pi, [other]) is None


@pytest.mark.parametrize(
    ("rows", "init", "T", "lam"),
    [
        (ROTATE, "stationary", 4, F(1)),
        pytest.param(ROTATE, "stationary", 5, F(5, 2), marks=pytest.mark.slow),
        pytest.param(UNEVEN4, "stationary", 4, F(2), marks=pytest.mark.slow),
    ],
)
def test_every_target_of_a_circulant_chain_equals_brute_force(rows, init, T, lam):
    k = len(rows)
    names = [chr(ord("a") + j) for j in range(k)]
    model = ps.MarkovChain(names, T, init, [[str(x) for x in r] for r in rows])
    assert len(relabellings(model, {})) == k - 1  # the rotations are taken
    assert reversible(model)  # and the mirrors
    got = histogram_leakage(model, [f"x{t + 1}" for t in range(T)], [], lam, digits=20)
    for t in range(T):
        # expected: every sequence and every grid point (this file)
        want = brute(model.initial_law, rows, T, t, {}, lam)
        assert _encloses(got[t].value, want), t


def test_a_known_record_keeps_the_rotation_chain_on_the_full_path():
    model = ps.MarkovChain(["a", "b", "c"], 4, "stationary", ROTATE)
    assert relabellings(model, {"x2": F(1)}) == {}
    got = histogram_leakage(model, ["x1", "x4"], ["x2"], F(3, 2), digits=20)
    for t, res in zip((0, 3), got, strict=True):
        want = max(
            w
            for v in range(3)
            if (w := brute(model.initial_law, ROTATE, 4, t, {1: v}, F(3, 2))) is not None
        )
        assert _encloses(res.value, want)


@pytest.mark.parametrize(("k", "T"), [(5, 4), (6, 3)])
def test_rotations_and_mirrors_equal_the_full_path(k, T, monkeypatch):
    # a circulant chain of k states (stay 1/2, move d ahead with weight d^2 + 1): the
    # shortcuts' enclosures against the engine's own path with no relabelling and no
    # mirror (every law by its own product and its own float grid, every target)
    w = [F(0)] + [F(d * d + 1) for d in range(1, k)]
    rows = [
        [str(F(1, 2) if i == j else F(1, 2) * w[(j - i) % k] / sum(w)) for j in range(k)]
        for i in range(k)
    ]
    model = ps.MarkovChain([chr(97 + j) for j in range(k)], T, "stationary", rows)
    assert len(relabellings(model, {})) == k - 1 and reversible(model)
    names = [f"x{t}" for t in range(1, T + 1)]
    fast = histogram_leakage(model, names, [], F(2), digits=20)
    with monkeypatch.context() as m:
        m.setattr(histogram_symmetry, "relabellings", lambda *_: {})
        m.setattr(histogram_symmetry, "mirrored_targets", lambda *_: {})
        slow = histogram_leakage(model, names, [], F(2), digits=20)
    assert [r.value for r in fast] == [r.value for r in slow]

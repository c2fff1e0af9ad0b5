"""The orbit lemma of :mod:`pdpsym.loss.histogram_orbits`: on chains invariant under every
relabelling of their states the screen reads the sorted outputs only. Checked against a
brute force written here (every sequence of the chain in exact fractions, every output
of the grid in mpmath at 50 digits: not the code under test), and against the full screen."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest

import pdpsym as ps
from pdpsym.loss import histogram_grid, histogram_orbits
from pdpsym.loss.histogram import histogram_laws, histogram_leakage
from pdpsym.loss.histogram_symmetry import law_perms, law_symmetric

mpmath.mp.dps = 50


def _rows(k, stay):
    move = (1 - stay) / (k - 1)
    return [[stay if i == j else move for j in range(k)] for i in range(k)]


def _uneven(k):
    # stay 7/10, else to the state d ahead with weight d: circulant, not every relabelling
    tot = sum(range(1, k))
    return [
        [F(7, 10) if i == j else F(3, 10) * F((j - i) % k, tot) for j in range(k)] for i in range(k)
    ]


def _brute(rows, T, target, lam):
    """max over outputs y in {0..T}^k and ordered pairs of ln G_a(y)/G_b(y), from every
    sequence of the chain (uniform start) listed in fractions."""
    k = len(rows)
    laws: dict[int, dict[tuple[int, ...], F]] = {}
    for seq in itertools.product(range(k), repeat=T):
        p = F(1, k)
        for s, u in itertools.pairwise(seq):
            p *= rows[s][u]
        if p:
            h = tuple(seq.count(s) for s in range(k))
            law = laws.setdefault(seq[target], {})
            law[h] = law.get(h, F(0)) + p
    best = None
    for y in itertools.product(range(T + 1), repeat=k):
        vals = [
            mpmath.fsum(
                mpmath.mpf(p.numerator)
                / p.denominator
                * mpmath.exp(
                    -sum(abs(yj - nj) for yj, nj in zip(y, h, strict=True)) / mpmath.mpf(lam)
                )
                for h, p in law.items()
            )
            / (mpmath.mpf(sum(law.values()).numerator) / sum(law.values()).denominator)
            for law in laws.values()
        ]
        r = mpmath.log(max(vals) / min(vals))
        best = r if best is None else max(best, r)
    return best


def test_sorted_points_are_the_multisets():
    # independent: itertools lists the sorted k-tuples in lexicographic order
    for R, k in ((4, 3), (5, 2), (3, 4), (6, 1)):
        want = list(itertools.combinations_with_replacement(range(R), k))
        assert [tuple(p) for p in histogram_orbits.sorted_points(R, k).tolist()] == want


@pytest.mark.parametrize(
    ("k", "T", "stay", "lam", "target"),
    [(3, 5, F(1, 2), 1, 2), (3, 6, F(4, 5), 2, 1), (4, 4, F(7, 10), 1, 2)],
)
def test_symmetric_chains_leak_the_brute_force(k, T, stay, lam, target):
    rows = _rows(k, stay)
    model = ps.MarkovChain(
        [chr(97 + j) for j in range(k)], T, "stationary", [[str(x) for x in r] for r in rows]
    )
    assert law_symmetric(model, {})
    res = histogram_leakage(model, [f"x{target + 1}"], lam=lam, digits=12)[0]
    want = _brute(rows, T, target, lam)
    assert abs(float(res.value.lo) - float(want)) < 1e-11
    assert res.value.lo <= F(str(mpmath.nstr(want, 30))) * (1 + F(1, 10**25)) + F(1, 10**25)


def test_a_chain_with_only_rotations_is_not_read_on_sorted_points():
    # a circulant chain (each row the last rotated: the rotations only) whose max is NOT on
    # a sorted point at x2 (the sorted points alone give about 1.1070): law_symmetric is
    # False and the leakage is the brute force's (about 1.1215)
    row = [F(1, 20), F(3, 5), F(7, 20)]
    rows = [[row[(j - i) % 3] for j in range(3)] for i in range(3)]
    model = ps.MarkovChain(["a", "b", "c"], 5, [F(1, 3)] * 3, [[str(x) for x in r] for r in rows])
    assert not law_symmetric(model, {})
    res = histogram_leakage(model, ["x2"], lam=1, digits=12)[0]
    want = _brute(rows, 5, 1, 1)
    assert abs(float(res.value.lo) - float(want)) < 1e-11
    assert 1.12 < float(want) < 1.123


def test_known_records_break_the_symmetry():
    model = ps.MarkovChain(
        ["a", "b", "c"], 5, "stationary", [[str(x) for x in r] for r in _rows(3, F(1, 2))]
    )
    assert law_symmetric(model, {}) and not law_symmetric(model, {"x1": F(0)})


@pytest.mark.parametrize(("k", "T", "lam"), [(3, 12, F(1, 4)), (4, 7, F(1, 2)), (3, 9, F(3))])
def test_sorted_screen_gives_the_full_screens_enclosure(k, T, lam):
    # reference: the same laws screened on the whole grid (symmetric=False)
    model = ps.MarkovChain(
        [chr(97 + j) for j in range(k)],
        T,
        "stationary",
        [[str(x) for x in r] for r in _rows(k, F(3, 5))],
    )
    for name, laws in histogram_laws(model, [f"x{t}" for t in range(1, T + 1)], {}):
        perms = law_perms(model, {}, laws)
        args = (list(laws.values()), T, 1 / lam, 15)
        full = histogram_grid.grid_sup(*args, perms=perms)
        fast = histogram_grid.grid_sup(*args, perms=perms, symmetric=True)
        assert fast == full, name
        pts, _, _ = histogram_grid.screen(
            list(laws.values()), T, 1 / lam, perms=perms, symmetric=True
        )
        assert (np.diff(pts, axis=1) >= 0).all()  # sorted points only


@pytest.mark.parametrize("k", [3, 4])
def test_envelope_read_through_an_axis_order(k):
    # expected: the envelope of the grid in its own axis order, read by fancy indexing
    # here (max and min over the laws' relabelled points, written in the test)
    rng = np.random.default_rng(k)
    R = 5
    grid = rng.random((R,) * k)
    index = histogram_orbits.OrbitIndex(R, k)
    perms = [None] + [
        tuple(a if c == 0 else 0 if c == a else c for c in range(k)) for a in range(1, k)
    ]
    pts = histogram_orbits.sorted_points(R, k)
    values = []
    for perm in perms:
        z = pts.copy()
        if perm is not None:
            z[:, list(perm)] = pts
        values.append(grid[tuple(z.T)])
    want_top, want_low = np.max(values, axis=0), np.min(values, axis=0)
    for order in itertools.permutations(range(k)):
        moved = np.ascontiguousarray(grid.transpose(order))  # axis j is grid axis order[j]
        top, low = histogram_orbits.envelope(moved, index, perms, order)
        assert np.array_equal(top, want_top) and np.array_equal(low, want_low), order
    # a wrong order reads other points (the check can fail)
    wrong = np.ascontiguousarray(grid.transpose((1, 0, *range(2, k))))
    assert not np.array_equal(histogram_orbits.envelope(wrong, index, perms)[0], want_top)

"""The complement lemma of :mod:`pdpsym.loss.histogram` (the last value's law is the
every-value total minus the others, exact integers) and the float screen of
:mod:`pdpsym.loss.histogram_grid` (its two-recurrence filter): every target of chains
without a symmetry, degenerate chains included, against a brute force written here (every
sequence and every grid point, Fraction laws and mpmath densities, not the code under
test), the laws of a batch against each target's own, and a property test that the
screen's upper bounds hold and that it never drops the best grid point."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import pdpsym as ps
from pdpsym.loss import histogram_grid
from pdpsym.loss.histogram import histogram_laws, histogram_leakage
from pdpsym.loss.histogram_symmetry import relabellings

mpmath.mp.dps = 50


def _laws(init, rows, T, target, known):
    """The laws of the histogram given x_target = a (and x_K), from every k^T sequence."""
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
    return laws


def _value(laws, y, lam):
    vals = []
    for law in laws.values():
        tot = sum(law.values())
        vals.append(
            mpmath.fsum(
                mpmath.mpf((p / tot).numerator)
                / (p / tot).denominator
                * mpmath.exp(-sum(abs(a - b) for a, b in zip(y, h, strict=True)) / lam)
                for h, p in law.items()
            )
        )
    return mpmath.log(max(vals) / min(vals))


def _brute(init, rows, T, target, known_names, lam):
    """Eq. 2 by the definition: max over the known values, the grid and ordered pairs."""
    lam_m = mpmath.mpf(lam.numerator) / lam.denominator
    best = None
    for combo in itertools.product(range(len(rows)), repeat=len(known_names)):
        laws = _laws(init, rows, T, target, dict(zip(known_names, combo, strict=True)))
        if len(laws) < 2:
            continue
        for y in itertools.product(range(T + 1), repeat=len(rows)):
            r = _value(laws, y, lam_m)
            best = r if best is None else max(best, r)
    return best


def _encloses(got, want):
    lo = mpmath.mpf(got.lo.numerator) / got.lo.denominator
    hi = mpmath.mpf(got.hi.numerator) / got.hi.denominator
    return lo - mpmath.mpf(10) ** -30 <= want <= hi + mpmath.mpf(10) ** -30


STICKY = [["3/5", "1/5", "1/5"], ["1/10", "7/10", "1/5"], ["1/4", "1/4", "1/2"]]
ZEROS = [["1/2", "1/2", "0"], ["0", "1/3", "2/3"], ["3/4", "0", "1/4"]]  # a zero in each row
ABSORB = [["1", "0", "0"], ["1/4", "1/2", "1/4"], ["0", "1/3", "2/3"]]  # state a absorbs


@pytest.mark.parametrize(
    ("rows", "init", "T", "known", "lam"),
    [
        (STICKY, ["1/2", "1/3", "1/6"], 4, [], F(1)),
        (STICKY, "stationary", 4, [2], F(3, 2)),
        (ZEROS, "stationary", 5, [], F(2)),
        (ABSORB, ["1/3", "1/3", "1/3"], 4, [], F(1, 2)),
        pytest.param(STICKY, ["1/5", "2/5", "2/5"], 6, [0], F(1), marks=pytest.mark.slow),
    ],
)
def test_every_target_equals_brute_force(rows, init, T, known, lam):
    model = ps.MarkovChain(["a", "b", "c"], T, init, rows)
    assert relabellings(model, {}) == {}  # the full path, with the complement lemma
    names = [f"x{t + 1}" for t in known]
    targets = [f"x{t + 1}" for t in range(T) if t not in known]
    got = histogram_leakage(model, targets, names, lam, digits=20)
    for res in got:
        t = int(res.target[1:]) - 1
        # expected: every sequence and every grid point (this file)
        want = _brute(model.initial_law, rows, T, t, known, lam)
        if want is None:
            assert res.value is None
        else:
            assert _encloses(res.value, want), res.target


def test_identical_rows_two_states_and_batches():
    # identical rows: independent records, Eq. 2 is 2/lambda by hand (the module's
    # closed form); two states: the brute force of this file
    ident = ps.MarkovChain(["a", "b", "c"], 5, ["1/2", "1/3", "1/6"], [["1/2", "1/3", "1/6"]] * 3)
    for res in histogram_leakage(ident, ["x1", "x3", "x5"], [], F(3), digits=20):
        assert res.value.lo <= F(2, 3) <= res.value.hi
    rows2 = [["4/5", "1/5"], ["3/10", "7/10"]]
    two = ps.MarkovChain(["0", "1"], 6, ["1/3", "2/3"], rows2)
    got = histogram_leakage(two, [f"x{t}" for t in range(1, 7)], [], F(1), digits=20)
    for t, res in enumerate(got):
        assert _encloses(res.value, _brute(two.initial_law, rows2, 6, t, [], F(1)))


def test_a_batch_gives_each_target_its_own_laws():
    # the complement lemma's laws (targets after the first) against each target's laws
    # computed alone (every value by its own product F B), exact integers
    model = ps.MarkovChain(["a", "b", "c"], 9, ["1/2", "1/3", "1/6"], STICKY)
    names = [f"x{t}" for t in range(1, 10)]
    together = dict(histogram_laws(model, names, {"x4": F(1)}))
    for name in names:
        if name == "x4":
            continue
        alone = dict(histogram_laws(model, [name], {"x4": F(1)}))[name]
        assert list(alone) == list(together[name])
        for v, (counts, weights) in alone.items():
            c2, w2 = together[name][v]
            assert np.array_equal(counts, c2) and list(weights) == list(w2)


@st.composite
def _laws_case(draw):
    """Two or three laws of count vectors (k states summing to T, valid by construction)."""
    k = draw(st.integers(2, 3))
    T = draw(st.integers(1, 5))
    vectors = [v for v in itertools.product(range(T + 1), repeat=k) if sum(v) == T]
    laws = []
    for _ in range(draw(st.integers(2, 3))):
        support = draw(st.lists(st.sampled_from(vectors), min_size=1, max_size=8, unique=True))
        weights = draw(
            st.lists(st.integers(1, 10**6), min_size=len(support), max_size=len(support))
        )
        laws.append((np.array(support, dtype=np.int64), weights))
    rate = F(draw(st.integers(1, 400)), draw(st.integers(1, 8)))
    return laws, T, k, rate


@settings(max_examples=60, deadline=None)
@given(_laws_case())
@example(
    (
        [
            (np.array([[0, 0, 5], [0, 4, 1], [1, 2, 2]]), [1, 1, 1]),
            (np.array([[0, 0, 5]]), [1]),
        ],
        5,
        3,
        F(35, 3),
    )
)
def test_the_screen_bounds_hold_and_keep_the_best_point(case):
    laws, T, k, rate = case
    points, ubs, lb = histogram_grid.screen(laws, T, rate)
    vals = {}
    for y in itertools.product(range(T + 1), repeat=k):
        vals[y] = mpmath.log(
            max(_g(law, y, rate) for law in laws) / min(_g(law, y, rate) for law in laws)
        )
    best = max(vals.values())
    kept = {tuple(p): u for p, u in zip(points.tolist(), ubs.tolist(), strict=True)}
    # LB is a lower bound of the max; each kept point's ub bounds its value
    assert mpmath.mpf(lb) <= best + mpmath.mpf(10) ** -30
    for y, u in kept.items():
        assert vals[y] <= mpmath.mpf(u)
    # every point dropped is below the best kept one (so the max is kept), and below LB
    # but for the margin 2^-40 (1 + |LB|) by which LB is lowered for the float log (the
    # case below: a flat top, dropped points 1.6e-11 above LB and 7e-11 below the max)
    best_kept = max(vals[y] for y in kept)
    margin = mpmath.mpf(2) ** -39 * (1 + abs(mpmath.mpf(lb)))
    for y, v in vals.items():
        if y not in kept:
            assert v < best_kept
            assert v < mpmath.mpf(lb) + margin


def _g(law, y, rate):
    counts, weights = law
    tot = sum(weights)
    r = mpmath.mpf(rate.numerator) / rate.denominator
    return mpmath.fsum(
        mpmath.mpf(w) / tot * mpmath.exp(-r * sum(abs(a - b) for a, b in zip(y, n, strict=True)))
        for n, w in zip(counts.tolist(), weights, strict=True)
    )

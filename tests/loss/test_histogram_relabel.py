"""The relabelling shortcut of the histogram engine (law ``a`` is law 0 with bins ``0`` and
``a`` swapped on a chain invariant under that swap): against a brute force written here
(every sequence and every grid point, Fraction laws and mpmath densities, not the code
under test), and against the engine's own path without the shortcut (every law computed
by its own forward-backward and its own float grid)."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pdpsym as ps
from pdpsym.loss import histogram, histogram_grid, histogram_symmetry
from pdpsym.loss.histogram import histogram_laws, histogram_leakage
from pdpsym.loss.histogram_symmetry import law_perms, relabellings

mpmath.mp.dps = 50


def _brute(init, rows, T, target, known, lam):
    """max over the integer grid {0..T}^k and ordered pairs of ln G_a / G_b, the laws of the
    histogram given x_target = a (and x_K) listed from every k^T sequence."""
    k = len(rows)
    laws: dict[int, dict[tuple[int, ...], F]] = {}
    for seq in itertools.product(range(k), repeat=T):
        if any(seq[t] != v for t, v in known.items()):
            continue
        p = F(init[seq[0]])
        for s, u in itertools.pairwise(seq):
            p *= rows[s][u]
        if p:
            h = tuple(seq.count(s) for s in range(k))
            law = laws.setdefault(seq[target], {})
            law[h] = law.get(h, F(0)) + p
    lam_m = mpmath.mpf(lam.numerator) / lam.denominator
    best = None
    for y in itertools.product(range(T + 1), repeat=k):
        vals = []
        for law in laws.values():
            tot = sum(law.values())
            vals.append(
                mpmath.fsum(
                    mpmath.mpf(p.numerator)
                    / p.denominator
                    / (mpmath.mpf(tot.numerator) / tot.denominator)
                    * mpmath.exp(-sum(abs(a - b) for a, b in zip(y, h, strict=True)) / lam_m)
                    for h, p in law.items()
                )
            )
        r = mpmath.log(max(vals) / min(vals))
        best = r if best is None else max(best, r)
    return best


def _swap01_chain(draw_a, draw_b, draw_d, u):
    """A 3-state chain invariant under swapping states 0 and 1 (by construction): rows
    ``[a, b, 1-a-b]``, ``[b, a, 1-a-b]``, ``[d, d, 1-2d]``, initial ``[u, u, 1-2u]``."""
    c = 1 - draw_a - draw_b
    rows = [[draw_a, draw_b, c], [draw_b, draw_a, c], [draw_d, draw_d, 1 - 2 * draw_d]]
    return [u, u, 1 - 2 * u], rows


def _model(init, rows, T):
    return ps.MarkovChain(
        ["0", "1", "2"], T, [str(p) for p in init], [[str(p) for p in r] for r in rows]
    )


probs = st.fractions(min_value=F(1, 20), max_value=F(9, 20), max_denominator=20)


@settings(max_examples=12, deadline=None)
@given(
    a=probs,
    b=probs,
    d=st.fractions(min_value=F(1, 20), max_value=F(9, 20), max_denominator=20),
    u=st.fractions(min_value=F(1, 10), max_value=F(2, 5), max_denominator=10),
    T=st.integers(2, 4),
    data=st.data(),
)
def test_swap_symmetric_chain_equals_brute_force(a, b, d, u, T, data):
    if a + b >= 1:
        a, b = F(1, 2) * a, F(1, 2) * b  # keep the third entry positive
    init, rows = _swap01_chain(a, b, d, u)
    model = _model(init, rows, T)
    target = data.draw(st.integers(0, T - 1))
    lam = data.draw(st.sampled_from([F(1, 2), F(1), F(5, 2)]))
    assert F(1) in relabellings(model, {})  # the shortcut is taken
    got = histogram_leakage(model, [f"x{target + 1}"], [], lam, digits=20)[0].value
    # expected: every sequence and every grid point (this file)
    want = _brute(init, rows, T, target, {}, lam)
    lo = mpmath.mpf(got.lo.numerator) / got.lo.denominator
    hi = mpmath.mpf(got.hi.numerator) / got.hi.denominator
    assert lo - mpmath.mpf(10) ** -30 <= want <= hi + mpmath.mpf(10) ** -30


@pytest.mark.parametrize(("stay", "T", "target", "lam"), [("1/2", 3, 1, F(1)), ("4/5", 4, 0, F(2))])
def test_fully_symmetric_four_state_chain_equals_brute_force(stay, T, target, lam):
    # stay p, else move uniformly: every swap (0 a) is a symmetry; brute force over 4^T
    # sequences and the (T+1)^4 grid (this file)
    p = F(stay)
    rows = [[p if i == j else (1 - p) / 3 for j in range(4)] for i in range(4)]
    init = [F(1, 4)] * 4
    model = ps.MarkovChain(
        ["a", "b", "c", "d"], T, "stationary", [[str(x) for x in r] for r in rows]
    )
    assert len(relabellings(model, {})) == 3
    got = histogram_leakage(model, [f"x{target + 1}"], [], lam, digits=20)[0].value
    want = _brute(init, rows, T, target, {}, lam)
    lo = mpmath.mpf(got.lo.numerator) / got.lo.denominator
    hi = mpmath.mpf(got.hi.numerator) / got.hi.denominator
    assert lo - mpmath.mpf(10) ** -30 <= want <= hi + mpmath.mpf(10) ** -30


def test_known_record_keeps_only_the_swaps_that_fix_it():
    # by hand: a known record of state 2 is fixed by (0 1) but not by (0 2); brute force
    # with the known record (this file)
    init, rows = _swap01_chain(F(1, 2), F(1, 5), F(1, 4), F(1, 3))
    model = _model(init, rows, 4)
    assert relabellings(model, {"x3": F(2)}) == {F(1): (1, 0, 2)}
    assert relabellings(model, {"x3": F(0)}) == {}
    assert relabellings(model, {"x3": F(1)}) == {}
    got = histogram_leakage(model, ["x2"], ["x3"], F(3, 2), digits=20)[0].value
    want = max(_brute(init, rows, 4, 1, {2: v}, F(3, 2)) for v in range(3))
    lo = mpmath.mpf(got.lo.numerator) / got.lo.denominator
    assert abs(lo - want) < mpmath.mpf(10) ** -18


def test_no_relabelling_on_an_asymmetric_chain():
    # by hand: rows 0 and 1 differ under every swap of states
    rows = [["3/5", "3/10", "1/10"], ["1/5", "1/2", "3/10"], ["1/10", "1/5", "7/10"]]
    model = ps.MarkovChain(["a", "b", "c"], 5, "stationary", rows)
    assert relabellings(model, {}) == {}
    # a product has none here (its own closed form)
    assert relabellings(ps.ProductModel([(["0", "1"], ["1/2", "1/2"])] * 2), {}) == {}


def _direct_laws(model, name, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(histogram_symmetry, "relabellings", lambda *_: {})
        return dict(next(iter(histogram_laws(model, [name], {})))[1])


@pytest.mark.parametrize("stay", ["1/4", "7/10"])
def test_relabelled_laws_equal_the_directly_computed_ones(stay, monkeypatch):
    # the old path (every value's own forward-backward) against the shortcut's laws
    p = F(stay)
    rows = [[str(p if i == j else (1 - p) / 3) for j in range(4)] for i in range(4)]
    model = ps.MarkovChain(["a", "b", "c", "d"], 7, "stationary", rows)
    fast = dict(next(iter(histogram_laws(model, ["x3"], {})))[1])
    slow = _direct_laws(model, "x3", monkeypatch)
    assert list(fast) == list(slow)
    perms = law_perms(model, {}, fast)
    assert perms is not None and perms[0] is None
    for (v, law), perm in zip(fast.items(), perms, strict=True):
        # law-for-law: the same vectors with proportional weights
        counts, weights = slow[v]
        tot_f, tot_s = sum(law[1]), sum(weights)
        got = {tuple(c): F(w, tot_f) for c, w in zip(law[0].tolist(), law[1], strict=True)}
        want = {tuple(c): F(w, tot_s) for c, w in zip(counts.tolist(), weights, strict=True)}
        assert got == want
        if perm is not None:
            assert histogram_grid.is_relabelling(fast[next(iter(fast))], law, perm)


@pytest.mark.parametrize(("lam", "alpha"), [(F(3, 2), None), (F(1, 40), None), (F(1), F(1, 3))])
def test_shortcut_gives_the_same_enclosure_as_the_full_grid(lam, alpha, monkeypatch):
    # the speedup changes no value: the same (lo, hi) with every law screened on its own
    p = F(3, 5)
    rows = [[str(p if i == j else (1 - p) / 2) for j in range(3)] for i in range(3)]
    model = ps.MarkovChain(["a", "b", "c"], 9, "stationary", rows)
    laws = dict(next(iter(histogram_laws(model, ["x4"], {})))[1])
    perms = law_perms(model, {}, laws)
    fast = histogram_grid.grid_sup(list(laws.values()), 9, 1 / lam, 20, alpha, None, perms)
    slow_laws = _direct_laws(model, "x4", monkeypatch)
    slow = histogram_grid.grid_sup(list(slow_laws.values()), 9, 1 / lam, 20, alpha)
    assert fast == slow


def test_a_wrong_permutation_is_refused():
    laws = [(np.array([[2, 0, 1], [1, 1, 1]]), [3, 5]), (np.array([[0, 2, 1]]), [3])]
    with pytest.raises(ValueError, match="relabelled"):
        histogram_grid.grid_sup(laws, 3, F(1), 10, perms=[None, (1, 0, 2)])
    assert not histogram_grid.is_relabelling(laws[0], laws[1], (1, 0, 2))


def test_simplex_codes_by_hand():
    # k = 3, T = 2: (n_1, n_2) with n_1 + n_2 <= 2, code n_1 + 3 n_2
    assert histogram.simplex_codes(3, 2) == [0, 1, 2, 3, 4, 6]
    assert histogram.simplex_codes(1, 5) == [0]
    assert len(histogram.simplex_codes(4, 10)) == 286  # binom(13, 3)

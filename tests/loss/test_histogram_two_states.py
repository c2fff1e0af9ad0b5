"""On two states the histogram ``(T - c, c)`` at per-bin scale ``L`` leaks exactly what
the count ``c`` does at scale ``L/2`` (on the anti-diagonal ``y_0 = T - y_1`` the kernel
is ``q^{2|y_1 - c|}``): checked against the existing scalar engine, which is independent
of the histogram engine (its own laws, its own sup over the count's support)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pdpsym as ps
from pdpsym.loss.count_leakage import structured_leakage
from pdpsym.loss.histogram import histogram_leakage


def _agree(h, s):
    assert h is not None and s is not None
    # the two certified enclosures overlap and both are narrow
    assert h.lo <= s.hi and s.lo <= h.hi
    assert h.hi - h.lo < F(1, 10**15) and s.hi - s.lo < F(1, 10**15)


@pytest.mark.parametrize(
    ("T", "target", "known", "lam"),
    [(8, "x1", ["x6"], F(3)), (8, "x4", [], F(1, 2)), (12, "x7", ["x2", "x11"], F(5, 3))],
)
def test_chain_histogram_is_count_at_half_scale(T, target, known, lam):
    chain = ps.MarkovChain(["0", "1"], T, "stationary", [["4/5", "1/5"], ["1/10", "9/10"]])
    h = histogram_leakage(chain, [target], known, lam, digits=20)[0].value
    s = structured_leakage(chain, [target], known, lam / 2, digits=20)[0].value
    _agree(h, s)


@settings(max_examples=12, deadline=None)
@given(
    st.lists(
        st.fractions(min_value=F(1, 20), max_value=F(19, 20), max_denominator=20),
        min_size=2,
        max_size=6,
    ),
    st.fractions(min_value=F(1, 4), max_value=4, max_denominator=8),
)
def test_independent_records(ps_, lam):
    coins = ps.ProductModel.bernoulli(list(ps_))
    h = histogram_leakage(coins, ["x1"], [], lam, digits=18)[0].value
    s = structured_leakage(coins, ["x1"], [], lam / 2, digits=18)[0].value
    _agree(h, s)


def test_all_targets_match_on_a_chain():
    chain = ps.MarkovChain(["0", "1"], 10, ["1/3", "2/3"], [["7/10", "3/10"], ["1/5", "4/5"]])
    names = list(chain.variables)
    hs = histogram_leakage(chain, names, [], F(2), digits=18)
    ss = structured_leakage(chain, names, [], F(1), digits=18, exact=False)
    for h, s in zip(hs, ss, strict=True):
        _agree(h.value, s.value)


def test_mirrored_targets_equal_their_own_computation():
    # a reversal-symmetric chain (stationary, detailed balance) with a mirror-symmetric
    # known set: all targets at once copy x_t to x_{T+1-t}; each alone computes itself
    from pdpsym.loss.histogram import histogram_leakage as hl

    rows = [["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/4", "1/4", "1/2"]]
    chain = ps.MarkovChain(["a", "b", "c"], 7, "stationary", rows)
    names = ["x1", "x2", "x3", "x5", "x6", "x7"]
    together = hl(chain, names, ["x4"], F(3, 2), digits=16)
    for r in together:
        alone = hl(chain, [r.target], ["x4"], F(3, 2), digits=16)[0].value
        assert r.value is not None and alone is not None
        assert r.value.lo <= alone.hi and alone.lo <= r.value.hi


def test_independent_records_through_the_grid_engine():
    # the grid engine itself (not the independent-records shortcut) gives 2/lambda, the
    # value the shortcut claims (by hand: one count moves between two bins)
    from pdpsym.loss import histogram_grid
    from pdpsym.loss.histogram import histogram_laws

    model = ps.ProductModel([(["0", "1", "2"], ["1/2", "1/3", "1/6"])] * 4)
    for _, laws in histogram_laws(model, ["x2"], {}):
        lo, hi = histogram_grid.grid_sup(list(laws.values()), 4, F(2, 3), 20)
        assert lo <= F(4, 3) <= hi and hi - lo < F(1, 10**18)

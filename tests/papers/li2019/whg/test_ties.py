"""Exact tie classes of WHG nodes, and the batch maximum that uses them.

Source of every expected value: the exact per-node engine
(:func:`pdpsym.papers.li2019.whg.whg_from_distribution`, closed-form Eq. 2 and chain values
compared exactly), which computes every node from the distribution with no tie shortcut;
and the hand derivation of ``1/lambda`` in the ties module's docstring (fact 1: equal
conditional laws of the rest give Delta/lambda, Delta = 1 for the sum of bits).
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdpsym.app.cli import main
from pdpsym.core.exp_polynomials import LogRatio
from pdpsym.models.joint import JointDistribution
from pdpsym.papers.li2019.whg import BottomRule, max_chain, max_exact, whg_from_distribution
from pdpsym.papers.li2019.whg.tie_classes import DELTA_OVER_LAMBDA, symmetry_blocks, tie_classes

weights = st.integers(min_value=1, max_value=9)


def _table(names_n: int, weight_of: dict[tuple[int, ...], int]) -> JointDistribution:
    total = sum(weight_of.values())
    names = [f"x{k + 1}" for k in range(names_n)]
    return JointDistribution.from_rows(
        names, [[*c, Fraction(w, total)] for c, w in sorted(weight_of.items())]
    )


@st.composite
def exchangeable(draw: st.DrawFn) -> JointDistribution:
    """A weight per number of ones: every permutation of the tuples is a symmetry."""
    n = draw(st.integers(2, 4))
    w = draw(st.lists(weights, min_size=n + 1, max_size=n + 1))
    return _table(n, {c: w[sum(c)] for c in itertools.product((0, 1), repeat=n)})


@st.composite
def independent(draw: st.DrawFn) -> JointDistribution:
    """Independent bits (uniform when every pair of weights is equal)."""
    n = draw(st.integers(2, 4))
    ws = [draw(st.tuples(weights, weights)) for _ in range(n)]
    return _table(
        n,
        {
            c: int(np.prod([ws[k][b] for k, b in enumerate(c)]))
            for c in itertools.product((0, 1), repeat=n)
        },
    )


@st.composite
def block_symmetric(draw: st.DrawFn) -> JointDistribution:
    """Two blocks of exchangeable tuples (a weight per pair of block sums)."""
    a, b = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    w = {(s, t): draw(weights) for s in range(a + 1) for t in range(b + 1)}
    return _table(
        a + b,
        {c: w[(sum(c[:a]), sum(c[a:]))] for c in itertools.product((0, 1), repeat=a + b)},
    )


symmetric = st.one_of(exchangeable(), independent(), block_symmetric())


def _exact_graph(model: JointDistribution, lam: Fraction, bottom: BottomRule):  # type: ignore[no-untyped-def]
    g = whg_from_distribution(model, lam, bottom=bottom)
    names = model.variables
    out = {}
    for v in g.nodes.values():
        K = sum(1 << names.index(k) for k in v.known)
        out[(names.index(v.target), K)] = v
    return g, out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(symmetric, st.sampled_from([Fraction(1), Fraction(2, 3)]), st.sampled_from(list(BottomRule)))
def test_equal_keys_imply_equal_exact_values(
    model: JointDistribution, lam: Fraction, bottom: BottomRule
) -> None:
    """Law: nodes in one tie class have exactly equal values in the exact engine, and
    class 0 is exactly 1/lambda."""
    classes = tie_classes(model.counts, bottom is BottomRule.EQ2)
    _, nodes = _exact_graph(model, lam, bottom)
    one_over_lam = LogRatio.of_rational(1 / lam)
    for keys, value_of in (
        (classes.eq2, lambda v: v.exact.require()),
        (classes.chain, lambda v: v.chain),
    ):
        first: dict[int, LogRatio] = {}
        for (i, K), v in nodes.items():
            key = int(keys[i, K])
            val = value_of(v)
            if key == DELTA_OVER_LAMBDA:
                assert val.exact_compare(one_over_lam) == 0
            elif key in first:
                assert val.exact_compare(first[key]) == 0
            else:
                first[key] = val


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(model=symmetric, bottom=st.sampled_from(list(BottomRule)))
def test_batch_maximum_equals_exact_engine(
    model: JointDistribution, bottom: BottomRule, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Law: the maximum the batch command picks (the fast tie path) is the exact engine's
    first maximum in node order, for Eq. 2 and for the chain rule."""
    path = tmp_path_factory.mktemp("ties") / "m.json"
    path.write_text(json.dumps(model.to_json_object()))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["whg", str(path), "--json", "--bottom", bottom.value]) == 0
    got = json.loads(buf.getvalue())["max"]
    g, _ = _exact_graph(model, Fraction(1), bottom)
    nodes = g.ordered()
    me, mc = max_exact(nodes), max_chain(nodes)
    assert me is not None and mc is not None
    assert (got["exact"]["target"], got["exact"]["known"]) == (me.target, list(me.known))
    assert (got["chain"]["target"], got["chain"]["known"]) == (mc.target, list(mc.known))


def test_uniform_bits_are_one_class() -> None:
    # hand derivation: independent bits have equal conditional laws of the rest, so every
    # Eq. 2 value is Delta/lambda; every edge W_ij is 0, so every chain value is the
    # Theorem 4 bottom Delta/lambda
    counts = np.ones((2,) * 5, dtype=np.int64)
    c = tie_classes(counts, bottom_eq2=False)
    valid = [(i, K) for i in range(5) for K in range(32) if not K >> i & 1]
    assert all(c.eq2[i, K] == DELTA_OVER_LAMBDA for i, K in valid)
    assert all(c.chain[i, K] == DELTA_OVER_LAMBDA for i, K in valid)
    assert symmetry_blocks(counts) == [0] * 5


def test_symmetry_blocks_by_hand() -> None:
    # hand derivation: x1, x2 exchangeable (the weight depends on x1 + x2), x3 not
    # interchangeable with them (weights 1..8 differ under a swap with x3)
    counts = np.array([[[1, 2], [3, 4]], [[3, 4], [5, 6]]], dtype=np.int64)
    assert symmetry_blocks(counts) == [0, 0, 1]

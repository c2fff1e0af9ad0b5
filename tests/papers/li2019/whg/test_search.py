"""Full, fast and path searches on given edges; float vs exact; Section VII data."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_rational
from pdpsym.papers.li2019.experiments import fast_vs_full, leakage_vs_layer
from pdpsym.papers.li2019.whg import (
    ArrayEdges,
    BetaEdges,
    ExactOf,
    fast_search,
    full_search,
    paths_search,
)


def brute_layered(src: ArrayEdges) -> list[dict[int, Fraction]]:
    """Algorithm 1 written independently: recursion with memo over (i, mask)."""
    n, m = src.n, src.n - 1
    out = []
    for i in range(n):
        memo: dict[int, Fraction] = {}

        def value(mask: int, i: int = i, memo: dict = memo) -> Fraction:
            if mask == (1 << m) - 1:
                return src.bottoms[i]
            if mask not in memo:
                memo[mask] = min(
                    abs(value(mask | 1 << p) + src.E[i][p][mask])
                    for p in range(m)
                    if not mask >> p & 1
                )
            return memo[mask]

        out.append({mask: value(mask) for mask in range(1 << m)})
    return out


def random_src(rng: random.Random, n: int) -> ArrayEdges:
    m = n - 1
    E = [
        [[Fraction(rng.randint(-4, 4), 4) for _ in range(1 << m)] for _ in range(m)]
        for _ in range(n)
    ]
    return ArrayEdges(n, E, [Fraction(rng.randint(1, 3)) for _ in range(n)], True)


@given(st.integers(2, 7), st.integers(0, 10**6))
def test_full_search_matches_independent_recursion(n: int, seed: int) -> None:
    src = random_src(random.Random(seed), n)
    res = full_search(src)
    ref = brute_layered(src)
    for i in range(n):
        for mask, v in ref[i].items():
            assert res.values[i][mask] == v


@given(st.integers(2, 5), st.integers(0, 10**6))
def test_paths_never_above_layered(n: int, seed: int) -> None:
    """min over all paths <= the layered value (the layered path is one of the paths)."""
    src = random_src(random.Random(seed), n)
    a, b = full_search(src), paths_search(src)
    for i in range(n):
        for mask in range(1 << (n - 1)):
            assert b.values[i][mask] <= a.values[i][mask]


def test_paths_and_layered_can_differ() -> None:
    """n = 4 is the first size where a middle node has two children; then the per-node
    minimum (Algorithm 1) can discard the path that ends lowest (|x + w| is not monotone)."""
    found = None
    for seed in range(200):
        src = random_src(random.Random(seed), 4)
        a, b = full_search(src), paths_search(src)
        if any(b.values[i][0] < a.values[i][0] for i in range(4)):
            found = seed
            break
    assert found is not None
    for seed in range(50):  # and never for n = 3
        src = random_src(random.Random(seed), 3)
        a, b = full_search(src), paths_search(src)
        assert all(list(a.values[i]) == list(b.values[i]) for i in range(3))


@given(st.integers(2, 6), st.integers(0, 10**6))
def test_fast_with_huge_k_is_full(n: int, seed: int) -> None:
    src = random_src(random.Random(seed), n)
    a, b = full_search(src), fast_search(src, 10**6)
    for i in range(n):
        assert list(a.values[i]) == list(b.values[i])


def test_fast_never_more_nodes_than_k_per_layer_generators() -> None:
    src = random_src(random.Random(3), 6)
    res = fast_search(src, 2)
    layers = res.layer_of_mask()
    for layer in range(3, 7):
        count = sum(v is not None for V in res.values for v in V[layers == layer])
        # each of the 2 generators has at most `layer - 1` known tuples to forget
        assert count <= 2 * (6 - layer + 1)


def test_float_and_exact_agree_on_beta_edges() -> None:
    src = BetaEdges(9, 0.5, seed=7)
    f = full_search(src)
    e = full_search(ExactOf(src))
    for Vf, Ve in zip(f.values, e.values, strict=True):
        assert np.allclose(Vf.astype(float), np.array([float(x) for x in Ve]), rtol=1e-12)


def test_beta_edges_deterministic_and_signed() -> None:
    a, b = BetaEdges(5, -0.5, seed=1).edges(2), BetaEdges(5, -0.5, seed=1).edges(2)
    assert (a == b).all() and (a <= 0).all()


def test_layer_one_is_bottom() -> None:
    res = full_search(BetaEdges(6, 0.8, seed=0))
    assert res.layer_max()[0] == 1.0


@pytest.mark.parametrize(
    ("obj", "field"),
    [
        ({"n": 2, "edges": [[["1"]]]}, "edges.edges"),
        ({"n": 2, "edges": [[["1", "0"]], [["1", "0", "2"]]]}, "edges.edges[1][0]"),
        ({"n": 1, "edges": []}, "edges.n"),
        ({"n": 40, "edges": []}, "edges.n"),
        ({"n": 2, "edges": [[["x", "0"]], [["1", "0"]]]}, "edges.edges[0][0][0]"),
        ({"n": 2, "bottom": ["-1", "1"], "edges": [[["1", "0"]], [["1", "0"]]]}, "edges.bottom[0]"),
    ],
)
def test_bad_edge_files(obj: dict, field: str) -> None:
    with pytest.raises(InputError) as err:
        ArrayEdges.from_json_object(obj, parse_rational)
    assert field in str(err.value)


def test_fast_k_must_be_positive() -> None:
    with pytest.raises(InputError):
        fast_search(BetaEdges(3, 0.5), 0)


def test_experiments_shapes() -> None:
    lv = leakage_vs_layer(n=5, corrs=(0.5, -0.5))
    assert len(lv["rows"]) == 2 and len(lv["rows"][0]["layer_max"]) == 5
    ff = fast_vs_full(ns=(4,), corrs=(0.5,), k=2, runs=3)
    assert ff[0]["fast_above"] + ff[0]["fast_below"] <= 3

"""The bnlearn networks (real files written by others) against references written here:
a brute force over the full joint (Fractions) on the small ones, and a float64 variable
elimination with a polynomial axis (numpy) on the larger ones, for the default query,
``count_query`` and ``sum_query``."""

from __future__ import annotations

import gzip
import itertools
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from pdpsym.core import poly
from pdpsym.core.errors import InputError
from pdpsym.loss.count_leakage import structured_leakage
from pdpsym.models.bayesnet import BayesianNetwork

DATA = Path(__file__).resolve().parents[1] / "data" / "bnlearn"
TOL = Fraction(1, 10**6)


def load(name: str) -> BayesianNetwork:
    text = gzip.open(DATA / f"{name}.bif.gz", "rt", encoding="utf-8").read()
    return BayesianNetwork.from_bif_text(text, tolerance=TOL, max_work=10**9)


def query_values(net: BayesianNetwork) -> dict[str, list[Fraction]]:
    """Each record's per-state value in the query, read from the public fields."""
    if net.query_values is None:
        return {v: list(net.nodes[v].values) for v in net.variables}
    return {
        v: list(net.query_values.get(v, [Fraction(0)] * len(net.nodes[v].states)))
        for v in net.variables
    }


def brute_laws(net: BayesianNetwork) -> dict[tuple[str, int], dict[Fraction, Fraction]]:
    """P(f = s, x_t = a) for every target t and state a, by listing the full joint."""
    q = query_values(net)
    names = list(net.variables)
    out: dict[tuple[str, int], dict[Fraction, Fraction]] = {}
    for states in itertools.product(*(range(len(net.nodes[v].states)) for v in names)):
        x = dict(zip(names, states))
        p = Fraction(1)
        for v in names:
            node = net.nodes[v]
            p *= node.cpt[tuple(x[u] for u in node.parents)][x[v]]
            if p == 0:
                break
        if p == 0:
            continue
        s = sum((q[v][x[v]] for v in names), Fraction(0))
        for v in names:
            law = out.setdefault((v, x[v]), {})
            law[s] = law.get(s, Fraction(0)) + p
    return out


def engine_laws(net: BayesianNetwork) -> dict[tuple[str, int], dict[Fraction, Fraction]]:
    """The same from the junction tree's integer polynomials, normalized exactly."""
    contrib = net.contributions()
    out: dict[tuple[str, int], dict[Fraction, Fraction]] = {}
    factors = dict(net.target_factors(list(net.variables), {}))
    z = None
    for t, values in factors.items():
        polys = [values[a][0] for a in net.nodes[t].values]
        total = sum(poly.total(p) for p in polys)
        z = total if z is None else z
        assert total == z  # the same scale for every target (the law of the whole joint)
        for k, p in enumerate(polys):
            law = {
                (c + contrib.offset) / contrib.scale: Fraction(n, total)
                for c, n in enumerate(poly.coefficients(p))
                if n
            }
            if law:
                out[(t, k)] = law
    return out


SMALL = ["asia", "cancer", "earthquake", "survey"]


@pytest.mark.parametrize("name", SMALL)
def test_small_networks_equal_the_brute_force_over_the_full_joint(name):
    net = load(name)
    assert brute_laws(net) == engine_laws(net)
    state = net.nodes[net.variables[0]].states[0]
    having = [v for v in net.variables if state in net.nodes[v].states][:3]
    counted = net.count_query(having, state)
    assert brute_laws(counted) == engine_laws(counted)
    summed = net.sum_query(list(net.variables[1:4]))
    assert brute_laws(summed) == engine_laws(summed)


@pytest.mark.slow
def test_sachs_equals_the_brute_force_over_the_full_joint():
    net = load("sachs")  # 11 records of 3 states: 177147 rows
    assert brute_laws(net) == engine_laws(net)


def test_breaking_the_network_makes_the_brute_force_disagree():
    """The check can fail: one row of asia changed in the copy the engine reads."""
    net = load("asia")
    node = net.nodes["asia"]
    other = type(node)(
        node.name, node.states, node.values, node.parents, {(): (Fraction(1, 2),) * 2}
    )
    broken = BayesianNetwork(net.variables, {**net.nodes, "asia": other})
    assert brute_laws(net) != engine_laws(broken)


# --- a float64 elimination with a polynomial axis, written here -------------------------


def float_laws(net: BayesianNetwork, target: str) -> dict[int, np.ndarray]:
    """For each state a of target: the array P(S = c, x_t = a) over c = 0..span (float64),
    by summing out every other record in a greedy min-degree order."""
    contrib = net.contributions()
    shifts = dict(zip(net.variables, contrib.table))
    span = contrib.span
    out = {}
    for a in range(len(net.nodes[target].states)):
        factors = []
        for v in net.variables:
            node = net.nodes[v]
            scope = [*node.parents, v]
            shape = [len(net.nodes[u].states) for u in scope] + [span + 1]
            arr = np.zeros(shape)
            for config, row in node.cpt.items():
                for s, p in enumerate(row):
                    arr[(*config, s, shifts[v][s])] = float(p)
            if target in scope:  # observe x_target = a
                k = scope.index(target)
                arr = np.take(arr, [a], axis=k).squeeze(axis=k)
                scope = [u for u in scope if u != target]
            factors.append((scope, arr))
        remaining = [v for v in net.variables if v != target]
        while remaining:
            v = min(
                remaining, key=lambda v, fs=factors: len({u for s, _ in fs if v in s for u in s})
            )
            remaining.remove(v)
            touching = [f for f in factors if v in f[0]]
            factors = [f for f in factors if v not in f[0]]
            scope, arr = touching[0]
            for s2, a2 in touching[1:]:
                scope, arr = float_times(scope, arr, s2, a2, span)
            k = scope.index(v)
            factors.append(([u for u in scope if u != v], arr.sum(axis=k)))
        total = np.zeros(span + 1)
        total[0] = 1.0
        for _, arr in factors:
            total = np.convolve(total, arr)[: span + 1]
        out[a] = total
    return out


def float_times(s1, a1, s2, a2, span):
    """The product of two factors with a polynomial last axis (convolution, truncated at
    the span, which no product of the query's records exceeds)."""
    scope = list(s1) + [u for u in s2 if u not in s1]
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    idx = {u: letters[k] for k, u in enumerate(scope)}
    e1 = "".join(idx[u] for u in s1)
    e2 = "".join(idx[u] for u in s2)
    eo = "".join(idx[u] for u in scope)
    out = None
    nz1 = np.nonzero(a1.reshape(-1, span + 1).any(axis=0))[0]
    for i in nz1:
        part = np.einsum(f"{e1},{e2}z->{eo}z", a1[..., i], a2[..., : span + 1 - i])
        if out is None:
            out = np.zeros([*part.shape[:-1], span + 1])
        out[..., i:] += part
    if out is None:
        shape = [a1.shape[s1.index(u)] if u in s1 else a2.shape[s2.index(u)] for u in scope]
        out = np.zeros([*shape, span + 1])
    return scope, out


LARGER = [
    ("child", 4),
    ("alarm", 3),
    pytest.param("win95pts", 2, marks=pytest.mark.slow),
    pytest.param("hepar2", 2, marks=pytest.mark.slow),
    pytest.param("insurance", 2, marks=pytest.mark.slow),
    pytest.param("hailfinder", 1, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("name", "n_targets"), LARGER)
def test_larger_networks_agree_with_a_float64_elimination(name, n_targets):
    net = load(name)
    targets = list(net.variables[:n_targets])
    exact = dict(net.target_factors(targets, {}))
    for t in targets:
        ref = float_laws(net, t)
        polys = [exact[t][a][0] for a in net.nodes[t].values]
        z = sum(poly.total(p) for p in polys)
        for k, p in enumerate(polys):
            coeffs = poly.coefficients(p)
            got = np.array(
                [float(Fraction(c, z)) for c in coeffs] + [0.0] * (len(ref[k]) - len(coeffs))
            )
            assert np.allclose(got, ref[k], rtol=1e-9, atol=1e-15)


def float_leakage(laws: dict[int, np.ndarray], rate: float) -> float:
    """Eq. 2's sup over outputs of the log-ratio of two Laplace mixtures, at the support
    points (the breakpoint lemma), max over the pairs of target states (float64)."""
    mixes = []
    for law in laws.values():
        if law.sum() <= 0:
            continue
        law = law / law.sum()
        c = np.arange(len(law))
        mixes.append(np.exp(-rate * np.abs(c[:, None] - c[None, :])) @ law)
    best = -math.inf
    for m1, m2 in itertools.permutations(mixes, 2):
        best = max(best, float(np.max(np.log(m1) - np.log(m2))))
    return best


@pytest.mark.parametrize("name", ["child", "alarm"])
def test_certified_leakage_encloses_the_float64_reference(name):
    net = load(name)
    targets = list(net.variables[:3])
    results = structured_leakage(net, targets, (), Fraction(2), digits=15, exact=False)
    for r in results:
        ref = float_leakage(float_laws(net, r.target), 1 / 2)
        assert float(r.value.lo) - 1e-9 <= ref <= float(r.value.hi) + 1e-9


def test_count_query_on_alarm_counts_the_named_state():
    net = load("alarm").count_query(["HYPOVOLEMIA", "LVFAILURE"], "TRUE")
    # hand: a count of two binary records: its contributions are 0/1 per record
    assert net.contributions().span == 2
    ref = float_laws(net, "HYPOVOLEMIA")
    exact = dict(net.target_factors(["HYPOVOLEMIA"], {}))["HYPOVOLEMIA"]
    for k, a in enumerate(net.nodes["HYPOVOLEMIA"].values):
        coeffs = poly.coefficients(exact[a][0])
        z = sum(poly.total(exact[b][0]) for b in exact)
        got = [float(Fraction(c, z)) for c in coeffs] + [0.0] * (3 - len(coeffs))
        assert np.allclose(got, ref[k], rtol=1e-9, atol=1e-15)
    # HYPOVOLEMIA = TRUE (state 0) puts at least 1 in the count (hand)
    assert poly.coefficients(exact[Fraction(0)][0])[0] == 0


def test_bad_queries_name_the_field():
    net = load("alarm")
    with pytest.raises(InputError) as err:
        net.count_query(["HYPOVOLEMIA"], "MAYBE")
    assert err.value.field == "count" and "no state 'MAYBE'" in err.value.message
    with pytest.raises(InputError) as err:
        net.sum_query(["NOPE"])
    assert err.value.field == "sum" and "unknown node" in err.value.message
    with pytest.raises(InputError) as err:
        net.count_query(["CVP", "CVP"], "LOW")
    assert "listed twice" in err.value.message

"""The reduced, checkpointed forward-backward of :mod:`pdpsym.loss.histogram_chain`: every
target's laws of the histogram (through :func:`pdpsym.loss.histogram.histogram_laws`, which
takes it for three targets or more of a one-matrix chain) against a brute force written
here, every sequence of a small chain listed in exact fractions (not the code under test)."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

import pdpsym as ps
from pdpsym.loss import histogram_chain
from pdpsym.loss.histogram import histogram_laws


@st.composite
def _rows(draw):
    """A k-state stochastic matrix of small fractions, some rows with a common factor
    (valid by construction: each row's parts sum to its denominator)."""
    k = draw(st.integers(2, 3))
    rows = []
    for _ in range(k):
        den = draw(st.sampled_from([2, 3, 4, 5, 6, 7, 9, 10, 12]))
        cuts = sorted(draw(st.lists(st.integers(0, den), min_size=k - 1, max_size=k - 1)))
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, den], strict=True)]
        rows.append([F(p, den) for p in parts])
    return rows


def _brute(init, rows, T, known):
    """``{(t, a): {histogram: P(histogram | x_t = a, x_K)}}`` for every 0-based ``t``, by
    listing all ``k^T`` sequences in exact fractions."""
    k = len(rows)
    joint: dict[tuple[int, int], dict[tuple[int, ...], F]] = {}
    for seq in itertools.product(range(k), repeat=T):
        if any(seq[t] != s for t, s in known.items()):
            continue
        p = init[seq[0]]
        for s, u in itertools.pairwise(seq):
            p *= rows[s][u]
        if not p:
            continue
        h = tuple(seq.count(s) for s in range(k))
        for t in range(T):
            law = joint.setdefault((t, seq[t]), {})
            law[h] = law.get(h, F(0)) + p
    return {key: {h: p / sum(law.values()) for h, p in law.items()} for key, law in joint.items()}


def _check(init, rows, T, known, targets=None):
    k = len(rows)
    names = [chr(ord("a") + j) for j in range(k)]
    model = ps.MarkovChain(names, T, [str(p) for p in init], [[str(x) for x in r] for r in rows])
    want = _brute(init, rows, T, known)
    assignment = {f"x{t + 1}": F(s) for t, s in known.items()}
    if targets is None:
        targets = [f"x{t}" for t in range(1, T + 1) if f"x{t}" not in assignment]
    assert len(targets) > 2  # the reduced forward-backward's path
    got = dict(histogram_laws(model, targets, assignment))
    for name in targets:
        t = int(name[1:]) - 1
        laws = {}
        for value, (counts, weights) in got[name].items():
            total = sum(weights)
            laws[int(value)] = {
                tuple(int(c) for c in row): F(w, total)
                for row, w in zip(counts, weights, strict=True)
                if w
            }
        expected = {a: law for (u, a), law in want.items() if u == t}
        assert laws == expected, name


@settings(max_examples=25, deadline=None)
@given(_rows(), st.integers(3, 6), st.data())
def test_every_targets_laws_are_the_brute_force(rows, T, data):
    k = len(rows)
    weights = data.draw(st.lists(st.integers(1, 5), min_size=k, max_size=k))
    init = [F(w, sum(weights)) for w in weights]
    known = {}
    if data.draw(st.booleans()):
        known[data.draw(st.integers(0, T - 1))] = data.draw(st.integers(0, k - 1))
    if T - len(known) > 2:
        _check(init, rows, T, known)


def test_several_checkpoint_segments_with_a_known_record_and_zeros():
    # T = 9: checkpoints every 4 positions, so the targets x2, x6, x8, x9 lie in three
    # segments; row 1 has a zero and rows with common factors (d = 20: g = (4, 2, 5))
    rows = [
        [F(3, 5), F(1, 5), F(1, 5)],
        [F(1, 10), F(9, 10), F(0)],
        [F(1, 4), F(1, 4), F(1, 2)],
    ]
    assert histogram_chain.checkpoint_spacing(9) == 4
    _check([F(1, 2), F(1, 3), F(1, 6)], rows, 9, {3: 2}, ["x2", "x6", "x8", "x9"])


def test_the_targets_come_in_the_callers_order():
    rows = [[F(1, 2), F(1, 2)], [F(1, 3), F(2, 3)]]
    model = ps.MarkovChain(["a", "b"], 8, "stationary", [[str(x) for x in r] for r in rows])
    names = [name for name, _ in histogram_laws(model, ["x7", "x2", "x5", "x1"], {})]
    assert names == ["x7", "x2", "x5", "x1"]

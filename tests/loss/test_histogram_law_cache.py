"""The histogram's law cache (``pdpsym.loss.histogram.LawCache``): a pass's laws and one
target's laws from it equal a brute force over every sequence written here (Fractions,
not the code under test), and a calibration that keeps them prints what one without the
cache prints."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest
from oracles.histogram_chain import histogram_laws

import pdpsym as ps
import pdpsym.audit.calibrate_histogram as ch
import pdpsym.loss.histogram as hist
from pdpsym.loss.histogram import LawCache, histogram_leakage

UNIFORM4 = [[F(1, 2) if i == j else F(1, 6) for j in range(4)] for i in range(4)]
STICKY3 = [["3/5", "3/10", "1/10"], ["1/7", "5/7", "1/7"], ["2/9", "1/9", "2/3"]]


def _normalized(law):
    counts, weights = law
    total = sum(weights)
    return {tuple(int(c) for c in n): F(w, total) for n, w in zip(counts, weights) if w}


def _chain(init, rows, T):
    k = len(rows)
    return ps.MarkovChain([str(s) for s in range(k)], T, [str(p) for p in init], rows)


@pytest.mark.parametrize(
    ("init", "rows", "T", "known"),
    [
        ([F(1, 4)] * 4, UNIFORM4, 5, {}),
        ([F(1, 3), F(1, 2), F(1, 6)], STICKY3, 6, {}),
        ([F(1, 3), F(1, 2), F(1, 6)], STICKY3, 5, {"x3": F(2)}),
    ],
)
def test_cached_laws_match_brute_force(init, rows, T, known):
    # expected: every sequence listed here with Fractions (oracles.histogram_chain)
    model = _chain(init, rows, T)
    cache = LawCache()
    targets = [t for t in model.variables if t not in known]
    made = cache.pass_laws(model, targets, known)
    assert [name for name, _, _ in made] == targets
    assert cache.pass_laws(model, targets, known) is made  # computed once
    fixed = {int(name[1:]) - 1: int(v) for name, v in known.items()}
    for name, laws, _ in made:
        want = histogram_laws(init, rows, T, int(name[1:]) - 1, fixed)
        got = {int(a): _normalized(law) for a, law in laws.items()}
        assert got == want
        assert cache.target_laws(name, known) is laws
    supports = [law[0] for _, laws, _ in made for law in laws.values()]
    for a, b in itertools.combinations(supports, 2):
        # equal supports are kept once, read-only
        assert (a is b) == (a.shape == b.shape and (a == b).all())
        assert not a.flags.writeable
    assert cache.target_laws(targets[0], {"x1": F(0)}) is None  # another assignment
    assert LawCache().target_laws(targets[0], known) is None  # no pass yet


def test_broken_law_is_caught():
    # the check above can fail: one weight changed breaks the match with the brute force
    model = _chain([F(1, 4)] * 4, UNIFORM4, 4)
    (name, laws, _), *_ = LawCache().pass_laws(model, ["x2"], {})
    counts, weights = laws[F(0)]
    broken = (counts, [weights[0] + 1, *weights[1:]])
    assert _normalized(broken) != histogram_laws([F(1, 4)] * 4, UNIFORM4, 4, 1, {})[0]


@pytest.mark.parametrize("lam", [F(3), F(7, 2)])
def test_leakage_with_cache_is_the_same(lam):
    # expected: the same call without a cache (the laws are the same integers)
    model = _chain([F(1, 3), F(1, 2), F(1, 6)], STICKY3, 7)
    cache = LawCache()
    for _ in range(2):  # the second call reads the kept laws
        got = histogram_leakage(model, model.variables, (), lam, digits=15, laws=cache)
        want = histogram_leakage(model, model.variables, (), lam, digits=15)
        assert [(r.target, r.value.lo, r.value.hi) for r in got] == [
            (r.target, r.value.lo, r.value.hi) for r in want
        ]


@pytest.mark.parametrize(
    ("init", "rows", "target"),
    [([F(1, 4)] * 4, UNIFORM4, "x3"), ([F(1, 3), F(1, 2), F(1, 6)], STICKY3, "x4")],
)
def test_bisected_target_reads_the_pass_laws(init, rows, target):
    # expected: the target's own laws computed alone (histogram_laws of one target), the
    # same integers (on the chain with no symmetry the pass derives the last law by the
    # complement, the target alone by its own product)
    model = _chain(init, rows, 6)
    cache = LawCache()
    cache.pass_laws(model, model.variables, {})
    kept = ch._Target(model, target, (), cache=cache)
    alone = ch._Target(model, target, ())
    assert len(kept.parts) == len(alone.parts) == 1
    for (a_laws, a_perms), (b_laws, b_perms) in zip(kept.parts, alone.parts, strict=True):
        assert a_perms == b_perms
        for a, b in zip(a_laws, b_laws, strict=True):
            assert (a[0] == b[0]).all() and list(a[1]) == list(b[1])


def test_calibration_with_and_without_cache(monkeypatch):
    # expected: the same calibration with the cache switched off (every pass and the
    # bisected target computing their laws afresh, as before the cache)
    model = _chain([F(1, 4)] * 4, UNIFORM4, 6)
    kept = ps.calibrate(model, F(1), query="histogram").as_json(15)
    calls = []

    def afresh(self, model, targets, assignment):
        calls.append(tuple(targets))
        return list(hist._target_laws(model, targets, assignment))

    monkeypatch.setattr(LawCache, "pass_laws", afresh)
    monkeypatch.setattr(LawCache, "target_laws", lambda self, name, assignment: None)
    fresh = ps.calibrate(model, F(1), query="histogram").as_json(15)
    assert len(calls) >= 3  # the passes did run without the cache
    assert kept == fresh

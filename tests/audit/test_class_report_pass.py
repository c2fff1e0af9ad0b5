"""The count of the figures' forward pass under randomized response
(:func:`pdpsym.audit.class_figure_search.report_pass`), which the work estimate uses
instead of running a pass of 2^T report tuples, against hand counts, a brute force over
the explicit state and report sequences written here, and the pass itself."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from pdpsym.audit import class_figure_search as fs
from pdpsym.audit.class_box_laws import box_laws, report_emission
from pdpsym.audit.class_figure_search import (
    FORWARD_COST,
    PAIR_COST,
    PUSH_COST,
    REPORT_CAP,
    REPORT_FACTOR,
    report_pass,
    steps_per_box,
)
from pdpsym.mechanisms.discrete import randomized_response
from pdpsym.mechanisms.sum_kernels import CountSum, GeometricSum
from pdpsym.models.law_class import IntervalChain

F = Fraction


def _chain(T: int) -> IntervalChain:
    return IntervalChain.from_json_object(
        {
            "kind": "interval-markov-chain",
            "length": T,
            "states": ["0", "1"],
            "initial": ["1/3", "2/3"],
            "transition": [
                [["4/5", "9/10"], ["1/10", "1/5"]],
                [["3/20", "3/10"], ["7/10", "17/20"]],
            ],
        }
    )


def _brute(T: int, k: int, keep: Fraction, target: int, known: list[int]):
    """The pass's keys built from every state sequence and every report sequence of
    positive probability (every transition positive): after ``t`` records a key is the
    last state, the target's and the known records' values among them, and the reports;
    each key steps to every state and each of its reports."""
    other = (1 - keep) / (k - 1)
    gives = [[o for o in range(k) if (keep if o == x else other) > 0] for x in range(k)]
    steps = 0
    for t in range(1, T):
        keys = set()
        for xs in itertools.product(range(k), repeat=t):
            for os in itertools.product(*(gives[x] for x in xs)):
                a = xs[target] if target < t else None
                v = tuple(xs[p] if p < t else None for p in known)
                keys.add((xs[-1], a, v, os))
        steps += len(keys) * sum(len(gives[x]) for x in range(k))
    laws: dict[tuple, set] = {}
    for xs in itertools.product(range(k), repeat=T):
        for os in itertools.product(*(gives[x] for x in xs)):
            laws.setdefault((xs[target], tuple(xs[p] for p in known)), set()).add(os)
    return steps, len(laws), {len(s) for s in laws.values()}


def test_the_count_by_hand():
    # hand count, T = 3, target x2, known x1, keep 3/4 (each state gives both reports):
    # after x1, 2 states x 2 reports = 4 keys, each to 2 states x 2 reports: 16 steps;
    # after x2, (x2, x1, two reports) = 16 keys, each to 4: 64 steps; 80 in all. A law
    # (x2 and x1 fixed) has every report tuple of 3 records: 8; 4 laws
    got = report_pass(["x1", "x2", "x3"], "x2", ["x1"], report_emission(F(3, 4), 2))
    assert (got.steps, got.laws, got.per_law) == (80, 4, 8)
    # keep 1: the reports are the states (the paths): 2 keys then 4, each to 2 states:
    # 4 + 8 = 12 steps; a law fixes x1's and x2's reports, x3's is free: 2 tuples
    got = report_pass(["x1", "x2", "x3"], "x2", ["x1"], report_emission(F(1), 2))
    assert (got.steps, got.laws, got.per_law) == (12, 4, 2)


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("keep", [F(3, 4), F(1), F(1, 5)])
@pytest.mark.parametrize(("T", "target", "known"), [(3, 1, [0]), (4, 0, []), (4, 3, [1, 2])])
def test_the_count_is_the_brute_force(k, keep, T, target, known):
    names = [f"x{j + 1}" for j in range(T)]
    got = report_pass(names, names[target], [names[p] for p in known], report_emission(keep, k))
    steps, laws, sizes = _brute(T, k, keep, target, known)
    assert (got.steps, got.laws, {got.per_law}) == (steps, laws, sizes)


@pytest.mark.parametrize(("T", "target", "known"), [(4, "x2", ["x1"]), (5, "x5", ["x2", "x3"])])
def test_the_count_is_the_pass_at_the_centre(T, target, known):
    # the forward pass itself, run at the box's centre, visits the keys counted
    cls = _chain(T)
    emit = report_emission(F(3, 4), 2)
    centre = tuple(((a + b) / 2,) * 2 for a, b in cls.box())
    laws = box_laws(cls, centre, target, known, None, emit)
    got = report_pass(cls.variables, target, known, emit)
    assert got.steps == laws.steps and got.laws == len(laws.laws)
    assert {len(lo) for lo, _ in laws.laws.values()} == {got.per_law}


def test_the_sub_box_estimate_under_randomized_response_by_hand():
    # hand: T = 3, target x2, known x1, apkdp (one kind, no changed pairs), 2 parameters:
    # forward 30 x 80 keys x (2 + 2) = 9600; push 4 laws x (3 + 4) x 8 tuples = 224;
    # compare 1 kind x 4 pairs x 8 x (1 + 2) = 96; x 1.5 (the report factor)
    cls = _chain(3)
    mech = randomized_response(F(3, 4), [cls.states] * 3)
    want = REPORT_FACTOR * (FORWARD_COST * 80 * 4 + PUSH_COST * 224 + PAIR_COST * 96)
    assert steps_per_box(cls, mech, "x2", ["x1"], ["apkdp"]) == int(want)


def test_a_long_chain_is_counted_at_once_and_capped():
    # 2^(10^5) report tuples: the count stops at the cap (it is not run or summed out)
    names = [f"x{j + 1}" for j in range(100_000)]
    got = report_pass(names, "x2", ["x1"], report_emission(F(3, 4), 2))
    assert got.steps == REPORT_CAP and got.per_law == REPORT_CAP


def test_the_long_chain_factor_by_hand(monkeypatch):
    # hand: T = 26 records: (1 + 26/130) = 6/5 for the laws' rationals, and 26/13 = 2 more
    # for a geometric count (its kernel's sums): 12/5 of the estimate without them;
    # a count gets only the 6/5
    cls = _chain(26)
    args = ("x13", ["x1"], ["apkdp", "cdp"])
    with_size = [steps_per_box(cls, m, *args) for m in (GeometricSum(alpha=F(1, 2)), CountSum())]
    monkeypatch.setattr(fs, "SIZE_LENGTH", 10**30)
    monkeypatch.setattr(fs, "GEOMETRIC_LENGTH", 10**30)
    bare = [steps_per_box(cls, m, *args) for m in (GeometricSum(alpha=F(1, 2)), CountSum())]
    assert with_size[0] == pytest.approx(bare[0] * 12 / 5, abs=3)
    assert with_size[1] == pytest.approx(bare[1] * 6 / 5, abs=2)

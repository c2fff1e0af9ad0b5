"""The histogram engine's work estimate against measured CPU times (in the project's unit,
about 1e6 steps a CPU second): within 2x either way."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pdpsym.app.budget import DEFAULT_MAX_WORK
from pdpsym.loss.histogram import histogram_work
from pdpsym.models.markov import MarkovChain


def _chain(k: int, T: int, uniform: bool = True) -> MarkovChain:
    # stay 7/10; move uniformly (every relabelling a symmetry) or, unevenly, to the state
    # d steps ahead with weight proportional to d (no relabelling, not reversible)
    tot = sum(range(1, k))
    rows = [
        [
            Fraction(7, 10)
            if i == j
            else Fraction(3, 10) / (k - 1)
            if uniform
            else Fraction(3, 10) * Fraction((j - i) % k, tot)
            for j in range(k)
        ]
        for i in range(k)
    ]
    return MarkovChain.from_json_object(
        {
            "kind": "markov-chain",
            "length": T,
            "states": [chr(ord("a") + j) for j in range(k)],
            "initial": "stationary",
            "transition": [[str(p) for p in row] for row in rows],
        }
    )


# no symmetry at all: no relabelling, no reversal (rows of small primes' fractions; the
# 3-state chain starts off its stationary law, the 4-state one has a zero)
RANDOM3 = (
    ["1/3", "1/2", "1/6"],
    [["3/5", "3/10", "1/10"], ["1/7", "5/7", "1/7"], ["2/9", "1/9", "2/3"]],
)
RANDOM4 = (
    "stationary",
    [
        ["3/5", "1/5", "1/10", "1/10"],
        ["1/8", "1/2", "1/4", "1/8"],
        ["1/6", "1/6", "1/3", "1/3"],
        ["1/10", "0", "1/5", "7/10"],
    ],
)


# two-digit prime denominators, a different one per row (large integers in F and B)
PRIME3 = (
    ["1/3", "1/3", "1/3"],
    [["50/97", "30/97", "17/97"], ["11/89", "60/89", "18/89"], ["20/83", "13/83", "50/83"]],
)
PRIME4 = (
    "stationary",
    [
        ["50/97", "30/97", "10/97", "7/97"],
        ["11/89", "60/89", "9/89", "9/89"],
        ["20/83", "13/83", "40/83", "10/83"],
        ["1/79", "2/79", "3/79", "73/79"],
    ],
)


def _random_chain(k: int, T: int, prime: bool = False) -> MarkovChain:
    init, rows = (PRIME3 if k == 3 else PRIME4) if prime else (RANDOM3 if k == 3 else RANDOM4)
    return MarkovChain([chr(ord("a") + j) for j in range(k)], T, init, rows)


# measured: `pdpsym leakage --query histogram --all-targets --lam 4` CPU seconds (user +
# system of the whole process, benchmarks/bench_histogram.py; docs/benchmarks.md, "One
# forward-backward for every target"), times the project's 10^6 steps a CPU second
# (pdpsym.app.budget: a step is about a microsecond); load average 5 to 8 on the 2 cores
@pytest.mark.parametrize(
    ("k", "T", "uniform", "cpu_seconds"),
    [
        # moving uniformly: every relabelling, so the sorted outputs only (orbit lemma)
        (3, 200, True, 17.2),
        (4, 50, True, 3.88),
        (3, 100, True, 1.39),
        (4, 30, True, 0.60),
        (5, 20, True, 1.74),
        # moving unevenly: circulant, so the rotations relabel and the reversal is the
        # chain relabelled (since the relabellings of every automorphism)
        (3, 100, False, 1.64),
        (4, 30, False, 0.81),
        (5, 20, False, 2.99),
        (4, 50, False, 7.88),
        (3, 200, False, 24.35),
        # no symmetry (RANDOM3, RANDOM4): k - 1 float grids a target by the complement
        # (docs/benchmarks.md, "Fewer float grids ... (2026-11-28 (2))", load 2 to 4)
        (3, 100, None, 3.36),
        (4, 30, None, 1.44),
        (4, 50, None, 17.0),
        (3, 200, None, 57.3),
        # PRIME3, PRIME4
        (3, 100, "prime", 5.05),
        (4, 30, "prime", 2.09),
    ],
)
def test_estimate_within_2x_of_measured(k, T, uniform, cpu_seconds):
    measured = cpu_seconds * 1e6
    if uniform is None or uniform == "prime":
        model = _random_chain(k, T, prime=uniform == "prime")
    else:
        model = _chain(k, T, uniform)
    work = histogram_work(model, T, [])
    assert measured / 2 <= work <= 2 * measured


def test_default_limit_admits_the_runs_that_finish_within_a_minute():
    # 17 s, 3.9 s and (no symmetry) 57 s of CPU: within the default 1e8 steps
    # (about 100 s of CPU)
    assert histogram_work(_chain(3, 200), 200, []) <= DEFAULT_MAX_WORK
    assert histogram_work(_chain(4, 50), 50, []) <= DEFAULT_MAX_WORK
    assert histogram_work(_random_chain(3, 200), 200, []) <= DEFAULT_MAX_WORK
    # a run of minutes is still refused: 4 states of 100 records (by the same fit)
    assert histogram_work(_chain(4, 100), 100, []) > DEFAULT_MAX_WORK

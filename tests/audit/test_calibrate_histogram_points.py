"""The histogram's calibration on kept grid points (pdpsym.audit.calibrate_histogram) against
the plain bisection that screens the whole grid at every step, and against a brute force
written here (every sequence and every grid point, Fraction laws and mpmath logs)."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.audit import calibrate_histogram as ch
from pdpsym.audit import calibration
from pdpsym.audit.calibration import Goal, calibrate_goal
from pdpsym.models.markov import MarkovChain

#: a chain found by search (KEPT_POINTS = 1) whose first argmax point is not the final
#: one: the kept point answers "at most eps" wrongly once and the pass refutes it
TRAP_ROWS = [[F(1, 9), F(4, 9), F(4, 9)], [F(3, 5), F(2, 5), F(0)], [F(2, 5), F(2, 5), F(1, 5)]]
TRAP_INIT = [F(1, 6), F(2, 6), F(3, 6)]


def _chain(T: int, rows: list, init: object = "stationary") -> MarkovChain:
    k = len(rows)
    return MarkovChain([chr(ord("a") + j) for j in range(k)], T, init, rows)


def _calibrate(model: MarkovChain, eps: F, points: bool, known: tuple = ()) -> tuple:
    c = calibrate_goal(
        ch.HistogramScale(model, Goal(eps, known=known), points=points), baselines=False
    )
    return c.lo, c.hi, c.worst_target


def _sym(k: int, stay: F) -> list:
    return [[stay if i == j else (1 - stay) / (k - 1) for j in range(k)] for i in range(k)]


CASES = [
    (_chain(5, _sym(3, F(7, 10))), F(1), ()),
    (_chain(4, [[F(7, 10), F(1, 10), F(2, 10)], [F(2, 10), F(7, 10), F(1, 10)],
                [F(1, 10), F(2, 10), F(7, 10)]]), F(1), ()),
    (_chain(3, _sym(4, F(3, 5))), F(1, 2), ()),
    (_chain(5, TRAP_ROWS, TRAP_INIT), F(1), ("x2",)),
]  # fmt: skip


@pytest.mark.parametrize(("model", "eps", "known"), CASES)
def test_points_bracket_is_the_plain_bisection(model: MarkovChain, eps: F, known: tuple) -> None:
    # independent source: the plain bisection (every step a full certified grid screen)
    # makes the same sequence of decisions, so the very same bracket
    assert _calibrate(model, eps, True, known) == _calibrate(model, eps, False, known)


def test_trap_chain_needs_the_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    # the trap chain with one kept point: the kept point's answer is refuted once by the
    # all-targets pass and the bisection is redone; the bracket equals the plain one
    model = _chain(5, TRAP_ROWS, TRAP_INIT)
    monkeypatch.setattr(ch, "KEPT_POINTS", 1)
    learnt: list[F] = []
    learn = ch._Target.learn

    def spy(self: ch._Target, lam: F, eps: F) -> bool:
        out = learn(self, lam, eps)
        learnt.extend([lam] if out else [])
        return out

    monkeypatch.setattr(ch._Target, "learn", spy)
    plain = _calibrate(model, F(1), False)
    assert _calibrate(model, F(1), True) == plain
    assert learnt  # the first argmax was not the final one
    # without the pass (the bisection on the kept point alone, from group DP's safe
    # scale 2T/eps = 10) the upper end is wrong: the brute force puts PL above eps there
    tgt = ch._Target(model, plain[2], ())
    _, unverified = calibration._bisect(tgt, plain[2], (None, F(10)), F(10), F(1))
    assert unverified < plain[0]
    assert _brute_leakage(TRAP_ROWS, TRAP_INIT, 5, unverified, targets=[plain[2]]) > 1


def _brute_leakage(
    rows: list, init: list, T: int, lam: F, digits: int = 40, targets: list | None = None
) -> mpmath.mpf:
    """Eq. 2 of the histogram, max over targets: every sequence's Fraction probability,
    the count laws given x_i = a, and the log ratio at every grid point {0..T}^k (the
    sup over outputs is attained on the grid, hand proof in the module docstring of
    pdpsym.loss.histogram_grid)."""
    with mpmath.workdps(digits):
        return _brute(rows, init, T, lam, targets)


def _brute(rows: list, init: list, T: int, lam: F, targets: list | None) -> mpmath.mpf:
    k = len(rows)
    q = mpmath.exp(-1 / (mpmath.mpf(lam.numerator) / lam.denominator))
    best = mpmath.mpf("-inf")
    seqs = list(itertools.product(range(k), repeat=T))
    prob = {}
    for s in seqs:
        p = init[s[0]]
        for a, b in zip(s, s[1:]):
            p *= rows[a][b]
        prob[s] = p
    grid = list(itertools.product(range(T + 1), repeat=k))
    for i in range(T):
        if targets is not None and f"x{i + 1}" not in targets:
            continue
        laws = []
        for a in range(k):
            law: dict[tuple, F] = {}
            for s, p in prob.items():
                if s[i] == a and p:
                    n = tuple(s.count(j) for j in range(k))
                    law[n] = law.get(n, F(0)) + p
            if law:
                laws.append(law)
        for y in grid:
            g = []
            for law in laws:
                tot = sum(law.values())
                g.append(sum(mpmath.mpf(w.numerator) / w.denominator / (mpmath.mpf(tot.numerator) / tot.denominator)
                             * q ** sum(abs(y[j] - n[j]) for j in range(k)) for n, w in law.items()))  # fmt: skip
            best = max(best, mpmath.log(max(g) / min(g)))
    return best


@pytest.mark.parametrize(
    ("rows", "init", "T"),
    [(_sym(3, F(7, 10)), [F(1, 3)] * 3, 4), (TRAP_ROWS, TRAP_INIT, 4)],
)
def test_bracket_against_brute_force(rows: list, init: list, T: int) -> None:
    # independent source: the brute force above, at the bracket's two ends
    lo, hi, _ = _calibrate(_chain(T, rows, init), F(1), True)
    assert hi - lo <= hi / 10**12
    assert _brute_leakage(rows, init, T, lo) > 1
    assert _brute_leakage(rows, init, T, hi) <= 1


@st.composite
def _chains(draw: st.DrawFn) -> MarkovChain:
    """A 3-state chain of 3 to 5 records from small integer weights (rows sum to 1 by
    construction, each with a positive diagonal)."""
    T = draw(st.integers(3, 5))
    rows = []
    for i in range(3):
        w = [draw(st.integers(0, 5)) for _ in range(3)]
        w[i] += 1
        rows.append([F(x, sum(w)) for x in w])
    init = [F(x, 6) for x in (1, 2, 3)]
    return _chain(T, rows, init)


@settings(max_examples=10, deadline=None)
@given(_chains(), st.sampled_from([F(1), F(1, 2), F(2)]))
def test_points_equal_plain_property(model: MarkovChain, eps: F) -> None:
    # independent source: the plain bisection (a full certified screen every step)
    assert _calibrate(model, eps, True) == _calibrate(model, eps, False)

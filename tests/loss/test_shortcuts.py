"""Degenerate chains on the all-targets path: independent records (every target exactly
tied), alternating chains (count laws spanning thousands of decimal orders, ratios flat
near the ends), reversal symmetry, and the absolute truncation of the exact path.

Expected values come from hand derivations, from a brute force written here (Fractions
for the laws, mpmath for the logarithms) or from ``tests/oracles/eq2_leakage.py`` on the full joint
table, and from the general exact path (the closed form of Eq. 2), never from the fast
paths under test."""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.eq2_leakage import eq2_bruteforce

from pdpsym.core import poly
from pdpsym.loss import chain_all_targets, count_mixtures, shortcuts
from pdpsym.loss.count_leakage import leakage_max, structured_leakage
from pdpsym.models.markov import MarkovChain


def _mp(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def _eq2_by_sequences(m: MarkovChain, target: int, lam: Fraction) -> mpmath.mpf:
    """Eq. 2 of one target of a 0/1 chain (sum query), by listing every sequence
    (Fractions for the conditional count laws) and the breakpoint lemma: the sup of the
    log ratio of two Laplace mixtures is attained at a support point (mpmath, 40 digits)."""
    laws: dict[int, dict[int, Fraction]] = {0: {}, 1: {}}
    for seq in itertools.product(range(2), repeat=m.length):
        p = m.initial_law[seq[0]]
        for u in range(m.length - 1):
            p *= m.matrix(u)[seq[u]][seq[u + 1]]
        if p:
            laws[seq[target]][sum(seq)] = laws[seq[target]].get(sum(seq), Fraction(0)) + p
    with mpmath.workdps(40):
        q = mpmath.exp(-1 / _mp(lam))

        def mix(a: int, j: int) -> mpmath.mpf:
            n = sum(laws[a].values())
            return mpmath.fsum(_mp(v / n) * q ** abs(j - c) for c, v in laws[a].items())

        return max(abs(mpmath.log(mix(1, j) / mix(0, j))) for j in range(m.length + 1))


def test_independent_fair_bits_leak_exactly_one_over_lambda_at_every_target():
    """Stay 1/2: the records are independent fair bits, the count given x_t = 1 is the
    count given x_t = 0 shifted by 1, so Eq. 2 is exactly 1/lam at every target (hand
    derivation: the ratio of shifted Laplace mixtures is at most e^{1/lam}, attained past
    the support). The brute force over all sequences agrees at T = 6; at T = 1000 every
    enclosure is the point 1/lam and every target is in the max's ties."""
    lam = Fraction(3, 2)
    small = MarkovChain(["0", "1"], 6, "stationary", [["1/2", "1/2"], ["1/2", "1/2"]])
    for t in range(6):
        with mpmath.workdps(40):
            assert abs(_eq2_by_sequences(small, t, lam) - _mp(1 / lam)) < mpmath.mpf(10) ** -30
    big = MarkovChain(["0", "1"], 1000, "stationary", [["1/2", "1/2"], ["1/2", "1/2"]])
    res = structured_leakage(big, list(big.variables), (), lam, digits=15)
    assert all(r.value.lo == r.value.hi == 1 / lam for r in res)
    best = leakage_max(res)
    assert best.value.lo == best.value.hi == 1 / lam and len(best.ties) == 1000


def test_independent_records_value_is_the_rate_times_the_contribution_range():
    """Identical rows with three states 0, 2, 5 (hand derivation: the count given
    x_t = a is the rest shifted by a, so Eq. 2 is (5 - 0)/lam); a state of probability
    zero in the rows does not count (x_1's law is the initial one, with 5 possible)."""
    rows = [["1/4", "3/4", "0"]] * 3
    m = MarkovChain(["0", "2", "5"], 4, ["1/3", "1/3", "1/3"], rows)
    res = structured_leakage(m, list(m.variables), (), 2, digits=12, exact=False)
    assert res[0].value.lo == res[0].value.hi == Fraction(5, 2)  # initial: 0, 2, 5
    assert all(r.value.lo == r.value.hi == 1 for r in res[1:])  # rows: 0 or 2
    for r in res[:2]:  # the joint table's brute force (tests/oracles/eq2_leakage.py)
        ref = eq2_bruteforce(m.to_joint(), r.target, (), Fraction(2))
        with mpmath.workdps(40):
            assert abs(ref - _mp(r.value.lo)) < mpmath.mpf(10) ** -20


def test_the_exact_decisions_of_symmetry_and_independence():
    """Decided from the rationals (hand checks): a stationary symmetric chain is
    reversible; a non-stationary start, a non-reversible matrix, a weighted query that
    is not mirror-symmetric, or an asymmetric known record is not; identical rows are
    independent."""
    sym = [["1/100", "99/100"], ["99/100", "1/100"]]

    def chain(init, rows, table=None, fixed=None, T=6):
        m = MarkovChain(["0", "1"], T, init, rows)
        tab = table or m.contributions().table
        return chain_all_targets.CountChain(m.initial_law, m.matrices, tab, fixed or {})

    assert shortcuts.reversal_symmetric(chain("stationary", sym))
    assert not shortcuts.reversal_symmetric(chain(["1", "0"], sym))
    assert shortcuts.reversal_symmetric(chain("stationary", [["1/10", "9/10"], ["1/5", "4/5"]]))
    three = MarkovChain(
        ["0", "1", "2"], 4, "stationary", [["0", "1", "0"], ["0", "0", "1"], ["1", "0", "0"]]
    )
    cyc = chain_all_targets.CountChain(
        three.initial_law, three.matrices, three.contributions().table
    )
    assert not shortcuts.reversal_symmetric(cyc)  # a cycle is not reversible
    weighted = ((0, 2),) + ((0, 1),) * 5
    assert not shortcuts.reversal_symmetric(chain("stationary", sym, table=weighted))
    assert shortcuts.reversal_symmetric(chain("stationary", sym, fixed={1: 0, 4: 0}))
    assert not shortcuts.reversal_symmetric(chain("stationary", sym, fixed={1: 0}))
    assert shortcuts.independent_records(chain(["1/3", "2/3"], [["1/4", "3/4"]] * 2))
    assert not shortcuts.independent_records(chain("stationary", sym))


def test_mirrored_targets_of_a_symmetric_chain_get_equal_values():
    """On a stationary reversible chain x_t and x_{T+1-t} have the same conditional
    laws (the reversed sequence has the same law); the brute force over all sequences
    gives them equal values, and so does the engine, which computes one of each pair."""
    m = MarkovChain(["0", "1"], 7, "stationary", [["1/10", "9/10"], ["1/5", "4/5"]])
    res = {r.target: r.value for r in structured_leakage(m, list(m.variables), (), 1, digits=12)}
    for t in range(3):
        a, b = res[f"x{t + 1}"], res[f"x{7 - t}"]
        assert (a.lo, a.hi) == (b.lo, b.hi)
        with mpmath.workdps(40):
            ref = _eq2_by_sequences(m, t, Fraction(1))
            assert abs(ref - _eq2_by_sequences(m, 6 - t, Fraction(1))) < mpmath.mpf(10) ** -30
            assert _mp(a.lo) - mpmath.mpf(10) ** -25 <= ref <= _mp(a.hi) + mpmath.mpf(10) ** -25


def test_an_alternating_chain_agrees_with_the_brute_force():
    """Stay 1/100 at T = 10: the sup sits on a plateau near the ends or just inside them;
    every target's certified value contains the brute force over all sequences."""
    m = MarkovChain(["0", "1"], 10, "stationary", [["1/100", "99/100"], ["99/100", "1/100"]])
    for lam in (Fraction(1), Fraction(1, 3)):
        res = structured_leakage(m, list(m.variables), (), lam, digits=15, exact=False)
        for t, r in enumerate(res):
            with mpmath.workdps(40):
                ref = _eq2_by_sequences(m, t, lam)
                eps = mpmath.mpf(10) ** -25
                assert _mp(r.value.lo) - eps <= ref <= _mp(r.value.hi) + eps


def test_long_chains_match_the_per_target_path():
    """T = 200 alternating (count laws down to 1e-400 of their peak: float64 underflows)
    and T = 400 at lam = 1/4 (the mixtures at the far outputs fall below 2^-1100 of the
    largest: the tail lemma's tilted sums bound them): the
    all-targets path (screen with underflow bounds, tail lemma, mirror pairs) prints the
    same digits as the per-target exact path, for a stationary start and for a fixed
    start with a known record (x1 is then certain: no compatible pair)."""
    alt = [["1/100", "99/100"], ["99/100", "1/100"]]
    cases = (
        (200, "stationary", alt, (), Fraction(1)),
        (200, ["1", "0"], alt, ("x100",), Fraction(1)),
        (400, "stationary", alt, (), Fraction(1, 4)),
    )
    for T, init, rows, known, lam in cases:
        m = MarkovChain(["0", "1"], T, init, rows)
        names = [v for v in m.variables if v not in known]
        fast = structured_leakage(m, names, known, lam, digits=15, exact=False)
        for name in ("x1", "x2", "x37", "x99", f"x{T}"):
            (ref,) = structured_leakage(m, [name], known, lam, digits=15, exact=False)
            got = fast[names.index(name)]
            assert got.status == ref.status
            if ref.value is None:
                assert name == "x1" and init != "stationary"
                continue
            assert got.value.as_json(15)["decimal"] == ref.value.as_json(15)["decimal"]
            assert got.value.lo <= ref.value.hi and ref.value.lo <= got.value.hi


@st.composite
def small_chains(draw):
    k = draw(st.sampled_from([2, 3]))
    kind = draw(st.sampled_from(["stay", "rows", "reversible", "any"]))
    T = draw(st.integers(3, 6))
    if kind == "stay":
        stay = draw(st.sampled_from([Fraction(1, 2), Fraction(1, 100), Fraction(0), Fraction(1)]))
        leave = (1 - stay) / (k - 1)
        rows = [[stay if i == j else leave for j in range(k)] for i in range(k)]
    elif kind == "rows":
        w = [draw(st.integers(0, 4)) for _ in range(k)]
        if not any(w):
            w[0] = 1
        rows = [[Fraction(x, sum(w)) for x in w]] * k
    elif kind == "reversible":  # a weighted random walk on a symmetric graph
        sym = [[draw(st.integers(1, 5)) for _ in range(k)] for _ in range(k)]
        sym = [[sym[min(i, j)][max(i, j)] for j in range(k)] for i in range(k)]
        rows = [[Fraction(x, sum(r)) for x in r] for r in sym]
    else:
        rows = []
        for _ in range(k):
            w = [draw(st.integers(0, 5)) for _ in range(k)]
            if not any(w):
                w[0] = 1
            rows.append([Fraction(x, sum(w)) for x in w])
    init = [Fraction(draw(st.integers(0, 3))) for _ in range(k)]
    if not any(init):
        init[0] = Fraction(1)
    init = [x / sum(init) for x in init]
    states = draw(st.sampled_from([["0", "1", "3"], ["0", "1", "2"], ["-1", "0", "2"]]))[:k]
    return MarkovChain(states, T, [str(x) for x in init], [[str(x) for x in r] for r in rows])


def _fast_equals_exact(data) -> None:
    m = data.draw(small_chains())
    lam = data.draw(st.sampled_from([Fraction(1, 10), Fraction(1), Fraction(7)]))
    names = list(m.variables)
    known = tuple(data.draw(st.lists(st.sampled_from(names), max_size=1, unique=True)))
    targets = [v for v in names if v not in known]
    fast = structured_leakage(m, targets, known, lam, digits=12, exact=False)
    exact = structured_leakage(m, targets, known, lam, digits=12, exact=True)
    for f, e in zip(fast, exact, strict=True):
        assert f.status == e.status
        if e.value is None:
            continue
        assert e.value.exact is not None
        assert e.value.exact.compare_rational(f.value.lo) >= 0
        assert e.value.exact.compare_rational(f.value.hi) <= 0


@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_fast_paths_equal_the_general_exact_path(data):
    """Law: on small chains (stay 1/2, 1/100, 0 or 1, identical rows, reversible or
    arbitrary matrices, 2 or 3 states, any start, a known record or none) every
    target's all-targets enclosure (independent records, mirror pairs, screen and tail
    lemma, truncated exact path) contains the exact closed form of Eq. 2 from the general
    path, and the status agrees."""
    _fast_equals_exact(data)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_fast_paths_equal_the_general_exact_path_thoroughly(data):
    """The same law on 300 chains."""
    _fast_equals_exact(data)


def test_absolute_truncation_keeps_the_mixture_values_inside_the_balls():
    """count_mixtures' truncation: the truncated law's mixture balls, widened by the exact dropped mass,
    contain the mixture values of the full product (Fractions and mpmath, 60 digits);
    the factors' coefficients range over 200 decimal orders."""
    f = poly.from_coefficients([10**200, 3 * 10**150, 10**100, 7, 1])
    g = poly.from_coefficients([1, 10**120, 5 * 10**199])
    n, rate, prec = 6, Fraction(1, 2), 80
    cuts = [
        count_mixtures.truncation_shift(poly.total(h), poly.degree(h), n, rate, prec)
        for h in (f, g)
    ]
    assert sum(cuts) > 0
    tg = poly.product(
        [count_mixtures.floor_shift(f, cuts[0]), count_mixtures.floor_shift(g, cuts[1])]
    )
    dropped = sum(cuts)
    delta = poly.total(f) * poly.total(g) - poly.total(tg) * (1 << dropped)
    shift = poly.height_bits(tg)
    balls = count_mixtures.widen_up(
        count_mixtures.mixture_values(tg, n, rate, prec, shift), delta, shift + dropped, prec
    )
    j = poly.coefficients(poly.product([f, g]))
    with mpmath.workdps(60):
        q = mpmath.exp(-_mp(rate))
        for c, ball in enumerate(balls):
            true = mpmath.fsum(mpmath.mpf(v) * q ** abs(c - d) for d, v in enumerate(j))
            lo, hi = poly.endpoints(ball)
            scaled = true / mpmath.mpf(2) ** (shift + dropped)
            assert _mp(lo) <= scaled <= _mp(hi)
            assert (_mp(hi) - _mp(lo)) / scaled < mpmath.mpf(2) ** -60


def test_calibration_at_a_thousand_records_fits_the_default_limit():
    """The calibration's estimate (six all-target passes, as measured by
    benchmarks/bench_chain.py) admits T = 1000 under the default --max-work."""
    from pdpsym.app.budget import CALIBRATION_PASSES, DEFAULT_MAX_WORK
    from pdpsym.loss.count_leakage_work import leakage_work

    m = MarkovChain(["0", "1"], 1000, "stationary", [["9/10", "1/10"], ["1/10", "9/10"]])
    assert CALIBRATION_PASSES * leakage_work(m, 1000, ()) <= DEFAULT_MAX_WORK


def test_chain_estimates_admit_what_finishes_in_seconds():
    """Never refuse work that would finish: every target of a binary chain of 3,000
    records took 1.6 s of CPU and one target of 6,000 records 1.1 s (measured, recorded
    in docs/benchmarks.md); both were refused by the default --max-work when the
    estimate counted dynamic-programme cells (3 * 10^7 a second) as microsecond steps.
    Expected: both estimates under the default limit, and each above the measured CPU
    in microseconds divided by 3 (the project's 3x rule)."""
    from pdpsym.app.budget import DEFAULT_MAX_WORK
    from pdpsym.loss.count_leakage_work import leakage_work

    def chain(T: int) -> MarkovChain:
        return MarkovChain(["0", "1"], T, "stationary", [["9/10", "1/10"], ["1/10", "9/10"]])

    every = leakage_work(chain(3000), 3000, ())
    one = leakage_work(chain(6000), 1, ())
    assert every <= DEFAULT_MAX_WORK and one <= DEFAULT_MAX_WORK
    assert every >= 1.6e6 / 3 and one >= 1.1e6 / 3
    # every target of 10,000 records was killed at over 24 GB (measured): refused up front
    assert leakage_work(chain(10000), 10000, ()) > DEFAULT_MAX_WORK


def test_calibration_of_1e5_records_is_refused_naming_max_work(tmp_path, capsys):
    """T = 10^5: refused before any work, exit 2, one line naming --max-work."""
    import json

    from pdpsym.app.cli import main

    big = {"kind": "markov-chain", "length": 100000, "states": ["0", "1"]}
    big.update(initial="stationary", transition=[["9/10", "1/10"], ["1/10", "9/10"]])
    p = tmp_path / "m.json"
    p.write_text(json.dumps(big))
    code = main(["calibrate", str(p), "--eps", "1"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "--max-work" in err[0]


def test_a_tiny_lambda_on_a_long_chain_is_computed_not_an_internal_error():
    """lambda = 10^-6 (rate 10^6): the exact path's threshold e^lo is far above the float
    range (it raised OverflowError before). Hand bound: at output 0 the ratio of the two
    mixtures is e^rate times a ratio of law values of order (1/100)^60 at most, so the
    value is 10^6 up to a few hundred."""
    m = MarkovChain(["0", "1"], 60, "stationary", [["1/100", "99/100"], ["99/100", "1/100"]])
    (r,) = structured_leakage(m, ["x30"], (), Fraction(1, 10**6), digits=6, exact=False)
    assert abs(r.value.lo - 10**6) < 1000 and r.value.lo <= r.value.hi

"""Counting and thresholding over populations where every record has its own p (the
worst-target search of ``mechanisms.population``), against references written here: a Fraction brute force
over every outcome (n <= 12), a float64 divide and conquer over every target's
leave-one-out law, and the lemmas checked on every target by exact arithmetic; the
certified division of a window by records and the truncated product tree against exact
laws; the CLI's refusals of bad p-values files."""

from __future__ import annotations

import contextlib
import io
import itertools
import math
import random
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.app.cli import main
from pdpsym.core import count_law_balls as arbpoly
from pdpsym.core.balls import ball_endpoints
from pdpsym.core.certify import certify
from pdpsym.core.eps import Eps
from pdpsym.mechanisms import population
from pdpsym.mechanisms.counting import counting_delta
from pdpsym.mechanisms.thresholding import ppk_delta_heterogeneous
from pdpsym.models.count_deconvolve import divide, divided_window

# --- references written here ------------------------------------------------------------


def brute_laws(ps: list[F]) -> list[list[F]]:
    """Every target's peers' law, by enumerating all 2^n outcomes once: an outcome with
    D(i) = 0 has weight P(D(i) = 0) times its peers' weight."""
    n = len(ps)
    out = [[F(0)] * n for _ in range(n)]
    for bits in itertools.product((0, 1), repeat=n):
        w = F(1)
        for b, q in zip(bits, ps, strict=True):
            w *= q if b else 1 - q
        s = sum(bits)
        for i in range(n):
            if not bits[i]:
                out[i][s] += w / (1 - ps[i])
    return out


def brute_delta(law: list[F], c: F) -> F:
    """max over both directions of sum_o (P(o) - c Q(o))_+ (Definition 12, Lemma 1), with
    P, Q the laws of S + 1 and S over outputs 0..m+1."""
    at = lambda o: law[o] if 0 <= o < len(law) else F(0)  # noqa: E731
    outs = range(len(law) + 1)
    d10 = sum((max(F(0), at(o - 1) - c * at(o)) for o in outs), F(0))
    d01 = sum((max(F(0), at(o) - c * at(o - 1)) for o in outs), F(0))
    return max(d10, d01)


def float_dc_deltas(ps: list[float], eps: float) -> np.ndarray:
    """delta_i of every target in float64: leave-one-out laws by divide and conquer over a
    product tree (out(child) = out(node) * law(sibling)), both directions, no tilting
    (for populations whose deltas are well inside float64's range)."""
    c = math.exp(eps)
    n = len(ps)
    laws: dict[tuple[int, int], np.ndarray] = {}

    def build(a: int, b: int) -> np.ndarray:
        if b - a == 1:
            laws[(a, b)] = np.array([1 - ps[a], ps[a]])
        else:
            mid = (a + b) // 2
            laws[(a, b)] = np.convolve(build(a, mid), build(mid, b))
        return laws[(a, b)]

    build(0, n)
    out = np.zeros(n)

    def down(a: int, b: int, outside: np.ndarray) -> None:
        if b - a == 1:
            f = np.concatenate(([0.0], outside, [0.0]))
            d10 = np.clip(f[:-1] - c * f[1:], 0, None).sum()
            d01 = np.clip(f[1:] - c * f[:-1], 0, None).sum()
            out[a] = max(d10, d01)
            return
        mid = (a + b) // 2
        down(a, mid, np.convolve(outside, laws[(mid, b)]))
        down(mid, b, np.convolve(outside, laws[(a, mid)]))

    down(0, n, np.array([1.0]))
    return out


distinct_ps = st.lists(
    st.integers(1, 96).map(lambda k: F(k, 97)), min_size=9, max_size=10, unique=True
)


@settings(max_examples=8)
@given(ps=distinct_ps, w=st.sampled_from([F(3, 2), F(2), F(11, 10)]), extra=st.integers(0, 1))
def test_search_equals_fraction_brute_force(ps: list[F], w: F, extra: int) -> None:
    # e^eps = w rational: the brute force is exact Fractions over all 2^(n-1) outcomes of
    # every target's peers (independent of the search and of the engine's laws)
    ps = ps + ps[:extra]  # a few repeated values too
    want = max(brute_delta(law, w) for law in brute_laws(ps))
    got = counting_delta(ps, Eps.log(w))
    assert got.value == want
    assert brute_delta(brute_laws(ps)[got.target], w) == want  # the named target attains it


@settings(max_examples=10)
@given(ps=distinct_ps)
def test_search_equals_brute_force_at_irrational_e_eps(ps: list[F]) -> None:
    # eps = 1/3: e^eps irrational. The brute force's positive parts are decided with a
    # 60-digit rational bracket of e^(1/3) (below/above by its Taylor series' remainder)
    e_lo = sum((F(1, 3**k * math.factorial(k)) for k in range(40)), F(0))
    e_hi = e_lo + F(1, 10**40)
    laws = brute_laws(ps)
    lo = max(brute_delta(law, e_hi) for law in laws)
    hi = max(brute_delta(law, e_lo) for law in laws)
    got = ball_endpoints_of(counting_delta(ps, Eps.of(F(1, 3))).value)
    assert lo - F(1, 10**30) <= got[0] and got[1] <= hi + F(1, 10**30)


def ball_endpoints_of(value: object) -> tuple[F, F]:
    c = certify(value, 35)  # type: ignore[arg-type]
    return F(c.enclosure[0]), F(c.enclosure[1])


def test_search_equals_float_divide_and_conquer() -> None:
    # 300 records, each with its own p in [1/20, 19/20], eps = 1/2 (deltas near 0.03):
    # the certified worst delta against the float64 leave-one-out product tree above
    rng = random.Random(7)
    ps = [F(rng.randint(50, 950), 1000) for _ in range(300)]
    want = float_dc_deltas([float(p) for p in ps], 0.5)
    got = counting_delta(ps, Eps.of(F(1, 2)))
    value = float(certify(got.value, 20).decimal)
    assert value == pytest.approx(want.max(), rel=1e-9)
    assert want[got.target] == pytest.approx(want.max(), rel=1e-9)


def test_large_population_equals_float_divide_and_conquer() -> None:
    # 480 records (past the exact limit: balls of one tilted window divided by records)
    # over 12 values spread across (0, 1): the targets' deltas differ by more than the
    # floats' error, so the float64 product tree above names the worst value
    vals = [F(k, 26) for k in range(1, 25, 2)]
    ps = [vals[(7 * j) % 12] for j in range(480)]
    want = float_dc_deltas([float(p) for p in ps], 1.0)
    by_value = {v: max(want[j] for j in range(480) if ps[j] == v) for v in vals}
    best = sorted(by_value.values())
    assert (best[-1] - best[-2]) / best[-1] > 1e-8  # a strict, float-visible winner
    got = counting_delta(ps, Eps.of(F(1)))
    value = float(certify(got.value, 20).decimal)
    assert value == pytest.approx(best[-1], rel=1e-10)
    assert by_value[ps[got.target]] == best[-1]


@settings(max_examples=10)
@given(ps=distinct_ps, w=st.sampled_from([F(3, 2), F(2)]))
def test_lemmas_on_every_target(ps: list[F], w: F) -> None:
    # Lemma A: every target's threshold is t(F) - 1 or t(F); Lemma C: over the sorted
    # values, L_t rises then falls, so its maximum is where the search says (exact laws
    # by enumeration, e^eps = w rational)
    whole = _exact_law(ps)  # the law of the whole population
    t_f = next(o for o in range(len(whole) + 1) if _at(whole, o - 1) > w * _at(whole, o))
    vals = sorted(ps)
    laws = dict(zip(ps, brute_laws(ps), strict=True))
    for q in vals:
        f = laws[q]
        t = next(o for o in range(len(f) + 1) if _at(f, o - 1) > w * _at(f, o))
        assert t in (t_f - 1, t_f)
    for t in (t_f - 1, t_f):
        seq = [_tail(laws[q], t - 1) - w * _tail(laws[q], t) for q in vals]
        top = seq.index(max(seq))
        assert all(seq[k] < seq[k + 1] for k in range(top))
        assert all(seq[k] >= seq[k + 1] for k in range(top, len(seq) - 1))
    got, _ = population.candidate_values(ps, Eps.log(w))
    assert max(brute_delta(laws[q], w) for q in got) == max(
        brute_delta(f, w) for f in laws.values()
    )


def _at(law: list[F], s: int) -> F:
    return law[s] if 0 <= s < len(law) else F(0)


def _tail(law: list[F], s: int) -> F:
    return sum(law[max(s, 0) :], F(0))


# --- the certified windows ---------------------------------------------------------------


def _exact_law(ps: list[F]) -> list[F]:
    law = [F(1)]
    for q in ps:
        nxt = [F(0)] * (len(law) + 1)
        for s, x in enumerate(law):
            nxt[s] += x * (1 - q)
            nxt[s + 1] += x * q
        law = nxt
    return law


def test_tree_window_and_division_enclose_exact_laws() -> None:
    # 120 distinct p (past MANY_BLOCKS: the truncated tree) at 64 bits: every count's
    # enclosure holds the exact law; divided by two records (one below 1/2, one above,
    # so both directions of the division run) it holds the exact law of the others
    rng = random.Random(3)
    ps = sorted({F(rng.randint(1, 999), 1000) for _ in range(130)})[:120]
    w = arbpoly.poisson_binomial_window(dict.fromkeys(ps, 1), 64)
    exact = _exact_law(ps)
    for s in range(len(exact)):
        lo, hi = ball_endpoints(w.mass(s, s))
        assert lo <= exact[s] <= hi
    a, b = ps[10], ps[100]
    rest = _exact_law([q for q in ps if q not in (a, b)])
    dv = divide(w, [a, b])
    for s in range(len(rest)):
        lo, hi = ball_endpoints(dv.at(s))
        assert lo <= rest[s] <= hi
    dw = divided_window(w, [a, b])
    for lo_s, hi_s in ((0, 30), (40, 60), (55, 55), (70, 118)):
        lo, hi = ball_endpoints(dw.mass(lo_s, hi_s))
        assert lo <= sum(rest[lo_s : hi_s + 1], F(0)) <= hi


# --- the command line --------------------------------------------------------------------


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("1/10\n1/5\n3/2\n", "--p-values line 3"),  # p outside [0, 1]
        ("1/10\n0.2\n\nabc\n", "--p-values line 4"),  # a non-number (blank lines count)
        ("1/10\n1\n", "--p-values line 2"),  # p = 1: not strictly inside (0, 1)
        ("# only a comment\n\n", "no probabilities"),  # empty of numbers
        ("", "no probabilities"),  # an empty file
    ],
)
def test_cli_refuses_bad_p_values_naming_the_line(tmp_path: Path, text: str, needle: str) -> None:
    f = tmp_path / "p.txt"
    f.write_text(text)
    code, out, err = _run(["counting", "--p-values", str(f), "--eps", "1/10"])
    assert code == 2 and out == ""
    assert needle in err and len(err.strip().splitlines()) == 1


def test_cli_many_distinct_within_the_default_limit(tmp_path: Path) -> None:
    # 2000 records with their own p: searched, not refused by the default --max-work; the
    # value equals the float64 divide and conquer above
    rng = random.Random(5)
    ps = [F(rng.randint(100, 900), 1000) for _ in range(2000)]
    f = tmp_path / "p.txt"
    f.write_text("".join(f"{p.numerator}/{p.denominator}\n" for p in ps))
    code, out, err = _run(["counting", "--p-values", str(f), "--eps", "1/2"])
    assert code == 0, err
    shown = float(out.split("=")[1].split()[0])
    want = float_dc_deltas([float(p) for p in ps], 0.5).max()
    assert shown == pytest.approx(want, rel=1e-12)


# --- thresholding (Definition 15) with no known records -----------------------------------


def brute_threshold_delta(law: list[F], T: int, c: F) -> F:
    """max over both directions of sum_o (P(o) - c Q(o))_+ over the outputs of M_T: ⊥ (the
    count at most T) and each count k > T; the count is S + a given D(i) = a."""
    n = len(law)  # the target and its n - 1 peers: counts 0..n

    def out_law(a: int) -> list[F]:
        k_law = [F(0)] * (n + 1)
        for s, x in enumerate(law):
            k_law[s + a] += x
        return [sum(k_law[: T + 1], F(0)), *k_law[T + 1 :]]

    one, zero = out_law(1), out_law(0)
    d10 = sum((max(F(0), x - c * y) for x, y in zip(one, zero, strict=True)), F(0))
    d01 = sum((max(F(0), y - c * x) for x, y in zip(one, zero, strict=True)), F(0))
    return max(d10, d01)


@settings(max_examples=8)
@given(ps=distinct_ps, w=st.sampled_from([F(3, 2), F(2), F(11, 10)]))
def test_threshold_search_equals_fraction_brute_force(ps: list[F], w: F) -> None:
    # M_T at every T (0 .. n-1), e^eps = w rational: exact brute force over all outcomes
    laws = brute_laws(ps)
    for T in range(len(ps)):
        want = max(brute_threshold_delta(law, T, w) for law in laws)
        v, target, _ = ppk_delta_heterogeneous(ps, T, 0, Eps.log(w))
        assert v == want
        assert brute_threshold_delta(laws[target], T, w) == want


def test_threshold_search_equals_float_divide_and_conquer() -> None:
    # 480 records over 12 values (past the exact limit), eps = 1, T below, at and above
    # the crossing: the certified delta against a float64 leave-one-out product tree
    vals = [F(k, 26) for k in range(1, 25, 2)]
    ps = [vals[(7 * j) % 12] for j in range(480)]
    fl = [float(p) for p in ps]
    for T in (100, 240, 300):
        want = float_dc_threshold(fl, T, 1.0)
        v, target, _ = ppk_delta_heterogeneous(ps, T, 0, Eps.of(F(1)))
        assert float(certify(v, 20).decimal) == pytest.approx(want.max(), rel=1e-10)
        assert want[target] == pytest.approx(want.max(), rel=1e-12)


def float_dc_threshold(ps: list[float], T: int, eps: float) -> np.ndarray:
    """delta_i of M_T for every target in float64, by the product tree of
    :func:`float_dc_deltas` (the peers' law at each leaf)."""
    c = math.exp(eps)
    n = len(ps)
    out = np.zeros(n)
    laws: dict[tuple[int, int], np.ndarray] = {}

    def build(a: int, b: int) -> np.ndarray:
        if b - a == 1:
            laws[(a, b)] = np.array([1 - ps[a], ps[a]])
        else:
            mid = (a + b) // 2
            laws[(a, b)] = np.convolve(build(a, mid), build(mid, b))
        return laws[(a, b)]

    def down(a: int, b: int, outside: np.ndarray) -> None:
        if b - a == 1:
            one = np.concatenate(([0.0], outside))  # counts 0..n given D(i) = 1
            zero = np.concatenate((outside, [0.0]))
            p = np.concatenate(([one[: T + 1].sum()], one[T + 1 :]))
            q = np.concatenate(([zero[: T + 1].sum()], zero[T + 1 :]))
            out[a] = max(np.clip(p - c * q, 0, None).sum(), np.clip(q - c * p, 0, None).sum())
            return
        mid = (a + b) // 2
        down(a, mid, np.convolve(outside, laws[(mid, b)]))
        down(mid, b, np.convolve(outside, laws[(a, mid)]))

    build(0, n)
    down(0, n, np.array([1.0]))
    return out


def test_large_population_at_a_large_eps() -> None:
    # eps = 20: the crossing is past the top count (e^20 above every ratio of neighbouring
    # counts), so the search's thresholds fall outside the peers' support; 405 records
    # over 12 values in [3/10, 7/10] against the float64 product tree above
    vals = [F(30 + 4 * k, 100) for k in range(12)]
    ps = [vals[(5 * j) % 12] for j in range(405)]
    want = float_dc_deltas([float(p) for p in ps], 20.0)
    got = counting_delta(ps, Eps.of(F(20)))
    assert float(certify(got.value, 20).decimal) == pytest.approx(want.max(), rel=1e-9)

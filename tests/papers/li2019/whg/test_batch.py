"""The batch WHG (``pdpsym.papers.li2019.whg.batch``): its enclosures hold the true values.

Sources of the expected values:

* Eq. 2 and the chain rule are recomputed here by brute force from their definitions
  (Li et al. Sec. III Eq. 2; Sec. V Eq. 9-11 in the right-tail reading, Theorem 4 at
  layer 1), summing the joint table in mpmath at 50 digits: the conditional density of
  the noisy sum at r, for every known assignment and every r on a half-integer grid
  over [0, n] (a grid that holds every breakpoint), and every impact ``d_j`` from the
  conditional law of ``x_j``. No code of the library is used for these.
* ``certified_decimal`` is checked against ``pdpsym.core.decimals.decimal_string`` on
  exact binary floats (a Fraction-based rounding that shares no code with it).
* The command's batch output is compared with the exact per-node engine (closed forms,
  exp-polynomial decisions), which the other WHG tests check against the paper.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import binary_full_support_tables

from pdpsym.app.cli import main
from pdpsym.core.decimals import certified_decimal, decimal_string
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.joint import JointDistribution
from pdpsym.papers.li2019.edges import EdgeReading
from pdpsym.papers.li2019.whg.batch import ChainRefiner, batch_applies, batch_whg, eq2_ball


@pytest.fixture(autouse=True)
def _fifty_digits() -> Iterator[None]:
    """Every test of this module runs at 50 digits, restored afterwards."""
    with mpmath.workdps(50):
        yield


def random_table(n: int, seed: int, lo: int = 1, hi: int = 40) -> JointDistribution:
    rng = random.Random(seed)
    cells = list(itertools.product((0, 1), repeat=n))
    w = [rng.randint(lo, hi) for _ in cells]
    names = [f"x{k + 1}" for k in range(n)]
    return JointDistribution.from_rows(
        names, [[*c, Fraction(x, sum(w))] for c, x in zip(cells, w, strict=True)]
    )


def exact_float(x: object) -> mpmath.mpf:
    """An arb endpoint (a binary float) as an mpmath number, exactly."""
    man, exp = x.man_exp()  # type: ignore[attr-defined]
    return mpmath.ldexp(int(man), int(exp))


def joint(model: JointDistribution) -> dict[tuple[int, ...], mpmath.mpf]:
    return {
        tuple(int(v) for v in row): mpmath.mpf(p.numerator) / p.denominator
        for row, p in model.probs.items()
    }


def brute_eq2(P: dict, n: int, i: int, K: list[int], lam: mpmath.mpf) -> mpmath.mpf:
    best = mpmath.mpf(0)
    for c in itertools.product((0, 1), repeat=len(K)):
        dens = []
        for a in (0, 1):
            rows = [
                (x, p) for x, p in P.items() if x[i] == a and all(x[k] == v for k, v in zip(K, c))
            ]
            mass = sum(p for _, p in rows)
            dens.append(
                [
                    sum(p * mpmath.exp(-abs(sum(x) - r) / lam) for x, p in rows) / mass
                    for r in [mpmath.mpf(t) / 2 for t in range(2 * n + 1)]
                ]
            )
        for f0, f1 in zip(*dens):
            best = max(best, abs(mpmath.log(f1) - mpmath.log(f0)))
    return best


def brute_chain(P: dict, n: int, i: int, lam: mpmath.mpf) -> dict[frozenset, mpmath.mpf]:
    """Theorem 4 at layer 1, then Eq. 11 with W_ij of Eq. 9-10 (right tail, pair (1, 0))."""

    def impact(K: list[int], j: int, c: tuple[int, ...]) -> mpmath.mpf:
        mgf = []
        for a in (0, 1):
            rows = [
                (x, p) for x, p in P.items() if x[i] == a and all(x[k] == v for k, v in zip(K, c))
            ]
            mass = sum(p for _, p in rows)
            mgf.append(sum(p * mpmath.exp(x[j] / lam) for x, p in rows) / mass)
        return mpmath.log(mgf[1]) - mpmath.log(mgf[0])

    others = [v for v in range(n) if v != i]
    C: dict[frozenset, mpmath.mpf] = {frozenset(others): 1 / lam}
    for size in range(n - 2, -1, -1):
        for K in itertools.combinations(others, size):
            steps = []
            for j in others:
                if j in K:
                    continue
                W = [impact(list(K), j, c) for c in itertools.product((0, 1), repeat=size)]
                child = C[frozenset((*K, j))]
                steps.append(max(abs(child + max(W)), abs(child + min(W))))
            C[frozenset(K)] = min(steps)
    return C


@pytest.mark.parametrize(
    ("n", "seed", "lam"), [(3, 1, Fraction(1)), (4, 2, Fraction(1, 2)), (5, 3, Fraction(3))]
)
def test_enclosures_hold_the_brute_force_values(n: int, seed: int, lam: Fraction) -> None:
    model = random_table(n, seed)
    assert batch_applies(model, lam, LinearQuery.sum(model.variables))
    b = batch_whg(model, lam)
    P, L = joint(model), mpmath.mpf(lam.numerator) / lam.denominator
    refiner = ChainRefiner(b)
    for i in range(n):
        chain = brute_chain(P, n, i, L)
        others = [v for v in range(n) if v != i]
        for size in range(n):
            for K in itertools.combinations(others, size):
                mask = sum(1 << k for k in K)
                e = brute_eq2(P, n, i, list(K), L)
                assert b.eq2_lo[i, mask] <= e <= b.eq2_hi[i, mask], (i, K)
                assert b.eq2_hi[i, mask] - b.eq2_lo[i, mask] < 1e-13
                eb = eq2_ball(model.counts, lam, i, mask, 200)
                assert exact_float(eb.lower()) <= e <= exact_float(eb.upper()), (i, K)
                assert eb.rad() < 1e-40
                c = chain[frozenset(K)]
                assert b.chain_lo[i, mask] <= c <= b.chain_hi[i, mask], (i, K)
                ball = refiner.chain(i, mask, 200)
                assert exact_float(ball.lower()) <= c <= exact_float(ball.upper()), (i, K)
                assert ball.rad() < 1e-40


def test_certified_decimal_rounds_as_certify_does() -> None:
    rng = random.Random(4)
    for _ in range(3000):
        x = rng.uniform(1, 10) * 10.0 ** rng.randint(-9, 24) * rng.choice((1, -1))
        for digits in (1, 5, 12):
            q = Fraction(x)
            assert certified_decimal(x, x, digits) == {
                "decimal": decimal_string(q, digits),
                "enclosure": [
                    decimal_string(q, digits + 3, "down"),
                    decimal_string(q, digits + 3, "up"),
                ],
            }


def test_certified_decimal_refuses_what_the_enclosure_does_not_fix() -> None:
    assert certified_decimal(1.2345, 1.2355, 4) is None  # 1.234 | 1.236
    assert certified_decimal(-1e-20, 1e-20, 3) is None  # holds 0
    assert certified_decimal(1.0, float("inf"), 3) is None


def test_batch_applies_only_to_binary_full_support_sum_queries() -> None:
    m = random_table(3, 1)
    q = LinearQuery.sum(m.variables)
    assert batch_applies(m, Fraction(1), q)
    assert not batch_applies(m, Fraction(1, 1000), q)  # n / lambda > 600
    assert not batch_applies(m, Fraction(1), LinearQuery({"x1": 2, "x2": 1, "x3": 1}))
    zero = JointDistribution.from_rows(["a", "b"], [[0, 0, "1/2"], [1, 1, "1/2"]])
    assert not batch_applies(zero, Fraction(1), LinearQuery.sum(["a", "b"]))
    three = JointDistribution.from_rows(["a", "b"], [[0, 0, "1/2"], [2, 1, "1/2"]])
    assert not batch_applies(three, Fraction(1), LinearQuery.sum(["a", "b"]))


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("n", "seed", "extra"),
    [
        (5, 7, []),
        (6, 8, ["--reading", "left"]),
        (6, 9, ["--reading", "both", "--bottom", "eq2", "--lam", "1/2"]),
    ],
)
def test_batch_command_agrees_with_the_exact_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], n: int, seed: int, extra: list[str]
) -> None:
    path = tmp_path / "m.json"
    path.write_text(json.dumps(random_table(n, seed).to_json_object()))
    batch = run_json(["whg", str(path), "--json", *extra], capsys)
    exact = run_json(["whg", str(path), "--json", "--exact-forms", *extra], capsys)
    assert "exact" not in batch["nodes"][0]["exact"]  # no closed forms by default
    assert "exact" in exact["nodes"][0]["exact"]
    for x, y in zip(batch["nodes"], exact["nodes"], strict=True):
        assert (x["target"], x["known"], x["layer"]) == (y["target"], y["known"], y["layer"])
        for f in ("exact", "chain"):
            assert x[f]["decimal"] == y[f]["decimal"], (x, f)
    for f in ("exact", "chain"):
        bx, ex = batch["max"][f], exact["max"][f]
        assert (bx["target"], bx["known"], bx["value"]["decimal"]) == (
            ex["target"],
            ex["known"],
            ex["value"]["decimal"],
        )


def test_ties_between_maxima_are_decided_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # an exchangeable table: every target has the same values, so the float enclosures of
    # the maxima overlap and the first maximum in node order must be found exactly
    names = ["x1", "x2", "x3", "x4"]
    rows = [[*c, Fraction(1 + 3 * sum(c), 1)] for c in itertools.product((0, 1), repeat=4)]
    total = sum(r[-1] for r in rows)
    model = JointDistribution.from_rows(names, [[*r[:-1], r[-1] / total] for r in rows])
    path = tmp_path / "m.json"
    path.write_text(json.dumps(model.to_json_object()))
    batch = run_json(["whg", str(path), "--json"], capsys)
    exact = run_json(["whg", str(path), "--json", "--exact-forms"], capsys)
    for f in ("exact", "chain"):
        assert (batch["max"][f]["target"], batch["max"][f]["known"]) == (
            exact["max"][f]["target"],
            exact["max"][f]["known"],
        )


def test_more_digits_than_the_batch_certifies_use_the_exact_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.json"
    path.write_text(json.dumps(random_table(4, 2).to_json_object()))
    out = run_json(["whg", str(path), "--json", "--digits", "25"], capsys)
    assert len(out["nodes"][-1]["exact"]["decimal"].replace(".", "").lstrip("0")) == 25
    assert "exact" in out["nodes"][-1]["exact"]


def test_both_readings_take_the_union_of_the_two_tails() -> None:
    m = random_table(4, 5)
    right, left, both = (batch_whg(m, Fraction(1), r) for r in EdgeReading)
    # W (both) is the union, so its max is the larger and its min the smaller extreme
    for i in range(4):
        for j in right.edges[i]:
            r, l_, b = right.edges[i][j], left.edges[i][j], both.edges[i][j]
            ok = ~np.isnan(r[0])
            assert (b[1][ok] >= r[0][ok]).all() and (b[1][ok] >= l_[0][ok]).all()
            assert (b[2][ok] <= r[3][ok]).all() and (b[2][ok] <= l_[3][ok]).all()


def _write_random(tmp_path: Path, n: int) -> Path:
    rng = random.Random(n)
    cells = list(itertools.product((0, 1), repeat=n))
    w = [rng.randint(1, 50) for _ in cells]
    total = sum(w)
    path = tmp_path / f"m{n}.json"
    rows = [[*map(str, c), f"{x}/{total}"] for c, x in zip(cells, w, strict=True)]
    path.write_text(json.dumps({"variables": [f"x{k + 1}" for k in range(n)], "rows": rows}))
    return path


def test_fourteen_tuples_ask_for_max_work_and_fifteen_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["whg", str(_write_random(tmp_path, 14)), "--json"]) == 2
    err = capsys.readouterr().err
    assert "--max-work" in err and "batch WHG" in err and err.count("\n") == 1
    assert main(["whg", str(_write_random(tmp_path, 15)), "--json"]) == 2
    err = capsys.readouterr().err
    assert "MODEL" in err and "n <= 14" in err and err.count("\n") == 1


@pytest.mark.slow
def test_thirteen_tuples_agree_with_the_float_baseline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the float64 baseline of benchmarks/ shares no code with the batch engine
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "benchmarks"))
    from float_eq2 import eq2_all_binary, max_error

    path = _write_random(tmp_path, 13)
    out = run_json(["whg", str(path), "--json"], capsys)
    model = JointDistribution.from_json_object(json.loads(path.read_text()))
    L = eq2_all_binary(model.counts / model.counts.sum())
    worst = max_error(out["nodes"], model.variables, L)
    assert len(out["nodes"]) == 13 * 2**12 and worst < 1e-10
    assert np.isfinite(L).all()


def test_targets_on_processes_and_on_dask_give_the_same_enclosures() -> None:
    m = random_table(6, 12)
    serial = batch_whg(m, Fraction(1, 2), EdgeReading.BOTH)
    for kw in ({"jobs": 2}, {"jobs": 2, "scheduler": "local"}):
        par = batch_whg(m, Fraction(1, 2), EdgeReading.BOTH, **kw)  # type: ignore[arg-type]
        for name in ("eq2_lo", "eq2_hi", "chain_lo", "chain_hi"):
            a, b = getattr(serial, name), getattr(par, name)
            assert ((a == b) | (np.isnan(a) & np.isnan(b))).all(), (kw, name)


def test_whg_scheduler_flag_gives_the_same_bytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.json"
    path.write_text(json.dumps(random_table(5, 13).to_json_object()))
    assert main(["whg", str(path), "--json"]) == 0
    serial = capsys.readouterr().out
    assert main(["whg", str(path), "--json", "--scheduler", "local", "--jobs", "2"]) == 0
    assert capsys.readouterr().out == serial


@settings(max_examples=25, deadline=None)
@given(
    model=binary_full_support_tables(),
    lam=st.sampled_from([Fraction(1, 3), Fraction(1), Fraction(5, 2)]),
    reading=st.sampled_from(list(EdgeReading)),
    bottom_eq2=st.booleans(),
)
def test_every_enclosure_holds_the_exact_engines_value(
    model: JointDistribution, lam: Fraction, reading: EdgeReading, bottom_eq2: bool
) -> None:
    # the exact engine (closed forms, exp-polynomial decisions) is a separate implementation
    from pdpsym.core.balls import ball_endpoints
    from pdpsym.core.certify import enclose
    from pdpsym.papers.li2019.whg import BottomRule, whg_from_distribution

    b = batch_whg(model, lam, reading, bottom_eq2)
    bottom = BottomRule.EQ2 if bottom_eq2 else BottomRule.THEOREM4
    g = whg_from_distribution(model, lam, reading=reading, bottom=bottom)
    names = model.variables
    for v in g.nodes.values():
        i = names.index(v.target)
        K = sum(1 << names.index(k) for k in v.known)
        pairs = ((b.eq2_lo, b.eq2_hi, v.exact.value), (b.chain_lo, b.chain_hi, v.chain_value))
        for lo, hi, exact in pairs:
            e_lo, e_hi = ball_endpoints(enclose(exact, 200))
            assert Fraction(float(lo[i, K])) <= e_hi and e_lo <= Fraction(float(hi[i, K]))

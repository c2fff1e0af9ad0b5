"""Sound screening at extreme scales: floats rank, they never decide.

At lambda = 1e-320 the float screen of Eq. 2 overflows (e^{1/lambda}); at 1e309 the
scale itself is not a float; values of 10^20 or 10^30 cancel in float differences. In
every case the answer must be the exact maximum, equal to the fully exact search and to
an independent brute force written here (mpmath at a precision chosen for the scale).
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from pdpsym.core.compare import screen_then_decide
from pdpsym.core.eps import Eps
from pdpsym.core.exp_polynomials import ExpPoly, LogRatio
from pdpsym.loss.table_leakage import table_leakage
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.joint import JointDistribution
from pdpsym.papers.li2019.whg import max_exact, whg_from_distribution

TABLE_A = [["0", "0", "3/10"], ["0", "1", "1/5"], ["1", "0", "1/5"], ["1", "1", "3/10"]]


def _table_a(v: int = 1) -> JointDistribution:
    """Li et al. Table (a) with the value 1 replaced by ``v``."""
    rows = [[str(int(a) * v), str(int(b) * v), p] for a, b, p in TABLE_A]
    return JointDistribution.from_rows(["x1", "x2"], rows)


def _hand_value(v: int, lam: Fraction) -> LogRatio:
    """Hand derivation for Table (a) scaled by v, A(x1, {}), sum query: at r = 0,
    p(0 | x1=0) = 3/5 + 2/5 e^{-v/lam}, p(0 | x1=v) = 2/5 e^{-v/lam} + 3/5 e^{-2v/lam};
    times e^{2v/lam}: ln (3 e^{2v/lam} + 2 e^{v/lam}) / (2 e^{v/lam} + 3). At r = v the
    ratio is 1, and the reversed pair at r = 2v mirrors r = 0, so this is the sup."""
    e = Fraction(v) / lam
    return LogRatio(ExpPoly({2 * e: 3, e: 2}), ExpPoly({e: 2, 0: 3}))


def _mp(q: Fraction) -> mpmath.mpf:
    return mpmath.mpf(q.numerator) / q.denominator


def _brute_force(model: JointDistribution, target: str, lam: Fraction, dps: int) -> mpmath.mpf:
    """Eq. 2 for A(target, {}) with the sum query, by mpmath: every ordered pair of target
    values, r over every support point, the midpoints between them and two far tails."""
    names = model.variables
    i = names.index(target)
    by_x: dict[Fraction, list[tuple[Fraction, Fraction]]] = {}
    for row, p in model.probs.items():
        by_x.setdefault(row[i], []).append((sum(row, Fraction(0)), p))
    fs = sorted({f for lst in by_x.values() for f, _ in lst})
    rs = fs + [(a + b) / 2 for a, b in zip(fs, fs[1:], strict=False)]
    rs += [fs[0] - 5, fs[-1] + 5]
    with mpmath.workdps(dps):
        lam_m = _mp(lam)

        def dens(lst: list[tuple[Fraction, Fraction]], r: Fraction) -> mpmath.mpf:
            tot = _mp(sum((p for _, p in lst), Fraction(0)))
            return mpmath.fsum(_mp(p) / tot * mpmath.exp(-abs(_mp(r - f)) / lam_m) for f, p in lst)

        best = None
        for a in by_x:
            for b in by_x:
                if a == b:
                    continue
                for r in rs:
                    v = mpmath.log(dens(by_x[a], r) / dens(by_x[b], r))
                    best = v if best is None or v > best else best
        return +best


@pytest.mark.parametrize(
    ("lam", "expected"),
    [
        # about 1/lam + ln(3/2): mpmath below, and the hand value's leading term
        ("1e-320", "1.00000000000000000000000000000e+320"),
        ("1e-400", "1.00000000000000000000000000000e+400"),
        ("1e-40", "1.00000000000000000000000000000e+40"),
        # about 1.2/lam (expand the hand value: ln (1 + 4/(5 lam)) - ln(1 - 2/(5 lam)))
        ("1e309", "1.20000000000000000000000000000e-309"),
    ],
)
def test_table_a_at_extreme_lambda(lam: str, expected: str) -> None:
    q = Fraction(lam)
    res = table_leakage(_table_a(), "x1", lam=q)
    assert res.ok
    assert res.require().exact_compare(_hand_value(1, q)) == 0
    cert = res.certified(30)
    assert cert.decimal == expected
    # independent: mpmath brute force, inside the certified enclosure
    bf = _brute_force(_table_a(), "x1", q, 500)
    with mpmath.workdps(500):
        assert mpmath.mpf(cert.enclosure[0]) <= bf <= mpmath.mpf(cert.enclosure[1])


@pytest.mark.parametrize("v", [10**10, 10**20, 10**30])
@pytest.mark.parametrize("lam", [Fraction(1), Fraction(1, 10**6), Fraction(10**25)])
def test_value_ranges_up_to_1e30(v: int, lam: Fraction) -> None:
    model = _table_a(v)
    screened = table_leakage(model, "x1", lam=lam)
    exact = table_leakage(model, "x1", lam=lam, method="exact")
    assert screened.require().exact_compare(exact.require()) == 0
    # the hand derivation (Table (a) scaled by v)
    assert screened.require().exact_compare(_hand_value(v, lam)) == 0


@pytest.mark.parametrize("offset", [0, 10**20, 10**30])
@pytest.mark.parametrize(
    "lam",
    [
        Fraction(1),
        # the brute force at 700 digits takes about 30 s a table: thorough, in -m slow
        pytest.param(Fraction(1, 10**320), marks=pytest.mark.slow),
        Fraction(10**309),
    ],
)
def test_random_tables_screened_equals_exact(offset: int, lam: Fraction) -> None:
    """3 x 3 tables with values near ``offset``: the screened search equals the fully exact
    one, and both lie in the mpmath brute force's value (a translation does not change
    Eq. 2 for the sum query, Li et al. Sec. III)."""
    rng = random.Random(20261122 + offset % 97)
    for _ in range(4):
        vals = [offset + rng.randint(0, 3) for _ in range(3)]
        vals = sorted(set(vals))
        rows = []
        for a in vals:
            for b in vals:
                rows.append([str(a), str(b), str(rng.randint(0, 4))])
        total = sum(int(r[2]) for r in rows)
        if total == 0:
            continue
        rows = [[a, b, f"{c}/{total}"] for a, b, c in rows]
        model = JointDistribution.from_rows(["x1", "x2"], [r for r in rows if r[2][0] != "0"])
        screened = table_leakage(model, "x1", lam=lam)
        exact = table_leakage(model, "x1", lam=lam, method="exact")
        assert screened.status == exact.status
        if not screened.ok:
            continue
        assert screened.require().exact_compare(exact.require()) == 0
        dps = 60 + 2 * max(len(str(lam.numerator)), len(str(lam.denominator)))
        bf = _brute_force(model, "x1", lam, dps)
        cert = screened.certified(20)
        with mpmath.workdps(dps):
            assert mpmath.mpf(cert.enclosure[0]) <= bf <= mpmath.mpf(cert.enclosure[1])


@pytest.mark.parametrize("lam", [Fraction(1, 10**40), Fraction(1, 10**320), Fraction(10**309)])
def test_whg_at_extreme_lambda(lam: Fraction) -> None:
    """The WHG of Table (a): its largest Eq. 2 node is the hand value above; the edge
    balls stay finite (no "ball is not finite")."""
    g = whg_from_distribution(_table_a(), lam, LinearQuery.sum(["x1", "x2"]))
    top = max_exact(list(g.nodes.values()))
    assert top is not None and top.exact is not None
    assert top.exact.require().exact_compare(_hand_value(1, lam)) == 0
    for node in g.nodes.values():
        assert node.chain_value is not None
        float(node.chain_value)  # a finite ball: enclosing it does not raise


def test_unrankable_candidates_are_decided_not_dropped() -> None:
    """A NaN or +inf float is a candidate the floats could not rank: it is decided
    exactly. Hand-made: the exact values are the integers 0..3, the floats hide the max."""
    exact = [0, 3, 1, 2]
    floats = np.array([0.0, np.nan, 1.0, np.inf])
    idx, best, decided = screen_then_decide(
        floats, lambda k: exact[k], lambda x, y: (x > y) - (x < y)
    )
    assert (idx, best) == (1, 3)
    assert decided == 3  # the float winner 1.0 and the two unrankable ones
    # -inf without a mask means "no candidate"; with a mask it is unrankable
    floats = np.array([0.0, -np.inf])
    assert screen_then_decide(floats, lambda k: exact[k], lambda x, y: x - y)[0] == 0
    valid = np.array([True, True])
    assert screen_then_decide(floats, lambda k: exact[k], lambda x, y: x - y, valid=valid)[0] == 1
    # an infinite scale decides every valid candidate
    _, best, decided = screen_then_decide(
        np.array([5.0, 0.0, 0.0, 0.0]),
        lambda k: exact[k],
        lambda x, y: x - y,
        scale=float("inf"),
    )
    assert (best, decided) == (3, 4)


def test_counting_at_eps_zero_beyond_the_exact_limit() -> None:
    """n = 500 (past the exact-rational limit, so balls are used): at eps = 0 both
    directions are the total variation of S + 1 vs S, S ~ Bin(499, 1/3), which is
    P[S = 166] (hand: the pmf ratio P[S=o-1]/P[S=o] = 2o/(499-o+1) crosses 1 at 166.67,
    so the positive summands of delta_{1,0} are o >= 167 and telescope to P[S <= 166] -
    P[S <= 165]). Before, the two equal directions could not be compared (Undecided)."""
    from math import comb

    from pdpsym.core.certify import certify
    from pdpsym.mechanisms.counting import counting_delta_homogeneous

    value = counting_delta_homogeneous(500, Fraction(1, 3), Eps.of(0))
    want = comb(499, 166) * Fraction(1, 3) ** 166 * Fraction(2, 3) ** 333
    lo, hi = certify(value, 25).enclosure
    assert Fraction(lo) <= want <= Fraction(hi)


def test_counting_at_a_huge_eps() -> None:
    """eps = 10^9999: e^eps is no arb ball at any precision, yet every ratio test is
    settled by exact bit-length bounds. delta is then P[outputs impossible under the
    other law] = P[S + 1 = 500] = (1/3)^499 for the direction (1, 0) against
    P[S = 0] = (2/3)^499 for (0, 1) (hand), so the max is (2/3)^499."""
    from pdpsym.core.certify import certify
    from pdpsym.mechanisms.counting import counting_delta_homogeneous

    value = counting_delta_homogeneous(500, Fraction(1, 3), Eps.of(10**9999))
    want = Fraction(2, 3) ** 499
    lo, hi = certify(value, 25).enclosure
    assert Fraction(lo) <= want <= Fraction(hi)
    assert Eps.of(10**9999).exp_sign_bound(Fraction(10**300)) == -1
    assert Eps.of(-(10**9999)).exp_sign_bound(Fraction(1, 10**300)) == 1


def test_work_estimates_before_allocation() -> None:
    """Issue 10's memory bomb: 30 binary variables with 2 rows. The estimate is known
    without building the 2^30-cell dense table (hand: 2^30 cells; Table (a): 4 cells,
    d_i = 2, n_K = 1, n_S = 2 sums of x2, n_R = 3 outputs {0, 1, 2}: 4 + 2*2*3 + 4*3)."""
    from pdpsym.loss.table_leakage import leakage_work

    names = [f"x{k}" for k in range(30)]
    big = JointDistribution.from_rows(names, [["0"] * 30 + ["1/2"], ["1"] * 30 + ["1/2"]])
    assert big.cells == 2**30
    assert leakage_work(big, "x0") >= 2**30
    assert "counts" not in vars(big)  # the dense table was not built
    assert leakage_work(_table_a(), "x1") == 4 + 12 + 12


def _xy_bruteforce(n: int, lam: Fraction, t: Fraction) -> Fraction:
    """P[X/Y >= t] for X, Y i.i.d. Bin(n-1, 2 lam), x/0 = oo: every pair (x, y) summed."""
    from math import comb

    m, q = n - 1, 2 * lam
    pm = [comb(m, s) * q**s * (1 - q) ** (m - s) for s in range(m + 1)]
    return sum(
        (
            pm[x] * pm[y]
            for x in range(m + 1)
            for y in range(m + 1)
            if y == 0 or Fraction(x, y) >= t
        ),
        Fraction(0),
    )


@pytest.mark.parametrize("lam", [Fraction(1, 10), Fraction(1, 10**300)])
def test_theorem3_xy_probability(lam: Fraction) -> None:
    from pdpsym.papers.dmkb2020.counting import XYReading, xy_probability

    for eps in (Eps.of(0), Eps.of(Fraction(1, 2)), Eps.log(3), Eps.of(2)):
        for reading in XYReading:
            t = eps.rational() if reading is XYReading.PRINTED else eps.exact_exp()
            got = xy_probability(9, lam, eps, reading)
            assert got == (None if t is None else _xy_bruteforce(9, lam, t))


@pytest.mark.parametrize(
    "lam",
    [Fraction(1, 10**40), Fraction(1, 10**320), Fraction(10**10), Fraction(10**309)],
)
def test_extreme_scale_screens_equal_the_exact_search(lam: Fraction) -> None:
    """At 1/(D lambda) >= 10^16 the screen ranks by the exact integer leading distance and
    the dominant coefficients; at 1/(D lambda) < 10^-9 by the first-order term (mean
    distances). Every adversary of a random 3-tuple table (values 0..2) must get the
    value of the fully exact search (every candidate decided exactly)."""
    from pdpsym.loss.table_leakage import leakage_all

    rng = random.Random(11)
    rows = []
    for a in range(3):
        for b in range(2):
            for c in range(3):
                w = rng.randint(0, 3)
                if w:
                    rows.append([str(a), str(b), str(c), str(w)])
    total = sum(int(r[3]) for r in rows)
    model = JointDistribution.from_rows(
        ["x1", "x2", "x3"], [[*r[:3], f"{r[3]}/{total}"] for r in rows]
    )
    screened = leakage_all(model, lam)
    exact = leakage_all(model, lam, method="exact")
    for s, e in zip(screened, exact, strict=True):
        assert s.status == e.status
        if s.ok:
            assert s.require().exact_compare(e.require()) == 0
            assert s.decided_exactly <= e.decided_exactly


def _longest_field(obj: object) -> int:
    if isinstance(obj, dict):
        return max((_longest_field(v) for v in obj.values()), default=0)
    if isinstance(obj, list):
        return max((_longest_field(v) for v in obj), default=0)
    return len(str(obj))


def test_threshold_at_n_1e5_prints_no_huge_integer(capsys) -> None:
    # the printed r = p(n-1)/(1-p)^T is a 4,652-digit number here: it must print as a
    # formula, and the int-to-string limit must not be hit
    from pdpsym.app.cli import main

    argv = ["threshold", "--n", "100000", "--p", "3/10", "--T", "30000", "--eps", "1/4"]
    assert main([*argv, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["theorem4"]["r_printed"]["exact"] == "299997/(10*(7/10)**30000)"
    assert _longest_field(out) < 200


@pytest.mark.slow
def test_counting_at_n_1e6_is_certified_and_short(capsys) -> None:
    from pdpsym.app.cli import main

    argv = ["counting", "--n", "1000000", "--p", "3/10", "--eps", "1/4", "--json"]
    assert main([*argv, "--max-work", "1e12"]) == 0
    assert _longest_field(json.loads(capsys.readouterr().out)) < 200


def test_a_leakage_past_the_precision_budget_is_undecided_never_a_false_zero(
    tmp_path, capsys
) -> None:
    # hand derivation (_hand_value): at lam = 10^5000 the leakage is ln((3e^{2x}+2e^x)/(2e^x+3))
    # with x = 10^-5000, about 1.2e-5000 > 0. Its digits need more than the 16384-bit budget,
    # so the answer is "undecided" (exit 2), never the exact 0 a numeric guess once gave
    from pdpsym.app.cli import main

    path = tmp_path / "a.json"
    rows = [[a, b, p] for a, b, p in TABLE_A]
    path.write_text(json.dumps({"variables": ["x1", "x2"], "rows": rows}))
    code = main(["leakage", str(path), "--target", "x1", "--lam", "1e5000", "--json"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "undecided" in err[0]

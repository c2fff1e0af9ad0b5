"""Eq. 2 over interval chains of more than two states: reading, bad input, the certified
branch and bound, the CLI.

Independent sources: a brute force written here (every sequence of the chain enumerated in
Fraction, the count laws given ``x_i = a`` and the known records formed exactly, and the
sup over outputs of the two Laplace mixtures' log-ratio taken at the union of the count
supports in mpmath: between two consecutive support points the ratio is a Moebius function
of ``e^{2y/lambda}``, hence monotone, and beyond the last it is constant -- the breakpoint
lemma, by hand); the stationary law by sympy's exact nullspace (a peer library); every bad
input with the field it must name.
"""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.app.cli import main
from pdpsym.core.errors import InputError
from pdpsym.loss.class_kstate_bounds import box_upper
from pdpsym.loss.class_search import class_leakage, interval_chain_leakage, k_chain_leakage
from pdpsym.loss.class_search_k import k_shape
from pdpsym.models.interval_chain_k import IntervalChainK, inside_point, row_vertices, tighten
from pdpsym.models.law_class import class_from_object

F = Fraction


def _stationary(p):
    """The stationary law by sympy's nullspace of ``P^T - I`` (unique here)."""
    k = len(p)
    m = sympy.Matrix([[sympy.Rational(p[s][t]) for s in range(k)] for t in range(k)])
    ns = (m - sympy.eye(k)).nullspace()
    assert len(ns) == 1
    v = ns[0] / sum(ns[0])
    return [F(int(sympy.fraction(x)[0]), int(sympy.fraction(x)[1])) for x in v]


def brute_eq2(p, init, values, T, target, known=(), lam=1):  # noqa: PLR0913
    """Eq. 2 of a k-state chain by enumeration (module docstring); None without a pair."""
    k = len(p)
    lam = F(lam)
    if init == "stationary":
        init = _stationary(p)
    groups: dict = {}
    for seq in itertools.product(range(k), repeat=T):
        pr = F(init[seq[0]])
        for a, b in zip(seq, seq[1:], strict=False):
            pr *= p[a][b]
        if pr == 0:
            continue
        c = sum(values[s] for s in seq)
        key = tuple(seq[j] for j in known)
        law = groups.setdefault(key, {}).setdefault(seq[target], {})
        law[c] = law.get(c, 0) + pr
    best = None
    with mpmath.workdps(40):
        for by_a in groups.values():
            ys = sorted({c for law in by_a.values() for c in law})
            for a, b in itertools.permutations(by_a, 2):

                def mix(law, y):
                    tot = sum(law.values())
                    return mpmath.fsum(
                        mpmath.mpf(q.numerator)
                        / q.denominator
                        / (mpmath.mpf(tot.numerator) / tot.denominator)
                        * mpmath.exp(
                            -abs(mpmath.mpf(y - c)) / (mpmath.mpf(lam.numerator) / lam.denominator)
                        )
                        for c, q in law.items()
                    )

                for y in ys:
                    v = mpmath.log(mix(by_a[a], y) / mix(by_a[b], y))
                    best = v if best is None or v > best else best
    return best


def _obj(rows, T, init="stationary", states=("0", "1", "2")):
    return {
        "kind": "interval-markov-chain",
        "length": T,
        "states": list(states),
        "initial": init,
        "transition": [[[str(a), str(b)] for a, b in r] for r in rows],
    }


def _random_rows(rng, k=3, width=0.1, boxed=(0, 2)):
    """k interval rows around random stochastic rows (positive entries): each contains its
    centre, so each admits a law; rows not in ``boxed`` are points."""
    rows = []
    for s in range(k):
        cuts = sorted(rng.sample(range(1, 20), k - 1))
        centre = [F(b - a, 20) for a, b in zip([0, *cuts], [*cuts, 20], strict=True)]
        w = F(width).limit_denominator(1000) if s in boxed else 0
        rows.append(
            [
                (
                    max(F(0), q - w * F(rng.randint(0, 4), 4)),
                    min(F(1), q + w * F(rng.randint(0, 4), 4)),
                )
                for q in centre
            ]
        )
    return rows


# --- reading and bad input ----------------------------------------------------------

GOOD = [[["1/2", "7/10"], ["1/10", "3/10"], ["1/10", "1/4"]],
        ["1/5", "3/5", "1/5"],
        [["1/10", "1/5"], ["1/5", "2/5"], ["1/2", "3/5"]]]  # fmt: skip


def test_a_three_state_interval_chain_is_read_with_its_free_coordinates():
    obj = {"kind": "interval-markov-chain", "length": 4, "states": ["0", "1", "2"],
           "initial": "stationary", "transition": GOOD}  # fmt: skip
    cls = class_from_object(obj, None)
    assert isinstance(cls, IntervalChainK)
    # row 0 tightened by hand: r_0 in [max(1/2, 1 - 3/10 - 1/4), min(7/10, 1 - 1/10 - 1/10)]
    assert cls.box()[:2] == ((F(1, 2), F(7, 10)), (F(1, 10), F(3, 10)))
    # a point row is a zero-width box
    assert cls.box()[2:4] == ((F(1, 5), F(1, 5)), (F(3, 5), F(3, 5)))


BAD = [
    ([[["7/10", "1/2"], ["1/10", "3/10"], ["1/10", "1/4"]], GOOD[1], GOOD[2]], "transition[0][0]"),
    ([GOOD[0], GOOD[1], [["1/10", "1/5"], ["1/5", "2/5"], ["3/5", "1/2"]]], "transition[2][2]"),
    ([GOOD[0], [["3/5", "7/10"], ["1/2", "3/5"], "0"], GOOD[2]], "transition[1]"),  # lo sum > 1
    ([GOOD[0], [["0", "1/5"], ["0", "1/5"], ["0", "1/5"]], GOOD[2]], "transition[1]"),  # hi < 1
    ([GOOD[0], ["1/2", "1/2"], GOOD[2]], "transition[1]"),  # wrong row length
    ([GOOD[0], GOOD[1]], "transition"),  # wrong number of rows
]


@pytest.mark.parametrize(("rows", "field"), BAD)
def test_bad_rows_exit_2_with_one_line_naming_the_field(tmp_path, capsys, rows, field):
    p = tmp_path / "c.json"
    obj = {"kind": "interval-markov-chain", "length": 3, "states": ["0", "1", "2"],
           "initial": "stationary", "transition": rows}  # fmt: skip
    p.write_text(json.dumps(obj))
    code = main(["leakage", str(p), "--target", "x1", "--lam", "1"])
    out = capsys.readouterr()
    assert code == 2
    assert out.out == ""
    lines = out.err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].split("error: ", 1)[1].startswith(f"{field}:")


def test_a_stationary_law_not_guaranteed_by_the_lower_ends_is_refused():
    # rows 0 and 2 may be absorbing (lower ends 0 off the diagonal): two closed classes
    rows = [
        [["1/2", "1"], ["0", "1/2"], "0"],
        ["1/3", "1/3", "1/3"],
        ["0", ["0", "1/2"], ["1/2", "1"]],
    ]
    with pytest.raises(InputError) as err:
        class_from_object({"kind": "interval-markov-chain", "length": 3,
                           "states": ["0", "1", "2"], "initial": "stationary",
                           "transition": rows}, None)  # fmt: skip
    assert err.value.field == "initial"


# --- the search against the brute force -----------------------------------------------


def test_a_box_shrunk_to_a_point_is_the_single_law():
    rows = [[(F(3, 5),) * 2, (F(1, 4),) * 2, (F(3, 20),) * 2], [(F(1, 5),) * 2, (F(3, 5),) * 2, (F(1, 5),) * 2],
            [(F(1, 10),) * 2, (F(1, 4),) * 2, (F(13, 20),) * 2]]  # fmt: skip
    cls = class_from_object(_obj(rows, 4), None)
    res = k_chain_leakage(cls, ["x2", "x3"], lam=1)
    assert res.tight
    p = [[a for a, _ in r] for r in rows]
    for t, i in zip(res.targets, (1, 2), strict=True):
        ref = brute_eq2(p, "stationary", [0, 1, 2], 4, i)  # brute force (module docstring)
        assert t.value.lo <= F(str(mpmath.nstr(ref, 30))) + F(1, 10**20)
        assert abs(float(ref) - float(t.value.lo)) < 1e-12
        assert t.value.hi - t.value.lo < F(1, 10**9)


@pytest.mark.parametrize("seed", [1, 2, pytest.param(3, marks=pytest.mark.slow)])
def test_the_class_sup_encloses_the_max_over_a_grid_of_single_laws(seed):
    """On 3-state chains of T = 3 with random boxes on two rows and a fixed initial law:
    every grid member's brute-force Eq. 2 is at most the class's upper end, and their max
    is within the search's tolerance (10^-6 relative) of its lower end or below it."""
    rng = random.Random(seed)
    rows = _random_rows(rng)
    init = [F(1, 2), F(1, 3), F(1, 6)]
    cls = class_from_object(_obj(rows, 3, [str(q) for q in init]), None)
    res = k_chain_leakage(cls, ["x2"], lam=1)
    assert res.tight
    enc = res.targets[0].value
    grid = []
    per = []
    for s in range(3):
        tight = cls.entries(cls.box())[s]
        pts = row_vertices(tight) + [inside_point(tight)]
        per.append(pts)
    for p in itertools.product(*per):
        grid.append(brute_eq2([list(r) for r in p], init, [0, 1, 2], 3, 1))
    top = max(grid)
    for v in grid:
        assert v <= mpmath.mpf(enc.hi.numerator) / enc.hi.denominator * (1 + mpmath.mpf(10) ** -30)
    lo = mpmath.mpf(enc.lo.numerator) / enc.lo.denominator
    assert top <= lo * (1 + mpmath.mpf(10) ** -6) + mpmath.mpf(10) ** -6
    # the lower end is the certified value of the worst law reported: its brute force
    worst = brute_eq2(cls.matrix_of(res.targets[0].law)[:3], init, [0, 1, 2], 3, 1)
    assert abs(worst - lo) < mpmath.mpf(10) ** -14


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), known=st.booleans())
def test_each_sub_box_bound_is_above_every_sampled_member_in_it(seed, known):
    rng = random.Random(seed)
    rows = _random_rows(rng, width=0.125)
    cls = class_from_object(_obj(rows, 3), None)
    kn = ("x3",) if known else ()
    shape = k_shape(cls, ["x1", "x2"], kn, F(1), None)
    box = []
    for a, b in cls.box():
        u, v = sorted(F(rng.randint(0, 8), 8) for _ in range(2))
        box.append((a + (b - a) * u, a + (b - a) * v))
    ent = cls.entries(tuple(box))
    if ent is None:
        return
    ub = box_upper(cls, shape, tuple(box))
    for _ in range(3):
        p = []
        for r in ent:
            vs = row_vertices(r)
            w = [F(rng.randint(0, 4)) for _ in vs]
            tot = sum(w) or F(1)
            p.append(
                [
                    sum((wi * v[j] for wi, v in zip(w, vs, strict=True)), F(0)) / tot
                    if sum(w)
                    else vs[0][j]
                    for j in range(3)
                ]
            )
        for name, i in (("x1", 0), ("x2", 1)):
            ref = brute_eq2(p, "stationary", [0, 1, 2], 3, i, (2,) if known else ())
            if ref is None:
                continue
            assert ub[i] >= float(ref) - 1e-12 * abs(float(ref)), (name, ub[i], ref)


def test_every_target_through_class_leakage_and_its_dispatch():
    rng = random.Random(7)
    cls = class_from_object(_obj(_random_rows(rng, width=0.025), 3), None)
    res = class_leakage(cls, list(cls.variables), lam=F(2), digits=3)
    assert res.tight
    for t in res.targets:
        assert t.value.lo <= t.value.hi


# --- the CLI ---------------------------------------------------------------------------


def test_cli_all_targets_json_and_refusals(tmp_path, capsys):
    p = tmp_path / "k.json"
    rows = [[(F(3, 5), F(13, 20)), (F(1, 5), F(1, 4)), (F(1, 10), F(3, 20))],
            [(F(1, 5),) * 2, (F(3, 5),) * 2, (F(1, 5),) * 2],
            [(F(1, 10),) * 2, (F(1, 4),) * 2, (F(13, 20),) * 2]]  # fmt: skip
    p.write_text(json.dumps(_obj(rows, 3)))
    assert main(["leakage", str(p), "--all-targets", "--lam", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["class"]["states"] == 3 and out["tight"]
    assert out["max"]["worst_law"]["kind"] == "markov-chain"
    # calibrate takes a k-state chain now (tests/app/test_class_calibrate_k.py); beyond
    # --max-work it is refused up front
    assert main(["calibrate", str(p), "--eps", "1", "--max-work", "1e5"]) == 2
    assert "--max-work" in capsys.readouterr().err
    assert main(["leakage", str(p), "--all-targets", "--lam", "1", "--max-work", "1e5"]) == 2
    assert "--max-work" in capsys.readouterr().err


def test_the_k_state_engine_on_a_binary_box_agrees_with_the_binary_engine():
    """The binary engine (class_search, unchanged, an independent bound: log-convexity and
    linearization) and this one on the same class: both tight, enclosures that overlap,
    and the same worst member's value (both evaluate the corners exactly)."""
    obj = {
        "kind": "interval-markov-chain",
        "length": 5,
        "states": ["0", "1"],
        "initial": "stationary",
        "transition": [[["4/5", "9/10"], ["1/10", "1/5"]], [["3/20", "3/10"], ["7/10", "17/20"]]],
    }
    binary = class_from_object(obj, None)
    k = IntervalChainK(("0", "1"), 5, tuple(tighten(r) for r in binary.rows), "stationary")
    targets = ["x1", "x2", "x3"]
    r1 = interval_chain_leakage(binary, targets, lam=1)
    r2 = k_chain_leakage(k, targets, lam=1)
    assert r1.tight and r2.tight
    for a, b in zip(r1.targets, r2.targets, strict=True):
        assert a.value.lo <= b.value.hi and b.value.lo <= a.value.hi
        assert a.value.lo == b.value.lo


def test_named_states_with_values_sum_their_values():
    """States named with "values" (0, 1, 3): the point class equals the brute force with
    those values, and the worst law is written back with the names and values."""
    rows = [["1/2", "1/4", "1/4"], ["1/5", "3/5", "1/5"], ["1/10", "1/4", "13/20"]]
    obj = {"kind": "interval-markov-chain", "length": 3, "states": ["a", "b", "c"],
           "values": ["0", "1", "3"], "initial": ["1/3", "1/3", "1/3"], "transition": rows}  # fmt: skip
    cls = class_from_object(obj, None)
    res = k_chain_leakage(cls, ["x2"], lam=2)
    p = [[F(x) for x in r] for r in rows]
    ref = brute_eq2(p, [F(1, 3)] * 3, [0, 1, 3], 3, 1, lam=2)  # brute force, values 0, 1, 3
    assert abs(float(ref) - float(res.targets[0].value.lo)) < 1e-12
    law = cls.law_json(res.targets[0].law)
    assert law["states"] == ["a", "b", "c"] and law["values"] == ["0", "1", "3"]

"""Classes of laws: finite classes, interval products, bad input, the CLI.

Independent sources: a finite class's sup is compared with the max of its members' single
runs (today's engine, run here one member at a time); an interval product's with a brute
force written here (Eq. 2 of independent records from the count laws, Fraction and
mpmath); every bad input with the field it must name.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import mpmath
import pytest

from pdpsym.app.cli import main
from pdpsym.audit.calibrate import calibrate
from pdpsym.audit.calibration import Goal
from pdpsym.audit.class_calibrate import class_calibrate
from pdpsym.core.errors import InputError
from pdpsym.loss.class_search import class_leakage
from pdpsym.loss.count_leakage import structured_leakage
from pdpsym.models.law_class import IntervalProduct, ModelClass, class_from_object
from pdpsym.models.markov import MarkovChain

F = Fraction


def _chain(x0, x1, T=5, init="stationary"):
    return MarkovChain(["0", "1"], T, init, [[1 - F(x0), F(x0)], [1 - F(x1), F(x1)]])


MEMBERS = [
    _chain("1/10", "9/10"),
    _chain("1/5", "7/10", init=["1/3", "2/3"]),
    _chain("1/2", "1/2"),
    _chain("3/10", "4/5"),
]


def test_finite_class_is_the_max_of_its_members_single_runs():
    cls = ModelClass(tuple(MEMBERS))
    names = list(cls.variables)
    res = class_leakage(cls, names, (), F(1, 2), digits=15)
    # source: each member by today's engine, one at a time (no class code involved)
    singles = [structured_leakage(m, names, (), F(1, 2), digits=15, exact=False) for m in MEMBERS]
    for i, t in enumerate(res.targets):
        lo = max(s[i].value.lo for s in singles)
        hi = max(s[i].value.hi for s in singles)
        assert (t.value.lo, t.value.hi) == (lo, hi)
        # the worst member reaches the max's lower end
        assert singles[t.law][i].value.hi >= lo
    assert res.tight


def test_finite_class_with_known_records_and_parallel_jobs_gives_the_same_max():
    cls = ModelClass(tuple(MEMBERS))
    serial = class_leakage(cls, ["x3"], ["x1", "x5"], 1, jobs=1)
    parallel = class_leakage(cls, ["x3"], ["x1", "x5"], 1, jobs=2)
    singles = [structured_leakage(m, ["x3"], ["x1", "x5"], 1, exact=False)[0] for m in MEMBERS]
    assert serial.targets[0].value.lo == max(s.value.lo for s in singles)
    assert serial == parallel


def test_finite_class_calibration_is_the_max_of_the_members_calibrations():
    cls = ModelClass(tuple(MEMBERS[:3]))
    got = class_calibrate(cls, Goal(F(1)), baselines=False)
    # source: today's calibrate per member; the class needs the largest scale
    each = [calibrate(m, F(1), baselines=False) for m in MEMBERS[:3]]
    assert got.lo == max(c.lo for c in each)
    assert got.hi == max(c.hi for c in each)
    assert each[got.law].hi >= got.lo


def _product_brute(values, laws, i, lam):
    """Eq. 2 of target i for independent records with the given laws (a brute force:
    the sum's law by enumerating every database, mpmath for the sup over outputs)."""
    n = len(values)
    best = None
    supp = [a for a, p in zip(values[i], laws[i], strict=True) if p > 0]
    for a, b in itertools.permutations(supp, 2):
        law = {}
        for sa, sb in ((a, "a"), (b, "b")):
            dist: dict[Fraction, Fraction] = {}
            others = [j for j in range(n) if j != i]
            for combo in itertools.product(*[range(len(values[j])) for j in others]):
                p = F(1)
                s = sa
                for j, k in zip(others, combo, strict=True):
                    p *= laws[j][k]
                    s += values[j][k]
                if p:
                    dist[s] = dist.get(s, F(0)) + p
            law[sb] = dist
        pts = sorted(set(law["a"]) | set(law["b"]))
        for r in pts:
            num = sum(
                mpmath.mpf(p.numerator) / p.denominator * mpmath.exp(-abs(r - s) / lam)
                for s, p in law["a"].items()
            )
            den = sum(
                mpmath.mpf(p.numerator) / p.denominator * mpmath.exp(-abs(r - s) / lam)
                for s, p in law["b"].items()
            )
            v = mpmath.log(num / den)
            best = v if best is None else max(best, v)
    return best


def test_interval_product_sup_is_the_widest_member_and_matches_a_grid_brute_force():
    obj = {
        "kind": "interval-product",
        "records": [
            {"values": ["0", "1", "3"], "probs": [["0", "1/2"], ["1/4", "1/2"], ["0", "1/4"]]},
            {"values": ["0", "2"], "probs": [["1/3", "2/3"], ["1/3", "2/3"]]},
            {"values": ["0", "1"], "probs": [["1/2", "1"], ["0", "1/2"]]},
        ],
    }
    cls = class_from_object(obj, lambda m, f: None)
    assert isinstance(cls, IntervalProduct)
    res = class_leakage(cls, ["x1", "x2", "x3"], (), 1, digits=20)
    # source: a brute force over a grid of members (corners and mid-points of each
    # record's free probability), max over the grid
    values = [[F(0), F(1), F(3)], [F(0), F(2)], [F(0), F(1)]]
    grids = [
        [(F(1, 2) - t, F(1, 2), t) for t in (F(0), F(1, 8), F(1, 4))] + [(F(0), F(3, 4), F(1, 4))],
        [(F(1, 3), F(2, 3)), (F(1, 2), F(1, 2)), (F(2, 3), F(1, 3))],
        [(F(1), F(0)), (F(3, 4), F(1, 4)), (F(1, 2), F(1, 2))],
    ]
    for i in range(3):
        grid_max = max(
            v
            for laws in itertools.product(*grids)
            if (v := _product_brute(values, [list(x) for x in laws], i, 1)) is not None
        )
        t = res.targets[i]
        assert t.value.lo - F(1, 10**15) <= F(str(grid_max)) <= t.value.hi + F(1, 10**15)


BAD = [
    (
        {
            "kind": "interval-markov-chain",
            "length": 4,
            "states": ["0", "1"],
            "initial": "stationary",
            "transition": [[["9/10", "4/5"], ["1/10", "1/5"]], [["1/10", "1/5"], ["4/5", "9/10"]]],
        },
        "transition[0][0]",
    ),
    (
        {
            "kind": "interval-markov-chain",
            "length": 4,
            "states": ["0", "1"],
            "initial": "stationary",
            "transition": [[["4/5", "9/10"], ["3/10", "1/2"]], [["1/10", "1/5"], ["4/5", "9/10"]]],
        },
        "transition[0]",
    ),
    (
        {
            "kind": "interval-markov-chain",
            "length": 4,
            "states": ["0", "1"],
            "initial": [["0", "1/10"], ["0", "1/2"]],
            "transition": [[["4/5", "9/10"], ["1/10", "1/5"]], [["1/10", "1/5"], ["4/5", "9/10"]]],
        },
        "initial",
    ),
    ({"kind": "model-class", "members": []}, "members"),
    (
        {
            "kind": "model-class",
            "members": [
                {
                    "kind": "markov-chain",
                    "length": 3,
                    "states": ["0", "1"],
                    "initial": "stationary",
                    "transition": [["9/10", "1/10"], ["1/10", "9/10"]],
                },
                {
                    "kind": "markov-chain",
                    "length": 4,
                    "states": ["0", "1"],
                    "initial": "stationary",
                    "transition": [["9/10", "1/10"], ["1/10", "9/10"]],
                },
            ],
        },
        "members[1]",
    ),
    (
        {
            "kind": "model-class",
            "members": [
                {
                    "kind": "markov-chain",
                    "length": 3,
                    "states": ["0", "1"],
                    "initial": "stationary",
                    "transition": [["9/10", "2/10"], ["1/10", "9/10"]],
                }
            ],
        },
        "members[0].transition[0]",
    ),
    ({"kind": "model-class", "members": ["missing.json"]}, "members[0]"),
    (
        {"kind": "model-class", "members": [{"variables": ["a"], "mean": ["0"], "cov": [["1"]]}]},
        "members[0].kind",
    ),
    ({"kind": "interval-product", "bernoulli": [["1/2", "1/4"]]}, "bernoulli[0]"),
    (
        {
            "kind": "interval-product",
            "records": [{"values": ["0", "1"], "probs": [["0", "1/4"], ["0", "1/2"]]}],
        },
        "records[0].probs",
    ),
]


@pytest.mark.parametrize(("obj", "field"), BAD)
@pytest.mark.parametrize("command", ["leakage", "calibrate"])
def test_bad_class_exits_2_with_one_line_naming_the_field(tmp_path, capsys, obj, field, command):
    p = tmp_path / "c.json"
    p.write_text(json.dumps(obj))
    argv = [command, str(p)] + (
        ["--target", "x1", "--lam", "1"] if command == "leakage" else ["--eps", "1"]
    )
    code = main(argv)
    out = capsys.readouterr()
    assert code == 2
    assert out.out == ""
    lines = out.err.strip().splitlines()
    assert len(lines) == 1
    assert (
        f" {field}:" in lines[0] or f"{field}:" in lines[0].split("error: ", 1)[1][: len(field) + 1]
    )


def test_an_empty_class_is_refused_by_the_library_too():
    with pytest.raises(InputError) as err:
        ModelClass(())
    assert err.value.field == "members"


def test_members_from_files_relative_to_the_class_file(tmp_path, capsys):
    sub = tmp_path / "d"
    sub.mkdir()
    chain = {
        "kind": "markov-chain",
        "length": 3,
        "states": ["0", "1"],
        "initial": "stationary",
        "transition": [["4/5", "1/5"], ["1/5", "4/5"]],
    }
    (sub / "m.json").write_text(json.dumps(chain))
    (sub / "c.json").write_text(json.dumps({"kind": "model-class", "members": ["m.json", chain]}))
    code = main(["leakage", str(sub / "c.json"), "--all-targets", "--lam", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    # source: the one law by today's engine (both members are the same chain)
    single = structured_leakage(
        MarkovChain(["0", "1"], 3, "stationary", [["4/5", "1/5"], ["1/5", "4/5"]]),
        ["x1", "x2", "x3"],
        (),
        1,
        digits=10,
        exact=False,
    )
    assert out["tight"] is True
    for t, s in zip(out["targets"], single, strict=True):
        lo, hi = (F(x) for x in t["value"]["enclosure"])
        assert lo <= s.value.hi and s.value.lo <= hi


def test_class_audit_is_the_max_of_the_members_audits(tmp_path, capsys):
    from pdpsym.app.commands.audit_models import read_mechanism
    from pdpsym.audit import audit
    from pdpsym.audit.class_audit import bounds_of, class_audit
    from pdpsym.mechanisms.base import SumMechanism  # noqa: F401 (the mechanism's type)

    cls = ModelClass(tuple(MEMBERS[:3]))
    mech = read_mechanism({"kind": "laplace", "lam": "2"}, MEMBERS[0])
    rows, _ = class_audit(cls, mech, "x3", ["x1"], [1], F(1, 10), ["dp", "apkdp"])
    # source: today's audit of each member alone; the class's figure is their max
    singles = [audit(m, mech, "x3", ["x1"], [1], F(1, 10), ["dp", "apkdp"]) for m in MEMBERS[:3]]
    for k, r in enumerate(rows):
        eps = [bounds_of(s.results[k].epsilon) for s in singles]
        assert r.epsilon.bounds == (max(e[0] for e in eps), max(e[1] for e in eps))
        d = [bounds_of(s.results[k].delta_at_epsilon[0][1]) for s in singles]
        assert r.delta_at_epsilon[0][1].bounds[0] == max(x[0] for x in d)
        j = r.epsilon.member
        assert eps[j][1] >= r.epsilon.bounds[0]


def test_audit_of_an_interval_product_runs(tmp_path, capsys):
    # hand derivation: three Bernoulli records, Laplace scale 1 on the sum; dp's ε is
    # Δ/λ = 1 for every law (a sup), apkdp's ε is Eq. 2 = 1 for independent records
    # (Li et al. Theorem 1: the count law given x_1 = a is the others' law shifted by a)
    p = tmp_path / "c.json"
    p.write_text(json.dumps({"kind": "interval-product", "bernoulli": [["1/4", "1/2"]] * 3}))
    m = tmp_path / "m.json"
    m.write_text(json.dumps({"kind": "laplace", "lam": "1"}))
    code = main(["audit", str(p), str(m), "--target", "x1", "--notions", "dp,apkdp", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    for n in ("dp", "apkdp"):
        assert out["notions"][n]["epsilon"]["status"] == "sup"
        assert out["notions"][n]["epsilon"]["decimal"].startswith("1.0000")


TABLES = [
    {"variables": ["x1", "x2", "x3"], "rows": [["0", "0", "0", "1/2"], ["1", "1", "1", "1/2"]]},
    {
        "variables": ["x1", "x2", "x3"],
        "rows": [
            ["0", "0", "0", "1/4"],
            ["0", "0", "1", "1/8"],
            ["0", "1", "1", "1/8"],
            ["1", "1", "1", "1/4"],
            ["1", "1", "0", "1/8"],
            ["1", "0", "0", "1/8"],
        ],
    },
]


def test_a_class_of_tables_is_the_max_of_the_members_exact_leakages(tmp_path, capsys):
    from pdpsym.loss.table_leakage import table_leakage
    from pdpsym.models.joint import JointDistribution

    p = tmp_path / "c.json"
    p.write_text(json.dumps({"kind": "model-class", "members": TABLES}))
    code = main(["leakage", str(p), "--target", "x1", "--lam", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    # source: by hand, the first member moves the sum by 3 when x1 flips (x1 = x2 = x3),
    # so Eq. 2 is 3/lam; and the second member's value by today's table engine is below
    assert out["value"]["exact"] == "3" and out["worst_law"] == {"member": 0}
    second = table_leakage(JointDistribution.from_json_object(TABLES[1]), "x1", [], 1)
    assert second.certified(20).enclosure[1] < "3"


def test_a_class_mixing_tables_and_chains_is_refused(tmp_path, capsys):
    chain = {
        "kind": "markov-chain",
        "length": 3,
        "states": ["0", "1"],
        "initial": "stationary",
        "transition": [["4/5", "1/5"], ["1/5", "4/5"]],
    }
    p = tmp_path / "c.json"
    p.write_text(json.dumps({"kind": "model-class", "members": [TABLES[0], chain]}))
    code = main(["leakage", str(p), "--target", "x1", "--lam", "1"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "members[1]" in err[0]


def _interval_file(tmp_path, T):
    obj = json.loads(open("docs/examples/estimated-chain.json").read())
    obj["length"] = T
    p = tmp_path / "c.json"
    p.write_text(json.dumps(obj))
    return p


def test_default_budget_covers_the_worked_example():
    # source: the docs' worked example (T = 100, every target) closes every box in 69
    # boxes and its calibration in 79 (measured, docs/benchmarks.md): the default limit
    # must allow them, never stop them early
    import argparse  # noqa: PLC0415 (only this test builds a Namespace)

    from pdpsym.app.commands.law_class import search_budget  # noqa: PLC0415 (the CLI layer)
    from pdpsym.app.readers import load_law_class  # noqa: PLC0415 (the CLI layer)

    cls = load_law_class("docs/examples/estimated-chain.json")
    assert search_budget(argparse.Namespace(max_work=None), cls, 100, []) >= 79


def test_an_interval_search_that_would_not_finish_is_refused_up_front(tmp_path, capsys):
    # hand derivation: at T = 5000 every target's box costs about T^2/200 ms = 125 s, so
    # 16 boxes pass any default limit of about a minute: exit 2 naming --max-work
    p = _interval_file(tmp_path, 5000)
    code = main(["leakage", str(p), "--all-targets", "--lam", "1"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "--max-work" in err[0]
    code = main(["leakage", str(p), "--target", "x3", "--lam", "1", "--max-work", "1e5"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "--max-work" in err[0]


def test_calibrate_of_a_class_of_tables_is_refused_naming_the_model(tmp_path, capsys):
    # hand derivation: a single table has no calibrate (nor --all-targets), so neither
    # has a class of tables: exit 2 naming MODEL, not an internal error
    p = tmp_path / "c.json"
    p.write_text(json.dumps({"kind": "model-class", "members": TABLES}))
    code = main(["calibrate", str(p), "--eps", "1"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "MODEL" in err[0]


@pytest.mark.slow
def test_finite_class_of_twenty_long_chains_is_the_max_of_its_members():
    # source: each member's single-law run (structured_leakage, today's engine), max by
    # hand here; the class of 20 chains of 1,000 records (the scale the issue asks for,
    # timed in docs/benchmarks.md) on 2 worker processes
    import random  # noqa: PLC0415 (this slow test only)

    from pdpsym.loss.class_search import finite_class_leakage  # noqa: PLC0415
    from pdpsym.loss.count_leakage import structured_leakage  # noqa: PLC0415
    from pdpsym.models.law_class import ModelClass  # noqa: PLC0415
    from pdpsym.models.markov import MarkovChain  # noqa: PLC0415

    rng = random.Random(20261128)
    members = []
    for _ in range(20):
        x0, x1 = Fraction(rng.randint(5, 25), 100), Fraction(rng.randint(75, 95), 100)
        members.append(MarkovChain(["0", "1"], 1000, "stationary", [[1 - x0, x0], [1 - x1, x1]]))
    cls = ModelClass(tuple(members))
    targets = ["x1", "x500", "x1000"]
    res = finite_class_leakage(cls, targets, (), 1, jobs=2)
    runs = [structured_leakage(m, targets, (), 1, digits=15, exact=False) for m in members]
    for i in range(len(targets)):
        singles = [r[i].value for r in runs]
        assert res.targets[i].value.lo == max(v.lo for v in singles)
        assert res.targets[i].value.hi == max(v.hi for v in singles)

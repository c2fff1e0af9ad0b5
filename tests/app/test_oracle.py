"""``pdpsym oracle export|check``: round trip, an independent float implementation passes,
perturbed answers fail with the right ids, bad input exits 2 and leaves no file behind."""

import json
import math
import os
import subprocess
import sys
from fractions import Fraction

import pytest

from pdpsym.app import oracle, writes
from pdpsym.app.cli import main
from pdpsym.app.oracle import export_vectors, family_models, load_vectors
from pdpsym.app.oracle_check import check_vectors


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exit:  # argparse usage errors
        code = exit.code
    out = capsys.readouterr()
    return code, out.out, out.err


def export(capsys, tmp_path, *argv, name="v.json"):
    path = tmp_path / name
    code, out, err = run(capsys, "oracle", "export", *argv, "--out", str(path))
    assert code == 0 and err == "", err
    return path


# --- an independent float64 implementation of Eq. 2 --------------------------------------
# Same idea as benchmarks/bench_leakage.py::float_leakage_all, written from the case JSON:
# group the rows by x_K, form each mixture density p(r | x_i, x_K) directly, and take the
# largest log ratio over compatible pairs at the support points of f (the breakpoints).


def float_eq2(case):
    model = case["model"]
    names = model["variables"]
    w = {v: 1.0 for v in names}
    if case["weights"] is not None:
        w.update({k: float(Fraction(v)) for k, v in case["weights"].items()})
    lam = float(Fraction(case["lam"]))
    i = names.index(case["target"])
    K = [names.index(k) for k in case["known"]]
    groups = {}
    for row in model["rows"]:
        xs = [float(Fraction(x)) for x in row[:-1]]
        p = float(Fraction(row[-1]))
        if p > 0:
            f = sum(w[v] * x for v, x in zip(names, xs))
            groups.setdefault(tuple(xs[k] for k in K), {}).setdefault(xs[i], []).append((f, p))
    best = None
    for by_target in groups.values():
        if len(by_target) < 2:
            continue
        points = sorted({f for lst in by_target.values() for f, _ in lst})
        dens = {
            x: [sum(p * math.exp(-abs(r - f) / lam) for f, p in lst) / sum(p for _, p in lst)
                for r in points]
            for x, lst in by_target.items()
        }  # fmt: skip
        for a in dens:
            for b in dens:
                if a != b:
                    v = max(math.log(pa / pb) for pa, pb in zip(dens[a], dens[b]))
                    best = v if best is None else max(best, v)
    return best


def answers_of(vectors, change=None):
    change = change or {}
    return {
        "answers": [
            {"id": c["id"], "value": change.get(c["id"], float_eq2(c))} for c in vectors["cases"]
        ]
    }


def write(tmp_path, name, obj):
    p = tmp_path / name
    p.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return p


# --- export ------------------------------------------------------------------------------


def test_export_round_trip(capsys, tmp_path):
    path = export(capsys, tmp_path)
    text = path.read_text()
    vectors = load_vectors(path)
    assert vectors["format"] == "pdpsym-oracle/1" and vectors["digits"] == 30
    # the file is exactly what the library function produces
    fresh = export_vectors(family_models("li2019-examples"), [Fraction(1)], 30)
    fresh["generator"] = {"family": "li2019-examples", "lam": ["1"]}
    assert json.loads(text) == fresh
    assert oracle.dumps_vectors(vectors) == text
    cases = {c["id"]: c for c in vectors["cases"]}
    assert len(cases) == 16  # 4 tables x 2 targets x 2 known sets
    a = cases["li2019:a:A(x1,{}):lam=1"]
    assert a["value"]["exact"] == "log((2*E + 3*exp(2))/(3 + 2*E))"
    assert a["value"]["decimal"] == "1.18537590325072968381161406996"
    assert a["weights"] is None and a["known"] == [] and a["lam"] == "1"
    assert set(a["model"]) == {"variables", "domains", "rows"}
    blocked = sorted(i for i, c in cases.items() if c["status"] == "no-compatible-pair")
    assert blocked == [
        "li2019:c:A(x1,{x2}):lam=1",
        "li2019:c:A(x2,{x1}):lam=1",
        "li2019:d:A(x1,{x2}):lam=1",
        "li2019:d:A(x2,{x1}):lam=1",
    ]
    assert all(cases[i]["value"] is None for i in blocked)


def test_export_families_and_lambdas(capsys, tmp_path):
    path = export(
        capsys, tmp_path, "--family", "random-binary", "--n", "3", "--count", "2",
        "--seed", "5", "--lam", "1", "--lam", "1/2", "--digits", "20",
    )  # fmt: skip
    v = load_vectors(path)
    assert len(v["cases"]) == 2 * 2 * 12 and v["digits"] == 20
    assert {c["lam"] for c in v["cases"]} == {"1", "1/2"}
    again = export(
        capsys, tmp_path, "--family", "random-binary", "--n", "3", "--count", "2",
        "--seed", "5", "--lam", "1", "--lam", "1/2", "--digits", "20", name="w.json",
    )  # fmt: skip
    assert again.read_text() == path.read_text()  # seeded: reproducible
    ex = load_vectors(export(capsys, tmp_path, "--family", "exhaustive-2x2", "--n", "2"))
    # denominators 1 and 2: 4 + 10 - 4 distinct tables, 4 adversaries each
    assert len(ex["cases"]) == 10 * 4 and ex["generator"]["tables"] == 10


# --- check -------------------------------------------------------------------------------


@pytest.fixture
def mixed(capsys, tmp_path):
    """Vectors with ok and no-compatible-pair cases, two lambdas, two families."""
    rb = load_vectors(
        export(capsys, tmp_path, "--family", "random-binary", "--count", "3", "--seed", "1",
               "--lam", "1", "--lam", "3/4", name="rb.json")
    )  # fmt: skip
    ex = load_vectors(export(capsys, tmp_path, "--family", "exhaustive-2x2", "--n", "3"))
    vectors = dict(rb, cases=rb["cases"] + ex["cases"])
    assert {c["status"] for c in vectors["cases"]} == {"ok", "no-compatible-pair"}
    return write(tmp_path, "mixed.json", oracle.dumps_vectors(vectors)), vectors


def test_check_passes_on_an_independent_float_implementation(capsys, tmp_path, mixed):
    vpath, vectors = mixed
    apath = write(tmp_path, "answers.json", answers_of(vectors))
    code, out, err = run(capsys, "oracle", "check", str(vpath), str(apath))
    n = len(vectors["cases"])
    assert (code, err) == (
        0,
        "",
    ) and out == f"oracle check: all {n} cases pass (rel_tol 1e-9, abs_tol 1e-12)\n"


def test_check_fails_with_the_perturbed_ids(capsys, tmp_path, mixed):
    vpath, vectors = mixed
    ok = [c for c in vectors["cases"] if c["status"] == "ok"]
    chosen = {c["id"] for c in ok[::7]}
    change = {c["id"]: float_eq2(c) + 1e-6 for c in ok if c["id"] in chosen}
    apath = write(tmp_path, "answers.json", answers_of(vectors, change))
    code, out, err = run(capsys, "oracle", "check", str(vpath), str(apath), "--json")
    assert code == 1 and err == ""
    report = json.loads(out)
    assert {f["id"] for f in report["failures"]} == chosen
    assert all(f["outcome"] == "fail" for f in report["failures"])
    assert report["passed"] == len(vectors["cases"]) - len(chosen)
    code, out, _ = run(capsys, "oracle", "check", str(vpath), str(apath))
    assert code == 1 and "| id | outcome |" in out and sorted(chosen)[0] in out
    # a looser tolerance lets the same answers through
    code, _, _ = run(capsys, "oracle", "check", str(vpath), str(apath), "--abs-tol", "1e-5")
    assert code == 0


def test_check_status_mismatches_and_non_finite(tmp_path, mixed):
    _, vectors = mixed
    ok = next(c for c in vectors["cases"] if c["status"] == "ok")
    blocked = next(c for c in vectors["cases"] if c["status"] == "no-compatible-pair")
    answers = {c["id"]: float_eq2(c) for c in vectors["cases"]}
    answers[ok["id"]] = None
    answers[blocked["id"]] = 0.5
    report = check_vectors(vectors, answers)
    reasons = {c.id: c.reason for c in report.failures}
    assert set(reasons) == {ok["id"], blocked["id"]}
    assert "expected a number" in reasons[ok["id"]] and "expected null" in reasons[blocked["id"]]
    answers[ok["id"]] = float("nan")
    assert [c.reason for c in check_vectors(vectors, answers).failures][0] == "not a finite number"


def test_check_is_exact_on_the_enclosure():
    vectors = export_vectors(family_models("li2019-examples"), [Fraction(1)], 30)
    answers = {
        c["id"]: c["value"]["decimal"] if c["status"] == "ok" else None for c in vectors["cases"]
    }
    zero = Fraction(0)

    def outcome(cid, rel_tol=zero, abs_tol=zero):
        report = check_vectors(vectors, answers, rel_tol, abs_tol)
        return next(c.outcome for c in report.checks if c.id == cid)

    # 30 certified digits pass a 1e-25 relative tolerance
    assert check_vectors(vectors, answers, Fraction(1, 10**25), zero).ok
    # a rational value has a degenerate enclosure: its exact decimal passes zero tolerance
    one = "li2019:a:A(x1,{x2}):lam=1"
    assert answers[one] == "1.00000000000000000000000000000" and outcome(one) == "pass"
    # an irrational value: a float is certainly off at zero tolerance, within at 1e-15
    irr = "li2019:a:A(x1,{}):lam=1"
    answers[irr] = float(answers[irr])
    assert outcome(irr) == "fail" and outcome(irr, Fraction(1, 10**15)) == "pass"
    # an end of the enclosure, at zero tolerance, is neither certainly in nor certainly out
    lo, hi = next(c for c in vectors["cases"] if c["id"] == irr)["value"]["enclosure"]
    answers[irr] = lo
    assert outcome(irr) == "undecided"
    # nor is a point inside: the exact value is somewhere in [lo, hi]
    answers[irr] = str((Fraction(lo) + Fraction(hi)) / 2)
    assert outcome(irr) == "undecided"
    # just outside the enclosure by more than the tolerance: certainly off
    answers[irr] = str(Fraction(hi) + Fraction(1, 10**30))
    assert outcome(irr, zero, Fraction(1, 10**31)) == "fail"
    assert outcome(irr, zero, Fraction(2, 10**30)) == "pass"


# --- bad input ---------------------------------------------------------------------------


def _one_line_exit_2(code, out, err, needle):
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and needle in err, err


@pytest.fixture
def small(capsys, tmp_path):
    vpath = export(capsys, tmp_path)
    return vpath, load_vectors(vpath)


def _bad_answers(vectors):
    ids = [c["id"] for c in vectors["cases"]]
    good = [{"id": i, "value": None} for i in ids]
    return [
        ({"answers": good[1:]}, "no answer for case id"),
        ({"answers": [*good, {"id": "nope", "value": 1.0}]}, "unknown case id 'nope'"),
        ({"answers": [*good, good[0]]}, "duplicate id"),
        ({"answers": [{"id": ids[0], "value": "abc"}, *good[1:]]}, "answers[0].value"),
        ({"answers": [{"id": ids[0], "value": True}, *good[1:]]}, "answers[0].value"),
        ({"answers": [{"id": 3, "value": 1.0}, *good[1:]]}, "answers[0].id"),
        ({"answers": [{"id": ids[0]}, *good[1:]]}, "answers[0].value"),
        ({"answer": good}, "ANSWERS answers"),
        ("[1, 2", "invalid JSON"),
    ]


def test_bad_answers_exit_2(capsys, tmp_path, small):
    vpath, vectors = small
    for k, (content, needle) in enumerate(_bad_answers(vectors)):
        apath = write(tmp_path, f"bad{k}.json", content)
        _one_line_exit_2(*run(capsys, "oracle", "check", str(vpath), str(apath)), needle)


def _bad_vectors(vectors):
    def edit(f):
        v = json.loads(json.dumps(vectors))
        f(v)
        return v

    return [
        (edit(lambda v: v.update(format="pdpsym-oracle/9")), "VECTORS format"),
        (edit(lambda v: v.update(digits="30")), "VECTORS digits"),
        (edit(lambda v: v["cases"][1]["value"].update(enclosure=["1", "x"])), "cases[1].value.enclosure[1]"),
        (edit(lambda v: v["cases"][1]["value"].update(enclosure=["2", "1"])), "lo > hi"),
        (edit(lambda v: v["cases"][2].update(status="maybe")), "cases[2].status"),
        (edit(lambda v: v["cases"][0].pop("lam")), "cases[0].lam"),
        (edit(lambda v: v["cases"][0].update(lam="0")), "cases[0].lam"),
        (edit(lambda v: v["cases"][0].update(target="x9")), "cases[0].target"),
        (edit(lambda v: v["cases"][0]["model"]["rows"][0].__setitem__(2, "1/2")), "cases[0].model.rows"),
        (edit(lambda v: v["cases"][3].update(id=v["cases"][0]["id"])), "cases[3].id"),
        ("{", "VECTORS: invalid JSON"),
    ]  # fmt: skip


def test_bad_vectors_exit_2(capsys, tmp_path, small):
    _, vectors = small
    apath = write(
        tmp_path, "a.json", {"answers": [{"id": c["id"], "value": None} for c in vectors["cases"]]}
    )
    for k, (content, needle) in enumerate(_bad_vectors(vectors)):
        vpath = write(tmp_path, f"v{k}.json", content)
        _one_line_exit_2(*run(capsys, "oracle", "check", str(vpath), str(apath)), needle)
    _one_line_exit_2(
        *run(capsys, "oracle", "check", str(tmp_path / "none.json"), str(apath)), "no such file"
    )


@pytest.mark.parametrize(
    "extra,needle",
    [
        (["--rel-tol", "1"], "--rel-tol"),
        (["--rel-tol", "abc"], "--rel-tol"),
        (["--abs-tol=-1e-3"], "--abs-tol"),
        (["--abs-tol", "1e-3*2"], "--abs-tol"),
    ],
)
def test_bad_tolerances_exit_2(capsys, tmp_path, small, extra, needle):
    vpath, _ = small
    _one_line_exit_2(*run(capsys, "oracle", "check", str(vpath), str(vpath), *extra), needle)


@pytest.mark.parametrize(
    "extra,needle",
    [
        (["--lam", "0"], "--lam"),
        (["--lam", "1", "--lam", "1.0"], "--lam"),
        (["--lam", "1/0"], "--lam"),
        (["--digits", "0"], "--digits"),
        (["--digits", "x"], "--digits"),
        (["--n", "3"], "--n"),
        (["--family", "random-binary", "--n", "99"], "--n"),
        (["--family", "random-binary", "--count", "0"], "--count"),
        (["--family", "random-binary", "--seed", "-1"], "--seed"),
        (["--family", "exhaustive-2x2", "--seed", "1"], "--seed"),
        (["--family", "nope"], "--family"),
    ],
)
def test_bad_export_leaves_no_file(capsys, tmp_path, extra, needle):
    out = tmp_path / "v.json"
    _one_line_exit_2(*run(capsys, "oracle", "export", *extra, "--out", str(out)), needle)
    assert list(tmp_path.iterdir()) == []
    out.write_text("previous")  # an existing file is left as it was
    _one_line_exit_2(*run(capsys, "oracle", "export", *extra, "--out", str(out)), needle)
    assert out.read_text() == "previous" and list(tmp_path.iterdir()) == [out]


def test_bad_destination(capsys, tmp_path):
    _one_line_exit_2(
        *run(capsys, "oracle", "export", "--out", str(tmp_path / "no" / "v.json")),
        "no such directory",
    )
    _one_line_exit_2(*run(capsys, "oracle", "export", "--out", str(tmp_path)), "is a directory")


def test_interrupted_write_leaves_nothing(capsys, tmp_path, monkeypatch):
    out = tmp_path / "v.json"

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(writes.os, "replace", interrupted)
    # the CLI turns Ctrl-C into one line and status 130; the temp file is cleaned up
    assert main(["oracle", "export", "--out", str(out)]) == 130
    assert capsys.readouterr().err.strip() == "pdpsym: interrupted"
    assert list(tmp_path.iterdir()) == []

    def disk_full(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(writes.os, "replace", disk_full)
    out.write_text("previous")
    _one_line_exit_2(*run(capsys, "oracle", "export", "--out", str(out)), "--out")
    assert out.read_text() == "previous" and list(tmp_path.iterdir()) == [out]


def test_written_file_has_ordinary_permissions(capsys, tmp_path):
    path = export(capsys, tmp_path)
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


def test_bad_input_from_the_shell_has_no_traceback(tmp_path):
    apath = write(tmp_path, "a.json", {"answers": []})
    proc = subprocess.run(
        [sys.executable, "-m", "pdpsym", "oracle", "check", str(apath), str(apath)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert (
        proc.stderr.strip() == "pdpsym: error: VECTORS format: expected 'pdpsym-oracle/1', got None"
    )


def test_export_on_two_processes_writes_the_same_file(capsys, tmp_path):
    argv = ["oracle", "export", "--family", "random-binary", "--n", "3", "--count", "4"]
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    assert main([*argv, "--out", str(one), "--jobs", "1"]) == 0
    assert main([*argv, "--out", str(two), "--jobs", "2"]) == 0
    capsys.readouterr()
    assert one.read_bytes() == two.read_bytes()

"""Golden files: the exact outputs for the papers' examples, checked byte for byte.

Each case runs one ``pdpsym`` command in-process and compares its stdout (or the file it
writes) with ``tests/golden/NAME``; a mismatch shows a unified diff. To regenerate after an
intended change, run ``python -m tests.test_golden --regen`` from the repository root, or
``PDPSYM_REGEN_GOLDEN=1 python -m pytest tests/app/test_golden.py``, and review the diff
(``tests/golden/README.md``).
"""

from __future__ import annotations

import contextlib
import difflib
import io
import json
import os
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # `python -m tests.app.test_golden`
from oracles.eq2_leakage import eq2_bruteforce  # noqa: E402

from pdpsym.app.cli import main
from pdpsym.papers.li2019.examples import li2019_table

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
MODELS = GOLDEN / "models"
TABLES = ("a", "b", "c", "d")
OUT = "{out}"  # placeholder: the case compares the file written there, not stdout


def model_path(table: str) -> str:
    return str(MODELS / f"table_{table}.json")


def model_text(table: str) -> str:
    """The model file of Table (table), from the library's own exact form."""
    return json.dumps(li2019_table(table).to_json_object(), indent=2) + "\n"


def _leakage(table: str, *extra: str) -> list[str]:
    return ["leakage", model_path(table), "--target", "x1", *extra]


CASES: dict[str, list[str]] = {
    "table-li2019-examples.md": ["table", "li2019-examples", "--format", "md"],
    "table-li2019-examples.tex": ["table", "li2019-examples", "--format", "latex"],
    "table-li2019-examples.csv": ["table", "li2019-examples", "--format", "csv"],
    # Examples 2-4 adversaries: irrational, rational, no-compatible-pair, a wider domain
    "leakage-a-x1.json": _leakage("a", "--json"),
    "leakage-a-x1.txt": _leakage("a"),
    "leakage-b-x1-knows-x2.json": _leakage("b", "--known", "x2", "--json"),
    "leakage-b-x1-lam-1_2.json": _leakage("b", "--lam", "1/2", "--digits", "40", "--json"),
    "leakage-c-x1-knows-x2.json": _leakage("c", "--known", "x2", "--json"),
    "leakage-d-x1.json": _leakage("d", "--json"),
    "oracle-li2019-examples.json": ["oracle", "export", "--digits", "30", "--out", OUT],
}
# `pdpsym verify --claim li2019.thm4 --json` is not here: its output records timings.


def produce(argv: list[str]) -> str:
    """Run ``pdpsym argv`` in-process; the text it printed (or wrote to ``{out}``)."""
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "out"
        args = [str(target) if a == OUT else a for a in argv]
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            code = main(args)
        if code != 0 or stderr.getvalue():
            raise AssertionError(f"pdpsym {' '.join(args)}: exit {code}\n{stderr.getvalue()}")
        return target.read_text(encoding="utf-8") if OUT in argv else stdout.getvalue()


def regenerate() -> list[Path]:
    """Rewrite the model files and every golden file; returns the paths written."""
    MODELS.mkdir(parents=True, exist_ok=True)
    written = []
    for t in TABLES:
        p = MODELS / f"table_{t}.json"
        p.write_bytes(model_text(t).encode("utf-8"))
        written.append(p)
    for name, argv in CASES.items():
        p = GOLDEN / name
        p.write_bytes(produce(argv).encode("utf-8"))
        written.append(p)
    return written


def _compare(path: Path, actual: str) -> None:
    if os.environ.get("PDPSYM_REGEN_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(actual.encode("utf-8"))
        return
    if not path.exists():
        pytest.fail(f"{path} is missing; regenerate with `python -m tests.test_golden --regen`")
    expected = path.read_bytes()
    if expected == actual.encode("utf-8"):
        return
    diff = "".join(
        difflib.unified_diff(
            expected.decode("utf-8", errors="replace").splitlines(keepends=True),
            actual.splitlines(keepends=True),
            fromfile=str(path.relative_to(GOLDEN.parent.parent)),
            tofile="actual",
        )
    )
    pytest.fail(
        f"output differs from {path.name} (if intended: `python -m tests.test_golden --regen`, "
        f"then review the diff)\n{diff or '(differences in line endings or encoding only)'}",
        pytrace=False,
    )


# Li et al. Tables II/III (Examples 2-4), typed from the paper: P(x1, x2) per cell.
PAPER_CELLS = {
    "a": {("0", "0"): "3/10", ("0", "1"): "1/5", ("1", "0"): "1/5", ("1", "1"): "3/10"},
    "b": {("0", "0"): "1/5", ("0", "1"): "3/10", ("1", "0"): "3/10", ("1", "1"): "1/5"},
    "c": {("0", "0"): "1/2", ("1", "1"): "1/2"},
    "d": {("0", "0"): "1/2", ("5", "1"): "1/2"},
}


@pytest.mark.parametrize("table", TABLES)
def test_model_files_and_library_tables_are_the_papers(table):
    obj = json.loads((MODELS / f"table_{table}.json").read_text(encoding="utf-8"))
    cells = {(r[0], r[1]): r[2] for r in obj["rows"] if r[2] != "0"}
    assert obj["variables"] == ["x1", "x2"] and cells == PAPER_CELLS[table]
    lib = li2019_table(table)
    assert {tuple(str(v) for v in row): str(p) for row, p in lib.probs.items() if p} == PAPER_CELLS[
        table
    ]


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name):
    _compare(GOLDEN / name, produce(CASES[name]))


def test_no_stale_golden_files():
    known = set(CASES) | {"README.md", "models"}
    stale = sorted(p.name for p in GOLDEN.iterdir() if p.name not in known)
    assert not stale, f"golden files without a case: {stale}"
    models = {p.name for p in MODELS.iterdir()}
    assert models == {f"table_{t}.json" for t in TABLES}


if __name__ == "__main__":
    if sys.argv[1:] != ["--regen"]:
        sys.stderr.write("usage: python -m tests.test_golden --regen\n")
        raise SystemExit(2)
    for p in regenerate():
        print(p.relative_to(GOLDEN.parent.parent))


@pytest.mark.parametrize(
    ("name", "table", "known", "lam"),
    [
        ("leakage-a-x1.json", "a", (), Fraction(1)),
        ("leakage-b-x1-knows-x2.json", "b", ("x2",), Fraction(1)),
        ("leakage-b-x1-lam-1_2.json", "b", (), Fraction(1, 2)),
        ("leakage-d-x1.json", "d", (), Fraction(1)),
    ],
)
def test_golden_leakage_values_agree_with_the_brute_force(name, table, known, lam):
    # Independent source: tests/oracles/eq2_leakage.py: mpmath dense-grid Eq. 2 (no breakpoint lemma).
    value = json.loads((GOLDEN / name).read_text(encoding="utf-8"))["value"]
    brute = eq2_bruteforce(li2019_table(table), "x1", known, lam)
    assert brute is not None
    with mpmath.workdps(50):
        assert abs(mpmath.mpf(value["decimal"]) - brute) < mpmath.mpf(10) ** -18

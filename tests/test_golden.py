"""Golden files: the exact outputs for the papers' examples, checked byte for byte.

Each case runs one ``pdpsym`` command in-process and compares its stdout (or the file it
writes) with ``tests/golden/NAME``; a mismatch shows a unified diff. To regenerate after an
intended change, run ``python -m tests.test_golden --regen`` from the repository root, or
``PDPSYM_REGEN_GOLDEN=1 python -m pytest tests/test_golden.py``, and review the diff
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
from pathlib import Path

import pytest

from pdpsym.app.cli import main
from pdpsym.papers.li2019.examples import li2019_table

GOLDEN = Path(__file__).resolve().parent / "golden"
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


@pytest.mark.parametrize("table", TABLES)
def test_models_match_the_library_tables(table):
    _compare(MODELS / f"table_{table}.json", model_text(table))


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

"""Every fenced shell example in README.md and docs/*.md runs when pasted into bash.

An example is a fenced block labelled ``bash``, ``sh``, ``shell`` or ``console``, or an
unlabelled one whose first line is a ``$ `` prompt. In a ``console`` (or prompted) block
the ``$ `` lines are the commands and the rest is their output; a ``bash``/``sh`` block is
run whole. A block right after an ``<!-- no-run -->`` line is skipped: the README's two
install commands carry it (``.ci/run`` runs them, in a fresh venv). Each block runs in
bash (``set -e``, ``pipefail``) in a temporary directory holding a copy of
``docs/examples/`` and links to the checkout's other files, with a ``pdpsym`` on the PATH
that runs this checkout; its exit status must be 0. Pages added to docs/ are picked up by the glob.

The default suite runs every example that finishes quickly; the ones listed in ``SLOW``
(by page and first command) run with ``-m slow``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
SHELLS = ("bash", "sh", "shell", "console")
NO_RUN = "<!-- no-run -->"
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
# (page, start of the first command) of examples too slow for the default suite
SLOW: set[tuple[str, str]] = {
    # the class audit's figures' search run to its budget (about 13 s of CPU)
    ("docs/uncertain-laws.md", "pdpsym audit docs/examples/estimated-chain-8.json docs/examp"),
    # the class audit of three notions at T = 4 (4 s): the page's other class audits stay
    # in the default suite
    ("docs/uncertain-laws.md", "pdpsym audit docs/examples/estimated-chain-4.json docs/examp"),
}


@dataclass(frozen=True)
class Example:
    page: str
    line: int
    script: str
    #: in a console block, each ``$ `` command with the output the page shows under it
    shown: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def examples(path: Path) -> list[Example]:
    """The shell examples of one Markdown page, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[Example] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = m.groups()
        end = i + 1
        while end < len(lines) and not lines[end].strip().startswith(fence[0] * len(fence)):
            end += 1
        body = [ln[len(indent) :] if ln.startswith(indent) else ln for ln in lines[i + 1 : end]]
        before = next((ln.strip() for ln in reversed(lines[:i]) if ln.strip()), "")
        prompted = bool(body) and body[0].startswith("$ ")
        if before != NO_RUN and (lang in SHELLS or (not lang and prompted)):
            shown: list[tuple[str, list[str]]] = []
            if lang == "console" or prompted:
                script = "\n".join(ln[2:] for ln in body if ln.startswith("$ "))
                for ln in body:
                    if ln.startswith("$ "):
                        shown.append((ln[2:], []))
                    elif shown:
                        shown[-1][1].append(ln.rstrip())
            else:
                script = "\n".join(body)
            if script.strip():
                page = path.relative_to(ROOT).as_posix()
                pairs = tuple((c, tuple(o)) for c, o in shown)
                out.append(Example(page, i + 1, script, pairs))
        i = end + 1
    return out


ALL = [ex for page in PAGES for ex in examples(page)]


def _slow(ex: Example) -> bool:
    return (ex.page, ex.script.strip().split("\n")[0][:60]) in SLOW


def _run(ex: Example, tmp: Path) -> subprocess.CompletedProcess[str]:
    # the checkout's files are reachable by the paths the docs use: docs/examples is
    # copied (an example may write next to its inputs), the rest linked
    shutil.copytree(ROOT / "docs" / "examples", tmp / "docs" / "examples")
    for entry in ROOT.iterdir():
        if entry.name not in ("docs", ".git", ".venv", "site") and not entry.name.startswith("."):
            (tmp / entry.name).symlink_to(entry)
    bin_dir = tmp / ".shim"
    bin_dir.mkdir()
    shim = bin_dir / "pdpsym"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m pdpsym "$@"\n', encoding="utf-8")
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    }
    return subprocess.run(
        ["bash", "-c", "set -eo pipefail\n" + ex.script],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_examples_are_found() -> None:
    # the audit guide's four examples at least (a parser that finds nothing passes nothing)
    assert sum(ex.page == "docs/audit.md" for ex in ALL) >= 4
    # and the README's install commands are marked, not silently dropped
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.count(NO_RUN) == 2


def test_an_unquoted_argument_fails_in_bash(tmp_path: Path) -> None:
    # the check can fail: the audit guide's first example as it was, with ln(2) unquoted
    bad = Example("x.md", 1, "pdpsym audit docs/examples/pair.json docs/examples/table.json "
                  "--target x1 --eps ln(2)")  # fmt: skip
    assert _run(bad, tmp_path).returncode != 0


@pytest.mark.parametrize(
    "ex",
    [pytest.param(e, id=e.id, marks=[pytest.mark.slow] if _slow(e) else []) for e in ALL],
)
def test_example_runs_when_pasted(ex: Example, tmp_path: Path) -> None:
    if not any(out for _, out in ex.shown):
        proc = _run(ex, tmp_path)
        assert proc.returncode == 0, f"{ex.id}: exit {proc.returncode}\n{proc.stderr[-2000:]}"
        return
    # a console block that shows output: each command in turn, in the same folder, its
    # stdout and stderr as a terminal interleaves them, compared with what the page shows
    for n, (command, want) in enumerate(ex.shown):
        one = Example(ex.page, ex.line, "{ " + command + " ; } 2>&1")
        proc = _run(one, tmp_path) if n == 0 else _run_in(one, tmp_path)
        assert proc.returncode == 0, f"{ex.id}: {command}: exit {proc.returncode}"
        if want:
            got = [ln.rstrip() for ln in proc.stdout.rstrip("\n").split("\n")]
            assert got == list(want), f"{ex.id}: {command}: the page shows other output"


def _run_in(ex: Example, tmp: Path) -> subprocess.CompletedProcess[str]:
    """Run ``ex`` in a folder :func:`_run` has prepared (a later command of its block)."""
    env = {
        **os.environ,
        "PATH": f"{tmp / '.shim'}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}"
        f"{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    }
    return subprocess.run(
        ["bash", "-c", "set -eo pipefail\n" + ex.script],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_a_shown_output_that_differs_fails(tmp_path: Path) -> None:
    # the check can fail: the README's leakage example with one digit changed
    bad = Example("x.md", 1, "", (("pdpsym leakage docs/examples/pair.json --target x1", ("0",)),))
    with pytest.raises(AssertionError):
        test_example_runs_when_pasted(bad, tmp_path)


# --- the examples ending each command's --help -------------------------------------------


def _help_examples() -> list[Example]:
    """The ``$ `` lines at the end of every command's --help (and of ``pdpsym --help``),
    read from the help text itself, one example per parser."""
    import argparse

    from pdpsym.app.cli import build_parser

    def walk(p: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
        subs = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        return [p, *(q for s in subs for c in s.choices.values() for q in walk(c))]

    out = []
    for parser in walk(build_parser()):
        lines = parser.format_help().splitlines()
        shown = [ln.strip()[2:] for ln in lines if ln.strip().startswith("$ pdpsym ")]
        out.append(Example(f"{parser.prog} --help", 0, "\n".join(shown)))
    return out


HELP = _help_examples()


def test_every_command_help_ends_with_an_example() -> None:
    missing = [ex.page for ex in HELP if not ex.script]
    assert not missing, f"no example at the end of: {missing}"
    top = next(ex for ex in HELP if ex.page == "pdpsym --help")
    # the task groups of the top-level help, one example each
    assert len(top.script.splitlines()) >= 5


# the help examples run by the default suite (a few fast ones); all of them with -m slow
FAST_HELP = {"pdpsym leakage --help", "pdpsym gaussian --help"}  # calibrate's: 6 s, slow


@pytest.mark.parametrize(
    "ex",
    [
        pytest.param(e, id=e.page, marks=[] if e.page in FAST_HELP else [pytest.mark.slow])
        for e in HELP
    ],
)
def test_help_examples_run_from_the_repository_root(ex: Example, tmp_path: Path) -> None:
    proc = _run(ex, tmp_path)
    assert proc.returncode == 0, f"{ex.id}: exit {proc.returncode}\n{proc.stderr[-2000:]}"


# --- the Python examples of the docs -------------------------------------------------------

PY_FENCE = re.compile(r"^```python\s*$")
# a printed line shown in a comment right under its print(...) call
RUNNER = """\
import builtins, json, sys
src = open(sys.argv[1], encoding="utf-8").read()
shown = {}
real = builtins.print
def print(*args, **kw):
    line = sys._getframe(1).f_lineno
    if sys._getframe(1).f_code.co_filename == sys.argv[1]:
        shown.setdefault(line, []).append(" ".join(map(str, args)))
    real(*args, **kw)
builtins.print = print
exec(compile(src, sys.argv[1], "exec"), {"__name__": "__main__"})
real("\\nSHOWN " + json.dumps(shown))
"""


def python_examples(path: Path) -> list[Example]:
    """The ```python blocks of a page (README's ``>>>`` blocks run under --doctest-glob)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for i, ln in enumerate(lines):
        if PY_FENCE.match(ln):
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            before = next((x.strip() for x in reversed(lines[:i]) if x.strip()), "")
            if before != NO_RUN:
                out.append(
                    Example(path.relative_to(ROOT).as_posix(), i + 1, "\n".join(lines[i + 1 : end]))
                )
    return out


PY = [ex for page in PAGES for ex in python_examples(page) if page.name != "README.md"]


def _expected(script: str) -> dict[int, list[str]]:
    """line of a print(...) call -> the lines shown in the comments right under it."""
    lines = script.splitlines()
    out: dict[int, list[str]] = {}
    for i, ln in enumerate(lines):
        if ln.startswith("print("):
            shown = []
            for nxt in lines[i + 1 :]:
                if not nxt.startswith("# "):
                    break
                shown.append(nxt[2:])
            if shown:
                out[i + 1] = shown
    return out


#: the optional extras a page's Python example may import (pyproject.toml)
OPTIONAL_EXTRAS = ("pgmpy",)


def _has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def test_python_examples_are_found() -> None:
    assert any(ex.page == "docs/correlated.md" for ex in PY)
    assert any(_expected(ex.script) for ex in PY)  # some show their output


@pytest.mark.parametrize("ex", [pytest.param(e, id=e.id) for e in PY])
def test_python_example_runs_and_prints_what_it_shows(ex: Example, tmp_path: Path) -> None:
    """Run as a user would (a script, from the repository root) and compare each printed
    line with the comment the page shows under its print(...) call."""
    for extra in OPTIONAL_EXTRAS:  # a page's example of an optional extra, not installed
        if re.search(rf"^\s*(from|import) {extra}\b", ex.script, re.M) and not _has(extra):
            pytest.skip(f"{extra} is an optional extra (pip install 'pdpsym[{extra}]')")
    doctest_block = any(ln.startswith(">>> ") for ln in ex.script.splitlines())
    (tmp_path / "example.py").write_text(ex.script + "\n", encoding="utf-8")
    (tmp_path / "runner.py").write_text(RUNNER, encoding="utf-8")
    cmd = "python -m doctest example.txt" if doctest_block else "python runner.py example.py"
    if doctest_block:
        (tmp_path / "example.txt").write_text(ex.script + "\n", encoding="utf-8")
    (tmp_path / "work").mkdir()
    for name in ("example.py", "runner.py", "example.txt"):
        if (tmp_path / name).exists():
            (tmp_path / name).rename(tmp_path / "work" / name)
    proc = _run(Example(ex.page, ex.line, f"cp .work/* . && {cmd}"), _with_work(tmp_path))
    assert proc.returncode == 0, f"{ex.id}: exit {proc.returncode}\n{proc.stderr[-2000:]}"
    if doctest_block:
        return
    shown = json.loads(proc.stdout.rsplit("\nSHOWN ", 1)[1])
    for line, want in _expected(ex.script).items():
        assert shown.get(str(line)) == want, f"{ex.id} (line {line} of the block)"


def _with_work(tmp: Path) -> Path:
    """A directory for _run with the example files in .work/ (copied in by the script)."""
    root = tmp / "root"
    root.mkdir()
    (tmp / "work").rename(root / ".work")
    return root


def test_every_example_file_the_docs_use_is_in_docs_examples() -> None:
    # a reader runs the examples from a clone: every file they name is in docs/examples/
    # (not tests/, which a packaged install does not ship)
    named = {
        m.group(0).rstrip(".")
        for page in PAGES
        for m in re.finditer(r"docs/examples/[\w.-]+", page.read_text(encoding="utf-8"))
    }
    assert named and not [f for f in named if not (ROOT / f).is_file()]
    scripts = [ex.script for ex in [*ALL, *PY, *HELP]]
    assert not [s for s in scripts if "tests/" in s]

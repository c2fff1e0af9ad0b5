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
SLOW: set[tuple[str, str]] = set()


@dataclass(frozen=True)
class Example:
    page: str
    line: int
    script: str

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
            if lang == "console" or prompted:
                script = "\n".join(ln[2:] for ln in body if ln.startswith("$ "))
            else:
                script = "\n".join(body)
            if script.strip():
                out.append(Example(path.relative_to(ROOT).as_posix(), i + 1, script))
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
    proc = _run(ex, tmp_path)
    assert proc.returncode == 0, f"{ex.id}: exit {proc.returncode}\n{proc.stderr[-2000:]}"

"""The help starts people: ``pdpsym --help`` groups the commands by task with an example
each and points at docs/; ``audit --help`` gives the model and mechanism formats in a
line each, with the docs pages. (The examples themselves run in test_docs_examples.py.)"""

from __future__ import annotations

import argparse

from pdpsym.app.cli import build_parser
from pdpsym.app.help import TASKS


def _sub(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return subs.choices[name]


def test_top_help_groups_every_command_by_task() -> None:
    parser = build_parser()
    text = parser.format_help()
    for title in (
        "check a paper's claims",
        "measure leakage of your data",
        "calibrate noise",
        "make figures and tables",
        "test another implementation",
    ):
        assert f"  {title}: " in text
    assert "docs/index.md" in text and "docs/examples/" in text
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    tail = text.split("start here, by task")[1]
    grouped = {
        c.strip() for ln in tail.splitlines() if ": " in ln for c in ln.split(": ", 1)[1].split(",")
    }
    assert set(subs.choices) <= grouped  # a command in no task is listed under "more"
    assert len(TASKS) == 5


def test_audit_help_is_short_and_gives_the_file_formats() -> None:
    text = _sub(build_parser(), "audit").format_help()
    lines = text.splitlines()
    assert len(lines) < 73  # the help was 73 lines, with neither format nor example
    model = next(ln for ln in lines if ln.startswith("MODEL: "))
    mech = next(ln for ln in lines if ln.startswith("MECHANISM: "))
    assert '"variables"' in model and '"kind"' in mech
    assert "docs/audit.md" in text and "examples (from the repository root):" in text
    assert all(len(ln) < 120 for ln in lines)

"""Which modules of pdpsym a command runs code in, from the command line down to core,
and how many lines the functions it calls span.

    .venv/bin/python benchmarks/call_path.py [ARGV ...]
    (default: calibrate docs/examples/chain100.json --eps 1)

Runs ``pdpsym ARGV`` in this process with a profiler and lists every module of pdpsym
one of whose functions is called, with the functions; code that runs while a module is
being imported (module bodies, class bodies, a package's hooks the import system calls)
is left out, so the list is the command's dynamic call path. Modules run only while the parser is built (``build_parser`` calls
every command's ``register``) are listed apart.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from types import CodeType, FrameType
from typing import Any

from pdpsym.app.cli import main

ROOT = os.path.dirname(__import__("pdpsym").__file__)


def _importing(frame: FrameType | None) -> bool:
    """Whether the import system is on the stack (a lazy import binding a submodule on
    its package runs the package's ``__setattr__``: import plumbing, not the command)."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _within(frame: FrameType | None, name: str) -> bool:
    """Whether a frame of pdpsym named ``name`` is on the stack."""
    while frame is not None:
        if frame.f_code.co_name == name and frame.f_code.co_filename.startswith(ROOT):
            return True
        frame = frame.f_back
    return False


def call_path(
    argv: list[str], codes: set[CodeType] | None = None
) -> tuple[int, dict[str, set[str]], set[str]]:
    """``(exit code, {module path: names of the functions called}, modules called only
    while building the parser)`` of ``pdpsym argv``; the code objects of the functions
    called (parser aside) are added to ``codes`` when it is given."""
    called: dict[str, set[str]] = {}
    parser: set[str] = set()

    def prof(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            f = frame.f_code.co_filename
            if f.startswith(ROOT) and not _within(frame, "<module>") and not _importing(frame):
                rel = os.path.relpath(f, os.path.dirname(ROOT))
                if _within(frame, "build_parser") and frame.f_code.co_name != "build_parser":
                    parser.add(rel)
                else:
                    called.setdefault(rel, set()).add(frame.f_code.co_name)
                    if codes is not None:
                        codes.add(frame.f_code)

    with contextlib.redirect_stdout(io.StringIO()):
        sys.setprofile(prof)
        try:
            rc = main(argv)
        finally:
            sys.setprofile(None)
    return rc, called, parser - set(called)


def main_() -> None:
    argv = sys.argv[1:] or ["calibrate", "docs/examples/chain100.json", "--eps", "1"]
    codes: set[CodeType] = set()
    rc, called, parser_only = call_path(argv, codes)
    path = sorted(called)
    lines = 0
    print(f"pdpsym {' '.join(argv)}: exit {rc}")
    print(f"{len(path)} modules on the call path:")
    for f in path:
        with open(f, encoding="utf-8") as fh:
            n = sum(1 for _ in fh)
        lines += n
        print(f"  {f} ({n} lines): {', '.join(sorted(called[f]))[:100]}")
    print(f"  ({lines} lines)")
    # the lines the called functions span (first to last line of each, nested ones once)
    spans: set[tuple[str, int]] = set()
    for c in codes:
        last = max((ln for _, _, ln in c.co_lines() if ln is not None), default=c.co_firstlineno)
        spans |= {(c.co_filename, n) for n in range(c.co_firstlineno, last + 1)}
    print(f"  ({len(spans)} lines in the functions called)")
    print(
        f"{len(parser_only)} more only to build the parser (register): {', '.join(sorted(parser_only))}"
    )


if __name__ == "__main__":
    main_()

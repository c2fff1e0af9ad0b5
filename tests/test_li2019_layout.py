"""The li2019 package keeps the layer rules: no python-flint import (balls and precision
come through pdpsym.core), no global precision assignment, one concept per module
(no module over 650 lines of code; docstring lines do not count, since rule 7 asks for
Args/Returns/References on every public function and they add no concept). Source:
docs/contributing.md, rules 1-2 and 7."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pdpsym.papers.li2019 as li2019

ROOT = Path(li2019.__file__).parent
MODULES = sorted(ROOT.rglob("*.py"))


def test_no_flint_import() -> None:
    bad = [p for p in MODULES if re.search(r"^\s*(from flint|import flint)", p.read_text(), re.M)]
    assert bad == []


def test_no_global_precision() -> None:
    bad = [
        p for p in MODULES if re.search(r"mp\.dps\s*=|mp\.prec\s*=|ctx\.prec\s*=", p.read_text())
    ]
    assert bad == []


def _docstring_lines(source: str) -> set[int]:
    """The line numbers of the module's, classes' and functions' docstrings."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def _code_lines(source: str) -> int:
    return len(source.splitlines()) - len(_docstring_lines(source))


def test_code_line_count_skips_docstrings() -> None:
    # hand count: 5 lines, of which the docstrings take 1 (module) + 3 (function)
    source = '"""Module."""\ndef f() -> None:\n    """One.\n\n    Two."""\n'
    assert _code_lines(source) == 1


def test_modules_stay_small() -> None:
    sizes = {str(p.relative_to(ROOT)): _code_lines(p.read_text()) for p in MODULES}
    assert max(sizes.values()) <= 650, sizes

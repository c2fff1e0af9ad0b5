"""No module reaches another module's private names: a name that starts with one
underscore belongs to the module that defines it. Shared helpers are public (documented)
names of their own module. Source: docs/contributing.md (one concept per module; private
helpers stay private)."""

from __future__ import annotations

import ast
from pathlib import Path

import pdpsym

ROOT = Path(pdpsym.__file__).parent
TESTS = Path(__file__).parent


def _private_imports(source: str) -> list[str]:
    """``from pdpsym... import _name`` (or a relative ``from . import _name``) in a source."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        module = node.module or ""
        if not (node.level or module == "pdpsym" or module.startswith("pdpsym.")):
            continue
        for alias in node.names:
            if alias.name.startswith("_") and not alias.name.startswith("__"):
                out.append(
                    f"line {node.lineno}: from {'.' * node.level}{module} import {alias.name}"
                )
    return out


def test_the_check_sees_a_private_import() -> None:
    # hand-written sources: two reach a private name, one imports public names only
    assert _private_imports("from pdpsym.core.poly import _mul\n") == [
        "line 1: from pdpsym.core.poly import _mul"
    ]
    assert _private_imports("def f():\n    from .helpers import _x\n") == [
        "line 2: from .helpers import _x"
    ]
    assert _private_imports("from pdpsym.core.poly import mul, __all__\nimport os._x\n") == []


def test_no_module_imports_another_modules_private_name() -> None:
    files = sorted(ROOT.rglob("*.py")) + sorted(TESTS.rglob("*.py"))
    assert len(files) > 100  # the walk sees the package and the suite
    found = {
        str(path): hits
        for path in files
        if (hits := _private_imports(path.read_text(encoding="utf-8")))
    }
    assert found == {}, f"private names imported across modules (make them public): {found}"

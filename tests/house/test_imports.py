"""Two import rules of docs/contributing.md, kept by tests.

- No module reaches another module's private names: a name that starts with one
  underscore belongs to the module that defines it; shared helpers are public
  (documented) names of their own module (one concept per module).
- A function-local import says why in a comment (rule 1): on its line, on the line
  before, or on any line of the function's import block.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pdpsym

ROOT = Path(pdpsym.__file__).parent
TESTS = Path(__file__).resolve().parents[1]
# the project's own top-level names: the package, the suite, and the suite's helper
# modules imported by bare name (fuzz_cases, strategies) and the packages of the suite (oracles, core, papers, ...)
OWN = frozenset(
    {
        "pdpsym",
        "tests",
        *(p.stem for p in TESTS.glob("*.py")),
        *(p.name for p in TESTS.iterdir() if (p / "__init__.py").is_file()),
    }
)


def _private_imports(source: str) -> list[str]:
    """``from <project module> import _name`` (or a relative ``from . import _name``)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        module = node.module or ""
        if not (node.level or module.split(".")[0] in OWN):
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
    assert _private_imports("from tests.loss.test_x import _brute\n") == [
        "line 1: from tests.loss.test_x import _brute"
    ]
    assert _private_imports("from fuzz_cases import _opt\n") == [
        "line 1: from fuzz_cases import _opt"
    ]
    assert _private_imports("from pdpsym.core.poly import mul, __all__\nimport os._x\n") == []
    assert _private_imports("from os.path import _joinrealpath\n") == []


def test_no_module_imports_another_modules_private_name() -> None:
    files = sorted(ROOT.rglob("*.py")) + sorted(TESTS.rglob("*.py"))
    assert len(files) > 100  # the walk sees the package and the suite
    found = {
        str(path): hits
        for path in files
        if (hits := _private_imports(path.read_text(encoding="utf-8")))
    }
    assert found == {}, f"private names imported across modules (make them public): {found}"


def _silent_local_imports(source: str) -> list[str]:
    """Function-local import blocks with no comment on their lines or the line before."""
    lines = source.splitlines()
    out = []
    for func in ast.walk(ast.parse(source)):
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        imports = [n for n in ast.walk(func) if isinstance(n, ast.Import | ast.ImportFrom)]
        if not imports:
            continue
        first = min(n.lineno for n in imports)
        last = max(n.end_lineno or n.lineno for n in imports)
        if not any("#" in line for line in lines[max(first - 2, 0) : last]):
            out.append(f"line {first}: {func.name}")
    return out


def test_the_check_sees_a_silent_local_import() -> None:
    # hand-written sources: the first import says nothing, the others say why
    assert _silent_local_imports("def f():\n    import json\n") == ["line 2: f"]
    assert _silent_local_imports("def f():\n    import json  # lazy\n") == []
    assert _silent_local_imports("def f():\n    # lazy\n    import json\n") == []
    assert _silent_local_imports("import json\n") == []


def test_every_function_local_import_says_why() -> None:
    found = {
        str(path.relative_to(ROOT)): hits
        for path in sorted(ROOT.rglob("*.py"))
        if (hits := _silent_local_imports(path.read_text(encoding="utf-8")))
    }
    assert found == {}, f"function-local imports without a reason: {found}"

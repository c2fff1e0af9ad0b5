"""The oracles share nothing with the code they check: no module of tests/oracles imports
pdpsym (docs/contributing.md, rule 6; tests/README.md).

An oracle re-derives a quantity from the paper's definitions (Fractions, mpmath, numpy);
if it called the library, a bug there would be checked against itself. Inputs reach an
oracle as plain data (a table's ``variables`` and ``probs``, a counterexample's JSON), so
the allow-list of modules that may import pdpsym to read inputs is empty.
"""

from __future__ import annotations

import ast
from pathlib import Path

ORACLES = Path(__file__).resolve().parents[1] / "oracles"
# modules of tests/oracles allowed to import pdpsym, to read inputs only: none
ALLOWED: frozenset[str] = frozenset()


def library_imports(source: str) -> list[str]:
    """Every import of ``pdpsym`` (or a submodule) in ``source``, at any depth."""
    hits = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        hits += [f"line {node.lineno}: {n}" for n in names if n.split(".")[0] == "pdpsym"]
    return hits


def test_the_check_sees_a_library_import() -> None:
    # hand-written sources: three reach the library (one inside a function), one does not
    assert library_imports("import pdpsym\n") == ["line 1: pdpsym"]
    assert library_imports("from pdpsym.models.joint import JointDistribution\n") == [
        "line 1: pdpsym.models.joint"
    ]
    assert library_imports("def f():\n    import pdpsym.core.eps as e\n") == [
        "line 2: pdpsym.core.eps"
    ]
    assert library_imports("import mpmath\nfrom oracles import joint_table\n") == []


def test_no_oracle_imports_the_library() -> None:
    modules = sorted(ORACLES.glob("*.py"))
    assert len(modules) > 10  # the directory was found and holds the oracles
    found = {
        p.name: hits
        for p in modules
        if p.stem not in ALLOWED and (hits := library_imports(p.read_text(encoding="utf-8")))
    }
    assert found == {}, f"oracles importing pdpsym (they must re-derive, not call): {found}"


def test_oracles_holds_oracles_only() -> None:
    # tests of the library live beside the module they test, not among the oracles
    assert not list(ORACLES.glob("test_*.py"))

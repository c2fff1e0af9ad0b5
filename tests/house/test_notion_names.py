"""Each privacy notion's name is written in at most three places in the package: its class
in the notion registry, the registry's list, and the command line's choices. Everything
else asks the registry (``notion(name)``, ``Notion.name``), so adding a notion touches
one module.

Source: the package's own files, parsed here with ``ast`` (no pdpsym import); string
constants are counted, docstrings (whose examples name notions) are not.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "pdpsym"
#: the notions' names, as the papers write them (Desfontaines et al., Sections 3-5; Liu
#: et al., Definition 4; dp itself)
NAMES = ("dp", "apkdp", "ppkdp", "np", "cdp", "ibcdp", "dependent-dp", "distributional-dp")
LIMIT = 3


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring constants of a module, its classes and its functions."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def spellings(root: Path = PACKAGE) -> Counter[str]:
    """How many string constants (docstrings aside) equal each notion's name."""
    count: Counter[str] = Counter()
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value in NAMES
                and id(node) not in docs
            ):
                count[node.value] += 1
    return count


def test_each_notion_name_is_written_in_at_most_three_places() -> None:
    count = spellings()
    over = {name: n for name, n in count.items() if n > LIMIT}
    assert not over, f"notion names written in more than {LIMIT} places: {over}"
    # every name is written somewhere: the registry holds each notion's class
    assert set(count) == set(NAMES), set(NAMES) - set(count)


def test_the_count_sees_a_fourth_spelling(tmp_path: Path) -> None:
    """The check can fail: a module that compares with a notion's name is counted."""
    (tmp_path / "a.py").write_text('NAME = "ibcdp"\nOTHER = ("ibcdp", "np")\n')
    (tmp_path / "b.py").write_text('def f(n):\n    """ibcdp"""\n    return n == "ibcdp"\n')
    assert spellings(tmp_path)["ibcdp"] == 3  # the docstring is not counted
    assert spellings(tmp_path)["np"] == 1

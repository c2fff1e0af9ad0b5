"""PMF, Weights and Ball are each defined once in pdpsym/ (one meaning each).

Source: the issue's naming rule, counted here over the module-level assignments of
pdpsym/'s syntax trees (before: PMF 8 times, Weights 5 with two meanings, Ball 4).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "pdpsym"
ALIASES = ("PMF", "Weights", "Ball")


def test_each_alias_is_defined_once() -> None:
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AnnAssign)
                else []
            )
            for t in targets:
                if isinstance(t, ast.Name) and t.id in ALIASES:
                    where[t.id].append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert {a: len(where[a]) for a in ALIASES} == dict.fromkeys(ALIASES, 1), dict(where)

"""No circle of imports among pdpsym's modules, counting every import statement: at the
top, inside a function (a lazy import), or under ``TYPE_CHECKING``. A lazy import that
goes back up hides a circle from Python but not from a reader. Source: the package's
files, parsed here with ``ast``; a package's ``__init__`` counts as a module."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "pdpsym"


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def import_graph(sources: Mapping[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """``{module: the modules of ``sources`` it imports}`` from ``{module: (source, is a
    package)}``: ``from a import b`` is an edge to ``a.b`` when that is a module, else to
    ``a``; relative imports are resolved."""
    graph: dict[str, set[str]] = {m: set() for m in sources}
    for mod, (source, is_package) in sources.items():
        package = mod if is_package else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                graph[mod] |= {a.name for a in node.names if a.name in sources}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join(up + ([node.module] if node.module else []))
                for a in node.names:
                    name = f"{base}.{a.name}"
                    if name in sources:
                        graph[mod].add(name)
                    elif base in sources:
                        graph[mod].add(base)
        graph[mod].discard(mod)
    return graph


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_the_check_sees_a_lazy_circle_through_a_package() -> None:
    # hand-written: p/__init__ imports p.a at the top, p.a imports the package's name
    # inside a function; p.b imports p.a only
    sources = {
        "p": ("from p.a import f\n", True),
        "p.a": ("def f():\n    from p import g\n", False),
        "p.b": ("from . import a\n", False),
    }
    assert circles(import_graph(sources)) == [["p", "p.a"]]
    sources["p.a"] = ("def f():\n    import json\n", False)  # the lazy import gone
    assert circles(import_graph(sources)) == []
    sources["p.a"] = ("def f():\n    from p.b import h\n", False)  # p.a <-> p.b
    assert circles(import_graph(sources)) == [["p.a", "p.b"]]


def test_no_import_circle_in_the_package() -> None:
    mods = _modules()
    assert len(mods) > 200  # the walk sees the package
    sources = {m: (p.read_text(encoding="utf-8"), p.name == "__init__.py") for m, p in mods.items()}
    found = circles(import_graph(sources))
    assert found == [], f"import circles (move the shared name below both): {found}"

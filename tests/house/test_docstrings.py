"""Rule 7 of docs/contributing.md, kept by a test.

Every public function of the library layers (``core``, ``models``, ``mechanisms``,
``loss``, ``papers``, ``audit``) documents its arguments, its result and where its math
comes from; every public method of a public class has a docstring; every function and
class that ``pdpsym`` exports carries a doctest (run by ``--doctest-modules``).

The check reads the source with :mod:`ast`, so it sees what a reader sees, not what an
import happens to bind. Sources: docs/contributing.md (rule 7) and the Google docstring
style's section names (``Args:``, ``Returns:``/``Yields:``, ``References:``).
"""

from __future__ import annotations

import ast
import inspect
import pathlib

import pytest

import pdpsym

ROOT = pathlib.Path(pdpsym.__file__).parent
LAYERS = ("core", "models", "mechanisms", "loss", "papers", "audit")


def _public_modules(layer: str) -> list[pathlib.Path]:
    out = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        rel = path.relative_to(ROOT).parts
        if any(part.startswith("_") and part != "__init__.py" for part in rel):
            continue
        out.append(path)
    return out


def _parameters(func: ast.FunctionDef) -> list[str]:
    args = func.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    if args.vararg is not None:
        names.append(args.vararg.arg)
    if args.kwarg is not None:
        names.append(args.kwarg.arg)
    return [n for n in names if n not in ("self", "cls")]


def _returns_nothing(func: ast.FunctionDef) -> bool:
    ret = func.returns
    return isinstance(ret, ast.Constant) and ret.value is None


def _registered(func: ast.FunctionDef) -> bool:
    # A claim checker or a figure has the one signature its registering decorator
    # documents (papers/claim.checker, papers/figure.figure); its own docstring says what
    # it checks or draws and cites the paper.
    for deco in func.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in ("checker", "figure"):
            return True
    return False


def _missing_sections(func: ast.FunctionDef) -> list[str]:
    doc = ast.get_docstring(func) or ""
    missing = []
    if not doc:
        return ["docstring"]
    if _registered(func):
        return [] if "References:" in doc else ["References:"]
    if _parameters(func) and "Args:" not in doc:
        missing.append("Args:")
    if not _returns_nothing(func) and "Returns:" not in doc and "Yields:" not in doc:
        missing.append("Returns:")
    if "References:" not in doc:
        missing.append("References:")
    return missing


def _problems(layer: str) -> list[str]:
    problems = []
    for path in _public_modules(layer):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(ROOT.parent)
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                missing = _missing_sections(node)
                if missing:
                    problems.append(f"{where}:{node.lineno} {node.name}: {', '.join(missing)}")
            elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                for item in node.body:
                    if (
                        isinstance(item, ast.FunctionDef)
                        and not item.name.startswith("_")
                        and not ast.get_docstring(item)
                    ):
                        problems.append(f"{where}:{item.lineno} {node.name}.{item.name}: docstring")
    return problems


@pytest.mark.parametrize("layer", LAYERS)
def test_public_functions_document_args_returns_references(layer: str) -> None:
    problems = _problems(layer)
    assert not problems, f"{len(problems)} undocumented:\n" + "\n".join(problems)


def test_docstring_check_can_fail() -> None:
    # A function with a parameter and a result but a one-line docstring must be caught.
    bare = ast.parse('def f(x: int) -> int:\n    """One line."""\n    return x\n').body[0]
    assert isinstance(bare, ast.FunctionDef)
    assert _missing_sections(bare) == ["Args:", "Returns:", "References:"]
    done = ast.parse(
        'def g() -> None:\n    """Do.\n\n    References:\n        Li et al., Eq. 2.\n    """\n'
    ).body[0]
    assert isinstance(done, ast.FunctionDef)
    assert _missing_sections(done) == []
    # a registered checker needs only its References (its signature is the decorator's)
    check = ast.parse(
        '@claim.checker("x.y")\ndef c(config):\n    """What.\n\n    References:\n        Eq. 2.\n    """\n'
    ).body[0]
    assert isinstance(check, ast.FunctionDef)
    assert _missing_sections(check) == []
    assert _missing_sections(ast.parse('@figure("x")\ndef d(s):\n    """What."""\n').body[0]) == [
        "References:"
    ]


def test_every_export_has_a_doctest() -> None:
    missing = [
        name
        for name in pdpsym.__all__
        if (inspect.isfunction(obj := getattr(pdpsym, name)) or inspect.isclass(obj))
        and ">>>" not in (obj.__doc__ or "")
    ]
    assert not missing, f"exports without a doctest: {missing}"

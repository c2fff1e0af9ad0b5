"""No code outside models/ asks which concrete model class it has: it asks the models'
protocols (the query law, the views of model_objects, a class of laws' flags and box
operations) instead. At most two ``isinstance`` checks on a concrete model class may
remain outside ``pdpsym/models/``.

Source: the package's own files, parsed here with ``ast`` (no pdpsym import).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "pdpsym"
#: the concrete model classes: the laws, and the interval chains (classes of laws with a
#: parameter box); a finite class or an interval product is asked by its flags where it
#: matters, but is not counted here
CONCRETE = (
    "IntervalChain",
    "IntervalChainK",
    "MarkovChain",
    "ProductModel",
    "BayesianNetwork",
    "JointDistribution",
    "GaussianModel",
    "RecordModel",
)
#: the most isinstance checks on them allowed outside models/
LIMIT = 2


def _names(node: ast.expr) -> list[str]:
    """The class names an isinstance's second argument tests: a name, ``mod.Name``, a
    tuple of them, or their union ``A | B``."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.Tuple):
        return [n for elt in node.elts for n in _names(elt)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _names(node.left) + _names(node.right)
    return []


def concrete_checks(source: str) -> list[tuple[int, str]]:
    """The ``isinstance`` calls in ``source`` that test a concrete model class.

    Args:
        source: Python source.

    Returns:
        ``(line, class name)`` per call (the first concrete class it names).
    """
    out = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "isinstance"
            and len(node.args) == 2
        ):
            hits = [n for n in _names(node.args[1]) if n in CONCRETE]
            if hits:
                out.append((node.lineno, hits[0]))
    return out


def test_the_counter_sees_every_form() -> None:
    # hand-written: a name, a module attribute, a tuple and a union each count once; a
    # class of laws (ModelClass) and a plain type do not
    src = (
        "isinstance(m, MarkovChain)\n"
        "isinstance(m, markov.MarkovChain)\n"
        "isinstance(m, (int, ProductModel))\n"
        "isinstance(c, IntervalChain | IntervalChainK)\n"
        "isinstance(c, ModelClass)\n"
        "isinstance(x, tuple)\n"
    )
    assert [line for line, _ in concrete_checks(src)] == [1, 2, 3, 4]


def test_every_concrete_class_is_defined_in_models() -> None:
    # a renamed class would silently leave the count at zero
    defined = {
        node.name
        for path in (PACKAGE / "models").glob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
    }
    assert set(CONCRETE) <= defined, sorted(set(CONCRETE) - defined)


def test_at_most_two_isinstance_checks_on_concrete_model_classes_outside_models() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line} ({name})"
        for path in sorted(PACKAGE.rglob("*.py"))
        if "models" not in path.relative_to(PACKAGE).parts[:1]
        for line, name in concrete_checks(path.read_text(encoding="utf-8"))
    ]
    assert len(found) <= LIMIT, (
        f"{len(found)} isinstance checks on concrete model classes outside models/ (at most "
        f"{LIMIT}; ask the model's protocol instead): {found}"
    )

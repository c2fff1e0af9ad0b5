"""Nothing outside pdpsym/models asks which class a model is (at most 2 places).

Source of the bound: the issue's acceptance rule (at most 2 ``isinstance`` checks on the
concrete model classes outside ``models/``); counted here over the syntax trees of
pdpsym/. The views the engines need instead are models.kinds' ``chain_of``,
``network_of`` and ``is_structured``, checked against the classes by hand below.
"""

from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

from pdpsym.models import model_objects
from pdpsym.models.joint import JointDistribution
from pdpsym.models.markov import MarkovChain
from pdpsym.models.product import ProductModel

ROOT = Path(__file__).resolve().parents[2] / "pdpsym"
CONCRETE = {"MarkovChain", "ProductModel", "BayesianNetwork", "JointDistribution"}


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
    }


def _checks() -> list[str]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        if path.relative_to(ROOT).parts[0] == "models":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "isinstance"
                and len(node.args) == 2
                and _names(node.args[1]) & CONCRETE
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_at_most_two_isinstance_checks_on_concrete_models_outside_models() -> None:
    found = _checks()
    assert len(found) <= 2, f"{len(found)} isinstance checks on model classes: {found}"


def test_the_views_answer_by_kind() -> None:
    # by hand: a two-state chain is a chain and no network; independent records neither
    chain = MarkovChain(["0", "1"], 2, ["1/2", "1/2"], [["1", "0"], ["0", "1"]])
    coins = ProductModel([(["0", "1"], ["1/2", "1/2"])] * 2)
    table = JointDistribution.from_rows(["a"], [[0, Fraction(1)]])
    assert model_objects.chain_of(chain) is chain and model_objects.network_of(chain) is None
    assert model_objects.chain_of(coins) is None and model_objects.network_of(coins) is None
    assert model_objects.is_structured(chain) and model_objects.is_structured(coins)
    assert not model_objects.is_structured(table) and model_objects.chain_of(table) is None
    # a table is a table; a chain and independent records are not
    assert model_objects.is_table(table)
    assert not model_objects.is_table(chain) and not model_objects.is_table(coins)

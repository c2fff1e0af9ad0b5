"""The top-level ``proofs/`` directory: one standalone sympy script per proved claim.

Each script re-derives the claim that ``pdpsym verify`` marks "proved" with sympy and
mpmath alone (and the standard library), so a reader can check it without the library.
Checked here: (1) the scripts cover exactly the claims frozen as "proved"; (2) none
imports ``pdpsym``; (3) every script's ``main()`` returns True, all in this one process
(sympy is imported once); (4) the shared spot check can fail: a false identity, a false
inequality and a wrong sign are caught.
"""

from __future__ import annotations

import ast
import importlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROOFS = ROOT / "proofs"
SCRIPTS = sorted(p for p in PROOFS.glob("*.py") if p.name != "spot.py")


@pytest.fixture(scope="module")
def modules() -> Iterator[dict[str, ModuleType]]:
    """Every proof script imported once, with ``proofs/`` on ``sys.path``."""
    sys.path.insert(0, str(PROOFS))
    try:
        yield {p.stem: importlib.import_module(p.stem) for p in SCRIPTS}
    finally:
        sys.path.remove(str(PROOFS))


def test_scripts_cover_exactly_the_proved_claims(modules: dict[str, ModuleType]) -> None:
    # the independent source: the frozen verdicts (another test keeps them equal to verify)
    frozen = json.loads((ROOT / "tests" / "verify" / "frozen_verdicts.json").read_text())
    proved = {c["id"] for c in frozen["claims"] if c["verdict"] == "proved"}
    claims = {m.CLAIM for m in modules.values()}
    assert claims == proved
    for name, m in modules.items():  # the file name is the claim id with . and - as _
        assert name == m.CLAIM.replace(".", "_").replace("-", "_")


@pytest.mark.parametrize("path", [*SCRIPTS, PROOFS / "spot.py"], ids=lambda p: p.name)
def test_no_script_imports_pdpsym(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert not [n for n in names if n.split(".")[0] == "pdpsym"]


def test_every_script_proves_its_claim(modules: dict[str, ModuleType]) -> None:
    failed = []
    for name, m in modules.items():
        try:
            ok = m.main()
        except AssertionError as why:  # a step of the derivation did not hold
            ok = why
        if ok is not True:
            failed.append((name, str(ok)))
    assert not failed


def test_spot_check_catches_false_statements(modules: dict[str, ModuleType]) -> None:
    import sympy as sp  # imported here: the module-level imports stay cheap for collection

    spot = sys.modules["spot"]
    x, y = sp.symbols("x y")
    draws = [(x, spot.rational), (y, spot.rational)]
    # (x + y)^2 = x^2 + y^2 is false off the axes (hand: the 2xy term)
    assert not spot.holds_at_random_points((x + y) ** 2, x**2 + y**2, draws)
    assert spot.holds_at_random_points((x + y) ** 2, x**2 + 2 * x * y + y**2, draws)
    # x^2 + 1 <= 0 is false everywhere
    assert not spot.holds_at_random_points(x**2 + 1, sp.Integer(0), draws, "<=")
    # e < 3 (e = 2.718...), e^2 - e*e = 0 exactly, e^(1/2) > 1
    assert spot.sign(sp.E - 3) == -1
    assert spot.sign(sp.exp(2) - sp.E * sp.E) == 0
    assert spot.sign(sp.exp(sp.Rational(1, 2)) - 1, 2) == 1
    assert spot.main() is True

"""Every proof script in proofs/ runs and returns True."""

import importlib.util
from pathlib import Path

import pytest

PROOFS = sorted(
    p
    for p in (Path(__file__).resolve().parents[2] / "pdpsym" / "proofs").glob("*.py")
    if p.stem != "__init__"
)


@pytest.mark.parametrize("path", PROOFS, ids=lambda p: p.stem)
def test_proof_script(path):
    spec = importlib.util.spec_from_file_location(f"proof_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main() is True

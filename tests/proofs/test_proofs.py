"""Every proof script in proofs/ runs and returns True."""

import importlib.util
from pathlib import Path

import pytest

PROOFS = sorted(
    p
    for p in (Path(__file__).resolve().parents[2] / "pdpsym" / "proofs").glob("*.py")
    if p.stem != "__init__"
)


@pytest.mark.parametrize(
    "path",
    [
        # lemma2_gaussian (about 15 s) also runs in the default suite as
        # tests/gaussian/test_gaussian_claims.py::test_lemma2_proof_script: here in -m slow
        pytest.param(p, marks=pytest.mark.slow) if p.stem == "lemma2_gaussian" else p
        for p in PROOFS
    ],
    ids=lambda p: p.stem,
)
def test_proof_script(path):
    spec = importlib.util.spec_from_file_location(f"proof_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main() is True

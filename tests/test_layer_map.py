"""docs/contributing.md's layer map names every module of the library layers.

Source: the package's own files, walked here; the map is the text between the first
code fence of the "The layers" section.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("core", "models", "mechanisms", "loss", "audit", "verify")


def _layer_map() -> str:
    text = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
    section = text[text.index("## The layers") :]
    start = section.index("```\n") + 4
    return section[start : section.index("```", start)]


def test_every_module_of_the_library_layers_is_in_the_layer_map() -> None:
    words = set(re.findall(r"[a-z_0-9]+", _layer_map()))
    missing = [
        f"{layer}/{path.stem}"
        for layer in LAYERS
        for path in sorted((ROOT / "pdpsym" / layer).glob("*.py"))
        if path.stem != "__init__" and path.stem not in words
    ]
    assert not missing, f"docs/contributing.md's layer map leaves out {missing}"

"""docs/contributing.md's layer map names every package and module of pdpsym/, top down.

Source: the package's own files, walked here; the map is the text between the first
code fence of the "The layers" section.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "pdpsym"
# every package of the library, nested ones included (papers/li2019/whg, app/commands)
PACKAGES = sorted(p.parent.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("__init__.py"))


def _layer_map() -> str:
    text = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
    section = text[text.index("## The layers") :]
    start = section.index("```\n") + 4
    return section[start : section.index("```", start)]


def test_every_module_of_the_library_layers_is_in_the_layer_map() -> None:
    words = set(re.findall(r"[a-z_0-9]+", _layer_map()))
    missing = [
        f"{package}/{path.stem}"
        for package in PACKAGES
        for path in sorted((PACKAGE / package).glob("*.py"))
        if path.stem != "__init__" and path.stem not in words
    ]
    assert not missing, f"docs/contributing.md's layer map leaves out {missing}"


def test_every_package_is_in_the_layer_map() -> None:
    words = set(re.findall(r"[a-z_0-9]+", _layer_map()))
    missing = [p for p in PACKAGES if p != "." and p.split("/")[-1] not in words]
    assert not missing, f"docs/contributing.md's layer map leaves out packages {missing}"


def test_the_layer_map_lists_the_import_linter_layers_in_order() -> None:
    # the layers contract of pyproject.toml, read here, against the picture's order
    import tomllib

    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in conf["tool"]["importlinter"]["contracts"] if c["type"] == "layers")
    layers = [
        name.strip().removeprefix("pdpsym.")
        for layer in contract["layers"]
        for name in layer.split("|")
    ]
    tops = [p for p in PACKAGES if p != "." and "/" not in p]
    assert sorted(layers) == sorted(tops), "every top-level package is in one layer"
    text = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
    picture = text[text.index("## The layers") :]
    order = [picture.index(f"{name}/") for name in layers]
    assert order == sorted(order), "the layer map lists the packages from the top layer down"

"""The version is written once (``pdpsym/_version.py``) and every place reads it.

Sources: pyproject.toml (read here with tomllib) must declare the version dynamic from
that attribute; the installed distribution's metadata (importlib.metadata, a peer of
the code under test) must equal what ``pdpsym --version`` prints.
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import pdpsym

ROOT = Path(__file__).resolve().parents[2]


def test_pyproject_reads_the_version_from_the_package() -> None:
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in conf["project"], "a second, static version"
    assert "version" in conf["project"]["dynamic"]
    assert conf["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "pdpsym._version.__version__"
    }


def _installed_from_here() -> bool:
    dist = importlib.metadata.distribution("pdpsym")
    url = json.loads(dist.read_text("direct_url.json") or "{}").get("url", "")
    return url.removeprefix("file://") == str(ROOT) or not url


def test_version_flag_equals_the_installed_metadata() -> None:
    if not _installed_from_here():
        pytest.skip("the installed pdpsym is an editable install of another checkout")
    out = subprocess.run(
        [sys.executable, "-m", "pdpsym", "--version"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout.strip()
    assert out == f"pdpsym {importlib.metadata.version('pdpsym')}", (
        "reinstall (pip install -e .) after a version change"
    )
    assert out == f"pdpsym {pdpsym.__version__}"

"""The li2019 package keeps the layer rules: no python-flint import (balls and precision
come through pdpsym.core), no global precision assignment. Source: docs/contributing.md,
rules 1-2. The one-concept-per-module size cap (650 total lines, docstrings included) is
checked for every module of pdpsym in tests/house/test_module_size.py."""

from __future__ import annotations

import re
from pathlib import Path

import pdpsym.papers.li2019 as li2019

ROOT = Path(li2019.__file__).parent
MODULES = sorted(ROOT.rglob("*.py"))


def test_no_flint_import() -> None:
    bad = [p for p in MODULES if re.search(r"^\s*(from flint|import flint)", p.read_text(), re.M)]
    assert bad == []


def test_no_global_precision() -> None:
    bad = [
        p for p in MODULES if re.search(r"mp\.dps\s*=|mp\.prec\s*=|ctx\.prec\s*=", p.read_text())
    ]
    assert bad == []

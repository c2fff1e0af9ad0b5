"""One concept per module: no module of pdpsym is over 650 lines, counting every line
(docstrings included: a module whose docstrings push it past the cap holds more than one
concept's worth of functions). Source: docs/contributing.md (the layers, one concept per
module)."""

from __future__ import annotations

from pathlib import Path

import pdpsym

ROOT = Path(pdpsym.__file__).parent
MODULES = sorted(ROOT.rglob("*.py"))
CAP = 650


def _total_lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_total_lines_count_every_line(tmp_path: Path) -> None:
    # hand count: a module docstring (1 line), a def (1), a 3-line docstring, a blank: 6
    p = tmp_path / "m.py"
    p.write_text('"""Module."""\ndef f() -> None:\n    """One.\n\n    Two."""\n\n')
    assert _total_lines(p) == 6


def test_the_walk_sees_the_package() -> None:
    # the cap is vacuous if the walk finds nothing; these modules exist (repository tree)
    names = {str(p.relative_to(ROOT)) for p in MODULES}
    assert {"__init__.py", "loss/plrv.py", "loss/leakage.py"} <= names


def test_no_module_over_650_lines() -> None:
    sizes = {str(p.relative_to(ROOT)): _total_lines(p) for p in MODULES}
    over = {name: n for name, n in sorted(sizes.items()) if n > CAP}
    assert over == {}, f"modules over {CAP} lines (split them by concept): {over}"

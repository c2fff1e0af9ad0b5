"""What a newcomer opens to follow ``pdpsym calibrate docs/examples/chain100.json --eps 1``
from the command down to core: the modules of pdpsym whose functions the command calls
(``benchmarks/call_path.py``, a profiler; import-time code left out). The path may
shrink; a module joining it must be argued (docs/benchmarks.md, "The call path of
calibrate") and added here."""

from __future__ import annotations

import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

#: the call path recorded in docs/benchmarks.md (26 modules)
RECORDED = {
    "pdpsym/app/budget.py",
    "pdpsym/app/cli.py",
    "pdpsym/app/commands/calibrate.py",
    "pdpsym/app/options.py",
    "pdpsym/app/output.py",
    "pdpsym/app/readers.py",
    "pdpsym/audit/calibrate.py",
    "pdpsym/audit/calibration.py",
    "pdpsym/core/balls.py",
    "pdpsym/core/certify.py",
    "pdpsym/core/compare.py",
    "pdpsym/core/decimals.py",
    "pdpsym/core/errors.py",
    "pdpsym/core/numbers.py",
    "pdpsym/core/poly.py",
    "pdpsym/loss/chain_all_targets.py",
    "pdpsym/loss/chain_float_screen.py",
    "pdpsym/loss/count_leakage.py",
    "pdpsym/loss/count_leakage_work.py",
    "pdpsym/loss/count_mixtures.py",
    "pdpsym/loss/leakage_result.py",
    "pdpsym/loss/shortcuts.py",
    "pdpsym/mechanisms/mqm.py",
    "pdpsym/models/counts.py",
    "pdpsym/models/markov.py",
    "pdpsym/models/model_objects.py",
}


def _call_path() -> tuple[int, set[str]]:
    spec = importlib.util.spec_from_file_location("call_path", REPO / "benchmarks" / "call_path.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rc, called, _parser_only = mod.call_path(
        ["calibrate", str(REPO / "docs" / "examples" / "chain100.json"), "--eps", "1"]
    )
    return rc, set(called)


def test_calibrate_call_path_does_not_grow() -> None:
    rc, path = _call_path()
    assert rc == 0
    assert "pdpsym/loss/count_leakage.py" in path  # the profiler sees the engine
    added = sorted(path - RECORDED)
    assert not added, (
        f"calibrate's call path grew to {len(path)} modules, with {added}: fold the code into "
        "a module already on the path, or argue it in docs/benchmarks.md and record it here"
    )

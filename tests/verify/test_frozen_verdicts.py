"""Every verdict of the default run equals the frozen file.

The frozen file is the record of what the project has decided; it changes only in a
commit that explains each changed verdict or counterexample. The comparison ignores
seconds and the wording of the evidence.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

FROZEN = Path(__file__).with_name("frozen_verdicts.json")


def test_default_verdicts_equal_the_frozen_file() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "pdpsym", "verify", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    got = json.loads(run.stdout)["claims"]
    want = json.loads(FROZEN.read_text(encoding="utf-8"))["claims"]
    assert [c["id"] for c in got] == [c["id"] for c in want]
    for g, w in zip(got, want, strict=True):
        assert (g["id"], g["verdict"]) == (w["id"], w["verdict"])
        assert g["counterexample"] == w["counterexample"], g["id"]

"""The Section 2/3/5 checkers of Desfontaines et al.: one counterexample's facts and the CLI.

Every verdict and method is asserted in one place, tests/verify/test_frozen_verdicts.py.
"""

from __future__ import annotations

import subprocess
import sys

from pdpsym.verify import RunConfig, run_claim


def test_thm6_counterexample_is_the_and_gate() -> None:
    cx = run_claim("dmkb2020.thm6", RunConfig()).counterexample
    assert cx is not None
    assert (cx["e^L"], cx["e^L1"], cx["e^L2"], cx["e^L2_given_O1"]) == ("2", "2", "2", "1")
    assert cx["factor1_holds_here"] is True


def test_verify_cli_lists_my_claims() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pdpsym",
            "verify",
            "--claim",
            "dmkb2020.thm6.subadditivity",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert '"dmkb2020.thm6.subadditivity"' in out and '"proved"' in out

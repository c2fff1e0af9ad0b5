"""The command line parses before the engines load: `pdpsym --help` and every
`pdpsym CMD --help` run without importing sympy or flint (no timing here: the ratio to
`import numpy` is measured by benchmarks/bench_startup.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pdpsym.app.cli import build_parser

# (the figure registry: ten dataclasses, about 4 ms of every command's start-up)
HEAVY = ("sympy", "flint", "numpy", "pdpsym.verify", "pdpsym.papers.li2019", "pdpsym.claims.figure")

_PROBE = """
import contextlib, io, json, sys
from pdpsym.app.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main(sys.argv[1:])
    except SystemExit as e:
        assert e.code == 0, e.code
print(json.dumps(sorted(m for m in {heavy!r} if m in sys.modules)))
"""


def _commands() -> list[list[str]]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    out = []
    for name, child in sub.choices.items():  # type: ignore[attr-defined]
        out.append([name])
        for a in child._actions:
            if a.__class__.__name__ == "_SubParsersAction":
                out += [[name, leaf] for leaf in a.choices]  # type: ignore[attr-defined]
    return out


def test_help_of_every_command_loads_no_engine() -> None:
    argvs = [["--help"]] + [[*cmd, "--help"] for cmd in _commands()]
    assert len(argvs) > 8  # verify, leakage, table, ... and oracle's two actions
    for argv in argvs:
        proc = subprocess.run(
            [sys.executable, "-c", _PROBE.format(heavy=HEAVY), *argv],
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 0, (argv, proc.stderr)
        assert json.loads(proc.stdout) == [], (argv, "loaded before parsing")


def test_the_help_copies_of_library_choices_match_the_library() -> None:
    # the command modules keep these copies so that --help loads no engine
    from pdpsym.app import oracle
    from pdpsym.app.commands import audit as audit_cmd
    from pdpsym.app.commands import figure as figure_cmd
    from pdpsym.app.commands import oracle as oracle_cmd
    from pdpsym.app.commands import whg as whg_cmd
    from pdpsym.audit import ALL_NOTIONS, NOTIONS
    from pdpsym.audit.registry import NAMED_NOTIONS
    from pdpsym.claims.figure import Scale
    from pdpsym.models.neighbours import DDPReading
    from pdpsym.papers.li2019.edges import EdgeReading
    from pdpsym.papers.li2019.whg import BottomRule
    from pdpsym.papers.li2019.whg.batch import MAX_BATCH_DIGITS

    assert audit_cmd.NOTIONS == NOTIONS and audit_cmd.ALL_NOTIONS == ALL_NOTIONS
    assert audit_cmd.NAMED_NOTIONS == NAMED_NOTIONS
    assert audit_cmd.DDP_READINGS == tuple(r.value for r in DDPReading)
    assert oracle_cmd.FAMILIES == oracle.FAMILIES
    assert whg_cmd.READINGS == tuple(r.value for r in EdgeReading)
    assert whg_cmd.BOTTOMS == tuple(b.value for b in BottomRule)
    assert whg_cmd.BATCH_DIGITS == MAX_BATCH_DIGITS
    assert figure_cmd.SCALES == tuple(s.value for s in Scale)


def test_the_package_names_load_on_first_use() -> None:
    probe = (
        "import sys, pdpsym as ps, pdpsym.core as core\n"
        "before = 'sympy' in sys.modules\n"
        "m = ps.JointDistribution.from_rows(['x1'], [[0, '1/2'], [1, '1/2']])\n"
        "print(before, callable(ps.audit), callable(ps.verify), core.certify is not None)"
    )
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert proc.stdout.split() == ["False", "True", "True", "True"]


def test_structured_leakage_loads_no_sympy(tmp_path) -> None:
    """`pdpsym leakage CHAIN --all-targets` certifies with balls alone: sympy (the
    closed forms) and tqdm (no terminal, no bar) stay unloaded."""
    model = tmp_path / "chain.json"
    model.write_text(
        json.dumps(
            {
                "kind": "markov-chain",
                "length": 30,
                "states": ["0", "1"],
                "initial": "stationary",
                "transition": [["9/10", "1/10"], ["1/10", "9/10"]],
            }
        )
    )
    argv = ["leakage", str(model), "--all-targets", "--json"]
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE.format(heavy=("sympy", "tqdm")), *argv],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []


def test_the_batch_whg_loads_no_sympy(tmp_path: Path) -> None:
    # `pdpsym whg MODEL --json` on a binary full-support table runs the batch engine,
    # which certifies floats and balls: sympy loads only for an exact symbolic form
    rows = [
        [a, b, c, f"{1 + a + 2 * b + 4 * c}/36"] for a in (0, 1) for b in (0, 1) for c in (0, 1)
    ]
    model = tmp_path / "m.json"
    model.write_text(json.dumps({"variables": ["x1", "x2", "x3"], "rows": rows}))
    probe = _PROBE.format(heavy=("sympy",))
    proc = subprocess.run(
        [sys.executable, "-c", probe, "whg", str(model), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []


_LOADED = """
import contextlib, io, json, sys
from pdpsym.app.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    assert main(sys.argv[1:]) == 0
print(json.dumps(sorted(m for m in sys.modules if m.startswith("pdpsym."))))
"""


def _loaded(argv: list[str]) -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-c", _LOADED, *argv], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_chains_commands_load_no_network_module() -> None:
    # the network's graph passes, junction trees and quilts load with the first network:
    # a chain's leakage and calibration start without them (a dozen modules)
    chain = "docs/examples/chain100.json"
    for argv in (
        ["leakage", chain, "--all-targets", "--lam", "1", "--json"],
        ["calibrate", chain, "--eps", "1"],
    ):
        loaded = _loaded(argv)
        assert "pdpsym.models.markov" in loaded  # the probe saw the run
        assert [m for m in loaded if "bayesnet" in m or "network" in m] == [], argv
    # and a network's run loads them
    net = _loaded(["leakage", "docs/examples/network2.json", "--target", "rain", "--lam", "1"])
    assert "pdpsym.models.bayesnet" in net

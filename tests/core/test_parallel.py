"""Parallel and distributed runs give the serial results, in the serial order.

Source of every expectation: the serial run of the same work (``jobs=1``), which is
the plain definition; the parallel paths must reproduce it byte for byte.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from pdpsym.core.errors import InputError
from pdpsym.core.parallel import ordered_map


def _slow_square(x: int) -> int:
    time.sleep(0.02 * (5 - x))  # the first items finish last
    return x * x


def test_order_is_the_input_order_whatever_finishes_first() -> None:
    items = list(range(6))
    done: list[int] = []
    got = ordered_map(_slow_square, items, jobs=2, on_done=done.append)
    assert got == [x * x for x in items]
    assert sorted(done) == items


def test_local_dask_cluster_gives_the_serial_result() -> None:
    pytest.importorskip("dask.distributed")
    items = list(range(6))
    assert ordered_map(_slow_square, items, jobs=2, scheduler="local") == [x * x for x in items]


def test_without_dask_the_scheduler_is_a_clear_input_error(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # import fails
    with pytest.raises(InputError) as err:
        ordered_map(abs, [1], scheduler="local")
    assert err.value.field == "scheduler" and "pdpsym[dask]" in str(err.value)


def _verify(*flags: str) -> list[dict]:
    run = subprocess.run(
        [sys.executable, "-m", "pdpsym", "verify", "--json", *flags],
        capture_output=True,
        text=True,
        check=True,
    )
    claims = json.loads(run.stdout)["claims"]
    for c in claims:
        c.pop("seconds")
    return claims


SUBSET = ["--claim", "li2019.thm2", "--claim", "dmkb2020.thm6", "--claim", "lmm2016.thm6"]


@pytest.mark.slow  # dask clusters in subprocesses, about 15 s; smoke test above
def test_verify_on_two_processes_and_on_dask_equals_serial() -> None:
    pytest.importorskip("dask.distributed")
    serial = _verify(*SUBSET, "--jobs", "1")
    assert _verify(*SUBSET, "--jobs", "2") == serial
    assert _verify(*SUBSET, "--jobs", "2", "--scheduler", "local") == serial


@pytest.mark.slow  # dask clusters in subprocesses, about 15 s; smoke test above
def test_figure_on_dask_is_byte_identical() -> None:
    pytest.importorskip("dask.distributed")
    argv = [sys.executable, "-m", "pdpsym", "figure", "dmkb2020.fig4", "--scale", "quick"]
    serial = subprocess.run([*argv, "--jobs", "1"], capture_output=True, check=True).stdout
    dask = subprocess.run(
        [*argv, "--jobs", "2", "--scheduler", "local"], capture_output=True, check=True
    ).stdout
    assert dask == serial


@pytest.mark.slow
def test_thorough_verify_on_dask_equals_serial() -> None:
    pytest.importorskip("dask.distributed")
    assert _verify("--thorough", "--jobs", "2", "--scheduler", "local") == _verify(
        "--thorough", "--jobs", "1"
    )

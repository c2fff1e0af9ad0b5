"""A command's work: estimated and refused before anything is allocated when it is over
``--max-work``, and reported while it runs (a progress bar on stderr).

The work of a request is counted in "steps", roughly the array cells or exact
operations its largest phase needs (estimates from the model's shape, never from
running it). A step is calibrated as about a microsecond of CPU time, each estimate
within 3x of the measured time (benchmarks/bench_estimates.py). The default limit, 10^8
steps, keeps a request within a few GiB and about two minutes of CPU; ``--max-work N``
raises it.

Long runs (``verify --thorough``, all adversaries of a large table) report progress
with tqdm's count, rate and time estimate (:class:`Progress`), shown only on a terminal
or when forced; stdout (tables, JSON) is never touched.
"""

from __future__ import annotations

import argparse
import sys
from types import TracebackType
from typing import Any

from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_int

DEFAULT_MAX_WORK = 10**8
#: the largest ``--max-work`` the flag accepts: work above it is not run at any setting
MAX_WORK_CEILING = 10**18
# every command's work starts here: the package, reading its input, certifying its
# output (checked by the CLI before any command, so --max-work is validated, and a
# limit below it refuses every command at once)
FIXED_WORK = 10**3
# what a command costs beyond its imports whatever its input (reading the input, building
# and certifying its output): 35 to 55 ms of CPU measured; added to every command's own
# estimate, so that a small request's estimate tracks its time too
COMMAND_BASE = 3 * 10**4
MAX_FILE_BYTES = 64 * 2**20

#: a calibration's work in units of one all-targets pass (the bisection's leakage passes;
#: ``calibrate`` and the calibration over a class of laws estimate with it)
CALIBRATION_PASSES = 6


def add_flag(parser: argparse.ArgumentParser) -> None:
    """Give a command the ``--max-work`` flag."""
    parser.add_argument(
        "--max-work",
        default=None,
        metavar="N",
        help=f"refuse requests estimated above N steps (default {DEFAULT_MAX_WORK:.0e})",
    )


def check(
    args: argparse.Namespace,
    work: int,
    what: str,
    cheaper: str | None = None,
    base: int = COMMAND_BASE,
) -> None:
    """Raise InputError (exit 2) when ``work`` plus ``base`` (a command's fixed cost)
    exceeds the request's limit; the message names the flag and, when given, the
    ``cheaper`` way to a smaller request."""
    limit = max_work(args)
    work += base
    if work > limit:
        alternative = f"; {cheaper}" if cheaper else ""
        raise InputError(
            "--max-work",
            f"{what} needs about {size(work)} steps, above the limit {size(limit)}; "
            f"{runs_anyway(work)}{alternative}",
        )


def runs_anyway(work: int) -> str:
    """How a refusal of ``work`` steps ends: ``raise --max-work to run it anyway`` when
    a value the flag accepts runs it, else that no value does (the work is over
    :data:`MAX_WORK_CEILING`: it cannot run on this machine at all).

    >>> runs_anyway(10**9)
    'raise --max-work to run it anyway'
    >>> runs_anyway(10**24)
    'that is over the ceiling 10^18 of --max-work: it cannot run on this machine at all'
    """
    if work <= MAX_WORK_CEILING:
        return "raise --max-work to run it anyway"
    return (
        f"that is over the ceiling {size(MAX_WORK_CEILING)} of --max-work: it cannot run "
        "on this machine at all"
    )


def max_work(args: argparse.Namespace) -> int:
    """The ``--max-work`` limit of a request: an integer >= 1, else InputError naming it."""
    raw = getattr(args, "max_work", None)
    return DEFAULT_MAX_WORK if raw is None else parse_int(raw, "--max-work", 1, MAX_WORK_CEILING)


def size(k: int) -> str:
    """``1.1e+09`` for a count of any size (no float overflow, no 4300-digit string)."""
    if k < 10**15:
        return f"{float(k):.1e}"
    return f"10^{k.bit_length() * 30103 // 100000}"


class Progress:
    """``with Progress(total, "label") as bar: bar.update(1, note)``.

    ``enabled=None`` shows the bar only when stderr is a terminal; ``delay`` (seconds)
    keeps short runs silent (tqdm's ``delay``).
    """

    def __init__(
        self, total: int, label: str = "", enabled: bool | None = None, delay: float = 0.0
    ) -> None:
        self.total = max(total, 1)
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self._bar: Any = None
        if not self.enabled:
            return  # no bar: tqdm is not even imported (it costs a tenth of a second)
        from tqdm import tqdm  # noqa: PLC0415

        self._bar = tqdm(
            total=self.total,
            desc=label,
            file=sys.stderr,
            delay=delay,
            dynamic_ncols=True,
            leave=True,
        )

    def update(self, n: int = 1, note: str = "") -> None:
        if self._bar is None:
            return
        if note:
            self._bar.set_postfix_str(note[:40], refresh=False)
        self._bar.update(n)

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.close()

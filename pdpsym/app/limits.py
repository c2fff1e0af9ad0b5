"""Upfront limits: estimate a request's work before allocating anything, and refuse
what would not finish.

The work of a request is counted in "steps", roughly the array cells or exact
operations its largest phase needs (estimates from the model's shape, never from
running it). A step is calibrated as about a microsecond of CPU time, each estimate
within 3x of the measured time (benchmarks/bench_estimates.py). The default limit, 10^8
steps, keeps a request within a few GiB and about two minutes of CPU; ``--max-work N``
raises it.
"""

from __future__ import annotations

import argparse

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

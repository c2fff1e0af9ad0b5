"""Options shared by the commands, and the parsers of their text values.

Every parser raises :class:`~pdpsym.core.errors.InputError` naming the flag, so a bad
value exits 2 with one line; nothing here evaluates user text.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from pdpsym.app.help import COMMANDS
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_int, parse_rational


def command(sub: Any, name: str, func: Callable[..., int] | None = None) -> argparse.ArgumentParser:
    """The parser of command ``name`` (``"oracle export"`` for a sub-action), with its help."""
    summary, description = COMMANDS[name]
    p: argparse.ArgumentParser = sub.add_parser(
        name.split()[-1], help=summary, description=description
    )
    if func is not None:
        p.set_defaults(func=func)
    return p


MODEL_FILES = (
    "model file (.json, .toml or .csv; a markov-chain, product or bayesian-network model, "
    "or a .bif file)"
)


def add_instance(
    p: argparse.ArgumentParser,
    target: str,
    known: str,
    *,
    model: str = MODEL_FILES,
    target_required: bool = False,
) -> None:
    """MODEL, ``--target`` and ``--known``: the instance a command is asked about."""
    p.add_argument("model", metavar="MODEL", help=model)
    p.add_argument("--target", required=target_required, default=None, help=target)
    p.add_argument("--known", default="", help=known)


def add_output(p: argparse.ArgumentParser, digits: int) -> None:
    """``--digits`` (certified significant digits) and ``--json``."""
    p.add_argument(
        "--digits", default=str(digits), help=f"certified significant digits (default {digits})"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")


def digits(text: str, most: int = 1000) -> int:
    return parse_int(text, "--digits", 1, most)


def names(text: str | None, flag: str = "--known") -> list[str]:
    """A comma-separated list of variable names (empty text: none)."""
    if not text:
        return []
    out = [t.strip() for t in text.split(",")]
    if any(not n for n in out):
        raise InputError(flag, f"empty variable name in {text!r}")
    return out


def weights(text: str | None, flag: str = "--weights") -> dict[str, Fraction]:
    """``NAME=w,...`` with exact numbers w."""
    out: dict[str, Fraction] = {}
    for part in (x.strip() for x in (text or "").split(",")):
        if not part:
            continue
        if "=" not in part:
            raise InputError(flag, f"expected NAME=w, got {part!r}")
        name, value = (s.strip() for s in part.split("=", 1))
        if not name or name in out:
            raise InputError(flag, f"empty or repeated name in {part!r}")
        out[name] = parse_rational(value, flag)
    return out


def add_parallel(p: argparse.ArgumentParser, what: str) -> None:
    """``--jobs`` (processes, default every core) and ``--scheduler`` (Dask)."""
    p.add_argument(
        "--jobs",
        default=None,
        metavar="N",
        help=f"processes to run {what} on (default: every core); the output does not depend on it",
    )
    p.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="run on a Dask cluster: 'local' starts one with --jobs workers, else the "
        "scheduler's address (tcp://host:8786); needs pip install 'pdpsym[dask]'",
    )


def jobs(args: argparse.Namespace) -> int:
    if args.jobs is None:
        return os.cpu_count() or 1
    return parse_int(args.jobs, "--jobs", 1, 256)


def epsilon(text: object, field: str = "--eps", logs: bool = False) -> Fraction:
    """An epsilon as a rational, its error saying which forms epsilon takes.

    The generic hint of :func:`~pdpsym.core.numbers.parse_rational` ("3/10, 0.3 or -2")
    would suggest a negative epsilon; ``logs`` says whether the command also takes
    ``ln(q)`` (parsed by the caller before this).
    """
    try:
        return parse_rational(text, field)
    except InputError as err:
        if not err.message.startswith("not a number"):
            raise
        forms = (
            "1/2, 0.1, 1e-3, ln(3) or log(3/2); quote ln(3) in the shell: 'ln(3)'"
            if logs
            else "1/2, 0.1 or 1e-3; this command takes rational epsilons only, no ln(...)"
        )
        head = err.message.split(" (use forms")[0]
        raise InputError(field, f"{head} (epsilon >= 0, in forms like {forms})") from None

"""Options shared by the commands, and the parsers of their text values.

Every parser raises :class:`~pdpsym.core.errors.InputError` naming the flag, so a bad
value exits 2 with one line; nothing here evaluates user text.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pdpsym.app.help import COMMANDS
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_int, parse_rational

if TYPE_CHECKING:
    from pdpsym.core.eps import Eps


def command(sub: Any, name: str, func: Callable[..., int] | None = None) -> argparse.ArgumentParser:
    """The parser of command ``name`` (``"oracle export"`` for a sub-action), with its help."""
    summary, description = COMMANDS[name]
    p: argparse.ArgumentParser = sub.add_parser(
        name.split()[-1], help=summary, description=description
    )
    if func is not None:
        p.set_defaults(func=func)
    return p


def described_command(
    sub: Any, name: str, summary: str, description: str
) -> argparse.ArgumentParser:
    """The parser of command ``name`` whose long ``description`` keeps its own line breaks
    (examples and tables in ``--help``), listed with ``summary``."""
    p: argparse.ArgumentParser = sub.add_parser(
        name,
        help=summary,
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return p


MODEL_FILES = "model file (.json, .toml, .csv; or a .bif, .xmlbif, .uai network, also gzipped)"


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


#: the CLI's default tolerance on a network table row's sum (files round their rows)
ROW_TOLERANCE = "1e-6"


def add_rows(p: argparse.ArgumentParser) -> None:
    """``--row-tolerance`` and ``--exact-rows``: how a network file's table rows that do
    not sum to exactly 1 are read."""
    p.add_argument(
        "--row-tolerance",
        default=ROW_TOLERANCE,
        metavar="T",
        help=f"network files: a row within T of 1 is divided by its sum (default {ROW_TOLERANCE})",
    )
    p.add_argument(
        "--exact-rows",
        action="store_true",
        help="network files: refuse rows that do not sum to exactly 1",
    )


def row_tolerance(args: argparse.Namespace) -> Fraction | None:
    """The tolerance of ``--row-tolerance`` (None with ``--exact-rows``)."""
    if getattr(args, "exact_rows", False):
        return None
    text = getattr(args, "row_tolerance", None) or ROW_TOLERANCE
    t = parse_rational(text, "--row-tolerance")
    if t < 0 or t >= 1:
        raise InputError("--row-tolerance", f"must be in [0, 1), got {text!r}")
    return t


def add_network_query(p: argparse.ArgumentParser) -> None:
    """``--count`` and ``--sum``: the query of a Bayesian network."""
    p.add_argument(
        "--count",
        default=None,
        metavar="NODE,...=STATE",
        help="networks: count these records in STATE, e.g. --count HYPOVOLEMIA,LVFAILURE=TRUE",
    )
    p.add_argument(
        "--sum",
        default=None,
        metavar="NODE,...",
        help="networks: sum these records' state values (the others count 0), e.g. --sum CVP,PCWP",
    )


def network_query(args: argparse.Namespace, model: Any) -> Any:
    """The model with the query of ``--count`` / ``--sum`` (unchanged without them)."""
    count = getattr(args, "count", None)
    total = getattr(args, "sum", None)
    if count is None and total is None:
        return model
    if count is not None and total is not None:
        raise InputError("--count", "give --count or --sum, not both")
    if not hasattr(model, "count_query"):
        raise InputError("--count" if count else "--sum", "needs a Bayesian network model")
    if count is not None:
        if "=" not in count:
            raise InputError("--count", f"expected NODE,...=STATE, got {count!r}")
        nodes, state = count.rsplit("=", 1)
        return model.count_query(names(nodes, "--count"), state.strip())
    return model.sum_query(names(total, "--sum"))


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


def target_or_all(args: argparse.Namespace) -> None:
    """Refuse unless exactly one of ``--target`` and ``--all-targets`` is given."""
    if args.all_targets and args.target is not None:
        raise InputError("--target", "give --target or --all-targets, not both")
    if not args.all_targets and args.target is None:
        raise InputError("--target", "name the target record (or pass --all-targets)")


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


def integer_weights(text: str | None) -> dict[str, int] | None:
    """``NAME=w,...`` with integer weights (structured models); None without text."""
    if not text:
        return None
    out: dict[str, int] = {}
    for name, w in weights(text).items():
        if w.denominator != 1:
            raise InputError("--weights", f"structured models take integer weights, got {name}={w}")
        out[name] = int(w)
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


_LOG = re.compile(r"^(?:ln|log)\((.*)\)$")


def parse_eps(text: str, field: str = "--eps") -> Eps:
    """An ε flag in the exact grammar: ``1/2``, ``0.1``, or ``ln(q)`` / ``log(q)``.

    Args:
        text: the flag's text.
        field: the flag, for the error.

    Returns:
        The exact ε (a rational, or ``ln q`` with a rational ``q >= 1``).

    Raises:
        InputError: ``field``, when the text is none of these or ε < 0.

    References:
        Desfontaines et al. (2020), Section 3 (ε = ln w for the δ of APKDP and PPKDP).
    """
    from pdpsym.core.eps import Eps  # imported here (engines load after --help)

    m = _LOG.match(text.strip())
    if m:
        q = parse_rational(m.group(1), field)
        if q < 1:
            raise InputError(field, "ln(q) needs q >= 1 (epsilon >= 0)")
        return Eps.log(q)
    e = epsilon(text, field, logs=True)
    if e < 0:
        raise InputError(field, "must be >= 0")
    return Eps.of(e)

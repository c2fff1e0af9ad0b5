"""The ``pdpsym`` command.

Sub-commands live next to the code they drive: each module in ``COMMAND_MODULES`` has
``register(subparsers)``, which adds its parsers and sets ``func`` to a handler
``(args) -> int``. Bad input of any kind exits with status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from pdpsym.core.errors import InputError

COMMAND_MODULES: tuple[str, ...] = (
    "pdpsym.app.commands.verify",
    "pdpsym.app.commands.leakage",
    "pdpsym.app.commands.partial",
    "pdpsym.app.commands.gaussian",
    "pdpsym.app.commands.whg",
    "pdpsym.app.commands.oracle",
    "pdpsym.app.commands.audit",
)


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (status 2) instead of usage dumps."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"pdpsym: error: {message} (see --help)\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="pdpsym",
        description=(
            "Exact privacy leakage under data correlation and partial knowledge, and a "
            "claim-by-claim verifier for Li et al. (PDP), Desfontaines et al. (partial "
            "knowledge) and Liu et al. (dependent DP)."
        ),
    )
    from pdpsym import __version__

    parser.add_argument("--version", action="version", version=f"pdpsym {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except InputError as err:
        sys.stderr.write(f"pdpsym: error: {err}\n")
        return 2
    except BrokenPipeError:
        return 1
    except KeyboardInterrupt:
        # one line, no traceback; file writers are atomic, so nothing is left half-written
        sys.stderr.write("\npdpsym: interrupted\n")
        return 130


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

"""The ``pdpsym`` command.

Each module in ``COMMAND_MODULES`` has ``register(subparsers)``, which adds its parsers
and sets ``func`` to a handler ``(args) -> int``.

:func:`main` is the one error boundary. Bad input, a resource limit or a comparison
undecided at the precision budget exits 2 with one line naming the field (library
errors name the parameter; here it becomes the flag the user typed). Anything else is
a bug: exit 1 with one line, "internal error: ..., please report" (``--debug`` shows
the traceback). Ctrl-C exits 130 with one line. The handler is installed before the
heavy imports (sympy, flint), so it holds from the first moment.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

COMMAND_MODULES: tuple[str, ...] = (
    "pdpsym.app.commands.verify",
    "pdpsym.app.commands.leakage",
    "pdpsym.app.commands.partial",
    "pdpsym.app.commands.gaussian",
    "pdpsym.app.commands.whg",
    "pdpsym.app.commands.oracle",
    "pdpsym.app.commands.audit",
    "pdpsym.app.commands.figure",
    "pdpsym.app.commands.calibrate",
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
    parser.add_argument(
        "--debug", action="store_true", help="show the traceback of an internal error"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    from pdpsym.app import limits

    def leaves(p: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
        subs = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            return [p]
        return [leaf for s in subs for child in s.choices.values() for leaf in leaves(child)]

    for leaf in leaves(parser):
        limits.add_flag(leaf)
    return parser


def _interrupted(signum: int, frame: Any) -> None:
    sys.stderr.write("pdpsym: interrupted\n")
    sys.stderr.flush()
    if "multiprocessing" in sys.modules:  # worker processes (verify --jobs) end with us
        for child in sys.modules["multiprocessing"].active_children():
            child.kill()
    os._exit(130)  # no cleanup to run: every file is written atomically


def quote(text: object) -> str:
    """User text for a message, escaped so that one line stays one line."""
    s = str(text)
    return s if s.isprintable() else repr(s)[1:-1]


# library parameter names that are not simply the flag --NAME
_FLAGS = {"fast_k": "--fast", "model": "MODEL", "claim_id": "--claim", "b_max": "--bmax"}


def _flag(field: str, args: argparse.Namespace) -> str:
    head = field.split("[", 1)[0].split(".", 1)[0]
    rest = field[len(head) :]
    rest = " " + rest[1:] if rest.startswith(".") else rest  # weights.x2 -> --weights x2
    if head in _FLAGS:
        return _FLAGS[head] + rest
    if head and not head.startswith("-") and hasattr(args, head) and head.isidentifier():
        return "--" + head.replace("_", "-") + rest
    return field


def _fail(message: str) -> None:
    line = " ".join(quote(message).split("\n"))
    sys.stderr.write(f"pdpsym: error: {line}\n")


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _interrupted)
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    argv = [a for a in argv if a != "--debug"]
    from pdpsym.core.errors import InputError, Undecided  # after the Ctrl-C handler

    # user numbers are capped at core.numbers.MAX_DIGITS by the grammar; exact results
    # (a 5000-digit denominator, say) legitimately print past Python's 4300-digit default
    sys.set_int_max_str_digits(1_000_000)

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except InputError as err:
        _fail(f"{_flag(err.field, args)}: {err.message}")
        return 2
    except Undecided as err:
        _fail(f"undecided at the precision budget ({err.prec} bits): {err.what}")
        return 2
    except MemoryError:
        _fail("out of memory: the request is too large for this machine")
        return 2
    except RecursionError:
        _fail("input nested too deeply")
        return 2
    except BrokenPipeError:
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("pdpsym: interrupted\n")
        return 130
    except Exception as err:
        if debug:
            raise
        _fail(f"internal error: {type(err).__name__}: {err}, please report (--debug shows where)")
        return 1


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

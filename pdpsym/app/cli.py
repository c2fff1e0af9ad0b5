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

from pdpsym._version import __version__
from pdpsym.app import budget
from pdpsym.app import help as texts
from pdpsym.app.text import escape, one_line

COMMAND_MODULES: tuple[str, ...] = (
    "pdpsym.app.commands.verify",
    "pdpsym.app.commands.leakage",
    "pdpsym.app.commands.counting_threshold",
    "pdpsym.app.commands.gaussian",
    "pdpsym.app.commands.whg",
    "pdpsym.app.commands.oracle",
    "pdpsym.app.commands.audit",
    "pdpsym.app.commands.figure",
    "pdpsym.app.commands.calibrate",
    "pdpsym.app.commands.temporal",
)


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (status 2) instead of usage dumps."""

    def error(self, message: str) -> NoReturn:
        # argparse echoes the user's argument: a newline or a carriage return in it must
        # not split the line, a bidi override must not reorder it, a long one is elided
        from pdpsym.app.text import one_line  # small, no heavy imports

        sys.stderr.write(f"pdpsym: error: {one_line(message)} (see --help)\n")
        raise SystemExit(2)

    def format_help(self) -> str:
        # the examples end the help, as written (argparse would re-wrap an epilog)
        return super().format_help() + getattr(self, "examples", "")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="pdpsym",
        description=(
            "Exact privacy leakage under data correlation and partial knowledge, and a "
            "claim-by-claim verifier for Li et al. (PDP), Desfontaines et al. (partial "
            "knowledge) and Liu et al. (dependent DP)."
        ),
    )

    parser.add_argument("--version", action="version", version=f"pdpsym {__version__}")
    parser.add_argument(
        "--debug", action="store_true", help="show the traceback of an internal error"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)

    def leaves(p: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
        subs = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            return [p]
        return [leaf for s in subs for child in s.choices.values() for leaf in leaves(child)]

    parser.examples = "\n" + texts.overview(list(sub.choices))  # type: ignore[attr-defined]
    for name, child in sub.choices.items():
        child.examples = texts.examples(name)  # type: ignore[attr-defined]
    for leaf in leaves(parser):
        leaf.examples = texts.examples(leaf.prog.removeprefix("pdpsym "))  # type: ignore[attr-defined]
        budget.add_flag(leaf)
        # how each parameter is written on this command line: --flag, or METAVAR for a
        # positional argument (an error about the mechanism file says MECHANISM, not
        # a --mechanism flag the command does not have)
        leaf.set_defaults(
            _shown_as={
                a.dest: next((o for o in a.option_strings if o.startswith("--")), None)
                or (a.option_strings[0] if a.option_strings else str(a.metavar or a.dest.upper()))
                for a in leaf._actions
                if a.dest not in ("help", argparse.SUPPRESS)
            }
        )
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
    return escape(text)


# library parameter names that are not simply the flag --NAME
_FLAGS = {
    "fast_k": "--fast",
    "model": "MODEL",
    "claim_id": "--claim",
    "b_max": "--bmax",
    "knowledge": "--known",
}


def _flag(field: str, args: argparse.Namespace, shown_as: dict[str, str] | None = None) -> str:
    """The field of an error as the user wrote it: ``--lam``, ``--weights x2``, ``MODEL``,
    ``mechanism.rows[3]`` (a path into the file given as MECHANISM)."""
    head = field.split("[", 1)[0].split(".", 1)[0].split(" ", 1)[0]
    rest = field[len(head) :]
    shown_as = shown_as or {}
    if head in shown_as and not shown_as[head].startswith("-"):  # a path in a file
        return field
    rest = " " + rest[1:] if rest.startswith(".") else rest  # weights.x2 -> --weights x2
    if head in _FLAGS:
        return _FLAGS[head] + rest
    if head in shown_as:
        return shown_as[head] + rest
    if head and not head.startswith("-") and hasattr(args, head) and head.isidentifier():
        return "--" + head.replace("_", "-") + rest
    return field


def _fail(message: str) -> None:
    sys.stderr.write(f"pdpsym: error: {one_line(message)}\n")


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
    shown_as = vars(args).pop("_shown_as", {})
    try:
        from pdpsym.app import budget

        budget.check(args, budget.FIXED_WORK, "any command", base=0)  # validates --max-work
        code = int(args.func(args))
        readers = sys.modules.get("pdpsym.app.readers")  # loaded when a model was read
        for note in getattr(readers, "NOTES", []):
            sys.stderr.write(f"pdpsym: note: {note}\n")
        if readers is not None:
            readers.NOTES.clear()
        return code
    except InputError as err:
        _fail(f"{_flag(err.field, args, shown_as)}: {err.message}")
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

"""Sweeps: one parameter over a range, one CSV row per value, certified columns.

A range is ``START:STOP`` (every integer, for integer parameters), ``START:STOP:STEP``
(integers) or ``START:STOP:COUNT`` (``COUNT`` evenly spaced exact rationals from
``START`` to ``STOP``, both included, for rational parameters such as ``--eps``). Each row
is the command's own JSON result, flattened: a value object becomes its certified decimal
(every printed digit is correct), nested fields are joined with ``.``.
"""

from __future__ import annotations

import argparse
import copy
import csv
import io
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from pdpsym.app import options
from pdpsym.app.output import write_atomic
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str, parse_int, parse_rational
from pdpsym.core.parallel import ordered_map

MAX_POINTS = 10_000


def values(text: str | None, flag: str, integer: bool) -> list[str] | None:
    """The values of a range, as the text the command parses; None when ``text`` is one value.

    >>> values("3:6", "--T", True)
    ['3', '4', '5', '6']
    >>> values("0:1:3", "--eps", False)
    ['0', '1/2', '1']
    """
    if text is None or ":" not in text:
        return None
    parts = text.split(":")
    if len(parts) not in (2, 3) or not all(parts):
        raise InputError(
            flag, f"a range is START:STOP or START:STOP:{'STEP' if integer else 'COUNT'}"
        )
    if integer:
        start, stop = parse_int(parts[0], flag), parse_int(parts[1], flag)
        step = parse_int(parts[2], flag, 1) if len(parts) == 3 else 1
        if stop < start:
            raise InputError(flag, "the range is empty (STOP < START)")
        out = [str(v) for v in range(start, stop + 1, step)]
    else:
        if len(parts) != 3:
            raise InputError(flag, "a rational range is START:STOP:COUNT")
        read = options.epsilon if flag == "--eps" else parse_rational
        lo, hi = read(parts[0], flag), read(parts[1], flag)
        count = parse_int(parts[2], flag, 2)
        if count > MAX_POINTS:
            raise InputError(flag, f"at most {MAX_POINTS} points")
        out = [fraction_str(lo + (hi - lo) * Fraction(k, count - 1)) for k in range(count)]
    if len(out) > MAX_POINTS:
        raise InputError(flag, f"at most {MAX_POINTS} points")
    return out


def flatten(obj: Any, prefix: str = "") -> dict[str, str]:
    """A JSON result as flat cells: value objects give their certified decimal."""
    if isinstance(obj, dict):
        if "decimal" in obj and "exact" in obj:
            return {prefix: str(obj["decimal"])}
        out: dict[str, str] = {}
        for k, v in obj.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    if isinstance(obj, list):
        return {prefix: ";".join(str(v) for v in obj)}
    return {prefix: "" if obj is None else str(obj)}


def _point(task: tuple[Callable[[argparse.Namespace], dict[str, Any]], Any, str, str]) -> dict:
    compute, one, flag, v = task
    return {flag.lstrip("-"): v, **flatten(compute(one))}


def run(
    args: argparse.Namespace,
    attr: str,
    flag: str,
    points: list[str],
    compute: Callable[[argparse.Namespace], dict[str, Any]],
) -> int:
    """Compute every point (all checked before any output), then write one CSV. The points
    run on ``--jobs`` processes or a Dask ``--scheduler``; the CSV does not depend on it."""
    todo = []
    for v in points:
        one = copy.copy(args)
        setattr(one, attr, v)
        one.func = None  # the namespace travels to worker processes
        todo.append((compute, one, flag, v))
    jobs = options.jobs(args) if hasattr(args, "jobs") else 1
    rows = ordered_map(_point, todo, jobs, scheduler=getattr(args, "scheduler", None))
    columns: list[str] = []
    for r in rows:
        columns += [c for c in r if c not in columns]
    buf = io.StringIO()
    buf.write(
        f"# pdpsym {args.command} sweep over {flag}; decimals are certified (every digit correct)\n"
    )
    for k, v in sorted(vars(args).items()):
        skip = ("func", "command", attr, "json", "out", "progress", "jobs", "scheduler")
        if k not in skip and v not in (None, False):
            buf.write(f"# {k}: {v}\n")
    w = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n", restval="")
    w.writeheader()
    w.writerows(rows)
    if getattr(args, "out", None):
        write_atomic(args.out, buf.getvalue())
    else:
        sys.stdout.write(buf.getvalue())
    return 0

"""A finite joint law of records, read from plain JSON (variables, rows of values and a
probability), and its conditionals -- written from the definitions, no pdpsym import.

Everything is plain Fractions: ``Model = (variables, {cell: probability})``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

Model = tuple[list[str], dict[tuple[Fraction, ...], Fraction]]


def model(obj: dict[str, Any]) -> Model:
    """(variables, {cell: probability}) from a counterexample's JSON model."""
    names = list(obj["variables"])
    cells: dict[tuple[Fraction, ...], Fraction] = {}
    for row in obj["rows"]:
        cell = tuple(Fraction(v) for v in row[:-1])
        cells[cell] = cells.get(cell, Fraction(0)) + Fraction(row[-1])
    return names, {c: p for c, p in cells.items() if p}


def conditional(m: Model, fixed: dict[str, Fraction], var: str) -> dict[Fraction, Fraction]:
    """theta(var | fixed), exactly."""
    names, cells = m
    out: dict[Fraction, Fraction] = {}
    for cell, p in cells.items():
        if all(cell[names.index(v)] == x for v, x in fixed.items()):
            out[cell[names.index(var)]] = out.get(cell[names.index(var)], Fraction(0)) + p
    tot = sum(out.values())
    return {x: p / tot for x, p in out.items()}

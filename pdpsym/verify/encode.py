"""JSON encoding of counterexamples: exact values as strings, never Python reprs of floats.

Fractions become ``"p/q"``; sympy values their ``sstr`` text (which sympy parses back);
models their file form; tuples lists; mapping keys strings (tuple keys keep their
``repr``, which is how records of a database are written).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.core.numbers import fraction_str


def _key(k: Any) -> str:
    if isinstance(k, str):
        return k
    if isinstance(k, Fraction):
        return fraction_str(k)
    return repr(k)


def encode(obj: Any) -> Any:
    """A JSON-ready copy of ``obj``."""
    if obj is None or isinstance(obj, bool | int | str):
        return obj
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, Fraction):
        return fraction_str(obj)
    if isinstance(obj, float):
        return repr(obj)
    if isinstance(obj, sympy.Basic):
        return sympy.sstr(obj)
    to_json = getattr(obj, "to_json_object", None)
    if to_json is not None:
        return to_json()
    exact_text = getattr(obj, "exact_text", None)
    if exact_text is not None:
        return str(exact_text())
    if isinstance(obj, Mapping):
        return {_key(k): encode(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [encode(v) for v in obj]
    if isinstance(obj, set | frozenset):
        return sorted((encode(v) for v in obj), key=repr)
    return str(obj)

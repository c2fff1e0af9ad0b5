"""JSON output of the commands: one object on stdout.

Exact values are printed as ``{"exact": ..., "decimal": ..., "enclosure": [lo, hi]}``.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from typing import Any

from pdpsym.core.certify import Exact, certify
from pdpsym.core.numbers import fraction_str


def value_json(value: Exact, digits: int = 30) -> dict[str, Any]:
    """An exact value in the agreed JSON form, certified to ``digits`` digits."""
    return certify(value, digits).as_json()


def rational_str(q: Fraction | int) -> str:
    return fraction_str(Fraction(q))


def dumps(obj: Any) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False)


def print_json(obj: Any) -> None:
    """Print one JSON object to stdout, and nothing else."""
    sys.stdout.write(dumps(obj) + "\n")

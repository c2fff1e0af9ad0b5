"""Shared by the tests of the ball cases of independent records
(tests/audit/test_product_laplace.py, test_product_geometric.py): a result's figures as
comparable text, the ball path forced on small models, and laws and product models valid
by construction."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
import sympy
from hypothesis import strategies as st

from pdpsym.audit import product_shifts
from pdpsym.core.certify import certify
from pdpsym.models.product import ProductModel


def digits(v: object) -> str | None:
    """A value as comparable text: 25 certified digits (None stays None)."""
    if v is None:
        return None
    if v is sympy.oo:
        return "oo"
    return certify(v, 25).decimal  # type: ignore[arg-type]


def figures(r: Any) -> tuple[object, ...]:
    """ε, δ(ε) and ε(δ) as digits, and the witness without ``output``: where the sup is
    attained, the exact engine names an end of the support or a lumped tail ("<lo")
    where the balls say "-inf" (the ratio is constant there)."""
    eps_at = r.epsilon_at_delta
    return (
        digits(r.epsilon),
        [(digits(d), w) for _, d, w in r.delta_at_epsilon],
        None if eps_at is None else digits(eps_at[1]),
        {k: v for k, v in (r.witness or {}).items() if k != "output"},
    )


def balls_forced(fn):  # type: ignore[no-untyped-def]
    """Run ``fn`` with the ball cases on every product model."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(product_shifts, "EXACT_RECORDS", 0)
        return fn()


@st.composite
def laws(draw, k):  # type: ignore[no-untyped-def]
    """k non-negative rationals summing to 1 (by construction)."""
    parts = [draw(st.integers(0, 4)) for _ in range(k)]
    if sum(parts) == 0:
        parts[draw(st.integers(0, k - 1))] = 1
    s = sum(parts)
    return [Fraction(p, s) for p in parts]


@st.composite
def products(draw, max_records: int = 4):  # type: ignore[no-untyped-def]
    """2 to ``max_records`` independent records of 2 or 3 integer values (an integer
    query by construction), each with its own law."""
    n = draw(st.integers(2, max_records))
    recs = []
    for _ in range(n):
        k = draw(st.sampled_from([2, 3]))
        vals = draw(st.lists(st.integers(-1, 2), min_size=k, max_size=k, unique=True))
        recs.append({"values": [str(v) for v in vals], "probs": [str(p) for p in draw(laws(k))]})
    return ProductModel(recs)

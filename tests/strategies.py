"""Hypothesis strategies that build valid exact models by construction."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import strategies as st

from pdpsym.models.joint import JointDistribution
from pdpsym.models.law_class import IntervalChain


@st.composite
def joint_tables(
    draw, min_n: int = 2, max_n: int = 3, max_domain: int = 3, allow_zero: bool = True
) -> JointDistribution:
    """Exact tables: domain values are small integers, weights small positive integers."""
    n = draw(st.integers(min_n, max_n))
    sizes = [draw(st.integers(2, max_domain)) for _ in range(n)]
    values = [sorted(draw(st.sets(st.integers(-3, 5), min_size=s, max_size=s))) for s in sizes]
    cells = list(itertools.product(*values))
    lo = 0 if allow_zero else 1
    weights = draw(
        st.lists(st.integers(lo, 6), min_size=len(cells), max_size=len(cells)).filter(
            lambda ws: sum(ws) > 0
        )
    )
    total = sum(weights)
    names = [f"x{k + 1}" for k in range(n)]
    rows = [[*c, Fraction(wt, total)] for c, wt in zip(cells, weights) if wt]
    return JointDistribution.from_rows(names, rows, dict(zip(names, values)))


@st.composite
def product_tables(draw, min_n: int = 2, max_n: int = 3, max_domain: int = 3) -> JointDistribution:
    n = draw(st.integers(min_n, max_n))
    margs = {}
    for k in range(n):
        size = draw(st.integers(2, max_domain))
        vals = sorted(draw(st.sets(st.integers(-3, 5), min_size=size, max_size=size)))
        ws = draw(st.lists(st.integers(1, 6), min_size=size, max_size=size))
        margs[f"x{k + 1}"] = {str(v): Fraction(wt, sum(ws)) for v, wt in zip(vals, ws)}
    return JointDistribution.product(margs)


lambdas = st.sampled_from([Fraction(1), Fraction(1, 2), Fraction(2), Fraction(3, 2)])


@st.composite
def binary_full_support_tables(draw, min_n: int = 2, max_n: int = 4) -> JointDistribution:
    """Binary tables with every cell positive: the class the batch WHG engine covers."""
    n = draw(st.integers(min_n, max_n))
    cells = list(itertools.product((0, 1), repeat=n))
    weights = draw(st.lists(st.integers(1, 30), min_size=len(cells), max_size=len(cells)))
    total = sum(weights)
    names = [f"x{k + 1}" for k in range(n)]
    return JointDistribution.from_rows(
        names, [[*c, Fraction(wt, total)] for c, wt in zip(cells, weights)]
    )


def binary_interval_chain(T, r0, r1):
    """A stationary two-state interval chain of ``T`` records: ``P(0 -> 1)`` in ``r0`` and
    ``P(1 -> 1)`` in ``r1`` (each a pair ``(lo, hi)``)."""
    (a0, b0), (a1, b1) = r0, r1
    return IntervalChain.from_json_object(
        {
            "kind": "interval-markov-chain",
            "length": T,
            "states": ["0", "1"],
            "initial": "stationary",
            "transition": [
                [[str(1 - b0), str(1 - a0)], [str(a0), str(b0)]],
                [[str(1 - b1), str(1 - a1)], [str(a1), str(b1)]],
            ],
        }
    )

"""A chain's states with deliberate values (``"values"``), and names without values."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

import pdpsym as ps
from pdpsym.core.errors import InputError
from pdpsym.loss.count_leakage import structured_leakage
from pdpsym.models.model_objects import count_model_from_object

STAY = [["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/4", "1/4", "1/2"]]


def _law_by_hand(values: list[int], T: int) -> dict[F, F]:
    """The law of the sum by listing every sequence (uniform start, matrix STAY)."""
    m = [[F(x) for x in row] for row in STAY]
    out: dict[F, F] = {}
    for seq in itertools.product(range(3), repeat=T):
        p = F(1, 3)
        for s, t in itertools.pairwise(seq):
            p *= m[s][t]
        total = F(sum(values[s] for s in seq))
        out[total] = out.get(total, F(0)) + p
    return out


def test_values_give_the_sum() -> None:
    chain = ps.MarkovChain(["sit", "walk", "run"], 3, ["1/3"] * 3, STAY, values=["0", "1", "5"])
    law = chain.query_law("x1", F(0), {})
    # expected: the brute force over the 27 sequences, conditioned on x1 = sit (value 0)
    m = [[F(x) for x in row] for row in STAY]
    brute: dict[F, F] = {}
    for seq in itertools.product(range(3), repeat=2):
        p = m[0][seq[0]] * m[seq[0]][seq[1]]
        v = F(sum([0, 1, 5][s] for s in seq))
        brute[v] = brute.get(v, F(0)) + p
    assert law == {k: v for k, v in brute.items() if v}
    assert sum(_law_by_hand([0, 1, 5], 3).values()) == 1


def test_numeric_states_unchanged() -> None:
    a = ps.MarkovChain(["0", "1", "5"], 4, "stationary", STAY)
    b = ps.MarkovChain(["a", "b", "c"], 4, "stationary", STAY, values=["0", "1", "5"])
    assert a.states == b.states and a.has_values and b.has_values
    ra = structured_leakage(a, ["x2"], [], F(1), digits=12)[0].value
    rb = structured_leakage(b, ["x2"], [], F(1), digits=12)[0].value
    assert ra is not None and rb is not None and (ra.lo, ra.hi) == (rb.lo, rb.hi)


def test_names_without_values_refuse_the_sum() -> None:
    chain = ps.MarkovChain(["sit", "walk", "run"], 4, "stationary", STAY)
    assert not chain.has_values and chain.states == (F(0), F(1), F(2))
    with pytest.raises(InputError) as err:
        structured_leakage(chain, ["x2"], [], F(1))
    assert err.value.field == "values"


@pytest.mark.parametrize(
    ("obj", "field"),
    [
        ({"values": ["0", "1"]}, "values"),
        ({"values": ["0", "0", "1"]}, "values"),
        ({"values": ["0", "x", "1"]}, "values[1]"),
        ({"states": ["a", "a", "b"]}, "states"),
        ({"states": ["0", "0", "1"]}, "states"),
    ],
)
def test_bad_values(obj: dict[str, object], field: str) -> None:
    spec: dict[str, object] = {
        "kind": "markov-chain",
        "length": 3,
        "states": ["a", "b", "c"],
        "initial": "stationary",
        "transition": STAY,
        **obj,
    }
    with pytest.raises(InputError) as err:
        count_model_from_object(spec)
    assert err.value.field == field

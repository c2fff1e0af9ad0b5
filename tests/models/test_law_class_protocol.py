"""The protocol every class of laws answers (models/law_class_base.py, the interval chains'
operations of models/interval_rows.py), on the binary and the k-state interval chain.

Independent sources: each expected value is a hand derivation from the JSON (the
parameters' intervals, their corners and mid points, written out here), or a property
checked by brute force in the test (every member's rows are stochastic and inside the
class's intervals, by Fraction arithmetic on the JSON's numbers).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.models.interval_chain_k import IntervalChainK
from pdpsym.models.interval_rows import VERTEX_LIMIT
from pdpsym.models.law_class import IntervalChain, IntervalProduct, ModelClass
from pdpsym.models.markov import MarkovChain

F = Fraction
BINARY = {
    "kind": "interval-markov-chain",
    "length": 4,
    "states": ["0", "1"],
    "initial": [["1/4", "1/2"], ["1/2", "3/4"]],
    "transition": [[["4/5", "9/10"], ["1/10", "1/5"]], [["1/10", "3/10"], ["7/10", "9/10"]]],
}
THREE = {
    "kind": "interval-markov-chain",
    "length": 3,
    "states": ["0", "1", "2"],
    "initial": "stationary",
    "transition": [
        [["3/5", "13/20"], ["1/5", "1/4"], ["1/8", "1/8"]],
        [["1/5", "1/5"], ["3/5", "3/5"], ["1/5", "1/5"]],
        [["1/8", "1/8"], ["6/25", "6/25"], ["127/200", "127/200"]],
    ],
}


def test_the_flags_of_every_class_of_laws():
    # by definition (law_class_base): only the interval chains are searched over a box,
    # and only the k-state one's sub-boxes are clipped to the rows' polytopes
    binary = IntervalChain.from_json_object(BINARY)
    three = IntervalChainK.from_json_object(THREE)
    product = IntervalProduct.from_json_object({"kind": "interval-product", "bernoulli": ["1/2"]})
    finite = ModelClass((MarkovChain(["0", "1"], 2, "stationary", [["1/2", "1/2"]] * 2),))
    assert [c.box_search for c in (binary, three, product, finite)] == [True, True, False, False]
    assert [c.clipped for c in (binary, three, product, finite)] == [False, True, False, False]
    assert (binary.k, three.k) == (2, 3)


def test_binary_chain_protocol_by_hand():
    # hand derivation: x_0 = P[0][1] in [1/10, 1/5], x_1 = P[1][1] in [7/10, 9/10],
    # y = init[1] in [1/2, 3/4]: a box of 3 sides, 8 corners, lower corner first
    cls = IntervalChain.from_json_object(BINARY)
    box = ((F(1, 10), F(1, 5)), (F(7, 10), F(9, 10)), (F(1, 2), F(3, 4)))
    assert cls.box() == box
    assert cls.vertex_count() == 8
    assert cls.vertices() == list(itertools.product(*box))
    assert cls.search_start() == (F(1, 10), F(7, 10), F(1, 2))
    assert cls.centre(box) == (F(3, 20), F(4, 5), F(5, 8))
    assert cls.holds_member(box)
    assert cls.box_corners(box) == cls.vertices()
    assert cls.audit_laws(1) == [(F(3, 20), F(4, 5), F(5, 8))]
    # grid 3: each side's ends and middle, 27 points, the corners and centre among them
    grid = cls.audit_laws(3)
    assert len(grid) == 27 and set(cls.vertices()) <= set(grid) and cls.centre(box) in grid
    assert cls.domain("x1") == (F(0), F(1))


def test_three_state_chain_protocol_by_hand():
    # hand derivation (as tests/audit/test_class_audit_kstate.py): row 0 is the segment
    # r0 + r1 = 7/8, r0 in [3/5, 13/20] (2 vertices), rows 1 and 2 are points; the box's
    # sides are the free coordinates (r0, r1) of each row
    cls = IntervalChainK.from_json_object(THREE)
    assert cls.vertex_count() == 2 and len(cls.vertices()) == 2
    assert cls.search_start() == cls.centre(cls.box())
    assert cls.box_corners(cls.box()) == []
    laws = cls.audit_laws(3)
    assert laws == [*cls.vertices(), cls.centre(cls.box())]
    assert cls.domain("x2") == (F(0), F(1), F(2))
    # a sub-box with r0 = 1/2 of row 0 misses its polytope (r0 >= 3/5): no member
    box = list(cls.box())
    box[0] = (F(1, 2), F(1, 2))
    assert not cls.holds_member(tuple(box))
    assert cls.holds_member(cls.box())


def _inside(cls, theta):
    """Brute force: the member's rows are stochastic and inside the JSON's intervals."""
    chain = cls.member(theta)
    obj = THREE if cls.clipped else BINARY
    for row, ivs in zip(chain.matrices[0], obj["transition"], strict=True):
        if sum(row, F(0)) != 1:
            return False
        if any(not F(lo) <= p <= F(hi) for p, (lo, hi) in zip(row, ivs, strict=True)):
            return False
    return True


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([BINARY, THREE]), st.data())
def test_every_law_the_protocol_gives_is_a_member(obj, data):
    # property: the corners, the search's start, every sub-box's centre and corners, and
    # the audit's laws are members (their rows inside the class's intervals)
    cls = (IntervalChainK if len(obj["states"]) > 2 else IntervalChain).from_json_object(obj)
    box = cls.box()
    sub = []
    for a, b in box:  # a random sub-box of the root box, drawn inside it
        u, v = sorted(data.draw(st.fractions(0, 1, max_denominator=8)) for _ in range(2))
        sub.append((a + (b - a) * u, a + (b - a) * v))
    sub = tuple(sub)
    laws = [*cls.vertices(), cls.search_start(), *cls.audit_laws(3)]
    if cls.holds_member(sub):
        laws += [cls.centre(sub), *cls.box_corners(sub)]
    assert all(_inside(cls, t) for t in laws)
    assert len(cls.vertices()) == min(cls.vertex_count(), VERTEX_LIMIT)

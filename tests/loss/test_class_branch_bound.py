"""The one branch and bound over a parameter box (:mod:`pdpsym.loss.class_branch_bound`).

Independent sources: hand derivations on toy functions whose sup is known in closed form
(a concave quadratic's vertex, clipped to the box), with a Lipschitz upper bound of a
sub-box written here (``f(centre) + L * radius``, the mean-value theorem), and a dense
grid of the function evaluated here in Fraction.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.loss.class_branch_bound import branch_and_bound, widest_side

F = Fraction


def _search(cx, cy, root, tol, max_boxes):
    """Maximize ``f = -(x - cx)^2 - (y - cy)^2`` over ``root`` with the driver: the bound
    ``f(centre) + L r`` (``L = 2 (|x - cx| + |y - cy|)`` maximized over the sub-box, the
    mean-value theorem), lower values at each sub-box's centre."""

    def f(x, y):
        return -((x - cx) ** 2) - (y - cy) ** 2

    best = {"lo": None, "at": None}
    closed = []

    def lower(p):
        v = f(*p)
        if best["lo"] is None or v > best["lo"]:
            best["lo"], best["at"] = v, p

    def bound(box, _parent):
        c = tuple((a + b) / 2 for a, b in box)
        r = [(b - a) / 2 for a, b in box]
        lower(c)
        grad = [2 * max(abs(a - m), abs(b - m)) for (a, b), m in zip(box, (cx, cy), strict=True)]
        return f(*c) + sum(g * h for g, h in zip(grad, r, strict=True))

    def settle(u):
        if u <= best["lo"] + tol:
            closed.append(u)
            return None, None
        return u, -(u - best["lo"])

    out = branch_and_bound(root, bound, settle, max_boxes=max_boxes)
    hi = max([*closed, *out.open, *out.points, *out.parked])
    return best["lo"], hi, out


@settings(max_examples=40, deadline=None)
@given(
    cx=st.fractions(-1, 2, max_denominator=50),
    cy=st.fractions(-1, 2, max_denominator=50),
    budget=st.integers(1, 200),
)
def test_the_enclosure_holds_at_any_budget(cx, cy, budget):
    # source: hand derivation: the sup of a concave quadratic over [0, 1]^2 is at the
    # vertex clipped to the square; [lo, hi] must enclose it however early the search
    # stops (every law lies in a leaf, and every leaf's bound is counted)
    root = ((F(0), F(1)), (F(0), F(1)))
    lo, hi, out = _search(cx, cy, root, F(1, 10**4), budget)
    px, py = min(max(cx, F(0)), F(1)), min(max(cy, F(0)), F(1))
    true = -((px - cx) ** 2) - (py - cy) ** 2
    assert lo <= true <= hi
    assert out.boxes <= max(budget, 1) + 1  # two halves per split: at most one over


def test_a_closed_search_is_within_the_tolerance_and_above_a_dense_grid():
    # source: a 41 x 41 grid of the function evaluated here: none above the upper end,
    # and with every sub-box closed the enclosure is within the tolerance
    cx, cy = F(1, 3), F(5, 7)
    root = ((F(0), F(1)), (F(0), F(1)))
    lo, hi, out = _search(cx, cy, root, F(1, 10**4), 10**5)
    assert not out.open and hi - lo <= F(1, 10**4)
    grid = [F(j, 40) for j in range(41)]
    top = max(-((x - cx) ** 2) - (y - cy) ** 2 for x, y in itertools.product(grid, grid))
    assert top <= hi


def test_points_and_dropped_boxes():
    # hand derivation: a root of width 0 cannot be split (it is a point: reported in
    # points, bounded once); a bound of None drops the sub-box (no law in it)
    pt = ((F(1, 2), F(1, 2)),)
    out = branch_and_bound(pt, lambda b, p: F(1), lambda u: (u, 0), max_boxes=10)
    assert out.points == [F(1)] and out.boxes == 1 and not out.open
    seen = []

    def bound(box, _p):
        seen.append(box)
        return None if box[0][0] >= F(1, 2) else F(1)

    out = branch_and_bound(((F(0), F(1)),), bound, lambda u: (u, 0), max_boxes=3)
    assert ((F(1, 2), F(1)),) in seen and out.boxes == 3 and len(out.open) == 1


def test_stop_and_park_and_side():
    # hand derivation: stop ends before any split; park keeps the root open unsplit; a
    # chosen side is the one split
    root = ((F(0), F(1)), (F(0), F(4)))
    out = branch_and_bound(root, lambda b, p: 1, lambda u: (u, 0), max_boxes=9, stop=lambda: True)
    assert out.boxes == 1 and len(out.open) == 1
    out = branch_and_bound(
        root, lambda b, p: 1, lambda u: (u, 0), max_boxes=9, park=lambda b, u: True
    )
    assert out.parked == [1] and out.boxes == 1
    split = []

    def bound(box, parent):
        split.append(box)
        return 1

    branch_and_bound(root, bound, lambda u: (u, 0), max_boxes=3, side=lambda b, u, j: 1)
    assert split[1] == ((F(0), F(1)), (F(0), F(2)))
    assert widest_side(((F(0), F(1)), (F(0), F(1))), [F(1), F(4)]) == 0  # relative widths

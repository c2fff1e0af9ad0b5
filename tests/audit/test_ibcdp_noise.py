"""IBCDP under Laplace noise: the certified enclosure against a grid search written here.

Source: the posteriors of D(1) given the output t of (x1 + x2) + Lap(1), computed from
the table with mpmath on a fine grid of t over the centres' range (outside it the
posteriors are constant); the grid maximum of Σ_a (post_1 - e^ε post_2)_+ is a lower
bound of the sup, so it must lie below the enclosure's upper end, and (the function
being Lipschitz on the grid) within a small distance of it.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath

import pdpsym as ps

ROWS = [[0, 0, "3/10"], [0, 1, "1/5"], [1, 0, "1/5"], [1, 1, "3/10"]]
TABLE = {(0, 0): F(3, 10), (0, 1): F(1, 5), (1, 0): F(1, 5), (1, 1): F(3, 10)}


def _posteriors(t: mpmath.mpf, b: int | None) -> dict[int, mpmath.mpf]:
    """post(a | t) for M(D) (b None) or M(D with x1 -> b), both from the table."""
    u = {0: mpmath.mpf(0), 1: mpmath.mpf(0)}
    for (x1, x2), p in TABLE.items():
        f = (x1 if b is None else b) + x2
        u[x1] += mpmath.mpf(p.numerator) / p.denominator * mpmath.exp(-abs(t - f)) / 2
    z = u[0] + u[1]
    return {a: v / z for a, v in u.items()}


def test_ibcdp_delta_enclosure_contains_the_grid_sup() -> None:
    m = ps.JointDistribution.from_rows(["x1", "x2"], ROWS)
    res = ps.audit.audit(m, ps.mechanisms.laplace(1), "x1", [], ["1/2"], notions=["ibcdp"])
    value = res["ibcdp"].delta_at_epsilon[0][1]
    lo, hi = value.lo, value.hi
    with mpmath.workdps(30):
        e = mpmath.exp(mpmath.mpf(1) / 2)
        best = mpmath.mpf(0)
        for k, b in itertools.product(range(-1000, 3001, 2), (0, 1)):
            t = mpmath.mpf(k) / 1000
            plain, changed = _posteriors(t, None), _posteriors(t, b)
            for p1, p2 in ((plain, changed), (changed, plain)):
                g = sum(max(mpmath.mpf(0), p1[a] - e * p2[a]) for a in (0, 1))
                best = max(best, g)
        # the grid is computed at 30 digits: allow its rounding (the enclosure is now far
        # narrower than 10^-25)
        assert best <= mpmath.mpf(hi.numerator) / hi.denominator + mpmath.mpf(10) ** -25
        assert abs(best - mpmath.mpf(lo.numerator) / lo.denominator) < mpmath.mpf(10) ** -3


def _golden_max(g, a: mpmath.mpf, b: mpmath.mpf) -> mpmath.mpf:  # type: ignore[no-untyped-def]
    """Golden-section search for the max of g on [a, b] (a local refinement)."""
    r = (mpmath.sqrt(5) - 1) / 2
    c, d = b - r * (b - a), a + r * (b - a)
    for _ in range(120):
        if g(c) > g(d):
            b, d = d, c
            c = b - r * (b - a)
        else:
            a, c = c, d
            d = a + r * (b - a)
    return max(g(a), g(b), g((a + b) / 2))


def _brute_sup(
    table: dict,
    weights: tuple[int, int],
    eps: mpmath.mpf | None,
    lam: int | mpmath.mpf = 1,
    grid: tuple[int, int, int] = (-100, 251, 50),
) -> mpmath.mpf:
    """sup over outputs and cases of the IBCDP objective, by grid + golden section
    (``grid = (first, stop, per unit)``: the points k / per_unit for k in range)."""

    def post(t: mpmath.mpf, b: int | None) -> dict[int, mpmath.mpf]:
        u = {0: mpmath.mpf(0), 1: mpmath.mpf(0)}
        for (x1, x2), p in table.items():
            f = weights[0] * (x1 if b is None else b) + weights[1] * x2
            u[x1] += mpmath.mpf(p.numerator) / p.denominator * mpmath.exp(-abs(t - f) / lam)
        z = u[0] + u[1]
        return {a: v / z for a, v in u.items()}

    best = mpmath.mpf(0)
    for b, flip in itertools.product((0, 1), (False, True)):

        def g(t: mpmath.mpf, b: int = b, flip: bool = flip) -> mpmath.mpf:
            p1, p2 = post(t, None), post(t, b)
            if flip:
                p1, p2 = p2, p1
            if eps is None:
                return max(p1[a] / p2[a] for a in (0, 1))
            return sum(max(mpmath.mpf(0), p1[a] - mpmath.exp(eps) * p2[a]) for a in (0, 1))

        points = [mpmath.mpf(k) / grid[2] for k in range(grid[0], grid[1])]
        vals = [g(t) for t in points]
        k = max(range(len(points)), key=lambda j: vals[j])
        lo_t, hi_t = points[max(k - 1, 0)], points[min(k + 1, len(points) - 1)]
        best = max(best, _golden_max(g, lo_t, hi_t))
    return best


def test_ibcdp_closed_form_agrees_with_a_golden_section_search_to_many_digits() -> None:
    # an asymmetric table and the query x1 + 2 x2 (λ = 1): the sup of each objective is
    # found here by a grid and golden-section refinement at 40 digits (independent of
    # the library's piece-end / stationary-point argument); they agree to 1e-15
    rows = [[0, 0, "1/2"], [0, 1, "1/10"], [1, 0, "1/10"], [1, 1, "3/10"]]
    table = {(0, 0): F(1, 2), (0, 1): F(1, 10), (1, 0): F(1, 10), (1, 1): F(3, 10)}
    m = ps.JointDistribution.from_rows(["x1", "x2"], rows)
    mech = ps.mechanisms.laplace(1, {"x1": "1", "x2": "2"})
    res = ps.audit.audit(m, mech, "x1", [], ["1/5"], notions=["ibcdp"])["ibcdp"]
    with mpmath.workdps(40):
        ratio = _brute_sup(table, (1, 2), None)
        delta = _brute_sup(table, (1, 2), mpmath.mpf(1) / 5)
        for value, brute in ((res.epsilon, mpmath.log(ratio)), (res.delta_at_epsilon[0][1], delta)):
            value.arb(80)  # narrows the bracket to about 24 digits
            lo = mpmath.mpf(value.lo.numerator) / value.lo.denominator
            hi = mpmath.mpf(value.hi.numerator) / value.hi.denominator
            assert hi - lo < mpmath.mpf(10) ** -20
            assert abs(brute - lo) < mpmath.mpf(10) ** -15


def test_ibcdp_of_a_record_with_one_possible_value_is_exactly_zero() -> None:
    # Hand derivation: x1 = 0 with probability 1, so its posterior is 1 at 0 given any
    # output, under D and under D with x1 -> 1 alike: every log ratio is 0 and every
    # hockey stick at eps >= 0 is 0. The answer must be the exact 0, not an enclosure of
    # a vanishing number printed with "certain" digits.
    m = ps.JointDistribution.from_rows(["x1", "x2"], [[0, 0, "1/2"], [0, 1, "1/2"]])
    res = ps.audit.audit(
        m, ps.mechanisms.laplace(1), "x1", [], ["1/4"], delta="1/10", notions=["ibcdp"]
    )
    r = res["ibcdp"]
    assert r.epsilon == 0
    assert r.delta_at_epsilon[0][1] == 0


def test_ibcdp_epsilon_at_a_small_scale_agrees_with_a_brute_force() -> None:
    # λ = 1/100: the posterior ratio reaches about e^100, far above 2^64. The closed form
    # must still answer (it used to hand every ratio above 2^64 to the branch and bound,
    # which took minutes here). Source: the posteriors of x1 given t, from the table at 60
    # digits, maximized over a grid of t in [-1, 3] (step 1/500) refined by golden
    # section; the posteriors are constant outside the centres' range [0, 2].
    m = ps.JointDistribution.from_rows(["x1", "x2"], ROWS)
    res = ps.audit.audit(m, ps.mechanisms.laplace(F(1, 100)), "x1", [], [], notions=["ibcdp"])
    with mpmath.workdps(60):
        best = _brute_sup(TABLE, (1, 1), None, mpmath.mpf(1) / 100, (-500, 1501, 500))
        value = res["ibcdp"].epsilon
        value.arb(80)
        lo = mpmath.mpf(value.lo.numerator) / value.lo.denominator
        hi = mpmath.mpf(value.hi.numerator) / value.hi.denominator
        assert abs(mpmath.log(best) - lo) < mpmath.mpf(10) ** -12
        assert hi - lo < mpmath.mpf(10) ** -12

"""Randomized response: the screened audit (floats rank, Fractions decide) against the
exhaustive one.

The reference is ``audit(..., exhaustive=True)``: every case of every notion built
exactly from the definitions (:mod:`pdpsym.audit.notions`, one (database, output) pair
at a time), the plain path the brute-force tests of tests/audit/test_audit_notions.py and
tests/audit check. The screened path (:mod:`pdpsym.audit.screen`) must give the
same audit, field for field: ε, δ(ε), ε(δ) and every witness (down to the output).
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction as F

import pytest

import pdpsym as ps
from pdpsym.audit import audit, screen
from pdpsym.core.eps import Eps

NOTIONS = ["dp", "apkdp", "np", "ppkdp", "cdp"]
KEEPS = ["1/2", "3/4", "9/10", "1"]


def correlated_model(rng: random.Random, n: int, ternary: bool = False) -> ps.JointDistribution:
    """A random joint over n binary records (one ternary if asked, with a declared value
    of probability zero); a third of the cells get weight zero, so some known values are
    incompatible with some target values."""
    doms = [(0, 1)] * n
    if ternary:
        doms = [(0, 1, 2), *doms[1:]]
    cells = list(itertools.product(*doms))
    w = [rng.choice([0, rng.randint(1, 9), rng.randint(1, 9)]) for _ in cells]
    if ternary:  # value 2 of x1 is declared but never occurs
        w = [0 if c[0] == 2 else x for c, x in zip(cells, w, strict=True)]
    if not any(w):
        w[0] = 1
    total = sum(w)
    names = [f"x{k + 1}" for k in range(n)]
    rows = [[*c, F(x, total)] for c, x in zip(cells, w, strict=True)]
    domains = {"x1": [0, 1, 2]} if ternary else None
    return ps.JointDistribution.from_rows(names, rows, domains)


def instance(seed: int) -> tuple[ps.JointDistribution, object, str, list[str], str]:
    rng = random.Random(seed)
    n = 3 + seed % 3
    m = correlated_model(rng, n, ternary=seed % 7 == 6)
    mech = ps.mechanisms.randomized_response(KEEPS[seed % 4], m.domains)
    target = rng.choice(m.variables)
    others = [v for v in m.variables if v != target]
    known = rng.sample(others, rng.randint(0, len(others)))
    delta = rng.choice(["0", "1/20", "1/4", "3/4"])
    return m, mech, target, known, delta


EPS = [Eps.log(2), Eps.of("1/2"), Eps.of(0), Eps.log(F(7, 5))]


@pytest.mark.parametrize("seed", range(28))
def test_screened_audit_equals_exhaustive(seed: int) -> None:
    m, mech, target, known, delta = instance(seed)
    for notion in NOTIONS:  # the screened path is the one taken
        assert screen.applies(notion, m, mech)
    fast = audit(m, mech, target, known, EPS, delta, NOTIONS)
    slow = audit(m, mech, target, known, EPS, delta, NOTIONS, exhaustive=True)
    for a, b in zip(fast.results, slow.results, strict=True):
        assert a == b, (a.notion, a, b)


@pytest.mark.parametrize(
    ("keep", "eps"),
    [
        ("1/2", Eps.log(2)),
        (F(1) - F(1, 10**200), Eps.log(2)),  # kernel entries below the float range
        ("3/4", Eps.log(10**400)),  # e^eps beyond the float range
        ("3/4", Eps.of(2000)),
    ],
)
def test_out_of_float_range_is_decided_exactly(keep: object, eps: Eps) -> None:
    rng = random.Random(5)
    m = correlated_model(rng, 3)
    mech = ps.mechanisms.randomized_response(keep, m.domains)
    args = (m, mech, "x2", ["x3"], [eps], "1/10", NOTIONS)
    assert audit(*args) == audit(*args, exhaustive=True)


@pytest.mark.parametrize("keep", ["3/4", "1"])
def test_mechanism_domains_wider_than_the_model(keep: str) -> None:
    # the mechanism may report values the model never takes (x1 in {0, 1, 2})
    m = correlated_model(random.Random(11), 4)
    mech = ps.mechanisms.randomized_response(keep, [(0, 1, 2), (0, 1), (0, 1), (0, 1)])
    assert screen.applies("apkdp", m, mech)
    for target, known in (("x1", ["x3"]), ("x2", ["x1", "x4"])):
        args = (m, mech, target, known, EPS, "1/10", NOTIONS)
        assert audit(*args) == audit(*args, exhaustive=True)

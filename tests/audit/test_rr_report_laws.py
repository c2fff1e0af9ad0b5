"""A chain's report laws under randomized response around one target
(:class:`pdpsym.audit.rr_report_laws.ReportChain`) against a brute force written here:
every hidden state sequence of the chain, its probability as a product of the initial
law and the transitions, every report of the records strictly between the known ones,
conditioned by definition (no forward or backward pass)."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from pdpsym.audit.rr_report_laws import ReportChain
from pdpsym.models.markov import MarkovChain

law2 = st.integers(1, 9).map(lambda p: (Fraction(p, 10), Fraction(10 - p, 10)))


@st.composite
def setups(draw: st.DrawFn) -> tuple[MarkovChain, Fraction, int, list[int]]:
    T = draw(st.integers(2, 5))
    chain = MarkovChain(["0", "1"], T, list(draw(law2)), [list(draw(law2)), list(draw(law2))])
    keep = draw(st.sampled_from([Fraction(1, 5), Fraction(1, 2), Fraction(3, 4)]))
    i = draw(st.integers(0, T - 1))
    known = [j for j in range(T) if j != i and draw(st.booleans())]
    return chain, keep, i, known


def _brute_laws(chain: MarkovChain, keep: Fraction, i: int, known: list[int], a: int, vl, vr):
    """``P(reports inside (l, r) | x_i = a, x_l = vl, x_r = vr)`` by listing every state
    sequence and every report vector."""
    T = chain.length
    left = [j for j in known if j < i]
    right = [j for j in known if j > i]
    lo, hi = (left[-1] if left else -1), (right[0] if right else T)
    inside = list(range(lo + 1, hi))
    P = [[Fraction(x) for x in row] for row in chain.matrix(0)]
    init = [Fraction(x) for x in chain.initial_law]
    law: dict[tuple[int, ...], Fraction] = {}
    total = Fraction(0)
    for xs in itertools.product(range(2), repeat=T):
        if xs[i] != a or (left and xs[lo] != vl) or (right and xs[hi] != vr):
            continue
        px = init[xs[0]]
        for t in range(1, T):
            px *= P[xs[t - 1]][xs[t]]
        total += px
        for o in itertools.product(range(2), repeat=len(inside)):
            r = px
            for j, oj in zip(inside, o, strict=True):
                r *= keep if oj == xs[j] else 1 - keep
            law[o] = law.get(o, Fraction(0)) + r
    return {o: p / total for o, p in law.items() if p} if total else None


@given(setups(), st.integers(0, 1), st.integers(0, 1))
def test_segment_law_is_the_conditional_law_of_the_reports(setup, vl: int, vr: int) -> None:
    chain, keep, i, known = setup
    rc = ReportChain(chain, keep, chain.variables[i], [chain.variables[j] for j in known])
    for a in range(2):
        want = _brute_laws(chain, keep, i, known, a, vl, vr)
        if want is None:  # (a, vl, vr) impossible
            continue
        got = rc.pmf(a, vl if rc.l is not None else None, vr if rc.r is not None else None)
        assert {tuple(int(s) for s in o): p for o, p in got.items()} == want


@given(setups(), st.integers(0, 1), st.integers(0, 1))
def test_two_state_max_ratio_is_the_max_over_every_report(setup, vl: int, vr: int) -> None:
    chain, keep, i, known = setup
    rc = ReportChain(chain, keep, chain.variables[i], [chain.variables[j] for j in known])
    laws = [_brute_laws(chain, keep, i, known, a, vl, vr) for a in range(2)]
    if laws[0] is None or laws[1] is None:
        return
    for a, b in ((0, 1), (1, 0)):
        pa, pb = laws[a], laws[b]
        want = None if any(o not in pb for o in pa) else max(pa[o] / pb[o] for o in pa)
        got = rc.max_ratio(a, b, vl if rc.l is not None else None, vr if rc.r is not None else None)
        assert got == want

"""lmm2016.fig6 against a hand derivation.

Source: with D_j = c D_i + (1-c) B, changing D_i from 0 to 1 shifts every atom of the sum
by 1 + c and of the subtraction by 1 - c, so the output laws are one Laplace(1) mixture
and its shift: the separation is |shift| (eps = 1). For the multiplication, the law given
D_i = 0 is the atom 0 and given D_i = 1 the atoms c and 1 (1/2 each); f(S - a)/f(S) =
exp(|S| - |S - a|) is nondecreasing in S with limit e^a, so sup_S of the ratio is
(e^c + e)/2 (the reverse ratio's sup, 2/(e^-c + e^-1), is smaller by AM >= HM). The
independent separation is the DP guarantee eps max_v |Q(1, v) - Q(0, v)| = 1 for all three.
Evaluated in mpmath at 40 digits.
"""

from __future__ import annotations

import mpmath

from pdpsym.claims.figure import Scale, figures


def test_separations_match_the_hand_derivation() -> None:
    with mpmath.workdps(40):
        data = figures()["lmm2016.fig6"].build(Scale.PAPER)
        assert len(data.rows) == 27
        for r in data.rows:
            c = mpmath.mpf(r["c"].split("/")[0]) / (
                int(r["c"].split("/")[1]) if "/" in r["c"] else 1
            )
            want = {
                "sum": 1 + c,
                "subtraction": abs(1 - c),
                "multiplication": mpmath.log((mpmath.exp(c) + mpmath.e) / 2),
            }[r["query"]]
            got = mpmath.mpf(r["separation_dependent"])
            assert abs(got - want) <= mpmath.mpf(10) ** -13 * max(1, abs(want))
            assert r["separation_independent"] == "1.00000000000000"
        # the text's example: c = 1/2 makes the sum's sensitivity 1.5
        (half,) = [r for r in data.rows if r["query"] == "sum" and r["c"] == "1/2"]
        assert half["separation_dependent"] == "1.50000000000000"

"""dmkb2020.fig4 against an independent computation written here.

Source of the expected values: Theorem 4 as stated in Desfontaines et al. Section 4.2
with the corrected r = p(n-1)/((1-p)T), evaluated in mpmath at 50 digits; and the
exact delta of the thresholding mechanism (Definition 15) from its definition: the
count of the other n-1 records is Binomial(n-1, p); with the target's record a in {0, 1}
the output is a + S when a + S > T, else the bottom symbol; delta(eps) is the larger
of the two directions' sum over outputs of max(0, P_a(o) - e^eps P_b(o)).
"""

from __future__ import annotations

import csv
import io

import mpmath
import pytest

from pdpsym.app.cli import main
from pdpsym.papers.dmkb2020.figures_thresholding import fig4_row


def _mech_law(a: int, n: int, T: int) -> dict[object, mpmath.mpf]:
    p = mpmath.mpf(1) / 200
    law: dict[object, mpmath.mpf] = {}
    for s in range(n):  # S ~ Binomial(n - 1, p), in mpmath at 50 digits
        w = mpmath.binomial(n - 1, s) * p**s * (1 - p) ** (n - 1 - s)
        o: object = a + s if a + s > T else "bottom"
        law[o] = law.get(o, mpmath.mpf(0)) + w
    return law


def _exact_delta(n: int, T: int, eps: mpmath.mpf) -> mpmath.mpf:
    laws = [_mech_law(0, n, T), _mech_law(1, n, T)]
    e = mpmath.exp(eps)
    best = mpmath.mpf(0)
    for a, b in ((0, 1), (1, 0)):
        pa, pb = laws[a], laws[b]
        zero = mpmath.mpf(0)
        total = sum(max(zero, pa.get(o, zero) - e * pb.get(o, zero)) for o in set(pa) | set(pb))
        best = max(best, total)
    return best


def _close(text: str, want: mpmath.mpf, digits: int = 12) -> bool:
    got = mpmath.mpf(text)
    return abs(got - want) <= abs(want) * mpmath.mpf(10) ** (-digits)


@pytest.mark.parametrize(("n", "T"), [(1000, 8), (1000, 12), (1000, 20), (10_000, 60)])
def test_point_matches_theorem4_and_the_mechanism(n: int, T: int) -> None:
    with mpmath.workdps(50):
        p = mpmath.mpf(1) / 200
        r = p * (n - 1) / ((1 - p) * T)
        f = mpmath.binomial(n - 1, T) * p**T * (1 - p) ** (n - 1 - T)
        delta = f / (1 - r)
        eps = -mpmath.log(1 - delta)
        row = fig4_row(n, T)
        assert _close(row["r"], r)
        assert _close(row["delta"], delta)
        assert _close(row["epsilon"], eps)
        assert _close(row["exact_delta_at_epsilon"], _exact_delta(n, T, eps))
        # the printed r = p(n-1)/(1-p)^T is >= 1 at these parameters: no printed values
        r_printed = p * (n - 1) / (1 - p) ** T
        assert r_printed > 1 and _close(row["r_printed"], r_printed)
        assert row["epsilon_printed"] == row["delta_printed"] == ""
        assert "printed r" in row["reason"]


def test_below_the_first_applicable_threshold_the_theorem_is_empty() -> None:
    # r = p(n-1)/((1-p)T) >= 1 for T <= 5 at n = 1000 (pn/(1-p) = 5.02)
    row = fig4_row(1000, 5)
    assert row.get("epsilon", "") == "" and "corrected r >= 1" in row["reason"]


def test_csv_has_the_parameters_above_the_header(capsys) -> None:
    assert main(["figure", "dmkb2020.fig4", "--scale", "quick"]) == 0
    out = capsys.readouterr().out
    comments = [line for line in out.splitlines() if line.startswith("#")]
    assert any(line.startswith("# p: 1/200") for line in comments)
    body = "\n".join(line for line in out.splitlines() if not line.startswith("#"))
    rows = list(csv.DictReader(io.StringIO(body)))
    assert list(rows[0]) == [
        "n", "T", "r", "epsilon", "delta", "exact_delta_at_epsilon",
        "r_printed", "epsilon_printed", "delta_printed", "reason",
    ]  # fmt: skip
    assert {r["n"] for r in rows} == {"1000", "10000"}


def test_fig5_is_the_closed_form_capped_by_the_noise() -> None:
    with mpmath.workdps(40):
        # Theorem 3's closed form in mpmath: max(sqrt(14 ln(1/delta)/(lambda m)), 27/(lambda m))
        # with m = n - |B| - 1; Laplace(2) on a count is 1/2-DP, so the noisy eps is min(., 1/2)
        import pdpsym as ps

        lam, delta, n = mpmath.mpf(1) / 20, mpmath.mpf(10) ** -10, 100_000
        for r in ps.figure("dmkb2020.fig5", scale="quick").rows:
            m = n - int(r["known"]) - 1
            eps = max(mpmath.sqrt(14 * mpmath.log(1 / delta) / (lam * m)), 27 / (lam * m))
            assert _close(r["epsilon"], eps)
            assert _close(r["epsilon_with_laplace"], min(eps, mpmath.mpf(1) / 2))

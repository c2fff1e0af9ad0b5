"""Rényi DP of order α (Mironov 2017, Definition 4), the notion added through the registry.

Sources of the expected values: hand derivations (randomized response's divergence in
closed form; the Laplace mechanism's closed form of Mironov's Table 2), a brute force in
this file (every database of the product of the domains, every changed target value,
``Σ_o P(o)^α / Q(o)^(α-1)`` in Fractions or at 50 mpmath digits), and mpmath quadrature
of the Laplace densities.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import pdpsym as ps
from pdpsym.app.cli import main
from pdpsym.audit import audit, registry
from pdpsym.core.certify import certify
from pdpsym.core.errors import InputError
from pdpsym.mechanisms import discrete
from pdpsym.mechanisms.laplace import LaplaceNoise

PAIR = ps.JointDistribution.from_rows(
    ["x1", "x2"], [[0, 0, "3/10"], [0, 1, "1/5"], [1, 0, "1/5"], [1, 1, "3/10"]]
)


def _renyi(m: ps.JointDistribution, mech: object, alpha: object) -> sympy.Expr:
    return audit(m, mech, target="x1", notions=["renyi-dp"], alpha=alpha)["renyi-dp"].epsilon


def _decimal(value: sympy.Expr) -> mpmath.mpf:
    with mpmath.workdps(50):  # the 30 certified digits, read at 50
        return mpmath.mpf(certify(value, 30).decimal)


def test_randomized_response_by_hand() -> None:
    # By hand: the other record's report is the same law on both sides and cancels, so
    # D_α = 1/(α-1) ln(p^α (1-p)^(1-α) + (1-p)^α p^(1-α)) with p = 3/4:
    # α = 2: 9/16 * 4 + 1/16 * 4/3 = 7/3; α = 3: 27/64 * 16 + 1/64 * 16/9 = 61/9, over 2;
    # α = 3/2: (3/4)^(3/2) 2 + (1/4)^(3/2) (2/sqrt 3) = 5 sqrt(3)/6, over 1/2.
    rr = discrete.randomized_response("3/4", [[0, 1], [0, 1]])
    assert _renyi(PAIR, rr, 2) == sympy.log(sympy.Rational(7, 3))
    assert _renyi(PAIR, rr, 3) == sympy.log(sympy.Rational(61, 9)) / 2
    got = _renyi(PAIR, rr, Fraction(3, 2))
    assert sympy.simplify(got - 2 * sympy.log(5 * sympy.sqrt(3) / 6)) == 0


def test_rdp_is_below_pure_dp_and_grows_with_the_order() -> None:
    # Mironov Proposition 3 / monotonicity in α: D_α <= D_∞ = ln 3 (pure DP), and
    # D_α is non-decreasing in α (Mironov 2017, Proposition 9 of the full version)
    rr = discrete.randomized_response("3/4", [[0, 1], [0, 1]])
    values = [_decimal(_renyi(PAIR, rr, a)) for a in (Fraction(3, 2), 2, 3, 10)]
    assert values == sorted(values) and values[-1] < mpmath.log(3)


def test_laplace_matches_mironovs_table_2_and_a_quadrature() -> None:
    # Mironov 2017 Table 2 (sensitivity 1, scale λ), written out here, and the definition
    # integrated numerically: ∫ p(x)^α q(x)^(1-α) dx for p = Lap(1, λ), q = Lap(0, λ)
    noise = LaplaceNoise(Fraction(2))
    for alpha in (Fraction(2), Fraction(3, 2), Fraction(5)):
        got = _decimal(_renyi(PAIR, noise, alpha))
        with mpmath.workdps(40):
            a, lam = mpmath.mpf(alpha.numerator) / alpha.denominator, mpmath.mpf(2)
            table2 = mpmath.log(
                a / (2 * a - 1) * mpmath.exp((a - 1) / lam)
                + (a - 1) / (2 * a - 1) * mpmath.exp(-a / lam)
            ) / (a - 1)

            def integrand(x: mpmath.mpf, a: mpmath.mpf = a, lam: mpmath.mpf = lam) -> mpmath.mpf:
                p = mpmath.exp(-abs(x - 1) / lam) / (2 * lam)
                q = mpmath.exp(-abs(x) / lam) / (2 * lam)
                return p**a * q ** (1 - a)

            quad = mpmath.log(mpmath.quad(integrand, [-mpmath.inf, 0, 1, mpmath.inf])) / (a - 1)
            assert abs(got - table2) < mpmath.mpf(10) ** -25
            assert abs(got - quad) < mpmath.mpf(10) ** -20


def test_laplace_sup_is_at_the_sensitivity() -> None:
    # the target's weight 3 on domain {0, 1}: the largest shift is 3, so ε(α) is Table 2
    # with 1/λ replaced by 3/λ (by hand: the closed form is increasing in the shift)
    noise = LaplaceNoise(Fraction(1), {"x1": 3, "x2": 1})
    res = audit(PAIR, noise, target="x1", notions=["renyi-dp"], alpha=2)["renyi-dp"]
    want = sympy.log(sympy.Rational(2, 3) * sympy.exp(3) + sympy.exp(-6) / 3)
    assert sympy.simplify(res.epsilon - want) == 0
    assert res.witness == {"sensitivity": 3}
    assert res.delta_at_epsilon == () and res.epsilon_at_delta is None


def _mp(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def _brute(rows: dict, domains: list[list[int]], alpha: Fraction) -> mpmath.mpf | None:
    """max over D and b != D(x1) of D_α(M(D) || M(D_{x1→b})), from the definition."""
    best = None
    for d in itertools.product(*domains):
        for b in domains[0]:
            if b == d[0]:
                continue
            p, q = rows[d], rows[(b, *d[1:])]
            if any(v and not q.get(o) for o, v in p.items()):
                return None  # an output possible only under D: D_α = ∞
            with mpmath.workdps(50):
                a = mpmath.mpf(alpha.numerator) / alpha.denominator
                s = mpmath.fsum(_mp(v) ** a * _mp(q[o]) ** (1 - a) for o, v in p.items() if v)
                val = mpmath.log(s) / (a - 1)
            best = val if best is None or val > best else best
    return best


laws = st.lists(st.integers(1, 6), min_size=2, max_size=3)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(laws, min_size=4, max_size=4),
    st.sampled_from([Fraction(2), Fraction(3), Fraction(3, 2), Fraction(7, 4)]),
)
def test_finite_tables_match_a_brute_force(weights: list[list[int]], alpha: Fraction) -> None:
    # a table mechanism on two binary records: every output law has full support on its
    # outputs 0..k-1; the brute force above recomputes every pair's divergence
    domains = [[0, 1], [0, 1]]
    k = min(len(w) for w in weights)
    rows = {}
    for d, w in zip(itertools.product(*domains), weights, strict=True):
        tot = sum(w[:k])
        rows[d] = {o: Fraction(x, tot) for o, x in enumerate(w[:k])}
    mech = discrete.table(rows)
    got = _renyi(PAIR, mech, alpha)
    want = _brute(rows, domains, alpha)
    assert want is not None
    with mpmath.workdps(50):
        assert abs(_decimal(got) - want) < mpmath.mpf(10) ** -25


def test_an_output_impossible_on_one_side_is_infinite() -> None:
    # by hand: M(D) = D(x1) exactly, so M(0,·) puts mass on 0 where M(1,·) puts none
    rows = {d: {d[0]: Fraction(1)} for d in itertools.product([0, 1], [0, 1])}
    assert _renyi(PAIR, discrete.table(rows), 2) is sympy.oo
    assert _brute(rows, [[0, 1], [0, 1]], Fraction(2)) is None


def test_the_order_must_exceed_one_and_structured_models_are_refused() -> None:
    rr = discrete.randomized_response("3/4", [[0, 1], [0, 1]])
    for bad in (1, Fraction(1, 2), 0):
        with pytest.raises(InputError) as err:
            _renyi(PAIR, rr, bad)
        assert err.value.field == "alpha"
    assert registry.notion("renyi-dp").compare is registry.Compare.RENYI
    assert "renyi-dp" not in registry.ALL_NOTIONS  # "all" and the default set stay as they were


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["audit", "docs/examples/pair.json", "docs/examples/rr.json", "--target", "x1"]
    assert main([*args, "--notions", "renyi-dp", "--alpha", "2", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"exact": "log(7/3)"' in out  # by hand, as in test_randomized_response_by_hand
    assert main([*args, "--notions", "renyi-dp", "--alpha", "1"]) == 2
    assert "--alpha" in capsys.readouterr().err
    chain = ["audit", "docs/examples/chain3.json", "docs/examples/laplace2.json", "--target", "x1"]
    assert main([*chain, "--notions", "renyi-dp"]) == 2
    assert "structured" in capsys.readouterr().err


def test_geometric_noise_on_the_sum_by_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # By hand: two-sided geometric noise P[k] = c r^|k|, c = (1-r)/(1+r) = 1/3, r = 1/2,
    # on x1 + x2; dp's worst pair shifts the sum by 1. At α = 2,
    # Σ_k P(k)^2 / P(k-1) = c (Σ_{k<=0} r^(|k|-1) + Σ_{k>=1} r^(k+1)) = (4 + 1/2)/3 = 3/2.
    # The mechanism lumps its far tails, whose likelihood ratio is constant there, and a
    # lump of constant ratio keeps every Rényi divergence (the sum factors).
    mech = tmp_path / "geometric.json"
    mech.write_text('{"kind": "geometric", "alpha": "1/2"}')
    args = ["audit", "docs/examples/pair.json", str(mech), "--target", "x1", "--json"]
    assert main([*args, "--notions", "renyi-dp", "--alpha", "2"]) == 0
    assert '"exact": "log(3/2)"' in capsys.readouterr().out

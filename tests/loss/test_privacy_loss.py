"""The privacy-loss interface (pdpsym.loss): δ(ε) and ε(δ) against independent sources.

Sources, each named at its test: a hand derivation (classic DP of Laplace noise),
dp_accounting's privacy loss distributions (pessimistic above, optimistic below), an
mpmath quadrature written here (split at the centres and at the sign changes of
p - e^ε q), and a Fraction brute force over a wide integer window with a bounded tail.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdpsym.core.eps import Eps
from pdpsym.core.exp_sqrt_sums import Bracket
from pdpsym.loss import GeometricPair, LaplacePair, PMFPair, Weighted, worst_case
from pdpsym.loss.base import exact_sign


def _num(x: object) -> mpmath.mpf:
    """A value of the interface to 40 certified digits, as an mpmath number (the
    comparisons below run at 40+ digits)."""
    from pdpsym.core.certify import certify

    with mpmath.workdps(50):
        return +mpmath.mpf(certify(x, 40).decimal)


# --- hand derivation ------------------------------------------------------------------


@pytest.mark.parametrize("lam", [F(1), F(1, 2), F(3)])
@pytest.mark.parametrize("sens", [F(1), F(2)])
@pytest.mark.parametrize("frac", [F(0), F(1, 3), F(9, 10)])
def test_laplace_classic_dp_closed_form(lam: F, sens: F, frac: F) -> None:
    # Hand derivation. P = Lap(0, λ), Q = Lap(Δ, λ). For 0 <= ε <= Δ/λ, p > e^ε q exactly
    # for r < r* = (Δ - λε)/2 (the log ratio is Δ/λ left of 0, (Δ - 2r)/λ on [0, Δ] and
    # -Δ/λ right of Δ), with 0 <= r* <= Δ. So δ = P(r < r*) - e^ε Q(r < r*) with
    # P(r < r*) = 1 - e^{-r*/λ}/2 and Q(r < r*) = e^{(r* - Δ)/λ}/2; both exponents equal
    # (ε - Δ/λ)/2, hence δ(ε) = 1 - e^{(ε - Δ/λ)/2}.
    eps = frac * sens / lam
    got = LaplacePair({F(0): F(1)}, {sens: F(1)}, lam).delta(Eps.of(eps)).value
    with mpmath.workdps(50):
        want = 1 - mpmath.exp(
            (
                mpmath.mpf(eps.numerator) / eps.denominator
                - mpmath.mpf(sens.numerator)
                / sens.denominator
                / (mpmath.mpf(lam.numerator) / lam.denominator)
            )
            / 2
        )
        assert abs(_num(got) - want) < mpmath.mpf(10) ** -35


def test_laplace_classic_dp_epsilon_zero_is_sensitivity_over_scale() -> None:
    # Hand derivation: the log ratio's sup is Δ/λ (left of 0), so ε(0) = Δ/λ = 2/3.
    assert LaplacePair({F(0): F(1)}, {F(2): F(1)}, F(3)).epsilon().value == F(2, 3)


# --- dp_accounting ----------------------------------------------------------------------


@pytest.mark.parametrize("eps", [F(0), F(1, 4), F(1, 2), F(9, 10)])
def test_laplace_between_dp_accounting_estimates(eps: F) -> None:
    # dp_accounting's PLD of the Laplace mechanism (scale 1, sensitivity 1): the
    # pessimistic estimate bounds δ from above, the optimistic one from below.
    from dp_accounting.pld import privacy_loss_distribution as pld

    hi = pld.from_laplace_mechanism(1.0, sensitivity=1.0).get_delta_for_epsilon(float(eps))
    lo = pld.from_laplace_mechanism(
        1.0, sensitivity=1.0, pessimistic_estimate=False
    ).get_delta_for_epsilon(float(eps))
    exact = float(_num(LaplacePair({F(0): F(1)}, {F(1): F(1)}, F(1)).delta(Eps.of(eps)).value))
    assert lo - 1e-12 <= exact <= hi + 1e-12
    assert hi - lo < 1e-2  # the bracket is informative


@pytest.mark.parametrize("eps", [F(0), F(1, 4), F(1, 2)])
def test_discrete_laplace_between_dp_accounting_estimates(eps: F) -> None:
    # dp_accounting's discrete Laplace with parameter ln 2 is P(k) ∝ 2^{-|k|}: the
    # two-sided geometric law with α = 1/2, sensitivity 1.
    import math

    from dp_accounting.pld import privacy_loss_distribution as pld

    hi = pld.from_discrete_laplace_mechanism(math.log(2), sensitivity=1).get_delta_for_epsilon(
        float(eps)
    )
    lo = pld.from_discrete_laplace_mechanism(
        math.log(2), sensitivity=1, pessimistic_estimate=False
    ).get_delta_for_epsilon(float(eps))
    exact = float(_num(GeometricPair({F(0): F(1)}, {F(1): F(1)}, F(1, 2)).delta(Eps.of(eps)).value))
    assert lo - 1e-9 <= exact <= hi + 1e-9


# --- mpmath quadrature on correlated tables -----------------------------------------------


def _density(weights: dict[F, F], lam: F, r: mpmath.mpf) -> mpmath.mpf:
    lm = mpmath.mpf(lam.numerator) / lam.denominator
    return sum(
        (mpmath.mpf(w.numerator) / w.denominator)
        * mpmath.exp(-abs(r - mpmath.mpf(s.numerator) / s.denominator) / lm)
        / (2 * lm)
        for s, w in weights.items()
    )


def _quadrature(p: dict[F, F], q: dict[F, F], lam: F, eps: F) -> mpmath.mpf:
    """∫ (p - e^ε q)_+ by mpmath: split at the centres, then at every sign change found
    on a grid and refined by bisection, each positive piece integrated (tails to ±∞)."""
    with mpmath.workdps(50):
        e = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator)

        def g(r: mpmath.mpf) -> mpmath.mpf:
            return _density(p, lam, r) - e * _density(q, lam, r)

        cs = sorted({mpmath.mpf(s.numerator) / s.denominator for s in (*p, *q)})
        cuts = list(cs)
        for a, b in itertools.pairwise(cs):
            grid = [a + (b - a) * k / 64 for k in range(65)]
            for x, y in itertools.pairwise(grid):
                if g(x) * g(y) <= 0:
                    for _ in range(120):
                        m = (x + y) / 2
                        x, y = (m, y) if g(m) * g(x) > 0 else (x, m)
                    cuts.append((x + y) / 2)
        cuts.sort()
        pts = [-mpmath.inf, *cuts, mpmath.inf]
        total = mpmath.mpf(0)
        for a, b in itertools.pairwise(pts):
            inner = (2 * a + b) / 3 if a != -mpmath.inf and b != mpmath.inf else None
            mid = inner if inner is not None else (b - 1 if a == -mpmath.inf else a + 1)
            if g(mid) > 0:
                total += mpmath.quad(g, [a, b])
        return total


def _table(draw: st.DrawFn, n: int) -> dict[tuple[int, ...], F]:
    raw = [draw(st.integers(1, 9)) for _ in range(2**n)]
    z = sum(raw)
    return {d: F(r, z) for d, r in zip(itertools.product((0, 1), repeat=n), raw, strict=True)}


@st.composite
def _instance(draw: st.DrawFn) -> tuple[dict, int, F, F]:
    n = draw(st.sampled_from([2, 3]))
    return (
        _table(draw, n),
        n,
        F(draw(st.integers(1, 3)), draw(st.integers(1, 2))),
        F(draw(st.integers(0, 4)), 4),
    )


def _conditional_query_law(table: dict, cond: dict[int, int]) -> dict[F, F]:
    """Law of the count f(D) = Σ D(k) given D(k) = v for (k, v) in cond, by brute force."""
    rows = {d: p for d, p in table.items() if all(d[k] == v for k, v in cond.items())}
    z = sum(rows.values())
    out: dict[F, F] = {}
    for d, p in rows.items():
        out[F(sum(d))] = out.get(F(sum(d)), F(0)) + p / z
    return out


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_instance(), st.booleans())
def test_laplace_mixtures_of_correlated_tables_agree_with_quadrature(inst, with_known) -> None:
    # APKDP's pairs for Laplace noise on the count of a correlated 2- or 3-record table:
    # the laws of f(D) given D(0) = a (and the last record known) mixed with Lap(λ);
    # each δ agrees with the quadrature written above.
    table, n, lam, eps = inst
    knowns = [{n - 1: 0}, {n - 1: 1}] if with_known else [{}]
    for kn in knowns:
        p = _conditional_query_law(table, {0: 0, **kn})
        q = _conditional_query_law(table, {0: 1, **kn})
        exact = _num(LaplacePair(p, q, lam).delta(Eps.of(eps)).value)
        with mpmath.workdps(50):
            assert abs(exact - _quadrature(p, q, lam, eps)) < mpmath.mpf(10) ** -25


def test_audit_laplace_apkdp_is_max_of_quadratures() -> None:
    # The audit's APKDP δ for Laplace noise (count query, λ = 1, x3 known) is the max over
    # (a, b, known value) of the quadratures of the conditional mixtures built here.
    import pdpsym as ps

    rows = [
        [0, 0, 0, "1/4"],
        [0, 0, 1, "1/8"],
        [0, 1, 1, "1/8"],
        [1, 1, 1, "1/4"],
        [1, 1, 0, "1/8"],
        [1, 0, 0, "1/8"],
    ]
    m = ps.JointDistribution.from_rows(["x1", "x2", "x3"], rows)
    table = {
        (0, 0, 0): F(1, 4),
        (0, 0, 1): F(1, 8),
        (0, 1, 1): F(1, 8),
        (1, 1, 1): F(1, 4),
        (1, 1, 0): F(1, 8),
        (1, 0, 0): F(1, 8),
    }
    got = ps.audit.audit(m, ps.mechanisms.laplace(1), "x1", ["x3"], ["1/2"], notions=["apkdp"])
    value = _num(got["apkdp"].delta_at_epsilon[0][1])
    quads = []
    for a, b, k in itertools.product((0, 1), (0, 1), (0, 1)):
        if a != b:
            quads.append(
                _quadrature(
                    _conditional_query_law(table, {0: a, 2: k}),
                    _conditional_query_law(table, {0: b, 2: k}),
                    F(1),
                    F(1, 2),
                )
            )
    with mpmath.workdps(50):
        assert abs(value - max(quads)) < mpmath.mpf(10) ** -25


# --- geometric: Fraction brute force -------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(
    st.dictionaries(st.integers(-3, 3), st.integers(1, 5), min_size=1, max_size=3),
    st.dictionaries(st.integers(-3, 3), st.integers(1, 5), min_size=1, max_size=3),
    st.sampled_from([F(1, 3), F(1, 2), F(2, 3)]),
    st.sampled_from([F(1), F(3, 2), F(2), F(5)]),
)
def test_geometric_against_brute_force(pw, qw, alpha, w) -> None:
    # Brute force: Σ_o max(0, P(o) - w Q(o)) over o in [-3 - W, 3 + W] with Fractions; the
    # rest is at most P's mass outside the window, Σ_s p(s) 2 α^{W+1}/(1-α) (c α^k summed).
    zp, zq = sum(pw.values()), sum(qw.values())
    p = {F(s): F(c, zp) for s, c in pw.items()}
    q = {F(s): F(c, zq) for s, c in qw.items()}
    c = (1 - alpha) / (1 + alpha)
    W = 60

    def pmf(ws: dict, o: int) -> F:
        return c * sum((v * alpha ** abs(o - s) for s, v in ws.items()), F(0))

    brute = sum((max(F(0), pmf(p, o) - w * pmf(q, o)) for o in range(-3 - W, 4 + W)), F(0))
    tail = 2 * alpha ** (W + 1) / (1 - alpha)
    got = GeometricPair(p, q, alpha).delta(Eps.log(w)).value
    assert isinstance(got.rational(), F)
    assert brute <= got.rational() <= brute + tail


# --- ε(δ) round trips ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "loss",
    [
        LaplacePair({F(0): F(1)}, {F(1): F(1)}, F(1)),
        LaplacePair({F(0): F(1, 3), F(2): F(2, 3)}, {F(1): F(1, 2), F(2): F(1, 2)}, F(1, 2)),
        Weighted(
            [
                (F(1, 2), LaplacePair({F(0): F(1)}, {F(1): F(1)}, F(1))),
                (F(1, 2), LaplacePair({F(0): F(1)}, {F(3): F(1)}, F(1))),
            ]
        ),
    ],
)
@pytest.mark.parametrize("delta", [F(1, 100), F(1, 10), F(1, 3)])
def test_epsilon_at_delta_round_trips(loss, delta) -> None:
    # The law of ε(δ): δ(ε(δ)) ≤ δ, and any smaller ε gives δ > the given one (checked
    # at the bracket's two ends, decided exactly).
    pt = loss.epsilon(delta)
    v = pt.value
    if isinstance(v, Bracket):
        v.tighten(F(1, 10**12))
        assert exact_sign(loss.delta(Eps.of(v.hi)).value, delta) <= 0
        assert exact_sign(loss.delta(Eps.of(v.lo)).value, delta) > 0
    else:
        assert v == 0 and exact_sign(loss.delta(Eps.of(0)).value, delta) <= 0


def test_pmf_pair_epsilon_at_delta_is_exact() -> None:
    # Hand derivation: P = (3/4, 1/4), Q = (1/4, 3/4): δ(t) = 3/4 - t/4 for 1 <= t <= 3,
    # so δ = 1/4 at t = 2 and ε(1/4) = ln 2; δ = 0 from t = 3.
    pair = PMFPair({0: F(3, 4), 1: F(1, 4)}, {0: F(1, 4), 1: F(3, 4)})
    assert str(pair.epsilon(F(1, 4)).value) == "log(2)"
    assert str(pair.epsilon().value) == "log(3)"


def test_worst_case_keeps_the_largest_and_its_witness() -> None:
    # Two Laplace pairs with sensitivities 1 and 2 (λ = 1): by the hand derivation above
    # the second has the larger δ at every ε < 2, and ε(0) = 2.
    wc = worst_case(
        [
            ({"case": "one"}, LaplacePair({F(0): F(1)}, {F(1): F(1)}, F(1))),
            ({"case": "two"}, LaplacePair({F(0): F(1)}, {F(2): F(1)}, F(1))),
        ]
    )
    assert wc.delta(Eps.of(F(1, 2))).where == {"case": "two"}
    assert wc.epsilon().value == 2

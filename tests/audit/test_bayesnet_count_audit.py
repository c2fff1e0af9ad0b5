"""``audit`` of a Bayesian network's count and sum queries (``count_query``, ``sum_query``,
``--count`` / ``--sum``, the mechanism file's ``count`` / ``sum`` keys).

Independent source of every expected value: a brute force written here over the full
joint of a 4-node network whose tables are written here (Fraction products of the chain
rule, summed per count), and Laplace mixtures evaluated with mpmath at 50 digits at their
breakpoints. On each interval between consecutive centres a Laplace mixture is
``A e^{t/λ} + B e^{-t/λ}``, so the ratio of two mixtures is ``(A u^2 + B)/(C u^2 + D)``
with ``u = e^{t/λ}``: monotone, and its sup is at a centre or at ``t → ±∞`` (where it
tends to ``Σ α_s e^{±s/λ} / Σ β_s e^{±s/λ}``).
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import mpmath
import pytest
import sympy

from pdpsym.app.cli import main
from pdpsym.audit import audit
from pdpsym.core.certify import certify
from pdpsym.core.errors import InputError
from pdpsym.mechanisms.sum_kernels import GeometricSum, LaplaceSum, ThresholdSum
from pdpsym.models.bayesnet import BayesianNetwork

# a -> b -> c, a -> d; states {lo, mid, hi} for b (three states: a count is not the sum)
BIF = """network t {}
variable a { type discrete [ 2 ] { yes, no }; }
variable b { type discrete [ 3 ] { lo, mid, hi }; }
variable c { type discrete [ 2 ] { yes, no }; }
variable d { type discrete [ 2 ] { yes, no }; }
probability ( a ) { table 0.3, 0.7; }
probability ( b | a ) { (yes) 0.2, 0.5, 0.3; (no) 0.6, 0.3, 0.1; }
probability ( c | b ) { (lo) 0.9, 0.1; (mid) 0.5, 0.5; (hi) 0.25, 0.75; }
probability ( d | a ) { (yes) 0.8, 0.2; (no) 0.1, 0.9; }
"""
BINARY = """network b {}
variable a { type discrete [ 2 ] { yes, no }; }
variable c { type discrete [ 2 ] { yes, no }; }
variable d { type discrete [ 2 ] { yes, no }; }
probability ( a ) { table 0.3, 0.7; }
probability ( c | a ) { (yes) 0.9, 0.1; (no) 0.5, 0.5; }
probability ( d | a, c ) { (yes, yes) 0.8, 0.2; (no, yes) 0.1, 0.9; (yes, no) 0.4, 0.6;
  (no, no) 0.3, 0.7; }
"""
STATES = {"a": ("yes", "no"), "b": ("lo", "mid", "hi"), "c": ("yes", "no"), "d": ("yes", "no")}
F = Fraction
CPT = {  # the same tables, written again for the brute force: (parent state) -> row
    "a": (None, {(): (F(3, 10), F(7, 10))}),
    "b": ("a", {(0,): (F(2, 10), F(5, 10), F(3, 10)), (1,): (F(6, 10), F(3, 10), F(1, 10))}),
    "c": ("b", {(0,): (F(9, 10), F(1, 10)), (1,): (F(1, 2), F(1, 2)), (2,): (F(1, 4), F(3, 4))}),
    "d": ("a", {(0,): (F(8, 10), F(2, 10)), (1,): (F(1, 10), F(9, 10))}),
}
LAM = Fraction(1, 2)
CHAIN = json.dumps(
    {
        "kind": "markov-chain",
        "states": [0, 1],
        "initial": ["1/2", "1/2"],
        "length": 2,
        "transition": [["3/4", "1/4"], ["1/4", "3/4"]],
    }
)


def _joint():
    """Every assignment (state indices) with its probability, by the chain rule."""
    names = list(STATES)
    for xs in itertools.product(*(range(len(STATES[v])) for v in names)):
        x = dict(zip(names, xs, strict=True))
        p = Fraction(1)
        for v, (parent, rows) in CPT.items():
            p *= rows[() if parent is None else (x[parent],)][x[v]]
        yield x, p


def _count_laws(counted, state, target, known):
    """``{(a, v): {count: P(count | x_target = a, x_known = v)}}`` by brute force."""
    acc: dict = {}
    for x, p in _joint():
        s = sum(STATES[u][x[u]] == state for u in counted)
        key = (x[target], tuple(x[k] for k in known))
        law = acc.setdefault(key, {})
        law[s] = law.get(s, Fraction(0)) + p
    out = {}
    for key, law in acc.items():
        z = sum(law.values())
        out[key] = {s: q / z for s, q in law.items()}
    return out


def _sup_log_ratio(p, q, lam):
    """``sup_t log(Σ p_s Lap(t - s) / Σ q_s Lap(t - s))`` (the module docstring)."""
    lam = mpmath.mpf(lam.numerator) / lam.denominator

    def mix(law, t):
        return sum(
            mpmath.mpf(w.numerator) / w.denominator * mpmath.exp(-abs(t - s) / lam)
            for s, w in law.items()
        )

    def tail(law, sign):
        return sum(
            mpmath.mpf(w.numerator) / w.denominator * mpmath.exp(sign * s / lam)
            for s, w in law.items()
        )

    vals = [mpmath.log(mix(p, s) / mix(q, s)) for s in set(p) | set(q)]
    vals += [mpmath.log(tail(p, sg) / tail(q, sg)) for sg in (1, -1)]
    return max(vals)


def _brute(counted, state, target, known):
    """dp, apkdp and ppkdp at δ = 0 for Laplace noise of scale LAM on the count."""
    laws = _count_laws(counted, state, target, known)
    # dp: the count moves by at most 1 when the target changes, and by 1 exactly when it
    # is counted and has the state (every other record fixed)
    dp = Fraction(1 if target in counted and state in STATES[target] else 0) / LAM
    apk = max(
        _sup_log_ratio(laws[(a, v)], laws[(b, v)], LAM)
        for (a, v), (b, w) in itertools.permutations(laws, 2)
        if v == w
    )
    # every table row is positive, so every known value is compatible with every target
    # value: PPKDP's δ(ε) = Σ_v P(v | a) δ_v(ε) is 0 exactly when every δ_v(ε) is
    return dp, apk, apk


def _figures(r):
    """A result as comparable values: 40 certified digits of each figure, the witnesses."""

    def digits(v):
        if v is None:
            return None
        if hasattr(v, "sympy") and not isinstance(v, sympy.Basic):
            v = v.sympy()
        return "oo" if v == sympy.oo else certify(v, 40).decimal

    return (
        r.notion,
        digits(r.epsilon),
        r.witness,
        [(digits(d), w) for _, d, w in r.delta_at_epsilon],
        None if r.epsilon_at_delta is None else digits(r.epsilon_at_delta[1]),
        r.reading,
        r.note,
    )


def _net():
    return BayesianNetwork.from_bif_text(BIF)


def _eps(r):
    return mpmath.mpf(certify(r.epsilon, 30).decimal.replace("…", ""))


CASES = [
    (("a", "c"), "yes", "c", ("b",)),  # b known and not counted (state lo/mid/hi)
    (("a", "c", "d"), "yes", "d", ("b",)),
    (("a", "c", "d"), "no", "a", ("c",)),  # a known record counted
    (("b",), "mid", "a", ("d",)),  # the target is not counted
    (("a", "b", "c", "d"), "no", "a", ()),  # b has no state 'no': refused (below)
]


@pytest.mark.parametrize("counted, state, target, known", CASES[:4])
def test_count_audit_matches_brute_force(fifty_digits, counted, state, target, known):
    net = _net().count_query(list(counted), state)
    res = audit(net, LaplaceSum(lam=LAM), target, known, notions=["dp", "apkdp", "ppkdp"])
    got = {r.notion: r for r in res.results}
    dp, apk, ppk = _brute(counted, state, target, known)
    assert Fraction(str(got["dp"].epsilon)) == dp
    assert abs(_eps(got["apkdp"]) - apk) < mpmath.mpf(10) ** -25
    assert abs(_eps(got["ppkdp"]) - ppk) < mpmath.mpf(10) ** -25


def test_count_on_a_node_without_the_state_is_refused():
    with pytest.raises(InputError) as err:
        _net().count_query(list(CASES[4][0]), CASES[4][1])
    assert err.value.field == "count"


def _same_audits(mechs, notions):
    # on a binary network the state values are the indices 0, 1: counting state 'no'
    # (index 1) on every node is the sum of the records' values, the default query
    net = BayesianNetwork.from_bif_text(BINARY)
    counted = net.count_query(list(net.variables), "no")
    for mech in mechs:
        a = audit(net, mech, "d", ["a"], ["1/2"], "1/10", notions)
        b = audit(counted, mech, "d", ["a"], ["1/2"], "1/10", notions)
        for x, y in zip(a.results, b.results, strict=True):
            assert _figures(x) == _figures(y), (mech.kind, x.notion)


def test_count_of_every_node_in_state_one_is_the_default_query_on_a_binary_network():
    _same_audits(
        [GeometricSum(alpha=Fraction(1, 3)), ThresholdSum(T=F(1))],
        ["dp", "apkdp", "ppkdp", "cdp", "ibcdp", "dependent-dp"],
    )
    _same_audits([LaplaceSum(lam=LAM)], ["dp", "apkdp", "ppkdp", "cdp"])


def test_sum_query_equals_zero_weights_on_the_other_records():
    # independent path: the default query with weight 0 on the records not summed (the
    # weights, not the query's values, drop them)
    net = _net()
    notions = ["dp", "apkdp", "ppkdp", "cdp", "dependent-dp"]
    for mech, zero in (
        (LaplaceSum(lam=LAM), LaplaceSum({"d": F(0)}, lam=LAM)),
        (
            ThresholdSum(T=F(1)),
            ThresholdSum({"d": F(0)}, T=F(1)),
        ),
    ):
        a = audit(net.sum_query(["a", "b", "c"]), mech, "b", ["d"], ["1/2"], None, notions)
        b = audit(net, zero, "b", ["d"], ["1/2"], None, notions)
        for x, y in zip(a.results, b.results, strict=True):
            assert _figures(x) == _figures(y), (mech.kind, x.notion)


@pytest.mark.slow
def test_count_equals_the_default_query_for_every_notion():
    _same_audits(
        [
            LaplaceSum(lam=LAM),
            GeometricSum(alpha=Fraction(1, 3)),
            ThresholdSum(T=F(1)),
        ],
        ["dp", "apkdp", "ppkdp", "cdp", "ibcdp", "dependent-dp", "distributional-dp"],
    )


def _run(capsys, *args):
    """``pdpsym ARGS`` in this process: (exit code, stdout, stderr)."""
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_count_flag_and_mechanism_file_agree(fifty_digits, tmp_path, capsys):
    model = tmp_path / "t.bif"
    model.write_text(BIF)
    plain = tmp_path / "lap.json"
    plain.write_text(json.dumps({"kind": "laplace", "lam": "1/2"}))
    keyed = tmp_path / "count.json"
    keyed.write_text(
        json.dumps(
            {"kind": "laplace", "lam": "1/2", "count": {"nodes": ["a", "c"], "state": "yes"}}
        )
    )
    base = ["--target", "c", "--known", "b", "--notions", "dp,apkdp,ppkdp", "--json"]
    one = _run(capsys, "audit", str(model), str(plain), *base, "--count", "a,c=yes")
    two = _run(capsys, "audit", str(model), str(keyed), *base)
    assert one[0] == 0, one[2]
    assert one[1] == two[1]
    got = json.loads(one[1])["notions"]
    _, apk, _ = _brute(("a", "c"), "yes", "c", ("b",))
    lo, hi = (mpmath.mpf(x) for x in got["apkdp"]["epsilon"]["enclosure"])
    tiny = mpmath.mpf(10) ** -40  # the brute force's own rounding (50 digits)
    assert lo - tiny <= apk <= hi + tiny


@pytest.mark.parametrize(
    "extra, mech, field",
    [
        (["--count", "zz=yes"], {"kind": "laplace", "lam": "1"}, "--count"),
        (["--count", "a,c=maybe"], {"kind": "laplace", "lam": "1"}, "--count"),
        (["--count", "a=yes", "--sum", "a"], {"kind": "laplace", "lam": "1"}, "--count"),
        (
            [],
            {"kind": "laplace", "lam": "1", "count": {"nodes": ["a"], "state": "x"}},
            "mechanism.count",
        ),
        ([], {"kind": "laplace", "lam": "1", "sum": ["zz"]}, "mechanism.sum"),
        ([], {"kind": "laplace", "lam": "1", "count": ["a"]}, "mechanism.count"),
        (["--sum", "a"], {"kind": "randomized-response", "keep": "1/2"}, "--sum"),
        (["--count", "a=yes"], {"kind": "laplace", "lam": "1", "sum": ["a"]}, "--count"),
        (["--sum", "a"], {"kind": "laplace", "lam": "1", "query": "histogram"}, "--sum"),
        (["--count", "x1=yes"], {"kind": "laplace", "lam": "1"}, "--count"),  # a chain
    ],
)
def test_cli_bad_query_exits_2_with_one_line(tmp_path, capsys, extra, mech, field):
    model = tmp_path / "t.bif"
    model.write_text(BIF)
    if "x1=yes" in extra:  # a Markov chain model: no count query
        model = tmp_path / "chain.json"
        model.write_text(CHAIN)
    path = tmp_path / "m.json"
    path.write_text(json.dumps(mech))
    code, stdout, stderr = _run(
        capsys, "audit", str(model), str(path), "--target", "a", "--notions", "dp", *extra
    )
    assert code == 2
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"pdpsym: error: {field}:"), stderr
    assert stdout == ""

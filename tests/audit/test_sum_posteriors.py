"""ibcdp and distributional-dp on structured models against independent sources: the
full-joint-table engine (``audit`` on ``model.to_joint()``, which lists every database
and builds the posteriors and the LP over every rest), hand derivations, and brute-force
sums over the joint table written here."""

from __future__ import annotations

import json
from fractions import Fraction

import mpmath
import pytest
import sympy
from app.test_structured_audit_cli import CHAIN, joint_rows
from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.app.cli import main
from pdpsym.app.commands.audit import result_json
from pdpsym.audit import audit
from pdpsym.core.certify import certify
from pdpsym.core.eps import Eps
from pdpsym.core.exp_sqrt_sums import Bracket
from pdpsym.mechanisms.laplace import laplace
from pdpsym.mechanisms.sum_kernels import GeometricSum, LaplaceSum
from pdpsym.models.bayesnet import BayesianNetwork
from pdpsym.models.counts import exact_joint_law
from pdpsym.models.markov import MarkovChain
from pdpsym.models.product import ProductModel
from pdpsym.models.query_law import records_law

from .test_sum_mechanisms import chains, networks, products, sum_mechanisms

KINDS = ["laplace", "geometric", "count", "threshold"]


def _digits(v, n=25):
    """A value as comparable text: infinite, or ``n`` certified digits (a bracket: its
    ends once narrowed to ``10^-n``, an absolute width, since a sup of 0 has no relative
    digits)."""
    if v is None:
        return None
    if isinstance(v, sympy.Basic) and v == sympy.oo:
        return "oo"
    if isinstance(v, Bracket):
        v.tighten(Fraction(1, 10**n))
        return v
    return certify(v, n).decimal


def _same(a, b):
    """Equal digits, or (brackets) enclosures of width 10^-n that meet."""
    if isinstance(a, Bracket) or isinstance(b, Bracket):
        return _meet(_interval(a), _interval(b))
    return a == b


def _interval(v):
    """An exact rational enclosure ``(lo, hi)`` of a reported value (``hi`` None: oo)."""
    if isinstance(v, Bracket):
        return v.lo, v.hi
    if isinstance(v, Fraction):
        return v, v
    if isinstance(v, sympy.Basic) and v == sympy.oo:
        return None, None
    lo, hi = certify(v, 40).enclosure
    return Fraction(lo), Fraction(hi)


def _meet(a, b):
    """Whether two enclosures intersect (oo meets only oo)."""
    (alo, ahi), (blo, bhi) = a, b
    if ahi is None or bhi is None:
        return ahi is None and bhi is None
    return max(alo, blo) <= min(ahi, bhi)


def _prefix_consistent(x, y):
    """The digits two reports show agree: one is a prefix of the other (``…`` dropped)."""
    a, b = x.rstrip("…"), y.rstrip("…")
    return a.startswith(b) or b.startswith(a)


def _ibcdp_agrees(model, target, known, kind, weights, eps, delta):
    joint = model.to_joint()
    sm, jm = sum_mechanisms(kind, weights, joint)
    got = audit(model, sm, target, known, eps, delta, ["ibcdp"])["ibcdp"]
    ref = audit(joint, jm, target, known, eps, delta, ["ibcdp"])["ibcdp"]
    assert _same(_digits(got.epsilon), _digits(ref.epsilon))
    for (_, d1, _), (_, d2, _) in zip(got.delta_at_epsilon, ref.delta_at_epsilon, strict=True):
        assert _same(_digits(d1), _digits(d2))
    if delta is not None:
        assert _same(_digits(got.epsilon_at_delta[1]), _digits(ref.epsilon_at_delta[1]))


def _ddp_agrees(model, target, known, kind, weights, eps, delta):
    joint = model.to_joint()
    sm, jm = sum_mechanisms(kind, weights, joint)
    got = audit(model, sm, target, known, eps, delta, ["distributional-dp"])["distributional-dp"]
    ref = audit(joint, jm, target, known, eps, delta, ["distributional-dp"])["distributional-dp"]
    if got.ratio_enclosure is not None or ref.ratio_enclosure is not None:
        a = got.ratio_enclosure or (Fraction(1), None)
        b = ref.ratio_enclosure or (Fraction(1), None)
        if got.ratio_enclosure is None:  # exact: e^eps = hi (or oo)
            a = _exp_interval(got.epsilon)
        if ref.ratio_enclosure is None:
            b = _exp_interval(ref.epsilon)
        assert _meet(a, b)
    else:
        assert _meet(_interval(got.epsilon), _interval(ref.epsilon))
    for (_, d1, _), (_, d2, _) in zip(got.delta_at_epsilon, ref.delta_at_epsilon, strict=True):
        assert _meet(_interval(d1), _interval(d2))
    if delta is not None:
        assert (got.epsilon_at_delta is None) == (ref.epsilon_at_delta is None)
        if got.epsilon_at_delta is not None:
            assert _meet(_interval(got.epsilon_at_delta[1]), _interval(ref.epsilon_at_delta[1]))
    if kind != "laplace":
        shown, want = result_json(got, 12), result_json(ref, 12)
        assert _shown(shown["epsilon"]) is not None or _shown(want["epsilon"]) is None
        assert _prefix_consistent(_shown(shown["epsilon"]), _shown(want["epsilon"]))
        for x, y in zip(shown["delta_at_epsilon"], want["delta_at_epsilon"], strict=True):
            assert _prefix_consistent(_shown(x["delta"]), _shown(y["delta"]))
    return got


def _shown(v):
    if v is None or isinstance(v, str):
        return str(v)
    return v["decimal"]


def _exp_interval(e):
    if isinstance(e, sympy.Basic) and e == sympy.oo:
        return Fraction(1), None
    lo, hi = certify(sympy.exp(e), 40).enclosure
    return Fraction(lo), Fraction(hi)


def _instance(draw, model, kinds=KINDS):
    names = list(model.variables)
    target = draw(st.sampled_from(names))
    rest = [v for v in names if v != target]
    known = draw(st.lists(st.sampled_from(rest), unique=True, max_size=2))
    kind = draw(st.sampled_from(kinds))
    weights = {v: Fraction(draw(st.integers(-1, 2))) for v in names if draw(st.booleans())}
    eps = [Eps.of(draw(st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(2)])))]
    delta = None if kind == "laplace" else draw(st.sampled_from([None, Fraction(1, 10)]))
    return target, known, kind, weights, eps, delta


# --- ibcdp: the digits agree with the full table ---------------------------------------


@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_chain_ibcdp_equals_the_full_table(data):
    """Law: on small chains, ibcdp's ε and δ(ε) (and ε(δ) for finite outputs) from the
    joint law of the target and the query equal the full table's, digit for digit."""
    m = data.draw(chains())
    _ibcdp_agrees(m, *_instance(data.draw, m))


@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_product_ibcdp_equals_the_full_table(data):
    """Law: the same for independent records with their own laws."""
    m = data.draw(products())
    _ibcdp_agrees(m, *_instance(data.draw, m))


@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_network_ibcdp_equals_the_full_table(data):
    """Law: the same for random small Bayesian networks."""
    m = BayesianNetwork.from_json({"kind": "bayesian-network", "nodes": data.draw(networks())})
    _ibcdp_agrees(m, *_instance(data.draw, m))


# --- distributional-dp: the enclosures meet ----------------------------------------------

FINITE = ["geometric", "count", "threshold"]


@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_chain_distributional_dp_meets_the_full_table(data):
    """Law: on small chains and finite mechanisms, the LP on the Markov blanket's values
    and the full table's LP over every rest give enclosures that intersect, showing the
    same digits."""
    m = data.draw(chains())
    _ddp_agrees(m, *_instance(data.draw, m, FINITE))


@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_product_distributional_dp_meets_the_full_table(data):
    """Law: the same for independent records (an empty blanket: one simulator law)."""
    m = data.draw(products())
    _ddp_agrees(m, *_instance(data.draw, m, FINITE))


@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_network_distributional_dp_meets_the_full_table(data):
    """Law: the same for random small Bayesian networks."""
    m = BayesianNetwork.from_json({"kind": "bayesian-network", "nodes": data.draw(networks())})
    _ddp_agrees(m, *_instance(data.draw, m, FINITE))


def test_chain_distributional_dp_under_laplace_meets_the_full_table():
    """A 3-record chain, target in the middle, x1 known: the Laplace enclosures meet."""
    m = MarkovChain(["0", "1"], 3, ["1/2", "1/2"], [["4/5", "1/5"], ["3/10", "7/10"]])
    _ddp_agrees(m, "x2", ["x1"], "laplace", {}, [], None)


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_distributional_dp_under_laplace_meets_the_full_table_thoroughly(data):
    """Law: Laplace enclosures meet on random chains, products and networks."""
    which = data.draw(st.sampled_from(["chain", "product", "network"]))
    if which == "chain":
        m = data.draw(chains())
    elif which == "product":
        m = data.draw(products())
    else:
        m = BayesianNetwork.from_json({"kind": "bayesian-network", "nodes": data.draw(networks())})
    _ddp_agrees(m, *_instance(data.draw, m, ["laplace"]))


# --- hand derivations -------------------------------------------------------------------


def _ln(x):
    return mpmath.log(x)


def test_one_bernoulli_record_ibcdp_has_its_closed_form():
    """One record x1 ~ Bernoulli(1/2), f = x1, Laplace(λ = 2), nothing known.

    Hand derivation: given the output t of D, post(1|t) = e^{-|t-1|/λ} / (e^{-|t|/λ} +
    e^{-|t-1|/λ}); the changed database D_{1→b} outputs b + noise whatever x1 was, so its
    posterior is the prior (1/2, 1/2). The largest ratio is prior / post(a|t) at the
    least posterior e^{-1/λ}/(1 + e^{-1/λ}) (t ≤ 0 for a = 1): ε = ln((1 + e^{1/λ}) / 2)
    (the other direction gives only ln(2 / (1 + e^{-1/λ})), smaller)."""
    model = ProductModel.bernoulli(["1/2"])
    r = audit(model, LaplaceSum(lam=Fraction(2)), "x1", [], [], None, ["ibcdp"])
    with mpmath.workdps(40):
        want = mpmath.nstr(_ln((1 + mpmath.exp(mpmath.mpf(1) / 2)) / 2), 25)
    assert certify(r["ibcdp"].epsilon, 20).decimal[:18] == want[:18]


@pytest.mark.parametrize("records", [["1/2"], ["1/2", "1/3"]])
def test_independent_records_distributional_dp_is_one_over_two_lambda(records):
    """Independent records, target x1 ∈ {0, 1} of weight 1, Laplace(λ = 2), nothing known.

    Hand derivation: the blanket is empty, so Sim is one law S, and P_a = Lap(a + R, λ)
    mixed over the independent rest R. δ = 0 asks e^{-ε} P_a ≤ S ≤ e^ε P_a for both a, so
    e^{-ε} max(P_0, P_1) ≤ e^ε min(P_0, P_1) pointwise; the ratio P_1/P_0 tends to e^{1/λ}
    far right, hence ε ≥ 1/(2λ). At ε = 1/(2λ) the bounds hold pointwise (every mixture
    ratio lies in [e^{-1/λ}, e^{1/λ}]) and ∫ e^ε min(P_0, P_1) = e^ε (1 - TV) ≥ e^ε
    e^{-1/(2λ)} = 1 (mixing over R only shrinks TV, which is 1 - e^{-1/(2λ)} for one
    shift), while ∫ e^{-ε} max ≤ 1 as (2 - c) c ≤ 1: some S lies between. So ε = 1/4;
    the certified enclosure must contain it. The table engine agrees (T = 1, 2)."""
    model = ProductModel.bernoulli(records)
    sm = LaplaceSum(lam=Fraction(2))
    got = audit(model, sm, "x1", [], [], None, ["distributional-dp"])["distributional-dp"]
    lo, hi = _interval(got.epsilon)
    assert lo <= Fraction(1, 4) <= hi and hi - lo < Fraction(1, 10**6)
    ref = audit(model.to_joint(), laplace("2"), "x1", [], [], None, ["distributional-dp"])
    assert _meet((lo, hi), _interval(ref["distributional-dp"].epsilon))


# --- the model helpers against the listed joint table -------------------------------------


def _brute_joint(joint, target, known, weights):
    """P(x_i = a, f = s | x_K = v) by summing the listed table (the independent source)."""
    i = joint.index(target)
    ks = [joint.index(k) for k in known]
    w = [weights.get(v, 1) for v in joint.variables]
    out, total = {}, Fraction(0)
    for d, p in joint.probs.items():
        if p and all(d[k] == known[name] for k, name in zip(ks, known, strict=True)):
            s = sum((wk * Fraction(x) for wk, x in zip(w, d, strict=True)), Fraction(0))
            row = out.setdefault(d[i], {})
            row[s] = row.get(s, Fraction(0)) + p
            total += p
    if not total:
        return None
    return {a: {s: p / total for s, p in row.items()} for a, row in out.items()}


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_exact_joint_law_equals_the_listed_table(data):
    """Law: the joint law of the target and the query given the known values equals the
    sum over the listed joint table (chains, products, networks)."""
    which = data.draw(st.sampled_from(["chain", "product", "network"]))
    if which == "chain":
        m = data.draw(chains())
    elif which == "product":
        m = data.draw(products())
    else:
        m = BayesianNetwork.from_json({"kind": "bayesian-network", "nodes": data.draw(networks())})
    names = list(m.variables)
    target = data.draw(st.sampled_from(names))
    known_names = data.draw(
        st.lists(st.sampled_from([v for v in names if v != target]), unique=True, max_size=2)
    )
    known = {k: data.draw(st.sampled_from(list(m.domain(k)))) for k in known_names}
    weights = {v: data.draw(st.integers(-1, 2)) for v in names if data.draw(st.booleans())}
    assert exact_joint_law(m, target, known, weights) == _brute_joint(
        m.to_joint(), target, known, weights
    )


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_records_law_equals_the_listed_table(data):
    """Law: the mixed-radix query law of a set of records equals their conditional law
    summed from the listed table."""
    m = data.draw(st.one_of(chains(), products()))
    names = list(m.variables)
    target = data.draw(st.sampled_from(names))
    others = [v for v in names if v != target]
    recs = data.draw(st.lists(st.sampled_from(others), unique=True, max_size=3))
    a = data.draw(st.sampled_from(list(m.domain(target))))
    joint = m.to_joint()
    i, idx = joint.index(target), [joint.index(r) for r in recs]
    want, total = {}, Fraction(0)
    for d, p in joint.probs.items():
        if p and d[i] == a:
            key = tuple(d[j] for j in idx)
            want[key] = want.get(key, Fraction(0)) + p
            total += p
    expect = {k: p / total for k, p in want.items()} if total else None
    assert records_law(m, target, a, {}, recs) == expect


def test_markov_blankets_by_hand():
    """Chain: the linked neighbours (a step with identical rows links nobody); product:
    nobody; network: parents, children and the children's other parents."""
    steps = [[["1/2", "1/2"], ["1/2", "1/2"]], [["9/10", "1/10"], ["1/10", "9/10"]]]
    chain = MarkovChain(["0", "1"], 3, ["1/2", "1/2"], steps)
    assert chain.markov_blanket("x1") == ()
    assert chain.markov_blanket("x2") == ("x3",)
    assert chain.markov_blanket("x3") == ("x2",)
    assert ProductModel.bernoulli(["1/2", "1/3"]).markov_blanket("x1") == ()
    row = ["1/2", "1/2"]
    net = BayesianNetwork.from_json(
        {
            "kind": "bayesian-network",
            "nodes": [
                {"name": "a", "states": ["0", "1"], "cpt": row},
                {"name": "b", "states": ["0", "1"], "cpt": row},
                {"name": "c", "states": ["0", "1"], "parents": ["a", "b"], "cpt": [row] * 4},
                {"name": "d", "states": ["0", "1"], "parents": ["c"], "cpt": [row] * 2},
                {"name": "e", "states": ["0", "1"], "parents": ["d"], "cpt": [row] * 2},
            ],
        }
    )
    assert net.markov_blanket("a") == ("b", "c")
    assert net.markov_blanket("c") == ("a", "b", "d")
    assert net.markov_blanket("e") == ("d",)


class _NoBlanket:
    """A chain seen through the structured-model protocol only (no markov_blanket)."""

    def __init__(self, chain):
        self._c = chain
        self.variables = chain.variables

    def domain(self, name):
        return self._c.domain(name)

    def query_law(self, *args):
        return self._c.query_law(*args)

    def target_factors(self, *args):
        return self._c.target_factors(*args)

    def contributions(self, *args):
        return self._c.contributions(*args)

    def size_hint(self):
        return self._c.size_hint()


def test_a_model_without_a_blanket_uses_every_other_record():
    """The fallback (every other unknown record a column: the table's own LP) meets the
    blanket's answer on a 4-record chain with a count."""
    chain = MarkovChain(["0", "1"], 4, ["1/2", "1/2"], [["4/5", "1/5"], ["1/4", "3/4"]])
    sm = GeometricSum(alpha=Fraction(1, 2))
    eps = [Eps.of(Fraction(1, 2))]
    a = audit(chain, sm, "x2", ["x4"], eps, None, ["distributional-dp"])["distributional-dp"]
    b = audit(_NoBlanket(chain), sm, "x2", ["x4"], eps, None, ["distributional-dp"])
    b = b["distributional-dp"]
    ra, rb = a.ratio_enclosure, b.ratio_enclosure
    assert ra is not None and rb is not None and _meet(ra, rb)


# --- the command line ---------------------------------------------------------------------


def _json(capsys, argv):
    code = main([*argv, "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)["notions"]


@pytest.mark.parametrize(
    "mech", [{"kind": "laplace", "lam": "1/2"}, {"kind": "geometric", "alpha": "1/2"}]
)
def test_cli_chain_fills_ibcdp_and_distributional_dp_at_every_eps(tmp_path, capsys, mech):
    chain, table, m = tmp_path / "chain.json", tmp_path / "table.json", tmp_path / "m.json"
    chain.write_text(json.dumps(CHAIN))
    table.write_text(json.dumps(joint_rows()))
    m.write_text(json.dumps(mech))
    args = ["--target", "x2", "--known", "x1", "--eps", "1/4", "--eps", "1"]
    got = _json(
        capsys, ["audit", str(chain), str(m), *args, "--notions", "ibcdp,distributional-dp"]
    )
    ref = _json(capsys, ["audit", str(table), str(m), *args, "--notions", "ibcdp"])
    for name in ("ibcdp", "distributional-dp"):
        r = got[name]
        assert "not computed" not in r["note"] and r["epsilon"] is not None, name
        assert [d["eps"] for d in r["delta_at_epsilon"]] == ["1/4", "1"]
        assert all(d["delta"] is not None for d in r["delta_at_epsilon"]), name
    # ibcdp: the same certified digits as the full table (the independent engine)
    assert got["ibcdp"]["epsilon"]["decimal"] == ref["ibcdp"]["epsilon"]["decimal"]
    for x, y in zip(
        got["ibcdp"]["delta_at_epsilon"], ref["ibcdp"]["delta_at_epsilon"], strict=True
    ):
        assert x["delta"]["decimal"] == y["delta"]["decimal"]


def test_cli_refuses_a_large_distributional_dp_before_any_work(tmp_path, capsys):
    """A 200-record chain under Laplace noise: the LPs of 64 cells per gap are refused by
    the estimate, exit 2, one line naming --max-work."""
    chain, m = tmp_path / "chain.json", tmp_path / "m.json"
    chain.write_text(json.dumps({**CHAIN, "length": 200}))
    m.write_text(json.dumps({"kind": "laplace", "lam": "1"}))
    args = ["--target", "x100", "--known", "x1", "--notions", "distributional-dp"]
    code = main(["audit", str(chain), str(m), *args])
    err = capsys.readouterr().err
    assert code == 2 and "--max-work" in err and len(err.strip().splitlines()) == 1

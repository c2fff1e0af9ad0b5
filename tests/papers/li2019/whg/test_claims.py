"""Each Section V checker: its verdict, and its counterexample re-checked independently."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pdpsym.core.numbers import parse_rational
from pdpsym.loss.table_leakage import table_leakage
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.joint import JointDistribution
from pdpsym.papers.li2019.correlation import conditional_pearson_sign
from pdpsym.papers.li2019.edges import impact, impact_set, theorem2_step
from pdpsym.papers.li2019.whg import ArrayEdges, fast_search, full_search
from pdpsym.verify import RunConfig, run_claim

IDS = [
    "li2019.thm2",
    "li2019.thm3.1",
    "li2019.thm3.2",
    "li2019.thm3.3",
    "li2019.thm3.remark",
    "li2019.lemma3",
    "li2019.thm5",
    "li2019.eq16",
    "li2019.cor1.1",
    "li2019.cor1.2",
    "li2019.cor1.3",
    "li2019.fastsearch",
]


_RESULTS: dict = {}


def result(cid: str):  # one default run per claim for the whole module
    if cid not in _RESULTS:
        _RESULTS[cid] = run_claim(cid, RunConfig())
    return _RESULTS[cid]


@pytest.mark.parametrize("cid", IDS)
def test_default_run_counts_its_cases(cid: str) -> None:
    # the verdicts themselves are asserted in one place: tests/verify/test_frozen_verdicts.py
    res = result(cid)
    assert res.cases and res.cases > 0, res.evidence


def test_sec7_runs_and_reports_findings() -> None:
    res = run_claim("li2019.sec7", RunConfig())
    assert res.verdict in ("supported", "refuted")
    names = [f["finding"] for f in res.details["findings"]]
    assert any("layer-1" in n for n in names)


def _model(cx: dict) -> JointDistribution:
    return JointDistribution.from_json_object(cx["model"])


def test_thm2_counterexample_recomputed() -> None:
    cx = result("li2019.thm2").counterexample
    assert cx is not None
    m = _model(cx)
    target = cx["child"][2 : cx["child"].index(",")]
    child = table_leakage(m, target, [v for v in m.variables if v != target], 1)
    anc = table_leakage(m, target, [], 1)
    W = impact_set(
        m,
        target,
        tuple(v for v in m.variables if v != target),
        [v for v in m.variables if v != target][0],
        Fraction(1),
        LinearQuery.sum(m.variables),
    )
    step = theorem2_step(child.value, W)  # type: ignore[arg-type]
    assert step.value.exact_compare(anc.value) != 0  # type: ignore[arg-type]


def test_thm3_3_counterexample_recomputed() -> None:
    cx = result("li2019.thm3.3").counterexample
    assert cx is not None
    m = _model(cx)
    q = LinearQuery.sum(m.variables)
    d = impact(
        m,
        cx["target"],
        cx["j"],
        parse_rational(cx["x_a"], "a"),
        parse_rational(cx["x_b"], "b"),
        {},
        parse_rational(cx["lam"], "lam"),
        q,
    )
    assert d is not None
    assert d.sign() != conditional_pearson_sign(m, cx["target"], cx["j"], {})


def test_cor1_2_and_fastsearch_counterexamples_recomputed() -> None:
    cx = result("li2019.cor1.2").counterexample
    assert cx is not None
    src = ArrayEdges.from_json_object(cx, parse_rational)
    assert all(
        v > 0
        for Ei in src.E
        for p, row in enumerate(Ei)
        for mask, v in enumerate(row)
        if not mask >> p & 1
    )
    res = full_search(src)
    top = max(V[0] for V in res.values)
    assert top < res.max_value()
    fx = result("li2019.fastsearch").counterexample
    assert fx is not None
    src = ArrayEdges.from_json_object(fx, parse_rational)
    assert fast_search(src, fx["k"]).max_value() < full_search(src).max_value()

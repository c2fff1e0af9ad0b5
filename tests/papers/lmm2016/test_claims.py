"""The lmm2016 checkers: verdicts are computed, counterexamples re-verified independently."""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
from fractions import Fraction as F

import pytest
import sympy

from pdpsym.app.cli import main
from pdpsym.claims.claim import CHECKERS
from pdpsym.core.numbers import parse_rational
from pdpsym.models.joint import JointDistribution
from pdpsym.models.neighbours import DDPNeighbours, DDPReading
from pdpsym.papers.lmm2016.claims import grid_distributions
from pdpsym.papers.lmm2016.mechanism import FiniteMechanism, finite_ddp_level, sequential
from pdpsym.verify import ClaimResult, RunConfig, run_claim, select

IDS = [
    "lmm2016.rho",
    "lmm2016.thm3",
    "lmm2016.thm4",
    "lmm2016.thm5",
    "lmm2016.thm6",
    "lmm2016.thm7",
    "lmm2016.sensitivity",
]


@pytest.fixture(scope="module")
def results():
    return {cid: run_claim(cid, RunConfig()) for cid in IDS}


def test_every_claim_has_a_checker():
    assert select(paper="lmm2016") == IDS


def test_results_carry_reading_and_evidence(results):
    # every verdict itself is asserted in one place: tests/verify/test_frozen_verdicts.py
    for r in results.values():
        assert r.reading and r.evidence
        assert r.cases or r.method == "symbolic"


def test_checkers_return_properties():
    # the checkers state cases and laws; none hand-builds the transitional ClaimResult
    for cid in IDS:
        assert not isinstance(CHECKERS[cid](RunConfig()), ClaimResult), cid


def test_results_are_json(results):
    # details carry counterexamples of other readings: they must be JSON as they stand
    for r in results.values():
        json.dumps(r.as_json())


def test_grid_distributions_lists_each_law_once():
    # brute force: every vector of counts over the 4 cells of {0,1}^2 summing to N <= 3
    expected = {
        tuple(F(c, n) for c in counts)
        for n in range(1, 4)
        for counts in itertools.product(range(n + 1), repeat=4)
        if sum(counts) == n
    }
    cells = list(itertools.product((F(0), F(1)), repeat=2))
    laws = list(grid_distributions(["D1", "D2"], [(0, 1), (0, 1)], 3))
    got = [tuple(t.probs.get(c, F(0)) for c in cells) for t in laws]
    assert len(got) == len(set(got)) and set(got) == expected
    # listed by least common denominator
    dens = [math.lcm(*(p.denominator for p in v)) for v in got]
    assert dens == sorted(dens)


def _law(obj):
    return JointDistribution.from_json_object(obj)


def _mech(table):
    out = {}
    for key, pmf in table.items():
        d = tuple(parse_rational(x, "db") for x in key.strip("()").split(","))
        out[d] = {s: parse_rational(p, "p") for s, p in pmf.items()}
    return FiniteMechanism(out)


def test_thm4_counterexample_recomputed(results):
    r = results["lmm2016.thm4"]
    ce = r.counterexample
    theta = _law(ce["theta"])
    a1, a2 = _mech(ce["A1"]), _mech(ce["A2"])
    # each A_t reads only its own tuple
    for m, k in ((a1, 0), (a2, 1)):
        for d, pmf in m.table.items():
            for e, qmf in m.table.items():
                if d[k] == e[k]:
                    assert pmf == qmf
    for reading in (DDPReading.NEIGHBOURS, DDPReading.CONDITIONAL):
        nb = DDPNeighbours(reading)
        g1 = finite_ddp_level(a1, theta, nb)[0]
        g2 = finite_ddp_level(a2, theta, nb)[0]
        g = finite_ddp_level(sequential(a1, a2), theta, nb)[0]
        assert g is not None and g1 is not None and g2 is not None
        assert g > max(g1, g2)
    assert ce["definition4"]["gammas"] == ["2", "2"]
    assert ce["definition4"]["gamma_parallel"] == "4"


def test_thm3_conditional_counterexample_recomputed(results):
    ce = results["lmm2016.thm3"].details["conditional_reading_counterexample"]
    theta = _law(ce["theta"])
    assert theta.is_independent()  # fails even where the paper says DDP = DP
    a1, a2 = _mech(ce["A1"]), _mech(ce["A2"])
    cond = DDPNeighbours(DDPReading.CONDITIONAL)
    g1, g2 = finite_ddp_level(a1, theta, cond)[0], finite_ddp_level(a2, theta, cond)[0]
    g = finite_ddp_level(sequential(a1, a2), theta, cond)[0]
    assert g > g1 * g2
    assert (g1, g2, g) == (F(3, 2), F(3, 2), F(5, 2))
    # and under Definition 4 the same pair composes within the product
    n = DDPNeighbours(DDPReading.NEIGHBOURS)
    assert finite_ddp_level(sequential(a1, a2), theta, n)[0] <= (
        finite_ddp_level(a1, theta, n)[0] * finite_ddp_level(a2, theta, n)[0]
    )


def test_thm7_pairwise_counterexample_is_the_xor_law(results):
    ce = results["lmm2016.thm7"].details["pairwise_L_counterexample"]
    theta = _law(ce["theta"])
    assert len(theta.probs) == 4 and ce["L"] == 1 and ce["b"] == "1"
    # the sum query, keyed by the database as written in the model
    assert ce["query"]["(0, 1, 1)"] == "2" and len(ce["query"]) == 8
    assert all(sum(d) % 2 == 0 for d in theta.probs)  # D3 = D1 xor D2
    # our own output string (not user text) read back and compared symbolically
    value = sympy.parse_expr(ce["actual_eps"]["exact"])
    assert sympy.simplify(value - sympy.log((1 + sympy.exp(2)) / 2)) == 0


def test_sensitivity_details(results):
    d = results["lmm2016.sensitivity"].details
    assert (d["delta_q"], d["delta_dj"], d["sensitivity_pair"]) == ("1", "1/2", "3/2")
    assert d["sensitivity_worst_case"] == "2"
    assert set(d["conditional_eps_minus_3_2_sign"]) == {0}


def test_verify_cli_json(capsys):
    args = ["verify", "--claim", "lmm2016.thm4", "--claim", "lmm2016.thm7", "--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    rows = {c["id"]: c for c in out["claims"]}
    assert set(rows) == {"lmm2016.thm4", "lmm2016.thm7"}
    assert rows["lmm2016.thm4"]["counterexample"] is not None
    assert rows["lmm2016.thm7"]["counterexample"] is None


def test_verify_cli_bad_claim_exit_2():
    proc = subprocess.run(
        [sys.executable, "-m", "pdpsym", "verify", "--claim", "lmm2016.nope"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.strip()


@pytest.mark.slow
@pytest.mark.parametrize("cid", IDS)
def test_thorough_runs_keep_their_verdicts(cid):
    assert run_claim(cid, RunConfig(thorough=True)).verdict == run_claim(cid, RunConfig()).verdict

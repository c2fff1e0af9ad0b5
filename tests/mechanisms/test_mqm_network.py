"""MQM on Bayesian networks: on a chain-shaped network it equals the chain engine's
MQMExact (an independent implementation, by matrix powers), and small cases by hand."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from pdpsym.app.cli import main
from pdpsym.core.compare import compare
from pdpsym.mechanisms.mqm import mqm_exact_scale
from pdpsym.mechanisms.mqm_network import branches, mqm_network_scale
from pdpsym.models.bayesnet import BayesianNetwork
from pdpsym.models.markov import MarkovChain

BNLEARN = Path(__file__).resolve().parents[1] / "data" / "bnlearn"


def chain_pair(length, states, initial, transition):
    chain = MarkovChain.from_json_object(
        {
            "kind": "markov-chain",
            "length": length,
            "states": states,
            "initial": initial,
            "transition": transition,
        }
    )
    nodes = [{"name": "x1", "states": states, "cpt": initial}] + [
        {"name": f"x{t}", "states": states, "parents": [f"x{t - 1}"], "cpt": transition}
        for t in range(2, length + 1)
    ]
    return chain, BayesianNetwork.from_json({"kind": "bayesian-network", "nodes": nodes})


CASES = [
    (6, ["0", "1"], ["1/2", "1/2"], [["4/5", "1/5"], ["3/10", "7/10"]]),
    (5, ["0", "1"], ["1/3", "2/3"], [["9/10", "1/10"], ["1/10", "9/10"]]),
    (
        5,
        ["0", "1", "2"],
        ["1/3", "1/3", "1/3"],
        [["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/5", "1/5", "3/5"]],
    ),
]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("eps", [Fraction(1, 2), Fraction(1), Fraction(3), Fraction(6)])
def test_mqm_on_a_chain_shaped_network_equals_the_chain_mqm_exact(case, eps):
    chain, net = chain_pair(*case)
    a = mqm_exact_scale(chain, eps)
    b = mqm_network_scale(net, eps)
    assert compare(a.scale, b.scale).sign == 0


def test_breaking_the_network_changes_the_scale():
    """The check can fail: the same chain with one transition changed in the network."""
    length, states, initial, transition = CASES[0]
    chain, _ = chain_pair(*CASES[0])
    _, other = chain_pair(length, states, initial, [["9/10", "1/10"], ["3/10", "7/10"]])
    assert (
        compare(
            mqm_exact_scale(chain, Fraction(3)).scale, mqm_network_scale(other, Fraction(3)).scale
        ).sign
        != 0
    )


def test_branches_of_a_star_and_independent_records():
    nodes = [
        {"name": "c", "states": ["0", "1"], "cpt": ["1/2", "1/2"]},
        *(
            {
                "name": n,
                "states": ["0", "1"],
                "parents": ["c"],
                "cpt": [["3/4", "1/4"], ["1/4", "3/4"]],
            }
            for n in ("a", "b", "d")
        ),
        {"name": "alone", "states": ["0", "1"], "cpt": ["1/2", "1/2"]},
    ]
    net = BayesianNetwork.from_json({"kind": "bayesian-network", "nodes": nodes})
    # hand: the centre's branches are its three leaves; a leaf's one branch is the rest
    assert branches(net, "c") == [{"a": 1}, {"b": 1}, {"d": 1}]
    assert branches(net, "a") == [{"c": 1, "b": 2, "d": 2}]
    assert branches(net, "alone") == []
    # eps = 10: the leaf a's quilt {c} has influence ln 3 (P(c|a) = 3/4 vs 1/4, by
    # hand) and nearby {a}: 1 / (10 - ln 3); the centre's best is its empty quilt over
    # its component of 4 records (4/10) or the quilt {a, b, d} with influence 3 ln 3 and
    # nearby {c}: 1 / (10 - 3 ln 3) = 0.1491... < 4/10; max over records: the centre's
    import math

    got = mqm_network_scale(net, Fraction(10))
    assert abs(float(got.scale) - 1 / (10 - 3 * math.log(3))) < 1e-12
    assert got.detail["worst_record"] == "c"


def test_calibrate_lists_mqm_next_to_group_dp(capsys):
    argv = ["calibrate", str(BNLEARN / "asia.bif.gz"), "--eps", "2", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    names = [b["name"] for b in out["baselines"]]
    assert names == ["group-dp", "mqm-network"]
    # group DP: asia is one component of 8 binary records: 8 / 2 = 4 (hand)
    assert out["baselines"][0]["scale"]["exact"] == "4"
    lo = Fraction(out["scale"]["enclosure"][0])
    mqm = Fraction(out["baselines"][1]["scale"]["enclosure"][1])
    assert lo <= mqm <= 4  # MQM's scale is never above group DP's (its empty quilt)


@pytest.mark.parametrize("eps", [Fraction(1, 2), Fraction(3)])
def test_chain_mqm_exact_is_never_above_the_empty_quilt(eps):
    """The empty quilt (every record nearby, influence 0) is always usable, so MQMExact's
    scale is at most T / eps (hand). It ranked that quilt at T instead of T / eps: at
    eps = 3 it chose a worse quilt (4 / (3 - ln(41/9)) = 2.69 > 5/3), and below eps = 1
    it could report a scale under the true sigma_max."""
    chain, _ = chain_pair(*CASES[1])
    assert compare(mqm_exact_scale(chain, eps).scale, Fraction(5) / eps).sign <= 0

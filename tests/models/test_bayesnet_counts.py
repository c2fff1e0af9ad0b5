"""Bayesian networks as count models: the leakage engine (``loss.structured``) on a
network's count polynomials equals Li et al.'s Eq. 2 on the network's full joint table
(the independent reference), and the CLI reads a BIF file."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from audit.test_sum_mechanisms import networks
from hypothesis import given, settings
from hypothesis import strategies as st

from pdpsym.app.cli import main
from pdpsym.loss import table_leakage as eq2
from pdpsym.loss.count_leakage import structured_leakage
from pdpsym.models.bayesnet import BayesianNetwork
from pdpsym.models.model_objects import count_model_from_object

CHILD = Path(__file__).resolve().parents[1] / "data" / "child.bif"


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_network_leakage_equals_the_full_table_eq2(data):
    """Law: for random small networks, target and known set, the certified Eq. 2 leakage
    from variable elimination with a count encloses the full table's exact Eq. 2."""
    nodes = data.draw(networks())
    m = count_model_from_object({"kind": "bayesian-network", "nodes": nodes})
    names = list(m.variables)
    known = tuple(data.draw(st.lists(st.sampled_from(names), unique=True, max_size=2)))
    targets = [v for v in names if v not in known]
    table = m.to_joint()  # type: ignore[attr-defined]
    for r in structured_leakage(m, targets, known, Fraction(1, 2), digits=12, exact=False):
        ref = eq2.table_leakage(table, r.target, known, Fraction(1, 2))
        assert r.status == ref.status
        if ref.ok:
            c = ref.certified(25)
            lo, hi = Fraction(c.enclosure[0]), Fraction(c.enclosure[1])
            assert r.value.lo <= hi and lo <= r.value.hi


def test_unlisted_records_weigh_one_as_in_every_model():
    """A weights mapping naming one record leaves the others at 1 (hand check: two
    independent fair bits, weights {a: 2}: 2a + b takes 0, 1, 2, 3 with 1/4 each, and
    given a = 1 it is 2 or 3 with 1/2 each)."""
    net = BayesianNetwork.from_json(
        {
            "kind": "bayesian-network",
            "nodes": [
                {"name": "a", "states": ["0", "1"], "cpt": ["1/2", "1/2"]},
                {"name": "b", "states": ["0", "1"], "cpt": ["1/2", "1/2"]},
            ],
        }
    )
    law = net.query_law("a", Fraction(1), {}, {"a": 2})
    assert law == {Fraction(2): Fraction(1, 2), Fraction(3): Fraction(1, 2)}
    assert net.dependence_groups() == [("a",), ("b",)]


def test_leakage_reads_a_bif_file(capsys):
    """``leakage child.bif --target Grunting``: Eq. 2 from the count polynomials equals
    the apkdp epsilon of the audit, computed by another path (normalized query laws from
    ``query_law`` and the Laplace pair's closed form)."""
    from pdpsym.audit import audit
    from pdpsym.core.certify import certify
    from pdpsym.mechanisms.sum_kernels import LaplaceSum

    assert main(["leakage", str(CHILD), "--target", "Grunting", "--lam", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    net = BayesianNetwork.from_bif(str(CHILD))
    a = audit(net, LaplaceSum(lam=Fraction(1)), "Grunting", (), (), None, ["apkdp"])
    assert out["status"] == "ok"
    assert out["value"]["decimal"][:22] == certify(a["apkdp"].epsilon, 30).decimal[:22]


def test_calibrate_takes_a_network(tmp_path, capsys):
    """``calibrate`` on a 3-node chain-shaped network: group DP (one group of 3 records,
    scale 3/eps) guarantees eps, so the smallest scale lies at or below 3."""
    p = tmp_path / "bn.json"
    row = [["9/10", "1/10"], ["1/5", "4/5"]]
    nodes = [
        {"name": "a", "states": ["0", "1"], "cpt": ["1/2", "1/2"]},
        {"name": "b", "states": ["0", "1"], "parents": ["a"], "cpt": row},
        {"name": "c", "states": ["0", "1"], "parents": ["b"], "cpt": row},
    ]
    p.write_text(json.dumps({"kind": "bayesian-network", "nodes": nodes}))
    assert main(["calibrate", str(p), "--eps", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    hi = Fraction(out["scale"]["enclosure"][1])
    assert 0 < hi <= 3

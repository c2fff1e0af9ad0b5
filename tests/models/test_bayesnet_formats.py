"""Networks in and out: XMLBIF and UAI files (hand-written documents whose tables are
read off by eye), and pgmpy (optional: round trips, and pgmpy's VariableElimination
marginals against ours on the bnlearn networks)."""

from __future__ import annotations

import gzip
from fractions import Fraction
from pathlib import Path

import pytest

from pdpsym.app.cli import main
from pdpsym.core import poly
from pdpsym.core.errors import InputError
from pdpsym.models.bayesnet import BayesianNetwork

DATA = Path(__file__).resolve().parents[1] / "data" / "bnlearn"
TOL = Fraction(1, 10**6)

XMLBIF = """<?xml version="1.0"?>
<BIF VERSION="0.3">
<NETWORK>
<NAME>rain</NAME>
<VARIABLE TYPE="nature">
  <NAME>rain</NAME>
  <OUTCOME>no</OUTCOME>
  <OUTCOME>yes</OUTCOME>
</VARIABLE>
<VARIABLE TYPE="nature">
  <NAME>wet</NAME>
  <OUTCOME>dry</OUTCOME>
  <OUTCOME>wet</OUTCOME>
  <PROPERTY>position = (1, 2)</PROPERTY>
</VARIABLE>
<DEFINITION>
  <FOR>rain</FOR>
  <TABLE>0.8 0.2</TABLE>
</DEFINITION>
<DEFINITION>
  <FOR>wet</FOR>
  <GIVEN>rain</GIVEN>
  <TABLE>0.9 0.1 0.15 0.85</TABLE>
</DEFINITION>
</NETWORK>
</BIF>
"""

# the UAI format's own layout: the child last in each scope, its states fastest
UAI = """BAYES
2
2 3
2
1 0
2 0 1

2
 0.25 0.75

6
 0.5 0.25 0.25
 0.1 0.2 0.7
"""


def load(name: str) -> BayesianNetwork:
    text = gzip.open(DATA / f"{name}.bif.gz", "rt", encoding="utf-8").read()
    return BayesianNetwork.from_bif_text(text, tolerance=TOL, max_work=10**9)


def test_xmlbif_tables_are_read_exactly():
    net = BayesianNetwork.from_text(XMLBIF, "xmlbif")
    # read off the document: P(rain) = (4/5, 1/5); P(wet | rain = yes) = (3/20, 17/20)
    assert net.nodes["rain"].cpt[()] == (Fraction(4, 5), Fraction(1, 5))
    assert net.nodes["wet"].cpt[(1,)] == (Fraction(3, 20), Fraction(17, 20))
    assert net.nodes["wet"].parents == ("rain",)


def test_xmlbif_errors_name_their_line():
    with pytest.raises(InputError) as err:
        BayesianNetwork.from_text(XMLBIF.replace("0.15 0.85", "0.15 0.75"), "xmlbif")
    # the <TABLE> of wet is on line 23 of the document
    assert err.value.field == "line 23" and "probabilities sum to 9/10" in err.value.message
    with pytest.raises(InputError) as err:
        BayesianNetwork.from_text(XMLBIF.replace("<GIVEN>rain", "<GIVEN>snow"), "xmlbif")
    assert err.value.field == "line 20" and "unknown parent 'snow'" in err.value.message
    with pytest.raises(InputError) as err:
        BayesianNetwork.from_text(XMLBIF.replace("</NETWORK>", ""), "xmlbif")
    assert "not well-formed XML" in err.value.message
    bomb = '<?xml version="1.0"?><!DOCTYPE b [<!ENTITY a "aaaa">]><BIF>&a;</BIF>'
    with pytest.raises(InputError):
        BayesianNetwork.from_text(bomb, "xmlbif")


def test_uai_tables_are_read_exactly():
    net = BayesianNetwork.from_text(UAI, "uai")
    # read off the file: v1's row given v0 = 1 is (1/10, 1/5, 7/10)
    assert net.variables == ("v0", "v1")
    assert net.nodes["v1"].cpt[(1,)] == (Fraction(1, 10), Fraction(1, 5), Fraction(7, 10))
    assert net.nodes["v0"].cpt[()] == (Fraction(1, 4), Fraction(3, 4))


def test_uai_errors_name_their_line():
    with pytest.raises(InputError) as err:
        BayesianNetwork.from_text(UAI.replace("MARKOV", "").replace("BAYES", "MARKOV"), "uai")
    assert err.value.field == "line 1" and "only BAYES" in err.value.message
    with pytest.raises(InputError) as err:
        BayesianNetwork.from_text(UAI.replace("6\n", "5\n"), "uai")
    assert err.value.field == "line 11" and "expected 6 table entries" in err.value.message
    with pytest.raises(InputError) as err:
        BayesianNetwork.from_text(UAI.replace("0.1 0.2 0.7", "0.1 0.2 0.6"), "uai")
    # hand: 0.1 + 0.2 + 0.6 = 9/10 on line 13
    assert err.value.field == "line 13" and "sum to 9/10" in err.value.message


def test_the_cli_reads_xmlbif_and_uai(tmp_path, capsys):
    x = tmp_path / "rain.xmlbif"
    x.write_text(XMLBIF)
    u = tmp_path / "two.uai"
    u.write_text(UAI)
    assert main(["leakage", str(x), "--target", "rain", "--lam", "1", "--json"]) == 0
    assert main(["leakage", str(u), "--all-targets", "--lam", "1", "--json"]) == 0
    capsys.readouterr()


# --- pgmpy (optional) ------------------------------------------------------------------


def pgmpy_or_skip():
    return pytest.importorskip(
        "pgmpy.inference", reason="pgmpy is an optional extra: pip install 'pdpsym[pgmpy]'"
    )


FITS = ["asia", "cancer", "earthquake", "survey", "sachs", "child", "alarm"]


@pytest.mark.parametrize("name", FITS)
def test_pgmpy_round_trip_keeps_every_table_exactly(name):
    pgmpy_or_skip()
    net = load(name)
    back = BayesianNetwork.from_pgmpy(net.to_pgmpy())
    # decimals of at most 15 digits survive float64 (repr gives back the same decimal);
    # a renormalized row (p / 0.9999999: not a decimal) comes back within float precision
    assert back.variables == net.variables
    for v in net.variables:
        assert back.nodes[v].states == net.nodes[v].states
        for config, row in net.nodes[v].cpt.items():
            got = back.nodes[v].cpt[config]
            if all(10**20 % p.denominator == 0 for p in row):
                assert got == row
            else:
                assert all(abs(a - b) <= Fraction(1, 10**15) for a, b in zip(got, row))


@pytest.mark.parametrize(
    "name",
    [
        *FITS,
        *(
            pytest.param(n, marks=pytest.mark.slow)
            for n in ["insurance", "hailfinder", "hepar2", "win95pts", "water"]
        ),
    ],
)
def test_pgmpy_variable_elimination_marginals_equal_ours(name):
    inference = pgmpy_or_skip()
    net = load(name)
    ve = inference.VariableElimination(net.to_pgmpy())
    ours = dict(net.target_factors(list(net.variables), {}))
    for v in net.variables:
        totals = [poly.total(ours[v][a][0]) for a in net.nodes[v].values]
        z = sum(totals)
        ref = ve.query([v], show_progress=False)
        for k, state in enumerate(net.nodes[v].states):
            p = ref.get_value(**{v: state})
            assert abs(float(Fraction(totals[k], z)) - p) <= 1e-9


def test_from_pgmpy_reads_floats_from_their_decimal_text():
    pgmpy_or_skip()
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    m = DiscreteBayesianNetwork()
    m.add_node("a")
    m.add_cpds(TabularCPD("a", 3, [[1 / 3], [1 / 3], [1 / 3]]))
    net = BayesianNetwork.from_pgmpy(m)
    # 1/3 is stored as 0.3333333333333333 (16 digits): the row sums to 1 - 10^-16 and is
    # divided by its sum, exactly: 1/3 each (hand), listed as renormalized
    assert net.nodes["a"].cpt[()] == (Fraction(1, 3),) * 3
    assert len(net.renormalized) == 1
    with pytest.raises(InputError):
        BayesianNetwork.from_pgmpy(m, tolerance=None)
    with pytest.raises(InputError) as err:
        BayesianNetwork.from_pgmpy(object())
    assert err.value.field == "model"


def test_pgmpy_written_uai_and_xmlbif_read_back_as_the_bif(tmp_path):
    pgmpy_or_skip()
    from pgmpy.readwrite import UAIWriter, XMLBIFWriter

    net = load("alarm")
    m = net.to_pgmpy()
    XMLBIFWriter(m).write(str(tmp_path / "a.xmlbif"))
    x = BayesianNetwork.from_text((tmp_path / "a.xmlbif").read_text(), "xmlbif", tolerance=TOL)
    assert all(x.nodes[v].cpt == net.nodes[v].cpt for v in net.variables)
    UAIWriter(m).write(str(tmp_path / "a.uai"))
    u = BayesianNetwork.from_text((tmp_path / "a.uai").read_text(), "uai", tolerance=TOL)
    # UAI has no names (nor parent order): the same multiset of single-record marginals
    for a, b in zip(sorted(marginals(u)), sorted(marginals(net)), strict=True):
        assert a == pytest.approx(b, abs=1e-12)


def marginals(net: BayesianNetwork) -> list[tuple[float, ...]]:
    laws = dict(net.target_factors(list(net.variables), {}))
    out = []
    for v in net.variables:
        totals = [poly.total(laws[v][a][0]) for a in net.nodes[v].values]
        out.append(tuple(sorted(float(Fraction(t, sum(totals))) for t in totals)))
    return out

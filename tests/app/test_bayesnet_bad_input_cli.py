"""Bad network input from the command line: a cycle, an unknown state in ``--count``, a
row summing to 0.9 (outside the default tolerance) and a file of 10^6 variables each exit
2 with one line naming the line or the flag, and write nothing (no output on stdout, no
``--out`` file).

Independent source: the files are written here by hand, each with its one mistake on a
known line (counted in the text below).
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from pdpsym.app.cli import main

BNLEARN = Path(__file__).resolve().parents[1] / "data" / "bnlearn"

#: a -> b -> a: the block of a (line 3) lists b, whose block lists a
CYCLE = (
    "variable a { type discrete [ 2 ] { yes, no }; }\n"
    "variable b { type discrete [ 2 ] { yes, no }; }\n"
    "probability ( a | b ) {\n (yes) 0.5, 0.5;\n (no) 0.5, 0.5;\n}\n"
    "probability ( b | a ) {\n (yes) 0.5, 0.5;\n (no) 0.5, 0.5;\n}\n"
)
#: the row on line 5 sums to 0.5 + 0.4 = 9/10, off 1 by 1/10 (the tolerance is 10^-6)
ROW = (
    "variable a {\n  type discrete [ 2 ] { yes, no };\n}\n"
    "probability ( a ) {\n  table 0.5, 0.4;\n}\n"
)


def refused(capsys, tmp_path, argv, *expected):
    out = tmp_path / "out.csv"
    assert main([*argv, "--out", str(out)]) == 2
    got = capsys.readouterr()
    assert got.out == "" and not out.exists()
    lines = got.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pdpsym: error: "), got.err
    for text in expected:
        assert text in lines[0], lines[0]


def test_a_cycle(capsys, tmp_path):
    p = tmp_path / "cycle.bif"
    p.write_text(CYCLE)
    refused(capsys, tmp_path, ["leakage", str(p), "--all-targets", "--lam", "2"], "line 3", "cycle")


def test_an_unknown_state_in_count(capsys, tmp_path):
    argv = ["leakage", str(BNLEARN / "alarm.bif.gz"), "--all-targets", "--lam", "2"]
    refused(
        capsys, tmp_path, [*argv, "--count", "HYPOVOLEMIA,LVFAILURE=MAYBE"], "--count", "'MAYBE'"
    )


def test_a_row_summing_to_nine_tenths(capsys, tmp_path):
    p = tmp_path / "row.bif"
    p.write_text(ROW)
    argv = ["leakage", str(p), "--target", "a", "--lam", "2"]
    refused(capsys, tmp_path, argv, "line 5: probabilities sum to 9/10", "--row-tolerance")
    # a tolerance of 1/10 reads it (divided by 9/10): the same file then runs
    assert main([*argv, "--row-tolerance", "0.1"]) == 0
    capsys.readouterr()


@pytest.mark.slow
def test_a_file_of_a_million_variables(capsys, tmp_path):
    # 10^6 declarations, one a line: the 100,001st (line 100001) is past the limit
    p = tmp_path / "big.bif.gz"
    with gzip.open(p, "wt", compresslevel=1) as fh:
        fh.writelines(
            f"variable v{k} {{ type discrete [ 2 ] {{ 0, 1 }}; }}\n" for k in range(10**6)
        )
    argv = ["leakage", str(p), "--all-targets", "--lam", "2"]
    refused(capsys, tmp_path, argv, "line 100001: more than 100000 variables")

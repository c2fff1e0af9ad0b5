"""``pdpsym calibrate`` over an interval chain of three states.

Independent sources:

* a brute force written here: every sequence of the chain enumerated in Fraction (the
  stationary law solved by hand-written Gaussian elimination), the count's law given each
  target value, and Eq. 2's log-ratio of the Laplace mixtures evaluated by mpmath at the
  count's support points (the breakpoint lemma: between two consecutive support points
  the ratio ``(A e^{r/l} + B e^{-r/l}) / (C e^{r/l} + D e^{-r/l})`` is monotone, and beyond
  the ends it is constant, so its sup over ``r`` is at a support point);
* the single-chain ``pdpsym calibrate`` (a different engine: no branch and bound) on a
  box shrunk to a point.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from fractions import Fraction as F

import mpmath
import pytest

from pdpsym.audit.calibration import Goal
from pdpsym.audit.class_calibrate import class_calibrate
from pdpsym.loss.class_search import k_chain_leakage
from pdpsym.models.interval_chain_k import IntervalChainK

FIXED = [["1/5", "1/5"], ["3/5", "3/5"], ["1/5", "1/5"]]
CLASS = {
    "kind": "interval-markov-chain",
    "length": 3,
    "states": ["0", "1", "2"],
    "initial": "stationary",
    "transition": [
        [["31/50", "16/25"], ["11/50", "6/25"], ["1/10", "3/20"]],
        FIXED,
        [["1/8", "1/8"], ["6/25", "6/25"], ["127/200", "127/200"]],
    ],
}


def _stationary(p):
    """pi P = pi, sum pi = 1, by Gaussian elimination in Fraction."""
    k = len(p)
    rows = [[p[j][i] - (1 if i == j else 0) for j in range(k)] + [F(0)] for i in range(k - 1)]
    rows.append([F(1)] * k + [F(1)])
    for c in range(k):
        piv = next(r for r in range(c, k) if rows[r][c] != 0)
        rows[c], rows[piv] = rows[piv], rows[c]
        for r in range(k):
            if r != c and rows[r][c] != 0:
                f = rows[r][c] / rows[c][c]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[c], strict=True)]
    return [rows[i][k] / rows[i][i] for i in range(k)]


def _brute_leakage(p, length, lam):
    """Eq. 2's max over every target and value pair (states valued 0, 1, 2; no known)."""
    k = len(p)
    pi = _stationary(p)
    best = mpmath.mpf("-inf")
    for t in range(length):
        cond = {a: {} for a in range(k)}
        for seq in itertools.product(range(k), repeat=length):
            pr = pi[seq[0]]
            for x, y in itertools.pairwise(seq):
                pr *= p[x][y]
            d = cond[seq[t]]
            d[sum(seq)] = d.get(sum(seq), F(0)) + pr
        support = sorted({c for d in cond.values() for c in d})
        with mpmath.workdps(40):
            lm = mpmath.mpf(lam.numerator) / lam.denominator

            def dens(d, r, lm=lm):
                tot = sum(d.values())
                return sum(
                    mpmath.mpf(v.numerator) / v.denominator * mpmath.exp(-abs(r - c) / lm)
                    for c, v in d.items()
                ) / (mpmath.mpf(tot.numerator) / tot.denominator)

            for a, b in itertools.permutations(range(k), 2):
                for r in support:
                    best = max(best, mpmath.log(dens(cond[a], r) / dens(cond[b], r)))
    return best


def _grid(n=3):
    """Members of the box on an n-by-n grid of row 0's first two entries (kept when the
    third, ``1 - a - b``, is inside its interval ``[1/10, 3/20]``)."""
    rest = [[F(1, 5), F(3, 5), F(1, 5)], [F(1, 8), F(6, 25), F(127, 200)]]
    out = []
    for i, j in itertools.product(range(n), repeat=2):
        a = F(31, 50) + F(1, 50) * i / (n - 1)
        b = F(11, 50) + F(1, 50) * j / (n - 1)
        if F(1, 10) <= 1 - a - b <= F(3, 20):
            out.append([[a, b, 1 - a - b], *rest])
    return out


@pytest.mark.parametrize("length", [3, 4])
def test_calibrated_scale_is_certified_and_the_lower_end_leaks_more(length):
    cls = IntervalChainK.from_json_object({**CLASS, "length": length})
    eps = F(1)
    cal = class_calibrate(cls, Goal(eps), digits=4, baselines=False)
    assert cal.lo < cal.hi
    # certified sup at the upper end: at most eps
    res = k_chain_leakage(cls, list(cls.variables), (), cal.hi, digits=4)
    assert all(t.value is not None and t.value.hi <= eps for t in res.targets)
    grid = _grid(5)
    assert len(grid) >= 3
    # brute force on the grid (vertices a = 31/50 and 16/25 included): never above eps
    assert all(_brute_leakage(p, length, cal.hi) <= 1 for p in grid)
    # 1% below the lower end, a grid member (brute force) leaks more than eps
    low = cal.lo * F(99, 100)
    assert max(_brute_leakage(p, length, low) for p in grid) > 1


def test_point_box_equals_the_single_chain(tmp_path):
    member = [[F(16, 25), F(47, 200), F(1, 8)], [F(1, 5), F(3, 5), F(1, 5)]]
    member.append([F(1, 8), F(6, 25), F(127, 200)])
    point = {**CLASS, "transition": [[[str(v), str(v)] for v in r] for r in member]}
    chain = {
        "kind": "markov-chain",
        "length": 3,
        "states": ["0", "1", "2"],
        "initial": "stationary",
        "transition": [[str(v) for v in r] for r in member],
    }
    (tmp_path / "p.json").write_text(json.dumps(point))
    (tmp_path / "c.json").write_text(json.dumps(chain))
    args = ["--eps", "1", "--digits", "4", "--json", "--no-baselines"]
    a = json.loads(_run([str(tmp_path / "p.json"), *args]).stdout)
    b = json.loads(_run([str(tmp_path / "c.json"), *args]).stdout)
    assert a["scale"]["decimal"] == b["scale"]["decimal"]
    # and the brute force: the single chain leaks <= 1 at the upper end, > 1 at 0.99 lo
    hi, lo = (F(x) for x in (b["scale"]["enclosure"][1], b["scale"]["enclosure"][0]))
    assert _brute_leakage(member, 3, hi) <= 1 < _brute_leakage(member, 3, lo * F(99, 100))


def _run(args, check=True):
    argv = [sys.executable, "-m", "pdpsym", "calibrate", *args]
    return subprocess.run(argv, capture_output=True, text=True, check=check)


def test_bad_input_exit_2_naming_the_field(tmp_path):
    path = tmp_path / "k.json"
    path.write_text(json.dumps(CLASS))
    for extra, field in (
        (["--eps", "1", "--mechanism", "geometric"], "--mechanism"),
        (["--eps", "1", "--max-work", "1000"], "--max-work"),
    ):
        r = _run([str(path), *extra], check=False)
        assert r.returncode == 2, (extra, r.stderr)
        assert field in r.stderr and r.stdout == ""
    bad = {
        **CLASS,
        "transition": [
            [["3/5", "1/2"], ["1/5", "1/4"], ["1/10", "3/20"]],
            *CLASS["transition"][1:],
        ],
    }
    path.write_text(json.dumps(bad))
    r = _run([str(path), "--eps", "1"], check=False)
    assert r.returncode == 2 and "transition" in r.stderr


def test_text_output_lists_group_dp_and_the_mqm_line(tmp_path):
    path = tmp_path / "k.json"
    path.write_text(json.dumps(CLASS))
    out = _run([str(path), "--eps", "1", "--digits", "4"]).stdout
    assert "group-dp: scale 6.000" in out  # T = 3 records, sensitivity 2: 3 * 2 / 1
    # MQM over the members evaluated, labelled so (values: tests/audit/test_class_calibrate_kmqm)
    assert "mqm-exact: scale 6.000" in out and "mqm-approx: scale 6.000" in out  # T / eps * 2
    assert "vertices and\n   centre: a lower bound of the class's own MQMExact scale" in out
    assert all(len(line) < 120 for line in out.splitlines())

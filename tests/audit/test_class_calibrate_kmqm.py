"""MQMExact and MQMApprox for a k-state interval chain (``class_calibrate``'s baselines).

Independent sources:

* MQMExact: a brute force written here from Song, Wang, Chaudhuri (SIGMOD 2017), Sec. 4
  and Algorithm 2 with a class: every sequence of each member enumerated in Fraction (the
  stationary law by hand-written Gaussian elimination), each quilt's max-influence
  ``max_{s != s'} max_{x_Q} ln P(x_Q | X_i = s) / P(x_Q | X_i = s')`` read off the joint
  law, maximized over the members, then ``sigma_i = min_Q card(N) / (eps - e)`` and the
  scale ``L max_i sigma_i``;
* MQMApprox's inputs: ``pi_min`` by the same Gaussian elimination at the rows' vertices
  (enumerated here by hand) and on a grid inside the box (never lower), the eigengap
  ``(1 - l_2) / 2`` of ``P P*`` by mpmath's eigenvalues per member;
* a box shrunk to a point: the single chain's ``pdpsym calibrate`` (its MQM lines are
  tested on their own in tests/mechanisms).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from fractions import Fraction as F

import mpmath
import pytest

from pdpsym.app.cli import main
from pdpsym.audit.calibration import Goal
from pdpsym.audit.class_calibrate import class_baselines, vertex_members
from pdpsym.mechanisms.mqm_class import class_pi_min
from pdpsym.models.interval_chain_k import IntervalChainK

BOX = {
    "kind": "interval-markov-chain",
    "length": 5,
    "states": ["0", "1", "2"],
    "initial": "stationary",
    "transition": [
        [["3/5", "7/10"], ["1/5", "1/4"], ["1/10", "3/20"]],
        [["1/5", "1/5"], ["3/5", "3/5"], ["1/5", "1/5"]],
        [["1/10", "3/20"], ["1/5", "1/4"], ["3/5", "13/20"]],
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


def _influence(p, T, i, quilt):
    """max_{s != s'} max_{x_Q} P(x_Q | X_i = s) / P(x_Q | X_i = s') by enumeration."""
    k, pi = len(p), _stationary(p)
    joint = {}
    for seq in itertools.product(range(k), repeat=T):
        pr = pi[seq[0]]
        for x, y in itertools.pairwise(seq):
            pr *= p[x][y]
        key = (seq[i], tuple(seq[q] for q in quilt))
        joint[key] = joint.get(key, F(0)) + pr
    marg = [sum(v for (s, _), v in joint.items() if s == a) for a in range(k)]
    best = F(0)
    for s, s2 in itertools.permutations(range(k), 2):
        for xq in itertools.product(range(k), repeat=len(quilt)):
            num, den = joint.get((s, xq), F(0)) / marg[s], joint.get((s2, xq), F(0)) / marg[s2]
            assert den > 0  # every entry of the box is positive
            best = max(best, num / den)
    return best


def _brute_mqm_exact(members, T, eps, L):
    """Song et al.'s MQMExact over a class: each quilt's influence maximized over the
    members before the quilts are chosen (0-based records)."""
    worst = 0.0
    for i in range(T):
        best = T / eps  # the empty quilt: all T records nearby, no influence
        quilts = [((i - a, i + b), a + b - 1) for a in range(1, i + 1) for b in range(1, T - i)]
        quilts += [((i + b,), i + b) for b in range(1, T - i)]
        quilts += [((i - a,), T - i - 1 + a) for a in range(1, i + 1)]
        for q, card in quilts:
            e = math.log(max(_influence(p, T, i, q) for p in members))
            if e < eps:
                best = min(best, card / (eps - e))
        worst = max(worst, best)
    return L * worst


def _row_vertices(row):
    """Every entry but one at an end, the last fixed by the sum, kept when inside."""
    k, out = len(row), set()
    for j in range(k):
        others = [m for m in range(k) if m != j]
        for ends in itertools.product((0, 1), repeat=k - 1):
            r = [F(0)] * k
            for m, e in zip(others, ends, strict=True):
                r[m] = row[m][e]
            r[j] = 1 - sum(r[m] for m in others)
            if row[j][0] <= r[j] <= row[j][1]:
                out.add(tuple(r))
    return sorted(out)


def _eigengap(p):
    """(1 - l_2) / 2, l_2 the second largest eigenvalue of P P* (mpmath, 40 digits)."""
    k, pi = len(p), _stationary(p)
    with mpmath.workdps(40):
        P = mpmath.matrix([[mpmath.mpf(v.numerator) / v.denominator for v in r] for r in p])
        rev = mpmath.matrix(k, k)
        for x, y in itertools.product(range(k), repeat=2):
            rev[x, y] = (
                mpmath.mpf((pi[y] * p[y][x] / pi[x]).numerator)
                / (pi[y] * p[y][x] / pi[x]).denominator
            )
        ev = sorted(mpmath.re(v) for v in mpmath.eig(P * rev)[0])
        return (1 - ev[-2]) / 2


def _baselines_of(obj, eps):
    cls = IntervalChainK.from_json_object(obj)
    goal = dataclasses.replace(Goal(eps), targets=tuple(cls.variables))
    thetas = vertex_members(cls)
    members = [cls.member(t) for t in thetas]
    out = {b.name: b.as_json(15) for b in class_baselines(cls, members, members[0], goal)}
    return cls, thetas, out


@pytest.mark.parametrize(("eps", "quilt"), [(F(4), False), (F(6), True)])
def test_mqm_exact_equals_the_brute_force_over_the_vertices_and_centre(eps, quilt):
    # eps = 4: the empty quilt (scale L T / eps) beats every quilt at some record; a
    # comparison against T instead of T / eps picked a worse quilt (2.7315 for 2.5)
    cls, thetas, out = _baselines_of(BOX, eps)
    mats = [[[F(v) for v in r] for r in cls.matrix_of(t)] for t in thetas]
    want = _brute_mqm_exact(mats, 5, float(eps), 2)  # states valued 0, 1, 2: L = 2
    got = float(out["mqm-exact"]["scale"]["enclosure"][0])
    assert (want < 5 * 2 / eps) == quilt  # eps = 6: a quilt's influence decides the scale
    assert abs(got - want) < 1e-9 * want
    # labelled as computed over these members, a lower bound of the class's own
    note = out["mqm-exact"]["note"]
    assert f"{len(thetas)} members at the polytopes' vertices and centre" in note
    assert "lower bound of the class's own MQMExact scale" in note


def test_mqm_approx_pi_min_is_the_class_min_and_the_gap_the_members_min():
    cls, thetas, out = _baselines_of(BOX, F(6))
    ap = out["mqm-approx"]
    rows = [[(F(a), F(b)) for a, b in r] for r in BOX["transition"]]
    combos = list(itertools.product(*[_row_vertices(r) for r in rows]))
    pis = [min(_stationary(c)) for c in combos]
    assert F(ap["pi_min"]) == min(pis)
    assert f"all {len(combos)} combinations" in ap["note"]
    # a grid inside the box never goes below it (row 0's and row 2's first two entries)
    for a0, b0, a2, b2 in itertools.product(range(5), repeat=4):
        r0 = [F(3, 5) + F(a0, 40), F(1, 5) + F(b0, 80)]
        r2 = [F(1, 10) + F(a2, 80), F(1, 5) + F(b2, 80)]
        r0.append(1 - sum(r0))
        r2.append(1 - sum(r2))
        if F(1, 10) <= r0[2] <= F(3, 20) and F(3, 5) <= r2[2] <= F(13, 20):
            assert min(_stationary([r0, [F(1, 5), F(3, 5), F(1, 5)], r2])) >= min(pis)
    gaps = [_eigengap([[F(v) for v in r] for r in cls.matrix_of(t)]) for t in thetas]
    assert abs(float(ap["eigengap"]) - float(min(gaps))) < 1e-12
    assert "the class's own MQMApprox scale is at least this" in ap["note"]
    # MQMApprox's bound is at least each quilt's exact influence: never below MQMExact
    assert F(ap["scale"]["enclosure"][0]) >= F(out["mqm-exact"]["scale"]["enclosure"][0])


def _run(args, capsys):
    assert main(["calibrate", *args]) == 0
    return capsys.readouterr().out


def test_point_box_prints_the_single_chains_mqm_scales(tmp_path, capsys):
    member = [["13/20", "9/40", "1/8"], ["1/5", "3/5", "1/5"], ["1/8", "9/40", "13/20"]]
    point = {**BOX, "length": 6, "transition": [[[v, v] for v in r] for r in member]}
    chain = {**point, "kind": "markov-chain", "transition": member}
    (tmp_path / "p.json").write_text(json.dumps(point))
    (tmp_path / "c.json").write_text(json.dumps(chain))
    args = ["--eps", "6", "--digits", "3", "--json"]
    a = json.loads(_run([str(tmp_path / "p.json"), *args], capsys))
    b = json.loads(_run([str(tmp_path / "c.json"), *args], capsys))
    got = {x["name"]: x["scale"] for x in a["baselines"]}
    want = {x["name"]: x["scale"] for x in b["baselines"]}
    assert set(got) == set(want) == {"group-dp", "mqm-exact", "mqm-approx"}
    assert got == want
    assert float(got["mqm-exact"]["enclosure"][1]) < 6 * 2 / 6  # a quilt, not the empty one


def test_class_pi_min_over_more_combinations_than_members_and_its_limit():
    rows = [
        [(F(1, 10), F(1, 5)) if j != s else (F(2, 5), F(1, 2)) for j in range(4)] for s in range(4)
    ]
    combos = list(itertools.product(*[_row_vertices(r) for r in rows]))
    assert len(combos) == 256  # more than the 64 members the calibration evaluates
    # hand source: the stationary law at every combination of the rows' vertices
    assert class_pi_min(rows) == (min(min(_stationary(c)) for c in combos), 256)
    assert class_pi_min(rows, limit=255) is None  # beyond the limit: the members' min

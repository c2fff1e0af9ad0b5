"""Independent records (product models): every target leaks ``(max c - min c) / lambda``
(the lemma of ``loss.shortcuts``), checked against the generic engine's certified
enclosures on small models (the closed form forced on by a zero threshold), by hand on
one model, and at 10^4 records each with its own p from the command line."""

from __future__ import annotations

import contextlib
import io
import random
from fractions import Fraction as F
from pathlib import Path

import pytest

import pdpsym as ps
from pdpsym.app.cli import main
from pdpsym.audit import calibrate as cal
from pdpsym.loss import count_leakage, shortcuts


def _models() -> list[ps.ProductModel]:
    rng = random.Random(4)
    out = [ps.ProductModel.bernoulli([F(rng.randint(1, 9), 10) for _ in range(6)])]
    laws = []
    for _ in range(4):
        k = rng.randint(2, 3)
        ws = [rng.randint(0, 3) for _ in range(k)]
        ws[0] = ws[0] or 1
        tot = sum(ws)
        vals = rng.sample(range(-3, 6), k)
        laws.append(([str(v) for v in vals], [str(F(w, tot)) for w in ws]))
    out.append(ps.ProductModel(laws))
    return out


@pytest.mark.parametrize("model", _models())
@pytest.mark.parametrize("lam", [F(1, 2), F(3)])
def test_closed_form_inside_the_engines_enclosures(
    model: ps.ProductModel, lam: F, monkeypatch: pytest.MonkeyPatch
) -> None:
    targets = list(model.variables)
    weights = {targets[0]: 2}
    generic = count_leakage.structured_leakage(model, targets, lam=lam, weights=weights)
    monkeypatch.setattr(shortcuts, "INDEPENDENT_FROM", 0)
    closed = count_leakage.structured_leakage(model, targets, lam=lam, weights=weights)
    for g, c in zip(generic, closed, strict=True):
        assert g.status == c.status
        if c.value is not None:
            assert c.value.lo == c.value.hi
            assert g.value is not None and g.value.lo <= c.value.lo <= g.value.hi


def test_closed_form_by_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    # x1 in {-2, 0, 5} with P(-2) = 0: its reachable values are 0 and 5, weight 3, so the
    # leakage is 3 * 5 / lam = 15 / 4 at lam = 4 (hand); x2 has one possible value: none
    model = ps.ProductModel([(["-2", "0", "5"], ["0", "1/2", "1/2"]), (["1", "2"], ["1", "0"])])
    monkeypatch.setattr(shortcuts, "INDEPENDENT_FROM", 0)
    res = count_leakage.structured_leakage(model, ["x1", "x2"], lam=4, weights={"x1": 3})
    assert res[0].value is not None and res[0].value.lo == F(15, 4)
    assert res[1].status == "no-compatible-pair"


def test_calibrate_closed_form_inside_the_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    model = _models()[1]
    generic = cal.calibrate(model, F(1, 2))
    monkeypatch.setattr(shortcuts, "INDEPENDENT_FROM", 0)
    closed = cal.calibrate(model, F(1, 2))
    assert closed.lo == closed.hi and generic.lo <= closed.lo <= generic.hi
    assert closed.worst_target == generic.worst_target


def test_cli_ten_thousand_distinct_records(tmp_path: Path) -> None:
    # every record its own p: each target leaks 1/lam = 1/2 (hand: values 0 and 1);
    # refused before by --max-work (10^12 steps)
    rng = random.Random(9)
    f = tmp_path / "p.txt"
    f.write_text("".join(f"{rng.randint(1, 10**6 - 1)}/1000000\n" for _ in range(10_000)))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["leakage", str(f), "--all-targets", "--lam", "2", "--json"])
    assert code == 0, err.getvalue()
    assert '"0.5' in out.getvalue()

"""`pdpsym audit` with Laplace and geometric noise: every notion is filled.

Expected values: classic DP of Laplace noise (λ = 1) on the sum of two binary records,
sensitivity 1, is δ(ε) = 1 - e^{(ε - 1)/2} (hand derivation in test_privacy_loss.py);
at ε = 1/2 that is 1 - e^{-1/4} = 0.22119921692859512...
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
from pathlib import Path

import pytest

from pdpsym.app.cli import main

MODEL = {
    "variables": ["x1", "x2"],
    "rows": [["0", "0", "3/10"], ["0", "1", "1/5"], ["1", "0", "1/5"], ["1", "1", "3/10"]],
}
NOTIONS = [
    "dp",
    "apkdp",
    "ppkdp",
    "np",
    "cdp",
    "ibcdp",
    "dependent-dp",
    "dependent-dp/conditional",
    "distributional-dp",
]


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    "mech", [{"kind": "laplace", "lam": "1"}, {"kind": "geometric", "alpha": "1/2"}]
)
def test_every_notion_has_delta_and_curve(tmp_path: Path, mech: dict) -> None:
    m, k, curve = tmp_path / "m.json", tmp_path / "k.json", tmp_path / "c.csv"
    m.write_text(json.dumps(MODEL))
    k.write_text(json.dumps(mech))
    code, out, err = _run(
        "audit", str(m), str(k), "--target", "x1", "--known", "x2", "--eps", "1/2",
        "--delta", "1/10", "--notions", "all", "--json", "--digits", "6",
        "--curve", str(curve), "--grid", "0:1:2",
    )  # fmt: skip
    assert code == 0, err
    res = json.loads(out)["notions"]
    for n in NOTIONS:
        assert res[n]["epsilon"] is not None, n
        (point,) = res[n]["delta_at_epsilon"]
        assert point["delta"] is not None and point["delta"]["decimal"], n
        assert res[n]["epsilon_at_delta"]["epsilon"] is not None, n
        assert "not computed" not in (res[n]["note"] or ""), n
    if mech["kind"] == "laplace":
        # hand derivation: 1 - e^{-1/4}
        assert res["dp"]["delta_at_epsilon"][0]["delta"]["decimal"] == "0.221199"
    with curve.open() as fh:
        rows = list(csv.DictReader(fh))
    assert {r["notion"] for r in rows} == set(NOTIONS)
    assert all(r["delta_decimal"] for r in rows)


@pytest.mark.slow
def test_docs_example_three_records_every_notion_filled(tmp_path: Path) -> None:
    # docs/examples: three correlated records, Laplace λ = 2 on the sum, x3 known
    root = Path(__file__).resolve().parents[2] / "docs" / "examples"
    curve = tmp_path / "c.csv"
    code, out, err = _run(
        "audit", str(root / "correlated3.json"), str(root / "laplace2.json"), "--target", "x1",
        "--known", "x3", "--eps", "1/4", "--delta", "1/10", "--notions", "all", "--json",
        "--curve", str(curve), "--grid", "0:1:3",
    )  # fmt: skip
    assert code == 0, err
    res = json.loads(out)["notions"]
    assert set(res) == set(NOTIONS)
    for n, r in res.items():
        assert r["delta_at_epsilon"][0]["delta"] is not None, n
        assert r["epsilon_at_delta"]["epsilon"] is not None, n
        assert "not computed" not in (r["note"] or ""), n
    with curve.open() as fh:
        assert {r["notion"] for r in csv.DictReader(fh)} == set(NOTIONS)

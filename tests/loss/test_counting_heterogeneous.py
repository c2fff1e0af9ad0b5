"""The counting query over many heterogeneous records: grouped binomial blocks and the
monotone-ratio search, against a Fraction brute force written here; the CLI refuses
work above --max-work instead of running silently."""

from __future__ import annotations

import contextlib
import io
from fractions import Fraction as F
from pathlib import Path

from pdpsym.app.cli import main
from pdpsym.core.certify import certify
from pdpsym.core.eps import Eps
from pdpsym.mechanisms.counting import counting_delta


def _pmf(ps: list[F]) -> list[F]:
    out = [F(1)]
    for p in ps:
        nxt = [F(0)] * (len(out) + 1)
        for s, w in enumerate(out):
            nxt[s] += w * (1 - p)
            nxt[s + 1] += w * p
        out = nxt
    return out


def test_large_heterogeneous_count_matches_brute_force() -> None:
    # Brute force: the target is one record with p = 1/3 (or 1/2); the others' count S
    # has the exact convolution below; at e^eps = 2, delta_{1,0} = Σ_o max(0,
    # P[S = o-1] - 2 P[S = o]) and delta_{0,1} the mirror; the answer is the max over
    # both directions and both distinct targets. 402 records take the large-law path.
    ps = [F(1, 3)] * 201 + [F(1, 2)] * 201
    best = F(0)
    for t in (F(1, 3), F(1, 2)):
        others = list(ps)
        others.remove(t)
        s = _pmf(others)
        m = len(others)

        def at(k: int, s: list[F] = s, m: int = m) -> F:
            return s[k] if 0 <= k <= m else F(0)

        d10 = sum((max(F(0), at(o - 1) - 2 * at(o)) for o in range(m + 2)), F(0))
        d01 = sum((max(F(0), at(o) - 2 * at(o - 1)) for o in range(m + 2)), F(0))
        best = max(best, d10, d01)
    got = counting_delta(ps, Eps.log(2)).value
    assert certify(got, 20).decimal == certify(best, 20).decimal


def test_cli_refuses_large_heterogeneous_work(tmp_path: Path) -> None:
    # 10^5 records with 7 distinct p: refused before the work, naming --max-work
    f = tmp_path / "p.txt"
    values = ["1/10", "1/5", "3/10", "2/5", "1/2", "3/5", "7/10"]
    f.write_text("\n".join(values[k % 7] for k in range(100_000)) + "\n")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["counting", "--p-values", str(f), "--eps", "1/10"])
    assert code == 2
    assert "--max-work" in err.getvalue() and out.getvalue() == ""

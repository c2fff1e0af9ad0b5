"""The temporal mechanism column's cones: no ray ceiling (a run the estimate lets start is
not stopped at 512 rays), and the estimate refuses before any work."""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import pytest

from pdpsym.app.cli import main
from pdpsym.audit import temporal_exact as te
from pdpsym.models.markov import MarkovChain

# TKDE Fig. 4's 3-state matrix (Cao et al., TKDE 2019)
TKDE = [["1/10", "1/5", "7/10"], ["3/10", "3/10", "2/5"], ["1/2", "3/10", "1/5"]]


def _obj(T: int) -> dict:
    return {
        "kind": "markov-chain",
        "length": T,
        "states": ["0", "1", "2"],
        "initial": "stationary",
        "transition": TKDE,
    }


def _chain(T: int) -> MarkovChain:
    return MarkovChain.from_json_object(_obj(T))


def test_the_cap_has_no_ceiling() -> None:
    # by hand: 2 (j + k) + 64; the former cap stopped at 512 rays (j = 222 on 3 states)
    assert te.stream_ray_cap(0, 3) == 70
    assert te.stream_ray_cap(300, 3) == 670 > 512


def test_the_estimate_counts_the_cap_at_every_step() -> None:
    # a hand sum of the documented formula (three states, randomized response 3/5: the
    # lcm of the denominators is 10, 4 bits, doubled: 8 bits a step; scale 4)
    ch, mech = _chain(300), te.randomized_response(F(3, 5), 3)
    per_ray = 3 * (9 + 10) + 9
    want = 2 * 4 * sum((2 * (j + 3) + 64) * per_ray * (1 + j * 8 // 256) for j in range(1, 301))
    assert te.stream_work(ch, mech) == -(-want // 30)  # fitted units -> microseconds


def test_past_512_rays_is_refused_before_any_work(capsys, tmp_path: Path) -> None:
    # T = 1000 carries 1999 rays (2 j + 1), many minutes of CPU (the work grows as T^2:
    # about 11 times T = 300's 39 s): the estimate (above the default 1e8) refuses it
    p = tmp_path / "c.json"
    p.write_text(json.dumps(_obj(1000)))
    (tmp_path / "rr.json").write_text('{"kind": "randomized-response", "keep": "3/5"}')
    code = main(["temporal", str(p), "--mechanism", str(tmp_path / "rr.json")])
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1 and "--max-work" in lines[0]


@pytest.mark.slow
def test_past_512_rays_the_run_finishes_and_agrees_with_a_shorter_chain() -> None:
    # the cone of TKDE Fig. 4's matrix with randomized response has 2 j + 1 rays after j
    # steps, past 512 at T = 300; BPL_t depends on r_1..r_t only, so its first 40 values
    # equal those of the chain cut at T = 40 (an independent run of the same engine)
    mech = te.randomized_response(F(3, 5), 3)
    long = te.stream_leakage(_chain(300), mech)
    short = te.stream_leakage(_chain(40), mech)
    assert long.bpl[:40] == short.bpl
    assert len(long.tpl) == 300

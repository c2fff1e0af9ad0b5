"""``pdpsym figure ID`` with no ``--scale``: the paper's parameters when their estimate is
within ``--max-work``, else the quick version, said on stderr; a refusal names the flag and
the cheaper ``--scale quick``.

Source of the expected scales: the measured CPU time of each figure's points
(benchmarks/bench_estimates.py, recorded in docs/benchmarks.md): li2019.fig5a at paper
scale is 30 exact full searches of 3^15 WHG nodes, about 17 s each, some 9 minutes of CPU
in all, above the default limit of 10^8 steps (about 100 s); lmm2016.fig6 at paper scale
is 27 closed forms, a few milliseconds each.
"""

from __future__ import annotations

import pytest

from pdpsym.app.budget import COMMAND_BASE, DEFAULT_MAX_WORK
from pdpsym.app.cli import main
from pdpsym.app.commands.figure import default_scale, work
from pdpsym.claims.figure import Scale
from pdpsym.core.numbers import parse_int
from pdpsym.verify.figures import all_figures

FIGURES = all_figures()


def _scale_line(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("# scale:"))


def test_a_cheap_figure_runs_at_the_paper_scale_without_a_flag(capsys) -> None:
    assert main(["figure", "lmm2016.fig6", "--format", "csv", "--jobs", "1"]) == 0
    got = capsys.readouterr()
    assert _scale_line(got.out) == "# scale: paper"
    assert got.err == ""


def test_a_figure_above_the_limit_runs_quick_and_says_how_to_get_the_paper_scale(
    capsys,
) -> None:
    assert main(["figure", "li2019.fig5a", "--format", "csv", "--jobs", "1"]) == 0
    got = capsys.readouterr()
    assert _scale_line(got.out) == "# scale: quick"
    err = got.err.strip().splitlines()
    assert len(err) == 1 and "--scale paper" in err[0] and "--max-work" in err[0], err
    # the --max-work it names admits the paper scale (the check adds the command's base)
    named = parse_int(err[0].split("--max-work ")[1].split()[0], "--max-work", 1, 10**18)
    paper = work("li2019.fig5a", list(FIGURES["li2019.fig5a"].points(Scale.PAPER)))
    assert paper + COMMAND_BASE <= named < 2 * paper


def test_raising_the_limit_makes_the_paper_scale_the_default() -> None:
    spec = FIGURES["li2019.fig5a"]
    assert default_scale("li2019.fig5a", spec, DEFAULT_MAX_WORK) is Scale.QUICK
    paper = work("li2019.fig5a", list(spec.points(Scale.PAPER)))
    assert default_scale("li2019.fig5a", spec, paper) is Scale.PAPER
    assert default_scale("li2019.fig5a", spec, paper - 1) is Scale.QUICK


def test_an_explicit_paper_scale_above_the_limit_names_both_ways_out(capsys) -> None:
    assert main(["figure", "li2019.fig5a", "--scale", "paper"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert "--max-work" in err[0] and "--scale quick" in err[0], err


@pytest.mark.parametrize("fid", list(FIGURES))
def test_every_default_scale_is_within_the_default_limit(fid: str) -> None:
    spec = FIGURES[fid]
    scale = default_scale(fid, spec, DEFAULT_MAX_WORK)
    assert work(fid, list(spec.points(scale))) <= DEFAULT_MAX_WORK


@pytest.mark.slow
@pytest.mark.parametrize("fid", list(FIGURES))
def test_every_figure_runs_at_its_default_scale(fid: str, capsys) -> None:
    # the acceptance: `pdpsym figure ID --format csv` exits 0 with no flag (up to a minute
    # of CPU each)
    assert main(["figure", fid, "--format", "csv"]) == 0
    assert capsys.readouterr().out.startswith(f"# {fid}:")

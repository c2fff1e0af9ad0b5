"""``pdpsym figure``: listing, every figure at --scale quick as CSV and PNG, bad input."""

from __future__ import annotations

import pytest

from pdpsym.app.cli import main
from pdpsym.verify.figures import all_figures as figures

IDS = list(figures())


def test_list_names_every_figure(capsys) -> None:
    assert main(["figure", "--list"]) == 0
    listed = [line.split("\t")[0] for line in capsys.readouterr().out.splitlines()]
    assert listed == IDS


@pytest.mark.parametrize("fid", IDS)
def test_quick_csv_and_png(fid: str, tmp_path, capsys) -> None:
    assert main(["figure", fid, "--scale", "quick", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"# {fid}:")
    png = tmp_path / "f.png"
    assert main(["figure", fid, "--scale", "quick", "--format", "png", "--out", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (["figure"], "ID"),
        (["figure", "nope.fig1"], "ID"),
        (["figure", "dmkb2020.fig4", "--format", "png"], "--out"),
    ],
)
def test_bad_input_is_one_line_exit_2(argv, field, capsys, tmp_path) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and field in err[0]
